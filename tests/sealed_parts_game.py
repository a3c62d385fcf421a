"""Sealed Goofspiel with a factored action encoding, registered as ``sealed-parts`` by
:func:`sealed_rl_game.register`: a bid of 12 is two actions, ``tens 1`` then ``units 2``
(SPEC 16.1), so the bindings take a move in parts, at simultaneous nodes too; a deal of
``~D1.5.9`` is three chance ids, ``~D1``, ``~D5``, ``~D9``, through the Game's default
``chance_part_outcomes`` and ``outcome_of_parts``."""

from __future__ import annotations

from sealed_game import DECK, HAND, PRIZES, SealedState
from sealed_rl_game import SealedLearning, SealedRlGame

from sneferu_cli.game import Learning


class SealedPartsGame(SealedRlGame):
    name = "sealed-parts"
    title = "Sealed Goofspiel in parts"

    def learning(self) -> Learning[SealedState]:
        return SealedPartsLearning(self)


class SealedPartsLearning(SealedLearning):

    def action_names(self, players: int, variant: str) -> list[str]:
        return [f"tens {d}" for d in range(2)] + [f"units {d}" for d in range(10)]

    def action_parts(self, move: str) -> tuple[str, ...]:
        bid = int(move.split()[1])
        return (f"tens {bid // 10}", f"units {bid % 10}")

    def max_action_parts(self, players: int, variant: str) -> int:
        return 2

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return [f"~D{c}" for c in DECK] + [f"~P{p}" for p in PRIZES]

    def outcome_parts(self, outcome: str) -> tuple[str, ...]:
        if outcome.startswith("~D"):
            return tuple(f"~D{c}" for c in outcome[2:].split("."))
        return (outcome,)

    def max_outcome_parts(self, players: int, variant: str) -> int:
        return HAND


GAME = SealedPartsGame()
