"""An engine handle: one engine program driven through the protocol, reusable across games.

Start engines with :meth:`Engine.start_all` (handshakes run in parallel), set options, play
any number of games with :func:`sneferu_cli.arbiter.game.play_game` (``newgame`` resets the
engine), then :meth:`Engine.quit`. After a fault the engine is killed; :meth:`restart`
starts it again with the same options.
"""

from __future__ import annotations

import contextlib
import random
import re
import select
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..game import DEFAULT_GAME, NotationError
from ..protocol.messages import (
    Answer,
    EngineMessage,
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
    parse_engine_line,
    with_legal,
)
from .agent import TurnAnswer, TurnRequest
from .process import EngineFault, EngineProcess, StderrSink, TrafficLog, process_parents
from .remote import Connection, RemoteSeat
from .sandbox import Sandbox

__all__ = ["QUIT_GRACE", "Engine", "answers_as_they_come", "automatic_options",
           "refuse_other_games", "refuse_unbudgeted"]

QUIT_GRACE = 1.0
"""Seconds an engine has to exit after ``quit`` before its process group is killed."""


class Engine:
    """An engine program speaking the Sneferu engine protocol (SPEC.md section 6).

    ``name`` is shown until the engine says its own (``id name``); ``label`` names it in
    the traffic log and stderr log: the seat number once a game starts, after
    ``label_prefix`` (a tournament puts its game number there: ``12:2``).

    With ``remote``, the engine is not started here: each start takes its next connection
    from the listener (SPEC.md 6.7), and ``latency`` milliseconds are added to the margin
    of its turns.
    """

    def __init__(self, argv: Sequence[str], *, name: str | None = None, label: str = "-",
                 traffic: TrafficLog | None = None, stderr: StderrSink | None = None,
                 handshake_timeout: float = 10.0, cwd: str | Path | None = None,
                 sandbox: Sandbox | None = None, remote: RemoteSeat | None = None,
                 latency: int = 0) -> None:
        self.argv = list(argv)
        self.sandbox = sandbox
        """Where its process runs (SPEC.md 7.10; None: as any program)."""
        self.name = name or (_default_name(self.argv) if self.argv else "remote")
        self.remote = remote
        self.latency = latency
        self.author: str | None = None
        self.label = label
        self.label_prefix = ""
        self.options: dict[str, OptionSpec] = {}
        self.features: set[str] = set()
        self.games: tuple[str, ...] = (DEFAULT_GAME,)
        """The games it plays (``feature games``; without it Sneferu only)."""
        self.game = DEFAULT_GAME  # the game being played, named by the last newgame
        self.values: dict[str, str | None] = {}
        self.fault: EngineFault | None = None
        self.timed = True
        self.handshake_timeout = handshake_timeout
        self._traffic = traffic
        self._stderr = stderr
        self._cwd = cwd
        self._process: EngineProcess | Connection | None = None
        self._usage_start: tuple[float, int] | None = None  # at newgame, in a sandbox
        self._usage_end: tuple[float, int] | None = None  # at its kill, during a game
        self._deadline = 0.0
        self._turn: _PendingTurn | None = None

    # ------------------------------------------------------------------ start and stop

    @classmethod
    def start_all(cls, engines: Sequence[Engine]) -> list[Engine]:
        """Launch every engine, then finish every handshake (they start up in parallel).

        An engine that fails keeps its fault in ``fault`` (kind ``handshake``).
        """
        for e in engines:
            e.launch()
        for e in engines:
            e.finish_handshake()
        return list(engines)

    def launch(self) -> None:
        """Start the program (or take the remote engine's next connection) and send
        ``sneferu 1``."""
        self.fault = None
        self.options.clear()
        self.features.clear()
        self.games = (DEFAULT_GAME,)
        try:
            if self.remote is not None:
                self._process = self.remote.connect(self.label, self._traffic)
            else:
                self._process = EngineProcess(self.argv, label=self.label, name=self.name,
                                              traffic=self._traffic, stderr=self._stderr,
                                              cwd=self._cwd, sandbox=self.sandbox)
            self._deadline = time.monotonic() + self.handshake_timeout
            self._process.send(self._deadline, str(Sneferu()))
        except EngineFault as f:
            self._fail(EngineFault("handshake", _handshake_detail(f)))

    def finish_handshake(self) -> None:
        """Read the handshake up to ``sneferuok`` (sets name, author, options, features)."""
        if self.fault is not None:
            return
        try:
            while True:
                msg = self._read(self._deadline, "sneferuok")
                if isinstance(msg, SneferuOk):
                    return
                if isinstance(msg, Id):
                    if msg.field == "name":
                        self.name = msg.value
                    else:
                        self.author = msg.value
                elif isinstance(msg, OptionSpec):
                    self.options[msg.name] = msg
                elif isinstance(msg, Feature):
                    self.features.add(msg.name)
                    if msg.name == "games":
                        self.games = msg.games
        except EngineFault as f:
            if f.kind == "timeout":
                f = EngineFault("timeout", f"no sneferuok within {self.handshake_timeout:g} s")
            self._fail(EngineFault("handshake", _handshake_detail(f)))

    def restart(self) -> None:
        """Kill the program if it runs, start it again and set the same options.

        Afterwards ``fault`` is None when the new process finished its handshake.
        """
        self.kill()
        values = dict(self.values)
        self.launch()
        self.finish_handshake()
        for name, value in values.items():
            if self.fault is None and name in self.options:
                with contextlib.suppress(EngineFault, ValueError):
                    self.set_option(name, value)

    def quit(self, grace: float = QUIT_GRACE) -> None:
        """Send ``quit``, give the engine ``grace`` seconds to exit, then kill it."""
        p = self._process
        if p is None:
            return
        if self.fault is None:
            p.find_descendants()  # while it runs: they are killed with it after the grace
            with contextlib.suppress(EngineFault):
                p.send(time.monotonic() + grace, str(Quit()))
            p.stop(grace)
        p.kill()
        self._process = None

    def kill(self) -> None:
        """Kill the engine's process group now."""
        if self._process is not None:
            if self._usage_start is not None and self._usage_end is None:
                self._usage_end = self._process.usage()  # what it used up to its end
            self._process.kill()
            self._process = None

    @staticmethod
    def quit_all(engines: Sequence[Engine], grace: float = QUIT_GRACE) -> None:
        """Send ``quit`` to every engine, then wait for all of them together."""
        deadline = time.monotonic() + grace
        parents = process_parents()  # one reading of /proc for every engine
        for e in engines:
            if e._process is not None and e.fault is None:
                e._process.find_descendants(parents)
                with contextlib.suppress(EngineFault):
                    e._process.send(deadline, str(Quit()))
        for e in engines:
            if e._process is not None:
                e._process.stop(deadline - time.monotonic())
                e.kill()

    # ------------------------------------------------------------------ options

    def set_option(self, name: str, value: str | None) -> None:
        """Send ``setoption``; ValueError when the engine has no such option or refuses the
        value (nothing is sent then)."""
        spec = self.options.get(name)
        if spec is None:
            declared = " ".join(self.options) or "none"
            raise ValueError(f"{self.name} has no option {name!r} (it declares: {declared})")
        value = spec.check_value(value)
        self._send(time.monotonic() + self.handshake_timeout, str(SetOption(name, value)))
        self.values[name] = value

    # ------------------------------------------------------------------ the Agent protocol

    def new_game(self, game: NewGame) -> None:
        """Send ``newgame`` and ``isready``; :meth:`wait_ready` reads the answer."""
        self.label = f"{self.label_prefix}{game.seat}"
        self.game = game.game
        if self._process is not None:
            self._process.label = self.label
        self._deadline = time.monotonic() + self.handshake_timeout
        self._check_silence()
        self._send(self._deadline, str(game), str(IsReady()))
        self._usage_start = self._usage_end = None
        if self._process is not None and self.sandbox is not None and self.sandbox.active:
            self._process.reset_peak()
            self._usage_start = self._process.usage()

    def game_usage(self) -> tuple[float, int] | None:
        """For an engine in a sandbox: the CPU seconds its processes used since the game's
        ``newgame`` and their peak memory (bytes) in that time (up to the fault that
        retired it); None without a sandbox, or when it was not running to be measured."""
        start = self._usage_start
        if start is None:  # no sandbox: nothing to read (/proc is read only when needed)
            return None
        now = self._usage_end
        if now is None and self._process is not None and self.fault is None:
            now = self._process.usage()
        if now is None:
            return None
        return max(0.0, now[0] - start[0]), now[1]

    def wait_ready(self) -> None:
        """Read up to ``readyok``."""
        try:
            self._read(self._deadline, "readyok")
        except EngineFault as f:
            if f.kind == "timeout":
                f = EngineFault("timeout", f"no readyok within {self.handshake_timeout:g} s")
            raise self._fail(f) from None

    def ping(self) -> None:
        """Send ``isready`` and wait for ``readyok`` (at most the handshake timeout)."""
        self._deadline = time.monotonic() + self.handshake_timeout
        self._send(self._deadline, str(IsReady()))
        self.wait_ready()

    def play_turn(self, request: TurnRequest) -> TurnAnswer:
        """Send ``position`` and ``go``, read ``info`` lines and the ``move``."""
        start, deadline = self._send_turn(request)
        info: dict[str, str] = {}
        try:
            msg = self._read(deadline, "move", info)
        except EngineFault as f:
            raise self._fail(_turn_fault(f, request, self.latency)) from None
        return _answer(msg, start, info)

    def send_turn(self, request: TurnRequest) -> None:
        """Send ``position`` and ``go`` and return at once: :func:`answers_as_they_come`
        (or :meth:`poll_turn`) reads the answer, so that several engines think at once."""
        start, deadline = self._send_turn(request)
        self._turn = _PendingTurn(request, start, deadline, {})

    def _send_turn(self, request: TurnRequest) -> tuple[float, float]:
        """Send the request's lines (``position`` as it stands for ``feature currentposition``);
        when its time starts and when the answer is due."""
        budget = request.iterations if "iterations" in self.features else None
        go = str(Go(request.movetime, request.clock, request.inc, iterations=budget))
        if "legalmoves" in self.features:
            go = with_legal(go, request.legal_line())
        position = (request.current_position() if "currentposition" in self.features
                    else request.position)
        allowed = (request.limit() + request.margin + self.latency) / 1000
        self._check_silence()
        self._send(time.monotonic() + allowed, position, go)
        start = time.monotonic()
        return start, start + allowed

    def poll_turn(self) -> TurnAnswer | None:
        """The answer to the turn sent last (:meth:`send_turn`) when it has come, else None;
        reads only what the engine has written, without waiting. Raises the fault (the
        engine is then killed) when it fails or its time is up."""
        turn = self._turn
        assert turn is not None, "no turn was sent"
        process = self._running()
        try:
            while True:
                line = process.line_now()
                if line is None:
                    if time.monotonic() > turn.deadline:
                        raise EngineFault("timeout", "no line in time")
                    return None
                msg = self._take(line, "move", turn.info)
                if msg is not None:
                    self._turn = None
                    return _answer(msg, turn.start, turn.info)
                if time.monotonic() > turn.deadline:  # lines keep coming, but no move
                    raise EngineFault("timeout", "no line in time")
        except EngineFault as f:
            self._turn = None
            raise self._fail(_turn_fault(f, turn.request, self.latency)) from None

    def game_over(self, position: Position, result: GameOver) -> None:
        """Send the final ``position`` and ``gameover``."""
        if self.fault is None and self._process is not None:
            deadline = time.monotonic() + self.handshake_timeout
            with contextlib.suppress(EngineFault):
                self._send(deadline, str(position), str(result))

    def retire(self, fault: EngineFault) -> None:
        """Keep ``fault`` and kill the engine."""
        self.fault = fault
        if self._process is not None:
            self._process.note(f"retired: {fault}")
        self.kill()

    # ------------------------------------------------------------------ lines

    def _running(self) -> EngineProcess | Connection:
        if self.fault is not None or self._process is None:
            raise self.fault or EngineFault("crash", "not running")
        return self._process

    def _send(self, deadline: float, *lines: str) -> None:
        process = self._running()
        try:
            process.send(deadline, *lines)
        except EngineFault as f:
            raise self._fail(f) from None

    def _check_silence(self) -> None:
        """Between an answer and the next request, an engine may only send info lines."""
        process = self._running()
        try:
            for line in process.unread_lines():
                if line.strip(" \t") and not isinstance(self._parse(line), Info):
                    raise EngineFault("malformed", f"{line.split()[0]!r} sent when nothing "
                                                   "was asked")
        except EngineFault as f:
            raise self._fail(f) from None

    def _parse(self, line: str) -> EngineMessage:
        try:
            return parse_engine_line(line, self.game)
        except NotationError as e:
            raise EngineFault("malformed", str(e)) from None

    def _read(self, deadline: float, waiting_for: str,
              info: dict[str, str] | None = None) -> EngineMessage:
        """The next awaited message; a malformed or out of place line is a fault.

        Empty lines are skipped, and so are ``info`` lines (their fields go into ``info``).
        """
        assert self._process is not None
        while True:
            msg = self._take(self._process.readline(deadline), waiting_for, info)
            if msg is not None:
                return msg
            if time.monotonic() > deadline:  # lines keep coming, but not the awaited one
                raise EngineFault("timeout", "no line in time")

    def _take(self, line: str, waiting_for: str,
              info: dict[str, str] | None) -> EngineMessage | None:
        """The message of ``line`` if it is the one awaited; None for an empty or ``info``
        line (its fields go into ``info``); a fault for any other."""
        if not line.strip(" \t"):
            return None
        msg = self._parse(line)
        if isinstance(msg, _EXPECTED[waiting_for]):
            return msg
        if not isinstance(msg, Info):
            raise EngineFault("malformed", f"{line.split()[0]!r} while waiting for {waiting_for}")
        if info is not None:
            info.update(msg.fields)
        return None

    def _wait_fds(self) -> list[int]:
        """What to wait on for the engine's next line (its output, its exit)."""
        return self._running().fds()

    def _fail(self, fault: EngineFault) -> EngineFault:
        """Remember ``fault``, note it in the traffic log and kill the engine."""
        self.fault = fault
        if self._process is not None:
            self._process.note(str(fault))
        self.kill()
        return fault


_EXPECTED: dict[str, tuple[type, ...]] = {
    "sneferuok": (SneferuOk, Id, OptionSpec, Feature), "readyok": (ReadyOk,),
    "move": (Answer,)}
"""The messages each wait accepts (besides ``info``)."""


@dataclass
class _PendingTurn:
    """A turn sent to an engine and not answered yet: when it was sent, the time its answer
    is due (``time.monotonic()`` seconds) and the ``info`` fields read so far."""

    request: TurnRequest
    start: float
    deadline: float
    info: dict[str, str]


def _answer(msg: EngineMessage, start: float, info: dict[str, str]) -> TurnAnswer:
    """The answer ``msg`` (a ``move``) to a turn sent at ``start``, timed now."""
    assert isinstance(msg, Answer)
    ms = round((time.monotonic() - start) * 1000)
    return TurnAnswer(msg.move, ms, info or None)


def _turn_fault(f: EngineFault, request: TurnRequest, latency: int) -> EngineFault:
    if f.kind == "timeout":
        allowance = f", +{latency} ms latency" if latency else ""
        return EngineFault("timeout", f"no move within {request.limit()} ms "
                                      f"(+{request.margin} ms margin{allowance})")
    return f


def answers_as_they_come(engines: Sequence[Engine]
                         ) -> Iterator[tuple[Engine, TurnAnswer | EngineFault]]:
    """Each engine's answer to the turn it was sent (:meth:`Engine.send_turn`), or its fault
    (the engine is then killed), in the order they come: the engines think at once, each
    on its own clock. Waits on every engine's output together, never past the earliest
    deadline of those not answered yet."""
    waiting = list(engines)
    poller = select.poll()  # no system call to make or fill, one per wait
    owners: dict[int, Engine] = {}
    for e in waiting:
        for fd in e._wait_fds():
            poller.register(fd, select.POLLIN)
            owners[fd] = e
    ready = list(waiting)  # first whatever each has written already
    while waiting:
        for e in ready:
            try:
                answer: TurnAnswer | EngineFault | None = e.poll_turn()
            except EngineFault as f:
                answer = f
            if answer is not None:
                waiting.remove(e)
                for fd in [fd for fd, owner in owners.items() if owner is e]:
                    poller.unregister(fd)
                    del owners[fd]
                yield e, answer
        if waiting:
            due = min(e._turn.deadline for e in waiting if e._turn is not None)
            woken = {owners[fd] for fd, _ in
                     poller.poll((max(0.0, due - time.monotonic()) + 0.001) * 1000)}
            now = time.monotonic()
            ready = [e for e in waiting if e in woken
                     or (e._turn is not None and e._turn.deadline < now)]


def _default_name(argv: Sequence[str]) -> str:
    """A name until the engine says its own: the script an interpreter runs (the first
    argument not starting with ``-`` that is a file or has a file extension: ``my_bot.py``
    in ``python3 my_bot.py``, found or not), else the program's file name."""
    for arg in argv[1:]:
        if arg.startswith("-"):
            continue
        with contextlib.suppress(OSError, ValueError):
            path = Path(arg)
            if _SCRIPT_SUFFIX.fullmatch(path.suffix) or path.is_file():
                return path.name
    return Path(argv[0]).name


_SCRIPT_SUFFIX = re.compile(r"\.[A-Za-z][A-Za-z0-9]*")


def _handshake_detail(f: EngineFault) -> str:
    return f.detail if f.kind == "handshake" else f"{f.kind}: {f.detail}"


def automatic_options(engine: Engine, *, seed: int, seat: int,
                      edition_file: str | None) -> dict[str, str]:
    """The options the arbiter sets by itself when the engine declares them (SPEC.md 6.5):
    ``Seed`` derived from the game's seed and the seat, ``EditionFile`` for an edition
    given as a file."""
    values = {}
    spec = engine.options.get("Seed")
    if spec is not None and spec.kind == "spin":
        assert spec.min is not None and spec.max is not None
        values["Seed"] = str(random.Random(f"{seed}:{seat}").randint(spec.min, spec.max))
    spec = engine.options.get("EditionFile")
    if spec is not None and spec.kind == "string" and edition_file:
        values["EditionFile"] = str(Path(edition_file).resolve())
    return values


OptionSetting = tuple[int | None, str, str]
"""A ``--option [SEAT:]NAME=VALUE``: the seat (None: every engine that declares NAME), the
name and the value."""


def seat_options(engine: Engine, seat: int, settings: Sequence[OptionSetting], *, seed: int,
                 edition_file: str | None) -> dict[str, str]:
    """The options to set on ``engine`` at ``seat`` for a game of ``seed``: the automatic
    ones, then those of ``settings`` for that seat (or for every engine declaring them)."""
    values = automatic_options(engine, seed=seed, seat=seat, edition_file=edition_file)
    for only, name, value in settings:
        if only == seat or (only is None and name in engine.options):
            values[name] = value
    return values


def refuse_unbudgeted(engines: Sequence[Engine], iterations: int | None) -> None:
    """ValueError (one line) naming the first engine that does not take a search budget
    (``feature iterations``) when it is to play with one (``iterations``, not None)."""
    if iterations is None:
        return
    for e in engines:
        if e.fault is None and "iterations" not in e.features:
            raise ValueError(f"engine {e.name!r} takes no search budget (iterations "
                             f"{iterations}): it does not declare 'feature iterations'")


def refuse_other_games(engines: Sequence[Engine], game: str) -> None:
    """ValueError (one line) naming the first engine that does not declare ``game`` among
    the games it plays (``feature games``; an engine without it plays Sneferu only)."""
    for e in engines:
        if e.fault is None and game not in e.games:
            raise ValueError(f"engine {e.name!r} does not play {game} (it plays: "
                             f"{', '.join(e.games)}; an engine declares its games with "
                             "'feature games NAME ...')")
