"""Silver & Gold's fast paths through the game interface give what the plain ones give:

- the step-2 listing (``legal_moves_of``, ``SilverGoldState.mark_options``: placements
  read from their masks, texts from the ones the tables keep, results told apart by one
  number) is the plain listing of ``reference.py`` (every placement scanned, each text
  written by ``mark_text``, results as tuples): the same texts in the same order, the same
  options and the same results (counters and marks) left, at every seat of every step 2
  of random games;
- ``sample_outcome`` (only the outcome drawn written) draws the outcome that ``randrange``
  over the total of ``chance_weights()``, walked in order, falls on, taking the same draws;
- ``apply_listed_move_of`` reads a listed text's value once per process and keeps it: the
  value kept is the text's own;
- ``view`` (a view that every seat shares written once per ``version`` of the state) is
  what the writer writes for the seat, at every node of random games, the seats asked in
  any order, before and after sealed moves, outcomes and a retirement.
"""

from __future__ import annotations

import random

from silver_gold import reference
from silver_gold.helpers import random_games
from support import decisions_of, drawn_as_walked

from sneferu_cli.game import seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.interface import listed_move
from sneferu_cli.games.silver_gold.position import _write
from sneferu_cli.games.silver_gold.state import DEALING, MARKING, TAKING, marks_key

RANDOM_GAMES = random_games(10)


@RANDOM_GAMES
def test_the_marking_listing_is_the_plain_one(players, seed):
    rng = random.Random(seed)
    bonus = 0
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        seats = GAME.deciding_seats(state)
        for seat in seats if state.phase == MARKING else ():
            plain = reference.marking_results(state, seat)
            assert GAME.legal_moves(state, seat) == [option[0] for option, _ in plain]
            assert state.mark_options(seat) == [option for option, _ in plain]
            finals: list[int] = []
            state._marking(seat, finals)
            assert finals == [state.result_key(seat, marks_key(list(marks)), skulls)
                              for _, (skulls, *marks) in plain]
            bonus += sum(1 for option, _ in plain if option[3])
        seat = rng.choice(seats)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat, listed=True)
    assert bonus > 0  # bonus marks were listed: their texts and order were compared too


@RANDOM_GAMES
def test_chance_is_drawn_as_walked(players, seed):
    rng = random.Random(seed)
    state = GAME.new_game(players)
    kinds = set()
    while not state.is_over():
        if state.is_chance_node():
            if state.phase == DEALING:  # a deal is drawn as rng.sample, not walked
                GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            else:
                text = drawn_as_walked(GAME, state, rng)
                kinds.add(GAME.outcome_kind(text))
                GAME.apply_outcome(state, text)
            continue
        seat = rng.choice(GAME.deciding_seats(state))
        moves = GAME.legal_moves(state, seat)
        # step 3: take deck (listed last) whenever it is there, so that cards are drawn
        GAME.apply_move(state, moves[-1] if state.phase == TAKING
                                  else rng.choice(moves), seat, listed=True)
    assert kinds == {"offer", "exp", "draw"}


@RANDOM_GAMES
def test_a_listed_move_is_read_as_its_text(players, seed):
    """The value kept for a listed text is the text's own (``apply_listed_move_of``
    applies it: test_properties.py holds that to ``apply_move_of``)."""
    rng = random.Random(seed)
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        seat = rng.choice(GAME.deciding_seats(state))
        for text in GAME.legal_moves(state, seat):
            assert str(listed_move(text)) == text
            assert listed_move(text) is listed_move(text) or " +" in text  # kept, or not
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat, listed=True)


@RANDOM_GAMES
def test_a_view_is_the_one_written_for_the_seat(players, seed):
    rng = random.Random(seed)
    state = GAME.new_game(players)
    shared = 0
    quitter = rng.randrange(players) if players > 2 else -1
    while not state.is_over():
        seats = [*range(players)] * 2
        rng.shuffle(seats)
        views = {seat: seat_view(GAME, state, seat) for seat in seats}
        assert views == {seat: _write(state, seat) for seat in seats}
        if len({id(text) for text in views.values()}) == 1:  # written once, for every seat
            shared += 1
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        elif quitter >= 0 and state.round == 3 and not state.retired[quitter]:
            state.retire(quitter)
        else:
            seat = rng.choice(GAME.deciding_seats(state))
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat, listed=True)
    assert shared > 0 and seat_view(GAME, state, 0) == _write(state, 0)
