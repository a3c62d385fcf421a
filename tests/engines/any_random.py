#!/usr/bin/env python3
"""A test engine: the bundled random engine with the test-only Nim game registered too,
declaring every game it then knows (``feature games sneferu imhotep nim``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nim_game

nim_game.register()

from sneferu_cli.game import game_names  # noqa: E402
from sneferu_cli.protocol.bot import run  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engines"))
from random_player import RandomPlayer  # noqa: E402

RandomPlayer.games = tuple(game_names())

if __name__ == "__main__":
    run(RandomPlayer())
