#!/usr/bin/env python3
"""Instructions a random 4-player game takes through the game interface, in each of
several installed builds: a count that does not move with the machine's load.

    python scripts/instructions_compare.py GAME GAMES VENV [VENV...]

For each VENV, runs the loop ``sneferu bench`` times (``sneferu_cli.bench.
play_random_moves``, ``random.Random(1)``) under ``valgrind --tool=callgrind`` in a fresh
process of that venv's Python, once with GAMES games and once with none (the start-up and
imports), and prints the difference divided by GAMES, with its ratio to the first VENV.
Needs valgrind (Debian's ``valgrind``). Wall-clock figures on a machine shared with other
jobs can swing by more than the change being measured; these counts repeat exactly.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

CHILD = r"""
import random, sys
from sneferu_cli.bench import play_random_moves
from sneferu_cli.game import get_game
game = get_game(sys.argv[1])
games = int(sys.argv[2])
players = 4 if 4 in game.players else max(game.players)
rng = random.Random(1)
play_random_moves(game, game.new_game(players), rng)  # tables and parsers built first
for _ in range(games):
    play_random_moves(game, game.new_game(players), rng)
"""


def instructions(venv: str, game: str, games: int) -> int:
    """The instructions callgrind collects from ``games`` random games in ``venv``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          os.path.join(venv, "bin", "python"), "-c", CHILD, game,
                          str(games)],
                         cwd=tempfile.gettempdir(), env=env, capture_output=True, text=True,
                         check=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        sys.exit(f"instructions_compare: no count from callgrind in {venv}")
    return int(found.group(1))


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.exit(__doc__)
    game, games, venvs = argv[0], int(argv[1]), argv[2:]
    first = 0.0
    for venv in venvs:
        per_game = (instructions(venv, game, games) - instructions(venv, game, 0)) / games
        first = first or per_game
        print(f"{venv}: {per_game:,.0f} instructions a game ({per_game / first:.3f}x "
              f"{venvs[0]})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
