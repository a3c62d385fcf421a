"""Final scoring of every district type with its plazas, the bonus variants and the
tie-breaks (AKROPOLIS-RULES.md sections 8-10; A13-A20), on hand-built cities with totals
worked out by hand."""

from __future__ import annotations

from akropolis.helpers import hand_city, ring, scores, start

from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.geometry import cell
from sneferu_cli.games.akropolis.scoring import city_stars, lakes


def test_the_rulebooks_house_example_scores_27():
    """8.4: a group of 5 houses at level 1 and 2 at level 2 is worth 9; 3 stars: 27. A
    smaller group of higher value does not count (8.2, A14)."""
    hexes = {(k, 0): "h" for k in range(5)} | {(5, 0): "h2", (6, 0): "h2"}
    hexes |= {(0, 5): "H", (3, 5): "H", (6, 5): "H"}
    hexes |= {(10, 0): "h3", (11, 0): "h3"}
    assert scores(hand_city(hexes)) == [27, 0, 0, 0, 0]
    assert scores(hand_city(hexes), "Hmbtga") == [27, 0, 0, 0, 0]  # VH: 9 < 10
    hexes[(7, 0)] = "h"  # value 10
    assert scores(hand_city(hexes)) == [30, 0, 0, 0, 0]
    assert scores(hand_city(hexes), "Hmbtga") == [60, 0, 0, 0, 0]  # VH, A19: 2 x 10 x 3


def test_the_largest_house_group_by_size_then_by_value():
    """A14: among groups of three the one of value 5 scores; a group of four beats it."""
    hexes = {(0, 0): "h", (1, 0): "h", (2, 0): "h",
             (0, 3): "h", (1, 3): "h2", (2, 3): "h2", (9, 9): "H"}
    assert scores(hand_city(hexes))[0] == 5
    hexes |= {(0, 6): "h", (1, 6): "h", (2, 6): "h", (3, 6): "h"}
    assert scores(hand_city(hexes))[0] == 4


def test_houses_on_different_levels_form_one_group():
    """A13: adjacency is between positions, whatever the levels."""
    hexes = {(0, 0): "h3", (1, 0): "h", (1, 1): "h2", (5, 5): "h", (9, 9): "H"}
    assert scores(hand_city(hexes))[0] == 6


def test_markets_score_alone_and_next_to_a_market_plaza():
    """8.2, A15: a market next to another market district scores nothing, next to a market
    plaza it scores; VM doubles the one next to the plaza (value 1 + 2 = 3, VM 2 + 2)."""
    hexes = {(0, 0): "m", (1, 0): "M", (5, 0): "m2", (10, 0): "m", (11, 0): "m3"}
    assert scores(hand_city(hexes)) == [0, 6, 0, 0, 0]
    assert scores(hand_city(hexes), "hMbtga") == [0, 8, 0, 0, 0]


def test_barracks_need_the_outside_and_a_lake_is_not_it():
    """A16: the barracks at (1, 0) touches only a lake, (0, 0): it does not score; the one
    at (-2, 0) has 5 outside neighbours (VB doubles it, A17)."""
    hexes = ring((0, 0)) | {(1, 0): "b", (2, -1): "q", (2, 0): "q", (1, 1): "q",
                            (-2, 0): "b", (-4, -3): "B"}
    city = hand_city(hexes)
    assert lakes(city) == [cell(0, 0)]
    assert city.has_lakes() and city.pieces == 2
    assert scores(city) == [0, 0, 2, 0, 0]
    assert scores(city, "hmBtga") == [0, 0, 4, 0, 0]


def test_the_barracks_bonus_needs_three_outside_neighbours():
    """A17: 2 outside neighbours score the barracks but do not double it; 3 do."""
    hexes = {(0, 0): "b", (0, -1): "q", (1, -1): "q", (1, 0): "q", (0, 1): "q", (5, 5): "B"}
    assert not hand_city(hexes).has_lakes()
    assert scores(hand_city(hexes), "hmBtga")[2] == 2
    del hexes[(0, 1)]
    assert scores(hand_city(hexes), "hmBtga")[2] == 4
    assert scores(hand_city(hexes))[2] == 2


def test_temples_must_be_surrounded_by_any_hexes():
    """8.2: every neighbour occupied, by any sort of hex at any level; VT doubles a temple
    at level 2 or higher: (1 + 2) x 2 = 6, with VT (1 + 4) x 2 = 10."""
    hexes = {(0, 0): "t"} | ring((0, 0)) | {(1, 0): "H2", (0, 1): "h"}
    hexes |= {(0, 5): "t2"} | ring((0, 5), "g")
    hexes |= {(5, 0): "t"} | ring((5, 0))
    del hexes[(6, 0)]
    hexes[(10, -10)] = "T"
    assert scores(hand_city(hexes))[3] == 6
    assert scores(hand_city(hexes), "hmbTga")[3] == 10


def test_gardens_always_score_and_a_lake_of_two_hexes_doubles_them():
    """8.2, A18: every garden scores; VG doubles one next to a lake of any size."""
    around = (ring((0, 0)) | ring((1, 0)))
    del around[(0, 0)], around[(1, 0)]
    hexes = around | {(2, 0): "g", (5, 5): "g2", (8, 8): "G"}
    city = hand_city(hexes)
    assert lakes(city) == sorted([cell(0, 0), cell(1, 0)])
    assert city.has_lakes() and city.pieces == 3
    assert scores(city) == [0, 0, 0, 0, 9]
    assert scores(city, "hmbtGa") == [0, 0, 0, 0, 12]


def test_no_plaza_no_points_and_stars_add_up():
    """8.3, 8.4: districts without a plaza of their kind score 0; stars per kind add (H 1,
    M 2, B 2, T 2, G 3); a covered plaza is not a top hex."""
    hexes = {(0, 0): "h", (1, 0): "g", (2, 0): "m", (4, 0): "G", (5, 0): "G", (6, 0): "M"}
    city = hand_city(hexes)
    state = start()
    assert city_stars(city, state.tables.stars) == [0, 2, 0, 0, 6]
    assert scores(city) == [0, 2, 0, 0, 6]


def test_every_type_at_once_and_the_total_with_stones():
    """8.4: a city with one of each type: houses 2 x 1, markets 1 x 2, barracks 1 x 2,
    temples 0 (not surrounded), gardens 1 x 3; with 4 stones: 2 + 2 + 2 + 3 + 4 = 13."""
    hexes = {(0, 0): "h", (0, 1): "h", (2, 0): "m", (3, 0): "b", (4, 0): "t", (5, 0): "g",
             (0, 4): "H", (2, 4): "M", (4, 4): "B", (6, 4): "T", (8, 4): "G"}
    state = start()
    state.cities[0] = hand_city(hexes)
    state.stones[0] = 4
    standing = GAME.standings(state)[0]
    assert standing.scores == {"points": 13, "stones": 4}


def test_ties_go_to_more_stones_then_share_the_place():
    """10, A20: equal points, the seat with more stones ranks first; equal in both, shared."""
    state = start(3)
    for seat in range(3):
        state.cities[seat] = hand_city({(0, 0): "g", (3, 3): "G"})  # 3 points each
    state.stones[:] = [2, 1, 2]
    state.cities[1] = hand_city({(0, 0): "g", (0, 1): "g2", (3, 3): "G"})  # 9 points
    state.stones[1] = 1  # 10 points in all
    ranks = [(s.rank, s.scores["points"], s.scores["stones"]) for s in GAME.standings(state)]
    assert ranks == [(2, 5, 2), (1, 10, 1), (2, 5, 2)]
    state.stones[2] = 3  # 6 points: second
    state.stones[0] = 4  # 7 points: second, seat 3 third
    assert [s.rank for s in GAME.standings(state)] == [2, 1, 3]
    state.stones[:] = [4, 0, 5]  # 7, 9, 8
    state.cities[2] = hand_city({(0, 0): "g", (3, 3): "G"})
    assert [s.rank for s in GAME.standings(state)] == [3, 1, 2]
    state.stones[:] = [9, 3, 8]  # 12, 12, 11: seat 1 has more stones than seat 2
    assert [s.rank for s in GAME.standings(state)] == [1, 2, 3]
