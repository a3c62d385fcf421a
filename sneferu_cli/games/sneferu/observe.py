"""Sneferu's observation tensor filled in (compiled with mypyc, listed in compiled.txt): the
numbers of :func:`.actions.observation`, in its order, written into an ``array('d')`` of
zeros; and the action ids of the legal moves (:func:`move_ids`), the parts of a move
(:func:`move_parts`) looked up without a Python frame a move."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Final

from .components import Stone, Tile
from .pyramid import Pyramid
from .state import GameState

if TYPE_CHECKING:
    from ...game import Numbers

__all__ = ["ENDS", "FOOD_SCALE", "IDS_KEPT", "PHASES", "STONES", "TILES", "fill", "move_ids",
           "move_parts"]

FOOD_SCALE: Final = 100
"""Food is observed as ``min(food, FOOD_SCALE) / FOOD_SCALE``."""
PHASES: Final = 6  # setup, start, place, post, draw, over (state.Phase)
TILES: Final = len(Tile)
STONES: Final = len(Stone)
_ZERO: Final = array("d", [0.0])
IDS_KEPT: Final = 1 << 16
"""How many moves' ids :func:`move_ids` keeps (a bound on memory)."""
ENDS: Final = " done"
"""What the last part of a move ends with: a space and ``str(steps.DONE)``."""


def move_parts(move: str) -> tuple[str, ...]:
    """The parts of a canonical move for the learning libraries: its steps, the last with
    `` done`` (``done`` alone for the move ``done``)."""
    steps = move.split(" ")
    if move != "done":
        steps[-1] += ENDS
    return tuple(steps)


def move_ids(moves: list[str], names: dict[str, int], known: dict[str, tuple[int, ...]]
             ) -> list[tuple[int, ...]] | None:
    """The action ids of each of ``moves`` (canonical): the id in ``names`` of each of its
    :func:`move_parts`, those of a move met before taken from ``known`` (which keeps
    them, up to :data:`IDS_KEPT` moves); None when a part has no id."""
    out: list[tuple[int, ...]] = []
    for move in moves:
        ids = known.get(move)
        if ids is None:
            found: list[int] = []
            for part in move_parts(move):
                i = names.get(part, -1)
                if i < 0:
                    return None
                found.append(i)
            ids = tuple(found)
            if len(known) >= IDS_KEPT:
                known.clear()
            known[move] = ids
        out.append(ids)
    return out


def _pyramid_numbers(pyramid: Pyramid, slots: int) -> array[float]:
    """A pyramid's numbers in the observation, made when it changed: each slot's left
    and right halves' materials one-hot, then the stones placed / ``slots``. (An
    ``array('d')`` written number by number is the slow part of :func:`fill`, and a move
    changes one pyramid.)"""
    out = _ZERO * (10 * len(pyramid.stones) + 1)
    i = 0
    for v in pyramid.stones:
        if v >= 0:
            out[i + v // 5] = 1.0
            out[i + 5 + v % 5] = 1.0
        i += 10
    out[i] = pyramid.count / slots
    return out


def fill(state: GameState, seat: int, out: Numbers) -> None:
    """Write ``seat``'s observation of ``state`` into ``out`` (zeros, the observation's
    size)."""
    t = state.tables
    ed = t.edition
    players = state.players
    n = len(players)
    builders = state.variant.value == "builders"
    out[seat] = 1.0
    deciding = state.current_seat()
    if deciding >= 0:
        out[n + deciding] = 1.0
    i = 2 * n
    out[i + int(state.phase)] = 1.0
    i += PHASES
    if state.start_space >= 0:
        out[i] = state.start_space / t.last
        q = t.quarry_at[state.start_space]
        if q >= 0 and state.tiles[q] >= 0:
            out[i + 1 + state.tiles[q]] = 1.0
    i += 1 + TILES
    if state.hand >= 0:
        out[i + state.hand] = 1.0
    i += STONES
    out[i] = 1.0 if state.can_store else 0.0
    i += 1
    pending = state.pending
    for c in set(pending):
        out[i + c] = min(1.0, pending.count(c) / t.rows)
    i += t.columns
    for tile in state.tiles:
        if tile >= 0:
            out[i + tile] = 1.0
        i += TILES
    for col in state.offer:
        for r, stone in enumerate(col):
            out[i + r * STONES + stone] = 1.0
        i += t.rows * STONES
    per_type = t.per_type
    for s, k in enumerate(state.bag):
        out[i + s] = k / per_type
    i += STONES
    if state.ptah is not None:
        for s, k in enumerate(state.ptah):
            out[i + s] = k / per_type
        out[i + STONES] = min(1.0, state.ptah_total / t.ptah_target)
        i += STONES + 1
    names = [b.name for b in ed.builders] if builders else []
    last = t.last
    for p in players:
        if builders:
            if p.builder is not None:
                out[i + names.index(p.builder.name)] = 1.0
            i += len(names)
        out[i] = min(p.food, FOOD_SCALE) / FOOD_SCALE
        out[i + 1] = p.space / last
        if p.arrival >= 0:
            order = 1 + sum(1 for q in players
                            if q.space == p.space and 0 <= q.arrival < p.arrival)
            out[i + 2] = order / n
        i += 3
        pyramid = p.pyramid
        block = pyramid.observed
        if block is None:
            block = pyramid.observed = _pyramid_numbers(pyramid, t.slots)
        out[i:i + len(block)] = block  # a copy of the buffer
        i += len(block)
        store = p.store
        for s in set(store):
            out[i + s] = min(store.count(s), 3) / 3
        i += STONES
        out[i] = 1.0 if p.feasted else 0.0
        out[i + 1] = 1.0 if p.sailed else 0.0
        out[i + 2] = 1.0 if p.ended else 0.0
        out[i + 3] = 1.0 if p.retired else 0.0
        i += 4
