"""Tricks's own tests: what the generic suites cannot know (the rules, what is private)."""

from __future__ import annotations

import doctest
import random

import games.tricks
from games.tricks import GAME
from sneferu_cli.game import seat_view


def dealt(*hands: str):
    state = GAME.new_game(len(hands))
    for hand in hands:
        GAME.apply_outcome(state, hand)
    return state


def test_the_docstring_examples():
    assert doctest.testmod(games.tricks).failed == 0


def test_follow_suit_and_the_highest_of_the_led_suit_takes_the_trick():
    state = dealt("~a2.b4.c1", "~a4.b1.c4", "~a1.b2.c2")
    GAME.apply_move(state, "play b4")
    assert GAME.legal_moves(state) == ["play b1"]  # seat 2 follows suit
    GAME.apply_move(state, "play b1")
    GAME.apply_move(state, "play b2")
    assert state.won == [1, 0, 0] and state.leader == 0
    GAME.apply_move(state, "play c1")
    GAME.apply_move(state, "play c4")
    assert GAME.legal_moves(state) == ["play c2"]
    GAME.apply_move(state, "play c2")
    assert state.won == [1, 1, 0] and state.leader == 1
    GAME.apply_move(state, "play a4")
    GAME.apply_move(state, "play a1")  # seat 3 follows
    GAME.apply_move(state, "play a2")
    assert state.is_over() and [s.rank for s in GAME.standings(state)] == [2, 1, 3]


def test_a_seat_sees_only_its_own_hand_and_the_cards_played():
    state = dealt("~a2.b4.c1", "~a4.b1.c4")
    GAME.apply_move(state, "play b4")
    assert seat_view(GAME, state, 1) == (
        "tricks leader=1 hands=?.?/a4.b1.c4 trick=1:b4 won=0,0 played=- retired=0,0")
    for seat, own in enumerate(["a2.c1", "a4.b1.c4"]):
        view = seat_view(GAME, state, seat)
        other = "a4.b1.c4" if seat == 0 else "a2.c1"
        assert own in view and not any(c in view for c in other.split("."))
        full = GAME.hidden().determinize(GAME.from_position(view), seat, random.Random(1))
        assert seat_view(GAME, full, seat) == view
