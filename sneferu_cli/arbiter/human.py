"""A human seat: a person at the terminal types moves; mistakes are explained, not faults."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..notation.move import Move
from ..notation.picture import picture
from ..protocol.messages import GameOver, NewGame, Position
from ..rules.components import NotationError
from ..rules.state import IllegalAction
from .agent import TurnAnswer, TurnRequest
from .process import EngineFault

__all__ = ["Human"]

HELP = """\
Type a whole turn in move notation, its steps separated by spaces:
  1.1 TG@1.1        buy column 1 row 1, place it Tura left, granite right, in slot 1.1
  3.2+ BT@1.4       buy with the quarry bonus (+)
  4.1 store         keep the stone in the storehouse (STOREHOUSE bonus)
  MG@1.2 4.1 BT@1.3 place a stored stone first, then buy and place
  end               the forced end, when no stone can be bought
Commands: ? or moves (every legal move), ? PREFIX (the legal moves starting with PREFIX),
show (the position again), help."""


class Human:
    """A person playing one seat through ``inp`` and ``out`` (the terminal by default)."""

    timed = False

    def __init__(self, name: str = "human", inp: TextIO | None = None,
                 out: TextIO | None = None) -> None:
        self.name = name
        self.author: str | None = None
        self.fault: EngineFault | None = None
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self.seat = 0

    def new_game(self, game: NewGame) -> None:
        self.seat = game.seat
        self.fault = None
        against = "Ptah" if game.players == 1 else f"{game.players - 1} others"
        self._say(f"You play seat {game.seat} against {against}. Type help for help.")

    def wait_ready(self) -> None:
        pass

    def play_turn(self, request: TurnRequest) -> TurnAnswer:
        start = time.monotonic()
        self._say("", picture(request.state))
        while True:
            self.out.write(f"seat {self.seat}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self._say("")
                raise EngineFault("eof", "the player's input closed")
            text = " ".join(line.split())
            if not text:
                continue
            word, _, rest = text.partition(" ")
            if word in ("?", "moves"):
                self._list(request, rest)
            elif text == "show":
                self._say(picture(request.state))
            elif text == "help":
                self._say(HELP)
            else:
                try:
                    move = Move.from_str(text)
                    request.state.clone().apply_turn(move.steps)
                except NotationError as e:
                    self._say(f"Not a move: {e}", "Type ? for the legal moves, help for help.")
                except IllegalAction as e:
                    self._say(f"Illegal: {e}", "Type ? for the legal moves.")
                else:
                    ms = round((time.monotonic() - start) * 1000)
                    return TurnAnswer(str(move), ms)

    def game_over(self, position: Position, result: GameOver) -> None:
        self._say(f"Game over: you placed {result.ranks[self.seat - 1]}.")

    def retire(self, fault: EngineFault) -> None:
        self.fault = fault

    def _list(self, request: TurnRequest, prefix: str) -> None:
        moves = [m for m in request.legal() if m.startswith(prefix)]
        if not moves:
            self._say(f"No legal move starts with {prefix!r}.")
            return
        width = max(len(m) for m in moves) + 2
        per_line = max(1, 88 // width)
        rows = ["  " + "".join(m.ljust(width) for m in moves[i:i + per_line]).rstrip()
                for i in range(0, len(moves), per_line)]
        self._say(f"{len(moves)} legal moves" + (f" starting with {prefix!r}" if prefix else "")
                  + ":", *rows)

    def _say(self, *lines: str) -> None:
        self.out.write("".join(f"{x}\n" for x in lines))
        self.out.flush()
