"""Which sneferu_cli the tests run: the installed build when it is this tree's, else the tree.

``python3 -m pytest`` from the repository root would put the root on ``sys.path`` and so
import the source tree, pure Python, whatever is installed. Here the tests pick instead:

- by default, the build ``pip install .`` installed, when there is one outside the tree and
  its Python files are this tree's (so a test never runs code older than the tree); the
  rules core is then compiled with mypyc when the install could compile it. Otherwise
  (nothing installed, an editable install, or an install of other sources) the source tree.
  The session's header says which, and why.
- ``SNEFERU_EXPECT_COMPILED=1`` (set by .ci/run): the installed build, whose rules core
  ``pip install .`` compiled with mypyc; the session stops at once otherwise.
- ``SNEFERU_EXPECT_COMPILED=0``: the session stops unless the rules core is pure Python.
- ``SNEFERU_TEST_TREE=1``: the source tree, whatever is installed.

To run the installed build, the root is taken off ``sys.path``; in the child processes
``PYTHONSAFEPATH=1`` keeps it off and ``PYTHONPATH`` gives the scripts in tests/ their
helpers. To run the tree, ``PYTHONPATH`` puts it first in the child processes too.

The tests run in one process per core (pytest-xdist, ``-n auto --dist loadscope`` in
pyproject.toml; ``-n 0`` runs them in this one), a module's tests in one process, so that
a module-scoped fixture (the README's commands, a Dask cluster, games played once) is
built once. Each process imports the build this module chose (the environment it sets
is inherited).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPECT = os.environ.get("SNEFERU_EXPECT_COMPILED", "")


def _installed() -> Path | None:
    """The folder of a sneferu_cli importable without the source tree, or None."""
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != ROOT]
    try:
        spec = importlib.util.find_spec("sneferu_cli")
    finally:
        sys.path[:] = saved
    if spec is None or not spec.origin:
        return None
    where = Path(spec.origin).resolve().parent
    return None if where == ROOT / "sneferu_cli" else where


def _differences(installed: Path) -> list[str]:
    """The Python files of the tree's sneferu_cli that the installed one lacks or has
    otherwise."""
    tree = ROOT / "sneferu_cli"
    return [p.relative_to(tree).as_posix() for p in sorted(tree.rglob("*.py"))
            if not (installed / p.relative_to(tree)).is_file()
            or (installed / p.relative_to(tree)).read_bytes() != p.read_bytes()]


def _choose() -> tuple[bool, str]:
    """(run the installed build?, why), from the environment and what is installed."""
    if EXPECT == "1":
        return True, "SNEFERU_EXPECT_COMPILED=1"
    if EXPECT == "0" or os.environ.get("SNEFERU_TEST_TREE") == "1":
        return False, "asked for by the environment"
    if os.environ.get("SNEFERU_TESTS_CHOSE"):  # a test process of a session that chose
        return os.environ["SNEFERU_TESTS_CHOSE"] == "installed", "as the session chose"
    installed = _installed()
    if installed is None:
        return False, "no installed build outside the tree (an editable install or none)"
    differ = _differences(installed)
    if differ:
        return False, (f"the build installed at {installed} is not this tree's "
                       f"({len(differ)} files differ, first {differ[0]}); "
                       "`pip install .` again to test it")
    return True, "the installed build, whose files are this tree's"


INSTALLED, WHY = _choose()
os.environ["SNEFERU_TESTS_CHOSE"] = "installed" if INSTALLED else "tree"
# Child processes import the same: PYTHONPATH gives them the tests' helpers and, for the
# source tree, the tree (ahead of an installed build).
_PATHS = [str(ROOT / "tests")] if INSTALLED else [str(ROOT), str(ROOT / "tests")]
if INSTALLED:
    sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != ROOT]
    os.environ["PYTHONSAFEPATH"] = "1"
if not set(_PATHS) <= set(os.environ.get("PYTHONPATH", "").split(os.pathsep)):
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [*_PATHS, *filter(None, [os.environ.get("PYTHONPATH")])])


# The modules that take longest, started first: with one module's tests in one process
# (--dist loadscope), a long module started last would leave the other cores idle at the end.
LONGEST = ("test_readme.py", "test_rl.py", "test_games.py", "test_replay_html.py",
           "test_position_fast.py", "test_legal_turns.py", "test_properties.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONGEST.index(name) if name in LONGEST else len(LONGEST)
    items.sort(key=rank)


def pytest_report_header(config: pytest.Config) -> str:
    import sneferu_cli
    from sneferu_cli.games.sneferu.bench import core_build

    where = Path(sneferu_cli.__file__ or ".").resolve().parent
    return f"sneferu_cli: {where}, rules core {core_build()} ({WHY})"


def pytest_configure(config: pytest.Config) -> None:
    if EXPECT not in ("0", "1"):
        return
    try:
        import sneferu_cli
        from sneferu_cli.games.sneferu.bench import core_build
    except ImportError as e:
        pytest.exit(f"SNEFERU_EXPECT_COMPILED={EXPECT}: cannot import sneferu_cli ({e})",
                    returncode=4)
    build = core_build()
    where = Path(sneferu_cli.__file__ or ".").resolve().parent
    wanted = "compiled (mypyc)" if EXPECT == "1" else "pure Python"
    if build != wanted or (EXPECT == "1" and where == ROOT / "sneferu_cli"):
        pytest.exit(f"SNEFERU_EXPECT_COMPILED={EXPECT}: the tests would run sneferu_cli "
                    f"from {where} with the rules core {build}, not an installed build with "
                    f"the rules core {wanted}", returncode=4)
