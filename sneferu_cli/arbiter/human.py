"""A human seat: a person at the terminal types moves; mistakes are explained, not faults.

Before each of its turns the seat sees the parts of the picture that changed since its
last turn and those its decision needs (the whole picture the first time, and on ``show``),
then one line saying what the decision is; a long list of legal moves is grouped by its
first words, ``? WORDS`` lists one group. The game's picture, move help
and checks come through :mod:`sneferu_cli.game` (the request's game), so every game plays
the same way. In a game with hidden information the picture is that of the seat's view:
it never shows what the seat may not know (another seat's private cards or sealed move).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..game import NotationError, game_names
from ..protocol.messages import GameOver, NewGame, Position
from ..words import plural
from .agent import TurnAnswer, TurnRequest
from .process import EngineFault

__all__ = ["Human"]

COMMANDS = """\
Commands: ? or moves (the legal moves; grouped by their first words when there are many),
? PREFIX (the legal moves starting with PREFIX{example}), show (the whole picture again),
help."""
"""The commands of a human seat, after the game's :attr:`~sneferu_cli.game.Game.move_help`
(``{example}``: one of the legal moves' first word, as an example of a prefix)."""

ONCE = ("title", "legend")
"""Parts of a picture shown the first time and on ``show``, and again only when the game
puts them in its :meth:`~sneferu_cli.game.Game.picture_focus`."""

LIST_LIMIT = 40
"""More legal moves than this are listed grouped by their first words."""

HINT_LIMIT = 12
"""After an illegal move, up to this many legal moves with its first word are suggested."""


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

    @property
    def games(self) -> tuple[str, ...]:
        """Every game registered (when asked, so also one registered after this module
        was loaded): a person can play any."""
        return tuple(game_names())

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
                seen = request.seen()
                self._say(request.game.picture(seen))
                self._seen = dict(request.game.picture_parts(seen))
            elif text == "help":
                legal = request.legal()
                first = legal[0].split(" ", 1)[0] if legal else ""
                self._say(request.game.move_help,
                          COMMANDS.format(example=f", e.g. ? {first}" if first else ""))
            else:
                answer = _check(request, text)
                if isinstance(answer, str):
                    ms = round((time.monotonic() - start) * 1000)
                    return TurnAnswer(answer, ms)
                self._say(*answer)

    def game_over(self, position: Position, result: GameOver) -> None:
        self._say(f"Game over: you placed {result.ranks[self.seat - 1]}.")

    def retire(self, fault: EngineFault) -> None:
        self.fault = fault

    def _changes(self, request: TurnRequest) -> str:
        """The parts of the picture that changed since this seat last saw it and those the
        decision needs (the game's ``picture_focus``), a line naming the parts that did
        not change (the whole picture the first time), and the game's line saying what
        the decision is (:meth:`~sneferu_cli.game.Game.decision_hint`)."""
        view = request.seen()
        game = request.game
        parts = game.picture_parts(view)
        focus = game.picture_focus(view)
        hint = f"{game.decision_hint(view)} Type ? for the legal moves, help for help."
        seen, self._seen = self._seen, dict(parts)
        if not seen:
            return "\n\n".join([*(text for _, text in parts), hint])
        same = [name for name, text in parts if seen.get(name) == text
                and name not in ONCE and name not in focus]
        shown = [text for name, text in parts
                 if name in focus or (name not in same and name not in ONCE)]
        if same:
            shown.append(f"(Unchanged since your last turn: {', '.join(same)}; type show "
                         "for the whole picture.)")
        return "\n\n".join([*shown, hint])

    def _list(self, request: TurnRequest, prefix: str) -> None:
        moves = [m for m in request.legal() if m.startswith(prefix)]
        note = [] if request.game.moves_note is None else [request.game.moves_note]
        if not moves:
            self._say(f"No legal move starts with {prefix!r}.")
            return
        what = plural(len(moves), "legal move") + (f" starting with {prefix!r}" if prefix
                                                   else "")
        if len(moves) <= LIST_LIMIT:
            self._say(what + ":", *_columns(moves), *note)
            return
        # Group by the first words, as few as split the moves into more than one group.
        depth, counts = 0, dict[str, int]()
        while len(counts) < 2 and depth < max(len(m.split(" ")) for m in moves):
            depth += 1
            counts = {}
            for m in moves:
                key = " ".join(m.split(" ")[:depth])
                counts[key] = counts.get(key, 0) + 1
        self._say(f"{what}, by their first words (type ? WORDS for the moves of one):",
                  *_columns([f"{g} ({n})" for g, n in counts.items()]), *note)

    def _say(self, *lines: str) -> None:
        self.out.write("".join(f"{x}\n" for x in lines))
        self.out.flush()


def _check(request: TurnRequest, text: str) -> str | tuple[str, str]:
    """The canonical move of ``text`` if it is legal (tried on a copy of the state), else
    the two lines that explain why not: the game's reason, and the legal moves that begin
    with the same word when there are a few."""
    try:
        return request.on_copy().apply(text)
    except NotationError as e:
        return f"Not a move: {e}", "Type ? for the legal moves, help for help."
    except ValueError as e:
        word = text.split(" ", 1)[0]
        alike = [m for m in request.legal() if m.split(" ", 1)[0] == word]
        if not alike:
            hint = f"No legal move begins with {word!r}; type ? for the legal moves."
        elif len(alike) <= HINT_LIMIT:
            hint = f"Legal moves beginning with {word!r}: {', '.join(alike)}."
        else:
            hint = f"Type ? {word} for the legal moves beginning with {word!r}."
        return f"Illegal: {e}", hint


def _columns(items: list[str], width: int = 88) -> list[str]:
    """``items`` in as many columns as fit in ``width``, each row indented by two."""
    cell = max(len(x) for x in items) + 2
    per_line = max(1, width // cell)
    return ["  " + "".join(x.ljust(cell) for x in items[i:i + per_line]).rstrip()
            for i in range(0, len(items), per_line)]
