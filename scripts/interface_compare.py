#!/usr/bin/env python3
"""Random 4-player games through the game interface, interleaved across installed builds.

    python scripts/interface_compare.py GAME GAMES ROUNDS VENV [VENV...]

Each round runs, for each VENV in turn, GAMES random games of GAME (``random.Random(1)``;
the loop of issue 19: ``new_game``, ``sample_outcome``/``apply_outcome``, ``legal_moves``,
``apply_move(..., listed=True)``) in a fresh process of that venv's Python, started in the system's
temporary folder with PYTHONPATH unset so that the build installed there is what runs, and
prints its games per second (wall clock, the process's start-up left out). The games are
played by ``sneferu_cli.bench.play_random_moves``, the loop ``sneferu bench`` times (the
same function in the builds before issue 19). Ends with the best round of each VENV and
its ratio to the first. For builds before and after a change: ``pip install`` each into its
own venv (compiled with mypyc where a C compiler is there), then e.g.
``taskset -c 1 python scripts/interface_compare.py sneferu 1000 3 OLD NEW``.
"""

from __future__ import annotations

import sys

from builds import interleave

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
    interleave(CHILD, argv[:2], argv[3:], int(argv[2]), "games/s")


if __name__ == "__main__":
    main(sys.argv[1:])
