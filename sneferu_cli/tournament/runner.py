"""Running a tournament: its games played N at a time, every finished game committed
durably before it is reported (SPEC.md section 9.8).

Each of the N games at once is played by a **worker process** that keeps one process per
engine alive between its games (``newgame`` resets an engine) and starts it again after a
fault: a crashing or hanging engine costs its games (faults, retirement, as in one game of
``sneferu play``), never the tournament. The main process hands out games in number order,
commits each record through the :class:`~.journal.Journal` as it arrives (one at a time),
and decides when to stop: when every game is played, when the SPRT is decided (no new game
starts), when :attr:`TournamentRun.finish` is set (no new game starts; the games being
played are finished), or when :attr:`TournamentRun.stop` is set (the games being played
are abandoned; a resume plays them again).

Worker processes rather than threads: the arbiter's own Python work per move (applying the
turn, the position line, and for engines with ``feature legalmoves`` every legal move) is
about 0.2 ms, 1.5 ms with the legal moves (``sneferu play --bench``: as much as a fast
engine's whole move). Threads run it under one GIL, so a threaded runner tops out at one
core of arbiter work (about 700 turns a second for ``legalmoves`` engines) however many
cores there are; processes scale with the cores. On the 2-core development machine both
measured the same (4 ``js-random`` or 4 ``random`` engines, 4 seats, ``-j 1`` and ``-j 2``:
within 10% of each other). A worker notices when the main process is gone (even after
SIGKILL) and kills its engines. On Linux workers are forked from the main process, which
has every module they need imported already (a started interpreter would import them
again: about a tenth of a second of CPU a worker, as much as a few dozen games of instant
engines); elsewhere they are started with ``spawn``, and a script that runs a tournament
through this module must guard its entry point with ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any, Literal, Protocol

import msgspec

from ..arbiter.bundled import BUNDLED, check_program, engine_command
from ..arbiter.engine import (
    Engine,
    automatic_options,
    refuse_other_games,
    refuse_unbudgeted,
)
from ..arbiter.game import play_game
from ..arbiter.process import EngineFault, StderrSink, TrafficLog, open_logs
from ..arbiter.remote import RemoteSeat
from ..record.jsonl import read_any
from ..record.model import USAGE, GameRecord
from ..record.text import GAME_START, RecordError, decode_records, format_record
from .config import ConfigError, EngineConfig, TournamentConfig
from .journal import Journal
from .schedule import Game, Schedule, done_games, game_header, pending_games
from .sprt import SprtResult, SprtTally
from .standings import Results, RunningStandings, Standings

__all__ = ["Dispatcher", "EnginePool", "Logs", "RunError", "TournamentRun", "engine_argv",
           "header_only", "probe_engines", "read_games", "tournament_record"]

WORKER_DEATHS = 3
"""How often a worker may die while playing the same game before the run gives up."""


WORKER_NAME = "sneferu-worker"
"""A worker process's name (Linux: its ``comm``, as ``ps`` and ``top`` show it)."""


class RunError(RuntimeError):
    """The run cannot go on (not an engine's fault): a bug, or workers that keep dying."""


def engine_argv(engine: EngineConfig) -> list[str]:
    """The argv that starts an engine: its command, or for a command that is one bundled
    engine's name (``random``, ``greedy``, ``js-random``) that engine's; none for an
    engine that connects from elsewhere (a token). ConfigError when the program cannot be
    found."""
    if engine.token is not None:
        return []
    try:
        if len(engine.command) == 1 and engine.command[0] in BUNDLED:
            return engine_command(engine.command[0])
        check_program(engine.command, cwd=engine.dir, what=f"engine {engine.name!r}")
    except ValueError as e:
        raise ConfigError(str(e)) from None
    return list(engine.command)


def new_engine(cfg: TournamentConfig, name: str, broker: str | None, *,
               traffic: TrafficLog | None = None, stderr: StderrSink | None = None
               ) -> Engine:
    """The handle of the tournament's engine ``name``: a program started here (in its
    sandbox), or for an engine with a token one whose connections come from the listener
    at ``broker``."""
    ec = cfg.engine(name)
    remote = None
    if ec.token is not None:
        if broker is None:
            raise ConfigError(f"engine {name!r} connects from elsewhere, but nothing "
                              "listens (listen)")
        remote = RemoteSeat(broker, cfg.engines.index(ec), cfg.connect_timeout)
    return Engine(engine_argv(ec), name=name, cwd=ec.dir,
                  handshake_timeout=cfg.handshake_timeout, traffic=traffic, stderr=stderr,
                  sandbox=cfg.own_sandbox(name) if remote is None else None,
                  remote=remote, latency=cfg.latency if remote is not None else 0)


def probe_engines(cfg: TournamentConfig, broker: str | None = None) -> list[str]:
    """Start every engine once (in parallel; an engine that connects from elsewhere
    through the listener at ``broker``) and check that it takes its configured
    options: ConfigError naming the engine when one does not. Returns a note for each
    engine that failed its handshake (it will play its games retired at ply 0)."""
    for ec in cfg.engines:
        if ec.check and ec.token is None:  # sneferu engine check, in its sandbox, first
            from ..arbiter.check import check_engine

            report = check_engine(engine_argv(ec), sandbox=cfg.own_sandbox(ec.name),
                                  cwd=ec.dir, handshake_timeout=cfg.handshake_timeout)
            if not report.passed:
                failure = report.failures[0]
                tail = (f"; stderr: {failure.stderr[-1]}" if failure.stderr
                        and failure.stderr[-1] not in failure.reason else "")
                raise ConfigError(f"engine {ec.name!r} failed its check: {failure.where}: "
                                  f"{failure.reason}{tail}")
    engines = [new_engine(cfg, ec.name, broker) for ec in cfg.engines]
    notes = []
    try:
        Engine.start_all(engines)
        try:  # before the first game
            refuse_other_games(engines, cfg.game)
            for ec, engine in zip(cfg.engines, engines, strict=True):
                own = cfg.own_timing(ec.name)
                refuse_unbudgeted([engine], None if own is None else own.iterations)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        for ec, engine in zip(cfg.engines, engines, strict=True):
            if engine.fault is not None:
                notes.append(f"engine {ec.name!r} failed its handshake ({engine.fault}); "
                             "it is retired from its games unless it starts later")
                continue
            for option, value in ec.options.items():
                spec = engine.options.get(option)
                try:
                    if spec is None:
                        declared = " ".join(engine.options) or "none"
                        raise ValueError(f"no option {option!r} (it declares: {declared})")
                    spec.check_value(value)
                except ValueError as e:
                    raise ConfigError(f"engine {ec.name!r}: {e}") from None
    finally:
        Engine.quit_all(engines)
    return notes


def tournament_record(cfg: TournamentConfig, game: Game, played: GameRecord) -> GameRecord:
    """The record of a tournament game: the arbiter's record under the tournament's tags
    (:func:`~.schedule.game_header`: event, round, deal, the engines' tournament names),
    keeping what only the game knows (date, authors, result, faults, events)."""
    header = game_header(cfg, game)
    h = played.header
    ours = (header.game, header.players, header.edition, header.variant, header.tags,
            header.seed, header.time_control, header.position, [s.tc for s in header.seats])
    theirs = (h.game, h.players, h.edition, h.variant, h.tags, h.seed, h.time_control,
              h.position, [s.tc for s in h.seats])
    if ours != theirs:
        raise RunError(f"game {game.number}: the arbiter played {theirs}, the schedule "
                       f"says {ours}")
    header.date = h.date
    header.seats = [msgspec.structs.replace(s, tags=p.tags, author=p.author)
                    for s, p in zip(header.seats, h.seats, strict=True)]
    header.result, header.result_tags, header.termination = (h.result, h.result_tags,
                                                             h.termination)
    header.faults = h.faults
    header.extra.update((k, v) for k, v in h.extra.items() if k.startswith(USAGE))
    return GameRecord(header, played.events)


def header_only(record: GameRecord) -> GameRecord:
    """The record without its events: all the main process keeps of a game (standings,
    SPRT and progress read only the header) once its text is in the record file."""
    return GameRecord(record.header, [])


def read_games(path: str | os.PathLike[str], batch: int = 1 << 20) -> Iterator[GameRecord]:
    """The whole games of a record file (text or JSON Lines) one after another, read about
    ``batch`` bytes at a time so that a long tournament's file is never all in memory;
    only their headers (a text record's events are not read: what a run needs of the
    games played is in their headers). RecordError for a malformed game (naming the file,
    the game and the line)."""
    source = str(path)
    lines = games = 0
    chunk: list[bytes] = []
    size = 0
    starts: tuple[bytes, ...] = (b"{", GAME_START.encode())
    with open(path, "rb") as f:
        for line in f:
            if not lines and not chunk and line.strip():
                # JSON Lines hold a game a line; a text game begins with its [Event line
                starts = (b"{",) if line.lstrip().startswith(b"{") else starts[1:]
            if size >= batch and line.startswith(starts):
                yield from _batch(chunk, source, lines, games)
                lines += len(chunk)
                games += sum(1 for c in chunk if c.startswith(starts))
                chunk, size = [], 0
            chunk.append(line)
            size += len(line)
    yield from _batch(chunk, source, lines, games)


def _batch(chunk: list[bytes], source: str, lines: int, games: int) -> Iterator[GameRecord]:
    """The games of whole games' lines that come after ``lines`` lines and ``games``
    games of the file (so that an error names the file's game and line)."""
    try:
        rf = read_any(decode_records(b"".join(chunk), source), source, headers_only=True)
    except RecordError as e:
        raise RecordError(e.reason, source, e.game and e.game + games,
                          e.line and e.line + lines) from None
    for g in rf.games:
        yield g.record


class SetupError(ValueError):
    """The configuration does not fit an engine (an option it does not declare or refuses)."""


class Logs(msgspec.Struct, frozen=True):
    """What a run's workers log (SPEC.md 9.8): the traffic of every game to the file
    ``traffic``, the engines' stderr to the folder or file ``stderr`` (None: not kept);
    the traffic's times count from ``t0`` (``time.monotonic()``, the run's start)."""

    traffic: str | None = None
    stderr: str | None = None
    t0: float = 0.0
    broker: str | None = None
    """Not a log: where the workers' remote seats ask for their engines' connections
    (:attr:`~sneferu_cli.arbiter.remote.Listener.broker`), None when nothing listens."""
    live: bool = False
    """Not a log: the workers report every event of their games for the live page
    (:class:`~.live.Reporter`), not only the finished games."""


class EnginePool:
    """The engine processes of one worker: one per engine name, started when first needed,
    kept between games, started again after a fault. Their traffic and stderr go to
    ``traffic`` and ``stderr`` when given, labelled ``GAME:SEAT``."""

    def __init__(self, cfg: TournamentConfig, traffic: TrafficLog | None = None,
                 stderr: StderrSink | None = None, broker: str | None = None) -> None:
        self.cfg = cfg
        self.broker = broker
        self.traffic = traffic
        self.stderr = stderr
        self.edition = cfg.load_edition()
        self.control = cfg.timing()
        self.engines: dict[str, Engine] = {}
        self._up: set[str] = set()

    def play(self, game: Game, live: Callable[[dict[str, Any]], None] | None = None
             ) -> GameRecord:
        """Play one scheduled game and return its tournament record; ``live``, when
        given, gets the live page's messages of the game as it is played."""
        handles = self._prepare(game)
        rules = self.cfg.the_game()
        start = (None if game.position is None
                 else rules.from_position(game.position, self.edition))
        own = [self.cfg.own_timing(n) for n in game.seats]
        reporter = None
        if live is not None:
            from .live import Reporter

            tcs = [t or self.control for t in own]
            reporter = Reporter(rules, game, [(t.base, t.inc) for t in tcs], live)
        played = play_game(handles, seed=game.seed, time_control=self.control, game=rules,
                           variant=self.cfg.variant, setup=self.cfg.setup,
                           edition=self.edition, start=start, seat_time_controls=own,
                           on_event=None if reporter is None else reporter.on_event,
                           on_start=None if reporter is None else reporter.on_start)
        record = tournament_record(self.cfg, game, played)
        if reporter is not None:
            reporter.end(record)
        return record

    def _prepare(self, game: Game) -> list[Engine]:
        """The game's engines, each running (or with the fault that keeps it from
        running: it is then retired at ply 0) and with the game's automatic options."""
        handles = [self._engine(name) for name in game.seats]
        for seat, e in enumerate(handles, start=1):
            e.label_prefix = f"{game.number}:"
            e.label = f"{game.number}:{seat}"
        for again in (False, True):  # an engine found dead gets one more start (one
            # that connects from elsewhere does not: its seat waited its connect-timeout)
            down = [e for name, e in zip(game.seats, handles, strict=True)
                    if (e.fault is not None or name not in self._up)
                    and not (again and e.remote is not None)]
            for e in down:
                e.kill()
                e.launch()
            for e in down:
                e.finish_handshake()  # the handshakes run in parallel
            for name, e in zip(game.seats, handles, strict=True):
                e.name = name  # the tournament's name, not its id name, in logs and errors
                if e in down and e.fault is None:
                    self._configure(name, e)
                    self._up.add(name)
            for seat, (name, e) in enumerate(zip(game.seats, handles, strict=True), start=1):
                own = self.cfg.engine(name).options
                values = automatic_options(e, seed=game.seed, seat=seat,
                                           edition_file=self.cfg.edition)
                with contextlib.suppress(EngineFault):  # the fault is kept in e.fault
                    for option, value in values.items():
                        if option not in own and e.fault is None:
                            e.set_option(option, value)
            if all(e.fault is None for e in handles):
                break
        return handles

    def _engine(self, name: str) -> Engine:
        engine = self.engines.get(name)
        if engine is None:
            engine = new_engine(self.cfg, name, self.broker, traffic=self.traffic,
                                stderr=self.stderr)
            self.engines[name] = engine
        return engine

    def _configure(self, name: str, engine: Engine) -> None:
        """Set the configured options, right after a start."""
        for option, value in self.cfg.engine(name).options.items():
            try:
                engine.set_option(option, value)
            except ValueError as e:
                raise SetupError(f"engine {name!r}: {e}") from None
            except EngineFault:
                return

    def quit(self) -> None:
        """Send every engine ``quit``, then kill what is left."""
        Engine.quit_all(list(self.engines.values()))

    def kill(self) -> None:
        """Kill every engine's process group now."""
        for e in self.engines.values():
            e.kill()


# ----------------------------------------------------------------- worker processes


def _worker_main(conn: Connection, cfg: TournamentConfig, parent: int, logs: Logs,
                 inherited: Sequence[int] = ()) -> None:
    """A worker: play each game received, send its record back; None ends it. A forked
    worker first closes the main process's files ``inherited`` (the record file, whose
    lock would otherwise outlive a killed main process until the worker noticed)."""
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    # The objects it starts with (a forked worker: the main process's) live as long as it
    # does: the collector need not look at them again (and leaves their pages shared).
    gc.freeze()
    # its name in ps and top (Linux)
    with contextlib.suppress(OSError), open("/proc/self/comm", "w") as comm:
        comm.write(WORKER_NAME)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    signal.signal(signal.SIGTERM, _exit_now)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # not the main process's handler
    with open_logs(logs.traffic, logs.stderr, append=True, t0=logs.t0,
                   per_seat=False) as (traffic, stderr):
        _serve(conn, EnginePool(cfg, traffic, stderr, logs.broker), parent, logs.live)


def _serve(conn: Connection, pool: EnginePool, parent: int, live: bool = False) -> None:
    """Play each game received on ``conn`` with ``pool``, send its record back; None ends.
    ``live``: send each event's live message too, as ``("live", message)``."""

    def report(message: dict[str, Any]) -> None:
        conn.send(("live", message))

    threading.Thread(target=_watch_parent, args=(parent, pool), daemon=True).start()
    try:
        while True:
            try:
                game = conn.recv()
            except (EOFError, OSError):
                break
            if game is None:
                pool.quit()
                break
            try:
                record = pool.play(game, report if live else None)
            except SetupError as e:
                conn.send(("usage", str(e)))
                break
            except Exception:
                conn.send(("error", f"game {game.number}: {traceback.format_exc()}"))
                break
            conn.send(("done", game.number, format_record(record), header_only(record)))
    finally:
        pool.kill()


def _exit_now(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _watch_parent(parent: int, pool: EnginePool) -> None:
    """Kill the engines and exit when the main process is gone (it may have been killed)."""
    while os.getppid() == parent:
        time.sleep(0.2)
    pool.kill()
    os._exit(1)


def _start_method() -> str:
    """``fork`` on Linux (see the module docstring), else ``spawn``."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


class _Worker:
    def __init__(self, ctx: Any, cfg: TournamentConfig, index: int, logs: Logs,
                 inherited: Sequence[int] = ()) -> None:
        self.conn, child = ctx.Pipe()
        self.inherited = tuple(inherited) if ctx.get_start_method() == "fork" else ()
        self.process = ctx.Process(target=_worker_main,
                                   args=(child, cfg, os.getpid(), logs, self.inherited),
                                   name=f"sneferu-worker-{index}", daemon=True)
        for stream in (sys.stdout, sys.stderr):  # else a forked worker writes it again
            with contextlib.suppress(AttributeError, OSError, ValueError):
                stream.flush()
        # Ctrl-C at a terminal reaches the workers too, which ignore it: they are started
        # ignoring it (kept through exec), else it could kill one still starting up. A
        # Ctrl-C in these few milliseconds is lost for the main process too.
        main = threading.current_thread() is threading.main_thread()
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self.process.start()
        finally:
            if main:
                signal.signal(signal.SIGINT, handler)
        child.close()
        self.game: Game | None = None
        self.index = index
        self.logs = logs

    def send(self, game: Game | None) -> None:
        self.game = game
        with contextlib.suppress(OSError):
            self.conn.send(game)

    def kill_after(self, deadline: float) -> None:
        self.process.join(max(0.0, deadline - time.monotonic()))
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.conn.close()


# ----------------------------------------------------------------- the run

Reason = Literal["complete", "sprt", "interrupted"]


class Dispatcher(Protocol):
    """Where a run's games are played when not on this machine: a Dask
    :class:`~.cluster.Cluster` (named by this protocol, not imported: the cluster module
    imports this one)."""

    where: str
    """The scheduler's address, or ``local:N``."""
    workers: dict[str, int]
    """The workers' threads, by address."""

    @property
    def threads(self) -> int:
        """How many games it plays at once."""
        ...

    def play(self, run: TournamentRun,
             update: Callable[[TournamentRun, GameRecord | None], None]) -> None:
        """Play ``run``'s games, calling ``update`` as :meth:`TournamentRun.run` does."""
        ...


class TournamentRun:
    """One run of a tournament (started or resumed) on its journal.

    ``results`` holds what the standings need of every finished game, in the record
    file's order (the records themselves stay on disk), ``running`` the games being
    played; :meth:`run` plays until the end, the SPRT's decision or
    :attr:`stop`, on this machine or on a Dask :class:`~.cluster.Cluster` (its
    :attr:`concurrency` is then the workers' threads), calling ``on_update(self, record)``
    after each committed game (and with
    None about four times a second, for a display). :attr:`finish` stops it gently: no
    new game starts, the games being played are finished and committed. ``logs`` (here
    only) says where the workers log; ``live`` (here only), when given, gets the live
    page's message of every event of the games being played (:class:`~.live.Reporter`).
    ``reason`` says why it ended.
    """

    def __init__(self, journal: Journal, concurrency: int, cluster: Dispatcher | None = None,
                 logs: Logs | None = None,
                 live: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.journal = journal
        self.logs = msgspec.structs.replace(logs or Logs(), live=live is not None)
        self.live = live
        self.config = journal.config
        self.cluster = cluster
        self.concurrency = cluster.threads if cluster is not None else max(1, concurrency)
        self.schedule = Schedule.of(self.config)
        self._standings = RunningStandings()
        self.running: dict[int, Game] = {}
        self.stop = threading.Event()
        self.finish = threading.Event()
        self.reason: Reason | None = None
        self.started = time.monotonic()
        self._tally: SprtTally | None = None
        self.sprt: SprtResult | None = None
        cfg = self.config
        if cfg.sprt is not None:
            self._tally = SprtTally(cfg.sprt, (cfg.engines[0].name, cfg.engines[1].name))
        done: set[int] = set()
        for record in read_games(self.journal.records_path):
            (number,) = done_games([record], self.schedule)
            if number in done:
                raise ValueError(f"game {number} is recorded twice")
            done.add(number)
            self._standings.append(record)
            if self._tally is not None:
                self._tally.add([header_only(record)])
        if self._tally is not None:
            self.sprt = self._tally.result()
        self.todo: deque[Game] = deque(pending_games(self.schedule, done))
        self._standings.settle(self._first_unfinished())
        self.resumed = len(self.results)

    @property
    def results(self) -> Results:
        """What the standings need of every finished game, in the record file's order."""
        return self._standings.results

    def standings(self) -> Standings:
        """The standings of the finished games (:func:`~.standings.compute_standings` of
        :attr:`results`, kept up to date game by game)."""
        return self._standings.standings()

    def _first_unfinished(self) -> int | None:
        """The lowest number of a game not finished yet (None: none is left); the games
        are handed out in number order."""
        numbers = [*self.running, *([self.todo[0].number] if self.todo else [])]
        return min(numbers) if numbers else None

    @property
    def total(self) -> int:
        """The number of scheduled games."""
        return len(self.schedule.games)

    @property
    def finished(self) -> int:
        """Games in the record file."""
        return len(self.results)

    def decided(self) -> bool:
        """True once the SPRT has a verdict: no new game starts."""
        return self.sprt is not None and self.sprt.verdict != "continue"

    def run(self, on_update: Callable[[TournamentRun, GameRecord | None], None] | None = None
            ) -> Reason:
        """Play the games still to play; returns why the run ended."""
        shown = on_update or (lambda run, record: None)

        def update(run: TournamentRun, record: GameRecord | None) -> None:
            if record is None:  # about four times a second
                self.journal.sync_due()
            shown(run, record)

        self.started = time.monotonic()
        if self.cluster is not None:
            self.cluster.play(self, update)
        else:
            self._run_here(update)
        if self.stop.is_set() or (self.finish.is_set() and self.finished < self.total):
            self.reason = "interrupted"
        elif self.decided() and self.todo:
            self.reason = "sprt"
        else:
            self.reason = "complete"
        return self.reason

    def _run_here(self, update: Callable[[TournamentRun, GameRecord | None], None]) -> None:
        """Play on worker processes of this machine."""
        workers: list[_Worker] = []
        deaths: dict[int, int] = {}
        ctx = multiprocessing.get_context(_start_method())
        clean = False
        try:
            width = min(self.concurrency, len(self.todo)) if not self.decided() else 0
            logs = msgspec.structs.replace(self.logs, t0=self.started)
            inherited = self.journal.files()
            workers = [_Worker(ctx, self.config, i, logs, inherited) for i in range(width)]
            last = 0.0
            while not self.stop.is_set():
                self._dispatch(workers)
                busy = [w for w in workers if w.game is not None]
                if not busy:
                    break
                waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel
                                                                 for w in busy]
                ready = multiprocessing.connection.wait(waitables, timeout=0.25)
                finished = [self._receive(w, workers, deaths, ctx) for w in busy
                            if w.conn in ready or w.process.sentinel in ready]
                self._dispatch(workers)  # the workers play on while the records are written
                for done in finished:
                    if done is not None:
                        update(self, self.commit(*done))
                if time.monotonic() - last >= 0.25:
                    last = time.monotonic()
                    update(self, None)
            clean = not self.stop.is_set()
        finally:
            self._shut_down(workers, clean)

    def _dispatch(self, workers: list[_Worker]) -> None:
        """Give every idle worker the next game (none once the SPRT is decided or a stop
        is asked for)."""
        stopping = self.stop.is_set() or self.finish.is_set()
        for w in workers:
            if w.game is None and self.todo and not self.decided() and not stopping:
                game = self.todo.popleft()
                self.running[game.number] = game
                w.send(game)

    def _receive(self, w: _Worker, workers: list[_Worker], deaths: dict[int, int],
                 ctx: Any) -> tuple[int, str, GameRecord] | None:
        """A finished game from worker ``w`` (now idle), or None; a dead worker is
        replaced and its game played again."""
        game = w.game
        assert game is not None
        try:
            message = w.conn.recv() if w.conn.poll() else None
            while message is not None and message[0] == "live":  # all that came
                if self.live is not None:
                    self.live(message[1])
                if not w.conn.poll():
                    return None
                message = w.conn.recv()
        except (EOFError, OSError):
            message = None
        if message is None:
            if w.process.is_alive():
                return None  # a spurious wake-up
            # The worker died without a word (killed, out of memory): play the game again.
            code = w.process.exitcode
            deaths[game.number] = deaths.get(game.number, 0) + 1
            if deaths[game.number] >= WORKER_DEATHS:
                raise RunError(f"game {game.number}: the worker playing it died "
                               f"{WORKER_DEATHS} times (last exit code {code})")
            w.conn.close()
            workers[workers.index(w)] = _Worker(ctx, self.config, w.index, w.logs,
                                                w.inherited)
            del self.running[game.number]
            self.todo.appendleft(game)
            return None
        kind = message[0]
        if kind == "usage":
            raise ConfigError(message[1])
        if kind == "error":
            raise RunError(message[1])
        w.game = None
        _, number, text, record = message
        del self.running[number]  # played: no longer running while it is being written
        return number, text, record

    def commit(self, number: int, text: str, record: GameRecord) -> GameRecord:
        """Commit a finished game (its record's text) durably, then count it: standings,
        SPRT (``record`` needs only its header). Returns ``record``."""
        self.journal.commit(number, text.encode())
        self.running.pop(number, None)  # (a cluster's games are still counted running)
        self._standings.append(record)
        self._standings.settle(self._first_unfinished())
        if self._tally is not None and not self.decided():
            self._tally.add([record])
            self.sprt = self._tally.result()
        return record

    def _shut_down(self, workers: Sequence[_Worker], clean: bool) -> None:
        """End the workers: after the last game they quit their engines; otherwise (an
        interruption, an error) they are terminated and kill their engines."""
        for w in workers:
            if clean and w.process.is_alive():
                w.send(None)
            elif w.process.is_alive():
                w.process.terminate()
        deadline = time.monotonic() + 5
        for w in workers:
            w.kill_after(deadline)
        self.running.clear()
