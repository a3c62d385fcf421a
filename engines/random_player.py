#!/usr/bin/env python3
"""random: an engine that plays a legal move chosen uniformly at random, in every
registered game (it declares them all with ``feature games``).

Speaks the engine protocol on stdin/stdout (SPEC.md section 6). In a game with hidden
information it knows only its seat's view, and at a simultaneous node it chooses among its
own seat's moves. Option Seed (spin) makes
its games repeatable: the generator is reseeded with it at every new game.
"""

from typing import Any

from sneferu_cli.game import game_names
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go


class RandomPlayer(Bot):
    name = "random"
    games = tuple(game_names())

    def choose(self, state: Any, go: Go) -> str:
        return self.rng.choice(self.legal_moves(state))


if __name__ == "__main__":
    run(RandomPlayer())
