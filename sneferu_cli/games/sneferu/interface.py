"""The members of the game interface that every move and chance node calls, as functions
compiled with the rules core (``compiled.txt``): :class:`~sneferu_cli.games.sneferu.SneferuGame`
holds them as static methods, so a call from Python reaches compiled code with no Python
frame on the way.

>>> from sneferu_cli.games.sneferu.state import new_game
>>> state = new_game(2)
>>> apply_outcome(state, "~FOOD1")
>>> state.setup_next  # the next quarry's tile
('tile', 1)
"""

from __future__ import annotations

import random

from sneferu_cli.game import IllegalMove

from .chance import sample_outcome_text
from .fast import read_canonical_move, read_listed_steps, read_outcome
from .state import GameState

__all__ = ["apply_move", "apply_move_of", "apply_outcome",
           "legal_moves", "legal_moves_of", "sample_outcome"]


def legal_moves_of(state: GameState, seat: int) -> list[str]:
    """``Game._legal_moves``: the texts of the legal turns (:meth:`GameState.legal_turn_texts`)."""
    return state.legal_turn_texts()


def apply_move_of(state: GameState, seat: int, text: str, listed: bool) -> str:
    """``Game._apply_move``: a listed move the tables wrote applied from their numbers
    (:meth:`GameState.apply_listed_text`), any other read; a move not listed read and
    checked."""
    if listed:
        if not state.apply_listed_text(text):
            state.apply_listed_turn(read_listed_steps(text))
        return text
    move, canonical = read_canonical_move(text)
    state.apply_turn(move.steps)
    return canonical


def legal_moves(state: GameState, seat: int | None = None) -> list[str]:
    """``Game.legal_moves`` compiled: what the base class derives from
    :func:`legal_moves_of` (``tests/test_games.py`` holds them equal), without its Python
    frames on the per-move path."""
    if state.is_over() or state.is_chance_node():
        return []
    if seat is not None and seat != state.current_seat():
        return []
    return legal_moves_of(state, state.current_seat())


def apply_move(state: GameState, text: str, seat: int | None = None, *,
               listed: bool = False) -> str:
    """``Game.apply_move`` compiled: what the base class derives from
    :func:`apply_move_of` (``tests/test_games.py`` holds them equal)."""
    if seat is None:
        seat = state.current_seat()
    elif not listed and (state.is_over() or state.is_chance_node()
                         or seat != state.current_seat()):
        raise IllegalMove(f"seat {seat + 1} has no decision to take now")
    return apply_move_of(state, seat, text, listed)


def apply_outcome(state: GameState, text: str) -> None:
    """``Game.apply_outcome``: an outcome the tables write looked up
    (:meth:`GameState.apply_outcome_text`), any other read."""
    if not state.apply_outcome_text(text):
        state.apply(read_outcome(text))


def sample_outcome(state: GameState, rng: random.Random) -> str:
    """``Game.sample_outcome``: the outcome drawn, written by the tables."""
    return sample_outcome_text(state, rng)
