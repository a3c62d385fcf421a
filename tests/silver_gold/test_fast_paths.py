"""Silver & Gold's fast paths through the game interface give what the plain ones give:

- the step-2 listing (``legal_moves_of``, ``SilverGoldState.mark_options``: placements
  read from their masks, texts from the ones the tables keep, results told apart by one
  number) is the plain listing of ``reference.py`` (every placement scanned, each text
  written by ``mark_text``, results as tuples): the same texts in the same order, the same
  options and the same marks left, at every seat of every step 2 of random games.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from silver_gold import reference
from support import decisions_of

from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.state import MARKING, marks_key

SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_the_marking_listing_is_the_plain_one(players, seed):
    rng = random.Random(seed)
    bonus = 0
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        seats = GAME.deciding_seats(state)
        for seat in seats if state.phase == MARKING else ():
            plain = reference.marking_results(state, seat)
            assert GAME.legal_moves_of(state, seat) == [option[0] for option, _ in plain]
            assert state.mark_options(seat) == [option for option, _ in plain]
            finals: list[int] = []
            state._marking(seat, finals)
            assert finals == [marks_key(list(marks)) for _, marks in plain]
            bonus += sum(1 for option, _ in plain if option[3])
        seat = rng.choice(seats)
        GAME.apply_listed_move_of(state, seat, rng.choice(GAME.legal_moves_of(state, seat)))
    assert bonus > 0  # bonus marks were listed: their texts and order were compared too
