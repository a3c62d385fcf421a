"""Properties over random games of 2-4 seats (hypothesis draws the seats and a seed):
sealed moves commute (G21, G22), views never show another seat's hidden deal or pending
move, positions and views read back, the seat's own moves are the same from its view,
determinized states agree with the view, cards are conserved (``check``), every seat asked
to mark has a legal move (G12)."""

from __future__ import annotations

import itertools
import random

from silver_gold.helpers import random_games
from support import decisions_of

from sneferu_cli.game import seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.state import KEEPING, MARKING, SilverGoldState

RANDOM_GAMES = random_games(12)


def check_views(state: SilverGoldState) -> None:
    for seat in range(state.players):
        text = seat_view(GAME, state, seat)
        seen = GAME.from_position(text)
        assert GAME.to_position(seen) == text
        assert seat_view(GAME, seen, seat) == text
        for other in range(state.players):
            if other == seat:
                continue
            # Never another seat's dealt card or pending move (G21, G22) ...
            assert seen.sealed[other] is None and seen.dealt[other] == []
            assert not set(state.dealt[other]) & set(seen.visible_cards())
            # ... not even whether it has answered: it looks still to decide.
            if GAME.is_simultaneous(state) and not state.retired[other] and (
                    state.play[other] or state.phase == KEEPING):
                assert other in GAME.deciding_seats(seen)
        assert GAME.legal_moves(seen, seat) == GAME.legal_moves(state, seat)
        full = GAME.hidden().determinize(seen, seat, random.Random(seat))
        GAME.check(full)
        assert seat_view(GAME, full, seat) == text


def check_commute(state: SilverGoldState, rng: random.Random) -> None:
    """Every order of submitting the sealed moves gives the same position."""
    seats = GAME.deciding_seats(state)
    choice = {s: rng.choice(GAME.legal_moves(state, s)) for s in seats}
    results = set()
    for order in itertools.islice(itertools.permutations(seats), 24):
        child = state.clone()
        for s in order:
            assert GAME.apply_move(child, choice[s], s) == choice[s]
        results.add(GAME.to_position(child))
    assert len(results) == 1


@RANDOM_GAMES
def test_random_games_keep_views_sealed_and_commuting(players, seed):
    rng = random.Random(seed)
    state = GAME.new_game(players)
    simultaneous = 0
    while not state.is_over():
        GAME.check(state)
        text = GAME.to_position(state)
        assert GAME.to_position(GAME.from_position(text)) == text
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        if GAME.is_simultaneous(state):
            if state.phase == MARKING:  # G12: everyone asked can mark
                assert all(GAME.legal_moves(state, s) for s in GAME.deciding_seats(state))
            if simultaneous % 3 == 0:
                check_views(state)
            if simultaneous % 5 == 0:
                check_commute(state, rng)
            simultaneous += 1
            # Submit in a random order, not seat order.
            seat = rng.choice(GAME.deciding_seats(state))
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat)
            continue
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
    GAME.check(state)
    assert (state.round, state.turn) == (4, 7) and simultaneous >= 28
    check_views(state)


@RANDOM_GAMES
def test_views_mid_deal_and_mid_keep(players, seed):
    rng = random.Random(seed)
    state = GAME.new_game(players)
    while state.is_chance_node():
        check_views(state)
        GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
    for seat in rng.sample(range(players), players - 1):
        check_views(state)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat)
    check_views(state)
    assert len(GAME.deciding_seats(state)) == 1


@RANDOM_GAMES
def test_a_listed_sealed_move_applies_as_the_checked_one(players, seed):
    """apply_listed_move_of (the arbiter's path for a move written as listed, no checks)
    leaves the state apply_move_of leaves, for every seat at every node of random games."""
    rng = random.Random(seed)
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        seat = rng.choice(GAME.deciding_seats(state))
        text = rng.choice(GAME.legal_moves(state, seat))
        listed = state.clone()
        GAME.apply_move(listed, text, seat, listed=True)
        assert GAME.apply_move(state, text, seat) == text
        assert GAME.to_position(listed) == GAME.to_position(state)
