"""Sneferu's estimate of a position for each seat (``Game.evaluate``): what the greedy
engine values a move's result by.

A seat's worth is its stones in the pyramid (what the ranking counts first) and in the
storehouse (placed later for free, but not yet counted), its food, and the time it has
left on the river (the spaces before the last one, each a chance to buy later).

>>> from .state import new_game
>>> values(new_game(2))
[54.0, 54.0]
"""

from __future__ import annotations

from .state import GameState

__all__ = ["FOOD", "SPACE", "STONE", "STORED", "values"]

STONE = 10.0  # a stone placed: what the ranking counts first
STORED = 7.0  # a stone stored: placed later for free, but not yet counted
FOOD = 1.0
SPACE = 1.2  # a space left to sail: time to buy more stones


def values(state: GameState) -> list[float]:
    """Each seat's worth of ``state`` (higher is better), by seat."""
    last = state.tables.last
    return [STONE * p.pyramid.count + STORED * len(p.store) + FOOD * p.food
            + SPACE * (last - p.space) for p in state.players]
