"""Tricks's encodings for the learning-library bindings: one action id a card, one chance
id a 3-card deal, an observation built from the seat's view."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from sneferu_cli.game import Learning

from .notation import from_position, outcome, to_position
from .state import DECK, HAND, TricksState

if TYPE_CHECKING:
    from . import TricksGame


class TricksLearning(Learning[TricksState]):
    game: TricksGame

    def action_names(self, players: int, variant: str) -> list[str]:
        return [f"play {c}" for c in DECK]

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return [outcome(list(h)) for h in itertools.combinations(DECK, HAND)]

    def max_game_length(self, players: int, variant: str) -> int:
        return players + players * HAND  # the deals, then every card played

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (len(DECK) * (2 + players) + 2 * players,)

    def observation(self, state: TricksState, seat: int) -> list[float]:
        """The seat's hand, the completed tricks' cards, each seat's card in the current
        trick, each seat's tricks won (over 3) and whether it leads: read from its view."""
        seen = from_position(to_position(state, seat))
        hand = seen.hands[seat] or []
        out = [1.0 if c in hand else 0.0 for c in DECK]
        out += [1.0 if c in seen.played else 0.0 for c in DECK]
        trick = dict(seen.trick)
        for s in range(seen.players):
            out += [1.0 if trick.get(s) == c else 0.0 for c in DECK]
        out += [w / HAND for w in seen.won]
        out += [1.0 if s == seen.leader else 0.0 for s in range(seen.players)]
        return out
