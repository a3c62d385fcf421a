"""Which sneferu_cli the tests run: SNEFERU_EXPECT_COMPILED (set by .ci/run) pins it down.

``python3 -m pytest`` puts the current folder on ``sys.path``: from the repository root the
tests (and the ``python -m sneferu_cli`` they start) import the source tree, pure Python,
whatever is installed; from ``tests/`` they import the installed build.

- ``SNEFERU_EXPECT_COMPILED=1``: the session stops at once unless sneferu_cli comes from
  outside the source tree with the rules core compiled by mypyc (``pip install .``, then
  ``cd tests && python3 -m pytest``).
- ``SNEFERU_EXPECT_COMPILED=0``: the session stops unless the rules core is pure Python.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPECT = os.environ.get("SNEFERU_EXPECT_COMPILED", "")


def pytest_configure(config: pytest.Config) -> None:
    if EXPECT not in ("0", "1"):
        return
    try:
        import sneferu_cli
        from sneferu_cli.rules import core_build
    except ImportError as e:
        pytest.exit(f"SNEFERU_EXPECT_COMPILED={EXPECT}: cannot import sneferu_cli ({e})",
                    returncode=4)
    build = core_build()
    where = Path(sneferu_cli.__file__ or ".").resolve().parent
    wanted = "compiled (mypyc)" if EXPECT == "1" else "pure Python"
    if build != wanted or (EXPECT == "1" and where.is_relative_to(ROOT)):
        pytest.exit(f"SNEFERU_EXPECT_COMPILED={EXPECT}: the tests would run sneferu_cli "
                    f"from {where} with the rules core {build}, not an installed build with "
                    f"the rules core {wanted}", returncode=4)
