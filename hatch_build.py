"""Wheel build hook: compile the rules core with mypyc, or say once that it stays pure Python.

The Python source is the one truth: mypyc turns ``COMPILED`` (the hot rules modules) into
C extension modules placed next to the ``.py`` files in the wheel, and Python imports the
extension when there is one. With no C compiler or Python headers (or with
``SNEFERU_PURE_PYTHON=1``) the wheel is pure Python and this hook prints one line saying so.
Editable installs (``pip install -e``) always stay pure Python. Nothing is written into
the source tree: the generated C and the build files live in a temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = ("sneferu_cli/games/sneferu/rules/state.py",
            "sneferu_cli/games/sneferu/rules/pyramid.py",
            "sneferu_cli/games/sneferu/rules/chance.py")


class MypycBuildHook(BuildHookInterface):
    """Adds the mypyc-compiled rules core to a (non-editable) wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("SNEFERU_PURE_PYTHON"):
            note("SNEFERU_PURE_PYTHON is set: the rules core stays pure Python")
            return
        self._work = tempfile.mkdtemp(prefix="sneferu-mypyc-")
        try:
            built = compile_core(Path(self.root), Path(self._work))
        except Exception as e:  # no compiler, no headers, no mypyc: the pure build works
            reason = f"{type(e).__name__}: {' '.join(str(e).split())}"[:160]
            note(f"the rules core stays pure Python (mypyc build failed: {reason})")
            return
        for path, target in built:
            build_data["force_include"][str(path)] = target
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work:
            shutil.rmtree(work, ignore_errors=True)


def note(text: str) -> None:
    """The hook's one line about the build, on stderr."""
    print(f"sneferu build: {text}", file=sys.stderr, flush=True)


def compile_core(root: Path, work: Path) -> list[tuple[Path, str]]:
    """Compile ``COMPILED`` in ``work``; (built file, its path in the wheel) for each."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    lib, temp = work / "lib", work / "temp"
    old = os.getcwd()
    os.environ["MYPY_CACHE_DIR"] = str(work / "mypy-cache")
    output = io.StringIO()
    try:
        os.chdir(root)  # mypyc names the modules by their paths from here
        with contextlib.redirect_stdout(output):
            extensions = mypycify(list(COMPILED), opt_level="3", target_dir=str(work / "c"))
            dist = Distribution({"name": "sneferu-core", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(lib)
            command.build_temp = str(temp)
            command.ensure_finalized()
            command.run()
    except SystemExit as e:  # mypy's type errors end with SystemExit
        said = output.getvalue().strip().splitlines()
        raise RuntimeError(said[-1] if said else f"exit {e.code}") from None
    finally:
        os.chdir(old)
    built = [(p, p.relative_to(lib).as_posix()) for p in sorted(lib.rglob("*"))
             if p.is_file() and p.suffix in (".so", ".pyd")]
    if not built:
        raise RuntimeError("mypyc built no extension module")
    return built
