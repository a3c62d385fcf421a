"""Akropolis final scoring (AKROPOLIS-RULES.md section 8, variants section 9, A13–A19).

For each district type (``hmbtg``: houses, markets, barracks, temples, gardens) the
*value* of its scoring districts (each its level, doubled by its bonus variant) times the
stars of that type's plazas among the top hexes; the total adds one point per stone. Only
top hexes count; adjacency is between positions, whatever the levels (A13).

The outside and the lakes (section 3): the empty positions of the footprint's bounding box
grown by one, flood-filled from a corner; an empty position the fill does not reach is in a
lake (A16–A18).

>>> from sneferu_cli.games.akropolis.state import new_game
>>> state = new_game(2)
>>> city_scores(state.cities[0], state.tables.stars, state.bonus), city_stars(
...     state.cities[0], state.tables.stars)
([0, 0, 0, 0, 0], [1, 0, 0, 0, 0])
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from .geometry import CELLS, OFF, W, box
from .state import AkropolisState, City

__all__ = ["BARRACKS", "GARDEN", "HOUSE", "MARKET", "TEMPLE", "TYPES", "breakdown", "city_scores",
           "city_stars", "city_values", "lakes", "points", "ranking"]

HOUSE: Final = 0
MARKET: Final = 1
BARRACKS: Final = 2
TEMPLE: Final = 3
GARDEN: Final = 4
PLAZA: Final = 5
"""Plaza codes are the district's code + 5 (``HEXES``)."""
TYPES: Final = ("houses", "markets", "barracks", "temples", "gardens")
"""The district types in record order (8.4)."""


class _Marks:
    """Scratch marks over the cells: ``outside`` for the flood fill, ``group`` for house
    groups; each use marks with an object of its own (compared by identity: no number to
    box)."""

    def __init__(self) -> None:
        self.outside: list[object] = [None] * CELLS
        self.group: list[object] = [None] * CELLS


_MARKS = _Marks()


def _fill_outside(city: City) -> object:
    """Mark the outside's positions of the grown bounding box in ``_MARKS.outside`` with a
    fresh stamp, which it returns; every neighbour of an occupied position lies in the box.
    The ring just outside the box is marked first, so that the fill never leaves it."""
    base, height, _ = city.window()
    return _fill(city.cells, base, height)


def _fill(cells: list[int], base: i64, height: bytes) -> object:
    """:func:`_fill_outside` of the city with ``cells``, from its window's heights
    (``height``, cell *c* at *c* less ``base``)."""
    stamp = object()
    first_column, last_column, first_row, last_row = box(cells)
    outside = _MARKS.outside
    column: i64
    row: i64
    for column in range(first_column - 2, last_column + 3):
        outside[column * W + first_row - 2] = stamp
        outside[column * W + last_row + 2] = stamp
    for row in range(first_row - 2, last_row + 3):
        outside[(first_column - 2) * W + row] = stamp
        outside[(last_column + 2) * W + row] = stamp
    start: i64 = (first_column - 1) * W + first_row - 1  # a corner: never occupied
    outside[start] = stamp
    todo: list[int] = [start]
    k: i64
    while todo:
        c: i64 = todo.pop()
        for k in range(6):
            n: i64 = c + OFF[k]
            if not height[n - base] and outside[n] is not stamp:
                outside[n] = stamp
                todo.append(n)
    return stamp


def city_values(city: City, bonus: list[bool]) -> list[int]:
    """The value of each district type's scoring districts (8.2), doubled where a bonus
    variant ``bonus`` (``hmbtg`` order) says so (9, A19)."""
    b, height, top = city.window()  # cell c at c - base
    base: i64 = b
    # With no lake every empty position is outside: no fill to find which are.
    lakes = city.has_lakes()
    stamp = _fill(city.cells, base, height) if lakes else None
    outside = _MARKS.outside
    values = [0, 0, 0, 0, 0]
    best_size = 0
    best_value = 0
    gstamp = object()
    group = _MARKS.group
    k: i64
    for cell in city.cells:
        c: i64 = cell
        kind = top[c - base]
        level = height[c - base]
        if kind == HOUSE:
            if group[c] is gstamp:
                continue
            # A maximal group of houses (A13); the largest, ties by value, scores (A14).
            group[c] = gstamp
            size = 0
            value = 0
            todo: list[int] = [c]
            while todo:
                x: i64 = todo.pop()
                size += 1
                value += height[x - base]
                for k in range(6):
                    n: i64 = x + OFF[k]
                    if top[n - base] == HOUSE and group[n] is not gstamp:
                        group[n] = gstamp
                        todo.append(n)
            if size > best_size or (size == best_size and value > best_value):
                best_size = size
                best_value = value
        elif kind == MARKET:
            alone = True
            plaza = False
            for k in range(6):
                t = top[c + OFF[k] - base]
                if t == MARKET:
                    alone = False  # A15: only market districts block
                elif t == MARKET + PLAZA:
                    plaza = True
            if alone:
                values[MARKET] += level * 2 if bonus[MARKET] and plaza else level
        elif kind == BARRACKS:
            free = 0
            for k in range(6):
                if (outside[c + OFF[k]] is stamp if lakes
                        else not height[c + OFF[k] - base]):
                    free += 1
            if free:  # A16: lake neighbours do not count
                values[BARRACKS] += level * 2 if bonus[BARRACKS] and free >= 3 else level  # A17
        elif kind == TEMPLE:
            surrounded = True
            for k in range(6):
                if not height[c + OFF[k] - base]:
                    surrounded = False
            if surrounded:
                values[TEMPLE] += level * 2 if bonus[TEMPLE] and level >= 2 else level
        elif kind == GARDEN:
            lake = False
            for k in range(6 if lakes else 0):
                n = c + OFF[k]
                if not height[n - base] and outside[n] is not stamp:
                    lake = True  # A18
            values[GARDEN] += level * 2 if bonus[GARDEN] and lake else level
    values[HOUSE] = best_value * 2 if bonus[HOUSE] and best_value >= 10 else best_value
    return values


def city_stars(city: City, stars: list[int]) -> list[int]:
    """The stars of each type's plazas among the top hexes (8.3)."""
    out = [0, 0, 0, 0, 0]
    base, _, top = city.window()
    for c in city.cells:
        kind = top[c - base] - PLAZA
        if 0 <= kind < 5:
            out[kind] += stars[kind]
    return out


def breakdown(city: City, stars: list[int], bonus: list[bool]) -> list[int]:
    """Each type's value (:func:`city_values`), then each type's stars (:func:`city_stars`):
    ten numbers, kept on the city until it changes."""
    if city.scores is None:
        city.scores = city_values(city, bonus) + city_stars(city, stars)
    return city.scores


def city_scores(city: City, stars: list[int], bonus: list[bool]) -> list[int]:
    """Each type's points: value x stars (8.4)."""
    b = breakdown(city, stars, bonus)
    return [b[k] * b[k + 5] for k in range(5)]


def lakes(city: City) -> list[int]:
    """The cells of every lake (finite empty region, A18), in cell order."""
    stamp = _fill_outside(city)
    outside = _MARKS.outside
    height = city.height
    out: set[int] = set()
    for c in city.cells:
        for off in OFF:
            n = c + off
            if not height[n] and outside[n] is not stamp:
                out.add(n)
    # A lake's inner positions touch no tile: grow each lake through empty positions.
    todo = list(out)
    while todo:
        c = todo.pop()
        for off in OFF:
            n = c + off
            if not height[n] and n not in out:
                out.add(n)
                todo.append(n)
    return sorted(out)


def points(state: AkropolisState, seat: int) -> int:
    """The seat's total if the game ended now: its five district scores and its stones (8.4)."""
    return sum(city_scores(state.cities[seat], state.tables.stars, state.bonus)) \
        + state.stones[seat]


def ranking(state: AkropolisState) -> list[tuple[int, int, int, int, bool]]:
    """``(seat, rank, points, stones, retired)`` by seat: points, then stones, then a shared
    place (A20); retired seats below the others."""
    keys = [(not state.retired[s], points(state, s), state.stones[s])
            for s in range(state.players)]
    return [(s, 1 + sum(1 for k in keys if k > keys[s]), keys[s][1], keys[s][2],
             state.retired[s]) for s in range(state.players)]
