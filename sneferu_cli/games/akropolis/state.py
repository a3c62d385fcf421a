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
from typing import Final

from ...game import IllegalMove
from .edition import HEXES, PLAZAS, Edition, standard_edition
from .geometry import CELLS, OFF, QUARRY, cell, in_reach, q_of, r_of

__all__ = ["NO_HEX", "START_TILE", "AkropolisIllegalMove", "AkropolisState", "City",
           "Tables", "new_game", "options_of", "sample_tile", "tables_of"]

START_TILE: Final = 1
"""The tile number of the starting tile in a city's ``tile`` grid (city tile *i* is
``i + 2``; 0: no tile)."""
NO_HEX: Final = 255
"""The ``top`` of an empty position."""


class AkropolisIllegalMove(IllegalMove):
    """A move or chance outcome the rules do not allow here."""


class Tables:
    """What the rules read of an edition, as integers: each tile's three hex codes, the
    starting tile, the stars per plaza kind (district order ``hmbtg``)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.codes: list[str] = [t.code for t in edition.tiles]
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.codes)}
        self.hexes: list[list[int]] = [[HEXES.index(c) for c in t.hexes] for t in edition.tiles]
        self.markings: list[str] = [t.marking for t in edition.tiles]
        self.start: list[tuple[int, int]] = [(cell(h.q, h.r), HEXES.index(h.hex))
                                             for h in edition.start]
        self.stars: list[int] = [edition.stars.of(p) for p in PLAZAS]
        self.starting_stones: list[int] = list(edition.starting_stones)

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
    word such as ``HmbtgA`` (section 9); ValueError when it is not one."""
    if len(variant) != 6 or any(c.lower() != w for c, w in zip(variant, "hmbtga", strict=True)):
        raise ValueError(f"unknown Akropolis variant {variant!r} (expected six letters "
                         "hmbtga, upper case when on: e.g. hmbtga, HMBTGa, hmbtgA)")
    return [c.isupper() for c in variant[:5]], variant[5] == "A"


class City:
    """One player's city: per position its height, top hex and top tile; the occupied
    positions (``cells``, in order of first occupation); the placements made, in order
    (``tiles`` and ``spots``)."""

    def __init__(self) -> None:
        self.height = bytearray(CELLS)
        self.top = bytearray(b"\xff" * CELLS)
        self.tile = bytearray(CELLS)
        self.cells: list[int] = []
        self.tiles: list[int] = []
        self.spots: list[int] = []
        self.scores: list[int] | None = None
        """The scoring's values and stars (:func:`.scoring.breakdown`), kept until the city
        changes."""

    def copy(self) -> City:
        c = City.__new__(City)
        c.height = bytearray(self.height)
        c.top = bytearray(self.top)
        c.tile = bytearray(self.tile)
        c.cells = list(self.cells)
        c.tiles = list(self.tiles)
        c.spots = list(self.spots)
        c.scores = self.scores
        return c

    def lay_start(self, tables: Tables) -> None:
        """Put the starting tile at the origin (A3)."""
        for at, hex_ in tables.start:
            self.height[at] = 1
            self.top[at] = hex_
            self.tile[at] = START_TILE
            self.cells.append(at)

    def spot_problem(self, at: int, rot: int) -> str:
        """Why tile placement (anchor cell ``at``, rotation ``rot``) is illegal (5.2), or
        ``""`` when it is legal."""
        if not in_reach(at):
            return "too far from the city"
        c1 = at + OFF[rot]
        c2 = at + OFF[(rot + 1) % 6]
        height = self.height
        h = height[at]
        if h != height[c1] or h != height[c2]:
            return "the three positions under it are not of one height (A8)"
        if h == 0:
            for c in (at, c1, c2):
                for off in OFF:
                    if height[c + off]:
                        return ""
            return "it touches no tile of the city (5.2)"
        tile = self.tile
        if tile[at] == tile[c1] == tile[c2]:
            return "it would lie on a single tile (A9)"
        return ""

    def place(self, tile: int, hexes: list[int], at: int, rot: int) -> int:
        """Put ``tile`` (its hexes ``hexes``) at the spot; the stones its covered quarries
        give (A11). The spot must be legal."""
        gained = 0
        cells = (at, at + OFF[rot], at + OFF[(rot + 1) % 6])
        for j in range(3):
            c = cells[j]
            h = self.height[c]
            if h == 0:
                self.cells.append(c)
            elif self.top[c] == QUARRY:
                gained += 1
            self.height[c] = h + 1
            self.top[c] = hexes[j]
            self.tile[c] = tile + 2
        self.tiles.append(tile)
        self.spots.append(at * 6 + rot)
        self.scores = None
        return gained

    def spots_into(self, out: list[int], seen: list[int], stamp: int) -> None:
        """Append every legal spot (5.2) to ``out``, unsorted, each once; ``seen`` is
        scratch, marked with ``stamp`` (a number not yet in it)."""
        height = self.height
        tile = self.tile
        for c in self.cells:
            h = height[c]
            t = tile[c]
            for k in range(6):
                # Upper levels: every (anchor, rotation) is tried once from its anchor.
                c1 = c + OFF[k]
                c2 = c + OFF[(k + 1) % 6]
                if height[c1] == h and height[c2] == h and not (tile[c1] == t and tile[c2] == t):
                    out.append(c * 6 + k)
                # Ground level: spots covering the empty neighbour e, once each.
                e = c + OFF[k]
                if height[e] or seen[e] == stamp:
                    continue
                seen[e] = stamp
                for rot in range(6):
                    o1 = OFF[rot]
                    o2 = OFF[(rot + 1) % 6]
                    for a in (e, e - o1, e - o2):
                        if height[a] or height[a + o1] or height[a + o2] or not in_reach(a):
                            continue
                        key = CELLS + a * 6 + rot
                        if seen[key] != stamp:
                            seen[key] = stamp
                            out.append(a * 6 + rot)


class _Scratch:
    """Marks for :meth:`City.spots_into`: one per cell, then one per ground spot."""

    def __init__(self) -> None:
        self.seen: list[int] = [0] * (CELLS * 7)
        self.stamp = 0


_SCRATCH = _Scratch()


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
        s = AkropolisState.__new__(AkropolisState)
        s.players = self.players
        s.variant = self.variant
        s.bonus = self.bonus
        s.all_tiles = self.all_tiles
        s.edition = self.edition
        s.tables = self.tables
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
        out: list[int] = []
        if self.over or self.to_draw:
            return out
        scratch = _SCRATCH
        scratch.stamp += 1
        self.cities[self.seat].spots_into(out, scratch.seen, scratch.stamp)
        out.sort()
        return out

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
        self.stones[seat] += self.cities[seat].place(tile, self.tables.hexes[tile], at, rot)
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
    for _ in range(players):
        city = City()
        city.lay_start(t)
        state.cities.append(city)
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
