"""A plain listing of step-2 markings (SPEC 14.2, G26), written for clarity: the reference
the rules' listing (``SilverGoldState._marking``, from the texts its tables keep) is held
to. It scans every placement of the pattern, writes each text with ``mark_text`` and tells
results apart by tuples of marks."""

from __future__ import annotations

from sneferu_cli.games.silver_gold.move import mark_text
from sneferu_cli.games.silver_gold.state import SilverGoldState, cells_of, spread


def mark_options(state: SilverGoldState, seat: int
                 ) -> list[tuple[str, int, int, tuple[tuple[int, int], ...]]]:
    """Every legal marking of ``seat``: (text, card, main mask, bonus marks), each set of
    marked cells once, in the order of G26."""
    return [option for option, _ in marking_results(state, seat)]


def marking_results(state: SilverGoldState, seat: int
                    ) -> list[tuple[tuple[str, int, int, tuple[tuple[int, int], ...]],
                                tuple[int, ...]]]:
    """:func:`mark_options`, each with the marks of the seat's cards it leaves."""
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
            owed = (mask & t.cross[card]).bit_count()
            finals: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = []
            if owed == 0:
                finals.append(((), tuple(ms)))
            else:
                _bonus(state, cards, ms, owed, [], finals, set())
            for bonus, final in finals:
                if final not in seen_sets:
                    seen_sets.add(final)
                    out.append(((mark_text(card, cells, bonus), card, mask, bonus), final))
    return out


def _open(state: SilverGoldState, card: int, m: int) -> bool:
    return not m >> state.tables.tomb[card] & 1


def _bonus(state: SilverGoldState, cards: list[int], ms: list[int], owed: int,
           path: list[tuple[int, int]],
           out: list[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
           seen: set[tuple[int, ...]]) -> None:
    """Depth first, in the order of G26: every set of bonus marks that settles ``owed``
    marks (5.5, G10-G12), each once, by its first legal order, with the marks left."""
    key = (owed, *ms)
    if key in seen:
        return
    seen.add(key)
    t = state.tables
    if owed == 0 or not any(_open(state, c, m) for c, m in zip(cards, ms, strict=True)):
        out.append((tuple(path), tuple(ms)))  # all owed marks made, or they lapse (G12)
        return
    for j, card in enumerate(cards):
        m = ms[j]
        if not _open(state, card, m):
            continue
        front = (spread(m) if m else 1 << t.entrance[card]) & ~(t.walls[card] | m)
        for k in cells_of(front):
            ms[j] = m | 1 << k
            path.append((card, k))
            _bonus(state, cards, ms, owed - 1 + (t.cross[card] >> k & 1), path, out, seen)
            path.pop()
        ms[j] = m
