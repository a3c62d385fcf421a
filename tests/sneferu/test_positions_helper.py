"""The hand-built position helper (tests/positions.py) does its bookkeeping right."""

from __future__ import annotations

import doctest

import positions
import pytest
from positions import Seat, build, filler_colour, levels_below, placements, position

from sneferu_cli.games.sneferu.components import Stone


def test_its_examples_run():
    """The module's docstring example holds."""
    assert doctest.testmod(positions).failed == 0


def test_every_stone_type_totals_ten():
    """The bag takes every stone not placed elsewhere (offer, pyramids, stores, Ptah)."""
    state = build([Seat(pyramid="BT@1.1 BT@1.2", store="BTMG")], ptah="BTBT",
                  offer=["BT", "", "", "GA"])
    assert state.bag[Stone.BT] == 10 - 6 and state.bag[Stone.MG] == 9
    assert state.bag_total == 100 - 8


def test_rest_empties_the_bag():
    """Seats named in ``rest`` take the stones left over, 21 each at most."""
    others = [Seat(space=40), Seat(space=40), Seat(space=40)]
    state = build([Seat(), *others], rest=[1, 2, 3])  # 28 offered, 63 in pyramids
    assert state.bag_total == 9 and [p.pyramid.count for p in state.players] == [0, 21, 21, 21]
    nine = placements([*levels_below(2), (2, 1), (2, 2), (2, 3)])
    state = build([Seat(pyramid=nine), *others], rest=[1, 2, 3])
    assert state.bag_total == 0


def test_filler_never_puts_a_material_next_to_itself():
    """Filler pyramids have only areas of one cell (0 food when enclosed)."""
    state = build([Seat(pyramid=placements(levels_below(7))), Seat()])
    assert sorted(set(state.players[0].pyramid.areas)) == [1]
    assert len(state.players[0].pyramid.areas) == 42
    assert {filler_colour(1, x) for x in range(12)} == set("TMGA")


def test_bad_requests_are_refused():
    """A wrong bag expectation or an impossible tile layout is an error, not a position."""
    with pytest.raises(ValueError, match="BT: the bag holds 3 but 10"):
        position(2, offer=["", "", "", ""], bag={"BT": 3})
    with pytest.raises(ValueError, match="no SAVETIME tile left"):
        position(2, tiles={3: "SAVETIME", 5: "SAVETIME"})
    with pytest.raises(ValueError, match="no quarry at space"):
        position(2, tiles={4: "FOOD1"})
