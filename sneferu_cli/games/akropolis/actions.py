"""Akropolis's action encoding and observation tensor for the learning libraries (SPEC 16.1).

**Factored actions.** A move ``p @q,r rk`` (A23) is three parts, ``take p``, ``at q,r`` and
``rk``: every move has exactly three, so no legal move's parts begin another's. The
action names of a set-up are ``take 1`` … ``take n+2`` (the site holds *n* + 2 tiles,
section 4.3), then ``at q,r`` for every position an anchor can reach (:func:`positions`,
ordered by *q*, then *r*, as A23), then ``r0`` … ``r5``.

**The bound on positions.** A seat plays at most *T* = ⌈(*S* − 1) / *n*⌉ turns, *S* the
tiles in play (section 4.2): every turn takes one tile, the game ends when one tile is
left (section 7), and turns go plainly clockwise (A12). Every hex of a city that has laid
*t* tiles lies within 2*t* steps of a starting-tile hex: true for *t* = 0; a ground-level
tile (5.2) has a hex next to an occupied position (within 2*t* − 1 steps, by induction) and
its other hexes next to that hex (the three are mutually adjacent, section 3), so within
2*t*; an upper-level tile lies on occupied positions. So an anchor is within 2*T* steps of
the starting tile (A3), and the bound is reached (a city laid in a straight line gains two
steps a tile): 4216 positions with 2 players, 3364 with 3, 2974 with 4, 11344 with 2
and all tiles, 5164 with 3 and all tiles. A seat retired by the arbiter lets the others
take more turns; the bindings never retire a seat, and such a state's far moves have no
id (ValueError naming the part).

**Chance ids:** ``~T01`` … of the set-up's tile set (section 4.2), edition order.

**Observation** (numbers in [0, 1]; Akropolis has no hidden information, A22): the
observing seat, the deciding seat (none at a chance node or the end) and the chief
architect, one-hot over the seats; per seat its stones (over a bound: starting stones +
3*T*), its points *x* as *x* / (*x* + 100), its tiles laid over *T*, retired; per site
place (*n* + 2) whether it holds a tile, whether it waits for a draw, and its hexes
``h0 h1 h2`` one-hot over ``hmbtgHMBTGq``; per tile of the tile set whether it is undrawn;
then per seat its city as a list of
*H* = 4 + 3*T* hex slots (the starting tile's 4 hexes and 3 a turn: no city of *T* tiles
occupies more positions), its occupied positions in ascending order (by *q*, then *r*),
11 numbers a slot (:data:`HEX_NUMBERS`): 1 (the slot holds a position), *q* and *r*
scaled to [0, 1] over the ``at`` positions' span, the top hex's type (``h m b t g``,
district or plaza: five numbers), plaza, quarry, and its level over *T* + 1 (the highest
a stack can be); the slots after the last position all 0. (In a game with a retired seat
stones, tiles laid and levels may pass their bounds: they stop at 1; a city's positions
beyond the ``at`` positions or the *H* slots are left out.)

>>> action_parts("3 @0,-1 r5")
('take 3', 'at 0,-1', 'r5')
>>> lay = layout(2, "hmbtga")
>>> lay.turns, len(lay.positions), len(lay.action_names), lay.action_names[:5]
(18, 4216, 4226, ['take 1', 'take 2', 'take 3', 'take 4', 'at -37,1'])
"""

from __future__ import annotations

from array import array
from typing import Final

from ...game import Learning
from .edition import HEXES, standard_edition
from .geometry import CELLS, REACH, cell, distance
from .observe import HEX_NUMBERS, Frame, fill, legal_ids
from .state import AkropolisState, options_of, tables_of

__all__ = ["HEX_NUMBERS", "Layout", "action_parts", "layout", "positions", "turns_per_seat"]



def turns_per_seat(players: int, variant: str) -> int:
    """*T*: the most turns one seat plays in a game of this set-up (A12, section 7)."""
    tiles = len(tables_of(standard_edition()).tile_set(players, options_of(variant)[1]))
    return -(-(tiles - 1) // players)


def positions(players: int, variant: str) -> list[tuple[int, int]]:
    """Every position within 2*T* steps of a starting-tile hex (the module's bound), by
    *q*, then *r*."""
    reach = 2 * turns_per_seat(players, variant)
    start = [(h.q, h.r) for h in standard_edition().start]
    out = []
    for q in range(-reach - 1, reach + 2):
        for r in range(-reach - 1, reach + 2):
            if min(distance(q - sq, r - sr) for sq, sr in start) <= reach:
                out.append((q, r))
    assert all(distance(q, r) <= REACH for q, r in out)
    return out


class Layout:
    """A set-up's action names and observation layout, made once (:func:`layout`)."""

    def __init__(self, players: int, variant: str) -> None:
        all_tiles = options_of(variant)[1]
        self.players = players
        self.turns = turns_per_seat(players, variant)
        tables = tables_of(standard_edition())
        self.tiles = tables.tile_set(players, all_tiles)
        self.positions = positions(players, variant)
        self.places = players + 2
        self.action_names = ([f"take {p}" for p in range(1, self.places + 1)]
                             + [f"at {q},{r}" for q, r in self.positions]
                             + [f"r{k}" for k in range(6)])
        self.outcome_names = [f"~{tables.codes[t]}" for t in self.tiles]
        self.window: list[int] = [-1] * CELLS
        """Each cell's index among :attr:`positions`, -1 outside them."""
        for i, (q, r) in enumerate(self.positions):
            self.window[cell(q, r)] = i
        self.stones = max(tables.starting_stones[:players]) + 3 * self.turns
        """A bound on a seat's stones: its start, then at most 3 quarries a turn (A11)."""
        self.tile_slot = {t: i for i, t in enumerate(self.tiles)}
        n = players
        self.seats_at = 3 * n
        self.site_at = self.seats_at + 4 * n
        self.undrawn_at = self.site_at + self.places * (2 + 3 * len(HEXES))
        self.cities_at = self.undrawn_at + len(self.tiles)
        self.slots = len(standard_edition().start) + 3 * self.turns
        """Hex slots per city: the starting tile's hexes and 3 a turn."""
        qs = [q for q, _ in self.positions]
        rs = [r for _, r in self.positions]
        self.q_span = (min(qs), max(qs) - min(qs))
        self.r_span = (min(rs), max(rs) - min(rs))
        """The ``at`` positions' smallest *q* (*r*) and their range, for the scaling."""
        self.size = self.cities_at + n * HEX_NUMBERS * self.slots
        self.ids: list[list[tuple[int, ...]] | None] = [None] * (CELLS * 6)
        """Each spot's action ids from each site place (:func:`.observe.legal_ids`),
        made at its first listing."""
        self.frame = Frame(self.seats_at, self.site_at, self.undrawn_at, self.cities_at,
                           self.slots, self.stones, self.turns, self.tile_slot, self.window,
                           *self.q_span, *self.r_span)
        """The layout as the compiled :func:`.observe.fill` reads it."""


_LAYOUTS: dict[tuple[int, bool], Layout] = {}
_ZERO: Final = array("d", [0.0])


def layout(players: int, variant: str) -> Layout:
    """The :class:`Layout` of a set-up (the all-tiles option is all that matters of the
    variant), made once."""
    key = (players, options_of(variant)[1])
    made = _LAYOUTS.get(key)
    if made is None:
        made = _LAYOUTS[key] = Layout(players, variant)
    return made


_PARTS: dict[str, tuple[str, str, str]] = {}


def action_parts(move: str) -> tuple[str, str, str]:
    """``take p``, ``at q,r``, ``rk`` of a canonical move ``p @q,r rk`` (remembered)."""
    parts = _PARTS.get(move)
    if parts is None:
        place, at, rot = move.split(" ")
        parts = _PARTS[move] = (f"take {place}", f"at {at[1:]}", rot)
    return parts


def observation(state: AkropolisState, seat: int) -> array[float]:
    """What ``seat`` sees of ``state`` (everything, A22), laid out as the module says: an
    ``array('d')``, which the bindings copy at once, filled by the compiled
    :func:`.observe.fill`."""
    lay = layout(state.players, state.variant)
    out = _ZERO * lay.size
    fill(state, seat, lay.frame, memoryview(out))  # cheaper item writes
    return out



class AkropolisLearning(Learning[AkropolisState]):
    """Akropolis's encodings for the learning libraries (SPEC 16.1): a move in three parts
    (site place, position, rotation)."""

    def action_names(self, players: int, variant: str) -> list[str]:
        return layout(players, variant).action_names

    def action_parts(self, move: str) -> tuple[str, ...]:
        return action_parts(move)

    def max_action_parts(self, players: int, variant: str) -> int:
        return 3

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return layout(players, variant).outcome_names

    def max_game_length(self, players: int, variant: str) -> int:
        tiles = len(layout(players, variant).tiles)
        return 2 * tiles - 1  # every tile is drawn; every one but the last is taken (7)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (layout(players, variant).size,)

    def observation(self, state: AkropolisState, seat: int) -> array[float]:
        return observation(state, seat)

    def legal_ids(self, state: AkropolisState, seat: int, moves: list[str]
                  ) -> list[tuple[int, ...]] | None:
        """The ids of the legal moves from the legal spots (the compiled
        :func:`.observe.legal_ids`), ``moves`` unread but for being none."""
        if not moves:
            return []
        lay = layout(state.players, state.variant)
        return legal_ids(state, lay.window, lay.places, len(lay.action_names) - 6, lay.ids)
