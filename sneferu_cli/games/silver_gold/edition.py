"""Silver & Gold Pyramids editions: the numbers printed only on the cards ([data] in
SILVER-GOLD-RULES.md: the 48 chamber grids and their colours, the expedition patterns with
their copies, the skull values).

An edition is a TOML file decoded into the msgspec structs below and checked by ruling G2.
The shipped edition is ``editions/sgp-recon-1.toml``; ``load_edition(path)`` reads another.
Any problem raises :class:`~sneferu_cli.edition.EditionError`, one line naming the file and
the field.

>>> ed = standard_edition()
>>> ed.name, ed.cards[0].rows[0], ed.expeditions[1].code, ed.skull_values[4]
('sgp-recon-1', 'E##..', 'I3', 6)
"""

from __future__ import annotations

from collections import Counter

import msgspec

from ...edition import EditionFormat

__all__ = ["CELL_CODES", "COLOURS", "Card", "Edition", "Expedition", "cell_index",
           "load_edition", "parse_edition", "standard_edition"]

COLOURS: tuple[str, ...] = ("PUR", "ORA", "GRN")
"""The three card colours (2, "Card colours"), in the order every listing uses."""
CELL_CODES = ".#ETRGFSPX"
"""The cell codes of a chamber grid (2.1): floor, wall, entrance, tomb, red gem, green gem,
torch, skull, potion, red cross."""
SIZE = 5
"""A chamber is SIZE x SIZE cells: columns a-e, rows 1-5."""
CARDS = 48
PER_COLOUR = 16
EXPEDITION_CARDS = 8
SKULL_SPACES = 10


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Card(_Data, frozen=True):
    """A pyramid card: its order number, colour and chamber (five rows of five codes)."""

    number: int
    colour: str
    rows: tuple[str, ...]


class Expedition(_Data, frozen=True):
    """An expedition pattern: its code, its cells in one orientation (``a1``..), its copies."""

    code: str
    cells: tuple[str, ...]
    copies: int


class Edition(_Data, frozen=True):
    """One edition of the printed cards."""

    name: str
    skull_values: tuple[int, ...]
    expeditions: tuple[Expedition, ...]
    cards: tuple[Card, ...]
    description: str = ""


def cell_index(name: str) -> int:
    """The index 0-24 of a cell name ``a1``..``e5`` (row by row from ``a1``); ValueError
    when it is not one."""
    if len(name) == 2 and "a" <= name[0] <= "e" and "1" <= name[1] <= "5":
        return SIZE * (ord(name[1]) - ord("1")) + ord(name[0]) - ord("a")
    raise ValueError(f"{name!r} is not a cell a1..e5")


def group_of(cells: set[int], start: int) -> set[int]:
    """The cells of ``cells`` reached from ``start`` through cells sharing a side."""
    seen = {start}
    stack = [start]
    while stack:
        k = stack.pop()
        row, col = divmod(k, SIZE)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            j = SIZE * r + c
            if 0 <= r < SIZE and 0 <= c < SIZE and j in cells and j not in seen:
                seen.add(j)
                stack.append(j)
    return seen


def connected(cells: set[int]) -> bool:
    """Whether ``cells`` (indices) form one group through cells that share a side."""
    return bool(cells) and group_of(cells, min(cells)) == cells


def _word(field: str, text: str) -> None:
    if not text or any(c.isspace() or c in "~{};|[]:," for c in text):
        raise ValueError(f"{field}: {text!r} must be one word (it is written in notations)")


def _check_card(i: int, card: Card) -> None:
    where = f"cards[{i}]"
    if card.colour not in COLOURS:
        raise ValueError(f"{where}.colour: {card.colour!r} is not one of {', '.join(COLOURS)}")
    if len(card.rows) != SIZE or any(len(r) != SIZE for r in card.rows):
        raise ValueError(f"{where}.rows: a chamber is 5 rows of 5 cells")
    grid = "".join(card.rows)
    for c in grid:
        if c not in CELL_CODES:
            raise ValueError(f"{where}.rows: unknown cell code {c!r} (expected one of "
                             f"{' '.join(CELL_CODES)})")
    if grid.count("E") != 1 or grid.index("E") >= SIZE:
        raise ValueError(f"{where}.rows: need exactly one entrance E, in row 1")
    if grid.count("T") != 1 or grid.index("T") < SIZE * (SIZE - 1):
        raise ValueError(f"{where}.rows: need exactly one tomb T, in row 5")
    # G2: a chain of adjacent non-wall cells from E to T.
    group = group_of({k for k, code in enumerate(grid) if code != "#"}, grid.index("E"))
    if grid.index("T") not in group:
        raise ValueError(f"{where}.rows: no route of non-wall cells leads from E to T")


def _check(ed: Edition) -> None:
    """Raise ValueError naming the first field that breaks ruling G2."""
    _word("name", ed.name)
    if len(ed.cards) != CARDS:
        raise ValueError(f"cards: need exactly {CARDS} pyramid cards, not {len(ed.cards)}")
    numbers = sorted(c.number for c in ed.cards)
    if numbers != list(range(1, CARDS + 1)):
        raise ValueError(f"cards: the numbers must be 1 to {CARDS}, each once")
    for i, card in enumerate(ed.cards):
        _check_card(i, card)
    colours = Counter(c.colour for c in ed.cards)
    for colour in COLOURS:
        if colours[colour] != PER_COLOUR:
            raise ValueError(f"cards: {colours[colour]} {colour} cards, need {PER_COLOUR}")
    if sum(e.copies for e in ed.expeditions) != EXPEDITION_CARDS:
        raise ValueError(f"expeditions: the copies must add up to {EXPEDITION_CARDS} cards")
    codes = Counter(e.code for e in ed.expeditions)
    for i, e in enumerate(ed.expeditions):
        where = f"expeditions[{i}]"
        _word(f"{where}.code", e.code)
        if codes[e.code] > 1:
            raise ValueError(f"{where}.code: {e.code!r} appears twice")
        if e.copies < 1:
            raise ValueError(f"{where}.copies: must be at least 1")
        try:
            cells = {cell_index(c) for c in e.cells}
        except ValueError as err:
            raise ValueError(f"{where}.cells: {err}") from None
        if len(cells) != len(e.cells) or not 2 <= len(cells) <= 4 or not connected(cells):
            raise ValueError(f"{where}.cells: a pattern is 2 to 4 different cells "
                             "sharing sides")
    if len(ed.skull_values) != SKULL_SPACES:
        raise ValueError(f"skull_values: the track has {SKULL_SPACES} spaces")
    values = ed.skull_values
    if values[0] < 0 or any(values[i] > values[i + 1] for i in range(len(values) - 1)):
        raise ValueError("skull_values: must not decrease along the track (G2)")


FORMAT = EditionFormat(Edition, _check, __package__ or __name__, standard="sgp-recon-1")
load_edition = FORMAT.load
"""Read and check an edition TOML file (EditionError naming the file and field)."""
parse_edition = FORMAT.parse
"""Decode and check an edition from TOML text."""
standard_edition = FORMAT.standard
"""The edition that ships with the package (``sgp-recon-1``)."""
