#!/usr/bin/env python3
"""Fit the weights of Akropolis's estimate (games/akropolis/heuristic.py, ``WEIGHTS``) on
played games, by least squares (numpy).

    python scripts/fit_akropolis_value.py play OUT.npz [--games N] [--seats 2,3,4]
        [--epsilon E] [--seed S]
    python scripts/fit_akropolis_value.py fit DATA.npz [DATA.npz ...]
    python scripts/fit_akropolis_value.py duel SEATS DEALS ENGINE ENGINE... [-j 1]

``play`` plays games between greedy players valuing moves by the game's estimate as it
stands (``GAME.evaluate``), each move with chance ``epsilon`` drawn from the best three
instead (so that the cities vary), and records at every decision every seat's
:func:`~sneferu_cli.games.akropolis.heuristic.features`, its score then and its final
score. ``fit`` regresses what each seat still gained (final score less the score then) on
the features (least squares, the city's weights not negative), prints the weights to
paste into ``WEIGHTS`` with the fit's error, and the error of the plain estimate
(``plain_values``) for comparison, on a held-out fifth of the
games. ``duel`` is ``scripts/duel.py`` with one more engine, ``greedy-plain``: greedy
valuing moves by the plain estimate (the yardstick before the fitted one).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from sneferu_cli.game import get_game
from sneferu_cli.games.akropolis.heuristic import FEATURES, features, plain_values
from sneferu_cli.games.akropolis.scoring import points
from sneferu_cli.search.generic import gain


def play_game(players: int, rng: random.Random, epsilon: float, game_id: int
              ) -> list[list[float]]:
    """One game; rows of game id, players, the seat's features, its score then, the plain
    estimate's gain then, its final score."""
    game = get_game("akropolis")
    state = game.new_game(players)
    pending: list[tuple[int, list[float], float, float]] = []
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        seat = game.deciding_seats(state)[0]
        plain = plain_values(state)
        for s in range(players):
            pending.append((s, features(state, s), float(points(state, s)),
                            plain[s] - points(state, s)))
        scored = sorted(((gain(game, state, seat, m), rng.random(), m)
                         for m in game.legal_moves(state)), reverse=True)
        pick = scored[rng.randrange(min(3, len(scored)))] if rng.random() < epsilon \
            else scored[0]
        game.apply_move(state, pick[2], seat)
    final = [float(points(state, s)) for s in range(players)]
    return [[float(game_id), float(players), *phi, now, extra, final[s]]
            for s, phi, now, extra in pending]


def cmd_play(a: argparse.Namespace) -> None:
    rng = random.Random(a.seed)
    seats = [int(x) for x in a.seats.split(",")]
    rows: list[list[float]] = []
    for g in range(a.games):
        rows += play_game(seats[g % len(seats)], rng, a.epsilon, a.seed * 100000 + g)
        print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    np.savez_compressed(a.out, rows=np.array(rows))
    print(f"{len(rows)} rows from {a.games} games -> {a.out}")


def cmd_fit(a: argparse.Namespace) -> None:
    from scipy.optimize import lsq_linear  # the "rating" extra

    rows = np.concatenate([np.load(f)["rows"] for f in a.data])
    n = len(FEATURES)
    ids = rows[:, 0]
    x = rows[:, 2:2 + n]
    now, extra, final = rows[:, 2 + n], rows[:, 3 + n], rows[:, 4 + n]
    target = final - now
    test = (ids.astype(np.int64) % 5) == 0
    # The weights of the city's features may not be negative (a value or star that made
    # the estimate fall would steer the search away from scoring); the game's clock
    # (``left``, ``left^2``) is free.
    free = [name.startswith("left") for name in FEATURES]
    low = np.array([-np.inf if f else 0.0 for f in free])
    w = lsq_linear(x[~test], target[~test], bounds=(low, np.inf)).x

    def rmse(pred: np.ndarray) -> float:
        return float(np.sqrt(np.mean((pred[test] - target[test]) ** 2)))

    print(f"{len(rows)} rows, {len(set(ids.tolist()))} games; held out {int(test.sum())} rows")
    print(f"error of the final score (rmse, held out): fitted {rmse(x @ w):.2f}, plain "
          f"{rmse(extra):.2f}, score now alone {rmse(np.zeros_like(target)):.2f}")
    for players in sorted(set(rows[:, 1].tolist())):
        sel = test & (rows[:, 1] == players)
        err = float(np.sqrt(np.mean(((x @ w)[sel] - target[sel]) ** 2)))
        print(f"  {int(players)} seats: fitted {err:.2f}")
    print("WEIGHTS: Final = (")
    print("    " + ", ".join(f"{v:.4g}" for v in w) + ",")
    print(")")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"#   {name:24} {v:+.4f}")


class PlainGreedy:
    """greedy by :func:`plain_values`: the move whose result is best for the seat less the
    mean of the others (ties at random); Akropolis hides nothing and is never sealed."""

    iterations = 0

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.game = get_game("akropolis")

    def new_game(self, message: Any) -> None:
        pass

    def choose(self, state: Any, go: Any) -> str:
        seat = self.game.deciding_seats(state)[0]
        best: list[str] = []
        best_value = float("-inf")
        for move in self.game.legal_moves(state):
            after = state.clone()
            self.game.apply_move(after, move, seat, listed=True)
            v = plain_values(after)
            value = v[seat] - (sum(v) - v[seat]) / (len(v) - 1)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return self.rng.choice(best)


def cmd_duel(a: argparse.Namespace) -> None:
    spec = importlib.util.spec_from_file_location("duel", Path(__file__).with_name("duel.py"))
    assert spec is not None and spec.loader is not None
    duel: Any = importlib.util.module_from_spec(spec)
    sys.modules["duel"] = duel
    spec.loader.exec_module(duel)
    shipped = duel.engine

    def engine(spec: str, seed: int) -> Any:
        return PlainGreedy(seed) if spec == "greedy-plain" else shipped(spec, seed)

    duel.engine = engine
    sys.argv = [sys.argv[0], "akropolis", *a.rest]
    duel.main()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    q = sub.add_parser("play")
    q.add_argument("out")
    q.add_argument("--games", type=int, default=100)
    q.add_argument("--seats", default="2,3,4")
    q.add_argument("--epsilon", type=float, default=0.2)
    q.add_argument("--seed", type=int, default=1)
    q.set_defaults(run=cmd_play)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.set_defaults(run=cmd_fit)
    d = sub.add_parser("duel")
    d.add_argument("rest", nargs=argparse.REMAINDER)
    d.set_defaults(run=cmd_duel)
    a = p.parse_args()
    a.run(a)


if __name__ == "__main__":
    main()
