"""The rules core's plain int constants (kept for the hot path and mypyc) stay equal to
the enums they stand for: a renumbered Phase or Tile fails here, not in a game."""

from __future__ import annotations

from sneferu_cli.games.sneferu import state
from sneferu_cli.games.sneferu.components import Tile
from sneferu_cli.games.sneferu.state import Phase


def test_phase_constants_are_the_phases():
    constants = [state._SETUP, state._START, state._PLACE, state._POST, state._DRAW,
                 state._OVER]
    assert constants == [p.value for p in Phase]
    assert tuple(Phase) == state.PHASES


def test_tile_constants_are_the_tiles():
    constants = [state._FOOD1, state._FOOD2, state._NOEXTRA, state._SAVETIME,
                 state._TIMEFOOD, state._STOREHOUSE]
    assert constants == [t.value for t in Tile]
