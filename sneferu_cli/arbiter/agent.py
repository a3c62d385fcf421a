"""What the game loop asks of whoever plays a seat, engine or human.

The game loop (:mod:`.game`) only talks to :class:`Agent` values: an engine handle
(:class:`.engine.Engine`) or a human at the terminal (:class:`.human.Human`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from ..game import FastPaths, Game, get_game, seat_view
from ..protocol.messages import SEP, GameOver, NewGame, Position, is_listed_in
from .process import EngineFault


class TurnRequest:
    """A request for one whole turn of ``seat`` (0-based).

    ``position`` is the ``position`` line the protocol sends: the game's first position and
    the events since, or (a game with hidden information) the seat's view alone. Times are
    milliseconds: ``movetime`` for a fixed time per move, else ``clock`` (every seat's
    remaining time) and ``inc``; ``margin`` is allowed beyond the limit. ``game`` is the
    game played (Sneferu when not given), ``state`` its state (the full state: only the
    arbiter sees it). ``sealed``: the request is one of a simultaneous node (the move stays
    sealed until every deciding seat's is in). ``iterations``: a fixed search budget (``go
    ... iterations N``), for an engine that takes one.
    """

    def __init__(self, state: Any, seat: int, position: str, movetime: int | None,
                 clock: tuple[int, ...] | None, inc: int, margin: int,
                 game: Game | None = None, sealed: bool = False,
                 iterations: int | None = None, fast: FastPaths[Any] | None = None) -> None:
        # a plain class, not a dataclass: compiled, its __init__ is compiled too (made
        # once a turn, on the arbiter's per-move path)
        self.state = state
        self.seat = seat
        self.position = position
        self.movetime = movetime
        self.clock = clock
        self.inc = inc
        self.margin = margin
        self.game: Game = get_game() if game is None else game
        self.sealed = sealed
        self.iterations = iterations
        self.fast = None if sealed else fast
        """The game's :meth:`~sneferu_cli.game.Game.fast_paths`, looked up once a match by
        whoever makes the requests (None: the plain ways, always right)."""
        self._legal: Sequence[str] | None = None
        self._line: str | None = None

    def __repr__(self) -> str:
        return (f"TurnRequest(seat={self.seat}, position={self.position!r}, "
                f"movetime={self.movetime}, clock={self.clock}, game={self.game.name!r})")

    def on_copy(self) -> TurnRequest:
        """The same request on a copy of the state (to try a move without playing it)."""
        return TurnRequest(self.state.clone(), self.seat, self.position, self.movetime,
                           self.clock, self.inc, self.margin, self.game, self.sealed,
                           self.iterations, self.fast)

    def limit(self) -> int:
        """The seat's time for this move in ms: the movetime, or its clock."""
        if self.movetime is not None:
            return self.movetime
        assert self.clock is not None
        return self.clock[self.seat]

    def legal(self) -> Sequence[str]:
        """Every legal move of the seat, in move notation (computed once; the game's own
        list, not copied: never change it)."""
        if self._legal is None:
            self._legal = self.game.legal_moves(self.state, self.seat)
        return self._legal

    def apply(self, move: str) -> str:
        """Check and apply the seat's ``move`` to ``state`` and return its canonical text
        (NotationError or the game's illegal-move ValueError leave ``state`` unchanged). A
        move written as listed (:meth:`is_listed`) is legal and canonical by construction:
        it is applied without checks."""
        return self.game.apply_move(self.state, move, self.seat, listed=self.is_listed(move))

    def seen(self) -> Any:
        """The state as the seat may know it, for pictures shown to a person: the state
        itself, or (a game with hidden information) the game's :meth:`~sneferu_cli.game.
        Game.shown_state`, read from the seat's view."""
        if self.game.hidden() is None:
            return self.state
        return self.game.shown_state(self.state, self.seat)

    def is_listed(self, move: str) -> bool:
        """True when ``move`` is written exactly as one of the legal moves listed (only
        once :meth:`legal` or :meth:`legal_line` was called): it is legal by construction."""
        if self._legal is None and self._line is None:
            return False
        fast = self.fast
        if fast is not None:
            known = fast.is_listed_move(self.state, move)  # at once, when it can tell
            if known is not None:
                return known
        if self._line is not None:  # a search of the go line's text, not of its 300 strings
            return is_listed_in(self._line, move)
        return move in self.legal()

    def current_position(self) -> str:
        """The ``position`` line of the state as it stands, with no events (for an engine
        that declared ``feature currentposition``): the seat's view, which is the whole
        position in a game without hidden information."""
        return str(Position(seat_view(self.game, self.state, self.seat)))

    def legal_line(self) -> str:
        """The legal moves as the ``go`` line lists them, separated by ``SEP`` (joined once;
        made by the game at once where it can, :meth:`~sneferu_cli.game.FastPaths.
        legal_line`)."""
        if self._line is None:
            fast = self.fast
            line = None if fast is None else fast.legal_line(self.state, self.seat, SEP)
            self._line = SEP.join(self.legal()) if line is None else line
        return self._line


class TurnAnswer(msgspec.Struct, frozen=True):
    """A move in move notation, the time it took (ms) and the last info fields sent."""

    move: str
    ms: int
    info: dict[str, str] | None = None


class Agent(Protocol):
    """Whoever plays a seat. Methods raise :class:`EngineFault` when the agent fails.

    An agent may also have ``game_usage()``, the CPU seconds and peak memory (bytes) it
    used in the game or None (:meth:`~sneferu_cli.arbiter.engine.Engine.game_usage`, for
    an engine in a sandbox): the record keeps them (SPEC.md 7.10)."""

    name: str
    author: str | None
    timed: bool
    """False for a human: no time limit, and the clock is not charged."""
    fault: EngineFault | None
    """Set when the agent cannot play (a failed start or handshake, or an earlier fault)."""

    def new_game(self, game: NewGame) -> None:
        """Announce a game; may return before the agent is ready."""

    def wait_ready(self) -> None:
        """Wait until the agent is ready for the game announced last."""

    def play_turn(self, request: TurnRequest) -> TurnAnswer:
        """One whole turn."""

    def game_over(self, position: Position, result: GameOver) -> None:
        """The final position and the ranking. Never raises."""

    def retire(self, fault: EngineFault) -> None:
        """The arbiter retired the agent's seat for ``fault``: stop it. Never raises."""
