"""The arbiter's cost per move with engines attached over loopback (SPEC.md 6.7) beside
pipe engines: four seats of the instant legal-move engine, playing Sneferu games through
the real game loop, as pipes, over TCP lines and over WebSocket (each remote seat the same
engine behind ``sneferu connect``), the three interleaved round after round.

    python scripts/remote_bench.py [--rounds 5] [--games 10] [--game sneferu]

Per move: the wall time (for a remote seat it holds the bridge's own relaying as well,
another process) and the arbiter's CPU (this process only: what the arbiter itself spends
on a move). The median of the rounds, and each remote figure as a ratio of the pipe's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from sneferu_cli.arbiter.bench import instant_engine, time_engines
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.remote import Listener, RemoteSeat
from sneferu_cli.game import get_game

SEATS = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--game", default="sneferu")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game(args.game)
    edition = game.standard_edition()
    tokens = {f"bench-seat-{i}": i for i in range(SEATS)}
    results: dict[str, list[tuple[float, float]]] = {"pipe": [], "tcp": [], "ws": []}
    with tempfile.TemporaryDirectory() as tmp, \
            Listener("127.0.0.1", 0, tokens, log=print) as listener:
        argv, which = instant_engine(Path(tmp))
        host, port = listener.address
        for _ in range(args.rounds):
            for kind in results:
                bridges = []
                if kind == "pipe":
                    engines = [Engine(argv, label=str(i)) for i in range(1, SEATS + 1)]
                else:
                    bridges = [subprocess.Popen(
                        [sys.executable, "-m", "sneferu_cli", "connect",
                         f"{kind}://{host}:{port}", "--token", token, "--once", "--", *argv])
                        for token in tokens]
                    engines = [Engine([], label=str(i + 1), latency=50,
                                      remote=RemoteSeat(listener.broker, i, 30))
                               for i in range(SEATS)]
                moves, wall, cpu = time_engines(engines, args.games, args.seed, None,
                                                edition, game)
                for b in bridges:
                    b.wait(30)
                results[kind].append((wall / moves * 1e6, cpu / moves * 1e6))
    print(f"{args.rounds} rounds of {args.games} {game.title} games at {SEATS} seats "
          f"each, interleaved; the engine: {which}")
    print(f"{'transport':<10} {'wall per move':>14} {'x pipe':>7} {'arbiter CPU':>12} "
          f"{'x pipe':>7} {'added CPU':>10}")
    base_wall = statistics.median(w for w, _ in results["pipe"])
    base_cpu = statistics.median(c for _, c in results["pipe"])
    for kind, rows in results.items():
        wall = statistics.median(w for w, _ in rows)
        cpu = statistics.median(c for _, c in rows)
        print(f"{kind:<10} {wall:>11.1f} µs {wall / base_wall:>7.2f} {cpu:>9.1f} µs "
              f"{cpu / base_cpu:>7.2f} {cpu - base_cpu:>7.1f} µs")


if __name__ == "__main__":
    main()
