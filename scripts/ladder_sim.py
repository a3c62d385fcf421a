#!/usr/bin/env python3
"""How fast a ladder's ratings settle with its tables (``sneferu_cli.tournament.
matchmaking.round_tables``) against tables drawn at random, on simulated results.

    python scripts/ladder_sim.py [ENGINES] [GAMES_EACH] [SEED]

ENGINES engines (default 50) of known strengths, spread evenly over 0 to 1,500 Elo points
(``random`` at 0 is the anchor), play rounds at 4 seats: each table one deal in its 4
seatings (4 games), each game's places drawn from the Plackett-Luce model of the true
strengths. After each round the batch fit (``fit_ratings``) rates every game so far. Prints,
for each scheduler, when every engine has played GAMES_EACH games (default 60): the widest
and the mean 95% interval, the largest error against the true strength, how many engines'
true strength lies inside their interval, and the share of (engine, round) pairs in which
an engine had no table. Needs numpy and scipy (the ``rating`` extra).
"""

from __future__ import annotations

import math
import random
import sys

from sneferu_cli.tournament.fit import ELO, fit_ratings
from sneferu_cli.tournament.matchmaking import round_tables

SEATS = 4


def play(table: tuple[str, ...], strength: dict[str, float], rng: random.Random
         ) -> list[list[tuple[str, int]]]:
    """A table's deal in its four seatings: four games of Plackett-Luce places."""
    games = []
    for _ in range(SEATS):
        noisy = {n: strength[n] / ELO - math.log(-math.log(rng.random())) for n in table}
        order = sorted(table, key=lambda n: -noisy[n])
        games.append([(n, order.index(n) + 1) for n in table])
    return games


def random_tables(engines: list[str], rng: random.Random) -> list[tuple[str, ...]]:
    """Tables drawn at random, every engine seated once (the last table filled up)."""
    order = list(engines)
    rng.shuffle(order)
    tables = [tuple(order[i:i + SEATS]) for i in range(0, len(order), SEATS)]
    if len(tables[-1]) < SEATS:
        rest = [e for e in engines if e not in tables[-1]]
        tables[-1] = tuple(tables[-1]) + tuple(rng.sample(rest, SEATS - len(tables[-1])))
    return tables


def run(scheduler: str, count: int, each: int, seed: int) -> str:
    rng = random.Random(seed)
    engines = ["random"] + [f"e{k:02}" for k in range(1, count)]
    strength = {e: 1500.0 * k / (count - 1) for k, e in enumerate(engines)}
    games: list[list[tuple[str, int]]] = []
    played = dict.fromkeys(engines, 0)
    rating: dict[str, float] = {}
    idle = rounds = 0
    while min(played.values()) < each:
        tables = (round_tables(engines, SEATS, rating, played, {"random"}, rng)
                  if scheduler == "ladder" else random_tables(engines, rng))
        seated = {e for t in tables for e in t}
        idle += len(engines) - len(seated)
        rounds += 1
        for t in tables:
            for g in play(t, strength, rng):
                games.append(g)
                for e in t:
                    played[e] += 1
        fit = fit_ratings(games, {"random": 0.0})
        rating = {e: r.rating for e, r in fit.engines.items()}
    rows = [r for e, r in fit.engines.items() if e != "random"]
    errors = [abs(r.rating - strength[r.name]) for r in rows]
    inside = sum(1 for r, err in zip(rows, errors, strict=True) if err <= r.ci)
    return (f"{scheduler:>7}: {rounds} rounds, games each {min(played.values())} to "
            f"{max(played.values())}; interval widest ± {max(r.ci for r in rows):.0f}, "
            f"mean ± {sum(r.ci for r in rows) / len(rows):.0f}; largest error "
            f"{max(errors):.0f}; true strength inside the interval for {inside} of "
            f"{len(rows)}; idle {100 * idle / (rounds * len(engines)):.1f}% of "
            "engine-rounds")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    each = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    print(f"{count} engines, 0 to 1,500 Elo, 4 seats, until each has {each} games; seed {seed}")
    for scheduler in ("ladder", "random"):
        print(run(scheduler, count, each, seed))


if __name__ == "__main__":
    main()
