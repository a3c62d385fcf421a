"""Silver & Gold Pyramids moves and chance outcomes: small values with their notation.

Every value prints as its canonical move text (SILVER-GOLD-RULES.md 2.6, G26; SPEC 14.2)
and :func:`parse_move` reads it back; words are separated by single spaces.

=====  ================================  ===============================================
value  text                              meaning
=====  ================================  ===============================================
Keep   ``keep 12 40``                    set-up: keep cards 12 and 40 of the four dealt (3.3)
Mark   ``17:a1,a2,b2``                   step 2: the current pattern on card 17 (5.2)
Mark   ``17:b3``                         step 2: the single cell b3 of card 17 (5.3)
Mark   ``7:c1,d1,e1 +7:c2 +23:a1``       step 2: a marking, then bonus marks in order (5.5)
Take   ``take 31``, ``take deck``        step 3: a card of the offer, or the deck's top card
=====  ================================  ===============================================

Chance outcomes are one word: ``~deal:5,18,22,47`` (the four cards dealt to a seat),
``~offer:9`` (a card turned into the offer), ``~draw:33`` (the card a ``take deck`` draws),
``~exp:T4`` (the expedition card revealed).

Numbers are read only as 1 or 2 digits without a leading zero (no huge integers are ever
built from text); cells are ``a1`` .. ``e5``, stored as indices 0-24 row by row.

>>> str(parse_move("17:b2,a2,a1")), str(parse_move("keep 40 12"))
('17:a1,a2,b2', 'keep 12 40')
"""

from __future__ import annotations

from typing import Final

from ...game import NotationError

__all__ = ["CELL_NAMES", "DEAL", "DRAW", "EXP", "OFFER", "Keep", "Mark", "Move", "Take",
           "canonical_outcome", "parse_move", "parse_outcome"]

CELL_NAMES: Final[tuple[str, ...]] = tuple(f"{c}{r}" for r in "12345" for c in "abcde")
"""The name of each cell index 0-24 (``a1`` .. ``e5``, row by row)."""
_CELL = {name: k for k, name in enumerate(CELL_NAMES)}

DEAL = "deal"
OFFER = "offer"
DRAW = "draw"
EXP = "exp"
KINDS = (DEAL, OFFER, DRAW, EXP)
"""The kinds of chance outcome, the word after ``~``."""


class Keep:
    """``keep A B``: the two dealt cards kept (``a < b`` in canonical form)."""

    __slots__ = ("a", "b")

    def __init__(self, a: int, b: int) -> None:
        self.a = min(a, b)
        self.b = max(a, b)

    def __str__(self) -> str:
        return f"keep {self.a} {self.b}"


class Mark:
    """A step-2 move: the main marking's ``cells`` on ``card`` (sorted by row, then column)
    and the ``bonus`` marks ``(card, cell)`` in the order made."""

    __slots__ = ("bonus", "card", "cells")

    def __init__(self, card: int, cells: tuple[int, ...],
                 bonus: tuple[tuple[int, int], ...] = ()) -> None:
        self.card = card
        self.cells = tuple(sorted(cells))
        self.bonus = bonus

    def __str__(self) -> str:
        return mark_text(self.card, self.cells, self.bonus)


class Take:
    """``take N`` (a card of the offer) or ``take deck`` (``card`` 0)."""

    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        self.card = card

    def __str__(self) -> str:
        return f"take {self.card}" if self.card else "take deck"


Move = Keep | Mark | Take
"""Any move value."""


def mark_text(card: int, cells: tuple[int, ...], bonus: tuple[tuple[int, int], ...]) -> str:
    """The text of a marking (``cells`` already sorted) and its bonus marks."""
    text = f"{card}:{','.join([CELL_NAMES[k] for k in cells])}"
    for c, k in bonus:
        text += f" +{c}:{CELL_NAMES[k]}"
    return text


def _number(word: str, text: str) -> int:
    """A card number: 1 or 2 digits, no leading zero (bounded before ``int``)."""
    if 1 <= len(word) <= 2 and "1" <= word[0] <= "9" and (len(word) == 1
                                                          or "0" <= word[1] <= "9"):
        return int(word)
    raise NotationError(f"bad card number {word[:12]!r} in {text[:60]!r}")


def _cell(word: str, text: str) -> int:
    k = _CELL.get(word)
    if k is None:
        raise NotationError(f"bad cell {word[:12]!r} in move {text[:60]!r} (expected a1..e5)")
    return k


def parse_move(text: str) -> Move:
    """The move value of ``text``; :class:`NotationError` when it is not a move."""
    words = text.split(" ")
    if not text or "" in words:
        raise NotationError(f"bad move {text[:60]!r}: words are separated by single spaces")
    head = words[0]
    if head == "keep":
        if len(words) != 3:
            raise NotationError(f"bad move {text[:60]!r}: keep names two cards")
        return Keep(_number(words[1], text), _number(words[2], text))
    if head == "take":
        if len(words) != 2:
            raise NotationError(f"bad move {text[:60]!r}: take names one card or deck")
        return Take(0 if words[1] == "deck" else _number(words[1], text))
    card, colon, cells = head.partition(":")
    if not colon:
        raise NotationError(f"bad move {text[:60]!r} (expected e.g. keep 12 40, "
                            "17:a1,a2,b2, take 31)")
    main = tuple(_cell(w, text) for w in cells.split(","))
    bonus: list[tuple[int, int]] = []
    for word in words[1:]:
        c, colon, cell = word[1:].partition(":")
        if word[0] != "+" or not colon:
            raise NotationError(f"bad bonus mark {word[:12]!r} in move {text[:60]!r} "
                                "(expected e.g. +7:c2)")
        bonus.append((_number(c, text), _cell(cell, text)))
    return Mark(_number(card, text), main, tuple(bonus))


def parse_outcome(text: str) -> tuple[str, tuple[int, ...], str]:
    """A chance outcome: its kind (:data:`KINDS`), its card numbers (ascending, for deal,
    offer and draw) and its pattern code (for exp); NotationError when it is not one."""
    kind, colon, rest = text[1:].partition(":")
    if text[:1] != "~" or not colon or kind not in KINDS or not rest:
        raise NotationError(f"bad chance outcome {text[:60]!r} (expected e.g. "
                            "~deal:5,18,22,47, ~offer:9, ~draw:33 or ~exp:T4)")
    if kind == EXP:
        if not (rest.isascii() and rest.isalnum()) or len(rest) > 12:
            raise NotationError(f"bad expedition pattern {rest[:12]!r} in {text[:60]!r}")
        return kind, (), rest
    cards = tuple(sorted(_number(w, text) for w in rest.split(",")))
    if len(cards) != (4 if kind == DEAL else 1):
        raise NotationError(f"bad chance outcome {text[:60]!r}: "
                            + ("a deal is 4 cards" if kind == DEAL else "one card"))
    return kind, cards, ""


def outcome_text(kind: str, cards: tuple[int, ...] = (), code: str = "") -> str:
    """The canonical text of a chance outcome."""
    if kind == EXP:
        return f"~exp:{code}"
    return f"~{kind}:{','.join(map(str, cards))}"


def canonical_outcome(text: str) -> str:
    """The canonical form of a chance outcome (a deal's cards ascending)."""
    kind, cards, code = parse_outcome(text)
    return outcome_text(kind, cards, code)
