"""Tournaments on a Dask ``distributed`` cluster (SPEC.md 9.10): the games are played by
the cluster's workers, the main process (the coordinator) stays the one writer of the
record file and the state.

The unit of work is a **deal**: one task plays the deal's games at every table in every
seating (duplicate play stays whole on one worker, an SPRT pair never straddles two).
Each worker thread keeps one :class:`~.runner.EnginePool` per tournament, so an engine
starts once and plays every game of every deal the thread is given; a worker plugin
kills the engines when the worker closes. A task sends each finished game back as soon
as it ends through a Dask ``Queue``; the coordinator commits it durably (9.7) and
counts it, ignoring a game number it has already committed: a deal whose worker died is
played again by another worker from its first game, and its games already committed
are not recorded twice. The coordinator keeps only a few deals per worker thread in
flight, so its memory does not grow with the tournament.

When the SPRT is decided, a Dask ``Event`` tells every task to start no more games (the
deals not started return at once, the games being played are finished and recorded);
when the run is stopped (Ctrl-C) the workers also kill the run's engines at once, and
the games being played are abandoned, as in a local run.

``distributed`` is an optional dependency (``pip install "sneferu[dask]"``): this
module imports it only when a cluster is used.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from ..record.model import GameRecord, Header
from ..record.text import format_record
from .config import ConfigError, TournamentConfig
from .runner import EnginePool, RunError, SetupError, probe_engines
from .schedule import Game

if TYPE_CHECKING:
    from .runner import TournamentRun

__all__ = ["INSTALL", "Cluster", "kill_engines", "play_deal"]

INSTALL = 'pip install "sneferu[dask]"'
"""How to get ``distributed``, said when ``--cluster`` is used without it."""

CONNECT_TIMEOUT = 30
"""Seconds to reach the scheduler (and for the workers' first answer)."""

DEALS_PER_THREAD = 2
"""Deals in flight per worker thread: one being played, one waiting its turn."""

POLL = 0.02
"""Seconds between two looks at the queue of finished games when it is empty."""

PLUGIN = "sneferu-engines"


# ----------------------------------------------------------------- the workers' side

_pools: dict[tuple[str, int], EnginePool] = {}
_pools_lock = threading.Lock()
_stopped: set[str] = set()
_aborted: set[str] = set()
_queues: dict[str, Any] = {}


def _pool(cfg: TournamentConfig) -> EnginePool:
    """This worker thread's engines for this tournament (started when first needed)."""
    key = (cfg.fingerprint(), threading.get_ident())
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = EnginePool(cfg)
        return pool


def kill_engines() -> None:
    """Kill every engine process of this worker (the worker is closing)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.kill()


def _abort(run: str) -> None:
    """On a worker: the run ``run`` is stopped: its tasks send nothing more, and the
    engines being played with are killed so that their games end at once."""
    _stopped.add(run)
    _aborted.add(run)
    kill_engines()


def play_deal(cfg: TournamentConfig, games: list[Game], run: str) -> list[int]:
    """On a worker: play the games of one deal in order, putting each finished game on the
    run's queue as ``[number, record text, header JSON]``. Plays nothing when the run's
    stop event is set when the task starts, and stops before the next game once this
    worker is told the run stopped. Returns the numbers of the games sent."""
    distributed = _distributed()
    if run in _stopped or distributed.Event(f"sneferu-stop-{run}").is_set():
        return []
    queue = _queues.get(run)
    if queue is None:
        queue = _queues[run] = distributed.Queue(f"sneferu-games-{run}")
    pool = _pool(cfg)
    sent = []
    for game in games:
        if run in _stopped:
            break
        record = pool.play(game)
        if run in _aborted:
            break
        queue.put([game.number, format_record(record),
                   msgspec.json.encode(record.header).decode()])
        sent.append(game.number)
    return sent


def _stop(run: str) -> None:
    """On a worker: the run ``run`` starts no more games (the SPRT is decided)."""
    _stopped.add(run)


def _check_here(cfg: TournamentConfig) -> str | None:
    """On a worker: start every engine once; what is wrong, or None."""
    try:
        notes = probe_engines(cfg)
    except (ConfigError, ValueError) as e:
        return str(e)
    return notes[0] if notes else None


def _watch(pid: int) -> None:
    """On a worker of a local cluster: when the coordinator (``pid``) is gone, even after
    SIGKILL, kill the engines and exit."""
    while True:
        time.sleep(0.2)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            kill_engines()
            os._exit(1)
        except PermissionError:  # pragma: no cover - another user's process took the pid
            pass


def _worker_plugin(coordinator: int | None) -> Any:
    from distributed import WorkerPlugin

    class EnginePlugin(WorkerPlugin):
        """Kills the worker's engines when it closes; on a local cluster, also when the
        coordinator is gone."""

        def __init__(self, coordinator: int | None) -> None:
            self.coordinator = coordinator

        def setup(self, worker: Any) -> None:
            if self.coordinator is not None:
                threading.Thread(target=_watch, args=(self.coordinator,), daemon=True,
                                 name="sneferu-watch").start()

        def teardown(self, worker: Any) -> None:
            kill_engines()

    return EnginePlugin(coordinator)


# ----------------------------------------------------------------- the coordinator


def _distributed() -> Any:
    """The ``distributed`` package, or ConfigError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ConfigError(f"cluster: Dask distributed is not installed ({INSTALL})"
                          ) from None
    return distributed


class Cluster:
    """A client of a Dask cluster for tournaments: ``local:N`` starts a cluster of N
    worker processes here (one thread each, no dashboard), closed with it; anything else
    is the address of a running scheduler. ConfigError when it cannot be reached. Use as
    a context manager; :meth:`check` before playing."""

    def __init__(self, where: str) -> None:
        distributed = _distributed()
        self.where = where
        self.workers: dict[str, int] = {}
        self.lost = 0
        """Workers of a local cluster that did not start (their process died at start-up)."""
        self._local = None
        try:
            if where.startswith("local:"):
                self._local = distributed.LocalCluster(
                    n_workers=0, threads_per_worker=1,
                    processes=True, dashboard_address=None, host="127.0.0.1",
                    silence_logs=logging.ERROR,
                    # the scheduler's HTTP routes (no dashboard) on a free port: on 8787,
                    # Dask warns in four lines when another program holds it
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                self.lost = _start_workers(self._local, int(where.removeprefix("local:")))
                self.client = distributed.Client(self._local, timeout=CONNECT_TIMEOUT)
            else:
                self.client = distributed.Client(where, timeout=CONNECT_TIMEOUT)
        except ConfigError:
            self.close()
            raise
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise ConfigError(f"cluster: cannot reach the Dask scheduler at {where}: "
                              f"{first}") from None
        try:
            for attempt in range(3):  # a worker lost meanwhile closes its comm: again
                try:
                    self.client.register_plugin(
                        _worker_plugin(os.getpid() if self._local else None), name=PLUGIN)
                    break
                except OSError:  # CommClosedError
                    if attempt == 2:
                        raise ConfigError(f"cluster: {where}: its workers were lost while "
                                          "they were being set up") from None
                    time.sleep(0.5)
        except BaseException:
            self.close()
            raise

    def check(self, cfg: TournamentConfig) -> None:
        """Start every engine once on every worker (start, handshake, options):
        ConfigError naming the worker and the engine at the first that fails. Fills in
        :attr:`workers` (their threads, by address)."""
        client = self.client
        if not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise ConfigError(f"cluster: no worker joined the scheduler at "
                                  f"{self.where} in {CONNECT_TIMEOUT} s") from None
        found = client.run(_check_here, cfg, on_error="return")
        for address in sorted(found):  # an exception: the worker was lost meanwhile
            if isinstance(found[address], str):
                raise ConfigError(f"worker {address}: {found[address]}")
        if all(isinstance(v, BaseException) for v in found.values()):
            raise ConfigError(f"cluster: {self.where}: every worker was lost while its "
                              "engines were started")
        self.workers = client.nthreads()

    @property
    def threads(self) -> int:
        """Games the workers play at once."""
        return sum(self.workers.values())

    def play(self, run: TournamentRun,
             update: Callable[[TournamentRun, GameRecord | None], None]) -> None:
        """Play the run's games still to play on the workers until they are all played,
        the SPRT is decided or ``run.stop`` is set."""
        _Coordinator(run, self, _distributed(), update).play()

    def close(self) -> None:
        """Close the client, and the local cluster."""
        client = getattr(self, "client", None)
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=10)
        if self._local is not None:
            with contextlib.suppress(Exception):
                self._local.close(timeout=10)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start_workers(local: Any, n: int) -> int:
    """Start ``n`` worker processes in the local cluster ``local`` (started without any);
    a worker whose process dies before it has started (killed, out of memory) is left
    out: how many were. ConfigError when none started."""
    for _ in range(n):
        local.worker_spec.update(local.new_worker_spec())
    with contextlib.suppress(RuntimeError):  # "Nanny failed to start": the others started
        local.sync(local._correct_state)
    failed = [name for name, w in local.workers.items() if w.status.name != "running"]
    for name in failed:
        del local.worker_spec[name]
        del local.workers[name]
    lost = n - len(local.workers)
    if lost == n:
        raise ConfigError(f"cluster: local:{n}: no worker process started (each died at "
                          "start-up)")
    return lost


class _Coordinator:
    """Hands out deals, commits the games that come back, follows the tasks."""

    def __init__(self, run: TournamentRun, cluster: Cluster, distributed: Any,
                 update: Callable[[TournamentRun, GameRecord | None], None]) -> None:
        self.run = run
        self.client = cluster.client
        self.update = update
        self.id = uuid.uuid4().hex
        self.queue = distributed.Queue(f"sneferu-games-{self.id}", client=self.client)
        self.stop = distributed.Event(f"sneferu-stop-{self.id}", client=self.client)
        self.killed = distributed.KilledWorker
        self.window = max(2, DEALS_PER_THREAD * cluster.threads)
        self.flight: dict[Any, list[Game]] = {}
        self.stopped = False

    def _stop(self) -> None:
        """Tell the workers to start no more games of this run: a deal task that starts
        later sees the event, one being played is told by its worker."""
        self.stopped = True
        self.stop.set()
        self.client.run(_stop, self.id)

    def play(self) -> None:
        run = self.run
        last = 0.0
        try:
            while not run.stop.is_set():
                self._submit()
                if not self.flight:
                    break
                self._receive(0.25)
                self._follow()
                if (run.decided() or run.finish.is_set()) and not self.stopped:
                    self._stop()  # no new game; those being played are recorded
                if time.monotonic() - last >= 0.25:
                    last = time.monotonic()
                    self.update(run, None)
        finally:
            self._end()

    def _submit(self) -> None:
        """Keep ``window`` deals in flight (none once the SPRT is decided or a stop is
        asked for): the next deal's games still to play, in number order."""
        run = self.run
        while (run.todo and len(self.flight) < self.window and not run.decided()
               and not run.stop.is_set() and not run.finish.is_set()):
            deal = run.todo[0].deal
            games = []
            while run.todo and run.todo[0].deal == deal:
                game = run.todo.popleft()
                run.running[game.number] = game
                games.append(game)
            future = self.client.submit(play_deal, run.config, games, self.id,
                                        key=f"sneferu-deal-{deal}-{self.id}", pure=False)
            self.flight[future] = games

    def _receive(self, wait: float) -> None:
        """Commit the games that came back; when none has, look again every 20 ms for at
        most ``wait`` seconds. (The queue is polled: a Dask queue's ``get`` with a
        timeout logs an error on the scheduler each time it times out.)"""
        end = time.monotonic() + wait
        while not (items := self.queue.get(batch=True)) and time.monotonic() < end:
            time.sleep(POLL)
        for number, text, header in items:
            if number not in self.run.running:
                continue  # played again after its worker died: it is committed already
            record = GameRecord(msgspec.json.decode(header, type=Header), [])
            self.update(self.run, self.run.commit(number, text, record))

    def _follow(self) -> None:
        """Deals whose task ended: done once all its games came back; a task that failed
        stops the run. A task whose result was lost with its worker (killed after the
        deal ended, before it was followed here) is played again by the scheduler."""
        for future, games in list(self.flight.items()):
            if future.status in ("pending", "lost"):
                continue  # lost: its worker died after it ended; the scheduler plays it again
            if future.status != "finished":
                self._failed(future, games)
            sent = future.result()
            if any(n in self.run.running for n in sent):
                self._receive(1.0)  # sent before the task ended: on its way
                if any(n in self.run.running for n in sent):
                    continue
            for g in games:  # a game not played: the SPRT was decided, or a gentle stop
                self.run.running.pop(g.number, None)
            del self.flight[future]

    def _failed(self, future: Any, games: list[Game]) -> None:
        deal = games[0].deal
        try:
            error = future.exception()
        except Exception as e:  # cancelled, lost
            error = e
        if isinstance(error, SetupError):
            raise ConfigError(str(error))
        if isinstance(error, self.killed):
            raise RunError(f"deal {deal}: the workers playing it kept dying ({error})")
        text = "".join(traceback.format_exception(error)).rstrip()
        raise RunError(f"deal {deal}: {text}")

    def _end(self) -> None:
        """Tell every task to stop; after a stop or an error, kill the run's engines on
        every worker (the games being played are abandoned); release the tasks."""
        with contextlib.suppress(Exception):
            self.stop.set()
        if self.flight:
            with contextlib.suppress(Exception):
                self.client.run(_abort, self.id)
            with contextlib.suppress(Exception):
                self.client.cancel(list(self.flight))
        for games in self.flight.values():
            for g in games:
                self.run.running.pop(g.number, None)
        self.flight.clear()
