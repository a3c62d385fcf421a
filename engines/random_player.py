#!/usr/bin/env python3
"""random: a Sneferu engine that plays a legal move chosen uniformly at random.

Speaks the engine protocol on stdin/stdout (SPEC.md section 6). Option Seed (spin) makes
its games repeatable: the generator is reseeded with it at every new game.
"""

from sneferu_cli.games.sneferu.notation.move import legal_move_strings
from sneferu_cli.games.sneferu.rules.state import GameState
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go


class RandomPlayer(Bot):
    name = "random"

    def choose(self, state: GameState, go: Go) -> str:
        return self.rng.choice(legal_move_strings(state))


if __name__ == "__main__":
    run(RandomPlayer())
