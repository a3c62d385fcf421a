"""Sealed Goofspiel (tests/sealed_game.py) with an action encoding and an observation
tensor built from the seat's view, registered as ``sealed-rl``: the learning-library
bindings' test of simultaneous nodes, a private deal and views (SPEC 16). Register it with
:func:`register` before importing ``sneferu_cli.rl.openspiel``.
"""

from __future__ import annotations

import itertools
from typing import Any

from sealed_game import DECK, HAND, PRIZES, UNKNOWN, SealedGame, SealedState

from sneferu_cli.game import GAMES, Learning


class SealedRlGame(SealedGame):
    name = "sealed-rl"

    def learning(self) -> Learning[SealedState]:
        return SealedLearning(self)


class SealedLearning(Learning[SealedState]):
    game: SealedGame

    def action_names(self, players: int, variant: str) -> list[str]:
        return [f"bid {c}" for c in DECK]

    def outcome_names(self, players: int, variant: str) -> list[str]:
        deals = ["~D" + ".".join(map(str, h)) for h in itertools.combinations(DECK, HAND)]
        return deals + [f"~P{p}" for p in PRIZES]

    def max_game_length(self, players: int, variant: str) -> int:
        return players + len(PRIZES) * (1 + players)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (3 * len(DECK) + 2 * len(PRIZES) + 2 * players,)

    def observation(self, state: Any, seat: int) -> list[float]:
        seen = self.game.from_position(self.game.view(state, seat))
        hand = seen.hands[seat] or []
        out = [1.0 if c in hand else 0.0 for c in DECK]
        out += [1.0 if c in seen.played else 0.0 for c in DECK]
        out += [1.0 if seen.bids[seat] == c else 0.0 for c in DECK]
        out += [1.0 if p in seen.prizes else 0.0 for p in PRIZES]
        out += [1.0 if p == seen.prize else 0.0 for p in PRIZES]
        out += [s / sum(PRIZES) for s in seen.scores]
        out += [0.0 if b is None else 1.0 for b in seen.bids]
        assert UNKNOWN not in hand
        return out


GAME = SealedRlGame()


def register() -> None:
    """Add ``sealed-rl`` and ``sealed-parts`` to the registry of this process (tests
    only)."""
    GAMES.setdefault("sealed-rl", "sealed_rl_game")
    GAMES.setdefault("sealed-parts", "sealed_parts_game")
