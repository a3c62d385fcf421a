"""Moves and chance outcomes read fast, exactly as the grammar reads them.

``protocol/sneferu-move.lark`` defines move notation; reading a move through it costs tens of
microseconds, more than a pipe round trip, and a game reads a hundred of them. ``MOVE``
is a regular expression for exactly the language of the grammar's ``move`` rule, and
:func:`fast_move` reads a move with it, giving the same value as ``Move.from_str``. It
returns None for anything it does not accept; the caller then reads the text through
``Move.from_str``, which gives the value or words the error. So the fast path never
accepts what the grammar rejects, and never words an error.
``tests/test_protocol_fast.py`` checks the agreement on generated moves and mutations.
The engine protocol's fast paths (``protocol/messages.py``) use ``MOVE`` too.
:func:`fast_position_tree` does the same for position notation (``protocol/sneferu-position.lark``):
``POSITION`` is the language of its ``position`` rule, and a position it accepts is cut
into the very tree Lark builds, so :func:`sneferu_cli.games.sneferu.position.from_position`
reads it without the parser (a game's first position costs a bundled engine milliseconds
through Lark).

>>> fast_move("3.2+ BT@1.4 feast").steps[1]
Place(level=1, slot=4, left=<Material.B: 0>, right=<Material.T: 1>, heba=False)
>>> fast_move("3.2+  XX@1.4") is None
True
>>> read_move("done"), read_event("~BT")
(Move(steps=()), Draw(stone=<Stone.BT: 0>))
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .components import Material, Stone, Tile
from .move import Move, parse_outcome
from .steps import END, FEAST, STORE, Arrive, Buy, Draw, LayTile, Outcome, Place, Shift, Step

if TYPE_CHECKING:
    from lark import Token, Tree

__all__ = ["MOVE", "POSITION", "fast_move", "fast_position_tree", "read_canonical_move",
           "read_event", "read_listed_steps", "read_move", "read_outcome"]

_STEP = r"[1-9]\.[1-9]\+?|[BTMGA][BTMGA]@[1-9]\.[1-9]h?|[1-9]>[1-9]|store|feast|end"
MOVE = rf"(?:(?:{_STEP})(?: +(?:{_STEP}))*|done)"
"""sneferu-move.lark's ``move`` rule as a regular expression: steps separated by spaces, or done."""

_MOVE_RE = re.compile(MOVE)
_STEP_RE = re.compile(r"([1-9])\.([1-9])(\+?)|([BTMGA])([BTMGA])@([1-9])\.([1-9])(h?)"
                      r"|([1-9])>([1-9])|(store|feast|end)")
_WORDS: dict[str, Step] = {"store": STORE, "feast": FEAST, "end": END}


def fast_move(text: str) -> Move | None:
    """``Move.from_str(text)`` for a well-formed move, else None (Lark then says why)."""
    if _MOVE_RE.fullmatch(text) is None:
        return None
    steps: list[Step] = []
    for m in _STEP_RE.finditer(text):
        col, row, bonus, left, right, level, slot, heba, source, target, word = m.groups()
        if col is not None:
            steps.append(Buy(int(col), int(row), bonus == "+"))
        elif left is not None:
            if left == right:
                return None  # a stone's two halves differ: Move.from_str says so
            steps.append(Place(int(level), int(slot), Material[left], Material[right],
                               heba == "h"))
        elif source is not None:
            steps.append(Shift(int(source), int(target)))
        else:
            steps.append(_WORDS[word])
    return Move(tuple(steps))


def read_move(text: str) -> Move:
    """``Move.from_str(text)``, through :func:`fast_move` when it can."""
    move = fast_move(text)
    return move if move is not None else Move.from_str(text)


@functools.lru_cache(maxsize=1 << 15)
def read_listed_steps(text: str) -> tuple[Step, ...]:
    """The steps of :func:`read_move` (``text``), kept for the texts met most: the moves
    a listing of legal moves writes recur from game to game, and steps are immutable."""
    return read_move(text).steps


def read_canonical_move(text: str) -> tuple[Move, str]:
    """:func:`read_move` and the move's canonical text, ``str(move)``. That is ``text``
    itself when the fast path reads it and it has no double space: the fast path accepts
    each step only in the form ``str`` writes it (the arbiter and engines apply every move
    this way, so the text is not rebuilt for each)."""
    move = fast_move(text)
    if move is not None and "  " not in text:
        return move, text
    move = move if move is not None else Move.from_str(text)
    return move, str(move)


_KNOWN: list[Outcome] = [*(Draw(s) for s in Stone), *(LayTile(t) for t in Tile),
                         *(Arrive(seat) for seat in range(4))]
_OUTCOMES: dict[str, Outcome] = {str(o): o for o in _KNOWN}
"""Every chance outcome but a builder's, under its own notation (``~BT``, ``~FOOD1``, ``~2``)."""


def read_outcome(text: str) -> Outcome:
    """``parse_outcome(text)``: the outcomes written as the arbiter writes them are looked
    up, any other text is read through the grammar (and remembered)."""
    outcome = _OUTCOMES.get(text)
    return outcome if outcome is not None else _parse_outcome(text)


@functools.lru_cache(maxsize=512)
def _parse_outcome(text: str) -> Outcome:
    return parse_outcome(text)


def read_event(text: str) -> Move | Outcome:
    """An event of a ``position`` line: a chance outcome (``~BT``) or a whole turn."""
    return read_outcome(text) if text.startswith("~") else read_move(text)


_NAME = r"[A-Za-z][A-Za-z0-9_-]*"
_COUNT = r"[0-9]+"
_TILE = r"(?:[A-Z][A-Z0-9]+|\?)"
_RUN = r"(?:(?:[BTMGA][BTMGA])+|-)"
_SLOTS = r"(?:[BTMGA][BTMGA]|-)+"
_PLAYER = (rf"(?:{_NAME}|-|\?),{_COUNT},{_COUNT}\.(?:{_COUNT}|\?),{_SLOTS}(?:/{_SLOTS})*,"
           rf"{_RUN},(?:[fher]+|-)")
_TURN = (rf"setup|start:{_COUNT}:{_COUNT}|place:{_COUNT}:[BTMGA][BTMGA](?::store)?"
         rf"|post:{_COUNT}|draw:{_COUNT}(?:,{_COUNT})*|over(?::[BTMGA][BTMGA])?")
POSITION = (rf"{_NAME} (?:standard|builders) {_TILE}(?:,{_TILE})* {_RUN}(?:/{_RUN})* "
            rf"{_COUNT}(?:,{_COUNT})* {_RUN} {_PLAYER}(?:;{_PLAYER})* (?:{_TURN})")
"""sneferu-position.lark's ``position`` rule as a regular expression."""

_POSITION_RE = re.compile(POSITION)


def _none_or(kind: str, text: str) -> Token:
    """A field that is ``-`` (NONE) or a ``kind`` token."""
    from lark import Token

    return Token("NONE", text) if text == "-" else Token(kind, text)


def fast_position_tree(text: str) -> Tree[Token] | None:
    """The tree Lark builds for a position (``text`` already stripped), or None when
    ``POSITION`` does not match (Lark then says why)."""
    from lark import Token, Tree

    if _POSITION_RE.fullmatch(text) is None:
        return None
    name, variant, tiles, offer, bag, ptah, players, turn = text.split(" ")
    return Tree("position", [
        Token("NAME", name), Token("VARIANT", variant),
        Tree("tiles", [Tree("tile", [Token("UNKNOWN", t) if t == "?" else Token("TILE", t)])
                       for t in tiles.split(",")]),
        Tree("offer", [Tree("column", [_none_or("STONES", c)]) for c in offer.split("/")]),
        Tree("bag", [Token("COUNT", n) for n in bag.split(",")]),
        Tree("ptah", [_none_or("STONES", ptah)]),
        Tree("players", [_player_tree(p) for p in players.split(";")]),
        Tree("turn", [_turn_tree(turn)])])


def _player_tree(text: str) -> Tree[Token]:
    from lark import Token, Tree

    builder, food, boat, pyramid, store, flags = text.split(",")
    space, order = boat.split(".")
    return Tree("player", [
        Tree("builder", [Token("UNKNOWN", builder) if builder == "?"
                         else _none_or("NAME", builder)]),
        Token("COUNT", food),
        Tree("boat", [Token("COUNT", space),
                      Token("UNKNOWN", order) if order == "?" else Token("COUNT", order)]),
        Tree("pyramid", [Token("SLOTS", level) for level in pyramid.split("/")]),
        Tree("store", [_none_or("STONES", store)]),
        Tree("flags", [_none_or("FLAGS", flags)])])


def _turn_tree(text: str) -> Tree[Token] | Token:
    from lark import Token, Tree

    if text == "setup":
        return Token("SETUP", text)
    kind, _, rest = text.partition(":")
    if kind == "place":
        seat, stone, *store = rest.split(":")
        return Tree("place", [Token("COUNT", seat), Token("STONE", stone),
                              *(Token("STORE", ":store") for _ in store)])
    if kind == "over":
        return Tree("over", [Token("STONE", rest)] if rest else [])
    sep = "," if kind == "draw" else ":"
    return Tree(kind, [Token("COUNT", n) for n in rest.split(sep)])
