"""The forced end (rules 4.1), the end of the game and the ranking (section 5, R6)."""

from __future__ import annotations

import pytest
from positions import Seat, build, levels_below, moves, placements, play

from sneferu_cli.game import NotationError
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import Phase

# ------------------------------------------------------------------ forced end


def test_forced_end_for_lack_of_food_pays_5_food_a_space():
    """4.1: no stone affordable: the boat goes straight to 40 and gains 5 food per space."""
    state = build([Seat(space=30, food=0), Seat(space=32)], offer=["", "BT", "BM", "BG"])
    assert moves(state) == {"end"}
    play(state, "end")
    p = state.players[0]
    assert (p.space, p.food) == (40, 5 * 10)
    assert state.phase == Phase.START and state.seat == 1  # no refill: nothing was bought


def test_forced_end_for_lack_of_time():
    """4.1, 4.2: every stone would take the boat past space 40."""
    state = build([Seat(space=38, food=10), Seat(space=40)], offer=["BT", "BM", "", ""])
    assert moves(state) == {"end"}
    play(state, "end")
    assert (state.players[0].space, state.players[0].food) == (40, 10 + 5 * 2)
    assert state.is_over()


def test_forced_end_for_lack_of_room():
    """4.1: a pyramid with 21 stones has no room: the forced end, whatever the food."""
    full = placements(levels_below(7))
    state = build([Seat(space=10, food=40, pyramid=full), Seat(space=40)])
    assert moves(state) == {"end"}
    play(state, "end")
    assert (state.players[0].space, state.players[0].food) == (40, 40 + 5 * 30)


def test_the_forced_end_arrives_last_on_space_40_and_ends_the_seats_game():
    """4.1, 3: after the forced end the boat is on 40 (arrived last) and takes no turns."""
    state = build([Seat(space=40), Seat(space=20, food=0), Seat(space=25)],
                  offer=["", "BT", "", ""])
    play(state, "end")
    boats = [r.split(",")[2] for r in to_position(state).split()[6].split(";")]
    assert boats == ["40.1", "40.2", "25.1"]
    assert state.seat == 2


# ------------------------------------------------------------------ end and ranking


def over(*seats: Seat):
    """A finished game: every boat on space 40."""
    return build([Seat(**{**vars(s), "space": 40}) for s in seats], turn="over")


def places(state) -> list[int]:
    return [s.rank for s in state.ranking()]


def test_the_game_ends_when_every_boat_is_on_space_40():
    """5: the last boat reaching 40 ends the game (after the refill is drawn)."""
    state = build([Seat(space=39), Seat(space=40), Seat(space=40)], offer=["", "", "", "BT"])
    play(state, "4.1 BT@1.1", "~GA")
    assert state.is_over() and state.legal_steps() == [] and state.chance_outcomes() == []
    assert to_position(state).endswith(" over")
    with pytest.raises(NotationError, match="'over' but a boat"):
        build([Seat(space=39), Seat(space=40)], turn="over")


def test_most_stones_wins():
    """R6: stones first, whatever the food."""
    state = over(Seat(food=0, pyramid="TM@1.1 GA@1.2"), Seat(food=50, pyramid="TM@1.1"))
    assert places(state) == [1, 2]


def test_then_most_food():
    """R6: equal stones: more food left wins."""
    state = over(Seat(food=5, pyramid="TM@1.1"), Seat(food=7, pyramid="GA@1.1"))
    assert places(state) == [2, 1]


PAIR_LEFT = "BT@1.1 TM@1.2 MG@2.1"  # areas 2 (white (1,1) (1,2)), 1 (B at (1,0)), 1 (M (2,1))
SINGLES_LEFT = "BT@1.1 MG@1.2 AB@2.1"  # areas 1, 1, 1, 1
PAIR_RIGHT = "GA@1.5 TG@1.6 MT@2.5"  # areas 2 (white (1,10) (2,10)), 1, 1
SINGLES_RIGHT = "GA@1.5 TG@1.6 MA@2.5"  # areas 1, 1, 1, 1


def test_then_the_largest_enclosed_area():
    """R6: equal stones and food: the largest enclosed area decides."""
    state = over(Seat(food=3, pyramid=SINGLES_LEFT), Seat(food=3, pyramid=PAIR_LEFT))
    standings = state.ranking()
    assert [s.areas for s in standings] == [(1, 1, 1, 1), (2, 1, 1)]
    assert places(state) == [2, 1]


def test_then_the_second_largest_and_so_on():
    """R6: "then the second largest, and so on"."""
    state = over(Seat(food=3, pyramid=f"{PAIR_LEFT} {SINGLES_RIGHT}"),
                 Seat(food=3, pyramid=f"{PAIR_LEFT} {PAIR_RIGHT}"))
    standings = state.ranking()
    assert [s.areas for s in standings] == [(2, 1, 1, 1, 1, 1, 1), (2, 2, 1, 1, 1, 1)]
    assert places(state) == [2, 1]


def test_an_area_beats_no_area():
    """R6, SPEC 2.6 ("sizes compared largest first"): when one list of sizes runs out, the
    longer list ranks first: 2, 1, 1, 1 beats 2, 1, 1 (any area beats none)."""
    state = over(Seat(food=3, pyramid=f"{PAIR_LEFT} GA@1.4"),  # GA open below level 2
                 Seat(food=3, pyramid=f"{PAIR_LEFT} GA@1.6"))  # A at the right edge: closed
    assert [s.areas for s in state.ranking()] == [(2, 1, 1), (2, 1, 1, 1)]
    assert places(state) == [2, 1]


def test_ties_share_the_place():
    """R6: players still tied share the place; the next place is skipped (1, 1, 3)."""
    state = over(Seat(food=3, pyramid=PAIR_LEFT), Seat(food=3, pyramid=PAIR_LEFT),
                 Seat(food=3, pyramid="TM@1.1"))
    assert places(state) == [1, 1, 3]
    state = over(Seat(food=9, pyramid="TM@1.1"), Seat(food=3, pyramid=PAIR_LEFT),
                 Seat(food=3, pyramid="TM@1.1"), Seat(food=3, pyramid="TM@1.1"))
    assert places(state) == [2, 1, 3, 3]


def test_retired_seats_rank_below_all_others():
    """R6, SPEC 2.6: retired seats rank below every other seat, among themselves by R6."""
    state = over(Seat(pyramid=PAIR_LEFT, flags="r"), Seat(food=0),
                 Seat(pyramid="TM@1.1", flags="r"))
    assert places(state) == [2, 1, 3]
    assert [s.retired for s in state.ranking()] == [True, False, True]


def test_a_retired_seat_does_not_hold_up_the_end():
    """SPEC 2.6: the game ends when every boat not retired is on space 40."""
    state = build([Seat(space=39), Seat(space=12, flags="r")], offer=["", "", "", "BT"])
    play(state, "4.1 BT@1.1", "~GA")
    assert state.is_over()
    assert places(state) == [1, 2]
