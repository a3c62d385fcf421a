#!/usr/bin/env python3
"""Fit the weights of Silver & Gold's estimate (games/silver_gold/heuristic.py) on played
games, by least squares, in process.

    python scripts/fit_silver_gold.py GAMES [--seats 2,3,4] [--policy route|values]
                                            [--epsilon E] [--seed S]

Plays GAMES games (seat counts in turn) in which every seat plays greedily by an estimate
(``route``: points now and the marked share of each card, ``route_values``; ``values``: the
shipped estimate), a random legal move with probability E. Before every marking it records
each seat's features (``heuristic.features``) and the stage of the game; at the end each
seat's final score. Per stage it fits the weights that best predict the points still to
come (final score less the points now) from the features: ``share`` and ``claims`` (points
expected already) weighted 1, the constant free, the others in 0..1 (a share of the points
still on the routes; one above 1 would make collecting them lose value), and prints them as the
``WEIGHTS`` table, with each stage's mean squared error against that of ``route_values``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from sneferu_cli.game import get_game
from sneferu_cli.games.silver_gold import heuristic
from sneferu_cli.games.silver_gold.state import MARKING, SilverGoldState
from sneferu_cli.search.generic import gain

Estimate = Callable[[SilverGoldState], list[float]]


class _Valued:
    """The game, its positions valued by ``estimate`` (for :func:`gain`)."""

    def __init__(self, game: Any, estimate: Estimate) -> None:
        self.game = game
        self.evaluate = estimate

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def choose(game: Any, state: SilverGoldState, seat: int, estimate: Estimate,
           epsilon: float, rng: random.Random) -> str:
    """A greedy move of ``seat`` by ``estimate`` (greedy's measure, :func:`gain`; ties at
    random), or with chance ``epsilon`` any legal move."""
    moves = state.legal_moves_of(seat)
    if rng.random() < epsilon:
        return rng.choice(moves)
    gains = [gain(_Valued(game, estimate), state, seat, move) for move in moves]
    top = max(gains)
    return rng.choice([m for m, g in zip(moves, gains, strict=True) if g > top - 1e-9])


def play(players: int, estimate: Estimate, epsilon: float, rng: random.Random
         ) -> list[tuple[int, list[float], float, float]]:
    """One game: per seat and marking, (stage, features, points then, final points)."""
    game = get_game("silver-gold")
    state: SilverGoldState = game.new_game(players)
    rows: list[tuple[int, int, list[float], float]] = []
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        if state.phase == MARKING:
            for s in state.deciding_seats():
                rows.append((s, heuristic.stage(state), heuristic.features(state, s),
                             float(state.points(s))))
        chosen = [(s, choose(game, state, s, estimate, epsilon, rng))
                  for s in game.deciding_seats(state)]
        for s, move in chosen:
            game.apply_move(state, move, s)
    final = [float(state.points(s)) for s in range(players)]
    return [(st, f, now, final[s]) for s, st, f, now in rows]


def fixed(w: np.ndarray, free: list[int]) -> list[int]:
    """The fitted weights held at a bound (every one not free but share and claims)."""
    return [i for i in range(len(w)) if i not in free and i not in (0, 4)]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", type=int)
    p.add_argument("--seats", default="2,3,4")
    p.add_argument("--policy", choices=("route", "values"), default="route")
    p.add_argument("--epsilon", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    seats = [int(x) for x in a.seats.split(",")]
    estimate = heuristic.route_values if a.policy == "route" else heuristic.values
    rows: list[tuple[int, list[float], float, float]] = []
    for i in range(a.games):
        rows += play(seats[i % len(seats)], estimate, a.epsilon, rng)
    table = []
    for st in range(len(heuristic.WEIGHTS)):
        part = [r for r in rows if r[0] == st]
        x = np.array([r[1] for r in part])
        y = np.array([r[3] - r[2] for r in part])
        # share and claims are expected points already: weight 1. The others are points
        # a seat may still collect (the gems, torch, skulls on its routes): each weight is
        # the share of them collected, fitted in 0..1 (a weight above 1 would make marking
        # a gem lose value); the constant is free.
        y = y - x[:, 0] - x[:, 4]
        w = np.ones(x.shape[1])
        free = [i for i in range(x.shape[1]) if i not in (0, 4)]
        while True:
            held = fixed(w, free)
            w[free], *_ = np.linalg.lstsq(x[:, free], y - x[:, held] @ w[held], rcond=None)
            out = [i for i in free if i != len(w) - 1 and not 0.0 <= w[i] <= 1.0]
            if not out:
                break
            for i in out:
                w[i] = min(1.0, max(0.0, w[i]))
                free.remove(i)
        y = y + x[:, 0] + x[:, 4]
        fitted = float(np.mean((x @ w - y) ** 2))
        share = float(np.mean((x[:, 0] + x[:, -1] * np.mean(y - x[:, 0]) - y) ** 2))
        print(f"# stage {st}: {len(part)} rows, mean squared error {fitted:.1f} "
              f"(share and a constant: {share:.1f})")
        table.append("    (" + ", ".join(f"{v:.3f}" for v in w) + "),")
    print("WEIGHTS = (  # " + ", ".join(heuristic.FEATURES))
    print("\n".join(table))
    print(")")


if __name__ == "__main__":
    main()
