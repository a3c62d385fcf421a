"""The start-up cost of each sandbox level (SPEC.md 7.10), per engine.

    python scripts/sandbox_overhead.py [--rounds 40] [--engine tiny|random] [--seed 1]

Starts one engine again and again at every level this machine can enforce (none, limits,
bwrap, cgroup), the levels interleaved in a new random order each round so that a change
of the machine's load falls on all of them alike, and times the start (from starting the
process to its ``sneferuok``) and the stop (``quit``, the process and its cgroups gone).
Prints the median and the quartiles of each in ms, and the median start as a ratio to
``none`` and as milliseconds more. ``tiny`` is a handshake-only Python engine started with
``-S`` (so the figures are mostly the sandbox's); ``random`` is the bundled engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.sandbox import LEVELS, Sandbox, SandboxError

TINY = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "sneferu":
        print("id name tiny\\nsneferuok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "quit":
        break
"""


def quartiles(values: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--engine", choices=["tiny", "random"], default="tiny")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    argv = ([sys.executable, "-S", "-c", TINY] if args.engine == "tiny"
            else engine_command("random"))
    levels = []
    for level in LEVELS:
        try:
            Sandbox.parse(level).require()
            levels.append(level)
        except SandboxError as e:
            print(f"skipped: {e}")
    starts: dict[str, list[float]] = {level: [] for level in levels}
    stops: dict[str, list[float]] = {level: [] for level in levels}
    rng = random.Random(args.seed)
    for _ in range(args.rounds):
        order = list(levels)
        rng.shuffle(order)
        for level in order:
            engine = Engine(argv, sandbox=Sandbox.parse(level))
            t0 = time.perf_counter()
            Engine.start_all([engine])
            t1 = time.perf_counter()
            if engine.fault is not None:
                sys.exit(f"{level}: {engine.fault}")
            engine.quit()
            t2 = time.perf_counter()
            starts[level].append((t1 - t0) * 1000)
            stops[level].append((t2 - t1) * 1000)
    base = statistics.median(starts["none"])
    print(f"engine {args.engine}, {args.rounds} rounds, levels interleaved")
    print(f"{'level':8} {'start ms (q1 median q3)':>26} {'vs none':>8} {'more ms':>8} "
          f"{'stop ms (median)':>17}")
    for level in levels:
        q1, med, q3 = quartiles(starts[level])
        print(f"{level:8} {q1:8.1f} {med:8.1f} {q3:8.1f} {med / base:8.2f} "
              f"{med - base:8.1f} {statistics.median(stops[level]):17.1f}")


if __name__ == "__main__":
    main()
