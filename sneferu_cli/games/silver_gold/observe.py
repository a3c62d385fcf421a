"""Silver & Gold's observation tensor filled in (compiled with mypyc, listed in
compiled.txt): the numbers of :func:`.actions.observation`, in its order, written into an
``array('d')`` of zeros."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Final

from .edition import COLOURS, PER_COLOUR, SIZE
from .state import (
    BOXES,
    CELLS,
    DRAWING,
    GEMS,
    KEEPING,
    KEPT,
    MARKING,
    PHASES,
    ROUNDS,
    TAKING,
    TURNS,
    SilverGoldState,
)

if TYPE_CHECKING:
    from ...game import Numbers

__all__ = ["GRID_CODES", "OWED", "SCORE_SPAN", "fill", "seen_deciding"]

GRID_CODES: Final = "#ETRGFSPX"
"""The cell codes of a chamber's grid planes in the observation."""
OWED: Final = 2
"""A seat completes at most two cards in a turn (5.6), so owes at most two new ones."""
SCORE_SPAN: Final = 250
"""The observation's span of points (above the worst skull penalty); more is cut."""
ROW: Final = (1 << SIZE) - 1


def seen_deciding(state: SilverGoldState, seat: int) -> list[bool]:
    """Which seats ``seat`` sees still to decide: its own answer is known to it, another
    seat's sealed move is not (G21), so at a sealed node every other seat asked looks still
    to decide."""
    own = state.deciding_seats()
    out = []
    for s in range(state.players):
        if s == seat or state.retired[s]:
            out.append(s in own)
        elif state.phase == KEEPING:
            out.append(bool(state.dealt[s] or state.hidden[s]))
        elif state.phase == MARKING:
            out.append(bool(state.play[s]))
        else:
            out.append(s in own)
    return out


def fill(state: SilverGoldState, seat: int, grids: list[array[float]],
         chambers: dict[int, array[float]], out: Numbers) -> None:
    """Write ``seat``'s observation of ``state`` into ``out`` (zeros, the observation's
    size); ``grids`` holds per card number (0 unused) its card one-hot and grid planes,
    ``chambers`` the numbers of the chambers met (:func:`_chamber`), for the edition's
    tables."""
    t = state.tables
    n = state.players
    cards = t.cards
    out[seat] = 1.0
    i = n
    if 1 <= state.round <= ROUNDS:
        out[i + state.round - 1] = 1.0
    i += ROUNDS
    if 0 <= state.turn <= TURNS:
        out[i + state.turn] = 1.0
    i += TURNS + 1
    if 0 <= state.phase < len(PHASES):
        out[i + state.phase] = 1.0
    i += len(PHASES)
    patterns = len(t.codes)
    pattern = state.pattern()
    if 0 <= pattern < patterns:
        out[i + pattern] = 1.0
    i += patterns
    left = list(t.copies)
    for p in state.revealed:
        left[p] -= 1
    for p in range(patterns):
        out[i + p] = left[p] / t.copies[p]
    i += patterns
    for k in state.offer:
        out[i + k - 1] = 1.0
    i += cards
    out[i] = state.deck_size() / cards
    i += 1
    for k in state.dealt[seat]:
        out[i + k - 1] = 1.0
    i += cards
    deciding = seen_deciding(state, seat)
    worst = t.penalty(t.skull_cap)
    chamber = cards + (len(GRID_CODES) + 1) * CELLS
    for s in range(n):
        taking = state.phase in (TAKING, DRAWING) and state.phase_seat == s
        out[i] = 1.0 if state.retired[s] else 0.0
        out[i + 1] = 1.0 if deciding[s] else 0.0
        out[i + 2] = 1.0 if taking else 0.0
        out[i + 3] = state.owed[s] / OWED
        out[i + 4] = state.red[s] / GEMS
        out[i + 5] = state.green[s] / GEMS
        out[i + 6] = state.skulls[s] / t.skull_cap
        i += 7
        torches = state.torches[s]
        for r in range(ROUNDS):
            if torches >> r & 1:
                out[i + r] = 1.0
        i += ROUNDS
        out[i] = min(1.0, max(0.0, (state.points(s) + worst) / SCORE_SPAN))
        i += 1
        for colour, points in state.boxes[s]:
            out[i + colour * len(BOXES) + BOXES.index(points)] = 1.0
        i += len(COLOURS) * len(BOXES)
        per_colour = [0] * len(COLOURS)
        for k in state.done[s]:
            out[i + k - 1] = 1.0
            per_colour[t.colour[k]] += 1
        i += cards
        for c in range(len(COLOURS)):
            out[i + c] = per_colour[c] / PER_COLOUR
        i += len(COLOURS)
        play = state.play[s]
        for j in range(KEPT):
            if j < len(play):
                card = play[j]
                out[i:i + chamber] = _chamber(grids, chambers, card, state.marks[card])
            i += chamber


CHAMBERS_KEPT: Final = 1 << 14
"""How many chambers' numbers :func:`_chamber` keeps (a marked card is met again at every
observation until it is marked anew)."""


def _chamber(grids: list[array[float]], chambers: dict[int, array[float]], card: int,
             marks: int) -> array[float]:
    """A card's numbers in a chamber: its card one-hot and grid planes (``grids``), then
    its ``marks``, one number a cell; kept in ``chambers`` until it is marked anew (an
    ``array('d')`` written number by number is the slow part of :func:`fill`)."""
    key = marks * len(grids) + card
    block = chambers.get(key)
    if block is None:
        grid = grids[card]
        block = grid + _ZERO * CELLS
        at = len(grid)
        for row in range(SIZE):
            bits = marks >> SIZE * row & ROW
            for b in range(SIZE):
                if bits >> b & 1:
                    block[at + row * SIZE + b] = 1.0
        if len(chambers) >= CHAMBERS_KEPT:
            chambers.clear()
        chambers[key] = block
    return block


_ZERO: Final = array("d", [0.0])
