#!/usr/bin/env python3
"""Strength of search settings, in process: duplicate deals between bundled engines at a
fixed iteration budget (load-proof), for tuning the generic search.

    python scripts/duel.py GAME SEATS DEALS ENGINE ENGINE [ENGINE...] [-j JOBS] [--seed S]

An ENGINE is ``greedy``, ``random`` or ``mcts`` with options after a colon, e.g.
``mcts:Iterations=400,Horizon=1`` (the engine's own option names, SPEC 11.2), and
``Estimate=NAME``: the engine values positions with the function NAME of the game's
``heuristic`` module instead of ``Game.evaluate`` (``greedy:Estimate=route_values``). With SEATS
seats the first ENGINE plays against the others (the last repeated to fill the seats);
every deal is played in every rotation of the seats, chance drawn from the deal's own
generator. Prints the first ENGINE's share of first places and its mean rank, each with
a 95% interval, and the mean seconds a move of each engine.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from sneferu_cli.game import get_game, seat_state
from sneferu_cli.protocol.messages import Go, NewGame
from sneferu_cli.shipped import shipped_dir

PLAYERS = {"greedy": ("greedy_player.py", "GreedyPlayer"),
           "mcts": ("mcts_player.py", "MctsPlayer"),
           "random": ("random_player.py", "RandomPlayer")}


class _Estimated:
    """A game whose estimate is another function of its ``heuristic`` module."""

    def __init__(self, game: Any, function: str) -> None:
        package = type(game).__module__  # the game's package (its __init__)
        self._game = game
        self.evaluate = getattr(importlib.import_module(f"{package}.heuristic"), function)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def engine(spec: str, seed: int) -> Any:
    name, _, options = spec.partition(":")
    file, cls = PLAYERS[name]
    path = Path(shipped_dir("engines", "engines")) / file
    mod_spec = importlib.util.spec_from_file_location(file[:-3], path)
    assert mod_spec is not None and mod_spec.loader is not None
    module = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(module)
    bot = getattr(module, cls)()
    bot.set_option("Seed", str(seed))
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        if key == "Estimate":
            bot.estimate = value
        else:
            bot.set_option(key, value)
    return bot


Job = tuple[str, int, int, int, list[str], int]


def play(job: Job) -> tuple[list[int], list[float], list[int]]:
    """One game: the ranks of the engines (by their index in the list), their seconds and
    decisions."""
    game_name, players, deal, shift, specs, seed = job
    game = get_game(game_name)
    seats = [(i + shift) % players for i in range(players)]  # seat -> engine index
    bots = [engine(specs[min(e, len(specs) - 1)], seed * 1000 + deal * 10 + s)
            for s, e in enumerate(seats)]
    for s, bot in enumerate(bots):
        bot.new_game(NewGame(players, s + 1, "standard", "standard", game_name))
        if getattr(bot, "estimate", None):
            bot.game = _Estimated(bot.game, bot.estimate)
    chance = random.Random(f"{seed}/{deal}")
    state = game.new_game(players)
    spent = [0.0] * players
    moves = [0] * players
    go = Go(movetime=10**9, iterations=int(1e9))
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, chance))
            continue
        chosen = []
        for s in game.deciding_seats(state):
            view = seat_state(game, state, s)
            t = time.process_time()
            bot = bots[s]
            iterations = getattr(bot, "iterations", 0)
            chosen.append((s, bot.choose(view, Go(movetime=10**9, iterations=iterations)
                                         if iterations else go)))
            spent[seats[s]] += time.process_time() - t
            moves[seats[s]] += 1
        for s, move in chosen:
            game.apply_move(state, move, s)
    ranks = [0] * players
    for standing in game.standings(state):
        ranks[seats[standing.seat - 1]] = standing.rank
    return ranks, spent, moves


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game")
    p.add_argument("seats", type=int)
    p.add_argument("deals", type=int)
    p.add_argument("engines", nargs="+")
    p.add_argument("-j", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    for spec in a.engines:
        for item in spec.partition(":")[2].split(","):
            key, _, value = item.partition("=")
            package = type(get_game(a.game)).__module__
            if key == "Estimate" and not hasattr(
                    importlib.import_module(f"{package}.heuristic"), value):
                p.error(f"{spec}: {package}.heuristic has no function {value!r}")
    jobs = [(a.game, a.seats, d, shift, a.engines, a.seed)
            for d in range(a.deals) for shift in range(a.seats)]
    firsts, ranks = [], []
    spent = [0.0] * a.seats
    moves = [0] * a.seats
    with Pool(a.j) as pool:
        for r, t, m in pool.imap(play, jobs):
            firsts.append(1.0 if r[0] == 1 else 0.0)
            ranks.append(float(r[0]))
            spent = [x + y for x, y in zip(spent, t, strict=True)]
            moves = [x + y for x, y in zip(moves, m, strict=True)]
            print(".", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = len(firsts)

    def interval(xs: list[float]) -> str:
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, n - 1))
        return f"{mean:.3f} ± {1.96 * sd / math.sqrt(n):.3f}"

    per_move = ", ".join(f"{1000 * s / max(1, k):.1f}" for s, k in zip(spent, moves, strict=True))
    print(f"{a.game} {a.seats} seats, {n} games: {a.engines[0]} firsts {interval(firsts)}, "
          f"mean rank {interval(ranks)}; ms a move (CPU) {per_move}")


if __name__ == "__main__":
    main()
