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
from .fast import read_listed_steps, read_outcome
from .state import GameState

__all__ = ["apply_listed_move", "apply_outcome", "legal_moves", "sample_outcome"]


def legal_moves(state: GameState) -> list[str]:
    """``Game.legal_moves``: the texts of the legal turns (:meth:`GameState.legal_turn_texts`)."""
    return state.legal_turn_texts()


def apply_listed_move(state: GameState, text: str) -> None:
    """``Game.apply_listed_move``: a move the tables wrote applied from their numbers
    (:meth:`GameState.apply_listed_text`), any other read."""
    if not state.apply_listed_text(text):
        state.apply_listed_turn(read_listed_steps(text))


def apply_outcome(state: GameState, text: str) -> None:
    """``Game.apply_outcome``: an outcome the tables write looked up
    (:meth:`GameState.apply_outcome_text`), any other read."""
    if not state.apply_outcome_text(text):
        state.apply(read_outcome(text))


def sample_outcome(state: GameState, rng: random.Random) -> str:
    """``Game.sample_outcome``: the outcome drawn, written by the tables."""
    return sample_outcome_text(state, rng)
