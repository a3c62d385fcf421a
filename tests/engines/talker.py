"""An engine that does every odd thing the protocol allows, for the record round-trip tests.

It plays random legal moves, but its name and author hold quotes, a backslash, braces and
non-ASCII text; before each move it sends an empty line and ``info`` lines of every form
(extra spaces, CR LF line ends, a negative decimal score, keys with digits and ``_``, a key
sent twice, a ``pv`` of moves, a ``string`` of free text), answers with extra spaces between
the steps, and sends one more ``info`` line after ``gameover``.
"""

import sys

from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.state import GameState
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go


class Talker(Bot):
    name = 'Tälker "2" \\ {x} ☥'
    author = "Zoë O'Brien {and} \"friends\""
    legalmoves = True

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    def choose(self, state: GameState, go: Go) -> str:
        self.requests += 1
        assert go.legal is not None
        moves = list(go.legal)
        first, second = self.rng.choice(moves), self.rng.choice(moves)
        sys.stdout.write(
            "\r\n"
            f"info  depth 1   nodes {self.requests * 7}  score -{self.requests}.5 \r\n"
            f"info depth {len(moves) % 9 + 2} sel_depth2 x seldepth 0\r\n"
            f"info pv {first} ;{second}\r\n"
            f"info string said \"{{hi}}\" = ☥ back\\slash; semi {self.requests}\r\n")
        sys.stdout.flush()
        return "  ".join(str(s) for s in Move.from_str(first).steps)

    def game_over(self, result: object) -> None:
        sys.stdout.write("info string gg\n")
        sys.stdout.flush()


if __name__ == "__main__":
    run(Talker())
