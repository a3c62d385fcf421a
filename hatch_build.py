"""Wheel build hook: compile the rules core with mypyc, or say once that it stays pure Python.

The Python source is the one truth: mypyc turns the hot rules modules into C extension
modules placed next to the ``.py`` files in the wheel, and Python imports the extension when
there is one. Each game declares its own: the file ``compiled.txt`` in its folder
(``sneferu_cli/games/NAME/``) lists them, one path a line relative to that folder
(:func:`compiled_modules`), so a new game adds its modules there and nothing here; a layer's
folder (``sneferu_cli/NAME/``) may have one too (the arbiter's per-move path). With no
C compiler or Python headers (or with ``SNEFERU_PURE_PYTHON=1``) the wheel is pure Python
and this hook prints one line saying so.
Editable installs (``pip install -e``) always stay pure Python. Nothing is written into
the source tree: the generated C and the build files live in a temporary folder.

A compiled core is kept in a cache (``$SNEFERU_BUILD_CACHE``, else
``$XDG_CACHE_HOME/sneferu/mypyc`` or ``~/.cache/sneferu/mypyc``; the three newest builds),
named by a digest of everything the build depends on (the package's Python files, this
hook, the Python, mypy and compiler settings, the platform): installing the same tree again, say
``pip install ".[test]"`` after ``pip install .``, takes the core from there instead of
compiling it twice. pip shows a build hook's output only with ``-v``, so the hook's lines
about what it does and how long it took also go to the terminal when there is one.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import platform
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = "sneferu_cli"
GAMES = "sneferu_cli/games"
DECLARED = "compiled.txt"


def compiled_modules(root: Path) -> list[str]:
    """The modules to compile, as paths from ``root``: the ``compiled.txt`` of every layer's
    folder, then of every game's (one path a line relative to the folder; ``#`` starts a
    comment), in folder order.
    ValueError naming the file when a listed module is not there."""
    out: list[str] = []
    for declared in [*sorted((root / PACKAGE).glob(f"*/{DECLARED}")),
                     *sorted((root / GAMES).glob(f"*/{DECLARED}"))]:
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
            built = cached_core(Path(self.root), modules, Path(self._work))
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
    """A line about the build, on stderr and, since pip keeps a build's output to itself
    unless asked (``-v``), on the terminal when there is one."""
    line = f"sneferu build: {text}"
    print(line, file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(f"\n{line}\n")
    except OSError:  # no terminal (CI, a pipe): stderr is all there is
        pass


def cache_folder() -> Path:
    """Where compiled cores are kept."""
    if os.environ.get("SNEFERU_BUILD_CACHE"):
        return Path(os.environ["SNEFERU_BUILD_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sneferu" / "mypyc"


def build_digest(root: Path, modules: list[str]) -> str:
    """A digest of everything a compiled core depends on."""
    from importlib.metadata import version

    digest = hashlib.sha256()
    tools = [f"{name} {version(name)}" for name in
             ("mypy", "setuptools", "msgspec", "lark", "typing_extensions", "websockets")]
    compiler = [f"{name}={os.environ.get(name, '')}" for name in
                ("CC", "CFLAGS", "LDSHARED", "LDFLAGS", "CPPFLAGS")]
    for part in (sys.version, platform.machine(), sysconfig.get_platform(),
                 str(sysconfig.get_config_var("SOABI")), *tools, *compiler, *modules):
        digest.update(part.encode() + b"\0")
    for path in [root / "hatch_build.py", *sorted((root / "sneferu_cli").rglob("*.py"))]:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def cached_core(root: Path, modules: list[str], work: Path) -> list[tuple[Path, str]]:
    """The compiled core from the cache when this tree's was built before, else compiled
    in ``work`` and kept in the cache (the three newest builds stay); (built file, its path
    in the wheel) for each."""
    cache = cache_folder()
    kept = cache / build_digest(root, modules)
    if kept.is_dir():
        built = [(p, p.relative_to(kept).as_posix()) for p in sorted(kept.rglob("*"))
                 if p.is_file()]
        if built:
            note(f"the compiled rules core of this tree, from the cache {kept}")
            return built
    start = time.monotonic()
    note(f"compiling the rules core with mypyc ({len(modules)} modules; "
         "about 1 to 5 minutes, longer on a busy machine) ...")
    built = compile_core(root, modules, work)
    note(f"compiled the rules core in {time.monotonic() - start:.0f} s")
    fresh = None
    try:
        fresh = Path(tempfile.mkdtemp(prefix=".new-", dir=_made(cache)))
        for path, target in built:
            (fresh / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, fresh / target)
        os.replace(fresh, kept)
        fresh = None
        builds = sorted((p for p in cache.iterdir() if p.is_dir() and not p.name.startswith(".")),
                        key=lambda p: p.stat().st_mtime)
        for old in builds[:-3]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:  # a cache that cannot be written: the build needs none
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
    return built


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


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
