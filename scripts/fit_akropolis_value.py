#!/usr/bin/env python3
"""Fit the weights of Akropolis's estimate (games/akropolis/heuristic.py, ``WEIGHTS``) on
played games, by least squares (numpy).

    python scripts/fit_akropolis_value.py play OUT.npz [--games N] [--seats 2,3,4]
        [--epsilon E] [--seed S] [--engines ENGINE ENGINE...]
    python scripts/fit_akropolis_value.py fit DATA.npz [DATA.npz ...] [--margin]
    python scripts/fit_akropolis_value.py duel SEATS DEALS ENGINE ENGINE... [-j 1]

``play`` plays games between greedy players valuing moves by the game's estimate as it
stands (``GAME.evaluate``), each move with chance ``epsilon`` drawn from the best three
instead (so that the cities vary), or with ``--engines`` between the engines named as
``scripts/duel.py`` names them (``mcts:Iterations=430``, ``greedy``; the last repeated to
fill the seats, the seats rotated from one game to the next), and records at every
decision every seat's :func:`~sneferu_cli.games.akropolis.heuristic.features`, its score
then and its final score. ``fit`` regresses what each seat still gained (final score less
the score then) on the features (least squares, the city's weights not negative), prints
the weights to paste into ``WEIGHTS`` with the fit's errors on a held-out fifth of the
games: of the final score, and of the final margin between two seats of a decision (what
decides the ranks, and all that the search and ``greedy`` compare), beside those of the
shipped weights and of the plain estimate (``plain_values``). With ``--margin`` the city's
weights are fitted on the margins of every pair of seats instead (the game's clock,
``left`` and ``left^2``, cancels there: it is then fitted on what the city's weights leave
of each seat's gain). ``duel`` is ``scripts/duel.py`` with one more engine,
``greedy-plain``: greedy valuing moves by the plain estimate (the yardstick before the
fitted one).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from sneferu_cli.game import get_game, seat_state
from sneferu_cli.games.akropolis.heuristic import FEATURES, features, plain_values
from sneferu_cli.games.akropolis.scoring import points
from sneferu_cli.protocol.messages import Go, NewGame
from sneferu_cli.search.generic import gain


def _duel() -> Any:
    """``scripts/duel.py``, loaded as a module."""
    spec = importlib.util.spec_from_file_location("duel", Path(__file__).with_name("duel.py"))
    assert spec is not None and spec.loader is not None
    duel: Any = importlib.util.module_from_spec(spec)
    sys.modules["duel"] = duel
    spec.loader.exec_module(duel)
    return duel


def play_game(players: int, rng: random.Random, epsilon: float, game_id: int,
              engines: list[str] | None = None) -> list[list[float]]:
    """One game; rows of game id, players, the seat's features, its score then, the plain
    estimate's gain then, its final score. With ``engines`` (``scripts/duel.py``'s names)
    the seats are played by them, rotated by the game id, and ``epsilon`` is not used."""
    game = get_game("akropolis")
    state = game.new_game(players)
    bots: list[Any] = []
    if engines:
        duel = _duel()
        for s in range(players):
            e = (s + game_id) % players
            bots.append(duel.engine(engines[min(e, len(engines) - 1)], game_id * 10 + s))
            bots[s].new_game(NewGame(players, s + 1, "standard", "standard", "akropolis"))
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
        if bots:
            iterations = getattr(bots[seat], "iterations", 0)
            game.apply_move(state, bots[seat].choose(
                seat_state(game, state, seat),
                Go(movetime=10**9, iterations=iterations or int(1e9))), seat)
            continue
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
        rows += play_game(seats[g % len(seats)], rng, a.epsilon, a.seed * 100000 + g,
                          a.engines or None)
        print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    np.savez_compressed(a.out, rows=np.array(rows))
    print(f"{len(rows)} rows from {a.games} games -> {a.out}")


def pairs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of seats at each decision of ``rows`` (a decision's rows are consecutive,
    one a seat): the index of the first seat's row and of the second's."""
    first, second = [], []
    k = 0
    while k < len(rows):
        players = int(rows[k, 1])
        for i in range(players):
            for j in range(i + 1, players):
                first.append(k + i)
                second.append(k + j)
        k += players
    return np.array(first), np.array(second)


def cmd_fit(a: argparse.Namespace) -> None:
    from scipy.optimize import lsq_linear  # the "rating" extra

    from sneferu_cli.games.akropolis.heuristic import WEIGHTS

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
    free = np.array([name.startswith("left") for name in FEATURES])
    low = np.where(free, -np.inf, 0.0)
    one, two = pairs(rows)
    dx, dy = x[one] - x[two], target[one] - target[two]
    ptest = test[one]
    if a.margin:
        # What decides the ranks is the seats' differences, in which the clock cancels:
        # the city's weights fitted on every pair's margin, then the clock on the rest.
        city = lsq_linear(dx[~ptest][:, ~free], dy[~ptest], bounds=(0.0, np.inf)).x
        rest = target - x[:, ~free] @ city
        clock = np.linalg.lstsq(x[~test][:, free], rest[~test], rcond=None)[0]
        w = np.zeros(n)
        w[~free], w[free] = city, clock
    else:
        w = lsq_linear(x[~test], target[~test], bounds=(low, np.inf)).x
    shipped = np.array(WEIGHTS)

    def rmse(pred: np.ndarray) -> float:
        return float(np.sqrt(np.mean((pred[test] - target[test]) ** 2)))

    def margin(weights: np.ndarray, sel: np.ndarray | None = None) -> float:
        pick = ptest if sel is None else ptest & sel
        return float(np.sqrt(np.mean((dx[pick] @ weights - dy[pick]) ** 2)))

    print(f"{len(rows)} rows, {len(set(ids.tolist()))} games; held out {int(test.sum())} rows")
    print(f"error of the final score (rmse, held out): fitted {rmse(x @ w):.2f}, shipped "
          f"{rmse(x @ shipped):.2f}, plain {rmse(extra):.2f}, score now alone "
          f"{rmse(np.zeros_like(target)):.2f}")
    print(f"error of the final margin of two seats (rmse, held out): fitted {margin(w):.2f}, "
          f"shipped {margin(shipped):.2f}, plain "
          f"{float(np.sqrt(np.mean(((extra[one] - extra[two]) - dy)[ptest] ** 2))):.2f}")
    for players in sorted(set(rows[:, 1].tolist())):
        sel = test & (rows[:, 1] == players)
        err = float(np.sqrt(np.mean(((x @ w)[sel] - target[sel]) ** 2)))
        print(f"  {int(players)} seats: fitted {err:.2f}; margin: fitted "
              f"{margin(w, rows[one, 1] == players):.2f}, shipped "
              f"{margin(shipped, rows[one, 1] == players):.2f}")
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
    duel = _duel()
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
    q.add_argument("--engines", nargs="+", default=[])
    q.set_defaults(run=cmd_play)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--margin", action="store_true")
    f.set_defaults(run=cmd_fit)
    d = sub.add_parser("duel")
    d.add_argument("rest", nargs=argparse.REMAINDER)
    d.set_defaults(run=cmd_duel)
    a = p.parse_args()
    a.run(a)


if __name__ == "__main__":
    main()
