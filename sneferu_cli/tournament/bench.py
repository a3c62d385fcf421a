"""What a tournament costs of its own per turn: ``sneferu bench``'s tournament figure.

:func:`tournament_cpu` runs a real ``sneferu tournament -j 1`` (a new process, as a user
runs it) between copies of an engine, and measures the CPU of every process in its tree
by polling ``/proc`` every 10 ms (each process's last reading before it exits is kept,
so at most 10 ms of a process is missed). The engines' CPU is left out, so what remains
is the tournament's own: the coordinator (the command's process: configuration, journal,
standings, progress) and its worker (``sneferu-worker``: set-up of every game, the game
loop, records). ``scripts/fastchess_compare.py`` measures fastchess's own CPU per ply the
same way, beside this figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..arbiter.bench import MOVETIME, instant_engine, pipe_round_trip
from ..record.jsonl import read_any
from ..record.model import turn_count
from ..record.text import decode_records
from ..words import plural
from .runner import WORKER_NAME

__all__ = ["TournamentCpu", "TreeCpu", "engine_games_command", "own_cpu", "tournament_cpu",
           "tournament_report"]

POLL = 0.01
"""Seconds between two readings of /proc."""

_HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> dict[int, tuple[int, str, float]]:
    """Every process: its parent, name and CPU seconds (user + system), from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue  # gone meanwhile
        end = stat.rfind(")")
        fields = stat[end + 2:].split()
        found[int(entry)] = (int(fields[1]), stat[stat.find("(") + 1:end],
                             (int(fields[11]) + int(fields[12])) / _HZ)
    return found


@dataclass(frozen=True)
class TreeCpu:
    """What :func:`own_cpu` measured: the command's process id, every process of its tree
    seen (by id: its name and CPU seconds), the wall seconds and the exit code."""

    root: int
    processes: dict[int, tuple[str, float]]
    wall: float
    code: int

    def by_name(self) -> dict[str, float]:
        """CPU seconds by process name."""
        out: dict[str, float] = {}
        for name, cpu in self.processes.values():
            out[name] = out.get(name, 0.0) + cpu
        return out


def own_cpu(argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None) -> TreeCpu:
    """Run ``argv`` (output discarded) and measure the CPU of every process in its tree.
    OSError when the command cannot start or there is no /proc to read."""
    if not os.path.isdir("/proc/self"):
        raise OSError("no /proc here to read the CPU of a process tree from")
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: dict[int, tuple[str, float]] = {}
    while proc.poll() is None:
        table = _processes()
        tree = {proc.pid}
        grown = True
        while grown:
            grown = False
            for pid, (parent, _, _) in table.items():
                if parent in tree and pid not in tree:
                    tree.add(pid)
                    grown = True
        for pid in tree & table.keys():
            seen[pid] = table[pid][1:]
        time.sleep(POLL)
    return TreeCpu(proc.pid, seen, time.perf_counter() - start, proc.returncode)


@dataclass(frozen=True)
class TournamentCpu:
    """A measured tournament: its games and turns, the CPU seconds of its own processes
    (``coordinator`` and :data:`~.runner.WORKER_NAME`), the engines' CPU seconds and the
    wall seconds."""

    games: int
    turns: int
    own: dict[str, float]
    engines: float
    wall: float

    @property
    def per_turn(self) -> float:
        """The tournament's own CPU per turn, in microseconds."""
        return sum(self.own.values()) / self.turns * 1e6

    @property
    def worker(self) -> float:
        """The worker's part of :attr:`per_turn`."""
        return self.own.get(WORKER_NAME, 0.0) / self.turns * 1e6


def engine_games_command(engine: Sequence[str], *, game: str, seats: int, deals: int,
                         seed: int, records: str, setup: str | None = None,
                         edition: str | None = None) -> list[str]:
    """The ``sneferu tournament -j 1`` command of ``seats`` copies of ``engine`` at one
    table (named a, b, c, ...; every seating, ``deals`` deals: ``seats * deals`` games,
    one seat alone: ``deals`` solo games), the bench's movetime, run by this interpreter."""
    command = " ".join(engine)
    argv = [sys.executable, "-m", "sneferu_cli", "tournament", "--game", game,
            "--seats", str(seats), "--deals", str(deals), "--seed", str(seed),
            "--movetime", str(MOVETIME), "-j", "1", "--records", records]
    for name in "abcd"[:seats]:
        argv += ["--engine", f"name={name} command={command}"]
    if setup is not None:
        argv += ["--builders", setup]
    if edition is not None:
        argv += ["--edition", edition]
    return argv


def tournament_cpu(engine: Sequence[str], *, game: str, seats: int, deals: int, seed: int,
                   setup: str | None = None, edition: str | None = None) -> TournamentCpu:
    """Run :func:`engine_games_command`'s tournament in a temporary folder and measure
    it (:func:`own_cpu`): its own processes are the command's (the coordinator) and its
    workers (named :data:`~.runner.WORKER_NAME`), any other (their children) an engine.
    OSError when it fails or plays no turn."""
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "bench.records")
        argv = engine_games_command(engine, game=game, seats=seats, deals=deals, seed=seed,
                                    records=records, setup=setup, edition=edition)
        tree = own_cpu(argv, cwd=tmp)
        if tree.code != 0:
            raise OSError(f"the tournament failed (exit code {tree.code}): {' '.join(argv)}")
        rf = read_any(decode_records(Path(records).read_bytes(), records), records)
    turns = sum(turn_count(g.record.events) for g in rf.games)
    if not turns:
        raise OSError("the tournament played no turn")
    own: dict[str, float] = {}
    engines = 0.0
    for pid, (name, cpu) in tree.processes.items():
        if pid == tree.root or name == WORKER_NAME:
            key = WORKER_NAME if name == WORKER_NAME else "coordinator"
            own[key] = own.get(key, 0.0) + cpu
        else:
            engines += cpu
    return TournamentCpu(len(rf.games), turns, own, engines, tree.wall)


def tournament_report(game: str, seats: int, games: int, seed: int, setup: str | None = None,
                      edition: str | None = None) -> str:
    """``sneferu bench``'s tournament lines: a ``-j 1`` tournament of about ``games`` games
    between ``seats`` instant engines (``engines/instant.c`` built, else
    ``engines/instant.py``): its own CPU per turn (coordinator and worker, engines left
    out), as a multiple of the floor (a pipe round trip, measured again here). Without
    /proc (not Linux): one line saying so."""
    if not os.path.isdir("/proc/self"):
        return "tournament: not measured (no /proc here to read its processes' CPU from)"
    floor = pipe_round_trip()
    with tempfile.TemporaryDirectory() as tmp:
        engine, which = instant_engine(Path(tmp))
        m = tournament_cpu(engine, game=game, seats=seats, deals=max(1, games // seats),
                           seed=seed, setup=setup, edition=edition)
    per_turn, worker = m.per_turn, m.worker
    return "\n".join([
        f"tournament: sneferu tournament -j 1, {plural(m.games, 'game')} between "
        f"{plural(seats, 'instant engine')} at one table ({m.turns:,} turns)",
        f"{'figure':<38}{'own CPU each':>14}{'x floor':>10}{'coordinator':>14}{'worker':>12}",
        f"{'tournament turn':<38}{per_turn:>11,.1f} µs{per_turn / floor:>10,.1f}"
        f"{per_turn - worker:>11,.1f} µs{worker:>9,.1f} µs",
        f"(the run's processes read from /proc; its engines, {which}, left out: "
        f"{m.engines / m.turns * 1e6:,.1f} µs per turn; wall {m.wall / m.turns * 1e6:,.1f} "
        f"µs per turn; floor {floor:,.1f} µs)"])
