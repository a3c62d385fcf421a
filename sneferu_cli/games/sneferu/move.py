"""Move notation: one whole turn on one line, and the single step and chance tokens.

The grammar is ``protocol/sneferu-move.lark``; SPEC.md, "Move notation", describes it.

>>> m = Move.from_str("3.2+ BT@1.4")
>>> m.steps[0], m.steps[1].level, m.steps[1].slot, str(m.steps[1])
(Buy(column=3, row=2, bonus=True), 1, 4, 'BT@1.4')
>>> str(m)
'3.2+ BT@1.4'
>>> parse_action("~FOOD1"), parse_action("done")
(LayTile(tile=<Tile.FOOD1: 0>), Done())
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import msgspec

from ...game import NotationError
from ...grammar import parse
from .components import Material, Stone, Tile
from .state import GameState
from .steps import (
    DONE,
    END,
    FEAST,
    STORE,
    Action,
    Arrive,
    Assign,
    Buy,
    Draw,
    LayTile,
    Outcome,
    Place,
    Shift,
    Step,
)

if TYPE_CHECKING:
    from lark import Token, Tree

_WORDS: dict[str, Step] = {"store": STORE, "feast": FEAST, "end": END}


class Move(msgspec.Struct, frozen=True):
    """One whole turn: the active player's steps in order (the closing Done implied).

    The move with no step, which only ends the turn in the after-turn phase, is written
    ``done``.
    """

    steps: tuple[Step, ...]

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Read a move; NotationError (a ValueError) says what and where when malformed."""
        tree = parse("sneferu-move", "move", text, "move")
        return cls(tuple(_step(tok) for tok in _tokens(tree) if tok.type != "DONE"))

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.steps) or "done"

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)


def parse_action(text: str) -> Action:
    """Read one step token (``done`` included) or one chance outcome token."""
    actions = parse_actions(text)
    if len(actions) != 1:
        raise NotationError(f"expected one step or chance outcome, got {len(actions)}: {text!r}")
    return actions[0]


def parse_actions(text: str) -> list[Action]:
    """Read a space-separated run of steps and chance outcomes (as after a position)."""
    tree = parse("sneferu-move", "actions", text, "moves")
    return [_action(tok) for tok in _tokens(tree)]


def parse_outcome(text: str) -> Outcome:
    """Read one chance outcome token such as ``~BT``, ``~FOOD1``, ``~2`` or ``~Heba``."""
    action = parse_action(text)
    if not isinstance(action, Draw | LayTile | Arrive | Assign):
        raise NotationError(f"not a chance outcome: {text!r} (expected ~ and a value, like ~BT)")
    return action


def legal_moves(state: GameState) -> list[Move]:
    """Every legal whole turn of the active player (empty at chance nodes and the end)."""
    return [Move(steps) for steps in state.legal_turns()]


def legal_move_strings(state: GameState) -> list[str]:
    """``[str(m) for m in legal_moves(state)]``, built much faster: the move list engines get."""
    return state.legal_turn_texts()


def _tokens(tree: Tree[Token]) -> list[Token]:
    from lark import Token

    return list(tree.scan_values(lambda v: isinstance(v, Token)))


def _action(tok: Token) -> Action:
    if tok.type == "OUTCOME":
        return _outcome(str(tok))
    if tok.type == "DONE":
        return DONE
    return _step(tok)


def _step(tok: Token) -> Step:
    text, kind = str(tok), tok.type
    if kind == "BUY":
        return Buy(int(text[0]), int(text[2]), text.endswith("+"))
    if kind == "PLACE":
        left, right = Material[text[0]], Material[text[1]]
        if left == right:
            raise NotationError(f"bad placement {text!r}: a stone's two halves differ "
                                f"(column {tok.column})")
        return Place(int(text[3]), int(text[5]), left, right, text.endswith("h"))
    if kind == "SHIFT":
        return Shift(int(text[0]), int(text[2]))
    return _WORDS[text]


def _outcome(text: str) -> Outcome:
    body = text[1:]
    if body.isdigit():
        if body not in ("1", "2", "3", "4"):
            raise NotationError(f"bad seat in {text!r} (seats are 1 to 4)")
        return Arrive(int(body) - 1)
    if len(body) == 2 and all(c in "BTMGA" for c in body):
        return Draw(Stone.from_str(body))
    if body.isupper():
        return LayTile(Tile.from_str(body))
    if body.isalpha() and body[0].isupper():
        return Assign(body)
    raise NotationError(f"not a chance outcome: {text!r}")
