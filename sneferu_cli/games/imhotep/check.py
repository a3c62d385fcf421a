"""Imhotep's invariants (``GAME.check``, called by the tests at every step of random games).

Every colour's stones (the edition's count with the score marker, section 2, I2) and every
market card (deck, discard, display, hands, being resolved, the drawn pair; I33) are
conserved; sleds hold at most their capacity; rounds stay within the edition's (6); a
round has four ships or none, and no two sailed ships lie at the same site.
"""

from __future__ import annotations

from ...game import BrokenInvariant
from .state import ImhotepState

__all__ = ["check"]


def check(state: ImhotepState) -> None:
    """Raise :class:`BrokenInvariant` when ``state`` breaks conservation or a bound."""
    ed = state.edition
    problems: list[str] = []
    for seat in range(state.players):
        stones = state.stones_of(seat)
        if stones != ed.stones_per_colour:
            problems.append(f"seat {seat + 1} has {stones} stones")
        if not 0 <= state.sleds[seat] <= ed.sled_capacity or state.quarries[seat] < 0:
            problems.append(f"seat {seat + 1}: sled {state.sleds[seat]}, "
                            f"quarry {state.quarries[seat]}")
    cards = sum(state.tables.card_counts)
    if state.cards_in_play() != cards:
        problems.append(f"{state.cards_in_play()} market cards (not {cards})")
    if not 1 <= state.round <= ed.rounds:
        problems.append(f"round {state.round}")
    if len(state.ships) not in (0, 4):
        problems.append(f"{len(state.ships)} ships")
    sailed = [s.site for s in state.ships if s.site >= 0]
    if len(set(sailed)) != len(sailed):
        problems.append(f"two ships at one site {sailed}")
    if problems:
        raise BrokenInvariant("; ".join(problems))
