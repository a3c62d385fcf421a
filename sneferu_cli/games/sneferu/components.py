"""The game's components and their codes: materials, stones, quarry tiles, builder powers.

Materials are written ``B T M G A`` (basalt, Tura limestone, Mokattam limestone, granite,
gold) in every notation; a stone is an unordered pair of two different materials, written
with its materials in that order (``BT``, ``MG``, ...).

>>> Stone.from_str("TB"), str(Stone.MA), Stone.GA.materials
(<Stone.BT: 0>, 'MA', (<Material.G: 3>, <Material.A: 4>))
"""

from __future__ import annotations

from enum import Enum, IntEnum

from ...game import NotationError


class Material(IntEnum):
    """One of the five materials, in notation order."""

    B = 0  # basalt, green
    T = 1  # Tura limestone, white
    M = 2  # Mokattam limestone, brown
    G = 3  # granite, black
    A = 4  # gold, yellow

    @classmethod
    def from_str(cls, code: str) -> Material:
        try:
            return cls[code]
        except KeyError:
            raise NotationError(f"unknown material {code!r} (expected one of B T M G A)") from None

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        return MATERIAL_NAMES[self]


MATERIAL_NAMES = ("basalt", "Tura limestone", "Mokattam limestone", "granite", "gold")


class Stone(IntEnum):
    """A stone type: an unordered pair of two different materials (10 types)."""

    BT = 0
    BM = 1
    BG = 2
    BA = 3
    TM = 4
    TG = 5
    TA = 6
    MG = 7
    MA = 8
    GA = 9

    @classmethod
    def of(cls, a: int, b: int) -> Stone:
        """The stone made of materials ``a`` and ``b`` (in either order)."""
        return STONE_OF_PAIR[a * 5 + b]

    @classmethod
    def from_str(cls, code: str) -> Stone:
        if len(code) != 2:
            raise NotationError(f"bad stone {code!r}: a stone is two material letters")
        a, b = Material.from_str(code[0]), Material.from_str(code[1])
        if a == b:
            raise NotationError(f"bad stone {code!r}: its two halves must differ")
        return cls.of(a, b)

    @property
    def materials(self) -> tuple[Material, Material]:
        return STONE_MATERIALS[self]

    def __str__(self) -> str:
        return self.name


STONE_MATERIALS: tuple[tuple[Material, Material], ...] = tuple(
    (Material[s.name[0]], Material[s.name[1]]) for s in Stone
)
# Indexed by a * 5 + b for materials a, b; only pairs of different materials are filled.
STONE_OF_PAIR: list[Stone] = [Stone.BT] * 25
for _stone in Stone:
    _a, _b = STONE_MATERIALS[_stone]
    STONE_OF_PAIR[_a * 5 + _b] = STONE_OF_PAIR[_b * 5 + _a] = _stone


class Tile(IntEnum):
    """The kinds of quarry bonus tile."""

    FOOD1 = 0
    FOOD2 = 1
    NOEXTRA = 2
    SAVETIME = 3
    TIMEFOOD = 4
    STOREHOUSE = 5

    @classmethod
    def from_str(cls, code: str) -> Tile:
        try:
            return cls[code]
        except KeyError:
            names = " ".join(t.name for t in cls)
            raise NotationError(f"unknown tile {code!r} (expected one of {names})") from None

    def __str__(self) -> str:
        return self.name


class Power(Enum):
    """The builder powers of the variable builder powers variant (rules section 7)."""

    FEAST = "feast"  # Lateef: once, 2 food per level holding a stone
    SAIL_BACK = "sail-back"  # Heba: once, boat 2 spaces back when placing
    BETWEEN = "between"  # Tsekani: +1 food for a stone between two others
    SINGLE_AREA = "single-area"  # Aya: enclosed areas of size 1 give 1 food
