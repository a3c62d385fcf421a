#!/usr/bin/env python3
"""A test engine for the test-only sealed game (tests/sealed_game.py):
``sealed_player.py [MODE [N]]``.

It declares ``feature legalmoves`` and ``feature games sealed nim sneferu imhotep`` and plays
a move of the arbiter's list chosen at random (its Seed option), so it needs nothing of
its seat's view but the list. MODE:

============  ==============================================================================
play          (default) plays on
sleep         sleeps N ms before every answer (an engine that takes real time)
crash         exits with code 3 at its N-th move request (default 1)
hang-move     never answers its N-th move request
illegal       answers ``bid 99`` to its N-th move request
twice         answers its first listed move's first two words, then its second word again
              (``keep 12 12``: one card twice) to its N-th move request
flood         writes 3 MB without a newline at its N-th move request
garbage       answers a line the grammar rejects (``bestmove e2e4``) to its N-th move request
eof           closes its output at its N-th move request and keeps running
============  ==============================================================================

Every mode first writes ``pid N`` to stderr, so that a test can check the process is gone.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import nim_game
import sealed_game

nim_game.register()
sealed_game.register()

from typing import Any  # noqa: E402

from sneferu_cli.game import game_names  # noqa: E402
from sneferu_cli.protocol.bot import Bot, run  # noqa: E402
from sneferu_cli.protocol.messages import Go  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else "play"
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 1


class SealedPlayer(Bot):
    name = f"sealed-{MODE}"
    legalmoves = True
    games = tuple(game_names())

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    def choose(self, state: Any, go: Go) -> str:
        assert go.legal, "no legal moves listed"
        self.requests += 1
        if MODE == "sleep":
            time.sleep(AT / 1000)
        elif self.requests == AT and MODE != "play":
            sys.stderr.write(f"misbehaving: {MODE}\n")
            sys.stderr.flush()
            if MODE == "crash":
                sys.exit(3)
            if MODE == "hang-move":
                time.sleep(30)
            if MODE == "illegal":
                return "bid 99"
            if MODE == "twice":
                words = go.legal[0].split(" ")
                return " ".join([*words[:2], words[1]])
            if MODE == "garbage":
                print("bestmove e2e4", flush=True)
                time.sleep(30)
            if MODE == "eof":
                sys.stdout.close()
                os.close(1)
                time.sleep(30)
            if MODE == "flood":
                sys.stdout.write("x" * 3_000_000)
                sys.stdout.flush()
                time.sleep(30)
        return self.rng.choice(go.legal)


sys.stderr.write(f"pid {os.getpid()}\n")
sys.stderr.flush()
run(SealedPlayer())
