"""The engines that come with sneferu, and turning an engine argument into a command.

The engines are the files of ``engines/`` (:func:`sneferu_cli.shipped.shipped_dir`).
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

from ..shipped import shipped_dir

__all__ = ["BUNDLED", "MAX_COMMAND", "check_program", "engine_command", "engines_dir",
           "split_command"]

BUNDLED = {
    "random": ("python", "random_player.py", "a legal move at random"),
    "greedy": ("python", "greedy_player.py", "the best result one turn ahead"),
    "mcts": ("python", "mcts_player.py", "Monte Carlo tree search, by time or iterations"),
    "js-random": ("node", "random_player.js", "a legal move at random, in JavaScript"),
    "policy": ("python", "policy_player.py",
               "a policy function's action id (option Policy=module:function, SPEC 16.4)"),
}
"""Bundled engine name: (interpreter, file in engines/, what it plays)."""

MAX_COMMAND = 65536
"""The longest engine command line read, in characters (a longer one is refused at once)."""


def engines_dir() -> Path:
    """The folder holding the bundled engines."""
    return shipped_dir("engines", "engines")


def engine_command(engine: str, cwd: str | Path | None = None) -> list[str]:
    """The argv for an engine argument: a bundled engine's name, or a command line split
    like a shell does (no shell runs it), its program written as a path found in ``cwd``
    (where it will run; default the current folder). ValueError when it cannot be used."""
    if engine in BUNDLED:
        interpreter, file, _ = BUNDLED[engine]
        path = str(engines_dir() / file)
        if interpreter == "python":
            return [sys.executable, path]
        node = shutil.which("node")
        if node is None:
            raise ValueError(f"engine {engine!r} needs Node.js ('node' is not on the PATH)")
        return [node, path]
    argv = split_command(engine, "engine")
    if not argv:
        raise ValueError("an engine command is empty")
    check_program(argv, cwd=cwd, what=f"engine {engine!r}")
    return argv


def split_command(text: str, what: str) -> list[str]:
    """``text`` split into words as a POSIX shell would (quotes, backslashes); ValueError
    naming ``what`` when it is longer than :data:`MAX_COMMAND` or its quotes do not close."""
    if len(text) > MAX_COMMAND:
        raise ValueError(f"{what}: a command line of {len(text)} characters (at most "
                         f"{MAX_COMMAND})")
    try:
        return shlex.split(text)
    except ValueError as e:
        shown = text if len(text) <= 80 else text[:80] + "..."
        raise ValueError(f"{what} {shown!r}: {e}") from None


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
