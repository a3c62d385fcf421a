#!/usr/bin/env python3
"""A test engine: ``with_test_games.py NAME`` runs the bundled engine NAME (``random``,
``greedy``, ``mcts`` or ``policy``: ``engines/NAME_player.py``, as its own main) with the
test-only games registered too (tests/nim_game.py, tests/sealed_game.py,
tests/sealed_rl_game.py and every game of tests/games/), so that it declares and plays
them (``feature games sneferu imhotep ... nim sealed sealed-rl tricks``).
``with_test_games.py sneferu ARGS`` runs the command line ``sneferu ARGS`` with them
registered."""

import runpy
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

import games  # noqa: E402
import nim_game  # noqa: E402
import sealed_game  # noqa: E402
import sealed_rl_game  # noqa: E402

nim_game.register()
sealed_game.register()
sealed_rl_game.register()
games.register_all()

if __name__ == "__main__":
    name = sys.argv.pop(1)
    if name == "sneferu":
        runpy.run_module("sneferu_cli", run_name="__main__", alter_sys=True)
    else:
        del sys.argv[1:]
        runpy.run_path(str(TESTS.parent / "engines" / f"{name}_player.py"), run_name="__main__")
