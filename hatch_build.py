"""Wheel build hook: compile the rules core with mypyc, or say once that it stays pure Python.

The Python source is the one truth: mypyc turns the hot rules modules into C extension
modules placed next to the ``.py`` files in the wheel, and Python imports the extension when
there is one. Each game declares its own: the file ``compiled.txt`` in its folder
(``sneferu_cli/games/NAME/``) lists them, one path a line relative to that folder
(:func:`compiled_modules`), so a new game adds its modules there and nothing here. With no
C compiler or Python headers (or with ``SNEFERU_PURE_PYTHON=1``) the wheel is pure Python
and this hook prints one line saying so.
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

GAMES = "sneferu_cli/games"
DECLARED = "compiled.txt"


def compiled_modules(root: Path) -> list[str]:
    """The modules to compile, as paths from ``root``: every game folder's ``compiled.txt``
    (one path a line relative to the folder; ``#`` starts a comment), in folder order.
    ValueError naming the file when a listed module is not there."""
    out: list[str] = []
    for declared in sorted((root / GAMES).glob(f"*/{DECLARED}")):
        folder = declared.parent
        for number, line in enumerate(declared.read_text().splitlines(), 1):
            name = line.split("#", 1)[0].strip()
            if not name:
                continue
            module = folder / name
            if module.suffix != ".py" or not module.is_file():
                raise ValueError(f"{declared.relative_to(root)}:{number}: no module {name}")
            out.append(module.relative_to(root).as_posix())
    return out


class MypycBuildHook(BuildHookInterface):
    """Adds the mypyc-compiled rules core to a (non-editable) wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._work = tempfile.mkdtemp(prefix="sneferu-mypyc-")
        for path, target in edition_twins(Path(self.root), Path(self._work)):
            build_data["force_include"][str(path)] = target
        if os.environ.get("SNEFERU_PURE_PYTHON"):
            note("SNEFERU_PURE_PYTHON is set: the rules core stays pure Python")
            return
        modules = compiled_modules(Path(self.root))  # a wrong list stops the build
        try:
            built = compile_core(Path(self.root), modules, Path(self._work))
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


def edition_twins(root: Path, work: Path) -> list[tuple[Path, str]]:
    """A JSON twin of each game's shipped edition TOML (``editions/NAME.json`` beside
    ``NAME.toml``), written in ``work``: (file, its path in the wheel) for each. The TOML is
    the source; the twin only spares a game's first ``new_game`` importing ``tomllib`` and
    parsing TOML (about 3 ms; ``sneferu_cli/edition.py`` reads the twin when there is
    one). A file whose values JSON cannot hold (a TOML date) gets no twin."""
    import json
    import tomllib

    out: list[tuple[Path, str]] = []
    for toml in sorted((root / GAMES).glob("**/editions/*.toml")):
        try:
            text = json.dumps(tomllib.loads(toml.read_text(encoding="utf-8")),
                              ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError):  # not JSON-able, or not TOML: the TOML is read
            continue
        rel = toml.relative_to(root).with_suffix(".json")
        twin = work / "twins" / rel
        twin.parent.mkdir(parents=True, exist_ok=True)
        twin.write_text(text, encoding="utf-8")
        out.append((twin, rel.as_posix()))
    return out


def note(text: str) -> None:
    """The hook's one line about the build, on stderr."""
    print(f"sneferu build: {text}", file=sys.stderr, flush=True)


def compile_core(root: Path, modules: list[str], work: Path) -> list[tuple[Path, str]]:
    """Compile ``modules`` (paths from ``root``) in ``work``; (built file, its path in the
    wheel) for each."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    lib, temp = work / "lib", work / "temp"
    old = os.getcwd()
    os.environ["MYPY_CACHE_DIR"] = str(work / "mypy-cache")
    output = io.StringIO()
    try:
        os.chdir(root)  # mypyc names the modules by their paths from here
        with contextlib.redirect_stdout(output):
            extensions = mypycify(modules, opt_level="3",
                                  target_dir=str(work / "c"))
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
