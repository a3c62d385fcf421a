"""The wheel build (hatch_build.py): without a C compiler the package is pure Python and
the build says so in one line. (With one, CI installs the compiled build and
tests/conftest.py checks the tests run it: SNEFERU_EXPECT_COMPILED.)"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

from support import ROOT


def test_without_a_compiler_the_wheel_is_pure_python_and_says_so(tmp_path):
    env = {**os.environ, "CC": "false"}  # a C compiler that always fails
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v",
                        "-w", str(tmp_path)], env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    notes = [line.strip() for line in (r.stdout + r.stderr).splitlines()
             if "sneferu build:" in line]
    assert len(notes) == 1 and "the rules core stays pure Python" in notes[0], notes
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "sneferu_cli/games/sneferu/state.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
