"""Golden positions and perft counts for Silver & Gold Pyramids: a change in move
generation, chance or notation shows up here.

``perft(state, d)`` counts the sequences of ``d`` actions from ``state``: a legal move of
the current seat (at a sealed node the lowest deciding seat, so the seats' moves are
counted one after the other, G1) or, at a chance node, one outcome (chance *expanded*, as
the Sneferu and Imhotep counts do). The positions are reached from a new game by a fixed
seed: chance drawn with ``sample_outcome``, ``skip`` decisions uniformly from
``legal_moves``, all with one ``random.Random(seed)``; each must give its text exactly.
"""

from __future__ import annotations

import random

import pytest

from sneferu_cli.bench import perft as count_sequences
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.state import SilverGoldState


def actions(state: SilverGoldState) -> list[str]:
    if state.is_chance_node():
        return [o for o, _ in GAME.chance_outcomes(state)]
    return GAME.legal_moves(state)


def apply(state: SilverGoldState, text: str) -> None:
    if text.startswith("~"):
        GAME.apply_outcome(state, text)
    else:
        GAME.apply_move(state, text, listed=True)


def reach(players: int, seed: int, skip: int) -> SilverGoldState:
    rng = random.Random(seed)
    state = GAME.new_game(players)
    done = 0
    while True:
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        elif done == skip:
            return state
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
            done += 1


GOLDEN = [
    # The keep: 6 pairs for each seat, then 44 cards for the first offer card.
    (2, 1, 0, "sgp-recon-1 r1.0 keep exp:- offer:- deck:40 | 1: R0 G0 F:---- S0 done:- "
     "pts:- dealt:5,9,17,37 | 2: R0 G0 F:---- S0 done:- pts:- dealt:10,32,34,35",
     [6, 36, 1584]),
    # The first marking, L4: 15 moves for seat 1, 10 for seat 2, then the 5 patterns left.
    (2, 1, 2, "sgp-recon-1 r1.1 mark exp:L4 offer:2,7,14,38 deck:40 | 1: 17[] 37[] R0 G0 "
     "F:---- S0 done:- pts:- | 2: 32[] 34[] R0 G0 F:---- S0 done:- pts:-",
     [15, 150, 750]),
    # Two seats have sealed their move; the third decides.
    (3, 7, 20, "sgp-recon-1 r1.6 mark exp:I3,D2,L4,T4,V3,O4 offer:8,21,33,34 deck:38 | "
     "1: 10[a1,b1,c1,d1,e1,d2] 26[a1,b1,b2,d2,b3,c3,d3,b4,c4,b5] R0 G0 F:x--- S2 done:- "
     "pts:- sealed:10:c2 | 2: 4[a1,b1,c1,a2] 5[a1,b1,a2,b2,a3,b3,c3] R2 G1 F:---- S0 done:- "
     "pts:- sealed:5:a4 | 3: 6[a1,a2,b2,c2,a3,c3,d3] 30[a1,a2,b2,b3,a4,b4] R1 G1 F:---- S0 "
     "done:- pts:-", [21, 42, 567]),
    # Round 2's last turn, four seats, none sealed yet: seat 1 has 8 moves, seat 2 10.
    (4, 3, 60, "sgp-recon-1 r2.7 mark exp:V3,L4,O4,D2,I3,I3,V3 offer:3,18,34,40 deck:32 | "
     "1: 9[a1,b1,d1,e1,b2,c2,d2,e2,a3,b3,d3,e3,b4,d4] 35[a1,b1,c1,d1,a2,b2,c2,d2,e2,a3,b3,"
     "c3,e3,c4,d4,e4,d5] R2 G3 F:---- S2 done:- pts:- | 2: 12[a1,b1,a2,b2,b3] 39[a1] R3 G3 "
     "F:---- S3 done:43,45 pts:- | 3: 5[a1] 14[] R2 G2 F:-x-- S3 done:46 pts:- | 4: "
     "29[a1,b1,c1,a2,c2] 48[a1,b1,c1,a2,c2,d2,d3,e3,d4] R1 G3 F:x--- S3 done:21 pts:-",
     [8, 80, 800]),
]


@pytest.mark.parametrize(("players", "seed", "skip", "text", "counts"), GOLDEN)
def test_golden_positions_and_their_perft_counts(players, seed, skip, text, counts):
    state = reach(players, seed, skip)
    assert GAME.to_position(state) == text
    assert GAME.to_position(GAME.from_position(text)) == text
    assert [count_sequences(state, d, actions, apply) for d in (1, 2, 3)] == counts
