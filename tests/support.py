"""Helpers shared by the tests (importable as ``support``; tests/ is on the path)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``sneferu ARGS`` with this interpreter (python -m sneferu_cli), capturing output."""
    return subprocess.run([sys.executable, "-m", "sneferu_cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)
