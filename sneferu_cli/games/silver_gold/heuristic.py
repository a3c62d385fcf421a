"""A cheap estimate of what each seat's position is worth, in points (no I/O).
"""

from __future__ import annotations

from .state import SilverGoldState

__all__ = ["values"]


def values(state: SilverGoldState) -> list[float]:
    """Every seat's estimated worth of ``state``, in points (higher is better)."""
    return [float(state.points(s)) for s in range(state.players)]
