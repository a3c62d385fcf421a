"""Strangers' engines in a sandbox (SPEC.md 7.2 and 7.10): each hostile engine
(tests/sandbox/fixtures/hostile.py) plays seat 2 of a four-seat Sneferu game under
``sneferu play --sandbox LEVEL`` and is contained: retired with its named fault (``memory``,
``cpu``, ``processes``), or its attempt to read, write or connect fails inside it (it then
answers an illegal move), while seats 1, 3 and 4 play the same moves as in a clean run of
the same seed, and nothing it started (process or cgroup) is left afterwards.

Every level this machine can enforce is run; under CI (``SNEFERU_CI=1``) a level that
cannot be enforced fails instead of being skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from support import BROKEN, require_sandbox, wait_for

from sneferu_cli.arbiter.sandbox import SandboxError, cgroup_root
from sneferu_cli.record.model import GameRecord, Retire, Turn
from sneferu_cli.record.text import read_records

FIXTURE = Path(__file__).with_name("fixtures") / "hostile.py"
LIMITS = "memory=256M pids=64 cpu=3"
SEED = "7"

# mode -> {level: the outcome}: a fault kind, "escaped" (the attempt succeeded: the
# fixture exits, a crash naming it), or "" (the game ends normally).
CONTAINED = {
    "memory": {"cgroup": "memory"},
    "fork": {"cgroup": "processes"},
    "spin": {"limits": "cpu", "bwrap": "cpu", "cgroup": "cpu"},
    "network": {"none": "escaped", "bwrap": "illegal", "cgroup": "illegal"},
    "read": {"none": "escaped", "bwrap": "illegal", "cgroup": "illegal"},
    "write": {"none": "escaped", "bwrap": "illegal", "cgroup": "illegal"},
    "child": {"none": "", "limits": "", "bwrap": "", "cgroup": ""},
}
CASES = [(mode, level) for mode, levels in CONTAINED.items() for level in levels]


def play(tmp: Path, mode: str, level: str, *extra: str) -> tuple[GameRecord, str, str]:
    """Seat 2 is the fixture in ``mode`` (run from a folder of its own), the others the
    bundled random engine; the record, the marker of its processes, and stderr."""
    own = tmp / "engine2"
    own.mkdir()
    shutil.copy(FIXTURE, own / "hostile.py")
    marker = f"sneferu-hostile-{uuid.uuid4().hex}"
    hostile = f"{sys.executable} {own / 'hostile.py'} {mode} {marker} {' '.join(extra)}"
    rec = tmp / "game.txt"
    with subprocess.Popen([sys.executable, "-m", "sneferu_cli", "play", "random", hostile,
                           "random", "random", "--seed", SEED, "--movetime", "60000",
                           "--sandbox", f"{level} {LIMITS}", "--record", str(rec),
                           "--engine-stderr", str(tmp / "stderr.log")],
                          cwd=own, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as run:
        _, err = run.communicate(timeout=300)
    assert run.returncode == 0, err
    games = read_records(rec.read_text())
    (entry,) = games.games
    record = entry.record
    assert_nothing_left(marker, run.pid)
    return record, marker, (tmp / "stderr.log").read_text(errors="replace")


def marked(marker: str) -> list[str]:
    """The processes with ``marker`` on their command line (pid and command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                found.append(f"{entry.name}: {cmdline!r}")
    return found


def assert_nothing_left(marker: str, pid: int) -> None:
    """No process with the marker on its command line, no cgroup of the arbiter ``pid``
    (named ``sneferu-PID-...``: other tests may run arbiters meanwhile)."""
    assert not marked(marker), "processes left"
    try:
        _, roots = cgroup_root()
    except SandboxError:
        return
    for root in roots.values():
        left = [p.name for p in root.glob(f"sneferu-{pid}-*")]
        assert not left, f"cgroups left in {root}: {left}"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> GameRecord:
    """The game with the fixture playing cleanly, without a sandbox."""
    record, _, _ = play(tmp_path_factory.mktemp("clean"), "clean", "none")
    assert not record.header.faults
    return record


@pytest.fixture
def secret(tmp_path: Path) -> Iterator[Path]:
    """A file in another engine's folder."""
    other = tmp_path / "engine3"
    other.mkdir()
    path = other / "secret.txt"
    path.write_text("another engine's secret\n")
    yield path


@pytest.fixture
def listener() -> Iterator[int]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.listen(8)
        yield server.getsockname()[1]


def moves(record: GameRecord, upto: int | None = None) -> list[str]:
    """The first ``upto`` events (all by default) without the times: the moves and the
    chance draws."""
    return [str(msgspec.structs.replace(e, ms=None, info=None) if isinstance(e, Turn) else e)
            for e in record.events[:upto]]


@pytest.mark.parametrize(("mode", "level"), CASES, ids=[f"{m}-{lv}" for m, lv in CASES])
def test_a_hostile_engine_is_contained(mode: str, level: str, tmp_path: Path,
                                       clean: GameRecord, secret: Path, listener: int
                                       ) -> None:
    require_sandbox(level)
    outside = tmp_path / "outside"
    outside.mkdir()
    extra = {"network": [str(listener)], "read": [str(secret), os.path.expanduser(
        "~/.ssh/id_rsa")], "write": [str(outside / "pwned")]}.get(mode, [])
    if mode == "read" and not os.path.exists(extra[1]):
        extra = extra[:1]
    record, _, stderr = play(tmp_path, mode, level, *extra)
    expected = CONTAINED[mode][level]
    assert record.header.termination == "normal", record.header
    assert record.header.result  # the other seats played the game to its end
    if expected == "":
        assert not record.header.faults
        assert moves(record) == moves(clean)
        return
    (fault,) = record.header.faults
    assert fault.seat == 2
    if expected == "escaped":
        assert fault.kind == "crash" and fault.detail.startswith("exited with code 42;")
        assert "escaped:" in fault.detail
    else:
        assert fault.kind == expected, fault
        if expected == "illegal":
            assert fault.detail.startswith("9.9 BT@1.1"), fault
    # until the fault, every seat played as in the clean run (seat 2's third move is due)
    cut = next(i for i, e in enumerate(record.events) if isinstance(e, Retire))
    assert moves(record, cut) == moves(clean, cut)
    assert cut > 0
    if mode == "write" and expected == "illegal":
        assert not (outside / "pwned").exists()
        assert not (tmp_path / "engine2" / "written-by-engine").exists()
    if mode in ("read", "write", "network") and expected == "illegal":
        assert f"{mode} failed" in stderr


@pytest.mark.parametrize("level", ["bwrap", "cgroup"])
def test_an_arbiter_killed_by_sigkill_leaves_no_engine(level: str, tmp_path: Path) -> None:
    """``kill -9`` of ``sneferu play`` mid-game: bubblewrap's engines die with it
    (``--die-with-parent``, and the PID namespace goes with its first process), and the
    empty cgroups it left are removed by the next arbiter that makes cgroups."""
    require_sandbox(level)
    marker = f"sneferu-hostile-{uuid.uuid4().hex}"
    log = tmp_path / "stderr.log"
    play = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "play", "random",
                             f"{sys.executable} {BROKEN} hang-move 2 {marker}",
                             "--movetime", "60000", "--sandbox", level,
                             "--engine-stderr", str(log)], cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_for(log, "misbehaving: hang-move")
    finally:
        play.kill()
        play.wait()
    deadline = time.monotonic() + 30
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not marked(marker)
    if level == "cgroup":
        _, roots = cgroup_root()
        assert all(list(root.glob(f"sneferu-{play.pid}-*")) for root in roots.values())
        r = subprocess.run([sys.executable, "-m", "sneferu_cli", "engine", "check", "random",
                            "--sandbox", "cgroup"], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        for root in roots.values():
            assert not list(root.glob(f"sneferu-{play.pid}-*"))
