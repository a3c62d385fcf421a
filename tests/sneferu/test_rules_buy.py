"""Choosing and paying for a stone (rules 4.1 last sentence, 4.2, 4.4, offer board [data])."""

from __future__ import annotations

import pytest
from positions import DEFAULT_OFFER, Seat, build, moves, play

from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import END, Buy

BASE = {1: (0, 4), 2: (1, 3), 3: (2, 2), 4: (3, 1)}  # column: (base food, base time)
EXTRA = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3}  # row: extra food
CELLS = [(c, r) for c in BASE for r in EXTRA]


@pytest.mark.parametrize(("column", "row"), CELLS)
def test_price_is_column_base_plus_row_extra(column, row):
    """4.2 [data]: price = the column's base food + the row's extra food, and base time."""
    food, time = BASE[column][0] + EXTRA[row], BASE[column][1]
    state = build([Seat(food=food, space=10), Seat(space=20)])
    assert state.price(column, row) == (food, time)
    stone = DEFAULT_OFFER[column - 1][2 * row - 2:2 * row]
    play(state, f"{column}.{row} {stone}@1.3")
    p = state.players[0]
    assert (p.food, p.space) == (0, 10 + time)


@pytest.mark.parametrize(("column", "row"), [c for c in CELLS if BASE[c[0]][0] + EXTRA[c[1]]])
def test_a_stone_costing_more_food_than_held_cannot_be_bought(column, row):
    """4.2: you cannot choose a stone whose food you cannot pay."""
    food = BASE[column][0] + EXTRA[row] - 1
    state = build([Seat(food=food, space=10), Seat(space=20)])
    assert Buy(column, row) not in state.legal_steps()
    before = to_position(state)
    with pytest.raises(IllegalAction, match=f"costs {food + 1} food, the player has {food}"):
        state.apply(Buy(column, row))
    assert to_position(state) == before


def test_only_affordable_stones_are_offered():
    """4.2: with 1 food: column 1 rows 1-3 (0, 1, 1 food) and column 2 row 1 (1 food)."""
    state = build([Seat(food=1, space=0), Seat(space=9)])
    buys = {str(s) for s in state.legal_steps()}
    assert buys == {"1.1", "1.2", "1.3", "2.1"}


def test_rulebook_example_time_3_and_2_food():
    """4.4: "If the time cost is 3, you move your boat 3 spaces ... pay 2 food" (2.2, 2.3)."""
    for row in (2, 3):
        state = build([Seat(food=6, space=0), Seat(space=9)])
        assert state.price(2, row) == (2, 3)
        stone = DEFAULT_OFFER[1][2 * row - 2:2 * row]
        play(state, f"2.{row} {stone}@1.1")
        assert (state.players[0].food, state.players[0].space) == (4, 3)


def test_the_boat_cannot_pass_space_40_but_may_land_on_it():
    """4.2: a stone whose time would move the boat past 40 cannot be chosen; 40 exactly can."""
    state = build([Seat(food=20, space=37), Seat(space=40)])
    columns = {s.column for s in state.legal_steps()}
    assert columns == {2, 3, 4}
    with pytest.raises(IllegalAction, match="past space 40"):
        state.apply(Buy(1, 1))
    play(state, "2.1 MG@1.1", "~BT")
    assert state.players[0].space == 40 and state.is_over()


def test_a_player_who_can_buy_must_buy():
    """4.1: there is no passing: 'end' is not legal while a stone can be bought."""
    state = build([Seat(food=0, space=30), Seat(space=40)])
    assert END not in state.legal_steps()
    before = to_position(state)
    with pytest.raises(IllegalAction, match="must buy"):
        play(state, "end")
    assert to_position(state) == before
    assert {m.split()[0] for m in moves(state)} == {"1.1"}  # the only stone at 0 food


def test_there_is_no_stone_beyond_the_top_of_a_short_column():
    """4.2: only stones in the offer can be chosen."""
    state = build([Seat(food=9), Seat(space=5)], offer=["BT", "BMBG", "", "TA"])
    with pytest.raises(IllegalAction, match="no stone at column 1, row 2"):
        state.apply(Buy(1, 2))
    with pytest.raises(IllegalAction, match="no stone at column 3, row 1"):
        state.apply(Buy(3, 1))
    assert {str(s) for s in state.legal_steps()} == {"1.1", "2.1", "2.2", "4.1"}


def test_the_bought_stone_is_placed_before_the_turn_ends():
    """4.5: a buy without a placement is not a whole move; the placement is its stone."""
    state = build([Seat(food=9), Seat(space=5)], offer=["BT", "", "", ""])
    with pytest.raises(IllegalAction, match="must be placed"):
        play(state, "1.1")
    with pytest.raises(IllegalAction, match="the stone bought is BT"):
        play(state, "1.1 BM@1.1")
    state.apply(Buy(1, 1))
    assert state.phase == Phase.PLACE and to_position(state).endswith("place:1:BT")
