"""Placing a stone (rules 4.5, pyramid board, food icons [data], enclosed-area chart, R1).

Cells are written (level, x) as in the rules: level n has cells x = n-1 ... 12-n, and slot
k of level n covers x = (n-1) + 2(k-1) and the cell to its right.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import Seat, build, edition_with, filler_colour, levels_below, placements, play

from sneferu_cli.games.sneferu.check import enclosed_areas
from sneferu_cli.games.sneferu.components import Material
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.move import parse_action
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.pyramid import Geometry, Pyramid
from sneferu_cli.games.sneferu.state import IllegalAction


def placing(pyramid: str, stone: str, *, edition=None):
    """Seat 1 at the placement step with ``stone`` in hand and ``pyramid`` built."""
    seat = Seat(food=0, space=10, pyramid=pyramid)
    name = "".join(sorted(stone, key="BTMGA".index))
    return build([seat, Seat(space=40)], turn=f"place:1:{name}", edition=edition)


def gain(state, step: str) -> int:
    """Food gained by the active seat for one placement step."""
    p = state.players[state.seat]
    before = p.food
    state.apply(parse_action(step))
    return p.food - before


# ------------------------------------------------------------------ support and orientation


def test_an_empty_pyramid_takes_a_stone_on_level_1_either_way_round():
    """4.5 support: only level 1 slots are supported at first; either material on the left."""
    state = placing("", "BT")
    assert {str(s) for s in state.legal_steps()} == {
        f"{ab}@1.{k}" for ab in ("BT", "TB") for k in range(1, 7)}
    play(state, "TB@1.4")  # a placement step continues the turn begun by the buy
    p = state.players[0]
    assert p.pyramid.material_at(p.pyramid.geometry.index(1, 4)) == (Material.T, Material.B)
    assert to_position(state).split()[6].startswith("-,0,10.1,---TB--/")


def test_a_higher_stone_needs_both_supporting_slots():
    """4.5 support: slot k of level n rests on slots k and k+1 of level n-1."""
    state = placing("TM@1.1", "GA")
    assert "GA@2.1" not in {str(s) for s in state.legal_steps()}
    with pytest.raises(IllegalAction, match=r"slot 2\.1 is not supported"):
        state.apply(parse_action("GA@2.1"))
    state = placing("TM@1.1 MG@1.2", "GA")
    assert {str(s) for s in state.legal_steps()} >= {"GA@2.1", "AG@2.1"}
    assert "GA@2.2" not in {str(s) for s in state.legal_steps()}  # 1.3 is empty
    assert gain(state, "AG@2.1") == 2  # it closes the brown pair (1,1) (1,2)
    assert state.players[0].pyramid.count == 3


def test_no_stone_goes_into_a_taken_or_missing_slot():
    """4.5: an empty slot of the pyramid; level n has 7 - n slots."""
    state = placing("TM@1.1", "GA")
    before = to_position(state)
    for step, why in (("GA@1.1", "is taken"), ("GA@1.7", r"no slot 1\.7"),
                      ("GA@6.2", r"no slot 6\.2")):
        with pytest.raises(IllegalAction, match=why):
            state.apply(parse_action(step))
    assert to_position(state) == before


# ------------------------------------------------------------------ food icons


@pytest.mark.parametrize("icon", standard_edition().pyramid.icons,
                         ids=lambda i: f"{i.level}.{i.slot}{i.half[0]}")
def test_every_food_icon_pays_when_covered(icon):
    """4.5 [data]: covering a food icon gains its food (the levels below are filler)."""
    n, k = icon.level, icon.slot
    stone = placements([(n, k)])
    state = placing(placements(levels_below(n)), stone[:2])
    assert gain(state, stone) == icon.food


def test_icon_food_does_not_depend_on_orientation():
    """4.5: the icon is on the board cell: BT or TB at 1.2 both gain its 1 food."""
    for text in ("BT@1.2", "TB@1.2"):
        assert gain(placing("", "BT"), text) == 1
    assert gain(placing("", "BT"), "BT@1.1") == 0  # no icon under 1.1


# ------------------------------------------------------------------ enclosed areas


def test_rulebook_example_green_4_and_white_1():
    """4.5, rulebook example: a brown-white stone closes a green area of 4 (7 food) and a
    white area of 1 (0 food).

    Green (B) cells (3,3) (3,4) (4,4) (4,5); levels 1-2 and the other cells of the slots
    under 5.1 (3.1-3.3, 4.1, 4.2) are filler (no two neighbours alike). The stone
    TM on 5.1 (no icon) covers (5,4) white and (5,5) brown: it closes the green area from
    above, and its white half, with the edge left of and above it, is an area of 1.
    """
    green = {(3, 3), (3, 4), (4, 4), (4, 5)}

    def material(n, x):
        return "B" if (n, x) in green else filler_colour(n, x)

    slots = [*levels_below(3), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)]
    state = placing(placements(slots, material), "TM")
    assert gain(state, "TM@5.1") == 7
    assert sorted(state.players[0].pyramid.areas)[-2:] == [1, 4]


def test_icon_and_areas_are_gained_at_once():
    """4.5: TM on 3.1 covers a 2-food icon, closes a green area of 4 and a white area of 1."""
    state = placing("TB@1.1 BM@1.2 AG@1.3 AB@2.1 BG@2.2", "TM")
    assert gain(state, "TM@3.1") == 2 + 7 + 0


def test_an_empty_cell_above_keeps_an_area_open():
    """4.5: an area next to an empty cell (above it, too) is not enclosed and scores nothing."""
    state = placing("BT@1.1", "TM")
    assert gain(state, "TM@1.2") == 1  # the icon only: the white pair is open above
    assert state.players[0].pyramid.areas == [1]  # the basalt half at the left edge
    state = placing("BT@1.1 TM@1.2", "MG")
    assert gain(state, "MG@2.1") == 2  # now the white pair (1,1) (1,2) is enclosed
    assert sorted(state.players[0].pyramid.areas) == [1, 1, 2]


def test_an_area_is_scored_once():
    """4.5: an enclosed area never grows and never scores again."""
    state = placing("BT@1.1 TM@1.2 MG@2.1", "GA")
    assert sorted(state.players[0].pyramid.areas) == [1, 1, 2]
    assert gain(state, "GA@1.3") == 0
    state = placing("BT@1.1 TM@1.2 MG@2.1 GA@1.3", "AB")
    assert gain(state, "AB@2.2") == 1  # the icon under 2.2 right; (1,3) and (1,4) close: 1s
    assert sorted(state.players[0].pyramid.areas) == [1, 1, 1, 1, 2]


def test_the_edge_encloses_areas():
    """4.5: the edge of the pyramid closes areas like another material does."""
    state = placing("", "TB")
    assert gain(state, "TB@1.1") == 0
    assert state.players[0].pyramid.areas == [1]  # (1,0): edge to the left and above
    state = placing("GA@1.5 TG@1.6", "MT")
    assert gain(state, "MT@2.5") == 2  # white (1,10) (2,10): the edge right of and above
    assert sorted(state.players[0].pyramid.areas) == [1, 1, 2]


# Cells of one basalt area, in an order where each touches an earlier one: the most cells
# one material can cover in the six-level pyramid (each stone has at most one of them).
TOP_AREA = [(6, 6), (5, 6), (5, 5), (4, 6), (4, 7), (3, 6), (3, 5), (2, 6), (2, 7), (1, 6),
            (1, 5)]


def top_area_state(size: int, edition=None):
    """Levels 1-5 full, the first ``size`` cells of TOP_AREA basalt, MB to place on top."""
    area = set(TOP_AREA[:size])

    def material(n, x):
        return "B" if (n, x) in area else filler_colour(n, x)

    return placing(placements(levels_below(6), material), "BM", edition=edition)


CHART = {1: 0, 2: 2, 3: 4, 4: 7, 5: 9, 6: 12, 7: 14, 8: 17, 9: 19, 10: 22, 11: 24}


@pytest.mark.parametrize(("size", "food"), CHART.items())
def test_area_chart(size, food):
    """4.5, chart, R1: an enclosed area of n cells gains the chart's food (11 -> 24).

    The last stone, MB on 6.1, closes the basalt area of ``size`` cells; it also covers
    the 3-food icon, and the other areas it closes have 1 cell (0 food).
    """
    state = top_area_state(size)
    assert gain(state, "MB@6.1") == food + 3
    assert max(state.players[0].pyramid.areas) == size


# In a seven-level pyramid one material can cover 13 cells (found the same way).
TOP_AREA_7 = [(7, 7), (6, 7), (6, 6), (5, 7), (5, 8), (4, 7), (4, 6), (3, 7), (3, 8), (2, 7),
              (2, 6), (1, 7), (1, 8)]


@pytest.mark.parametrize(("size", "food"), [(10, 22), (11, 24), (12, 24), (13, 24)])
def test_areas_of_more_than_11_cells_gain_24(size, food):
    """R1: 11 or more cells give 24 (an edition with a seven-level pyramid, where areas of
    12 and 13 cells exist; its top slot 7.1 has no icon)."""
    ed = edition_with(("levels = 6", "levels = 7"))
    area = set(TOP_AREA_7[:size])

    def material(n, x):
        return "B" if (n, x) in area else filler_colour(n, x)

    state = placing(placements(levels_below(7, levels=7), material), "TB", edition=ed)
    assert gain(state, "TB@7.1") == food
    assert max(state.players[0].pyramid.areas) == size


def test_areas_beyond_the_chart_get_its_last_entry():
    """R1: the chart stops; larger areas gain its last entry (an edition with a short chart)."""
    ed = edition_with(("area_food = [0, 2, 4, 7, 9, 12, 14, 17, 19, 22, 24]",
                       "area_food = [0, 2, 4, 7, 9]"))
    for size, food in ((5, 9), (6, 9), (11, 9), (4, 7)):
        assert gain(top_area_state(size, edition=ed), "MB@6.1") == food + 3


# ------------------------------------------------------------------ the masks, any size

@settings(max_examples=60, deadline=None)
@given(levels=st.integers(1, 8), seed=st.integers(0, 2**32 - 1))
def test_the_pyramid_masks_agree_with_the_cells_of_any_pyramid(levels: int, seed: int) -> None:
    """4.5 on pyramids of 1 to 8 levels filled in a random order with random stones (6
    levels fit the masks in 62 bits, 7 and 8 do not): each placement encloses the areas
    the plain flood fill over the cells (``check.enclosed_areas``) gains, and the cells
    next to each cell are those of the rules' (level, x) grid."""
    rng = random.Random(seed)
    g = Geometry.of(levels, ())
    pyramid = Pyramid(g)
    cell_of: dict[tuple[int, int], int] = {}  # (level, x) -> the cell's bit
    for s in range(g.slot_count):
        n, k = g.level_of[s], g.number_of[s]
        cell_of[(n, n - 1 + 2 * (k - 1))] = g.left_bit[s]
        cell_of[(n, n + 2 * (k - 1))] = g.right_bit[s]
    for (n, x), bit in cell_of.items():
        near = [cell_of.get(c, 0) for c in ((n, x - 1), (n, x + 1), (n - 1, x), (n + 1, x))]
        assert g.neighbours(bit) == sum(near)
    while pyramid.open:
        s = rng.choice(list(pyramid.open_slots()))
        left, right = rng.sample(range(5), 2)
        before = Counter(enclosed_areas(pyramid.stones, levels))
        enclosed = pyramid.place(s, left, right)
        assert Counter(enclosed) == Counter(enclosed_areas(pyramid.stones, levels)) - before
    assert sorted(pyramid.areas) == enclosed_areas(pyramid.stones, levels)
    assert pyramid.count == g.slot_count
    for m in range(5):
        assert pyramid.material[m] == sum(bit for (n, x), bit in cell_of.items()
                                          if _material_at(pyramid, g, n, x) == m)


def _material_at(pyramid: Pyramid, g: Geometry, n: int, x: int) -> int:
    """The material of cell (level n, x) of a full pyramid."""
    s = g.index(n, (x - (n - 1)) // 2 + 1)
    v = pyramid.stones[s]
    return v // 5 if (x - (n - 1)) % 2 == 0 else v % 5
