"""A human seat: a person at the terminal types moves; mistakes are explained, not faults.

Before each of its turns the seat sees the parts of the picture that changed since its
last turn (the whole picture the first time, and on ``show``); a long list of legal moves
is grouped by its first step, ``? STEP`` lists one group.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..game import NotationError
from ..games.sneferu.notation.move import Move
from ..games.sneferu.notation.picture import picture, sections
from ..games.sneferu.rules.state import IllegalAction
from ..protocol.messages import GameOver, NewGame, Position
from ..words import plural
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
Commands: ? or moves (the legal moves; grouped by their first step when there are many),
? PREFIX (the legal moves starting with PREFIX, e.g. ? 1.1), show (the whole position
again), help."""

LIST_LIMIT = 40
"""More legal moves than this are listed grouped by their first step."""


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
        self._seen: dict[str, str] = {}

    def new_game(self, game: NewGame) -> None:
        self.seat = game.seat
        self.fault = None
        self._seen = {}
        against = "Ptah" if game.players == 1 else plural(game.players - 1, "other seat")
        self._say(f"You play seat {game.seat} against {against}. Type help for help.")

    def wait_ready(self) -> None:
        pass

    def play_turn(self, request: TurnRequest) -> TurnAnswer:
        start = time.monotonic()
        self._say("", self._changes(request))
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
                self._seen = dict(sections(request.state))
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

    def _changes(self, request: TurnRequest) -> str:
        """The parts of the picture that changed since this seat last saw it, and a line
        naming the parts that did not (the whole picture the first time)."""
        parts = sections(request.state)
        seen, self._seen = self._seen, dict(parts)
        if not seen:
            return picture(request.state)
        same = [name for name, text in parts
                if seen.get(name) == text and name not in ("title", "legend")]
        shown = [text for name, text in parts
                 if name not in same and name not in ("title", "legend")]
        if same:
            shown.insert(-1, f"(Unchanged since your last turn: {', '.join(same)}; type show "
                             "for the whole picture.)")
        return "\n\n".join(shown)

    def _list(self, request: TurnRequest, prefix: str) -> None:
        moves = [m for m in request.legal() if m.startswith(prefix)]
        if not moves:
            self._say(f"No legal move starts with {prefix!r}.")
            return
        what = plural(len(moves), "legal move") + (f" starting with {prefix!r}" if prefix
                                                   else "")
        if len(moves) <= LIST_LIMIT:
            self._say(what + ":", *_columns(moves))
            return
        # Group by the first steps, as few as split the moves into more than one group.
        depth, counts = 0, dict[str, int]()
        while len(counts) < 2 and depth < max(len(m.split(" ")) for m in moves):
            depth += 1
            counts = {}
            for m in moves:
                key = " ".join(m.split(" ")[:depth])
                counts[key] = counts.get(key, 0) + 1
        self._say(f"{what}, by their first steps (type ? STEPS for the moves of one):",
                  *_columns([f"{g} ({n})" for g, n in counts.items()]))

    def _say(self, *lines: str) -> None:
        self.out.write("".join(f"{x}\n" for x in lines))
        self.out.flush()


def _columns(items: list[str], width: int = 88) -> list[str]:
    """``items`` in as many columns as fit in ``width``, each row indented by two."""
    cell = max(len(x) for x in items) + 2
    per_line = max(1, width // cell)
    return ["  " + "".join(x.ljust(cell) for x in items[i:i + per_line]).rstrip()
            for i in range(0, len(items), per_line)]
