"""The Akropolis game state: set-up, the construction site, placement and every rule of
AKROPOLIS-RULES.md (rulings A1..A23) but the final scoring (:mod:`.scoring`).

An :class:`AkropolisState` is OpenSpiel-style: a chance node (a site place to fill, one
tile drawn uniformly from the undrawn ones, A4) or a decision of the seat to move (take a
site tile and place it in its city). The state does no I/O and imports neither lark nor
click: it is the rules core, with :mod:`.geometry` and :mod:`.scoring`, compiled with mypyc.

Positions are integer cell indices (:mod:`.geometry`); a placement ("spot") is
``cell * 6 + rotation``; tiles are indices into the edition's ``tiles``.

>>> import random
>>> state = new_game(2, "hmbtga")
>>> rng = random.Random(1)
>>> while state.is_chance_node():
...     state.draw(sample_tile(state, rng))
>>> len(state.site), state.stones, state.current_seat()
(4, [1, 2], 0)
>>> len(state.legal_spots())  # ground placements around the starting tile
90
"""

from __future__ import annotations

import random
from array import array
from typing import Final

from mypy_extensions import i64

from ...game import IllegalMove
from .edition import HEXES, PLAZAS, Edition, standard_edition
from .geometry import CELLS, OFF, QUARRY, W, box, cell, in_reach, inner, q_of, r_of

_MARGIN: Final = 3
"""Grid columns a city's window holds on each side of its occupied ones: every position the
rules read (a neighbour of a position of a triangle touching the city) lies within three
steps of an occupied one, and a step changes the column by at most one."""
_SLACK: Final = 3
"""Columns more a window is widened by than a placement needs, so that it grows rarely."""

__all__ = ["LISTED", "NO_HEX", "SITE_PLACES", "START_TILE", "AkropolisIllegalMove",
           "AkropolisState", "City", "Spot", "Tables", "new_game", "options_of", "sample_tile",
           "spot_cells", "spot_of", "spot_text", "tables_of"]

START_TILE: Final = 1
"""The tile number of the starting tile in a city's ``tile`` grid (city tile *i* is
``i + 2``; 0: no tile)."""
NO_HEX: Final = 255
"""The ``top`` of an empty position."""
_NO_SPOT: Final = 6 * CELLS
"""More than any spot's number."""
_EMPTY_TOPS: Final = bytes([NO_HEX]) * CELLS


class AkropolisIllegalMove(IllegalMove):
    """A move or chance outcome the rules do not allow here."""


class Tables:
    """What the rules read of an edition, as integers: each tile's three hex codes, the
    starting tile, the stars per plaza kind (district order ``hmbtg``); and each tile's
    chance outcome (``~T17``)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.codes: list[str] = [t.code for t in edition.tiles]
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.codes)}
        self.outcomes: list[str] = ["~" + c for c in self.codes]
        """Each tile's chance outcome text."""
        self.outcome_index: dict[str, int] = {o: i for i, o in enumerate(self.outcomes)}
        self.hexes: list[list[int]] = [[HEXES.index(c) for c in t.hexes] for t in edition.tiles]
        self.markings: list[str] = [t.marking for t in edition.tiles]
        self.start: list[tuple[int, int]] = [(cell(h.q, h.r), HEXES.index(h.hex))
                                             for h in edition.start]
        self.stars: list[int] = [edition.stars.of(p) for p in PLAZAS]
        self.starting_stones: list[int] = list(edition.starting_stones)
        self._started: City | None = None

    def started(self) -> City:
        """A city of the starting tile alone (A3), made once: copy it."""
        if self._started is None:
            self._started = City()
            self._started.lay_start(self)
            self._started._top = self._started._found_top()  # found once, for every copy
        return self._started

    def tile_set(self, players: int, all_tiles: bool) -> list[int]:
        """The tiles in play (section 4.2), in edition order."""
        allowed = {2: ("2+",), 3: ("2+", "3+")}.get(players, ("2+", "3+", "4"))
        return [i for i, m in enumerate(self.markings) if all_tiles or m in allowed]


_TABLES: dict[int, Tables] = {}


def tables_of(edition: Edition) -> Tables:
    """The :class:`Tables` of ``edition`` (made once per edition object)."""
    t = _TABLES.get(id(edition))
    if t is None or t.edition is not edition:
        t = Tables(edition)
        _TABLES[id(edition)] = t
    return t


def options_of(variant: str) -> tuple[list[bool], bool]:
    """The five bonus variants (``hmbtg`` order) and the all-tiles option of an option
    word such as ``HmbtgA`` (section 9); ValueError when it is not one. The list is
    shared: never change it."""
    known = _OPTIONS.get(variant)
    if known is not None:
        return known
    if len(variant) != 6 or any(c.lower() != w for c, w in zip(variant, "hmbtga", strict=True)):
        raise ValueError(f"unknown Akropolis variant {variant!r} (expected six letters "
                         "hmbtga, upper case when on: e.g. hmbtga, HMBTGa, hmbtgA)")
    known = ([c.isupper() for c in variant[:5]], variant[5] == "A")
    _OPTIONS[variant] = known
    return known


_OPTIONS: Final[dict[str, tuple[list[bool], bool]]] = {}


class City:
    """One player's city: per position its height and top tile (:attr:`height`,
    :attr:`tile`) and its top hex (:attr:`top`, found from the placements when asked); the
    occupied positions (``cells``, in order of first occupation); the placements made, in
    order (``tiles`` and ``spots``).

    The heights and top tiles are kept for a *window* of whole grid columns only, the
    occupied ones and :data:`_MARGIN` more on each side (cells ``base`` on, cell *c* at
    ``c - base``; every other position is empty): immutable bytes replaced when a tile is
    placed, so that a copy shares them, and so that a placement copies a city's width of
    columns, not the whole grid."""

    def __init__(self, height: bytes = b"", top: bytes = b"", tile: bytes = b"") -> None:
        self._base = 0
        """The first cell of the window (a column's first)."""
        self._h: bytes = height
        """The heights of the window's cells (a city built by hand: the whole grid)."""
        self._t: bytes = tile or bytes(len(height))
        """The top tiles of the window's cells."""
        self._full: tuple[bytes, bytes] | None = None
        """:attr:`height` and :attr:`tile` once made (None: not since the last change)."""
        self._top: bytes | None = top or None
        """:attr:`top` once found (None: not since the last placement); a city built by
        hand (``top`` given) keeps its own."""
        self._window_top: bytes | None = None
        """The top hexes of the window's cells once found (:meth:`window`; None: not
        since the last change)."""
        self.tables: Tables | None = None
        """The edition's tables (:meth:`lay_start`): the hexes of the tiles placed."""
        self.cells: list[int] = []
        self.tiles: list[int] = []
        self.spots: list[int] = []
        self.edges = 0
        """Pairs of neighbouring occupied positions ..."""
        self.triangles = 0
        """... and triples of mutually neighbouring ones: with the positions and
        :attr:`pieces`, what :meth:`has_lakes` counts the lakes by."""
        self.pieces = 0
        """How many connected parts the occupied positions make: 1 once the starting tile
        is laid, as every tile touches the city (only a city built by hand has more)."""
        self.scores: list[int] | None = None
        """The scoring's values and stars (:func:`.scoring.breakdown`), kept until the city
        changes."""
        self.observed: tuple[object, array[float]] | None = None
        """The city's numbers in the observation tensor with the layout they were made
        for (:func:`.observe.fill`), kept until the city changes; never changed in
        place, so a copy shares them."""
        self.prospects: list[float] | None = None
        """What the estimate reads of the city (:mod:`.heuristic`), kept until it changes."""
        self.legal: list[Spot] = []
        """The legal spots (5.2) with their texts (:func:`spot_of`), sorted as
        :meth:`AkropolisState.legal_spots` gives them, kept up to date by each placement
        (:meth:`_update_legal`) while :attr:`legal_known`; never changed in place, so a
        copy shares it."""
        self.legal_known = True
        """False once a placement left :attr:`legal` out of date (``keep_legal`` False: a
        city read from a position); :meth:`refresh` finds it again."""

    def copy(self) -> City:
        c = City(self._h, b"", self._t)
        c._base = self._base
        c._full = self._full
        c._top = self._top
        c._window_top = self._window_top
        c.tables = self.tables
        c.cells = list(self.cells)
        c.tiles = list(self.tiles)
        c.spots = list(self.spots)
        c.edges = self.edges
        c.triangles = self.triangles
        c.pieces = self.pieces
        c.scores = self.scores
        c.observed = self.observed
        c.prospects = self.prospects
        c.legal = self.legal
        c.legal_known = self.legal_known
        return c

    @property
    def height(self) -> bytes:
        """Per position of the whole grid its height (0: empty), made when first asked
        after a change (play reads the window, scoring and notations this)."""
        return self._grids()[0]

    @height.setter
    def height(self, height: bytes) -> None:
        """Set every position's height (a broken city for the checks' tests)."""
        tile = self.tile
        self._base = 0
        self._h = height
        self._t = tile
        self._full = None
        self.scores = self.observed = self.prospects = None
        self._window_top = None
        self.edges = self.triangles = self.pieces = 0
        for c in self.cells:  # counted again, each pair and triple once
            for k in range(6):
                if height[c + OFF[k]] and c + OFF[k] > c:
                    self.edges += 1
                    if height[c + OFF[(k + 1) % 6]] and c + OFF[(k + 1) % 6] > c:
                        self.triangles += 1
        met: set[int] = set()
        for c in self.cells:
            if c not in met:
                self.pieces += 1
                met.add(c)
                todo = [c]
                while todo:
                    x = todo.pop()
                    for off in OFF:
                        if height[x + off] and x + off not in met:
                            met.add(x + off)
                            todo.append(x + off)

    @property
    def tile(self) -> bytes:
        """Per position of the whole grid its top tile (:data:`START_TILE`, a city tile
        *i* as ``i + 2``, 0: none), made when first asked after a change."""
        return self._grids()[1]

    def _grids(self) -> tuple[bytes, bytes]:
        """:attr:`height` and :attr:`tile`, made from the window when not kept."""
        full = self._full
        if full is None:
            before = bytes(self._base)
            after = bytes(CELLS - self._base - len(self._h))
            full = (before + self._h + after, before + self._t + after)
            self._full = full
        return full

    def window(self) -> tuple[int, bytes, bytes]:
        """The window's first cell, then the heights and the top hexes (``NO_HEX`` where
        empty) of its cells, cell *c* at *c* less the first: what scoring reads, without
        making the whole grid. Every neighbour of an occupied position is in it."""
        top = self._window_top
        if top is None:
            base = self._base
            size = len(self._h)
            if self._top is not None:  # found already (or a city built by hand)
                top = self._top[base:base + size]
            else:
                grid = bytearray(_EMPTY_TOPS[:size])
                tables = self.tables
                if tables is not None:
                    for at, hex_ in tables.start:
                        grid[at - base] = hex_
                    for k in range(len(self.tiles)):
                        hexes = tables.hexes[self.tiles[k]]
                        at = self.spots[k] // 6
                        rot = self.spots[k] - 6 * at
                        grid[at - base] = hexes[0]
                        grid[at + OFF[rot] - base] = hexes[1]
                        grid[at + OFF[(rot + 1) % 6] - base] = hexes[2]
                top = bytes(grid)
            self._window_top = top
        return self._base, self._h, top

    def height_at(self, c: int) -> int:
        """The height of position ``c`` (any cell of the grid; 0: empty)."""
        return _read(self._h, self._base, c)

    def _widen(self, first_column: int, last_column: int) -> None:
        """Make the window hold at least the grid columns ``first_column`` to
        ``last_column`` (clipped to the grid) and :data:`_SLACK` more each side where it
        grows."""
        if not self._h:  # no window yet: one of empty columns
            first = max(0, first_column - _SLACK)
            last = min(W - 1, last_column + _SLACK)
            self._base = first * W
            self._h = self._t = bytes((last + 1 - first) * W)
            self._window_top = None
            return
        first = self._base // W
        last = first + len(self._h) // W - 1
        if first_column < first:
            first = max(0, first_column - _SLACK)
        if last_column > last:
            last = min(W - 1, last_column + _SLACK)
        base = first * W
        before = bytes(self._base - base)
        after = bytes((last + 1) * W - self._base - len(self._h))
        self._h = before + self._h + after
        self._t = before + self._t + after
        self._base = base
        self._window_top = None

    def _fit(self) -> None:
        """Make the window hold the occupied columns and :data:`_MARGIN` more each side,
        :data:`_SLACK` beyond (a city read or rebuilt, whose window was the whole grid)."""
        if not self.cells:
            return
        first_column, last_column, _, _ = box(self.cells)
        first = max(0, first_column - _MARGIN - _SLACK)
        last = min(W - 1, last_column + _MARGIN + _SLACK)
        start = first * W - self._base
        end = (last + 1) * W - self._base
        if start >= 0 and end <= len(self._h):
            self._h = self._h[start:end]
            self._t = self._t[start:end]
            self._base = first * W
            self._window_top = None

    @property
    def top(self) -> bytes:
        """Per position the code of its top hex (``NO_HEX`` where empty): the starting
        tile's hexes, then each placement's in order (each covers what it lies on). Found
        when first asked after a placement: play never reads it, only scoring and
        notations do, so a placement copies two grids, not three."""
        top = self._top
        if top is None:
            top = self._found_top()
            self._top = top
        return top

    def _found_top(self) -> bytes:
        """:attr:`top` from the starting tile and the placements."""
        tables = self.tables
        if tables is None:  # a city with no starting tile: nothing laid
            return _EMPTY_TOPS
        top = bytearray(_EMPTY_TOPS)
        for at, hex_ in tables.start:
            top[at] = hex_
        for k in range(len(self.tiles)):
            hexes = tables.hexes[self.tiles[k]]
            at = self.spots[k] // 6
            rot = self.spots[k] - 6 * at
            top[at] = hexes[0]
            top[at + OFF[rot]] = hexes[1]
            top[at + OFF[(rot + 1) % 6]] = hexes[2]
        return bytes(top)

    def _top_at(self, grid: bytes | bytearray, c: int) -> int:
        """The code of the top hex of occupied position ``c``, from the top tile ``grid``
        (the city's window, maybe being changed): that tile's hex there."""
        tables = self.tables
        assert tables is not None
        number = grid[c - self._base]
        if number == START_TILE:
            for at, hex_ in tables.start:
                if at == c:
                    return hex_
        tile = number - 2
        spot = self.spots[self.tiles.index(tile)]
        at = spot // 6
        rot = spot - 6 * at
        return tables.hexes[tile][0 if c == at else 1 if c == at + OFF[rot] else 2]

    def refresh(self) -> None:
        """Bring :attr:`legal` up to date by a full search when :attr:`legal_known` is
        False (then the placements keep it again)."""
        if not self.legal_known:
            self.legal = [spot_of(s) for s in self.searched()]
            self.legal_known = True

    def lay_start(self, tables: Tables, keep_legal: bool = True) -> None:
        """Put the starting tile at the origin (A3); with ``keep_legal`` False the legal
        spots are left out of date until :meth:`refresh` (a city read or rebuilt)."""
        self.tables = tables
        cells = [at for at, _ in tables.start]
        first_column, last_column, _, _ = box(cells)
        self._widen(first_column - _MARGIN, last_column + _MARGIN)
        base = self._base
        height = bytearray(self._h)
        tile = bytearray(self._t)
        self.pieces = 1
        for at in cells:
            self._occupy(height, at - base)
            height[at - base] = 1
            tile[at - base] = START_TILE
            self.cells.append(at)
        self._h = bytes(height)
        self._t = bytes(tile)
        self._full = None
        self.scores = self.observed = self.prospects = None
        self._top = None
        self._window_top = None
        if keep_legal:
            self._update_legal(0, _Near(_near_triangles(cells)))
        else:
            self.legal_known = False

    def spot_problem(self, at: int, rot: int) -> str:
        """Why tile placement (anchor cell ``at``, rotation ``rot``) is illegal (5.2), or
        ``""`` when it is legal."""
        return _spot_problem(self._h, self._t, self._base, at, rot)

    def place(self, tile: int, at: int, rot: int, keep_legal: bool = True) -> int:
        """Put ``tile`` at the spot; the stones its covered quarries
        give (A11). The spot must be legal. With ``keep_legal`` False the legal spots are
        left out of date until :meth:`refresh` (a city read or rebuilt)."""
        column = at // W
        first = self._base // W
        if (column - 1 - _MARGIN < first
                or column + 1 + _MARGIN >= first + len(self._h) // W):
            self._widen(column - 1 - _MARGIN, column + 1 + _MARGIN)
        height = bytearray(self._h)
        tiles = bytearray(self._t)
        gained = self._lay(height, tiles, tile, at, rot)
        self._h = bytes(height)
        self._t = bytes(tiles)
        if keep_legal:
            # the tile's triangle: rotations 0, 2, 4 lie on kind 0, 1, 3, 5 on kind 1, whose
            # x is the anchor less 0, 0, d0, d1, d1, d2 (spots_into)
            x = (at if rot < 2 else at - OFF[0] if rot == 2 else at - OFF[1] if rot < 5
                 else at - OFF[2])
            self._update_legal(x, _NEAR[rot & 1])
        else:
            self.legal_known = False
        return gained

    def replay(self, tables: Tables, tiles: list[int], spots: list[int]) -> int:
        """Lay the starting tile (A3), then each of ``tiles`` at its spot in order, the
        grids copied once for all (a city read or rebuilt; its legal spots left to
        :meth:`refresh`): how many were laid, all of them or those before the first whose
        spot is illegal (5.2), which :meth:`spot_problem` then explains. Every spot's
        positions must be on the grid (at most ``REACH`` steps out)."""
        self.lay_start(tables, keep_legal=False)
        self._widen(0, W - 1)  # the whole grid while laying, then fitted to the city
        height = bytearray(self._h)
        grid = bytearray(self._t)
        laid = 0
        for k in range(len(tiles)):
            at = spots[k] // 6
            rot = spots[k] - 6 * at
            if _spot_problem(height, grid, 0, at, rot):
                break
            self._lay(height, grid, tiles[k], at, rot)
            laid += 1
        self._h = bytes(height)
        self._t = bytes(grid)
        self._fit()
        return laid

    def _lay(self, height: bytearray, grid: bytearray, tile: int, at: int, rot: int) -> int:
        """Put ``tile`` at the spot in the grids given (the city's window, being changed)
        and note the placement; the stones its covered quarries give (A11)."""
        gained = 0
        base = self._base
        cells = (at, at + OFF[rot], at + OFF[(rot + 1) % 6])
        for j in range(3):
            c = cells[j]
            h = height[c - base]
            if h == 0:
                self._occupy(height, c - base)
                self.cells.append(c)
            elif self._top_at(grid, c) == QUARRY:
                gained += 1
            height[c - base] = h + 1
            grid[c - base] = tile + 2
        self.tiles.append(tile)
        self.spots.append(at * 6 + rot)
        self.scores = None
        self.observed = None
        self.prospects = None
        self._full = None
        self._top = None
        self._window_top = None
        return gained

    def _occupy(self, height: bytearray, i: i64) -> None:
        """Count the pairs and triples that the empty position at ``i`` in the window's
        ``height`` makes with its occupied neighbours, as it is covered."""
        before = height[i + OFF[5]] != 0
        k: i64
        for k in range(6):
            now = height[i + OFF[k]] != 0
            if now:
                self.edges += 1
                if before:
                    self.triangles += 1
            before = now

    def has_lakes(self) -> bool:
        """Whether the city encloses a lake (A16-A18): on this lattice each finite empty
        region is a hole of the occupied positions, and there are parts - (positions -
        pairs + triples) of them (Euler's formula)."""
        return len(self.cells) - self.edges + self.triangles != self.pieces

    def _update_legal(self, x: int, near: _Near) -> None:
        """Bring :attr:`legal` up to date after a placement.

        A triangle's legality (5.2) depends on its three positions and their neighbours
        (touching the city), so only the triangles holding a position within one step of a
        covered one are judged again (``near``, their ``x`` less ``x``). The sorted list is
        merged with their spots, in order (:class:`_Near`): a spot of a triangle judged
        again is kept or added when the triangle is legal, dropped when not; every other
        spot is copied as it was. tests/akropolis/test_moves.py proves the list equal to a
        full search (:meth:`spots_into`) over random games."""
        if not self.legal_known:
            return  # found by a full search when next asked (refresh)
        # i64: machine integers in the compiled build (no tagged-int checks in the loops)
        x0: i64 = x
        triangles = near.triangles
        count: i64 = len(triangles) >> 1
        ok: list[bool] = [False] * count
        t: i64
        for t in range(count):
            ok[t] = self._triangle_legal(x0 + triangles[2 * t], triangles[2 * t + 1])
        old = self.legal
        size: i64 = len(old)
        rel = near.spots
        which = near.triangle
        first: i64 = 6 * x0
        n: i64 = _first_at_least(old, first + rel[0], 0)
        legal = old[:n]
        end: i64 = _NO_SPOT  # typed here: with the constant, a conditional boxes its number
        upcoming: i64 = old[n].number if n < size else end  # old[n]'s number
        i: i64
        for i in range(len(rel)):
            number: i64 = first + rel[i]
            while upcoming < number:  # a spot no placement near here changes
                legal.append(old[n])
                n += 1
                upcoming = old[n].number if n < size else end
            if upcoming == number:
                if ok[which[i]]:
                    legal.append(old[n])
                n += 1
                upcoming = old[n].number if n < size else end
            elif ok[which[i]]:
                legal.append(spot_of(number))
        if n < size:
            legal.extend(old[n:])
        self.legal = legal

    def _triangle_legal(self, x: i64, kind: i64) -> bool:
        """Whether the spots of triangle ``2x + kind`` are legal (5.2, A8, A9): its three
        positions of one height on two different tiles, or on the ground, in reach,
        touching the city."""
        i: i64 = x - self._base  # x's place in the window
        j: i64 = i + OFF[kind]
        k: i64 = i + OFF[kind + 1]
        height = self._h
        h = height[i]
        if height[j] != h or height[k] != h:
            return False
        if h:
            tile = self._t
            return not (tile[i] == tile[j] and tile[j] == tile[k])
        if not (in_reach(x) and in_reach(x + OFF[kind]) and in_reach(x + OFF[kind + 1])):
            return False
        n: i64
        for n in range(6):
            off: i64 = OFF[n]
            if height[i + off] or height[j + off] or height[k + off]:
                return True
        return False

    def searched(self) -> list[int]:
        """The legal spots found by a full search (:meth:`spots_into`), sorted: what
        :attr:`legal` must hold."""
        out: list[int] = []
        self.spots_into(out, _SEEN, object())
        out.sort()
        return out

    def spots_into(self, out: list[int], seen: list[object], stamp: object) -> None:
        """Append every legal spot (5.2) to ``out``, unsorted, each once; ``seen`` is
        scratch, marked with ``stamp`` (an object not yet in it).

        Spots are found as *triangles* of three mutually adjacent positions, each once:
        triangle ``2x`` is {x, x + d0, x + d1}, ``2x + 1`` is {x, x + d1, x + d2}; each legal
        triangle gives its three spots (``h0`` on each of its positions, with the rotation
        that keeps the clockwise order). Upper level: the two triangles of each occupied
        position. Ground level: the six triangles around each empty neighbour of the city
        (:data:`AROUND_OFF`), once each; every position of a spot must be in reach."""
        height = self._h  # cell c at c - base
        tile = self._t
        base = self._base
        d0 = OFF[0]
        d1 = OFF[1]
        d2 = OFF[2]
        for c in self.cells:
            i = c - base
            h = height[i]
            t = tile[i]
            a = c + d0
            b = c + d1
            e = c + d2
            if height[i + d1] == h:
                tb = tile[i + d1]
                if height[i + d0] == h and not (tile[i + d0] == t and tb == t):
                    out.append(c * 6)
                    out.append(a * 6 + 2)
                    out.append(b * 6 + 4)
                if height[i + d2] == h and not (tb == t and tile[i + d2] == t):
                    out.append(c * 6 + 1)
                    out.append(b * 6 + 3)
                    out.append(e * 6 + 5)
        for c in self.cells:
            for off in OFF:
                e = c + off
                if height[e - base] or seen[e] is stamp:
                    continue
                seen[e] = stamp
                near = inner(e)  # every position of its triangles is in reach
                for k in range(6):
                    x = e + AROUND_OFF[k]
                    triangle = 2 * x + AROUND_KIND[k]
                    if seen[CELLS + triangle] is stamp:
                        continue
                    seen[CELLS + triangle] = stamp
                    if AROUND_KIND[k]:
                        y = x + d1
                        z = x + d2
                        if height[x - base] or height[y - base] or height[z - base] or not (
                                near or (in_reach(x) and in_reach(y) and in_reach(z))):
                            continue
                        out.append(x * 6 + 1)
                        out.append(y * 6 + 3)
                        out.append(z * 6 + 5)
                    else:
                        y = x + d0
                        z = x + d1
                        if height[x - base] or height[y - base] or height[z - base] or not (
                                near or (in_reach(x) and in_reach(y) and in_reach(z))):
                            continue
                        out.append(x * 6)
                        out.append(y * 6 + 2)
                        out.append(z * 6 + 4)


def _spot_problem(height: bytes | bytearray, tile: bytes | bytearray, base: int, at: int,
                  rot: int) -> str:
    """:meth:`City.spot_problem` in the window given (cell *c* at ``c - base``, every cell
    outside it empty)."""
    c1 = at + OFF[rot]
    c2 = at + OFF[(rot + 1) % 6]
    if not (in_reach(at) and in_reach(c1) and in_reach(c2)):
        return "too far from the city"
    h = _read(height, base, at)
    if h != _read(height, base, c1) or h != _read(height, base, c2):
        return "the three positions under it are not of one height (A8)"
    if h == 0:
        for c in (at, c1, c2):
            for off in OFF:
                if _read(height, base, c + off):
                    return ""
        return "it touches no tile of the city (5.2)"
    if tile[at - base] == tile[c1 - base] == tile[c2 - base]:  # occupied: in the window
        return "it would lie on a single tile (A9)"
    return ""


def _read(grid: bytes | bytearray, base: int, c: int) -> int:
    """Position ``c``'s value in the window ``grid`` from cell ``base`` (0 outside it)."""
    i = c - base
    return grid[i] if 0 <= i < len(grid) else 0


def _around() -> tuple[list[int], list[int]]:
    """The six triangles holding a position p: (x - p as a cell offset, kind)."""
    offs: list[int] = []
    kinds: list[int] = []
    for k in range(6):  # the triangle {p, p + d_k, p + d_(k+1)}
        cells = {0, OFF[k], OFF[(k + 1) % 6]}
        for x in cells:
            for kind, (u, v) in enumerate(((OFF[0], OFF[1]), (OFF[1], OFF[2]))):
                if {x, x + u, x + v} == cells:
                    offs.append(x)
                    kinds.append(kind)
    return offs, kinds


AROUND_OFF: Final = tuple(_around()[0])
"""The six triangles around a position: their ``x`` as an offset from it ..."""
AROUND_KIND: Final = tuple(_around()[1])
"""... and their kind (0: {x, x + d0, x + d1}, 1: {x, x + d1, x + d2})."""


def _near_triangles(changed: list[int]) -> list[int]:
    """The triangles holding a position within one step of one of ``changed``, each once:
    ``x`` and kind after each other."""
    found: list[int] = []
    met: set[tuple[int, int]] = set()
    for c in changed:
        for p in [c, *(c + off for off in OFF)]:
            for k in range(6):
                triangle = (p + AROUND_OFF[k], AROUND_KIND[k])
                if triangle not in met:
                    met.add(triangle)
                    found += triangle
    return found


class _Near:
    """The triangles to judge again after a placement (``triangles``: ``x`` and kind after
    each other, their ``x`` less the placement's), and their spots sorted (``spots``: their
    numbers less six times the placement's ``x``, with the index of their triangle in
    ``triangle``): what :meth:`City._update_legal` merges into the legal spots."""

    def __init__(self, triangles: list[int]) -> None:
        self.triangles = triangles
        found: list[tuple[int, int]] = []
        for t in range(len(triangles) // 2):
            x = triangles[2 * t]
            kind = triangles[2 * t + 1]
            cells = (x, x + OFF[kind], x + OFF[kind + 1])
            for k in range(3):  # the spot with h0 on each position, clockwise (spots_into)
                found.append((cells[k] * 6 + kind + 2 * k, t))
        found.sort()
        self.spots: list[int] = [number for number, _ in found]
        self.triangle: list[int] = [t for _, t in found]


_NEAR: Final = [_Near(_near_triangles([0, OFF[kind], OFF[kind + 1]])) for kind in (0, 1)]
"""By kind, the :class:`_Near` of a tile laid on the triangle of that kind at cell 0."""


SITE_PLACES: Final = 6
"""The most places a site has: *n* + 2 with 4 players (section 4.3)."""
LISTED: Final[dict[str, int]] = {}
"""The spot and site place of each move text a :class:`Spot` made, as ``spot * 8 +
place``: the fast path of listed moves (an integer, not a tuple: nothing for the garbage
collector to count)."""
_PLACE_WORDS: Final = [f"{place} " for place in range(SITE_PLACES + 1)]
"""The start of a move text from site place *p* (A23)."""
JOINED_BY: Final = " ; "
"""The separator of the move lists the arbiter sends (SPEC 6): each :class:`Spot` keeps its
move texts with it in front too, so that a whole list is one join with no separator
(:meth:`AkropolisState.legal_move_line`)."""


class Spot:
    """A spot (``number``: cell * 6 + rotation) with its texts: ``texts[0]`` its own
    (:func:`spot_text`), ``texts[p]`` its move's from site place *p*, 1 to
    :data:`SITE_PLACES` (A23), each move text entered in :data:`LISTED`, and ``joined[p]``
    the same with :data:`JOINED_BY` in front; ``first`` is ``texts[1]``, read without the
    list (every listing takes it). Made once per spot and process (:func:`spot_of`); never
    change it."""

    def __init__(self, number: int) -> None:
        self.number: i64 = number
        where = spot_text(number)
        self.texts: list[str] = [where]
        self.joined: list[str] = [JOINED_BY + where]
        for place in range(1, SITE_PLACES + 1):
            text = _PLACE_WORDS[place] + where
            self.texts.append(text)
            self.joined.append(JOINED_BY + text)
            LISTED[text] = number * 8 + place
        self.first: str = self.texts[1]


_SPOTS: Final[list[list[Spot | None] | None]] = [None] * CELLS
"""The :class:`Spot` of each spot met, by cell then rotation (rows made for the cells met:
the garbage collector goes through 17,689 places, not one per spot, 106,134; and no
number is boxed, as a dict's key would be)."""


def spot_of(number: i64) -> Spot:
    """The :class:`Spot` of spot ``number`` (made at its first use)."""
    at: i64 = number // 6
    row = _SPOTS[at]
    if row is None:
        row = [None] * 6
        _SPOTS[at] = row
    spot = row[number - 6 * at]
    if spot is None:
        spot = Spot(number)
        row[number - 6 * at] = spot
    return spot


def _first_at_least(spots: list[Spot], number: i64, low: i64) -> i64:
    """The first index from ``low`` on of sorted ``spots`` numbered ``number`` or more
    (``len(spots)`` when none is)."""
    high: i64 = len(spots)
    while low < high:
        middle: i64 = (low + high) >> 1
        if spots[middle].number < number:
            low = middle + 1
        else:
            high = middle
    return low


_SEEN: Final[list[object]] = [None] * (CELLS * 3)
"""Marks for :meth:`City.spots_into`, one per cell, then one per triangle: a search marks
what it has seen with an object of its own (compared by identity: no number to box)."""


class AkropolisState:
    """A game of Akropolis between ``players`` seats (0-based here)."""

    def __init__(self, players: int, variant: str, edition: Edition) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"Akropolis is for 2 to 4 players, not {players}")
        self.players = players
        self.variant = variant
        self.bonus, self.all_tiles = options_of(variant)
        self.edition = edition
        self.tables = tables_of(edition)
        self.site: list[int] = []
        """The construction site, place 1 first (A5)."""
        self.to_draw = 0
        """Site places still to be filled by chance (set-up, refill)."""
        self.undrawn: list[int] = []
        """The tiles not yet drawn, in edition order (A4)."""
        self.cities: list[City] = []
        self.stones: list[int] = []
        self.seat = 0
        """The seat to move (at a chance node: the seat that moves after it)."""
        self.chief = 0
        """The chief architect (A1, A12): who began this round."""
        self.retired: list[bool] = [False] * players
        self.over = False

    def clone(self) -> AkropolisState:
        s = AkropolisState(self.players, self.variant, self.edition)
        s.site = list(self.site)
        s.to_draw = self.to_draw
        s.undrawn = list(self.undrawn)
        s.cities = [c.copy() for c in self.cities]
        s.stones = list(self.stones)
        s.seat = self.seat
        s.chief = self.chief
        s.retired = list(self.retired)
        s.over = self.over
        return s

    # ------------------------------------------------------------------ where play is

    def is_over(self) -> bool:
        return self.over

    def is_chance_node(self) -> bool:
        return not self.over and self.to_draw > 0

    def current_seat(self) -> int:
        return self.seat

    def all_retired(self) -> bool:
        return all(self.retired)

    def stacks_left(self) -> int:
        """Stacks still face down: the undrawn tiles not meant for the site now."""
        return (len(self.undrawn) - self.to_draw) // (self.players + 1)

    # ------------------------------------------------------------------ chance

    def draw(self, tile: int) -> None:
        """Chance: ``tile`` is drawn into the next site place (4.3, 6, A4)."""
        if not self.is_chance_node():
            raise AkropolisIllegalMove("no site place is waiting for a tile now")
        if tile not in self.undrawn:
            raise AkropolisIllegalMove(f"tile {self.tables.codes[tile]} is not among the "
                                       "undrawn tiles")
        self.undrawn.remove(tile)
        self.site.append(tile)
        self.to_draw -= 1

    # ------------------------------------------------------------------ decisions

    def legal_spots(self) -> list[int]:
        """The legal spots of the seat to move's city, sorted: by q, then r, then the
        rotation (A23, the cell numbering follows q then r)."""
        if self.over or self.to_draw:
            return []
        city = self.cities[self.seat]
        city.refresh()
        return [spot.number for spot in city.legal]

    def searched_spots(self) -> list[int]:
        """:meth:`legal_spots` found by a full search of the city (:meth:`City.spots_into`)
        instead of the list each placement keeps: the reference the tests hold it to."""
        if self.over or self.to_draw:
            return []
        return self.cities[self.seat].searched()

    def legal_move_texts(self) -> list[str]:
        """The legal moves as text (``p @q,r rk``), in the order of A23: by site place, then
        as :meth:`legal_spots`. Each text is made once per process (:class:`Spot`)."""
        if self.over or self.to_draw:
            return []
        city = self.cities[self.seat]
        city.refresh()
        legal = city.legal
        # comprehensions over a list: made at their length, not grown append by append
        out = [spot.first for spot in legal]
        for place in range(2, self.affordable() + 1):
            out.extend([spot.texts[place] for spot in legal])
        return out

    def legal_move_line(self, sep: str) -> str | None:
        """``sep.join(self.legal_move_texts())`` when ``sep`` is :data:`JOINED_BY`; None for
        another ``sep``: one join of the texts with the separator in front (no separator
        copied between them, no list of the move texts kept)."""
        if sep != JOINED_BY:
            return None
        if self.over or self.to_draw:
            return ""
        city = self.cities[self.seat]
        city.refresh()
        legal = city.legal
        if not legal:
            return ""
        pieces = [spot.joined[1] for spot in legal]
        for place in range(2, self.affordable() + 1):
            pieces.extend([spot.joined[place] for spot in legal])
        return "".join(pieces)[len(JOINED_BY):]

    def is_listed_move(self, text: str) -> bool:
        """Whether ``text`` is one of :meth:`legal_move_texts`, found without listing them:
        a text a :class:`Spot` made (:data:`LISTED`) whose site place is affordable and
        whose spot is among the legal ones kept."""
        if self.over or self.to_draw:
            return False
        listed = LISTED.get(text)
        if listed is None:
            return False
        place = listed & 7
        if place > self.affordable():
            return False
        spot = listed >> 3
        city = self.cities[self.seat]
        city.refresh()
        legal = city.legal
        k = _first_at_least(legal, spot, 0)
        return k < len(legal) and legal[k].number == spot

    def affordable(self) -> int:
        """How many site places the seat to move may take (place *p* costs *p* − 1, A6)."""
        return min(len(self.site), self.stones[self.seat] + 1)

    def move_problem(self, place: int, at: int, rot: int) -> str:
        """Why taking site place ``place`` (1-based) and laying it at (``at``, ``rot``) is
        illegal now, or ``""``."""
        if self.over:
            return "the game is over"
        if self.to_draw:
            return "the site is being filled (a chance event comes first)"
        if place > len(self.site):
            return f"the site has {len(self.site)} tiles, no place {place}"
        if place - 1 > self.stones[self.seat]:
            return (f"place {place} costs {place - 1} stones, seat {self.seat + 1} has "
                    f"{self.stones[self.seat]} (A6)")
        return self.cities[self.seat].spot_problem(at, rot)

    def move(self, place: int, at: int, rot: int) -> None:
        """Check and make the move (5.1–5.3); AkropolisIllegalMove leaves the state as it
        was."""
        problem = self.move_problem(place, at, rot)
        if problem:
            raise AkropolisIllegalMove(f"illegal move: {problem}")
        self.move_unchecked(place, at, rot)

    def move_unchecked(self, place: int, at: int, rot: int) -> None:
        """Make a legal move: pay, take the tile, place it, gain stones, then refill or end
        (section 6, A12)."""
        seat = self.seat
        self.stones[seat] -= place - 1
        tile = self.site.pop(place - 1)
        self.stones[seat] += self.cities[seat].place(tile, at, rot)
        if len(self.site) == 1:
            if not self.undrawn:
                self.over = True  # 7: the last tile is never taken
                return
            self.to_draw = self.players + 1
            self.chief = (self.chief + 1) % self.players
        self._next_seat(seat)

    def _next_seat(self, seat: int) -> None:
        """The next seat clockwise after ``seat`` that is not retired takes the turn."""
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if not self.retired[s]:
                self.seat = s
                return
        self.over = True

    def retire(self, seat: int) -> None:
        """``seat`` takes no more turns (they are skipped) and ranks last; the game ends
        when every seat is retired."""
        self.retired[seat] = True
        if seat == self.seat:
            self._next_seat(seat)


def new_game(players: int, variant: str = "hmbtga", edition: Edition | None = None
             ) -> AkropolisState:
    """A new game before the site's first draws (section 4)."""
    ed = edition or standard_edition()
    state = AkropolisState(players, variant, ed)
    t = state.tables
    state.undrawn = t.tile_set(players, state.all_tiles)
    state.stones = t.starting_stones[:players]
    started = t.started()
    for _ in range(players):
        state.cities.append(started.copy())
    state.to_draw = players + 2
    return state


def sample_tile(state: AkropolisState, rng: random.Random) -> int:
    """One undrawn tile, uniformly (A4)."""
    return state.undrawn[rng.randrange(len(state.undrawn))]


def spot_cells(at: int, rot: int) -> tuple[int, int, int]:
    """The cells of ``h0``, ``h1``, ``h2`` at anchor ``at`` and rotation ``rot`` (3)."""
    return at, at + OFF[rot], at + OFF[(rot + 1) % 6]


def spot_text(spot: int) -> str:
    """``@q,r rk``: a spot as the move notation writes it (A23)."""
    at = spot // 6
    return f"@{q_of(at)},{r_of(at)} r{spot % 6}"
