"""Time the batch rating fit (SPEC.md 9.11) on synthetic four-seat games.

    python scripts/fit_bench.py [--games 100000] [--engines 20] [--seed 1]

Draws engines' Elo strengths (normal, sd 200), plays the games by the Plackett-Luce model
(a Gumbel draw added to each seat's strength in logits, ranked highest first), then times
``fit_ratings`` on them (building its tables included, numpy and scipy imported before)
and prints the seconds and the largest error against the strengths drawn. Needs numpy and
scipy (``pip install ".[rating]"``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from sneferu_cli.tournament.fit import ELO, fit_ratings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--engines", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    strength = {f"e{i}": rng.gauss(0, 200) for i in range(args.engines)}
    names = list(strength)
    games = []
    for _ in range(args.games):
        table = rng.sample(names, 4)
        noisy = sorted(table, key=lambda n: strength[n] / ELO - math.log(-math.log(rng.random())),
                       reverse=True)
        games.append([(n, noisy.index(n) + 1) for n in table])
    import numpy  # noqa: F401  (imported before the clock starts, as in a long session)
    import scipy.optimize  # noqa: F401

    start = time.perf_counter()
    fit = fit_ratings(games, provisional=0)
    seconds = time.perf_counter() - start
    mean = sum(strength.values()) / len(strength)
    error = max(abs(fit.engines[n].rating - (s - mean)) for n, s in strength.items())
    widest = max(r.ci for r in fit.engines.values())
    print(f"{args.games} four-seat games, {args.engines} engines: fit in {seconds:.2f} s; "
          f"largest error {error:.1f} Elo, widest 95% interval ± {widest:.1f}")


if __name__ == "__main__":
    main()
