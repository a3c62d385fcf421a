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
    cache = tmp_path / "cache"
    env = {**os.environ, "CC": "false",  # a C compiler that always fails
           "SNEFERU_BUILD_CACHE": str(cache)}
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v",
                        "-w", str(tmp_path)], env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    notes = [line.strip() for line in (r.stdout + r.stderr).splitlines()
             if "sneferu build:" in line]
    assert notes[-1].startswith("sneferu build: the rules core stays pure Python"), notes
    assert all("compiling the rules core" in n for n in notes[:-1]), notes
    assert not [p for p in cache.rglob("*") if p.is_file()]  # a failed build is not kept
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "sneferu_cli/games/sneferu/state.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def test_the_compiled_core_is_compiled_once_for_a_tree_and_again_when_it_changes(
        tmp_path, monkeypatch):
    """The build hook's cache: a second build of the same tree takes the compiled core from
    the cache (``pip install ".[test]"`` after ``pip install .`` compiles nothing); a change
    to any Python file of the package, or to the compiler, compiles anew."""
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    tree = tmp_path / "tree"
    (tree / "sneferu_cli" / "games" / "g").mkdir(parents=True)
    (tree / "hatch_build.py").write_text("# hook\n")
    (tree / "sneferu_cli" / "games" / "g" / "state.py").write_text("X = 1\n")
    compiled: list[str] = []

    def compile_core(root, modules, work):
        compiled.append((root / modules[0]).read_text())
        built = work / f"build{len(compiled)}" / "state.so"
        built.parent.mkdir(parents=True)
        built.write_text(compiled[-1])
        return [(built, "sneferu_cli/games/g/state.so")]

    monkeypatch.setattr(hatch_build, "compile_core", compile_core)
    monkeypatch.setenv("SNEFERU_BUILD_CACHE", str(tmp_path / "cache"))
    modules = ["sneferu_cli/games/g/state.py"]

    def build() -> str:
        work = tmp_path / f"work{len(list(tmp_path.iterdir()))}"
        work.mkdir()
        ((path, target),) = hatch_build.cached_core(tree, modules, work)
        assert target == "sneferu_cli/games/g/state.so"
        return path.read_text()

    assert build() == build() == "X = 1\n" and len(compiled) == 1
    (tree / "sneferu_cli" / "games" / "g" / "state.py").write_text("X = 2\n")
    assert build() == "X = 2\n" and len(compiled) == 2
    monkeypatch.setenv("CC", "clang")
    assert build() == "X = 2\n" and len(compiled) == 3
    assert build() == "X = 2\n" and len(compiled) == 3
    assert len(list((tmp_path / "cache").iterdir())) == 3  # the three newest builds
