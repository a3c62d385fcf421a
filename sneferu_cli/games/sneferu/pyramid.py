"""A player's pyramid: slots, support, food icons and enclosed areas.

Level ``n`` (1 = bottom) has ``L + 1 - n`` slots. Each slot holds one stone lying flat, a
left and a right *cell*. Cells are bits of one integer, a row of ``S = 2L`` bits a level,
each level's cells from bit 0 of its row; a level's stones sit half a stone to the right
of those below, so the cell above cell ``j`` of a level is cell ``j - 1`` of the next
(``S - 1`` bits up). Adjacency, flood fill and the enclosed-area test are a few shifts and
masks; a mask per direction keeps a shift inside the pyramid, so no shift leaves the
highest cell's bit: with 6 levels that is bit 61, and the masks stay ints that mypyc keeps
unboxed (below 2**62). The geometry of an edition is computed once; a :class:`Pyramid`
keeps its masks up to date as stones arrive.

>>> g = Geometry.of(6, ())
>>> g.slot_count, g.index(2, 1), g.support_of(g.index(2, 1))
(21, 6, (0, 1))
>>> left, right = g.left_bit, g.right_bit  # of slot 2.2: beside, below, above
>>> g.neighbours(left[7]) == right[6] | right[7] | right[1] | right[11]
True
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Iterator

from ...game import NotationError
from .components import Material


class Geometry:
    """Precomputed shape of a pyramid with ``levels`` levels (slot indices 0.. bottom-up)."""

    def __init__(self, levels: int, icons: tuple[tuple[int, int, str, int], ...]) -> None:
        self.levels = levels
        self.stride = stride = 2 * levels
        self.slot_count = levels * (levels + 1) // 2
        self.valid = 0
        level_of: list[int] = []
        number_of: list[int] = []
        left_bit: list[int] = []
        right_bit: list[int] = []
        self.slot_index: dict[tuple[int, int], int] = {}
        # The cells with a neighbour on their right, on their left, above and below.
        self.has_right = self.has_left = self.has_above = self.has_below = 0
        for n in range(1, levels + 1):
            cells = 2 * (levels + 1 - n)
            for j in range(cells):
                bit = 1 << ((n - 1) * stride + j)
                self.has_right |= bit if j < cells - 1 else 0
                self.has_left |= bit if j > 0 else 0
                self.has_above |= bit if n < levels and 0 < j < cells - 1 else 0
                self.has_below |= bit if n > 1 else 0
            for k in range(1, levels + 2 - n):
                self.slot_index[(n, k)] = len(level_of)
                level_of.append(n)
                number_of.append(k)
                left_bit.append(1 << ((n - 1) * stride + 2 * (k - 1)))
                right_bit.append(left_bit[-1] << 1)
                self.valid |= left_bit[-1] | right_bit[-1]
        # The slot index of slot 1 of each level (level 1 first).
        self.level_start = tuple(self.slot_index[(n, 1)] for n in range(1, levels + 1))
        self.level_of = tuple(level_of)
        self.number_of = tuple(number_of)
        self.left_bit = tuple(left_bit)
        self.right_bit = tuple(right_bit)
        support: list[int] = []
        above: list[list[int]] = [[] for _ in level_of]
        side: list[int] = []
        for s, (n, k) in enumerate(zip(level_of, number_of, strict=True)):
            if n == 1:
                support.append(0)
            else:
                a, b = self.slot_index[(n - 1, k)], self.slot_index[(n - 1, k + 1)]
                support.append((1 << a) | (1 << b))
                above[a].append(s)
                above[b].append(s)
            left, right = self.slot_index.get((n, k - 1)), self.slot_index.get((n, k + 1))
            side.append(0 if left is None or right is None else (1 << left) | (1 << right))
        self.support = tuple(support)
        self.above = tuple(tuple(a) for a in above)
        # Slots with a left and a right neighbour on their level (Tsekani), else 0.
        self.sides = tuple(side)
        self.bottom_slots = sum(1 << s for s, n in enumerate(level_of) if n == 1)
        self.level_cells = tuple(
            sum(left_bit[s] | right_bit[s] for s, m in enumerate(level_of) if m == n)
            for n in range(1, levels + 1)
        )
        food = [0] * len(level_of)
        for level, slot, _half, amount in icons:
            food[self.slot_index[(level, slot)]] += amount
        self.icon_food = tuple(food)
        self.icons = icons

    @staticmethod
    @functools.cache
    def of(levels: int, icons: tuple[tuple[int, int, str, int], ...]) -> Geometry:
        return Geometry(levels, icons)

    def index(self, level: int, slot: int) -> int:
        """The slot index of slot ``slot`` (1-based) on level ``level`` (1-based)."""
        try:
            return self.slot_index[(level, slot)]
        except KeyError:
            raise NotationError(f"there is no slot {level}.{slot} in the pyramid") from None

    def has_slot(self, level: int, slot: int) -> bool:
        return (level, slot) in self.slot_index

    def support_of(self, s: int) -> tuple[int, ...]:
        """The slot indices slot ``s`` rests on (none on level 1)."""
        return tuple(i for i in range(self.slot_count) if self.support[s] >> i & 1)

    def neighbours(self, cells: int) -> int:
        """The cells orthogonally adjacent to any of ``cells`` (inside the pyramid)."""
        up = self.stride - 1
        return (((cells & self.has_right) << 1) | ((cells & self.has_left) >> 1)
                | ((cells & self.has_above) << up) | ((cells & self.has_below) >> up))


class Pyramid:
    """The stones in one player's pyramid, with masks kept current for fast scoring."""

    __slots__ = ("areas", "basalt", "cells", "count", "filled", "geometry", "gold", "granite",
                 "mokattam", "observed", "open", "stones", "tura")

    stones: list[int]  # per slot: -1 when empty, else left * 5 + right (materials)
    filled: int  # slot mask
    cells: int  # cell mask
    # The cell mask of each material (plain int attributes, not a list: mypyc keeps them
    # unboxed); ``material`` lists them.
    basalt: int
    tura: int
    mokattam: int
    granite: int
    gold: int
    open: int  # empty slots that are supported
    count: int
    areas: list[int]  # sizes of the enclosed areas, in the order enclosed
    observed: array[float] | None
    """The pyramid's numbers in the observation tensor (:func:`.observe.fill`), kept
    until a stone is placed; never changed in place, so a copy shares them."""

    def __init__(self, geometry: Geometry, source: Pyramid | None = None) -> None:
        """An empty pyramid, or a copy of ``source`` (of the same geometry)."""
        self.geometry = geometry
        if source is not None:
            self.stones = source.stones[:]
            self.filled = source.filled
            self.cells = source.cells
            self.basalt, self.tura, self.mokattam = source.basalt, source.tura, source.mokattam
            self.granite, self.gold = source.granite, source.gold
            self.open = source.open
            self.count = source.count
            self.areas = source.areas[:]
            self.observed = source.observed
            return
        self.stones = [-1] * geometry.slot_count
        self.filled = 0
        self.cells = 0
        self.basalt = self.tura = self.mokattam = self.granite = self.gold = 0
        self.open = geometry.bottom_slots
        self.count = 0
        self.areas = []
        self.observed = None

    @property
    def material(self) -> list[int]:
        """The cell mask of each material, in :class:`Material` order."""
        return [self.basalt, self.tura, self.mokattam, self.granite, self.gold]

    def _cells_of(self, m: int) -> int:
        """The cell mask of material ``m``."""
        if m == 0:
            return self.basalt
        if m == 1:
            return self.tura
        if m == 2:
            return self.mokattam
        return self.granite if m == 3 else self.gold

    def _add_cells(self, m: int, cells: int) -> None:
        """Add ``cells`` to the mask of material ``m``."""
        if m == 0:
            self.basalt |= cells
        elif m == 1:
            self.tura |= cells
        elif m == 2:
            self.mokattam |= cells
        elif m == 3:
            self.granite |= cells
        else:
            self.gold |= cells

    def copy(self) -> Pyramid:
        return Pyramid(self.geometry, self)

    def open_slots(self) -> Iterator[int]:
        """Indices of the empty slots a stone may go into now."""
        o = self.open
        while o:
            low = o & -o
            yield low.bit_length() - 1
            o ^= low

    def place(self, s: int, left: int, right: int) -> list[int]:
        """Put a stone into open slot ``s``; return the sizes of the areas it encloses."""
        g = self.geometry
        lb, rb = g.left_bit[s], g.right_bit[s]
        new = lb | rb
        self.stones[s] = left * 5 + right
        self.observed = None
        self.filled |= 1 << s
        self.open &= ~(1 << s)
        filled = self.filled
        for u in g.above[s]:
            if g.support[u] & filled == g.support[u]:
                self.open |= 1 << u
        self.cells |= new
        self._add_cells(left, lb)
        self._add_cells(right, rb)
        self.count += 1
        # Only areas holding a new cell, or that just lost an empty neighbour, can close;
        # an area is enclosed when none of its cells touches an empty cell.
        right, left, above, below = g.has_right, g.has_left, g.has_above, g.has_below
        up = g.stride - 1
        cells = self.cells
        touched = (new | ((new & right) << 1) | ((new & left) >> 1) | ((new & above) << up)
                   | ((new & below) >> up)) & cells
        empty = g.valid & ~cells
        near_empty = (((empty & right) << 1) | ((empty & left) >> 1)
                      | ((empty & above) << up) | ((empty & below) >> up))
        seeds = touched & ~near_empty
        enclosed: list[int] = []
        if not seeds:
            return enclosed
        for m in range(5):
            cells_m = self._cells_of(m)
            todo = seeds & cells_m
            while todo:
                area = todo & -todo
                while True:
                    grown = (area | ((area & right) << 1) | ((area & left) >> 1)
                             | ((area & above) << up) | ((area & below) >> up)) & cells_m
                    if grown == area:
                        break
                    area = grown
                todo &= ~area
                if not area & near_empty:
                    size = 0  # the cells of the area (int.bit_count is a method call)
                    while area:
                        area &= area - 1
                        size += 1
                    enclosed.append(size)
                    self.areas.append(size)
        return enclosed

    def highest_level(self) -> int:
        """The number of levels holding at least one stone."""
        return sum(1 for lc in self.geometry.level_cells if lc & self.cells)

    def material_at(self, s: int) -> tuple[Material, Material] | None:
        """The (left, right) materials of slot ``s``, or None when empty."""
        v = self.stones[s]
        return None if v < 0 else (Material(v // 5), Material(v % 5))

    @classmethod
    def from_stones(cls, geometry: Geometry, stones: list[tuple[int, int] | None]) -> Pyramid:
        """Rebuild a pyramid from its slot contents (bottom-up), checking support."""
        p = cls(geometry)
        for s, st in enumerate(stones):
            if st is None:
                continue
            if not p.open >> s & 1:
                n, k = geometry.level_of[s], geometry.number_of[s]
                raise NotationError(f"the stone in slot {n}.{k} is not supported")
            p.place(s, st[0], st[1])
        return p
