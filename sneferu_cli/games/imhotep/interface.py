"""The members of the game interface that every move and chance node calls, as functions
compiled with the rules core (``compiled.txt``): :class:`~sneferu_cli.games.imhotep.
ImhotepGame` holds them as static methods, so a call from Python reaches compiled code
with no Python frame on the way (as Sneferu's, Silver & Gold's and Akropolis's do).

>>> from sneferu_cli.games.imhotep.state import new_game
>>> state = new_game(2)
>>> while state.is_chance_node():
...     apply_outcome(state, state.chance_outcomes()[0][0])
>>> legal_moves(state)[:3]
['Q', 'L 4A.1', 'L 4A.2']
>>> apply_move(state, "Q", listed=True)
'Q'
>>> state.sleds, state.current_seat()
([5, 3], 1)
"""

from __future__ import annotations

from sneferu_cli.game import IllegalMove

from .move import parse_move, parse_outcome
from .state import ImhotepState

__all__ = ["apply_move", "apply_move_of", "apply_outcome", "legal_moves", "legal_moves_of"]


def legal_moves_of(state: ImhotepState, seat: int) -> list[str]:
    """``Game._legal_moves``: :meth:`ImhotepState.legal_move_texts`."""
    return state.legal_move_texts()


def apply_move_of(state: ImhotepState, seat: int, text: str, listed: bool) -> str:
    """``Game._apply_move``: a listed move by :meth:`ImhotepState.apply_listed_text`, any
    other read and checked."""
    if listed:
        state.apply_listed_text(text)
        return text
    move = parse_move(text)
    state.apply(move)
    return str(move)


def legal_moves(state: ImhotepState, seat: int | None = None) -> list[str]:
    """``Game.legal_moves`` compiled: what the base class derives from
    :func:`legal_moves_of` (``tests/test_games.py`` holds them equal), without its Python
    frames on the per-move path."""
    if state.is_over() or state.is_chance_node():
        return []
    if seat is not None and seat != state.current_seat():
        return []
    return legal_moves_of(state, state.current_seat())


def apply_move(state: ImhotepState, text: str, seat: int | None = None, *,
               listed: bool = False) -> str:
    """``Game.apply_move`` compiled: what the base class derives from
    :func:`apply_move_of` (``tests/test_games.py`` holds them equal)."""
    if seat is None:
        seat = state.current_seat()
    elif not listed and (state.is_over() or state.is_chance_node()
                         or seat != state.current_seat()):
        raise IllegalMove(f"seat {seat + 1} has no decision to take now")
    return apply_move_of(state, seat, text, listed)


def apply_outcome(state: ImhotepState, text: str) -> None:
    """``Game.apply_outcome``: an outcome the edition writes applied at once, any other
    read first (NotationError when malformed)."""
    if text not in state.tables.outcomes:
        parse_outcome(text)
    state.apply_outcome(text)
