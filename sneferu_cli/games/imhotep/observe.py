"""Imhotep's observation tensor filled in (compiled with mypyc, listed in compiled.txt): the
numbers of :func:`.actions.observation`, in its order, written into an ``array('d')`` of
zeros."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .state import ImhotepState

if TYPE_CHECKING:
    from ...game import Numbers

__all__ = ["fill"]


def _tally(stones: list[int], site: int, players: int, counted: list[int]) -> None:
    """Add the stones of each seat in ``stones`` to ``counted`` (4 sites a seat)."""
    for s in stones:
        if 0 <= s < players:
            counted[4 * s + site] += 1


def fill(state: ImhotepState, seat: int, ships: list[tuple[str, int]],
         out: Numbers) -> None:
    """Write ``seat``'s observation of ``state`` into ``out`` (zeros, the observation's
    size); ``ships`` are the edition's ship tiles by name with their capacity, tile order.
    Each site's stones are counted once for every seat."""
    ed = state.edition
    n = state.players
    stones = ed.stones_per_colour
    out[0] = state.round / ed.rounds
    out[1 + seat] = 1.0
    deciding = -1 if state.is_over() or state.is_chance_node() else state.current_seat()
    if deciding >= 0:
        out[1 + n + deciding] = 1.0
    i = 1 + 2 * n
    counted = [0] * (4 * n)  # per seat: the pyramids (A, B and the edge), temple, chamber, towers
    _tally(state.pyramid, 0, n, counted)
    for p in state.pyramids:
        _tally(p, 0, n, counted)
    _tally(state.pyramid_edge, 0, n, counted)
    _tally(state.temple, 1, n, counted)
    _tally(state.chamber, 2, n, counted)
    _tally(state.towers, 3, n, counted)
    for s in range(n):  # zeros are not written: out holds them (each write costs)
        if state.sleds[s]:
            out[i] = state.sleds[s] / ed.sled_capacity
        if state.quarries[s]:
            out[i + 1] = state.quarries[s] / stones
        if state.scores[s]:
            out[i + 2] = min(state.scores[s], 100) / 100
        if state.retired[s]:
            out[i + 3] = 1.0
        i += 4
        for c in state.hands[s]:
            if c:
                out[i] = min(c, 4) / 4
            i += 1
        for site in range(4):
            if counted[4 * s + site]:
                out[i] = counted[4 * s + site] / stones
            i += 1
        if state.obelisks[s]:
            out[i] = state.obelisks[s] / stones
        if state.waiting[s]:
            out[i + 1] = state.waiting[s] / stones
        i += 2
    by_name = {ship.name: ship for ship in state.ships}
    for name, capacity in ships:
        ship = by_name.get(name)
        if ship is None:
            i += capacity * (n + 1) + 1 + 5
            continue
        slots = ship.slots
        for k in range(capacity):
            out[i + slots[k] + 1] = 1.0  # empty (-1), then each seat, one-hot
            i += n + 1
        out[i] = 1.0
        if ship.site >= 0:
            out[i + 1 + ship.site] = 1.0
        i += 1 + 5
    kinds = len(state.tables.card_codes) + 1  # none, then each kind
    display = state.display
    for k in range(max(ed.market.face_up, ed.market.face_up_b)):
        if k < len(display):
            out[i + display[k] + 1] = 1.0
        i += kinds
    out[i] = 1.0 if state.mx else 0.0
