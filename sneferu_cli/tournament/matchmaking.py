"""Tables for a ladder round (SPEC.md 9.12): many engines at 3–4 seats, where a
round-robin over every subset (C(n, 4) tables) is out of reach.

As the hosted ladders pick matches: the least-played engine first, its opponents from a
window of ratings around its own of random width (widened until there are enough), and
a share of tables given one of the anchors. Every engine gets a table in every round (a
last table short of engines is filled with engines seated already), so none sits a
round out.

>>> import random
>>> tables = round_tables(list("abcdefghij"), 4, {}, {}, (), random.Random(1))
>>> len(tables), sorted({n for t in tables for n in t}) == list("abcdefghij")
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

NARROWEST = 100.0
"""The narrowest rating window (Elo points on each side of the first engine's rating)."""

WIDEST = 800.0
"""The widest window drawn (it is widened further only when too few engines are in it)."""

ANCHOR_SHARE = 0.1
"""The share of tables given an anchor when none is seated there by the window."""


def round_tables(engines: Sequence[str], seats: int, ratings: Mapping[str, float],
                 games: Mapping[str, int], anchors: Collection[str], rng: random.Random, *,
                 anchor_share: float = ANCHOR_SHARE) -> list[tuple[str, ...]]:
    """One round's tables of ``seats`` engines each, every engine at one table at least.

    ``ratings`` and ``games`` are each engine's rating and games so far (an engine without
    a rating counts as the mean of those with one, without games as 0); ``anchors`` the
    engines with fixed ratings. A table starts with the least-played engine not yet seated
    (ties in random order); its opponents are drawn from the engines not yet seated whose
    rating is within a window of random width (uniform from :data:`NARROWEST` to
    :data:`WIDEST` points each side) of its own, the window doubled until it holds enough;
    with probability ``anchor_share`` a table with no anchor has its last opponent replaced
    by an anchor at random (one seated already only where the last table has seats to
    fill, so that no table is added). When fewer engines than ``seats`` remain unseated, the last
    table is filled with engines seated already, the least-played first."""
    if len(engines) < seats:
        raise ValueError(f"{len(engines)} engines cannot fill a table of {seats} seats")
    known = [ratings[e] for e in engines if e in ratings]
    mean = sum(known) / len(known) if known else 0.0
    rating = {e: ratings.get(e, mean) for e in engines}
    order = list(engines)
    rng.shuffle(order)  # ties in random order (sorted keeps it)
    unseated = sorted(order, key=lambda e: games.get(e, 0))
    played = {e: games.get(e, 0) for e in engines}
    anchored = [e for e in engines if e in anchors]
    tables: list[tuple[str, ...]] = []
    while unseated:
        slack = len(unseated) % seats != 0  # the last table will be filled up
        first = unseated.pop(0)
        pool = unseated if len(unseated) >= seats - 1 else unseated + sorted(
            (e for e in order if e != first and e not in unseated),
            key=lambda e: played[e])[:seats - 1 - len(unseated)]
        table = [first, *_window(first, pool, seats - 1, rating, rng)]
        # an anchor seated already takes a seat from the last table's filling only
        free = [e for e in anchored if e in unseated or (slack and len(pool) > seats - 1)]
        if (free and len(table) > 1 and not any(e in anchors for e in table)
                and rng.random() < anchor_share):
            table[-1] = rng.choice(free)
        for e in table:
            played[e] += 1
            if e in unseated:
                unseated.remove(e)
        tables.append(tuple(table))
    return tables


def _window(first: str, pool: Sequence[str], count: int, rating: Mapping[str, float],
            rng: random.Random) -> list[str]:
    """``count`` engines of ``pool`` at random within a window of ratings around
    ``first``'s, of random width, doubled until it holds ``count``."""
    if len(pool) < count:
        raise ValueError(f"{len(pool)} engines cannot fill {count} seats")
    width = rng.uniform(NARROWEST, WIDEST)
    while True:
        near = [e for e in pool if abs(rating[e] - rating[first]) <= width]
        if len(near) >= count:
            return rng.sample(near, count)
        width *= 2
