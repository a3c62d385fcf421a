"""The test-only game with sealed simultaneous bids and private hands (tests/sealed_game.py):
its rules with exact numbers, and the shapes of the game interface it exercises (sealed
moves commute, views hide other seats' hands and bids, positions and views round-trip,
determinize agrees with the view, retiring at a sealed node)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sealed_game import GAME, IllegalSealed, register
from support import decisions_of

from sneferu_cli.game import NotationError, get_game, seat_view

register()


def dealt(*hands: str) -> object:
    state = GAME.new_game(len(hands))
    for h in hands:
        GAME.apply_outcome(state, h)
    return state


def test_registered_under_its_name():
    assert get_game("sealed") is GAME
    assert (GAME.hidden() is not None)


def test_a_round_the_highest_bid_scores_the_prize_and_a_tie_scores_nothing():
    state = dealt("~D1.5.9", "~D2.6.10", "~D3.7.11")
    assert state.is_chance_node() and GAME.outcome_kind("~P2") == "prize"
    assert [o for o, _ in GAME.chance_outcomes(state)] == ["~P1", "~P2", "~P3"]
    GAME.apply_outcome(state, "~P2")
    assert GAME.is_simultaneous(state) and GAME.deciding_seats(state) == (0, 1, 2)
    assert state.current_seat() == 0
    assert GAME.legal_moves(state, 1) == ["bid 2", "bid 6", "bid 10"]
    assert GAME.apply_move(state, "bid  10", 1) == "bid 10"
    assert GAME.deciding_seats(state) == (0, 2) and GAME.legal_moves(state, 1) == []
    with pytest.raises(ValueError, match="seat 2"):
        GAME.apply_move(state, "bid 6", 1)  # already bid
    with pytest.raises(IllegalSealed):
        GAME.apply_move(state, "bid 2", 0)  # not in its hand
    GAME.apply_move(state, "bid 11", 2)
    assert GAME.to_position(state) == ("sealed prizes=1.3 prize=2 scores=0,0,0 "
                                       "hands=1.5.9/2.6/3.7 bids=-,10,11 played=- "
                                       "retired=0,0,0")
    GAME.apply_move(state, "bid 9", 0)
    assert GAME.to_position(state) == ("sealed prizes=1.3 prize=- scores=0,0,2 "
                                       "hands=1.5/2.6/3.7 bids=-,-,- played=9.10.11 "
                                       "retired=0,0,0")
    GAME.apply_outcome(state, "~P3")
    for seat, card in ((0, 5), (1, 6), (2, 3)):
        GAME.apply_move(state, f"bid {card}", seat)
    assert state.scores == [0, 3, 2]  # 6 is the highest bid, alone: seat 2 scores 3


def test_the_game_ends_after_three_rounds_ranked_by_score():
    state = dealt("~D1.5.9", "~D2.6.10")
    for prize, bids in (("~P1", (9, 2)), ("~P2", (5, 6)), ("~P3", (1, 10))):
        GAME.apply_outcome(state, prize)
        for seat, card in enumerate(bids):
            GAME.apply_move(state, f"bid {card}", seat)
    assert state.is_over() and GAME.termination(state) == "normal"
    assert [(s.rank, s.scores["score"]) for s in GAME.standings(state)] == [(2, 1), (1, 5)]


def test_a_tie_for_the_highest_bid_scores_nothing():
    state = dealt("~D1.5.9", "~D2.6.10", "~D3.7.11")
    state.hands = [[1, 5, 9], [2, 6, 9], [3, 7, 11]]  # a hand-built tie on 9
    GAME.apply_outcome(state, "~P3")
    for seat, card in ((0, 9), (1, 9), (2, 3)):
        GAME.apply_move(state, f"bid {card}", seat)
    assert state.scores == [0, 0, 0]


def test_retiring_at_a_sealed_node_takes_the_bid_back_and_resolves_when_the_rest_are_in():
    state = dealt("~D1.5.9", "~D2.6.10", "~D3.7.11")
    GAME.apply_outcome(state, "~P3")
    GAME.apply_move(state, "bid 9", 0)
    GAME.apply_move(state, "bid 2", 1)
    state.retire(0)  # its sealed 9 goes back to its hand; 2 and seat 3's bid remain
    assert state.hands[0] == [1, 5, 9] and GAME.deciding_seats(state) == (2,)
    state.retire(2)  # everyone left has bid: the round resolves, seat 2 scores alone
    assert state.scores == [0, 3, 0] and state.prize is None and state.played == [2]
    assert [s.rank for s in GAME.standings(state)] == [2, 1, 2]


def test_a_view_hides_other_hands_and_bids_and_reads_back():
    state = dealt("~D1.5.9", "~D2.6.10")
    GAME.apply_outcome(state, "~P2")
    GAME.apply_move(state, "bid 9", 0)
    assert seat_view(GAME, state, 1) == ("sealed prizes=1.3 prize=2 scores=0,0 hands=?.?/2.6.10 "
                                   "bids=?,- played=- retired=0,0")
    assert seat_view(GAME, state, 0) == ("sealed prizes=1.3 prize=2 scores=0,0 hands=1.5/?.?.? "
                                   "bids=9,- played=- retired=0,0")
    seen = GAME.from_position(seat_view(GAME, state, 1))
    assert GAME.deciding_seats(seen) == (1,)
    assert GAME.legal_moves(seen, 1) == GAME.legal_moves(state, 1)
    full = GAME.hidden().determinize(seen, 1, random.Random(3))
    assert full.hands[1] == [2, 6, 10] and full.bids[0] not in (None, 0)
    assert seat_view(GAME, full, 1) == seat_view(GAME, state, 1)
    GAME.check(full)


def test_bad_positions_are_notation_errors():
    with pytest.raises(NotationError):
        GAME.from_position("sealed prizes=1 prize=-")
    with pytest.raises(NotationError, match="impossible"):
        GAME.from_position("sealed prizes=1.3 prize=2 scores=0,0 hands=1.5/1.6 bids=-,- "
                           "played=- retired=0,0")


def random_play(seed: int, players: int):
    """Yield every decision state of a random game, with the seat order it collects in."""
    rng = random.Random(seed)
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        yield state, rng
        seats = list(GAME.deciding_seats(state))
        rng.shuffle(seats)
        if rng.random() < 0.05:
            state.retire(seats[0])
            continue
        for s in seats:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state, s)), s)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_sealed_moves_commute_views_never_leak_and_positions_round_trip(seed, players):
    for state, rng in random_play(seed, players):
        GAME.check(state)
        assert GAME.from_position(GAME.to_position(state)) == state
        seats = GAME.deciding_seats(state)
        moves = {s: rng.choice(GAME.legal_moves(state, s)) for s in seats}
        results = set()
        for order in (list(seats), list(reversed(seats))):
            copy = state.clone()
            for s in order:
                GAME.apply_move(copy, moves[s], s)
            results.add(GAME.to_position(copy))
        assert len(results) == 1  # any order of collection, the same state
        half = state.clone()
        GAME.apply_move(half, moves[seats[0]], seats[0])
        for seat in range(players):
            view = seat_view(GAME, half, seat)
            fields = dict(f.split("=") for f in view.split()[1:])
            hands = fields["hands"].split("/")
            bids = fields["bids"].split(",")
            for other in range(players):
                if other != seat:
                    assert set(hands[other]) <= set("?.-*")
                    assert bids[other] == ("-" if half.bids[other] is None else "?")
            seen = GAME.from_position(view)
            assert seat_view(GAME, seen, seat) == view
            assert GAME.legal_moves(seen, seat) == GAME.legal_moves(half, seat)
