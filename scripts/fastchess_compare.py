#!/usr/bin/env python3
"""A tournament's own CPU per turn beside fastchess's own CPU per ply, on this machine.

    python scripts/fastchess_compare.py [--games 200] [--repeat 3]
                                        [--fastchess PATH] [--stockfish PATH]

Runs, one after the other and ``--repeat`` times over (the machine's load changes):

- fastchess (C++) playing ``--games`` games of two Stockfish at ``go nodes 1``,
  ``-concurrency 1`` (``-each proto=uci tc=inf nodes=1``), its PGN written;
- ``sneferu tournament -j 1`` of four instant engines (``engines/instant.c``) at one
  Sneferu table, as many games;

each measured the same way (``sneferu_cli.tournament.bench.own_cpu``: the CPU of every
process of its tree read from /proc every 10 ms), engines left out: fastchess's process,
and sneferu's coordinator and worker. Prints the best and the median of each per ply
(fastchess: the PGNs' PlyCount) and per turn (sneferu: the records' turns), and the ratio
of the best. A benchmark, not a test: it takes a minute or so.

fastchess and Stockfish are not dependencies of sneferu. To get them (Debian, Ubuntu):

    apt-get install stockfish            # /usr/games/stockfish
    git clone https://github.com/Disservin/fastchess && make -C fastchess -j2
                                         # ./fastchess/fastchess

Run from the repository (or with sneferu installed): ``PYTHONPATH=. python scripts/...``.
For figures a user would see, let Python keep its compiled bytecode
(``PYTHONDONTWRITEBYTECODE`` unset): else every run compiles every module again.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from sneferu_cli.arbiter.bench import instant_engine
from sneferu_cli.tournament.bench import own_cpu, tournament_cpu

HOW = ("fastchess and Stockfish are not dependencies of sneferu; to get them: "
       "apt-get install stockfish; git clone https://github.com/Disservin/fastchess && "
       "make -C fastchess -j2 (then --fastchess fastchess/fastchess)")


def fastchess_per_ply(fastchess: str, stockfish: str, games: int) -> tuple[float, int]:
    """fastchess's own CPU per ply (µs) of one run, and its plies."""
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "games.pgn"
        argv = [fastchess, "-engine", f"cmd={stockfish}", "name=sf1",
                "-engine", f"cmd={stockfish}", "name=sf2",
                "-each", "proto=uci", "tc=inf", "nodes=1",
                "-rounds", str(max(1, games // 2)), "-games", "2", "-concurrency", "1",
                "-pgnout", f"file={pgn}"]
        tree = own_cpu(argv, cwd=tmp)
        if tree.code != 0:
            sys.exit(f"fastchess failed (exit code {tree.code}): {' '.join(argv)}")
        plies = sum(map(int, re.findall(r'\[PlyCount "(\d+)"\]', pgn.read_text())))
    if not plies:
        sys.exit(f"no [PlyCount] in fastchess's PGN ({' '.join(argv)})")
    return tree.processes[tree.root][1] / plies * 1e6, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fastchess", default=shutil.which("fastchess") or "fastchess")
    parser.add_argument("--stockfish", default=shutil.which("stockfish")
                        or "/usr/games/stockfish")
    args = parser.parse_args()
    for name in ("fastchess", "stockfish"):
        path = getattr(args, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit(f"no {name} at {path!r}. {HOW}")
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        engine, which = instant_engine(Path(tmp))
        for _ in range(args.repeat):
            per_ply, plies = fastchess_per_ply(args.fastchess, args.stockfish, args.games)
            theirs.append(per_ply)
            m = tournament_cpu(engine, game="sneferu", seats=4, deals=max(1, args.games // 4),
                               seed=1)
            ours.append(m.per_turn)
            print(f"fastchess {per_ply:6.1f} µs per ply ({plies} plies);  sneferu tournament "
                  f"{m.per_turn:6.1f} µs per turn ({m.turns} turns; coordinator "
                  f"{m.per_turn - m.worker:.1f}, worker {m.worker:.1f})", flush=True)
    print(f"fastchess, {args.games} games of two Stockfish at nodes 1, -concurrency 1: "
          f"best {min(theirs):.1f} µs, median {statistics.median(theirs):.1f} µs of its own "
          "CPU per ply")
    print(f"sneferu tournament -j 1, {args.games} games of four instant engines ({which}): "
          f"best {min(ours):.1f} µs, median {statistics.median(ours):.1f} µs of its own CPU "
          "per turn")
    print(f"ratio of the best: {min(ours) / min(theirs):.2f}x fastchess")


if __name__ == "__main__":
    main()
