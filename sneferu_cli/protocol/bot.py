"""The engine side of the protocol, for Python engines that only want to choose moves.

Subclass :class:`Bot`, override :meth:`Bot.choose`, and call :func:`run`::

    class First(Bot):
        name = "first"

        def choose(self, state, go):
            return self.legal_moves(state)[0]

    run(First())

:func:`run` answers the handshake, declares the options (``Seed`` and ``EditionFile``
plus the bot's own), follows the position incrementally (a ``position`` line that extends
the previous one costs only its new events, read by
:meth:`sneferu_cli.game.Game.apply_move`; the position itself is read once a game)
and ignores lines it does not know, as the protocol asks (SPEC.md section 6). Starting
needs no grammar: the short arbiter lines have fast paths too (:mod:`.messages`).

In a game with hidden information every ``position`` line is the bot's seat's view and
holds no events (SPEC 6.3): each one is read anew, so ``choose`` gets the state the view
describes and nothing the seat may not know. The bot's seat (:attr:`Bot.seat`, from
``newgame``) need not be the current seat at a simultaneous node: :meth:`Bot.legal_moves`
gives that seat's moves.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, TextIO

from ..game import DEFAULT_GAME, Game, NotationError, get_game, unnamed
from .messages import (
    Answer,
    Feature,
    GameOver,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    OptionSpec,
    Position,
    Quit,
    ReadyOk,
    SetOption,
    Sneferu,
    SneferuOk,
    read_arbiter_line,
)

__all__ = ["Bot", "Follower", "run"]

SEED_MAX = 2**31 - 1
OTHER_SHARE = 20
"""A move may take this share of the clock left, in a game without an estimate
(``Game.tools().moves_left``)."""


class Bot:
    """A Python engine: override :meth:`choose` (and optionally the other hooks)."""

    name = "bot"
    author = "the sneferu authors"
    legalmoves = False
    """True: declare ``feature legalmoves`` (``go.legal`` then lists the legal moves)."""
    budgets = False
    """True: declare ``feature iterations`` (``go.iterations`` then carries the search
    budget when the arbiter gives one); a bot without it is never given a budget."""
    games: tuple[str, ...] = (DEFAULT_GAME,)
    """The games it plays, declared with ``feature games`` unless only Sneferu."""

    def __init__(self) -> None:
        self.seed = 0
        self.rng = random.Random(0)
        self.edition_file: Path | None = None
        """The option ``EditionFile``: read, at each ``newgame``, as the named game's edition."""
        self.game: Game = get_game()
        """The game named by the last ``newgame``."""
        self.seat = 0
        """This bot's seat in the game being played (0-based; ``newgame`` gives it)."""
        self.output: TextIO | None = None  # where run() speaks, for info()

    def info(self, fields: dict[str, str]) -> None:
        """Send an ``info`` line now, while choosing (fields as in SPEC.md section 6.4)."""
        if self.output is not None:
            self.output.write(f"{Info(fields)}\n")
            self.output.flush()

    def declare_options(self) -> list[OptionSpec]:
        """The options sent in the handshake; extend the list to add your own."""
        return [OptionSpec("Seed", "spin", "0", 0, SEED_MAX), OptionSpec("EditionFile", "string")]

    def set_option(self, name: str, value: str | None) -> None:
        """``Seed`` reseeds ``rng`` at every new game; ``EditionFile`` names an edition file."""
        if name == "Seed" and value is not None:
            self.seed = int(value)
        elif name == "EditionFile":
            self.edition_file = Path(value) if value else None

    def new_game(self, game: NewGame) -> None:
        """A new game starts: ``rng`` is reseeded with ``Seed``, ``game`` is the game named,
        ``seat`` the bot's seat."""
        self.rng = random.Random(self.seed)
        self.game = get_game(game.game)
        self.seat = game.seat - 1

    def legal_moves(self, state: Any) -> list[str]:
        """The legal moves of this bot's seat in ``state`` (at a simultaneous node, its own
        sealed choices; elsewhere those of the current seat, which is this bot's)."""
        game = self.game
        if game.is_simultaneous(state):
            return game.legal_moves(state, self.seat)
        return game.legal_moves(state)

    def game_edition(self) -> Any:
        """The edition of the game being played: ``EditionFile`` read as that game's
        edition (an EditionError when it is not one), else its standard edition."""
        if self.edition_file is None:
            return self.game.standard_edition()
        return self.game.load_edition(self.edition_file)

    def move_time(self, state: Any, go: Go, overhead: float) -> float:
        """Seconds a search may take for this move, ``overhead`` (seconds, for the pipes and
        the scheduler) kept back: 80% of a ``movetime``, or a share of the clock (over the
        decisions the game expects the seat still to take, ``Game.tools().moves_left``, else
        a twentieth; plus most of the increment), at most 0.4 of it; with a search budget
        (``go ... iterations N``) only a safety net: all of a ``movetime``, or 0.4 of the
        clock. At least a quarter of a ``movetime``, or 5 ms."""
        if go.movetime is not None:
            budget = go.movetime / 1000
            if go.iterations is not None:
                return max(budget * 0.25, budget - overhead)
            return max(budget * 0.25, budget * 0.8 - overhead)
        assert go.clock is not None
        clock = go.clock[self.seat] / 1000
        tools = self.game.tools()
        left = None if tools is None else tools.moves_left(state, self.seat)
        share = clock / (OTHER_SHARE if left is None else left) + 0.75 * go.inc / 1000
        if go.iterations is not None:
            share = clock
        return max(0.005, min(share, clock * 0.4) - overhead)

    def choose(self, state: Any, go: Go) -> str:
        """The move to play (move notation) in ``state``, where this bot's seat decides
        (alone, or at a simultaneous node with others)."""
        raise NotImplementedError

    def game_over(self, result: GameOver) -> None:
        """The game is over (``result.ranks``: every seat's place)."""


class Follower:
    """Keeps a game's state in step with ``position`` messages, applying only new events.

    A line whose position differs from the last one's is read anew: so each view of a
    game with hidden information (a position with no events) is read as it is."""

    def __init__(self, edition: Any, game: Game | None = None) -> None:
        self.edition = edition
        self.game = game or get_game()
        self.base: str | None = None
        self.applied: list[str] = []
        self.state: Any = None

    def update(self, msg: Position) -> Any:
        """The state the message describes (NotationError or the game's illegal-move
        ValueError if it is bad)."""
        game = self.game
        k = len(self.applied)
        if (self.state is None or msg.position != self.base or len(msg.events) < k
                or list(msg.events[:k]) != self.applied):
            self.state = game.from_position(msg.position, self.edition)
            self.base = msg.position
            self.applied = []
        state = self.state
        for event in msg.events[len(self.applied):]:
            if event.startswith("~"):
                game.apply_outcome(state, event)
            else:
                game.apply_move(state, event)
            self.applied.append(event)
        return state


def run(bot: Bot, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Speak the protocol on stdin/stdout until ``quit`` or the end of the input."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    bot.output = out

    def send(*lines: object) -> None:
        out.write("".join(f"{x}\n" for x in lines))
        out.flush()

    follower = Follower(bot.game_edition())
    state: Any = None
    for line in inp:
        try:
            msg = read_arbiter_line(line)
        except NotationError:
            continue  # unknown commands are ignored
        if isinstance(msg, Go):
            assert state is not None, "go before position"
            send(Answer(str(bot.choose(state, msg))))
        elif isinstance(msg, Position):
            state = follower.update(msg)
        elif isinstance(msg, IsReady):
            send(ReadyOk())
        elif isinstance(msg, NewGame):
            bot.new_game(msg)
            follower = Follower(bot.game_edition(), bot.game)
            state = None
        elif isinstance(msg, SetOption):
            bot.set_option(msg.name, msg.value)
        elif isinstance(msg, Sneferu):
            send(Id("name", bot.name), Id("author", bot.author), *bot.declare_options(),
                 *([Feature("legalmoves")] if bot.legalmoves else []),
                 *([Feature("iterations")] if bot.budgets else []),
                 *([] if [unnamed(g) for g in bot.games] == [True]
                   else [Feature("games", bot.games)]),
                 SneferuOk())
        elif isinstance(msg, GameOver):
            bot.game_over(msg)
        elif isinstance(msg, Quit):
            return
