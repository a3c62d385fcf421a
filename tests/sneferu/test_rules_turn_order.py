"""Whose turn (rules section 3, 4.4 arrival order, R9 aside): the rearmost boat moves."""

from __future__ import annotations

import pytest
from positions import Seat, build, play

from sneferu_cli.game import NotationError
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import Phase


def boats(state) -> list[str]:
    """Each seat's ``space.order`` as the position notation writes it."""
    return [r.split(",")[2] for r in to_position(state).split()[6].split(";")]


def test_the_rearmost_boat_moves():
    """3: the active player is the one whose boat is furthest back."""
    state = build([Seat(space=5), Seat(space=3), Seat(space=4)])
    assert state.seat == 1 and state.start_space == 3


def test_on_one_space_the_boat_that_arrived_first_moves():
    """3: between boats on the same space, the one that arrived there first."""
    state = build([Seat(space=6, order=2), Seat(space=6, order=1), Seat(space=9)])
    assert state.seat == 1
    text = to_position(state).replace("start:2:6", "start:1:6")
    with pytest.raises(NotationError, match="further back"):
        from_position(text)


def test_a_boat_arrives_last_on_its_new_space():
    """4.4: a boat that moves goes to the innermost empty slot: it arrived there last."""
    state = build([Seat(space=0), Seat(space=4)], offer=["BT", "", "", ""])
    play(state, "1.1 BT@1.1", "~MG")
    assert boats(state) == ["4.2", "4.1"]
    assert state.seat == 1  # seat 2 arrived on space 4 first


def test_a_player_may_take_several_turns_in_a_row():
    """3: a boat still furthest back after moving takes the next turn too."""
    state = build([Seat(space=0), Seat(space=10)], offer=["", "", "", "BTBMBG"])
    play(state, "4.1 BT@1.1", "~TM")
    assert state.seat == 0 and state.start_space == 1
    play(state, "4.1 BM@1.2", "~TG")
    assert state.seat == 0 and state.start_space == 2
    assert state.players[0].food == 6 - 3 - 3 + 1  # two buys at 3 food, one icon (1.2)


def test_rulebook_turn_order_example():
    """3: "It is Blue's turn ... After he moves forward, it will be Green's turn."

    Blue (seat 1) and Green (seat 2) share the rearmost space, Blue arrived first; Red and
    Yellow are further on. Blue moves forward and Green, now furthest back, moves next.
    """
    blue, green, red, yellow = (Seat(space=5, order=1), Seat(space=5, order=2),
                                Seat(space=6), Seat(space=8))
    state = build([blue, green, red, yellow], offer=["", "", "", "TMTG"])
    assert state.seat == 0
    play(state, "4.1 TM@1.1", "~GA")
    assert boats(state) == ["6.2", "5.1", "6.1", "8.1"]
    assert state.seat == 1 and state.start_space == 5
    play(state, "4.1 TG@1.1", "~GA")
    assert boats(state) == ["6.2", "6.3", "6.1", "8.1"]
    assert state.seat == 2  # Red reached space 6 first


def test_a_boat_on_space_40_takes_no_turns():
    """3: a boat on the last space takes no more turns; the game goes on without it."""
    state = build([Seat(space=40, food=0), Seat(space=38)], offer=["", "", "", "BT"])
    assert state.seat == 1
    play(state, "4.1 BT@1.1", "~MA")
    assert state.seat == 1 and state.players[1].space == 39
    play(state, "4.1 MA@1.2")
    assert state.phase == Phase.DRAW  # the refill is drawn even after the last turn
    play(state, "~GA")
    assert state.is_over() and state.current_seat() == -1


def test_a_retired_seat_takes_no_turns():
    """3 (arbiter): a retired seat is skipped even when its boat is furthest back."""
    state = build([Seat(space=1), Seat(space=3)])
    state.retire(0)
    assert state.seat == 1 and state.phase == Phase.START
    assert to_position(state).split()[6].split(";")[0].endswith(",r")
