#!/usr/bin/env python3
"""Random 4-player games through the game interface, interleaved across installed builds.

    python scripts/interface_compare.py GAME GAMES ROUNDS VENV [VENV...]

Each round runs, for each VENV in turn, GAMES random games of GAME (``random.Random(1)``;
the loop of issue 19: ``new_game``, ``sample_outcome``/``apply_outcome``, ``legal_moves``,
``apply_listed_move``) in a fresh process of that venv's Python, started in the system's
temporary folder with PYTHONPATH unset so that the build installed there is what runs, and
prints its games per second (wall clock, the process's start-up left out). The games are
played by ``sneferu_cli.bench.play_random_moves``, the loop ``sneferu bench`` times (the
same function in the builds before issue 19). Ends with the best round of each VENV and
its ratio to the first. For builds before and after a change: ``pip install`` each into its
own venv (compiled with mypyc where a C compiler is there), then e.g.
``taskset -c 1 python scripts/interface_compare.py sneferu 1000 3 OLD NEW``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

CHILD = r"""
import random, sys, time
from sneferu_cli.bench import play_random_moves
from sneferu_cli.game import get_game
game = get_game(sys.argv[1])
games = int(sys.argv[2])
rng = random.Random(1)
t0 = time.perf_counter()
for _ in range(games):
    play_random_moves(game, game.new_game(4), rng)
print(games / (time.perf_counter() - t0))
"""


def main(argv: list[str]) -> None:
    if len(argv) < 4:
        sys.exit(__doc__)
    game, games, rounds, venvs = argv[0], argv[1], int(argv[2]), argv[3:]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    best = dict.fromkeys(venvs, 0.0)
    for r in range(rounds):
        for venv in venvs:
            out = subprocess.run([os.path.join(venv, "bin", "python"), "-c", CHILD, game, games],
                                 cwd=tempfile.gettempdir(), env=env, capture_output=True,
                                 text=True, check=True).stdout
            best[venv] = max(best[venv], float(out))
            print(f"round {r + 1} {venv}: {float(out):,.0f} games/s", flush=True)
    for venv in venvs:
        print(f"best {venv}: {best[venv]:,.0f} games/s "
              f"({best[venv] / best[venvs[0]]:.2f}x {venvs[0]})")


if __name__ == "__main__":
    main(sys.argv[1:])
