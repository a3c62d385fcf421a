"""Akropolis's observation tensor filled in (compiled with mypyc, listed in compiled.txt):
the numbers of :func:`.actions.observation` written into an ``array('d')`` of zeros, the
layout's offsets and bounds given as a :class:`Frame` (made once per set-up by
:class:`.actions.Layout`); and the action ids of the legal moves (:func:`legal_ids`),
made from the legal spots without their texts."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Final, NamedTuple

from .edition import HEXES
from .geometry import QUARRY, q_of, r_of
from .scoring import points
from .state import NO_HEX, SITE_PLACES, AkropolisState, City

if TYPE_CHECKING:
    from ...game import Numbers

__all__ = ["HEX_NUMBERS", "POINTS_SCALE", "Frame", "fill", "legal_ids"]

HEX_NUMBERS: Final = 11
"""Numbers per hex slot of a city in the observation: present, q, r, five types, plaza,
quarry, level."""
_ZERO: Final = array("d", [0.0])
POINTS_SCALE: Final = 100
"""Points ``x`` are shown as ``x / (x + POINTS_SCALE)``: unbounded, monotone, in [0, 1)."""


class Frame(NamedTuple):
    """A set-up's observation layout as :func:`fill` reads it: where each part begins, the
    bounds its numbers are scaled by, each tile of the tile set by its index among them
    (``tile_slot``), each cell's index among the ``at`` positions (-1 outside them), and
    the ``at`` positions' smallest *q* (*r*) with their range."""

    seats_at: int
    site_at: int
    undrawn_at: int
    cities_at: int
    slots: int
    stones: int
    turns: int
    tile_slot: dict[int, int]
    window: list[int]
    q0: int
    q_range: int
    r0: int
    r_range: int


def fill(state: AkropolisState, seat: int, frame: Frame, out: Numbers) -> None:
    """Write ``seat``'s observation of ``state`` into ``out`` (zeros, the layout's size)."""
    n = state.players
    out[seat] = 1.0
    if not state.over and not state.to_draw:
        out[n + state.seat] = 1.0
    out[2 * n + state.chief] = 1.0
    at = frame.seats_at
    stones = frame.stones
    turns = frame.turns
    for s in range(n):
        total = points(state, s)
        out[at] = min(state.stones[s], stones) / stones
        out[at + 1] = total / (total + POINTS_SCALE) if total > 0 else 0.0
        out[at + 2] = min(len(state.cities[s].tiles), turns) / turns
        out[at + 3] = 1.0 if state.retired[s] else 0.0
        at += 4
    hexes = state.tables.hexes
    kinds = len(HEXES)
    per_place = 2 + 3 * kinds
    site = state.site
    for p in range(len(site) + state.to_draw):
        at = frame.site_at + p * per_place
        if p >= len(site):
            out[at + 1] = 1.0
            continue
        out[at] = 1.0
        for j, h in enumerate(hexes[site[p]]):
            out[at + 2 + j * kinds + h] = 1.0
    slot = frame.tile_slot
    for t in state.undrawn:
        i = slot.get(t, -1)  # -1: a tile of another edition's set (encodings are standard)
        if i >= 0:
            out[frame.undrawn_at + i] = 1.0
    for s, city in enumerate(state.cities):
        kept = city.observed
        if kept is None or kept[0] is not frame:
            kept = city.observed = (frame, _city_numbers(city, frame))
        at = frame.cities_at + s * HEX_NUMBERS * frame.slots
        out[at:at + HEX_NUMBERS * frame.slots] = kept[1]  # a copy of the buffer


def _city_numbers(city: City, frame: Frame) -> array[float]:
    """The city's numbers in the observation (its hex slots), made when it changed: an
    ``array('d')`` written number by number is the slow part of :func:`fill`, and only
    the seat that moved changes its city."""
    out = _ZERO * (HEX_NUMBERS * frame.slots)
    window = frame.window
    level_scale = frame.turns + 1
    q0, q_range, r0, r_range = frame.q0, frame.q_range, frame.r0, frame.r_range
    at = 0
    end = len(out)
    top = city.top
    for c in sorted(city.cells):
        if at == end:
            break  # only a retired seat's rivals lay more (see .actions)
        if window[c] < 0:
            continue  # nor reach beyond
        out[at] = 1.0
        out[at + 1] = (q_of(c) - q0) / q_range
        out[at + 2] = (r_of(c) - r0) / r_range
        h = top[c]
        if h != NO_HEX:
            if h == QUARRY:
                out[at + 9] = 1.0
            else:
                out[at + 3 + h % 5] = 1.0
                if h >= 5:
                    out[at + 8] = 1.0
        out[at + 10] = min(city.height_at(c), level_scale) / level_scale
        at += HEX_NUMBERS
    return out

def legal_ids(state: AkropolisState, window: list[int], places: int, rotations_at: int,
              made: list[list[tuple[int, ...]] | None]) -> list[tuple[int, ...]] | None:
    """The action ids of the legal moves, in the order of
    :meth:`AkropolisState.legal_move_texts` (by site place, then spot): ``take p`` is
    ``p`` - 1, ``at q,r`` is ``places`` + the cell's index among the ``at`` positions
    (``window``), ``rk`` is ``rotations_at`` + *k*. Each spot's ids from every site place
    are made once and kept in ``made`` (by spot number, the set-up's own list). None when
    a legal spot lies beyond the ``at`` positions (no id: only a retired seat's rivals
    reach so far)."""
    if state.over or state.to_draw:
        return []
    city = state.cities[state.seat]
    city.refresh()
    rows: list[list[tuple[int, ...]]] = []
    for spot in city.legal:
        number = spot.number
        row = made[number]
        if row is None:
            at = window[number // 6]
            if at < 0:
                return None
            row = [(p, places + at, rotations_at + number % 6) for p in range(SITE_PLACES)]
            made[number] = row
        rows.append(row)
    out: list[tuple[int, ...]] = []
    for p in range(state.affordable()):
        out.extend([row[p] for row in rows])
    return out
