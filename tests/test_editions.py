"""Edition files of every game (SPEC 5): ``EditionFormat`` reads a game's standard edition
from its package's folder or a zipped package, and a JSON twin beside the TOML; every
shipped edition reads the same from its twin. (Sneferu's own edition: tests/sneferu/.)"""

from __future__ import annotations

import importlib
import json
import tomllib
import zipfile
from pathlib import Path

import msgspec
import pytest

import sneferu_cli
from sneferu_cli.edition import EditionFormat

PACKAGE = Path(sneferu_cli.__file__).parent
"""The sneferu_cli package's folder (the installed one when tests run the installed build)."""


class _Tiny(msgspec.Struct, frozen=True):
    name: str


def test_a_standard_edition_is_read_from_a_folder_or_a_zipped_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``EditionFormat.standard`` reads ``editions/<name>.toml`` from the package's folder,
    and from a package imported from a zip file (through ``importlib.resources``)."""
    for where, package in (("folder", "tiny_folder"), ("zip", "tiny_zipped")):
        text = f'name = "{where}"\n'
        if where == "folder":
            (tmp_path / package / "editions").mkdir(parents=True)
            (tmp_path / package / "__init__.py").write_text("")
            (tmp_path / package / "editions" / "standard.toml").write_text(text)
            monkeypatch.syspath_prepend(str(tmp_path))
        else:
            archive = tmp_path / "tiny.zip"
            with zipfile.ZipFile(archive, "w") as z:
                z.writestr(f"{package}/__init__.py", "")
                z.writestr(f"{package}/editions/standard.toml", text)
            monkeypatch.syspath_prepend(str(archive))
        importlib.import_module(package)
        assert EditionFormat(_Tiny, lambda ed: None, package).standard() == _Tiny(where)


def test_a_json_twin_beside_the_toml_is_read_and_a_bad_one_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel ships ``editions/<name>.json`` beside the TOML (hatch_build.py): the standard
    edition is read from it when it decodes and passes the check, else from the TOML."""
    monkeypatch.syspath_prepend(str(tmp_path))
    for package, twin, read in (("twin_good", '{"name":"json"}', "json"),
                                ("twin_bad", '{"name":3}', "toml"),
                                ("twin_checked", '{"name":"refused"}', "toml")):
        (tmp_path / package / "editions").mkdir(parents=True)
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / "editions" / "standard.toml").write_text('name = "toml"\n')
        (tmp_path / package / "editions" / "standard.json").write_text(twin)
        importlib.import_module(package)

        def check(ed: _Tiny) -> None:
            if ed.name == "refused":
                raise ValueError("name: refused")

        assert EditionFormat(_Tiny, check, package).standard() == _Tiny(read), package


SHIPPED_EDITIONS = sorted(p.relative_to(PACKAGE.parent).as_posix() for p in
                          (PACKAGE / "games").glob("**/editions/*.toml"))
"""Every edition TOML the package ships (each a game's standard edition)."""


@pytest.mark.parametrize("shipped", SHIPPED_EDITIONS)
def test_every_standard_edition_reads_the_same_from_its_json_twin(shipped: str) -> None:
    """Each shipped TOML, turned into JSON as the wheel build does (hatch_build.py's
    ``edition_twins``), decodes to the same edition; and where the installed package has
    its twin (a wheel), the twin is that JSON and the standard edition equals the TOML's.
    The edition's format is its package's ``edition.FORMAT``."""
    toml = PACKAGE.parent / shipped
    package = ".".join(Path(shipped).parent.parent.parts)
    fmt = importlib.import_module(package + ".edition").FORMAT
    assert fmt.standard_name == toml.stem
    from_toml = fmt.parse(toml.read_bytes())
    made = json.dumps(tomllib.loads(toml.read_text(encoding="utf-8")), ensure_ascii=False,
                      separators=(",", ":"))
    assert msgspec.json.decode(made, type=fmt.kind) == from_toml
    twin = toml.with_suffix(".json")
    if twin.is_file():
        assert twin.read_text(encoding="utf-8") == made
    assert fmt.standard() == from_toml
