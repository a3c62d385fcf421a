"""A cheap estimate of what each seat's Akropolis city is worth, in points (no I/O).

``values(state)`` is every seat's final score if the game ended now (section 8: the five
district types with their plazas, and the stones), plus a share of what its districts
would score once it has a plaza of their kind (``PROMISE`` of their value for a type with
no star yet). The greedy engine plays the move whose result it values best; a search may
cut its playouts short with it (``GAME.evaluate``).

>>> from sneferu_cli.game import get_game
>>> state = get_game("akropolis").new_game(2)
>>> values(state)  # the stones of each seat (4.6)
[1.0, 2.0]
"""

from __future__ import annotations

from .scoring import breakdown
from .state import AkropolisState

__all__ = ["PROMISE", "values"]

PROMISE = 0.5
"""Points per value of districts of a type without a plaza yet: a plaza may still come."""


def values(state: AkropolisState) -> list[float]:
    """Every seat's estimated worth of ``state``, in points (higher is better)."""
    from . import points

    out = []
    for seat, city in enumerate(state.cities):
        worth = float(points(state, seat))
        if not state.is_over():
            b = breakdown(city, state.tables.stars, state.bonus)
            worth += PROMISE * sum(b[k] for k in range(5) if not b[k + 5])
        out.append(worth)
    return out
