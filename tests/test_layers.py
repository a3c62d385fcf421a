"""The layers above the games import only the game interface (issue 11, SPEC.md section 12).

Every module of ``sneferu_cli`` outside ``sneferu_cli/games/`` is read with ``ast``: its
imports (and the imports in its docstring examples) may name a game's folder
(``sneferu_cli.games.sneferu``, ``sneferu_cli.games.imhotep``) only where SPEC 12 lists a
Sneferu-only path. ``SNEFERU_ONLY`` mirrors that list: a module that starts importing a
game's folder, or a listed one that stops, fails the test until both are updated.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import sneferu_cli

PACKAGE = Path(sneferu_cli.__file__).parent
GAME_FOLDERS = ("sneferu_cli.games.sneferu", "sneferu_cli.games.imhotep")

SNEFERU_ONLY: dict[str, set[str]] = {
    # builders and the solo score in records, the arbiter and tournament headers
    "arbiter/game.py": {"sneferu_cli.games.sneferu.record"},
    "record/replay.py": {"sneferu_cli.games.sneferu.record"},
    "tournament/schedule.py": {"sneferu_cli.games.sneferu.record"},
    # sneferu bench (single steps) and sneferu bench --perft
    "cli/bench.py": {"sneferu_cli.games.sneferu.bench"},
    # the Sneferu search (section 11.1)
    "search/mcts.py": {"sneferu_cli.games.sneferu.notation.move",
                       "sneferu_cli.games.sneferu.rules",
                       "sneferu_cli.games.sneferu.rules.chance",
                       "sneferu_cli.games.sneferu.rules.components",
                       "sneferu_cli.games.sneferu.rules.state",
                       "sneferu_cli.games.sneferu.rules.steps"},
    # sneferu serve's steps and Sneferu state document (section 10.10)
    "serve/sneferu_steps.py": {"sneferu_cli.games.sneferu.rules",
                               "sneferu_cli.games.sneferu.notation.move",
                               "sneferu_cli.games.sneferu.notation.position",
                               "sneferu_cli.games.sneferu.rules.components",
                               "sneferu_cli.games.sneferu.rules.state",
                               "sneferu_cli.games.sneferu.rules.steps"},
}
"""Module (path under ``sneferu_cli/``) -> the game-folder modules it may import."""

_EXAMPLE = re.compile(r"^\s*>>> ((?:from|import) .*)$", re.MULTILINE)


def _absolute(module: str | None, level: int, package: str) -> str:
    """The absolute name of ``from <level dots><module> import ...`` inside ``package``."""
    if level == 0:
        return module or ""
    parts = package.split(".")
    base = parts[:len(parts) - level + 1]
    return ".".join([*base, module] if module else base)


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, in its code and in its docstring examples (absolute
    names; ``from X import name`` counts ``X.name`` when that is a module, else ``X``)."""
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    examples = [ast.parse(line) for s in ast.walk(tree)
                if isinstance(s, ast.Constant) and isinstance(s.value, str)
                for line in _EXAMPLE.findall(s.value)]
    names: set[str] = set()
    for t in (tree, *examples):
        for node in ast.walk(t):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node.module, node.level, package)
                names |= {f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base
                          for a in node.names}
    return names


def game_imports(path: Path) -> set[str]:
    """The modules of a game's folder that ``path`` imports."""
    return {n for n in imported(path)
            if any(n == f or n.startswith(f + ".") for f in GAME_FOLDERS)}


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module or package of the package (source, or compiled by mypyc
    in an installed build: an extension module with no .py beside it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_only_the_listed_sneferu_only_paths_import_a_games_folder():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("games/", "engines/")):  # the games, and the bundled bots
            continue                                  # (engines/ shipped inside a build)
        names = game_imports(path)
        if names:
            found[rel] = names
    assert found == SNEFERU_ONLY


def test_the_reader_sees_relative_absolute_and_example_imports():
    path = PACKAGE / "cli" / "bench.py"
    assert "sneferu_cli.games.sneferu.bench" in imported(path)
    assert "sneferu_cli.game" in imported(PACKAGE / "cli" / "options.py")
    assert "sneferu_cli.games.sneferu.rules" in imported(PACKAGE / "search" / "mcts.py")
