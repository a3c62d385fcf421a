"""Sandbox levels (SPEC.md 7.10): how they are written, chosen and refused, and the
named faults of an engine its sandbox stopped (7.2) in a tournament."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from support import require_sandbox, run_cli

from sneferu_cli.arbiter.bench import time_engines
from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.process import EngineProcess
from sneferu_cli.arbiter.sandbox import Limits, Sandbox, SandboxError, cgroup_root
from sneferu_cli.record.model import GameRecord, usage_of
from sneferu_cli.record.text import read_records
from sneferu_cli.tournament.config import ConfigError, fingerprint_of, load_config

FIXTURE = Path(__file__).with_name("fixtures") / "hostile.py"


def test_a_sandbox_is_a_level_and_limits() -> None:
    box = Sandbox.parse("cgroup memory=256M pids=10 cpu=5 tmp=1G")
    assert box.level == "cgroup"
    assert box.limits == Limits(memory=256 << 20, pids=10, cpu=5, tmp=1 << 30)
    assert str(box) == "cgroup cpu=5 pids=10 memory=256M tmp=1G"
    assert Sandbox.parse("none") == Sandbox()


@pytest.mark.parametrize(("text", "message"), [
    ("", "the level is one of none, limits, bwrap, cgroup"),
    ("docker", "'docker': the level is one of"),
    ("cgroup memory=lots", "memory='lots' is not a size"),
    ("cgroup pids=0", "pids='0' is not a whole number >= 1"),
    ("limits cpu=1 cpu=2", "'cpu=2': expected KEY=VALUE"),
    ("limits swap=1", "'swap=1': expected KEY=VALUE, KEY one of cpu, files"),
])
def test_a_badly_written_sandbox_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(SandboxError, match=message.replace("(", r"\(")):
        Sandbox.parse(text)
    r = run_cli("play", "random", "random", "--sandbox", text)
    assert r.returncode == 2
    assert message in r.stderr and "Traceback" not in r.stderr


def no_bwrap_path(tmp_path: Path) -> str:
    """A PATH with this Python and nothing else (no bwrap)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(sys.executable, bin_dir / "python3")
    return str(bin_dir)


@pytest.mark.parametrize("level", ["bwrap", "cgroup"])
def test_a_level_that_cannot_be_enforced_is_refused_not_weakened(level: str,
                                                                 tmp_path: Path) -> None:
    """Without bwrap on the PATH, play and tournament refuse the level before any engine
    starts: one line naming the level and what is missing, exit code 2."""
    env = {**os.environ, "PATH": no_bwrap_path(tmp_path)}
    play = subprocess.run([sys.executable, "-m", "sneferu_cli", "play", "random", "random",
                           "--sandbox", level], env=env, capture_output=True, text=True,
                          timeout=60)
    assert play.returncode == 2, play.stderr
    assert f"sandbox {level}: 'bwrap' is not on the PATH" in play.stderr
    assert "Traceback" not in play.stderr and "Game:" not in play.stdout
    cup = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament",
                          "--engine", f"name=a command=random 'sandbox={level}'",
                          "--engine", "name=b command=random", "--deals", "1",
                          "--records", str(tmp_path / "cup.records")],
                         env=env, capture_output=True, text=True, timeout=60)
    assert cup.returncode == 2, cup.stderr
    assert (f"engine[0].sandbox: sandbox {level}: 'bwrap' is not on the PATH"
            in cup.stderr)
    assert len(cup.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "cup.records").exists()


def test_an_engine_sandbox_overrides_the_tournaments(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(
        'sandbox = "limits cpu=60"\n'
        '[[engine]]\nname = "a"\ncommand = "random"\nsandbox = "none"\ncheck = true\n'
        '[[engine]]\nname = "b"\ncommand = "random"\n')
    cfg = load_config(tmp_path / "t.toml")
    assert cfg.own_sandbox("a") == Sandbox()
    assert cfg.own_sandbox("b") == Sandbox("limits", Limits(cpu=60))
    assert cfg.engine("a").check is True
    flags = load_config(None, {"engine": ["name=a command=random 'sandbox=limits pids=9' "
                                          "check=true", "name=b command=random"]})
    assert flags.own_sandbox("a").limits.pids == 9
    assert flags.engine("a").check is True and flags.engine("b").check is None
    with pytest.raises(ConfigError, match=r"engine: check='yes' \(true or false\)"):
        load_config(None, {"engine": ["name=a command=random check=yes"]})
    with pytest.raises(ConfigError, match=r"sandbox: sandbox: 'x=1'"):
        load_config(None, {"engine": ["name=a command=random", "name=b command=random"],
                           "sandbox": "limits x=1"})


def test_the_fingerprint_without_sandbox_keys_is_unchanged() -> None:
    """A tournament file without sandbox or check keys keeps its fingerprint, so earlier
    states resume; a sandbox given changes it."""
    engines = ["name=a command=random", "name=b command=random"]
    plain = load_config(None, {"engine": engines, "seed": 1})
    boxed = load_config(None, {"engine": engines, "seed": 1, "sandbox": "limits"})
    assert plain.fingerprint() != boxed.fingerprint()
    fields = msgspec.to_builtins(plain)
    del fields["sandbox"]
    for e in fields["engine"]:
        e.pop("sandbox", None)
        e.pop("check", None)
    assert fingerprint_of(fields) == plain.fingerprint()


def two_engines(records: Path, first: str, second: str, *, deals: int, movetime: int
                ) -> list[GameRecord]:
    """The games of a tournament of two engines (``--engine`` values) at 2 seats."""
    r = run_cli("tournament", "--engine", first, "--engine", second, "--deals", str(deals),
                "--seed", "3", "--movetime", str(movetime), "--records", str(records),
                "-j", "1", timeout=240)
    assert r.returncode == 0, r.stderr
    return [g.record for g in read_records(records.read_text()).games]


def seat_of(game: GameRecord, name: str) -> int:
    return next(s.seat for s in game.header.seats if s.name == name)


def test_a_tournament_engine_stopped_by_its_sandbox_has_its_named_fault(
        tmp_path: Path) -> None:
    """SPEC 7.2: an engine spinning past its CPU seconds (limits level, its own sandbox)
    is retired with fault kind ``cpu``; the other engine, without a sandbox, plays on."""
    folder = tmp_path / "spinner"
    folder.mkdir()
    shutil.copy(FIXTURE, folder / "hostile.py")
    records = tmp_path / "cup.records"
    games = two_engines(records, f"name=spinner command='{sys.executable} hostile.py spin m' "
                        f"dir={folder} 'sandbox=limits cpu=2'", "name=random command=random",
                        deals=1, movetime=60000)
    assert len(games) == 2
    for game in games:
        (fault,) = game.header.faults
        spinner = seat_of(game, "spinner")
        assert (fault.seat, fault.kind) == (spinner, "cpu")
        assert "killed by signal SIGXCPU" in fault.detail
        assert game.header.termination == "normal"


def test_a_sandboxed_engines_usage_is_recorded_and_reported(tmp_path: Path) -> None:
    """SPEC 7.10: each seat of an engine in a sandbox gets ``[Extra "usage S" "cpu=SECONDS
    peak=KIB"]``, its CPU time in the game and its peak memory; ``tournament report`` adds
    them up per engine (text and JSON). An engine without a sandbox has none."""
    records = tmp_path / "cup.records"
    games = two_engines(records, "name=boxed command=random sandbox=limits",
                        "name=free command=random", deals=2, movetime=1000)
    assert len(games) == 4
    for game in games:
        boxed = seat_of(game, "boxed")
        usage = {k: v for k, v in game.header.extra.items() if k.startswith("usage ")}
        assert list(usage) == [f"usage {boxed}"]
        used = usage_of(usage[f"usage {boxed}"])
        assert used is not None
        cpu, peak = used
        assert 0 <= cpu < 60 and peak > 1024  # a Python process holds over 1 MiB
    report = run_cli("tournament", "report", str(records))
    assert report.returncode == 0, report.stderr
    lines = report.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("resources"))
    assert lines[start + 1].split() == ["engine", "games", "cpu", "s", "peak", "MiB"]
    assert lines[start + 2].split()[:2] == ["boxed", "4"]
    assert not any(line.startswith("free ") for line in lines[start:])
    data = json.loads(run_cli("tournament", "report", str(records), "--json").stdout)
    rows = {e["name"]: e for e in data["engines"]}
    assert rows["boxed"]["measured"] == 4 and rows["boxed"]["peak_kib"] > 1024
    assert "measured" not in rows["free"] and "cpu" not in rows["free"]


_PROC_READS: list[str] | None = None
"""The /proc files and folders opened while a test watches (:func:`_watch_proc`), else None."""


def _watch_proc(event: str, args: tuple[object, ...]) -> None:
    if _PROC_READS is not None and event in ("open", "os.listdir") and args:
        path = os.fsdecode(args[0]) if isinstance(args[0], (str, bytes)) else ""
        if path.startswith("/proc"):
            _PROC_READS.append(path)


def test_an_engine_without_a_sandbox_has_no_usage_read() -> None:
    """SPEC 7.10: only an engine in a sandbox is measured: the game loop reads no engine's
    /proc usage (a walk of every process on the machine) for engines without one. Seen
    through Python's audit events, whatever module (compiled or not) would open the files."""
    global _PROC_READS
    engines = [Engine(engine_command("random"), label=str(i)) for i in (1, 2)]
    sys.addaudithook(_watch_proc)  # stays for the process: inert while _PROC_READS is None
    _PROC_READS = []
    try:
        moves, _, _ = time_engines(engines, 2, 1, None, None)
        reads = _PROC_READS
    finally:
        _PROC_READS = None
    # a usage read is the only reader of a process's status (a kill walks the stat files)
    assert moves > 0 and [r for r in reads if r.endswith("/status")] == []
    # the watch sees a usage read where there is one
    process = EngineProcess(engine_command("random"), label="x", name="x")
    _PROC_READS = []
    try:
        assert process.usage() is not None
        reads = _PROC_READS
    finally:
        _PROC_READS = None
        process.kill()
    assert f"/proc/{process.proc.pid}/status" in reads


def test_each_engine_gets_cgroups_of_its_own_removed_after_it() -> None:
    """SPEC 7.10: the cgroup level makes the engine's cgroups (``sneferu-PID-...``, under
    this process's own), with its limits written, and removes them at the cleanup."""
    require_sandbox("cgroup")
    confined = Sandbox.parse("cgroup memory=64M pids=8 shares=512").confine(["true"], None)
    version, _ = cgroup_root()
    groups = list(confined.groups)
    assert groups and all(g.name.startswith(f"sneferu-{os.getpid()}-") for g in groups)
    files = {f.name: f.read_text().strip() for g in groups for f in g.iterdir()
             if f.name in ("memory.limit_in_bytes", "memory.max", "pids.max", "cpu.shares",
                           "cpu.weight")}
    assert files["memory.limit_in_bytes" if version == 1 else "memory.max"] == str(64 << 20)
    assert files["pids.max"] == "8"
    assert files["cpu.shares"] == "512" if version == 1 else files["cpu.weight"] == "50"
    confined.cleanup()
    assert not any(g.exists() for g in groups)
