"""Running a tournament: its games played N at a time, every finished game committed
durably before it is reported (SPEC.md section 9.8).

Each of the N games at once is played by a **worker process** that keeps one process per
engine alive between its games (``newgame`` resets an engine) and starts it again after a
fault: a crashing or hanging engine costs its games (faults, retirement, as in one game of
``sneferu play``), never the tournament. The main process hands out games in number order,
commits each record through the :class:`~.journal.Journal` as it arrives (one at a time),
and decides when to stop: when every game is played, when the SPRT is decided (no new game
starts), or when :attr:`TournamentRun.stop` is set (the games being played are abandoned;
a resume plays them again).

Worker processes rather than threads: the arbiter's own Python work per move (applying the
turn, the position line, and for engines with ``feature legalmoves`` every legal move) is
about 0.2 ms, 1.5 ms with the legal moves (``sneferu play --bench``: as much as a fast
engine's whole move). Threads run it under one GIL, so a threaded runner tops out at one
core of arbiter work (about 700 turns a second for ``legalmoves`` engines) however many
cores there are; processes scale with the cores. On the 2-core development machine both
measured the same (4 ``js-random`` or 4 ``random`` engines, 4 seats, ``-j 1`` and ``-j 2``:
within 10% of each other). A worker notices when the main process is gone (even after
SIGKILL) and kills its engines. Workers are started
with ``spawn``: a script that runs a tournament through this module must guard its entry
point with ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any, Literal

import msgspec

from ..arbiter.bundled import BUNDLED, check_program, engine_command
from ..arbiter.engine import Engine, automatic_options
from ..arbiter.game import play_game
from ..arbiter.process import EngineFault
from ..record.jsonl import read_any
from ..record.model import GameRecord
from ..record.text import decode_records, format_record
from .config import ConfigError, EngineConfig, TournamentConfig
from .journal import Journal
from .schedule import Game, Schedule, done_games, game_header, pending_games
from .sprt import SprtResult, SprtTally

__all__ = ["EnginePool", "RunError", "TournamentRun", "engine_argv", "probe_engines",
           "tournament_record"]

WORKER_DEATHS = 3
"""How often a worker may die while playing the same game before the run gives up."""


class RunError(RuntimeError):
    """The run cannot go on (not an engine's fault): a bug, or workers that keep dying."""


def engine_argv(engine: EngineConfig) -> list[str]:
    """The argv that starts an engine: its command, or for a command that is one bundled
    engine's name (``random``, ``greedy``, ``js-random``) that engine's. ConfigError when
    the program cannot be found."""
    try:
        if len(engine.command) == 1 and engine.command[0] in BUNDLED:
            return engine_command(engine.command[0])
        check_program(engine.command, cwd=engine.dir, what=f"engine {engine.name!r}")
    except ValueError as e:
        raise ConfigError(str(e)) from None
    return list(engine.command)


def probe_engines(cfg: TournamentConfig) -> list[str]:
    """Start every engine once (in parallel) and check that it takes its configured
    options: ConfigError naming the engine when one does not. Returns a note for each
    engine that failed its handshake (it will play its games retired at ply 0)."""
    engines = [Engine(engine_argv(ec), name=ec.name, cwd=ec.dir,
                      handshake_timeout=cfg.handshake_timeout) for ec in cfg.engines]
    notes = []
    try:
        Engine.start_all(engines)
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
    ours = (header.players, header.edition, header.variant, header.builders, header.seed,
            header.time_control)
    theirs = (h.players, h.edition, h.variant, h.builders, h.seed, h.time_control)
    if ours != theirs:
        raise RunError(f"game {game.number}: the arbiter played {theirs}, the schedule "
                       f"says {ours}")
    header.date = h.date
    header.seats = [msgspec.structs.replace(s, builder=p.builder, author=p.author)
                    for s, p in zip(header.seats, h.seats, strict=True)]
    header.result, header.solo, header.termination = h.result, h.solo, h.termination
    header.faults = h.faults
    return GameRecord(header, played.events)


class SetupError(ValueError):
    """The configuration does not fit an engine (an option it does not declare or refuses)."""


class EnginePool:
    """The engine processes of one worker: one per engine name, started when first needed,
    kept between games, started again after a fault."""

    def __init__(self, cfg: TournamentConfig) -> None:
        self.cfg = cfg
        self.edition = cfg.load_edition()
        self.control = cfg.timing()
        self.engines: dict[str, Engine] = {}
        self._up: set[str] = set()

    def play(self, game: Game) -> GameRecord:
        """Play one scheduled game and return its tournament record."""
        handles = self._prepare(game)
        played = play_game(handles, seed=game.seed, time_control=self.control,
                           builders=self.cfg.builders, edition=self.edition)
        return tournament_record(self.cfg, game, played)

    def _prepare(self, game: Game) -> list[Engine]:
        """The game's engines, each running (or with the fault that keeps it from
        running: it is then retired at ply 0) and with the game's automatic options."""
        handles = [self._engine(name) for name in game.seats]
        for _ in range(2):  # an engine found dead before the game gets one more start
            down = [e for name, e in zip(game.seats, handles, strict=True)
                    if e.fault is not None or name not in self._up]
            for e in down:
                e.kill()
                e.launch()
            for e in down:
                e.finish_handshake()  # the handshakes run in parallel
            for name, e in zip(game.seats, handles, strict=True):
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
            ec = self.cfg.engine(name)
            engine = Engine(engine_argv(ec), name=name, cwd=ec.dir,
                            handshake_timeout=self.cfg.handshake_timeout)
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


def _worker_main(conn: Connection, cfg: TournamentConfig, parent: int) -> None:
    """A worker: play each game received, send its record back; None ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    signal.signal(signal.SIGTERM, _exit_now)
    pool = EnginePool(cfg)
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
                record = pool.play(game)
            except SetupError as e:
                conn.send(("usage", str(e)))
                break
            except Exception:
                conn.send(("error", f"game {game.number}: {traceback.format_exc()}"))
                break
            conn.send(("done", game.number, format_record(record), record))
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


class _Worker:
    def __init__(self, ctx: Any, cfg: TournamentConfig, index: int) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, cfg, os.getpid()),
                                   name=f"sneferu-worker-{index}", daemon=True)
        self.process.start()
        child.close()
        self.game: Game | None = None
        self.index = index

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


class TournamentRun:
    """One run of a tournament (started or resumed) on its journal.

    ``records`` holds every finished game in the record file's order, ``running`` the
    games being played; :meth:`run` plays until the end, the SPRT's decision or
    :attr:`stop`, calling ``on_update(self, record)`` after each committed game (and with
    None about four times a second, for a display). ``reason`` says why it ended.
    """

    def __init__(self, journal: Journal, concurrency: int) -> None:
        self.journal = journal
        self.config = journal.config
        self.concurrency = max(1, concurrency)
        self.schedule = Schedule.of(self.config)
        self.records: list[GameRecord] = self._read_records()
        done = done_games(self.records, self.schedule)
        self.todo: deque[Game] = deque(pending_games(self.schedule, done))
        self.resumed = len(self.records)
        self.running: dict[int, Game] = {}
        self.stop = threading.Event()
        self.reason: Reason | None = None
        self.started = time.monotonic()
        self._tally: SprtTally | None = None
        self.sprt: SprtResult | None = None
        cfg = self.config
        if cfg.sprt is not None:
            self._tally = SprtTally(cfg.sprt, (cfg.engines[0].name, cfg.engines[1].name))
            self._tally.add(self.records)
            self.sprt = self._tally.result()

    @property
    def total(self) -> int:
        """The number of scheduled games."""
        return len(self.schedule.games)

    @property
    def finished(self) -> int:
        """Games in the record file."""
        return len(self.records)

    def _read_records(self) -> list[GameRecord]:
        path = self.journal.records_path
        with open(path, "rb") as f:
            data = f.read()
        rf = read_any(decode_records(data, str(path)), str(path))
        return [g.record for g in rf.games]

    def decided(self) -> bool:
        """True once the SPRT has a verdict: no new game starts."""
        return self.sprt is not None and self.sprt.verdict != "continue"

    def run(self, on_update: Callable[[TournamentRun, GameRecord | None], None] | None = None
            ) -> Reason:
        """Play the games still to play; returns why the run ended."""
        update = on_update or (lambda run, record: None)
        workers: list[_Worker] = []
        deaths: dict[int, int] = {}
        ctx = multiprocessing.get_context("spawn")
        self.started = time.monotonic()
        clean = False
        try:
            width = min(self.concurrency, len(self.todo)) if not self.decided() else 0
            workers = [_Worker(ctx, self.config, i) for i in range(width)]
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
                        update(self, self._commit(*done))
                if time.monotonic() - last >= 0.25:
                    last = time.monotonic()
                    update(self, None)
            clean = not self.stop.is_set()
        finally:
            self._shut_down(workers, clean)
        if self.stop.is_set():
            self.reason = "interrupted"
        elif self.decided() and self.todo:
            self.reason = "sprt"
        else:
            self.reason = "complete"
        return self.reason

    def _dispatch(self, workers: list[_Worker]) -> None:
        """Give every idle worker the next game (none once the SPRT is decided)."""
        for w in workers:
            if w.game is None and self.todo and not self.decided() and not self.stop.is_set():
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
            workers[workers.index(w)] = _Worker(ctx, self.config, w.index)
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

    def _commit(self, number: int, text: str, record: GameRecord) -> GameRecord:
        self.journal.commit(number, text.encode())
        self.records.append(record)
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
