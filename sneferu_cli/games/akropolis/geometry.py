"""Akropolis geometry (AKROPOLIS-RULES.md section 3) on integer cell indices.

A city is drawn on a square grid of axial positions (q, r), |q|, |r| <= ``R``; position
(q, r) is cell ``(q + R) * W + (r + R)``, so that cell order is q, then r (the legal-move
order of A23), and the neighbour in direction *k* is ``cell + OFF[k]``. Every city of a
game fits: a city holds at most 30 tiles besides the starting tile (61 tiles, 2 players),
each tile laid at most 2 steps further out than the city reached, so no hex is more than
61 steps from the origin; a tile may cover positions up to ``REACH`` steps away (farther
ones are never reached) and their neighbours are still on the grid.

>>> cell(0, 0) + OFF[0] == cell(0, -1), q_of(cell(3, -5)), r_of(cell(3, -5))
(True, 3, -5)
>>> distance(2, -3), in_reach(cell(63, 0)), in_reach(cell(64, 0))
(3, True, False)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

__all__ = [
    "CELLS",
    "DIRECTIONS",
    "OFF",
    "QUARRY",
    "REACH",
    "R",
    "W",
    "box",
    "cell",
    "distance",
    "in_reach",
    "q_of",
    "r_of",
]

R: Final = 66
W: Final = 2 * R + 1
CELLS: Final = W * W
REACH: Final = 63
"""Positions at most this many steps from the origin may take a hex (no game needs more:
see the module's docstring)."""
DIRECTIONS: Final = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""d_0 … d_5 clockwise: N, NE, SE, S, SW, NW (section 3)."""
OFF: Final = tuple(dq * W + dr for dq, dr in DIRECTIONS)
QUARRY: Final = 10
"""The code of the quarry (``HEXES.index("q")``)."""


def cell(q: int, r: int) -> int:
    """The cell of position (q, r); |q|, |r| <= R."""
    return (q + R) * W + (r + R)


def q_of(c: int) -> int:
    return c // W - R


def r_of(c: int) -> int:
    return c % W - R


def distance(q: int, r: int) -> int:
    """Steps from the origin to (q, r)."""
    return max(abs(q), abs(r), abs(q + r))


def _reach(steps: int) -> bytes:
    out = bytearray(CELLS)
    for q in range(-R, R + 1):
        for r in range(-R, R + 1):
            if distance(q, r) <= steps:
                out[cell(q, r)] = 1
    return bytes(out)


_REACH: Final = _reach(REACH)
_INNER: Final = _reach(REACH - 2)


def in_reach(c: int) -> bool:
    """Whether a tile's hex may lie on cell ``c`` (at most ``REACH`` steps out)."""
    return _REACH[c] == 1


def inner(c: int) -> bool:
    """Whether every position within two steps of cell ``c`` is in reach."""
    return _INNER[c] == 1


def box(cells: list[int]) -> tuple[i64, i64, i64, i64]:
    """The first and last grid column (q + R) and row (r + R) of ``cells`` (not empty)."""
    first_column: i64 = cells[0] // W
    first_row: i64 = cells[0] - first_column * W
    last_column = first_column
    last_row = first_row
    for c in cells:
        column: i64 = c // W
        row: i64 = c - column * W
        if column < first_column:
            first_column = column
        elif column > last_column:
            last_column = column
        if row < first_row:
            first_row = row
        elif row > last_row:
            last_row = row
    return first_column, last_column, first_row, last_row
