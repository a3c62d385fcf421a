"""A slow engine of every game for the live page's tests: ``slow_any.py MS``.

It plays a random legal move of its seat after sleeping MS milliseconds, and before each
move sends an ``info`` line that tells what only it knows: ``string`` with its seat's whole
view of the position (in Silver & Gold its dealt cards) and ``pv`` with the move it is about
to make (a sealed move before it is revealed). A spectator must see neither too soon.
"""

import sys
import time
from typing import Any

from sneferu_cli.game import game_names, seat_view
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go

DELAY = int(sys.argv[1]) / 1000


class SlowAny(Bot):
    name = "slow-any"
    games = tuple(game_names())

    def choose(self, state: Any, go: Go) -> str:
        time.sleep(DELAY)
        move = self.rng.choice(self.legal_moves(state))
        self.info({"depth": "1", "pv": move,
                   "string": seat_view(self.game, state, self.seat)})
        return move


if __name__ == "__main__":
    run(SlowAny())
