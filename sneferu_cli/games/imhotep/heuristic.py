"""A cheap estimate of what each seat's Imhotep position is worth, in points (no I/O).

``values(state)`` is every seat's points now plus what its stones and cards would add if
the game ended now (the final scoring, section 11: chamber groups or rows, obelisks,
decorations, statues, unused blue cards, the Wrath), plus the temple stones seen from
above scoring at the coming round ends (6.2), plus a little for stones on the way: on a
ship (until unloaded), or waiting on the sled. The greedy engine plays the move whose
result it values best; a search may cut its playouts short with it (``GAME.evaluate``).

>>> from sneferu_cli.game import get_game
>>> game = get_game("imhotep")
>>> state = game.new_game(2)
>>> [round(v, 2) for v in values(state)]  # the sleds: 2 and 3 stones (I2)
[0.4, 0.6]
"""

from __future__ import annotations

from .state import TEMPLE, ImhotepState, temple_visible

__all__ = ["LOADED", "SLED", "values"]

SLED = 0.2
"""A stone on the sled, in points: one turn nearer to a site than a stone in the quarry
(well below a loaded stone's worth, so that loading beats taking more stones)."""
LOADED = 0.8
"""A stone on a ship: it will reach a site (or come home at the round's end); a sailed
ship's stones count until they are unloaded, so that sailing is valued by what they gain."""
TEMPLE_ROUNDS = 1.5
"""Round ends a visible temple stone is expected to score at before it is covered."""
TEMPLE_B = 1.5
"""A visible stone on the side-B temple (points, stones or a card at each round end)."""


def values(state: ImhotepState) -> list[float]:
    """Every seat's estimated worth of ``state``, in points (higher is better)."""
    if state.is_over():  # the final scoring is in the scores
        return [float(x) for x in state.scores]
    n = state.players
    out = [float(state.scores[i] + p) for i, p in enumerate(state.final_points())]
    rounds_left = state.edition.rounds - state.round + 1
    if rounds_left > 0:
        per_visible = (state.edition.temple.points_per_visible if state.side(TEMPLE) == "A"
                       else TEMPLE_B)
        worth = per_visible * min(float(rounds_left), TEMPLE_ROUNDS)
        for k in temple_visible(len(state.temple), state.temple_width()):
            out[state.temple[k]] += worth
        for ship in state.ships:  # sailed ships too: their stones are not unloaded yet
            for seat in ship.slots:
                if seat >= 0:
                    out[seat] += LOADED
        for seat in range(n):
            out[seat] += SLED * state.sleds[seat]
    return out
