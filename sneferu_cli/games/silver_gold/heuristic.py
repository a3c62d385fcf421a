"""A cheap estimate of what each seat's Silver & Gold position is worth, in points (no I/O).

``values(state)`` is every seat's score if the game ended now (section 9: completed cards,
torches, boxes, gems, the skull penalty) plus, for each card in play, a share of the card's
10 points: the share of its shortest route to the tomb already marked, when the turns left
suffice to mark the rest (about :data:`CELLS_PER_TURN` cells a turn). The greedy engine
plays the move whose result it values best; a search may cut its playouts short with it
(``GAME.evaluate``). At a sealed node the moves already submitted count as made
(:meth:`~.state.SilverGoldState.sealed_applied`), so that a seat's move changes its value
before the others have answered.

>>> from sneferu_cli.games.silver_gold.state import new_game
>>> values(new_game(2))
[0.0, 0.0]
"""

from __future__ import annotations

from .state import CARD_POINTS, MARKING, ROUNDS, TURNS, SilverGoldState, spread

__all__ = ["CELLS_PER_TURN", "to_tomb", "values"]

CELLS_PER_TURN = 2.5
"""Cells a seat marks on one card in a turn, about (patterns of 2-4 or a single cell)."""


def to_tomb(state: SilverGoldState, card: int) -> int:
    """How many more cells ``card`` needs marked, at least, before its tomb is (G4)."""
    t = state.tables
    m = state.marks[card]
    free = ~(t.walls[card] | m)
    reached = m if m else 1 << t.entrance[card]
    steps = 0 if m else 1
    tomb = 1 << t.tomb[card]
    while not reached & tomb:
        more = reached | (spread(reached) & free)
        if more == reached:  # unreachable: only in a broken edition (G2 forbids it)
            return 25
        reached = more
        steps += 1
    return steps


def values(state: SilverGoldState) -> list[float]:
    """Every seat's estimated worth of ``state``, in points (higher is better)."""
    if any(move is not None for move in state.sealed):
        state = state.sealed_applied()
    out = [float(state.points(s)) for s in range(state.players)]
    if state.is_over():
        return out
    # Markings still to come: the turns not yet revealed, and this one's if it is open.
    turns_left = ((ROUNDS - state.round) * TURNS + TURNS - state.turn
                  + (state.phase == MARKING))
    for seat in range(state.players):
        for card in state.play[seat]:
            need = to_tomb(state, card)
            done = state.marks[card].bit_count()
            if need <= CELLS_PER_TURN * turns_left:
                out[seat] += CARD_POINTS * done / (done + need)
    return out
