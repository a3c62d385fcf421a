#!/usr/bin/env python3
"""A test engine that stops reading its input and floods its output (SPEC 7.2, ``flood``).

It is the bundled random engine, with ``feature legalmoves`` so that the arbiter's move
requests are long, and at start it makes its input pipe as small as Linux allows (one
page, 4096 bytes). After answering the ``isready`` that follows the first ``newgame`` it
never reads its input again and writes ``info`` lines without end: the arbiter's first
move request (a Sneferu opening lists some 4 kB of legal moves) does not fit in the pipe,
so its write waits while the engine's writes wait too. It writes ``pid N`` to stderr at
start, as broken.py does.
"""

import fcntl
import os
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engines"))
from random_player import RandomPlayer

from sneferu_cli.protocol.bot import run

F_SETPIPE_SZ = 1031


class DeafFlooder(RandomPlayer):
    name = "deaf-flooder"
    legalmoves = True


def lines() -> Iterator[str]:
    """The input's lines up to the first game's ``isready``; then a flood, never more."""
    in_game = False
    for line in sys.stdin:
        yield line
        word = line.split()[:1]
        in_game = in_game or word == ["newgame"]
        if in_game and word == ["isready"]:  # run() has answered readyok when asked again
            sys.stderr.write("misbehaving: deaf-flood\n")
            sys.stderr.flush()
            while True:
                sys.stdout.write("info string not listening\n" * 100)


sys.stderr.write(f"pid {os.getpid()}\n")
sys.stderr.flush()
fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
run(DeafFlooder(), stdin=lines())  # type: ignore[arg-type]
