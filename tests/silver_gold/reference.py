"""A plain listing of step-2 markings (SPEC 14.2, G26), written for clarity: the reference
the rules' listing (``SilverGoldState._marking``, from the texts its tables keep) is held
to. It scans every placement of the pattern, writes each text with ``mark_text`` and tells
results apart by tuples of the counters (gems, torch boxes, skulls, each counted cell by
cell) and the marks, a completed card's cut to its tomb (G26: the same move only when the
same state is left)."""

from __future__ import annotations

from sneferu_cli.games.silver_gold.move import mark_text
from sneferu_cli.games.silver_gold.state import SilverGoldState, cells_of, spread


def mark_options(state: SilverGoldState, seat: int
                 ) -> list[tuple[str, int, int, tuple[tuple[int, int], ...]]]:
    """Every legal marking of ``seat``: (text, card, main mask, bonus marks), each result
    once, with its first text in the order of G26."""
    return [option for option, _ in marking_results(state, seat)]


def marking_results(state: SilverGoldState, seat: int
                    ) -> list[tuple[tuple[str, int, int, tuple[tuple[int, int], ...]],
                                tuple[int, ...]]]:
    """:func:`mark_options`, each with the skull counter and the marks of the seat's cards
    it leaves (those of its first text: a completed card's marks are no part of the
    result)."""
    t = state.tables
    p = state.pattern()
    out: list[tuple[tuple[str, int, int, tuple[tuple[int, int], ...]], tuple[int, ...]]] = []
    seen_sets: set[tuple[int, ...]] = set()
    cards = state.play[seat]
    for j, card in enumerate(cards):
        m = state.marks[card]
        blocked = t.walls[card] | m
        need = spread(m) if m else 1 << t.entrance[card]
        mains: list[tuple[int, tuple[int, ...]]] = []
        if p >= 0:
            for mask, cells in t.placements[p]:
                if not mask & blocked and mask & need:
                    mains.append((mask, cells))
        for k in cells_of(need & ~blocked):
            mains.append((1 << k, (k,)))
        for mask, cells in mains:
            ms = [state.marks[c] for c in cards]
            ms[j] |= mask
            skulls = _skulls(state, card, mask, state.skulls[seat])
            owed = (mask & t.cross[card]).bit_count()
            finals: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = []
            if owed == 0:
                finals.append(((), (skulls, *ms)))
            else:
                _bonus(state, seat, ms, skulls, owed, [], finals, set())
            for bonus, final in finals:
                result = _result(state, seat, final[0], list(final[1:]))
                if result not in seen_sets:
                    seen_sets.add(result)
                    out.append(((mark_text(card, cells, bonus), card, mask, bonus), final))
    return out


def _skulls(state: SilverGoldState, card: int, mask: int, skulls: int) -> int:
    """The skull counter after marking ``mask`` on ``card``: skulls first, then potions
    (G6, G7)."""
    t = state.tables
    for k in cells_of(mask):
        if t.skull[card] >> k & 1:
            skulls = min(len(t.skull_values), skulls + 1)
    for k in cells_of(mask):
        if t.potion[card] >> k & 1:
            skulls = max(0, skulls - 2)
    return skulls


def _result(state: SilverGoldState, seat: int, skulls: int, ms: list[int]
            ) -> tuple[int, ...]:
    """A result: the counters (gems, torch boxes, skulls), then the marks of each card in
    play, a completed card's cut to its tomb (it leaves play with its marks, 5.6)."""
    t = state.tables
    red, green, torches = state.red[seat], state.green[seat], state.torches[seat]
    cut = []
    for card, m in zip(state.play[seat], ms, strict=True):
        for k in cells_of(m & ~state.marks[card]):
            red = min(10, red + (t.red[card] >> k & 1))
            green = min(10, green + (t.green[card] >> k & 1))
            if t.torch[card] >> k & 1:
                torches |= 1 << state.round - 1
        tomb = 1 << t.tomb[card]
        cut.append(tomb if m & tomb else m)
    return (red, green, torches, skulls, *cut)


def _open(state: SilverGoldState, card: int, m: int) -> bool:
    return not m >> state.tables.tomb[card] & 1


def _bonus(state: SilverGoldState, seat: int, ms: list[int], skulls: int, owed: int,
           path: list[tuple[int, int]],
           out: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
           seen: set[tuple[int, ...]]) -> None:
    """Depth first, in the order of G26: every sequence of bonus marks that settles
    ``owed`` marks (5.5, G10-G12), with the skulls and marks left; a prefix leaving what an
    earlier one left is not searched again."""
    key = (owed, *_result(state, seat, skulls, ms))
    if key in seen:
        return
    seen.add(key)
    t = state.tables
    cards = state.play[seat]
    if owed == 0 or not any(_open(state, c, m) for c, m in zip(cards, ms, strict=True)):
        # all owed marks made, or they lapse (G12)
        out.append((tuple(path), (skulls, *ms)))
        return
    for j, card in enumerate(cards):
        m = ms[j]
        if not _open(state, card, m):
            continue
        front = (spread(m) if m else 1 << t.entrance[card]) & ~(t.walls[card] | m)
        for k in cells_of(front):
            ms[j] = m | 1 << k
            path.append((card, k))
            _bonus(state, seat, ms, _skulls(state, card, 1 << k, skulls),
                   owed - 1 + (t.cross[card] >> k & 1), path, out, seen)
            path.pop()
        ms[j] = m
