"""A slow engine for the tournament tests: ``slow.py MS``.

It plays random legal moves (the bundled random engine underneath), each after sleeping
MS milliseconds, so that a game lasts long enough to be caught running, and an engine
given less time than MS per move is retired with a timeout.
"""

import sys
import time

from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.state import GameState
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go

DELAY = int(sys.argv[1]) / 1000


class Slow(Bot):
    name = "slow"

    def choose(self, state: GameState, go: Go) -> str:
        time.sleep(DELAY)
        return str(Move(self.rng.choice(state.legal_turns())))


run(Slow())
