"""A deliberately broken engine for the arbiter's fault tests: ``broken.py MODE [N]``.

It plays random legal moves (it is the bundled random engine underneath) until its N-th
move request (default 1), where it misbehaves as MODE says:

=================  ==========================================================================
crash              exits with code 3 (after a line on stderr)
hang-move          never answers
garbage            answers a line the grammar rejects
illegal            answers a well-formed but illegal move
flood              writes 3 MB without a newline
eof                closes its output and keeps running
chatter            sends info lines without end, never a move
double-move        answers twice (the second line arrives when nothing was asked)
hang-handshake     (at start) never finishes the handshake
exit0              (at start) exits with code 0 at once
stderr-flood       writes 2 MB to stderr at start and 256 kB at every request, and plays on
flaky              crashes (exit 3) at each move request with probability N % (default 1),
                   drawn from its Seed option and the request's number in the game
orphan             starts a child that keeps its stdout open (and sleeps), then exits with
                   code 5
setsid-child       (at start) starts a child in a new session (out of the engine's process
                   group) that sleeps 60 s, writes ``child PID`` to stderr, and plays on
                   up to its N-th request, where it exits with code 3 (the child stays)
ignore-quit        plays on, but ignores ``quit``, the end of its input and SIGTERM
slow               answers after the time limit and the margin (1.5 s late)
deaf               stops reading its input and never answers
unsolicited        sends a ``move`` at ``newgame``, when ``readyok`` is awaited
=================  ==========================================================================

Every mode first writes ``pid N`` to stderr, so a test can check the process is gone, and
``misbehaving: MODE`` when it starts to misbehave, so a test knows the game has got there.
"""

import os
import random
import signal
import subprocess
import sys
import time

from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.state import GameState
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go, NewGame

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 1


class Broken(Bot):
    name = f"broken-{MODE}"

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0
        self.in_game = 0

    def new_game(self, game: NewGame) -> None:
        super().new_game(game)
        self.in_game = 0
        if MODE == "unsolicited":
            print("move 1.1 TG@1.1", flush=True)

    def choose(self, state: GameState, go: Go) -> str:
        self.requests += 1
        if MODE == "flaky":
            self.in_game += 1
            if random.Random(f"{self.seed}:{self.in_game}").random() * 100 < AT:
                sys.stderr.write("broken: crashing by chance\n")
                sys.exit(3)
        elif MODE == "stderr-flood":
            sys.stderr.write("e" * 256_000 + "\n")
            sys.stderr.flush()
        elif self.requests == AT:
            misbehave()
        move = str(Move(self.rng.choice(state.legal_turns())))
        if MODE == "double-move" and self.requests == AT:
            # Both answers leave in one write ("move X\nmove X\n"), so the second is always
            # there, unread, once the arbiter has read the first (written apart, a late
            # second line would be taken as the answer to the next request instead).
            return f"{move}\nmove {move}"
        return move


def misbehave() -> None:
    sys.stderr.write(f"misbehaving: {MODE}\n")
    sys.stderr.flush()
    if MODE in ("double-move", "ignore-quit"):
        return
    if MODE == "crash":
        sys.stderr.write("broken: crashing on purpose\n")
        sys.exit(3)
    if MODE == "hang-move":
        time.sleep(30)
    if MODE == "garbage":
        print("bestmove e2e4", flush=True)
    if MODE == "illegal":
        print("move 9.9 BT@1.1", flush=True)
    if MODE == "flood":
        sys.stdout.write("x" * 3_000_000)
        sys.stdout.flush()
    if MODE == "chatter":
        while True:
            sys.stdout.write("info string still thinking\n" * 100)
    if MODE == "eof":
        sys.stdout.close()
        os.close(1)
    if MODE == "orphan":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        sys.stderr.write("broken: leaving a child behind\n")
        os._exit(5)
    if MODE == "setsid-child":
        sys.exit(3)
    if MODE == "slow":
        time.sleep(1.5)
        return
    if MODE == "deaf":
        os.close(0)  # reads nothing more: the arbiter's writes fill the pipe
    time.sleep(30)


sys.stderr.write(f"pid {os.getpid()}\n")
sys.stderr.flush()
if MODE == "setsid-child":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             start_new_session=True, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sys.stderr.write(f"child {child.pid}\n")
    sys.stderr.flush()
if MODE == "ignore-quit":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if MODE == "exit0":
    sys.exit(0)
if MODE == "hang-handshake":
    time.sleep(30)
if MODE == "stderr-flood":
    sys.stderr.write("f" * 2_000_000 + "\n")
    sys.stderr.flush()
run(Broken())
if MODE == "ignore-quit":
    time.sleep(30)
