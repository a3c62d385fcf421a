"""Editions: the printed numbers of the game ([data] in docs/RULES.md) as typed data.

An edition is a TOML file decoded into the msgspec structs below and then checked for
consistency. The standard edition ships inside the package; ``load_edition(path)`` reads
another. Any problem raises :class:`EditionError` naming the field.

>>> ed = standard_edition()
>>> ed.name, ed.offer.columns[2].food, ed.river.last_space
('standard', 2, 40)
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from ...edition import EditionFormat
from ...game import NotationError
from .components import Material, Power, Tile


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class StoneSupply(_Data, frozen=True):
    per_type: int


class ColumnCost(_Data, frozen=True):
    food: int
    time: int


class OfferBoard(_Data, frozen=True):
    columns: tuple[ColumnCost, ...]
    row_extra_food: tuple[int, ...]


class Quarry(_Data, frozen=True):
    space: int
    material: str
    eye: bool = False


class River(_Data, frozen=True):
    last_space: int
    start_space: int
    builders_start_space: int
    quarries: tuple[Quarry, ...]


class TileSet(_Data, frozen=True):
    kind: str
    count: int
    eye: int = 0
    amount: int = 0


class FoodIcon(_Data, frozen=True):
    level: int
    slot: int
    half: Literal["left", "right"]
    food: int


class PyramidBoard(_Data, frozen=True):
    levels: int
    icons: tuple[FoodIcon, ...]
    area_food: tuple[int, ...]


class PlayerSupply(_Data, frozen=True):
    starting_food: int
    forced_end_food_per_space: int


class Builder(_Data, frozen=True):
    name: str
    food: int
    power: str
    amount: int


class SoloTitle(_Data, frozen=True, rename={"start": "from"}):
    start: int
    title: str


class Solo(_Data, frozen=True):
    ptah_target: int
    points_per_stone: int
    food_per_point: int
    points_per_ptah_stone: int
    titles: tuple[SoloTitle, ...]


class Edition(_Data, frozen=True):
    """One edition of the printed components."""

    name: str
    stones: StoneSupply
    offer: OfferBoard
    river: River
    tiles: tuple[TileSet, ...]
    pyramid: PyramidBoard
    player: PlayerSupply
    builders: tuple[Builder, ...]
    solo: Solo
    description: str = ""

    def tile_amount(self, tile: Tile) -> int:
        for ts in self.tiles:
            if ts.kind == tile.name:
                return ts.amount
        return 0

    def builder(self, name: str) -> Builder:
        for b in self.builders:
            if b.name == name:
                return b
        names = ", ".join(b.name for b in self.builders)
        raise NotationError(f"unknown builder {name!r} (expected one of {names})")

    def builder_with(self, power: Power) -> Builder | None:
        for b in self.builders:
            if b.power == power.value:
                return b
        return None


def _check(ed: Edition) -> None:
    """Raise ValueError naming the first inconsistent field."""
    if not ed.name or any(c.isspace() for c in ed.name):
        raise ValueError("name: must be one word (it is written in positions and records)")
    if ed.stones.per_type < 1:
        raise ValueError("stones.per_type: must be at least 1")
    if not 1 <= len(ed.offer.columns) <= 9:
        raise ValueError("offer.columns: need 1 to 9 columns")
    if not 1 <= len(ed.offer.row_extra_food) <= 9:
        raise ValueError("offer.row_extra_food: need 1 to 9 rows")
    for i, col in enumerate(ed.offer.columns):
        if col.food < 0 or col.time < 1:
            raise ValueError(f"offer.columns[{i}]: food must be >= 0 and time >= 1")
    if any(x < 0 for x in ed.offer.row_extra_food):
        raise ValueError("offer.row_extra_food: extra food cannot be negative")
    if len(ed.offer.columns) * len(ed.offer.row_extra_food) > 10 * ed.stones.per_type:
        raise ValueError("offer: more cells than stones")
    r = ed.river
    if r.last_space < 2:
        raise ValueError("river.last_space: must be at least 2")
    for field, v in (("start_space", r.start_space),
                     ("builders_start_space", r.builders_start_space)):
        if not 0 <= v < r.last_space:
            raise ValueError(f"river.{field}: must be on the track, before the last space")
    spaces = [q.space for q in r.quarries]
    for i, q in enumerate(r.quarries):
        if not 0 <= q.space < r.last_space:
            raise ValueError(f"river.quarries[{i}].space: {q.space} is not on the track")
        try:
            Material.from_str(q.material)
        except NotationError:
            raise ValueError(f"river.quarries[{i}].material: unknown material {q.material!r}"
                             ) from None
    if spaces != sorted(set(spaces)):
        raise ValueError("river.quarries: spaces must be distinct and in track order")
    kinds = [t.kind for t in ed.tiles]
    for i, t in enumerate(ed.tiles):
        try:
            Tile.from_str(t.kind)
        except NotationError:
            raise ValueError(f"tiles[{i}].kind: unknown tile kind {t.kind!r}") from None
        if t.count < 0 or not 0 <= t.eye <= t.count or t.amount < 0:
            raise ValueError(f"tiles[{i}]: need 0 <= eye <= count and amount >= 0")
    if len(set(kinds)) != len(kinds):
        raise ValueError("tiles: each kind may appear once")
    if sum(t.count for t in ed.tiles) != len(r.quarries):
        raise ValueError(f"tiles: {sum(t.count for t in ed.tiles)} tiles for "
                         f"{len(r.quarries)} quarries")
    if sum(t.eye for t in ed.tiles) != sum(q.eye for q in r.quarries):
        raise ValueError("tiles: the number of eye tiles must equal the number of eye spaces")
    py = ed.pyramid
    if not 1 <= py.levels <= 9:
        raise ValueError("pyramid.levels: must be 1 to 9")
    seen = set()
    for i, icon in enumerate(py.icons):
        if not 1 <= icon.level <= py.levels or not 1 <= icon.slot <= py.levels + 1 - icon.level:
            raise ValueError(f"pyramid.icons[{i}]: no slot {icon.slot} on level {icon.level}")
        if (icon.level, icon.slot, icon.half) in seen:
            raise ValueError(f"pyramid.icons[{i}]: a cell holds one icon")
        seen.add((icon.level, icon.slot, icon.half))
        if icon.food < 0:
            raise ValueError(f"pyramid.icons[{i}].food: cannot be negative")
    if not py.area_food or any(x < 0 for x in py.area_food):
        raise ValueError("pyramid.area_food: need at least one entry, none negative")
    if ed.player.starting_food < 0 or ed.player.forced_end_food_per_space < 0:
        raise ValueError("player: food amounts cannot be negative")
    names = Counter(b.name for b in ed.builders)
    for i, b in enumerate(ed.builders):
        if not b.name.isalpha():
            raise ValueError(f"builders[{i}].name: must be letters only")
        if names[b.name] > 1:
            raise ValueError(f"builders[{i}].name: {b.name!r} appears twice")
        try:
            Power(b.power)
        except ValueError:
            powers = ", ".join(p.value for p in Power)
            raise ValueError(f"builders[{i}].power: unknown power {b.power!r} "
                             f"(expected one of {powers})") from None
        if b.food < 0 or b.amount < 0:
            raise ValueError(f"builders[{i}]: food and amount cannot be negative")
    if len({b.power for b in ed.builders}) != len(ed.builders):
        raise ValueError("builders: each power may belong to one builder")
    s = ed.solo
    if s.ptah_target < 1 or s.food_per_point < 1:
        raise ValueError("solo: ptah_target and food_per_point must be at least 1")
    if not s.titles or [t.start for t in s.titles] != sorted({t.start for t in s.titles}):
        raise ValueError("solo.titles: need at least one band, in ascending order")


FORMAT = EditionFormat(Edition, _check, __package__ or __name__)
load_edition = FORMAT.load
"""Read and check an edition TOML file (EditionError naming the file and field)."""
parse_edition = FORMAT.parse
"""Decode and check an edition from TOML text."""
standard_edition = FORMAT.standard
"""The edition that ships with the package."""
