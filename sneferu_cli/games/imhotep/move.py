"""Imhotep moves and chance outcomes as small immutable values with their notation.

Every value prints as its move text (IMHOTEP-RULES.md section 2, "Moves") and
:func:`parse_move` reads it back; words are separated by single spaces.

===============  ========================  ==================================================
value            text                      meaning
===============  ========================  ==================================================
TakeStones       ``Q``                     take stones from the quarry (5.1, I3)
Load             ``L 3A.2``                one stone from the sled onto slot 2 of ship 3A (5.2)
Sail             ``S 4A P``                sail ship 4A to the pyramid (5.3)
Lever            ``LEV 4A P 3,1,4,2``      lever card: sail, unloading slots in this order (I20)
Hammer           ``HAM 2A.1``, ``HAM -``   hammer card: take stones, then load (``-``: no load)
SailCard         ``SAI 3A.3 T``            sail card: load slot 3A.3, then sail 3A to the temple
Chisel           ``CHI 3A.1 2B.2``         chisel card: load two slots (I37 order)
Pass             ``PASS``                  no other move is legal (I6)
TakeCard         ``take M2``, ``take MX``  a market stone's owner takes a card (6.1, 7.1)
Keep             ``keep ENT``              keep one card of the side-B pair (I32)
ChoosePyramid    ``pyr PL``, ``pyr PL bonus``, ``pyr PR bonus 3A.1``  side-B pyramid (7.2, I29)
TempleChoice     ``temple pts``, ``temple stones``  side-B temple ``PS`` column (7.3)
===============  ========================  ==================================================

Chance outcomes are one word starting with ``~``: ``~R2-3`` (a round card revealed) and
``~ENT`` (a market card drawn).

>>> str(parse_move("CHI 2B.2 3A.1")), str(parse_move("pyr PR bonus 3A.1"))
('CHI 3A.1 2B.2', 'pyr PR bonus 3A.1')
"""

from __future__ import annotations

import functools

import msgspec

from sneferu_cli.game import NotationError

SITE_CODES = "MPTCO"


class MoveValue(msgspec.Struct, frozen=True, tag=True):
    """The base of every move value."""

    @classmethod
    def from_str(cls, text: str) -> Move:
        """The move of ``text`` (:func:`parse_move`), which must be a ``cls``."""
        move = parse_move(text)
        if not isinstance(move, cls):
            raise NotationError(f"move {text!r} is not a {cls.__name__} move")
        return move


class TakeStones(MoveValue, frozen=True):
    """``Q``: take min(3, room on the sled, own stones in the quarry) stones (I3)."""

    def __str__(self) -> str:
        return "Q"


class Load(MoveValue, frozen=True):
    """``L 3A.2``: one stone from the sled onto ``slot`` (1-based, from the bow) of ``ship``."""

    ship: str
    slot: int

    def __str__(self) -> str:
        return f"L {self.ship}.{self.slot}"


class Sail(MoveValue, frozen=True):
    """``S 4A P``: sail ``ship`` to ``site`` (one of ``MPTCO``)."""

    ship: str
    site: str

    def __str__(self) -> str:
        return f"S {self.ship} {self.site}"


class Lever(MoveValue, frozen=True):
    """``LEV 4A P 3,1,4,2``: the lever card; ``order`` lists every occupied slot once."""

    ship: str
    site: str
    order: tuple[int, ...]

    def __str__(self) -> str:
        return f"LEV {self.ship} {self.site} {','.join(map(str, self.order))}"


class Hammer(MoveValue, frozen=True):
    """``HAM 2A.1``: the hammer card, taking stones then loading; ``HAM -`` (``ship`` empty)
    when no load is possible (I21)."""

    ship: str = ""
    slot: int = 0

    def __str__(self) -> str:
        return f"HAM {self.ship}.{self.slot}" if self.ship else "HAM -"


class SailCard(MoveValue, frozen=True):
    """``SAI 3A.3 T``: the sail card: load ``slot`` of ``ship``, then sail it to ``site``."""

    ship: str
    slot: int
    site: str

    def __str__(self) -> str:
        return f"SAI {self.ship}.{self.slot} {self.site}"


class Chisel(MoveValue, frozen=True):
    """``CHI 3A.1 2B.2``: the chisel card, two stones onto two slots, in I37 order."""

    ship1: str
    slot1: int
    ship2: str
    slot2: int

    def __str__(self) -> str:
        return f"CHI {self.ship1}.{self.slot1} {self.ship2}.{self.slot2}"


class Pass(MoveValue, frozen=True):
    """``PASS``: legal only when no other action is (I6)."""

    def __str__(self) -> str:
        return "PASS"


class TakeCard(MoveValue, frozen=True):
    """``take M2``: a market stone's owner takes display card ``slot`` (``M1``.., ``MX``)."""

    slot: str

    def __str__(self) -> str:
        return f"take {self.slot}"


class Keep(MoveValue, frozen=True):
    """``keep ENT``: keep this card of the side-B pair, the other is discarded (I13, I32)."""

    card: str

    def __str__(self) -> str:
        return f"keep {self.card}"


class ChoosePyramid(MoveValue, frozen=True):
    """``pyr PL`` / ``pyr PL bonus`` / ``pyr PR bonus 3A.1``: a side-B pyramid, whether to
    use its slot's bonus, and the ship slot a ``LOAD`` bonus fills (I29)."""

    pyramid: str
    bonus: bool = False
    ship: str = ""
    slot: int = 0

    def __str__(self) -> str:
        if not self.bonus:
            return f"pyr {self.pyramid}"
        if self.ship:
            return f"pyr {self.pyramid} bonus {self.ship}.{self.slot}"
        return f"pyr {self.pyramid} bonus"


class TempleChoice(MoveValue, frozen=True):
    """``temple pts`` / ``temple stones``: a side-B temple ``PS`` column's choice (7.3)."""

    stones: bool

    def __str__(self) -> str:
        return "temple stones" if self.stones else "temple pts"


Move = (TakeStones | Load | Sail | Lever | Hammer | SailCard | Chisel | Pass | TakeCard
        | Keep | ChoosePyramid | TempleChoice)
"""Any move value."""

Q = TakeStones()
PASS = Pass()


def _ship(word: str, text: str) -> str:
    if len(word) == 2 and word[0] in "123456789" and "A" <= word[1] <= "Z":
        return word
    raise NotationError(f"bad ship {word!r} in move {text!r} (expected e.g. 3A)")


def _number(word: str, what: str, text: str) -> int:
    if word.isascii() and word.isdigit() and word[0] != "0" and len(word) <= 2:
        return int(word)
    raise NotationError(f"bad {what} {word!r} in move {text!r}")


def _slot(word: str, text: str) -> tuple[str, int]:
    ship, dot, n = word.partition(".")
    if not dot:
        raise NotationError(f"bad ship slot {word!r} in move {text!r} (expected e.g. 3A.2)")
    return _ship(ship, text), _number(n, "slot", text)


def _site(word: str, text: str) -> str:
    if len(word) == 1 and word in SITE_CODES:
        return word
    raise NotationError(f"bad site {word!r} in move {text!r} (expected one of M P T C O)")


def _code(word: str, what: str, text: str) -> str:
    if word.isascii() and word.isalnum() and word[0].isupper():
        return word
    raise NotationError(f"bad {what} {word!r} in move {text!r}")


def ship_order(ship: str) -> tuple[int, str]:
    """The round-card order of ship names: larger capacity first, then the letter (I37)."""
    return -int(ship[0]), ship[1]


def chisel(a: tuple[str, int], b: tuple[str, int]) -> Chisel:
    """The chisel move loading slots ``a`` and ``b``, in I37 canonical order."""
    if (ship_order(b[0]), b[1]) < (ship_order(a[0]), a[1]):
        a, b = b, a
    return Chisel(a[0], a[1], b[0], b[1])


@functools.lru_cache(maxsize=4096)
def parse_move(text: str) -> Move:
    """The move value of ``text``; :class:`NotationError` when it is not a move (values
    are immutable, so the texts met most are kept)."""
    words = text.split(" ")
    if not text or "" in words:
        raise NotationError(f"bad move {text!r}: words are separated by single spaces")
    head, args = words[0], words[1:]
    n = len(args)
    if head == "Q" and n == 0:
        return Q
    if head == "PASS" and n == 0:
        return PASS
    if head == "L" and n == 1:
        return Load(*_slot(args[0], text))
    if head == "S" and n == 2:
        return Sail(_ship(args[0], text), _site(args[1], text))
    if head == "LEV" and n == 3:
        order = tuple(_number(w, "slot", text) for w in args[2].split(","))
        return Lever(_ship(args[0], text), _site(args[1], text), order)
    if head == "HAM" and n == 1:
        return Hammer() if args[0] == "-" else Hammer(*_slot(args[0], text))
    if head == "SAI" and n == 2:
        return SailCard(*_slot(args[0], text), _site(args[1], text))
    if head == "CHI" and n == 2:
        return chisel(_slot(args[0], text), _slot(args[1], text))
    if head == "take" and n == 1:
        slot = args[0]
        if slot == "MX" or (len(slot) == 2 and slot[0] == "M" and slot[1] in "123456789"):
            return TakeCard(slot)
        raise NotationError(f"bad display slot {slot!r} in move {text!r}")
    if head == "keep" and n == 1:
        return Keep(_code(args[0], "card", text))
    if head == "pyr" and 1 <= n <= 3:
        pyramid = _code(args[0], "pyramid", text)
        if n == 1:
            return ChoosePyramid(pyramid)
        if args[1] != "bonus":
            raise NotationError(f"bad move {text!r}: expected 'bonus' after the pyramid")
        if n == 2:
            return ChoosePyramid(pyramid, True)
        return ChoosePyramid(pyramid, True, *_slot(args[2], text))
    if head == "temple" and n == 1 and args[0] in ("pts", "stones"):
        return TempleChoice(args[0] == "stones")
    raise NotationError(f"bad move {text!r}")


def parse_outcome(text: str) -> str:
    """The code of a chance outcome ``~CODE`` (a round card or a market card)."""
    if len(text) < 2 or text[0] != "~" or not _is_code(text[1:]):
        raise NotationError(f"bad chance outcome {text!r} (expected e.g. ~R2-3 or ~ENT)")
    return text[1:]


def _is_code(word: str) -> bool:
    return word.isascii() and all(c.isalnum() or c == "-" for c in word)
