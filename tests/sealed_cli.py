"""``sneferu`` with the test-only games registered (tests/nim_game.py, tests/sealed_game.py):
``python tests/sealed_cli.py ARGS`` runs the command line as ``sneferu ARGS`` does, for the
tests that drive the real command line with a game only the tests know."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import nim_game
import sealed_game

nim_game.register()
sealed_game.register()

from sneferu_cli.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
