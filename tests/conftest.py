"""Which sneferu_cli the tests run: SNEFERU_EXPECT_COMPILED (set by .ci/run) pins it down.

``python3 -m pytest`` from the repository root puts the root on ``sys.path``, so by default
the tests (and the ``python -m sneferu_cli`` they start there) import the source tree,
pure Python, whatever is installed.

- ``SNEFERU_EXPECT_COMPILED=1``: the installed build, whose rules core ``pip install .``
  compiled with mypyc. The root is taken off ``sys.path`` here; in the child processes
  ``PYTHONSAFEPATH=1`` keeps it off and ``PYTHONPATH`` gives the scripts in tests/ their
  helpers. The session stops at once unless sneferu_cli comes from outside the source tree
  with the rules core compiled.
- ``SNEFERU_EXPECT_COMPILED=0``: the session stops unless the rules core is pure Python.

The tests run in one process per core (pytest-xdist, ``-n auto --dist loadscope`` in
pyproject.toml; ``-n 0`` runs them in this one), a module's tests in one process, so that
a module-scoped fixture (the README's commands, a Dask cluster, games played once) is
built once. Each process imports the build this module chose (the environment it sets
is inherited).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPECT = os.environ.get("SNEFERU_EXPECT_COMPILED", "")

if EXPECT == "1":
    sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != ROOT]
    os.environ["PYTHONSAFEPATH"] = "1"
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])])


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

