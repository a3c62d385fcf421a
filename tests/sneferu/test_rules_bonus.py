"""Quarry bonuses (rules 4.3, the tiles table; SPEC 2.3) and the forced-end check (4.1)."""

from __future__ import annotations

import pytest
from positions import Seat, build, edition_with, moves, play

from sneferu_cli.games.sneferu.components import Stone
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import END, STORE, Buy

# Quarries: 3 B, 5 T, 7 M, 9 G (eye), 12 A, 14 B, 17 T, 19 M, 22 G, 24 A, 27 B, 29 T, ...


@pytest.mark.parametrize(("tile", "space", "offer", "move", "food", "end"), [
    # FOOD1 on basalt 3: BM in column 2 costs 1; +1 after paying.
    ("FOOD1", 3, ["", "BM", "", ""], "2.1+ BM@1.1", 6 - 1 + 1, 6),
    # FOOD2 on Tura 5: TM costs 1; +2 after paying.
    ("FOOD2", 5, ["", "TM", "", ""], "2.1+ TM@1.1", 6 - 1 + 2, 8),
    # NOEXTRA on Mokattam 7: column 3 row 7 costs 2 + 3, with the bonus only the base 2.
    ("NOEXTRA", 7, ["", "", "BTBGBABTBGBAMG", ""], "3.7+ MG@1.1", 6 - 2, 9),
    # SAVETIME on granite 9: column 1 takes 4 - 1 = 3 time.
    ("SAVETIME", 9, ["GA", "", "", ""], "1.1+ GA@1.1", 6, 12),
    # TIMEFOOD on gold 12: column 2 takes 3 + 1 time and gives 3 food after paying 1.
    ("TIMEFOOD", 12, ["", "BA", "", ""], "2.1+ BA@1.1", 6 - 1 + 3, 16),
])
def test_each_price_bonus_with_exact_results(tile, space, offer, move, food, end):
    """4.3: FOOD1, FOOD2, NOEXTRA, SAVETIME, TIMEFOOD: exact food and space after the buy."""
    state = build([Seat(space=space), Seat(space=40)], offer=offer, tiles={space: tile})
    plain = move.replace("+", "")
    assert {move, plain} <= moves(state)  # the bonus may be declined
    play(state, move)
    p = state.players[0]
    assert (p.food, p.space) == (food, end)


def test_storehouse_bonus_sets_the_stone_aside():
    """4.3 STOREHOUSE: the stone of the quarry's colour may be stored instead of placed."""
    state = build([Seat(space=14), Seat(space=40)], offer=["BT", "", "", ""],
                  tiles={14: "STOREHOUSE"})
    assert {"1.1 store", "1.1 BT@1.1", "1.1 TB@1.1"} <= moves(state)
    with pytest.raises(IllegalAction, match="store step"):
        state.apply(Buy(1, 1, True))
    play(state, "1.1 store")
    p = state.players[0]
    assert p.store == [Stone.BT] and p.pyramid.count == 0
    assert (p.food, p.space) == (6, 18)
    assert to_position(state).split()[6].split(";")[0] == "-,6,18.1,------/-----/----/---/--/-,BT,-"


def test_storehouse_needs_the_quarrys_colour():
    """4.3: a stone without the quarry's colour cannot be stored."""
    state = build([Seat(space=14), Seat(space=40)], offer=["TM", "", "", ""],
                  tiles={14: "STOREHOUSE"})
    state.apply(Buy(1, 1))
    assert STORE not in state.legal_steps()
    with pytest.raises(IllegalAction, match="STOREHOUSE"):
        state.apply(STORE)
    assert state.phase == Phase.PLACE and state.hand == Stone.TM


def test_no_bonus_for_a_stone_without_the_quarrys_colour():
    """4.3: one of the stone's two materials must be the quarry's colour."""
    state = build([Seat(space=3), Seat(space=40)], offer=["TM", "", "", ""],
                  tiles={3: "FOOD2"})
    assert Buy(1, 1, True) not in state.legal_steps()
    with pytest.raises(IllegalAction, match="no quarry bonus applies"):
        state.apply(Buy(1, 1, True))


def test_no_bonus_away_from_a_quarry():
    """4.3: only a boat that starts its turn on a quarry gets a bonus."""
    state = build([Seat(space=4), Seat(space=40)], offer=["BT", "", "", "BM"])
    assert not any(getattr(s, "bonus", False) for s in state.legal_steps())
    with pytest.raises(IllegalAction, match="no quarry bonus applies"):
        state.apply(Buy(1, 1, True))


def test_the_bonus_is_that_of_the_space_where_the_turn_started():
    """4.3: arriving on a quarry gives nothing now; the bonus comes on the next turn there."""
    state = build([Seat(space=2), Seat(space=40)], offer=["", "", "", "BTBM"],
                  tiles={3: "FOOD2"})
    play(state, "4.1 BT@1.1", "~BG")
    assert state.players[0].food == 3 and state.start_space == 3
    play(state, "4.1+ BM@1.3")
    assert state.players[0].food == 3 - 3 + 2


def test_heba_sailing_back_before_the_buy_keeps_the_start_bonus():
    """SPEC 2.3: the bonus is the start quarry's even after Heba sails back before buying."""
    state = build([Seat(space=5, builder="Heba", store="GA"), Seat(space=40, builder="Aya")],
                  offer=["", "TGBG", "", ""], tiles={3: "FOOD1", 5: "FOOD2"})
    play(state, "GA@1.6h 2.1+ TG@1.1")
    p = state.players[0]
    assert (p.food, p.space) == (5 - 1 + 2, 3 + 3)
    state = build([Seat(space=5, builder="Heba", store="GA"), Seat(space=40, builder="Aya")],
                  offer=["BG", "", "", ""], tiles={3: "FOOD1", 5: "FOOD2"})
    with pytest.raises(IllegalAction, match="no quarry bonus"):
        play(state, "GA@1.6h 1.1+ BG@1.1")


def test_food_bonuses_cannot_pay_for_the_stone():
    """4.3: FOOD1, FOOD2 and TIMEFOOD food comes after paying; it cannot pay this stone."""
    for tile, space, stone in (("FOOD1", 3, "BM"), ("FOOD2", 5, "TM"), ("TIMEFOOD", 12, "BA")):
        state = build([Seat(space=space, food=0), Seat(space=40)],
                      offer=["", stone, "", ""], tiles={space: tile})
        with pytest.raises(IllegalAction, match="costs 1 food, the player has 0"):
            state.apply(Buy(2, 1, True))
        assert moves(state) == {"end"}


def test_noextra_makes_a_dear_stone_affordable():
    """4.3 NOEXTRA: 2 food buys column 3 row 7 (2 + 3) only with the bonus."""
    state = build([Seat(space=7, food=2), Seat(space=40)],
                  offer=["", "", "BTBGBABTBGBAMG", ""], tiles={7: "NOEXTRA"})
    assert Buy(3, 7) not in state.legal_steps() and Buy(3, 7, True) in state.legal_steps()
    play(state, "3.7+ MG@1.1")
    assert state.players[0].food == 0


def test_savetime_to_zero_keeps_the_boat_and_its_arrival_place():
    """4.3 SAVETIME: time 0: the boat stays, first on its space, and moves again next."""
    state = build([Seat(space=9, order=1), Seat(space=9, order=2)],
                  offer=["", "", "", "GAMG"], tiles={9: "SAVETIME"})
    play(state, "4.1+ GA@1.1", "~BT")
    assert state.players[0].space == 9 and state.seat == 0 and state.start_space == 9
    assert to_position(state).split()[6].split(";")[0].split(",")[2] == "9.1"
    play(state, "4.1+ MG@1.2", "~BT")  # the tile stays and serves again
    assert state.seat == 0 and state.players[0].food == 6 - 3 - 3 + 1


def test_a_tile_serves_every_player_who_starts_there():
    """4.3: tiles stay on the board and can be used again by anyone later."""
    state = build([Seat(space=3, order=1), Seat(space=3, order=2)],
                  offer=["", "BTBM", "", ""], tiles={3: "FOOD2"})
    play(state, "2.1+ BT@1.1", "~GA")
    assert state.seat == 1
    play(state, "2.1+ BM@1.1", "~GA")
    assert [p.food for p in state.players] == [7, 7]


def test_timefood_cannot_pass_space_40():
    """4.3 TIMEFOOD: the extra space is not allowed past 40; landing on 40 is."""
    state = build([Seat(space=37), Seat(space=40)], offer=["", "BA", "TA", ""],
                  tiles={37: "TIMEFOOD"})
    steps = {str(s) for s in state.legal_steps()}
    assert {"2.1", "3.1", "3.1+"} <= steps and "2.1+" not in steps
    with pytest.raises(IllegalAction, match="past space 40"):
        state.apply(Buy(2, 1, True))
    play(state, "3.1+ TA@1.1")
    assert (state.players[0].food, state.players[0].space) == (6 - 2 + 3, 40)


def test_forced_end_counts_a_bonus_that_saves_time():
    """4.1: a stone affordable only with the start quarry's SAVETIME is no forced end."""
    state = build([Seat(space=37), Seat(space=40)], offer=["GA", "", "", ""],
                  tiles={37: "SAVETIME"})
    assert state.legal_steps() == [Buy(1, 1, True)]
    with pytest.raises(IllegalAction, match="must buy"):
        state.apply(END)
    play(state, "1.1+ GA@1.1")
    assert state.players[0].space == 40
    state = build([Seat(space=37), Seat(space=40)], offer=["TM", "", "", ""],
                  tiles={37: "SAVETIME"})
    assert state.legal_steps() == [END]  # TM is not gold: 4 time from 37 passes 40


def test_forced_end_counts_a_bonus_that_saves_food():
    """4.1: a stone affordable only with NOEXTRA is no forced end (edition with row 1 extra).

    In the standard edition row 1 has no extra, so NOEXTRA never decides; an edition
    whose bottom row costs 1 extra shows the check counts it.
    """
    ed = edition_with(("row_extra_food = [0, 1, 1, 2, 2, 3, 3]",
                       "row_extra_food = [1, 1, 1, 2, 2, 3, 3]"))
    state = build([Seat(space=7, food=0), Seat(space=40)], offer=["TM", "", "", ""],
                  tiles={7: "NOEXTRA"}, edition=ed)
    assert state.legal_steps() == [Buy(1, 1, True)]
    state = build([Seat(space=7, food=0), Seat(space=40)], offer=["BT", "", "", ""],
                  tiles={7: "NOEXTRA"}, edition=ed)
    assert state.legal_steps() == [END]
