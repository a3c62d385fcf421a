"""The members of the game interface that every move and chance node calls, as functions
compiled with the rules core (``compiled.txt``): :class:`~sneferu_cli.games.akropolis.
AkropolisGame` holds them as static methods, so a call from Python reaches compiled code
with no Python frame on the way.

>>> from sneferu_cli.games.akropolis.state import new_game
>>> state = new_game(2)
>>> apply_outcome(state, "~T05")
>>> state.site, state.to_draw
([4], 3)
"""

from __future__ import annotations

import random

from sneferu_cli.game import IllegalMove

from .geometry import REACH, cell, distance
from .move import parse_move, parse_outcome
from .state import LISTED, AkropolisIllegalMove, AkropolisState, sample_tile

__all__ = [
    "apply_move",
    "apply_move_of",
    "apply_outcome",
    "is_listed_move",
    "legal_moves",
    "legal_moves_of",
    "sample_outcome",
]


def legal_moves_of(state: AkropolisState, seat: int) -> list[str]:
    """``Game._legal_moves``: :meth:`AkropolisState.legal_move_texts`."""
    return state.legal_move_texts()


def apply_move_of(state: AkropolisState, seat: int, text: str, listed: bool) -> str:
    """``Game._apply_move``: a listed move applied unchecked (:func:`apply_listed_move`),
    any other read and checked."""
    if listed:
        apply_listed_move(state, text)
        return text
    place, q, r, rot = parse_move(text)
    if distance(q, r) > REACH:
        raise AkropolisIllegalMove("illegal move: too far from the city")
    state.move(place, cell(q, r), rot)
    return text


def legal_moves(state: AkropolisState, seat: int | None = None) -> list[str]:
    """``Game.legal_moves`` compiled: what the base class derives from
    :func:`legal_moves_of` (``tests/test_games.py`` holds them equal), without its Python
    frames on the per-move path."""
    if state.is_over() or state.is_chance_node():
        return []
    if seat is not None and seat != state.current_seat():
        return []
    return legal_moves_of(state, state.current_seat())


def apply_move(state: AkropolisState, text: str, seat: int | None = None, *,
               listed: bool = False) -> str:
    """``Game.apply_move`` compiled: what the base class derives from
    :func:`apply_move_of` (``tests/test_games.py`` holds them equal)."""
    if seat is None:
        seat = state.current_seat()
    elif not listed and (state.is_over() or state.is_chance_node()
                         or seat != state.current_seat()):
        raise IllegalMove(f"seat {seat + 1} has no decision to take now")
    return apply_move_of(state, seat, text, listed)


def is_listed_move(state: AkropolisState, text: str) -> bool:
    """``FastPaths.is_listed_move``: :meth:`AkropolisState.is_listed_move`."""
    return state.is_listed_move(text)


def legal_line(state: AkropolisState, seat: int, sep: str) -> str | None:
    """``FastPaths.legal_line``: :meth:`AkropolisState.legal_move_line` for the seat to
    move (another seat has no moves: the empty line)."""
    if state.is_chance_node() or seat != state.current_seat():
        return ""
    return state.legal_move_line(sep)


def apply_listed_move(state: AkropolisState, text: str) -> None:
    """A listed move: a text a spot made (:data:`~.state.LISTED`) applied from
    its numbers, any other read."""
    listed = LISTED.get(text)
    if listed is None:
        place, q, r, rot = parse_move(text)
        state.move_unchecked(place, cell(q, r), rot)
        return
    spot = listed >> 3
    state.move_unchecked(listed & 7, spot // 6, spot % 6)


def sample_outcome(state: AkropolisState, rng: random.Random) -> str:
    """``Game.sample_outcome``: one undrawn tile, uniformly (A4), as its outcome's text."""
    return state.tables.outcomes[sample_tile(state, rng)]


def apply_outcome(state: AkropolisState, text: str) -> None:
    """``Game.apply_outcome``: the tile of the outcome's text drawn into the site."""
    tile = state.tables.outcome_index.get(text)
    if tile is None:
        raise AkropolisIllegalMove(f"unknown tile {parse_outcome(text)}")
    state.draw(tile)
