"""Sneferu's invariants, checked with code written independently of the state's bit masks
(``GAME.check``, called by the tests at every step of random games).

Where the 100 stones are (bag, offer, pyramids, storehouses, Ptah, the hand: each type
conserved, section 2), food and boats in bounds, and every pyramid: stones of two
different materials, each supported (rules 1), and the masks (count, filled, cells,
material, open slots, enclosed areas 4.5) saying what its slot contents say.
"""

from __future__ import annotations

from collections import Counter

from ...game import BrokenInvariant
from .components import Material, Stone
from .state import GameState

__all__ = ["check", "enclosed_areas", "slot_list", "stone_count"]


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise BrokenInvariant(what)


def slot_list(levels: int) -> list[tuple[int, int]]:
    """(level, slot) of every slot of a pyramid of ``levels`` levels, bottom level first,
    left to right (the order of ``Pyramid.stones``)."""
    return [(n, k) for n in range(1, levels + 1) for k in range(1, levels + 2 - n)]


def _cells_of(stones: list[int], levels: int) -> dict[tuple[int, int], int]:
    """Filled cells (level, x) -> material, from the slot contents (left * 5 + right)."""
    cells = {}
    for (n, k), v in zip(slot_list(levels), stones, strict=True):
        if v >= 0:
            x = (n - 1) + 2 * (k - 1)
            cells[(n, x)] = v // 5
            cells[(n, x + 1)] = v % 5
    return cells


def enclosed_areas(stones: list[int], levels: int) -> list[int]:
    """Sizes of the enclosed areas (4.5) of a pyramid's slot contents, smallest first, by
    a plain flood fill over the cells."""
    cells = _cells_of(stones, levels)
    shape = {(n, x) for n in range(1, levels + 1) for x in range(n - 1, 2 * levels + 1 - n)}
    empty = shape - set(cells)
    seen: set[tuple[int, int]] = set()
    sizes = []
    for start, mat in cells.items():
        if start in seen:
            continue
        area, todo = {start}, [start]
        while todo:
            n, x = todo.pop()
            for nb in ((n, x - 1), (n, x + 1), (n - 1, x), (n + 1, x)):
                if nb in cells and cells[nb] == mat and nb not in area:
                    area.add(nb)
                    todo.append(nb)
        seen |= area
        touches_empty = any(nb in empty for n, x in area
                            for nb in ((n, x - 1), (n, x + 1), (n - 1, x), (n + 1, x)))
        if not touches_empty:
            sizes.append(len(area))
    return sorted(sizes)


def _check_pyramid(state: GameState, seat: int) -> None:
    p = state.players[seat].pyramid
    levels = state.edition.pyramid.levels
    slots = slot_list(levels)
    index = {ls: i for i, ls in enumerate(slots)}
    _require(len(p.stones) == len(slots), f"seat {seat + 1}: {len(p.stones)} slots")
    filled = {i for i, v in enumerate(p.stones) if v >= 0}
    for i in filled:
        a, b = divmod(p.stones[i], 5)
        _require(a != b and 0 <= a < 5 and 0 <= b < 5, f"seat {seat + 1}: bad stone in slot {i}")
        n, k = slots[i]
        _require(n == 1 or (index[(n - 1, k)] in filled and index[(n - 1, k + 1)] in filled),
                 f"seat {seat + 1}: slot {n}.{k} is not supported")
    _require(p.count == len(filled), f"seat {seat + 1}: count {p.count}, {len(filled)} filled")
    _require(p.filled == sum(1 << i for i in filled), f"seat {seat + 1}: filled mask")
    g = p.geometry
    _require(p.cells == sum(g.left_bit[i] | g.right_bit[i] for i in filled),
             f"seat {seat + 1}: cells mask")
    for m in range(5):
        want = 0
        for i in filled:
            a, b = divmod(p.stones[i], 5)
            want |= (g.left_bit[i] if a == m else 0) | (g.right_bit[i] if b == m else 0)
        _require(p.material[m] == want, f"seat {seat + 1}: material mask {Material(m).name}")
    opened = {i for i, (n, k) in enumerate(slots) if i not in filled
              and (n == 1 or {index[(n - 1, k)], index[(n - 1, k + 1)]} <= filled)}
    _require(p.open == sum(1 << i for i in opened), f"seat {seat + 1}: open mask")
    _require(sorted(p.areas) == enclosed_areas(p.stones, levels),
             f"seat {seat + 1}: enclosed areas {sorted(p.areas)}")


def stone_count(state: GameState) -> Counter[int]:
    """Where the stones are, by type: bag, offer, pyramids, storehouses, Ptah, the hand."""
    counts: Counter[int] = Counter()
    for s, n in enumerate(state.bag):
        counts[s] += n
    for col in state.offer:
        counts.update(col)
    for p in state.players:
        counts.update(Stone.of(v // 5, v % 5) for v in p.pyramid.stones if v >= 0)
        counts.update(p.store)
    if state.ptah is not None:
        for s, n in enumerate(state.ptah):
            counts[s] += n
    if state.hand >= 0:
        counts[state.hand] += 1
    return counts


def check(state: GameState) -> None:
    """Raise :class:`BrokenInvariant` when ``state`` breaks conservation or a bound."""
    ed = state.edition
    per_type = ed.stones.per_type
    counts = stone_count(state)
    _require(all(counts[s] == per_type for s in Stone), f"stones by type {dict(counts)}")
    _require(sum(counts.values()) == per_type * len(Stone), f"{sum(counts.values())} stones")
    _require(state.bag_total == sum(state.bag), "bag total")
    _require(all(len(col) <= 7 for col in state.offer), "an offer column longer than 7")
    last = ed.river.last_space
    levels = ed.pyramid.levels
    for seat, p in enumerate(state.players):
        _require(p.food >= 0, f"seat {seat + 1} has {p.food} food")
        _require(0 <= p.space <= last, f"seat {seat + 1} on space {p.space}")
        _require(p.pyramid.count + len(p.store) <= levels * (levels + 1) // 2,
                 f"seat {seat + 1}: more stones than slots")
        _check_pyramid(state, seat)
    if state.ptah is not None:
        _require(state.ptah_total == sum(state.ptah) <= ed.solo.ptah_target,
                 f"Ptah holds {state.ptah_total}")
