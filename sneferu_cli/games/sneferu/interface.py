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

from .chance import sample_outcome_text
from .fast import read_canonical_move, read_listed_steps, read_outcome
from .state import GameState

__all__ = ["apply_move", "apply_outcome", "legal_moves", "sample_outcome"]


def legal_moves(state: GameState, seat: int) -> list[str]:
    """``Game._legal_moves``: the texts of the legal turns (:meth:`GameState.legal_turn_texts`)."""
    return state.legal_turn_texts()


def apply_move(state: GameState, seat: int, text: str, listed: bool) -> str:
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


def apply_outcome(state: GameState, text: str) -> None:
    """``Game.apply_outcome``: an outcome the tables write looked up
    (:meth:`GameState.apply_outcome_text`), any other read."""
    if not state.apply_outcome_text(text):
        state.apply(read_outcome(text))


def sample_outcome(state: GameState, rng: random.Random) -> str:
    """``Game.sample_outcome``: the outcome drawn, written by the tables."""
    return sample_outcome_text(state, rng)
