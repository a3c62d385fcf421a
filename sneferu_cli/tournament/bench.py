"""What a tournament costs of its own per turn: ``sneferu bench``'s tournament figure.

:func:`tournament_cpu` runs a real ``sneferu tournament -j 1`` (a new process, as a user
runs it) between copies of an engine, and measures the CPU of every process in its tree
by polling ``/proc`` every 10 ms, as ``fastchess``-style comparisons do: each process's
last reading before it exits is kept, so at most 10 ms of a process is missed. The
engines' CPU is left out (processes whose name is the engine's), so what remains is the
tournament's own: the coordinator (the ``sneferu`` process: configuration, journal,
standings, progress) and its worker (``sneferu-worker``: set-up of every game, the game
loop, records). ``scripts/fastchess_compare.py`` puts the figure beside fastchess's own
CPU per ply.
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

from ..record.jsonl import read_any
from ..record.model import turn_count
from ..record.text import decode_records

__all__ = ["TournamentCpu", "engine_games_command", "own_cpu", "tournament_cpu"]

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


def own_cpu(argv: Sequence[str], *, cwd: str | os.PathLike[str] | None = None
            ) -> tuple[dict[str, float], float, int]:
    """Run ``argv`` (output discarded) and measure the CPU of every program in its process
    tree: CPU seconds by process name, the wall seconds and the exit code. OSError when
    the command cannot start or there is no /proc to read."""
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
    wall = time.perf_counter() - start
    by_name: dict[str, float] = {}
    for name, cpu in seen.values():
        by_name[name] = by_name.get(name, 0.0) + cpu
    return by_name, wall, proc.returncode


@dataclass(frozen=True)
class TournamentCpu:
    """A measured tournament: its games and turns, the CPU seconds of its own processes
    by name (engines left out), the engines' CPU seconds and the wall seconds."""

    games: int
    turns: int
    own: dict[str, float]
    engines: float
    wall: float

    @property
    def per_turn(self) -> float:
        """The tournament's own CPU per turn, in microseconds."""
        return sum(self.own.values()) / self.turns * 1e6 if self.turns else float("inf")


def engine_games_command(engine: Sequence[str], *, game: str, seats: int, deals: int,
                         seed: int, records: str, builders: str | None = None,
                         edition: str | None = None) -> list[str]:
    """The ``sneferu tournament -j 1`` command of ``seats`` copies of ``engine`` at one
    table (named a, b, c, ...; every seating, ``deals`` deals: ``seats * deals`` games,
    one seat alone: ``deals`` solo games), movetime 1000 ms, run by this interpreter."""
    command = " ".join(engine)
    argv = [sys.executable, "-m", "sneferu_cli", "tournament", "--game", game,
            "--seats", str(seats), "--deals", str(deals), "--seed", str(seed),
            "--movetime", "1000", "-j", "1", "--records", records]
    for name in "abcd"[:seats]:
        argv += ["--engine", f"name={name} command={command}"]
    if builders is not None:
        argv += ["--builders", builders]
    if edition is not None:
        argv += ["--edition", edition]
    return argv


def tournament_cpu(engine: Sequence[str], *, game: str, seats: int, deals: int, seed: int,
                   builders: str | None = None, edition: str | None = None) -> TournamentCpu:
    """Run :func:`engine_games_command`'s tournament in a temporary folder and measure
    it (:func:`own_cpu`); the engines are the processes named as ``engine``'s program.
    OSError when it fails or plays no turn."""
    engine_name = Path(engine[0]).name[:15]  # a process name is cut at 15 characters
    with tempfile.TemporaryDirectory() as tmp:
        records = os.path.join(tmp, "bench.records")
        argv = engine_games_command(engine, game=game, seats=seats, deals=deals, seed=seed,
                                    records=records, builders=builders, edition=edition)
        by_name, wall, code = own_cpu(argv, cwd=tmp)
        if code != 0:
            raise OSError(f"the tournament failed (exit code {code}): {' '.join(argv)}")
        rf = read_any(decode_records(Path(records).read_bytes(), records), records)
    turns = sum(turn_count(g.record.events) for g in rf.games)
    if not turns:
        raise OSError("the tournament played no turn")
    engines = by_name.pop(engine_name, 0.0)
    return TournamentCpu(len(rf.games), turns, by_name, engines, wall)
