"""Akropolis editions: the numbers printed only on components ([data] in AKROPOLIS-RULES.md).

An edition is a TOML file decoded into the msgspec structs below and then checked: the 61
city tiles (code, player-count marking, hexes ``h0 h1 h2`` clockwise), the starting tile,
the stars per plaza kind and the starting stones. The standard edition ships inside the
package; ``load_edition(path)`` reads another. Any problem raises an ``EditionError``,
one line naming the file and the field.

>>> ed = standard_edition()
>>> ed.name, len(ed.tiles), ed.tiles[0].hexes, ed.stars.G, ed.starting_stones
('standard', 61, 'hbt', 3, (1, 2, 3, 4))
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from ...edition import EditionFormat

__all__ = ["DISTRICTS", "HEXES", "MARKINGS", "PLAZAS", "STACKS", "Edition", "load_edition",
           "parse_edition", "standard_edition"]

HEXES = "hmbtgHMBTGq"
"""Every hex code (section 2): the five districts, their five plazas, the quarry."""
DISTRICTS = "hmbtg"
PLAZAS = "HMBTG"
MARKINGS = ("2+", "3+", "4")
STACKS = 11
"""Stacks of *n* + 1 tiles in a game without the all-tiles option (rulebook, "PŘÍPRAVA
HRY"); the loader checks the tile groups against it (section 2, "Checks")."""


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Stars(_Data, frozen=True):
    """The stars on every plaza of each kind."""

    H: int
    M: int
    B: int
    T: int
    G: int

    def of(self, plaza: str) -> int:
        """The stars of plaza kind ``plaza`` (one of ``HMBTG``)."""
        result: int = getattr(self, plaza)
        return result


class StartHex(_Data, frozen=True):
    """One hex of the starting tile and its position (q, r) in every city (A3)."""

    hex: str
    q: int
    r: int


class Tile(_Data, frozen=True):
    """A city tile: its code, the marking on its back, its hexes clockwise (``"hbt"``)."""

    code: str
    marking: Literal["2+", "3+", "4"]
    hexes: str


class Edition(_Data, frozen=True):
    """One edition of the printed components."""

    name: str
    starting_stones: tuple[int, ...]
    stars: Stars
    start: tuple[StartHex, ...]
    tiles: tuple[Tile, ...]
    description: str = ""


def _word(field: str, text: str) -> None:
    if not text or not text.isascii() or not all(c.isalnum() or c in "_.-" for c in text):
        raise ValueError(f"{field}: {text!r} must be one word of letters, digits, _ . -")


def _check(ed: Edition) -> None:
    """Raise ValueError naming the first inconsistent field."""
    _word("name", ed.name)
    if len(ed.starting_stones) != 4 or not all(0 <= n <= 99 for n in ed.starting_stones):
        raise ValueError("starting_stones: need 4 numbers from 0 to 99, seat 1 first")
    for kind in PLAZAS:
        if not 1 <= ed.stars.of(kind) <= 9:
            raise ValueError(f"stars.{kind}: must be 1 to 9")
    spots = set()
    for i, h in enumerate(ed.start):
        if len(h.hex) != 1 or h.hex not in HEXES:
            raise ValueError(f"start[{i}].hex: {h.hex!r} is not one of {HEXES}")
        # The city grid is sized for a starting tile within one step of the origin.
        if max(abs(h.q), abs(h.r), abs(h.q + h.r)) > 1 or (h.q, h.r) in spots:
            raise ValueError(f"start[{i}]: position ({h.q}, {h.r}) must be the origin or "
                             "next to it, each once")
        spots.add((h.q, h.r))
    if not ed.start:
        raise ValueError("start: the starting tile needs at least one hex")
    codes: set[str] = set()
    for i, t in enumerate(ed.tiles):
        if not (len(t.code) >= 2 and t.code[0] == "T" and t.code.isascii()
                and t.code[1:].isalnum()):
            raise ValueError(f"tiles[{i}].code: {t.code!r} must be T and letters or digits")
        if t.code in codes:
            raise ValueError(f"tiles[{i}].code: {t.code!r} appears twice")
        codes.add(t.code)
        if len(t.hexes) != 3 or any(c not in HEXES for c in t.hexes):
            raise ValueError(f"tiles[{i}].hexes: {t.hexes!r} must be 3 hexes of {HEXES}")
        # Three equal hexes would give one result for different (anchor, rotation)s
        # (section 3): the legal-move list promises each result once.
        if len(set(t.hexes)) == 1:
            raise ValueError(f"tiles[{i}].hexes: {t.hexes!r} has three equal hexes")
    groups: Counter[str] = Counter(t.marking for t in ed.tiles)
    # With n players: STACKS stacks of n + 1 tiles and n + 2 in the site (section 2, Checks).
    need = {"2+": STACKS * 3 + 4, "3+": STACKS * 4 + 5 - (STACKS * 3 + 4),
            "4": STACKS * 5 + 6 - (STACKS * 4 + 5)}
    for marking in MARKINGS:
        if groups[marking] != need[marking]:
            raise ValueError(f"tiles: {groups[marking]} tiles marked {marking}, need "
                             f"{need[marking]} ({STACKS} stacks of n + 1 and n + 2 in the "
                             "site for 2, 3 and 4 players)")


FORMAT = EditionFormat(Edition, _check, __package__ or __name__)
load_edition = FORMAT.load
"""Read and check an edition TOML file (EditionError naming the file and field)."""
parse_edition = FORMAT.parse
"""Decode and check an edition from TOML text."""
standard_edition = FORMAT.standard
"""The edition that ships with the package."""
