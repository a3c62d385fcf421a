"""Perft golden counts for Imhotep: a change in move generation shows up here.

``perft(state, d)`` counts the sequences of ``d`` actions from ``state``, where an action is
a legal move of the deciding seat or, at a chance node, one outcome: chance is *expanded*
(every outcome with a positive weight is one branch, whatever its probability), as the
Sneferu perft counts do. The positions are reached from a new game by a fixed seed:
the chance events are drawn with ``sample_outcome`` and, for the later positions,
``skip`` decisions taken uniformly from ``legal_moves``, all with one ``random.Random(seed)``.
The round card and display reached are asserted too, so that a change in sampling shows.
"""

from __future__ import annotations

import random

import pytest

from sneferu_cli.bench import perft as count_sequences
from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.state import ImhotepState


def actions(state: ImhotepState) -> list[str]:
    if state.is_chance_node():
        return [o for o, _ in GAME.chance_outcomes(state)]
    return GAME.legal_moves(state)


def apply(state: ImhotepState, text: str) -> None:
    if text.startswith("~"):
        GAME.apply_outcome(state, text)
    else:
        GAME.apply_move(state, text, listed=True)


def perft(state: ImhotepState, depth: int) -> int:
    """How many sequences of ``depth`` actions start at ``state``."""
    return count_sequences(state, depth, actions, apply)


def seeded(players: int, variant: str, seed: int, skip: int) -> ImhotepState:
    """A new game, its chance drawn by ``seed``, then ``skip`` random decisions."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    while True:
        while state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        if not skip:
            return state
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
        skip -= 1


# players, variant, seed, skip, the round card and display reached, perft 1..4. The last
# four stop at a side-B pyramid choice, a pair's keep, a temple-B choice and a market take.
GOLDEN = [
    (2, 'AAAAA', 1, 0, 'R2-2', ['PAV', 'STA', 'DET', 'STA'], [12, 138, 1560, 17720]),
    (3, 'BBBBB', 2, 0, 'R3-7', ['SAR', 'DEP', 'DEP'], [12, 143, 1732, 20904]),
    (4, 'ABABA+wrath', 3, 0, 'R4-2', ['DET', 'LEV', 'CHI', 'STA'], [13, 167, 2127, 24794]),
    (2, 'AAAAA', 4, 30, 'R2-3', ['DEC', 'DEC', 'LEV', 'SAI'], [3, 12, 87, 897]),
    (4, 'BABAB', 6, 40, 'R4-6', ['ENT', 'CHI', 'STA'], [7, 49, 323, 1999]),
    (3, 'ABBAA', 8, 90, 'R3-6', ['ENT', '-', 'SAI', '-'], [4, 10, 23, 92]),
    (2, 'BBBBB', 1, 5, 'R2-2', ['PAV', 'STA', 'DET'], [4, 15, 46, 371]),
    (2, 'BBBBB', 1, 12, 'R2-2', ['-', 'STA', 'DET'], [2, 12, 56, 284]),
    (2, 'BBBBB', 1, 40, 'R2-7', ['ENT', 'STA', 'DEO'], [1, 12, 131, 1448]),
    (2, 'BBBBB', 1, 110, 'R2-1', ['DEP', 'DEO', 'LEV'], [4, 21, 188, 710]),
]


@pytest.mark.parametrize("players,variant,seed,skip,card,display,counts", GOLDEN,
                         ids=[f"{g[0]}p-{g[1]}-{g[2]}-{g[3]}" for g in GOLDEN])
def test_perft_counts(players, variant, seed, skip, card, display, counts):
    state = seeded(players, variant, seed, skip)
    codes = state.tables.card_codes
    assert state.round_card == card
    assert [codes[k] if k >= 0 else "-" for k in state.display] == display
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts


def test_perft_definition():
    state = seeded(2, "AAAAA", 1, 0)
    assert perft(state, 0) == 1
    assert perft(state, 1) == len(GAME.legal_moves(state))
