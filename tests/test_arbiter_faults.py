"""Broken engines (tests/engines/broken.py) get exactly the documented outcome (SPEC.md 7.2):
the seat is retired with the right fault kind at the right ply, its process group is
killed, and the other seats finish the game."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import BROKEN, children, group_gone, run_cli, solo_of, start_cli, wait_for

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, describe_result, play_game
from sneferu_cli.arbiter.process import StderrSink, TrafficLog
from sneferu_cli.record.model import GameRecord, Retire, Turn
from sneferu_cli.record.text import read_records

FAST = TimeControl(movetime=300, margin=200)  # the hang waits 0.5 s; healthy seats are safe


def broken(mode: str, at: int = 1, **kw: object) -> Engine:
    return Engine([sys.executable, str(BROKEN), mode, str(at)], label="2", **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def healthy():
    engines = Engine.start_all([Engine(engine_command("random"), name="random")
                                for _ in range(3)])
    yield engines
    Engine.quit_all(engines)


def play_with(healthy: list[Engine], bad: Engine, seed: int = 1) -> GameRecord:
    """Seat 2 is the broken engine, seats 1, 3 and 4 random engines."""
    for e in healthy:
        if e.fault is not None:
            e.restart()
    if bad.fault is None and bad._process is None:
        Engine.start_all([bad])
    return play_game([healthy[0], bad, healthy[1], healthy[2]], seed=seed, time_control=FAST)


def turns_of(record: GameRecord, seat: int) -> int:
    return sum(1 for e in record.events if isinstance(e, Turn) and e.seat == seat)


CASES = [
    # mode, misbehaves at its N-th request, turns it plays, fault kind, detail (a regex)
    ("crash", 3, 2, "crash", r"exited with code 3; stderr: broken: crashing on purpose"),
    ("hang-move", 2, 1, "timeout", r"no move within 300 ms \(\+200 ms margin\)"),
    ("chatter", 2, 1, "timeout", r"no move within 300 ms \(\+200 ms margin\)"),
    ("garbage", 2, 1, "malformed", r"engine line: unexpected 'bestmove'"),
    ("illegal", 4, 3, "illegal", r"9\.9 BT@1\.1: step 1 \(9\.9\): buy 9\.9: there is no stone"),
    ("flood", 2, 1, "flood", r"a line longer than 65536 bytes"),
    ("eof", 2, 1, "eof", r"closed its output but is still running"),
    # The second answer is found at the next request, after the first was played.
    ("double-move", 2, 2, "malformed", r"'move' sent when nothing was asked"),
    # It exits, but a child holds its output open: its exit is seen (not a timeout).
    ("orphan", 2, 1, "crash", r"exited with code 5; stderr: broken: leaving a child behind"),
    ("slow", 2, 1, "timeout", r"no move within 300 ms \(\+200 ms margin\)"),
    ("deaf", 2, 1, "timeout", r"no move within 300 ms \(\+200 ms margin\)"),
    ("unsolicited", 1, 0, "malformed", r"'move' while waiting for readyok"),
]


@pytest.mark.parametrize(("mode", "at", "turns", "kind", "detail"), CASES,
                         ids=[c[0] for c in CASES])
def test_fault_during_the_game(healthy, mode, at, turns, kind, detail):
    bad = broken(mode, at)
    Engine.start_all([bad])
    assert bad.fault is None
    pid = bad._process.proc.pid  # type: ignore[union-attr]
    record = play_with(healthy, bad)
    h = record.header
    assert len(h.faults) == 1
    fault = h.faults[0]
    assert (fault.seat, fault.kind) == (2, kind)
    assert re.search(detail, fault.detail), fault.detail
    # The fault's ply is the number of turns played before the retirement.
    assert turns_of(record, 2) == turns
    retire = next(i for i, e in enumerate(record.events) if isinstance(e, Retire))
    assert record.events[retire] == Retire(2, kind)
    assert fault.ply == sum(1 for e in record.events[:retire] if isinstance(e, Turn))
    assert not any(isinstance(e, Turn) and e.seat == 2 for e in record.events[retire:])
    # The others finished the game; the retired seat ranks below all of them.
    assert h.termination == "normal"
    ranks = {r.seat: r for r in h.result}
    assert ranks[2].retired and ranks[2].rank == 4
    assert all(not ranks[s].retired and ranks[s].rank < 4 for s in (1, 3, 4))
    end = time.monotonic() + 5  # an orphan left in the group is reaped by init, not at once
    while not group_gone(pid) and time.monotonic() < end:
        time.sleep(0.05)
    assert group_gone(pid)
    assert f"retired at ply {fault.ply}: {kind}" in describe_result(record)


@pytest.mark.parametrize(("mode", "timeout", "detail"), [
    ("hang-handshake", 0.5, "timeout: no sneferuok within 0.5 s"),
    # Time to start Python on a loaded machine: the exit is seen, not the timeout.
    ("exit0", 10, "crash: exited with code 0"),
])
def test_fault_in_the_handshake(healthy, mode, timeout, detail):
    bad = broken(mode, handshake_timeout=timeout)
    Engine.start_all([bad])
    assert bad.fault is not None and bad.fault.kind == "handshake"
    record = play_with(healthy, bad)
    (fault,) = record.header.faults
    assert (fault.seat, fault.kind, fault.ply) == (2, "handshake", 0)
    assert fault.detail.startswith(detail), fault.detail
    assert record.events[0] == Retire(2, "handshake")
    assert turns_of(record, 2) == 0
    assert record.header.termination == "normal"


def test_stderr_flood_does_not_block(healthy, tmp_path):
    bad = broken("stderr-flood", stderr=StderrSink(tmp_path))
    Engine.start_all([bad])
    record = play_with(healthy, bad)
    assert record.header.faults == []
    assert turns_of(record, 2) > 0
    (log,) = tmp_path.iterdir()
    assert log.name == "2-broken.py.log"
    assert log.stat().st_size > 2_000_000
    bad.quit()


def test_an_engine_flooding_while_not_reading_is_a_flood_at_once(healthy):
    """SPEC 7.2: an engine that stops reading its input and floods its output, while the
    arbiter's request does not fit in the pipe (tests/engines/deaf_flooder.py), is retired
    with a ``flood`` when the request is sent, not after its whole clock (both sides' writes
    used to wait on each other until the clock ran out, a ``timeout``). The time it used,
    from the request to the retirement in the arbiter's traffic log, is far below its clock
    of 600 s; the other seat finishes the game."""
    out = io.StringIO()
    traffic = TrafficLog(out)
    bad = Engine([sys.executable, str(BROKEN.parent / "deaf_flooder.py")], label="2",
                 traffic=traffic)
    Engine.start_all([bad])
    clock = TimeControl(base=600_000, margin=200)
    try:
        record = play_game([healthy[0], bad], seed=1, time_control=clock)
    finally:
        bad.kill()
    (fault,) = record.header.faults
    assert (fault.seat, fault.kind, fault.ply) == (2, "flood", 0)
    assert fault.detail == "wrote over 65536 bytes while not reading its input"
    assert record.header.termination == "normal" and turns_of(record, 1) > 0
    log = out.getvalue().splitlines()
    sent = next(float(line.split()[0]) for line in log if line.split()[1] == "2>"
                and line.split()[2] == "go")
    retired = next(float(line.split()[0]) for line in log
                   if line.split()[1] == "2!" and "flood" in line)
    assert 0 <= retired - sent < clock.base / 1000 / 10


def test_restart_after_a_crash(healthy):
    bad = broken("crash", 1)
    Engine.start_all([bad])
    bad.set_option("Seed", "5")
    play_with(healthy, bad)
    assert bad.fault is not None and bad.fault.kind == "crash"
    bad.restart()
    assert bad.fault is None and bad.values == {"Seed": "5"}
    bad.ping()
    bad.quit()


def test_the_command_line_reports_the_fault():
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "play", "random",
                        f"{sys.executable} {BROKEN} illegal 2", "--seed", "3",
                        "--movetime", "1000"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    last = r.stdout.splitlines()[-1]
    assert re.match(r"  2\. seat 2  broken-illegal .* retired at ply \d+: illegal \(9\.9 BT@1\.1: ",
                    last), r.stdout


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_signal_stops_the_game_records_it_as_aborted_and_kills_the_engines(tmp_path: Path,
                                                                             sig):
    """SPEC.md 7.1: the game so far goes to the record, [Termination aborted], exit 130."""
    stderr, path = tmp_path / "stderr.log", tmp_path / "games.txt"
    arbiter = start_cli("play", "random", f"{sys.executable} {BROKEN} hang-move 3",
                        "--tc", "60", "--seed", "4", "--engine-stderr", str(stderr),
                        "--record", str(path))
    try:
        pid = int(wait_for(stderr, r"^\[2\] pid (\d+)$").group(1))
        wait_for(stderr, r"^\[2\] misbehaving: hang-move$")  # seat 2's third move request
        engines = children(arbiter.pid)
        assert pid in engines and len(engines) == 2
        arbiter.send_signal(sig)
        out, err = arbiter.communicate(timeout=20)
    finally:
        arbiter.kill()
    assert arbiter.returncode == 130
    assert err.strip() == "sneferu: interrupted"  # click starts a new line after ^C
    found = re.search(r"^Game aborted after (\d+) turns\. The game so far is in (.+)\.$", out,
                      re.M)
    assert found and found.group(2) == str(path), out
    turns = int(found.group(1))
    assert all(group_gone(p) for p in engines)
    # The aborted game replays up to where it stopped: seat 2 was to move.
    (entry,) = read_records(path.read_text()).games
    h = entry.record.header
    assert (h.termination, h.result, solo_of(h), h.faults) == ("aborted", [], None, [])
    assert turns_of(entry.record, 2) == 2 and turns_of(entry.record, 1) == turns - 2
    r = run_cli("replay", str(path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"game 1 (random, broken-hang-move): aborted after {turns} "
                               "turns, its moves verified. Seat 2 to move")
    last = run_cli("replay", str(path), "--ply", "-1")
    assert last.stdout.split()[-1].startswith("start:2:")


def gone(pid: int) -> bool:
    """True when process ``pid`` has exited (a zombie no one reaped yet counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_gone(pid: int, timeout: float = 5) -> bool:
    end = time.monotonic() + timeout
    while not gone(pid):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_an_engine_that_exits_is_a_crash_at_once_though_a_child_holds_its_output(healthy):
    """Its exit is watched, not only the end of its output: no wait for the time limit."""
    slow = TimeControl(movetime=20_000, margin=200)
    bad = broken("orphan", 1)
    Engine.start_all([bad])
    started = time.monotonic()
    record = play_game([healthy[0], bad], seed=2, time_control=slow)
    (fault,) = record.header.faults
    assert (fault.seat, fault.kind) == (2, "crash") and "exited with code 5" in fault.detail
    assert time.monotonic() - started < 10  # not the 20 s of the time limit


def test_a_child_that_left_the_process_group_is_killed_with_the_engine(healthy, tmp_path):
    """SPEC 7.2: the engine's descendants are found and killed with its process group,
    also one that called setsid()."""
    bad = broken("setsid-child", 999, stderr=StderrSink(tmp_path))
    Engine.start_all([bad])
    child = int(wait_for(tmp_path / "2-broken.py.log", r"^child (\d+)$").group(1))
    record = play_with(healthy, bad)
    assert record.header.faults == []
    assert not gone(child)
    bad.quit()
    assert wait_gone(child)


def test_an_engine_that_ignores_quit_is_killed_after_the_grace(healthy):
    bad = broken("ignore-quit")
    Engine.start_all([bad])
    pid = bad._process.proc.pid  # type: ignore[union-attr]
    play_with(healthy, bad)
    started = time.monotonic()
    Engine.quit_all([bad], grace=0.5)
    assert 0.4 < time.monotonic() - started < 5
    assert group_gone(pid)


def test_engines_die_with_a_killed_arbiter(tmp_path: Path):
    """SIGKILL cannot be handled: the engines get SIGKILL from the kernel when the
    arbiter dies (PR_SET_PDEATHSIG), even one that never reads its input again."""
    stderr = tmp_path / "stderr.log"
    arbiter = start_cli("play", "random", f"{sys.executable} {BROKEN} hang-move 2",
                        "--tc", "60", "--seed", "4", "--engine-stderr", str(stderr))
    try:
        pid = int(wait_for(stderr, r"^\[2\] pid (\d+)$").group(1))
        wait_for(stderr, r"^\[2\] misbehaving: hang-move$")
        engines = children(arbiter.pid)
        assert pid in engines and len(engines) == 2
        arbiter.kill()
        arbiter.wait(timeout=20)
    finally:
        arbiter.kill()
    assert all(wait_gone(p) for p in engines)


def test_what_an_engine_leaves_behind_when_it_exits_dies_with_the_game(tmp_path: Path):
    """sneferu play is a child subreaper: an engine's child that left its process group
    (setsid) is adopted when the engine crashes, and killed with the engines."""
    stderr = tmp_path / "stderr.log"
    r = run_cli("play", "random", f"{sys.executable} {BROKEN} setsid-child 2", "--movetime",
                "5000", "--seed", "4", "--engine-stderr", str(stderr))
    assert r.returncode == 0, r.stderr
    assert re.search(r"retired at ply \d+: crash \(exited with code 3", r.stdout), r.stdout
    child = int(wait_for(stderr, r"^\[2\] child (\d+)$").group(1))
    assert wait_gone(child, 2)
