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

from .geometry import CELLS, OFF, W
from .state import City

__all__ = ["BARRACKS", "GARDEN", "HOUSE", "MARKET", "TEMPLE", "TYPES", "breakdown", "city_scores",
           "city_stars", "city_values", "lakes"]

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
    groups; each use takes a fresh stamp."""

    def __init__(self) -> None:
        self.outside: list[int] = [0] * CELLS
        self.group: list[int] = [0] * CELLS
        self.stamp = 0


_MARKS = _Marks()


def _fill_outside(city: City) -> int:
    """Mark the outside's positions of the grown bounding box in ``_MARKS.outside`` with a
    fresh stamp, which it returns; every neighbour of an occupied position lies in the box."""
    marks = _MARKS
    marks.stamp += 1
    stamp = marks.stamp
    qlo = rlo = CELLS
    qhi = rhi = -1
    for c in city.cells:
        q = c // W
        r = c % W
        qlo = min(qlo, q)
        qhi = max(qhi, q)
        rlo = min(rlo, r)
        rhi = max(rhi, r)
    qlo -= 1
    rlo -= 1
    qhi += 1
    rhi += 1
    height = city.height
    outside = marks.outside
    start = qlo * W + rlo  # a corner: never occupied
    outside[start] = stamp
    todo = [start]
    while todo:
        c = todo.pop()
        for off in OFF:
            n = c + off
            if outside[n] == stamp or height[n]:
                continue
            q = n // W
            r = n % W
            if qlo <= q <= qhi and rlo <= r <= rhi:
                outside[n] = stamp
                todo.append(n)
    return stamp


def city_values(city: City, bonus: list[bool]) -> list[int]:
    """The value of each district type's scoring districts (8.2), doubled where a bonus
    variant ``bonus`` (``hmbtg`` order) says so (9, A19)."""
    height = city.height
    top = city.top
    stamp = _fill_outside(city)
    outside = _MARKS.outside
    values = [0, 0, 0, 0, 0]
    best_size = 0
    best_value = 0
    marks = _MARKS
    marks.stamp += 1
    gstamp = marks.stamp
    group = marks.group
    for c in city.cells:
        kind = top[c]
        level = height[c]
        if kind == HOUSE:
            if group[c] == gstamp:
                continue
            # A maximal group of houses (A13); the largest, ties by value, scores (A14).
            group[c] = gstamp
            size = 0
            value = 0
            todo = [c]
            while todo:
                x = todo.pop()
                size += 1
                value += height[x]
                for off in OFF:
                    n = x + off
                    if top[n] == HOUSE and group[n] != gstamp:
                        group[n] = gstamp
                        todo.append(n)
            if size > best_size or (size == best_size and value > best_value):
                best_size = size
                best_value = value
        elif kind == MARKET:
            alone = True
            plaza = False
            for off in OFF:
                t = top[c + off]
                if t == MARKET:
                    alone = False  # A15: only market districts block
                elif t == MARKET + PLAZA:
                    plaza = True
            if alone:
                values[MARKET] += level * 2 if bonus[MARKET] and plaza else level
        elif kind == BARRACKS:
            free = 0
            for off in OFF:
                if outside[c + off] == stamp:
                    free += 1
            if free:  # A16: lake neighbours do not count
                values[BARRACKS] += level * 2 if bonus[BARRACKS] and free >= 3 else level  # A17
        elif kind == TEMPLE:
            surrounded = True
            for off in OFF:
                if not height[c + off]:
                    surrounded = False
            if surrounded:
                values[TEMPLE] += level * 2 if bonus[TEMPLE] and level >= 2 else level
        elif kind == GARDEN:
            lake = False
            for off in OFF:
                n = c + off
                if not height[n] and outside[n] != stamp:
                    lake = True  # A18
            values[GARDEN] += level * 2 if bonus[GARDEN] and lake else level
    values[HOUSE] = best_value * 2 if bonus[HOUSE] and best_value >= 10 else best_value
    return values


def city_stars(city: City, stars: list[int]) -> list[int]:
    """The stars of each type's plazas among the top hexes (8.3)."""
    out = [0, 0, 0, 0, 0]
    top = city.top
    for c in city.cells:
        kind = top[c] - PLAZA
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
            if not height[n] and outside[n] != stamp:
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
