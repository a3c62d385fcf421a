"""The members of the game interface that every move and chance node calls, as functions
compiled with the rules core (``compiled.txt``): :class:`~sneferu_cli.games.imhotep.
ImhotepGame` holds them as static methods, so a call from Python reaches compiled code
with no Python frame on the way (as Sneferu's, Silver & Gold's and Akropolis's do).

>>> from sneferu_cli.games.imhotep.state import new_game
>>> state = new_game(2)
>>> while state.is_chance_node():
...     apply_outcome(state, state.chance_outcomes()[0][0])
>>> legal_moves(state, 0)[:3]
['Q', 'L 4A.1', 'L 4A.2']
>>> apply_move(state, 0, "Q", True)
'Q'
>>> state.sleds, state.current_seat()
([5, 3], 1)
"""

from __future__ import annotations

from .move import parse_move, parse_outcome
from .state import ImhotepState

__all__ = ["apply_move", "apply_outcome", "legal_moves"]


def legal_moves(state: ImhotepState, seat: int) -> list[str]:
    """``Game._legal_moves``: :meth:`ImhotepState.legal_move_texts`."""
    return state.legal_move_texts()


def apply_move(state: ImhotepState, seat: int, text: str, listed: bool) -> str:
    """``Game._apply_move``: a listed move by :meth:`ImhotepState.apply_listed_text`, any
    other read and checked."""
    if listed:
        state.apply_listed_text(text)
        return text
    move = parse_move(text)
    state.apply(move)
    return str(move)


def apply_outcome(state: ImhotepState, text: str) -> None:
    """``Game.apply_outcome``: an outcome the edition writes applied at once, any other
    read first (NotationError when malformed)."""
    if text not in state.tables.outcomes:
        parse_outcome(text)
    state.apply_outcome(text)
