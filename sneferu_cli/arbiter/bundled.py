"""The engines that come with sneferu, and turning an engine argument into a command.

The engines are the files of ``engines/`` (:func:`sneferu_cli.shipped.shipped_dir`).
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

from ..shipped import shipped_dir

__all__ = ["BUNDLED", "check_program", "engine_command", "engines_dir"]

BUNDLED = {
    "random": ("python", "random_player.py", "a legal move at random"),
    "greedy": ("python", "greedy_player.py", "the best result one turn ahead"),
    "mcts": ("python", "mcts_player.py", "Monte Carlo tree search, by time or iterations"),
    "js-random": ("node", "random_player.js", "a legal move at random, in JavaScript"),
}
"""Bundled engine name: (interpreter, file in engines/, what it plays)."""


def engines_dir() -> Path:
    """The folder holding the bundled engines."""
    return shipped_dir("engines", "engines")


def engine_command(engine: str) -> list[str]:
    """The argv for an engine argument: a bundled engine's name, or a command line split
    like a shell does (no shell runs it). ValueError when it cannot be used."""
    if engine in BUNDLED:
        interpreter, file, _ = BUNDLED[engine]
        path = str(engines_dir() / file)
        if interpreter == "python":
            return [sys.executable, path]
        node = shutil.which("node")
        if node is None:
            raise ValueError(f"engine {engine!r} needs Node.js ('node' is not on the PATH)")
        return [node, path]
    try:
        argv = shlex.split(engine)
    except ValueError as e:
        raise ValueError(f"engine {engine!r}: {e}") from None
    if not argv:
        raise ValueError("an engine command is empty")
    check_program(argv, what=f"engine {engine!r}")
    return argv


def check_program(argv: list[str], *, cwd: str | Path | None = None, what: str = "engine"
                  ) -> None:
    """ValueError when ``argv[0]`` cannot be run: a path (with ``/``, relative to ``cwd``)
    that is no file, or a name not on the PATH."""
    program = argv[0]
    path = Path(cwd or ".") / program
    if ("/" in program and not path.is_file()) or (
            "/" not in program and shutil.which(program) is None):
        names = ", ".join(BUNDLED)
        raise ValueError(f"{what}: no program {program!r} (bundled engines: {names})")
