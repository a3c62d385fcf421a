"""Akropolis moves and chance outcomes as text (AKROPOLIS-RULES.md section 12, A23).

A move is ``p @q,r rk``: take the tile in site place *p* (1 to 9; it costs *p* − 1
stones) and lay its ``h0`` at axial position (*q*, *r*) turned by rotation *k* (0 to 5,
section 3). *q* and *r* are written as plain integers of at most two digits (``-1``,
``0``, ``12``: no ``+``, no leading zero, no ``-0``). The text is canonical exactly when
it parses: one spelling per move. A chance outcome is ``~`` and a tile code: ``~T17``.

The grammar ``protocol/akropolis-move.lark`` describes the same language; the tests
check that both accept exactly the same lines.

>>> parse_move("3 @0,-1 r5")
(3, 0, -1, 5)
>>> parse_move("3 @0,-01 r5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sneferu_cli.game.NotationError: bad move '3 @0,-01 r5': a coordinate is an integer of ...
"""

from __future__ import annotations

import re

from sneferu_cli.game import NotationError

__all__ = ["MOVE", "format_move", "parse_move", "parse_outcome"]

_NUMBER = r"(?:0|-?[1-9][0-9]?)"
MOVE = rf"[1-9] @{_NUMBER},{_NUMBER} r[0-5]"
"""The move notation as a regular expression (``FastPaths.move_pattern``)."""
_MOVE = re.compile(rf"([1-9]) @({_NUMBER}),({_NUMBER}) r([0-5])")
_OUTCOME = re.compile(r"~(T[A-Za-z0-9]+)")


def parse_move(text: str) -> tuple[int, int, int, int]:
    """``(place, q, r, rotation)`` of a move's text; NotationError naming what is wrong."""
    m = _MOVE.fullmatch(text)
    if m is None:
        raise NotationError(f"bad move {text[:40]!r}: {_why(text)}")
    return int(m[1]), int(m[2]), int(m[3]), int(m[4])


def _why(text: str) -> str:
    words = text.split(" ")
    if len(words) != 3 or "" in words:
        return "expected 'PLACE @Q,R rK' with single spaces, e.g. 1 @1,-1 r0"
    place, at, rot = words
    if re.fullmatch(r"[1-9]", place) is None:
        return "the site place is one digit, 1 to 9"
    if re.fullmatch(r"r[0-5]", rot) is None:
        return "the rotation is r0 to r5"
    parts = at[1:].split(",") if at.startswith("@") else []
    if len(parts) != 2:
        return "the position is @Q,R (e.g. @1,-1)"
    return ("a coordinate is an integer of at most two digits without a leading zero "
            "(e.g. -1, 0, 12)")


def format_move(place: int, q: int, r: int, rot: int) -> str:
    """The text of a move."""
    return f"{place} @{q},{r} r{rot}"


def parse_outcome(text: str) -> str:
    """The tile code of a chance outcome ``~T17``."""
    m = _OUTCOME.fullmatch(text)
    if m is None:
        raise NotationError(f"bad chance outcome {text[:40]!r} (expected ~ and a tile code, "
                            "e.g. ~T17)")
    return m[1]
