"""Run one measurement in fresh processes of several installed builds, interleaved: the
part that ``interface_compare.py`` and ``search_compare.py`` share."""

from __future__ import annotations

import os
import subprocess
import tempfile


def interleave(child: str, args: list[str], venvs: list[str], rounds: int, unit: str) -> None:
    """Run ``child`` (Python source) with ``args`` ``rounds`` times in each of ``venvs`` in
    turn, each in a fresh process of that venv's Python, started in the system's temporary
    folder with PYTHONPATH unset so that the build installed there is what runs. ``child``
    prints a rate, then optionally more words (shown with the round). Prints each round,
    then the best of each venv and its ratio to the first."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    best = dict.fromkeys(venvs, 0.0)
    for r in range(rounds):
        for venv in venvs:
            words = subprocess.run([os.path.join(venv, "bin", "python"), "-c", child, *args],
                                   cwd=tempfile.gettempdir(), env=env, capture_output=True,
                                   text=True, check=True).stdout.split()
            rate = float(words[0])
            best[venv] = max(best[venv], rate)
            note = f", {' '.join(words[1:])}" if words[1:] else ""
            print(f"round {r + 1} {venv}: {rate:,.0f} {unit}{note}", flush=True)
    for venv in venvs:
        print(f"best {venv}: {best[venv]:,.0f} {unit} "
              f"({best[venv] / best[venvs[0]]:.2f}x {venvs[0]})")
