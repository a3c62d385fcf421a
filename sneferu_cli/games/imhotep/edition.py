"""Imhotep editions: the numbers printed on the components ([data] in IMHOTEP-RULES.md).

An edition is a TOML file decoded into the msgspec structs below and then checked for
consistency. The standard edition ships inside the package; ``load_edition(path)`` reads
another. Any problem raises :class:`EditionError`, one line naming the file and the field.

>>> ed = standard_edition()
>>> ed.name, ed.pyramid.points[4], ed.round_card("R3-2").ships
('standard', 4, (4, 3, 3, 2))
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

import msgspec

from ...edition import EditionFormat

SITES = "MPTCO"
"""The five sites in notation order: market, pyramid, temple, burial chamber, obelisks."""
COLOURS = ("red", "green", "purple", "blue")
PYRAMID_BONUSES = ("CARD", "STONES", "LOAD")
TEMPLE_BONUSES = ("PS", "P2", "CD")




class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class ShipTile(_Data, frozen=True):
    """``count`` ship tiles of one ``capacity`` and their ``minimum`` load."""

    capacity: int
    count: int
    minimum: int


class RoundCard(_Data, frozen=True):
    """A round card: its code, the player count it belongs to, the ships' capacities."""

    code: str
    players: int
    ships: tuple[int, ...]


class MarketCard(_Data, frozen=True):
    """A kind of market card: code, colour, copies; ``site`` for red and green cards."""

    code: str
    colour: Literal["red", "green", "purple", "blue"]
    count: int
    site: str = ""


class Market(_Data, frozen=True):
    face_up: int
    face_up_b: int
    pair_b: int
    cards: tuple[MarketCard, ...]
    decoration_divisor: int
    unused_blue_points: int
    statue_points: tuple[int, ...]
    statue_points_beyond: int


class PyramidA(_Data, frozen=True):
    points: tuple[int, ...]
    overflow_points: int


class Temple(_Data, frozen=True):
    width: tuple[int, ...]
    points_per_visible: int
    columns_b: tuple[str, ...]
    ps_points: int
    ps_stones: int
    p2_points: int


class Chamber(_Data, frozen=True):
    rows: int
    group_points: tuple[int, ...]
    group_points_beyond: int
    row_points_b: tuple[int, ...]


class Obelisks(_Data, frozen=True):
    points: tuple[tuple[int, ...], ...]
    towers_b: tuple[int, ...]
    tower_stones_b: int
    waiting_points_b: int


class PyramidSlot(_Data, frozen=True):
    """A side-B pyramid slot: ``points``, or a ``bonus`` (CARD, STONES, LOAD)."""

    points: int = 0
    bonus: str = ""


class PyramidB(_Data, frozen=True):
    code: str
    slots: tuple[PyramidSlot, ...]


class PyramidsB(_Data, frozen=True):
    bonus_points: int
    overflow_points: int
    stones_bonus: int
    pyramids: tuple[PyramidB, ...]


class Wrath(_Data, frozen=True):
    penalty: int


class Edition(_Data, frozen=True):
    """One edition of the printed components."""

    name: str
    rounds: int
    stones_per_colour: int
    sled_capacity: int
    take_stones: int
    starting_sled: tuple[int, ...]
    ships: tuple[ShipTile, ...]
    round_cards: tuple[RoundCard, ...]
    market: Market
    pyramid: PyramidA
    temple: Temple
    chamber: Chamber
    obelisks: Obelisks
    pyramids_b: PyramidsB
    wrath: Wrath
    description: str = ""

    def round_card(self, code: str) -> RoundCard:
        """The round card called ``code`` (KeyError when there is none)."""
        for card in self.round_cards:
            if card.code == code:
                return card
        raise KeyError(code)

    def minimum_load(self, capacity: int) -> int:
        """The minimum load of a ship of ``capacity``."""
        for tile in self.ships:
            if tile.capacity == capacity:
                return tile.minimum
        raise KeyError(capacity)


def _word(field: str, text: str) -> None:
    if not text or any(c.isspace() or c in "~{};" for c in text):
        raise ValueError(f"{field}: {text!r} must be one word (it is written in notations)")


def _check(ed: Edition) -> None:
    """Raise ValueError naming the first inconsistent field."""
    _word("name", ed.name)
    if ed.rounds < 1:
        raise ValueError("rounds: must be at least 1")
    if ed.sled_capacity < 1 or ed.take_stones < 1:
        raise ValueError("sled_capacity, take_stones: must be at least 1")
    if len(ed.starting_sled) != 4:
        raise ValueError("starting_sled: need one entry per seat of a 4-player game")
    for i, n in enumerate(ed.starting_sled):
        if not 0 <= n <= ed.sled_capacity or n + 1 > ed.stones_per_colour:
            raise ValueError(f"starting_sled[{i}]: {n} does not fit the sled and the stones")
    # Ships: capacities 1..9 (a ship is named by its capacity digit), letters A.. per tile.
    tiles: dict[int, int] = {}
    for i, t in enumerate(ed.ships):
        if not 1 <= t.capacity <= 9 or t.capacity in tiles:
            raise ValueError(f"ships[{i}].capacity: must be 1 to 9, each capacity once")
        if not 1 <= t.count <= 26:
            raise ValueError(f"ships[{i}].count: must be 1 to 26")
        if not 1 <= t.minimum <= t.capacity:
            raise ValueError(f"ships[{i}].minimum: must be 1 to the capacity")
        tiles[t.capacity] = t.count
    codes = Counter(c.code for c in ed.round_cards)
    for i, card in enumerate(ed.round_cards):
        _word(f"round_cards[{i}].code", card.code)
        if codes[card.code] > 1:
            raise ValueError(f"round_cards[{i}].code: {card.code!r} appears twice")
        if not 2 <= card.players <= 4:
            raise ValueError(f"round_cards[{i}].players: must be 2, 3 or 4")
        if not card.ships:
            raise ValueError(f"round_cards[{i}].ships: a card shows at least one ship")
        for cap, n in Counter(card.ships).items():
            if n > tiles.get(cap, 0):
                raise ValueError(f"round_cards[{i}].ships: {n} ship(s) of capacity {cap} "
                                 f"but only {tiles.get(cap, 0)} tile(s)")
        if len(card.ships) > len(SITES):
            raise ValueError(f"round_cards[{i}].ships: more ships than sites")
    for players in (2, 3, 4):
        n = sum(1 for c in ed.round_cards if c.players == players)
        if n < ed.rounds:
            raise ValueError(f"round_cards: {n} cards for {players} players, "
                             f"need at least {ed.rounds} (one per round)")
    m = ed.market
    if not 1 <= m.face_up <= 9 or not 0 <= m.face_up_b <= 9 or not 1 <= m.pair_b <= 9:
        raise ValueError("market.face_up, face_up_b, pair_b: must be small positive numbers")
    kinds = Counter(c.code for c in m.cards)
    for i, c in enumerate(m.cards):
        _word(f"market.cards[{i}].code", c.code)
        if kinds[c.code] > 1:
            raise ValueError(f"market.cards[{i}].code: {c.code!r} appears twice")
        if c.count < 0:
            raise ValueError(f"market.cards[{i}].count: cannot be negative")
        if c.colour == "red" and c.site not in ("P", "T", "C", "O"):
            raise ValueError(f"market.cards[{i}].site: a red card needs a site P, T, C or O")
        if c.colour == "green" and c.site not in ("P", "T", "C", "O"):
            raise ValueError(f"market.cards[{i}].site: a green card needs a site P, T, C or O")
        if c.colour in ("purple", "blue") and c.site:
            raise ValueError(f"market.cards[{i}].site: only red and green cards have a site")
        if c.colour == "blue" and c.code not in ("LEV", "HAM", "SAI", "CHI"):
            raise ValueError(f"market.cards[{i}].code: blue cards are LEV, HAM, SAI, CHI")
    if m.decoration_divisor < 1:
        raise ValueError("market.decoration_divisor: must be at least 1")
    if not m.statue_points:
        raise ValueError("market.statue_points: need at least one entry")
    if not ed.pyramid.points:
        raise ValueError("pyramid.points: need at least one slot")
    te = ed.temple
    if len(te.width) != 3 or any(w < 1 for w in te.width):
        raise ValueError("temple.width: need a width >= 1 for 2, 3 and 4 players")
    if len(te.columns_b) < max(te.width):
        raise ValueError("temple.columns_b: need a bonus for every column of the widest temple")
    for i, b in enumerate(te.columns_b):
        if b not in TEMPLE_BONUSES:
            raise ValueError(f"temple.columns_b[{i}]: unknown bonus {b!r} "
                             f"(expected one of {', '.join(TEMPLE_BONUSES)})")
    if te.ps_stones < 1:
        raise ValueError("temple.ps_stones: must be at least 1")
    ch = ed.chamber
    if ch.rows < 1:
        raise ValueError("chamber.rows: must be at least 1")
    if not ch.group_points:
        raise ValueError("chamber.group_points: need at least one entry")
    if len(ch.row_points_b) < 4:
        raise ValueError("chamber.row_points_b: need points for 4 places")
    o = ed.obelisks
    if [len(row) for row in o.points] != [2, 3, 4]:
        raise ValueError("obelisks.points: need 2, 3 and 4 places for 2, 3 and 4 players")
    if list(o.towers_b) != sorted(o.towers_b, reverse=True):
        raise ValueError("obelisks.towers_b: tower values from the highest down")
    if o.tower_stones_b < 1:
        raise ValueError("obelisks.tower_stones_b: must be at least 1")
    pb = ed.pyramids_b
    pcodes = Counter(p.code for p in pb.pyramids)
    if not pb.pyramids:
        raise ValueError("pyramids_b.pyramids: need at least one pyramid")
    for i, p in enumerate(pb.pyramids):
        _word(f"pyramids_b.pyramids[{i}].code", p.code)
        if pcodes[p.code] > 1 or p.code == "bonus":
            raise ValueError(f"pyramids_b.pyramids[{i}].code: {p.code!r} must be unique")
        if not p.slots:
            raise ValueError(f"pyramids_b.pyramids[{i}].slots: need at least one slot")
        for j, s in enumerate(p.slots):
            if s.bonus and s.bonus not in PYRAMID_BONUSES:
                raise ValueError(f"pyramids_b.pyramids[{i}].slots[{j}].bonus: unknown "
                                 f"bonus {s.bonus!r} (expected one of "
                                 f"{', '.join(PYRAMID_BONUSES)})")
            if s.bonus and s.points:
                raise ValueError(f"pyramids_b.pyramids[{i}].slots[{j}]: points or a bonus, "
                                 "not both")
    if pb.stones_bonus < 1:
        raise ValueError("pyramids_b.stones_bonus: must be at least 1")


FORMAT = EditionFormat(Edition, _check, __package__ or __name__)
load_edition = FORMAT.load
"""Read and check an edition TOML file (EditionError naming the file and field)."""
parse_edition = FORMAT.parse
"""Decode and check an edition from TOML text."""
standard_edition = FORMAT.standard
"""The edition that ships with the package."""
