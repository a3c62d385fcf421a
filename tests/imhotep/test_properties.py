"""Property tests: invariants at every step of random Imhotep games.

Hypothesis draws the player count (2-4), the sides of the five sites, Wrath on or off,
a seed, and maybe a seat that retires at some step. The game is driven through the game
interface (sneferu_cli.game): chance with ``sample_outcome``, decisions uniformly among
``legal_moves``. At every step: 30 stones per colour in quarry, sled, ships, sites and the
score marker (section 2, I2); 34 market cards in deck, discard, display, hands, being
resolved and the drawn pair (I33); sleds within 0..5; every listed move applies (on
clones, every few states all of them) and equals the unchecked path; clones are
independent; scores never go down during play (I26); unlisted moves are rejected and
change nothing; chance probabilities sum to 1. At the end: 6 rounds were played (10).
"""

from __future__ import annotations

import itertools
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sneferu_cli.games.imhotep import GAME, VARIANTS
from sneferu_cli.games.imhotep.state import ImhotepState

ALL_EVERY = 15  # every this many decisions, every legal move is applied on a clone
SLOTS = [f"{c}{x}.{j}" for c, n in ((4, "AB"), (3, "ABC"), (2, "AB"), (1, "A"))
         for x in n for j in range(1, c + 1)]
POOL = (["Q", "PASS", "HAM -", "take MX", "temple pts", "temple stones", "keep ENT",
         "keep STA", "pyr PL", "pyr PM bonus", "pyr PR bonus 2A.1", "LEV 4A P 1,2,3",
         "LEV 3A O 3,2,1"]
        + [f"take M{i}" for i in range(1, 5)] + [f"L {s}" for s in SLOTS]
        + [f"S {s[:2]} {x}" for s in SLOTS[::2] for x in "MPTCO"]
        + [f"SAI {s} T" for s in SLOTS] + [f"HAM {s}" for s in SLOTS]
        + [f"CHI {a} {b}" for a, b in itertools.pairwise(SLOTS)])
"""Move texts tried where they are not listed: they must be rejected without a trace."""


def snapshot(state: ImhotepState) -> str:
    """Every field of the state as text (ships spelled out), to compare states. (Fields
    by ``dir``: the compiled state has no ``__dict__``.)"""
    fields = {name: getattr(state, name) for name in dir(state)
              if not name.startswith("_") and name not in ("tables", "edition")
              and not callable(getattr(state, name))}
    fields["ships"] = [(s.name, s.slots, s.site) for s in state.ships]
    return repr(sorted(fields.items()))


def check(state: ImhotepState) -> None:
    """Stones and cards conserved, sleds, rounds and ships in bounds (``GAME.check``)."""
    GAME.check(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), variant=st.sampled_from(VARIANTS),
       seed=st.integers(0, 2**32 - 1),
       retire=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 400))))
def test_random_games_keep_the_invariants(players, variant, seed, retire):
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    decisions = 0
    steps = 0
    scores = [0] * players
    while not state.is_over():
        steps += 1
        assert steps < 5000
        check(state)
        assert all(a >= b for a, b in zip(state.scores, scores, strict=True))  # I26
        scores = list(state.scores)
        if retire and retire[1] == steps and retire[0] < players:
            state.retire(retire[0])
            continue
        if state.is_chance_node():
            outcomes = GAME.chance_outcomes(state)
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert all(p > 0 for _, p in outcomes)
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        assert not state.retired[state.current_seat()]
        moves = GAME.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        assert ("PASS" in moves) == (moves == ["PASS"])  # I6
        decisions += 1
        if decisions % ALL_EVERY == 0:
            for text in moves:
                child = state.clone()
                assert GAME.apply_move(child, text) == text
                check(child)
        before = snapshot(state)
        for text in rng.sample(POOL, 4):
            if text not in moves and not text.startswith("LEV"):
                try:
                    GAME.apply_move(state, text)
                except ValueError:
                    pass
                else:
                    raise AssertionError(f"unlisted move {text} applied")
                assert snapshot(state) == before
        text = rng.choice(moves)
        listed = state.clone()
        child = state.clone()
        GAME.apply_move(child, text)
        assert snapshot(state) == before  # clones are independent
        GAME.apply_move(listed, text, listed=True)
        assert snapshot(listed) == snapshot(child)
        state = child
    assert state.legal_moves() == []
    if not all(state.retired):
        assert state.round == 6 and len(state.round_cards_left) == 1
        assert GAME.termination(state) == "normal"
        check(state)
        if "+wrath" not in variant:
            assert all(x >= scores[i] for i, x in enumerate(state.scores))
