"""Edition data files, for every game: TOML decoded into a game's msgspec structs and
checked, every problem one :class:`EditionError` line naming the file and the field.

Each game declares its own edition structs and checks (``games/<game>/edition.py``); the
reading is done once, here.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

import msgspec

from .game import MAX_DIGITS

__all__ = ["EditionError", "EditionFormat", "load_edition_file", "parse_edition_text"]

E = TypeVar("E")


class EditionError(ValueError):
    """An edition file that cannot be read, is not valid TOML, or has a wrong field."""


def parse_edition_text(raw: bytes | str, source: str, kind: type[E],
                       check: Callable[[E], None]) -> E:
    """Decode ``raw`` TOML as ``kind`` and run ``check`` (a ValueError naming the field);
    every failure is one EditionError starting with ``source``."""
    try:
        edition = msgspec.toml.decode(raw, type=kind)
    except msgspec.ValidationError as e:
        raise EditionError(f"{source}: {e}") from None
    except msgspec.DecodeError as e:
        raise EditionError(f"{source}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise EditionError(f"{source}: not UTF-8 text (byte {e.start})") from None
    except ValueError:  # an integer of more digits than Python reads
        raise EditionError(f"{source}: not valid TOML: a number of more than {MAX_DIGITS} "
                           "digits") from None
    try:
        check(edition)
    except ValueError as e:
        raise EditionError(f"{source}: {e}") from None
    return edition


def load_edition_file(path: str | Path, kind: type[E], check: Callable[[E], None]) -> E:
    """Read the edition file ``path`` as :func:`parse_edition_text` does."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise EditionError(f"{p}: cannot read edition: {e.strerror}") from None
    return parse_edition_text(raw, str(p), kind, check)


class EditionFormat(Generic[E]):
    """A game's edition files: its structs ``kind``, its ``check``, and the standard edition
    shipped as ``editions/<standard>.toml`` in ``package`` (read once; ``standard.toml``
    unless the game names its edition file)."""

    def __init__(self, kind: type[E], check: Callable[[E], None], package: str,
                 standard: str = "standard") -> None:
        self.kind = kind
        self.check = check
        self.package = package
        self.standard_name = standard
        self._standard: E | None = None

    def load(self, path: str | Path) -> E:
        """Read and check an edition TOML file."""
        return load_edition_file(path, self.kind, self.check)

    def parse(self, raw: bytes | str, source: str = "<edition>") -> E:
        """Decode and check an edition from TOML text."""
        return parse_edition_text(raw, source, self.kind, self.check)

    def standard(self) -> E:
        """The edition that ships with the package: read from its TOML, or from the JSON
        twin a wheel ships beside it (made from the TOML when the wheel is built,
        ``hatch_build.py``), which spares importing ``tomllib`` and parsing TOML."""
        if self._standard is None:
            twin = _folder_file(self.package, f"editions/{self.standard_name}.json")
            edition = None if twin is None else self._from_twin(twin)
            if edition is None:
                raw = _package_file(self.package, f"editions/{self.standard_name}.toml")
                edition = self.parse(raw, "standard edition")
            self._standard = edition
        return self._standard

    def _from_twin(self, raw: bytes) -> E | None:
        """The edition of a JSON twin, checked; None when it does not read (the TOML is
        read instead)."""
        try:
            edition = msgspec.json.decode(raw, type=self.kind)
            self.check(edition)
        except (msgspec.DecodeError, ValueError):  # ValidationError is a DecodeError
            return None
        return edition


def _folder_file(package: str, name: str) -> bytes | None:
    """The bytes of file ``name`` in ``package``'s folder, None when it has no such file
    (or is not a folder)."""
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or ()) if spec else ():
        path = Path(folder, name)
        if path.is_file():
            return path.read_bytes()
    return None


def _package_file(package: str, name: str) -> bytes:
    """The bytes of file ``name`` inside ``package``: read from the package's folder, not
    through ``importlib.resources``, whose first use imports ``zipfile`` (about 5 ms, paid
    by a game's first ``new_game``); through it only for a package that is not a folder."""
    raw = _folder_file(package, name)
    if raw is not None:
        return raw
    from importlib import resources
    return resources.files(package).joinpath(name).read_bytes()
