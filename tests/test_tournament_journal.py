"""Durable progress: state save/load, recovery, and runs killed with SIGKILL and resumed."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time

import msgspec
import pytest
from support import ROOT
from tournament_support import decode

from sneferu_cli.tournament import (
    Journal,
    Pending,
    Schedule,
    StateError,
    TournamentState,
    done_games,
    load_config,
)
from sneferu_cli.tournament import journal as journal_module

CHILD = ROOT / "tests" / "tournament_child.py"
TIMEOUT = 60


def write_config(tmp_path, deals: int = 3, **extra: object) -> str:
    lines = [f"deals = {deals}", "seed = 11", f"records = '{tmp_path / 't.records'}'"]
    lines += [f"{k} = {v!r}" for k, v in extra.items()]
    for name in "xyz":
        lines += ["[[engine]]", f"name = '{name}'", f"command = './{name}'"]
    path = tmp_path / "t.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def child(config: str, mode: str, *crash: object, wait: bool = True):
    args = [sys.executable, str(CHILD), config, mode, *map(str, crash)]
    if not wait:
        return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    return subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)


def finish(config: str) -> str:
    r = child(config, "resume")
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    """The record file of an uninterrupted run."""
    tmp = tmp_path_factory.mktemp("reference")
    r = child(write_config(tmp), "start")
    assert r.returncode == 0, r.stderr
    return (tmp / "t.records").read_bytes()


def check_complete(tmp_path, config: str, reference: bytes) -> None:
    cfg = load_config(config)
    data = (tmp_path / "t.records").read_bytes()
    schedule = Schedule.of(cfg)
    assert done_games(decode(data), schedule) == {g.number for g in schedule.games}
    # the same games, each exactly once, byte for byte (file order may differ)
    assert sorted(data.splitlines()) == sorted(reference.splitlines())
    state = TournamentState.load(cfg.state_path)
    assert (state.games, state.committed, state.pending) == (len(schedule.games), len(data),
                                                            None)
    assert not (tmp_path / "t.records.state.commits").exists()  # removed at the end


def test_reference_run(reference):
    records = decode(reference)
    # 3 engines at 2 seats: 3 tables x 2 seatings x 3 deals
    assert [r.header.round for r in records] == [str(n) for n in range(1, 19)]
    assert len(reference) > 18 * 40_000


POINTS = [(point, "second") for point in ("half", "append", "logged", "done")] + [
    (point, "game") for point in ("half", "append", "logged", "saved", "done")]


@pytest.mark.parametrize(("point", "fsync"), POINTS)
def test_sigkill_at_each_point_of_a_commit(tmp_path, reference, point, fsync):
    """fsync = "second": the games committed in a run this short are all in the commit
    log, none checkpointed; fsync = "game": every game but the last is checkpointed."""
    config = write_config(tmp_path, fsync=fsync)
    r = child(config, "start", point, 4)
    assert r.returncode == -signal.SIGKILL
    assert r.stdout.splitlines()[-1] == "committed 3"
    size = (tmp_path / "t.records").stat().st_size
    lengths = [len(line) + 1 for line in reference.splitlines()]
    three = sum(lengths[:3])
    state = TournamentState.load(tmp_path / "t.records.state")
    saved = 0 if fsync == "second" else 4 if point in ("saved", "done") else 3
    assert (state.games, state.committed) == (saved, sum(lengths[:saved]))
    out = finish(config)
    first = out.splitlines()[0]
    if point in ("half", "append"):  # game 4 is not committed: played again
        assert first == f"resumed 3 cut {size - three}"
        assert "committed 4" in out.splitlines()
        # half the record, or all of it, was cut off
        assert size - three == lengths[3] // (2 if point == "half" else 1)
    else:  # it was committed: it counts, and is not played again
        assert first == "resumed 4 cut 0" and "committed 4" not in out.splitlines()
    check_complete(tmp_path, config, reference)


@pytest.mark.parametrize("fsync", ["second", "game"])
def test_sigkill_from_outside_at_random_moments(tmp_path, reference, fsync):
    """Kill the running process with SIGKILL at random times (writing slowly, so most
    kills land in the middle of a record), resume, repeat: the end is the uninterrupted
    run's games, none lost, none doubled."""
    config = write_config(tmp_path, fsync=fsync)
    rng = random.Random(2024)
    mode, resumed = "start", []
    while True:
        proc = child(config, mode, "slow", wait=False)
        assert proc.stdout is not None
        resumed.append(proc.stdout.readline().split())  # started (or resumed) and recovered
        time.sleep(rng.uniform(0, 0.15))
        proc.send_signal(signal.SIGKILL)
        proc.stdout.close()
        code = proc.wait(TIMEOUT)
        mode = "resume"
        if code == 0:
            break
        assert code == -signal.SIGKILL and resumed[-1][0] == "resumed", resumed[-1]
        assert len(resumed) < 300
    assert len(resumed) >= 4
    assert any(int(cut) for *_, cut in resumed), "some kill landed in the middle of a record"
    check_complete(tmp_path, config, reference)


# ------------------------------------------------------------ in-process


def started(tmp_path, **extra: object) -> Journal:
    return Journal.start(load_config(write_config(tmp_path, **extra)))


def logged(j: Journal) -> list[Pending]:
    return [msgspec.json.decode(line, type=Pending)
            for line in j.log_path.read_bytes().splitlines()]


def entry(game: int, offset: int, record: bytes) -> Pending:
    return Pending(game, offset, len(record), hashlib.sha256(record).hexdigest())


def test_state_round_trips_and_is_replaced_atomically(tmp_path):
    with started(tmp_path) as j:
        j.commit(1, b"one\n")
        j.commit(2, b"two\n")
        assert (j.state.games, j.state.committed, j.state.pending) == (2, 8, None)
        # no checkpoint yet: the games are in the record file and the commit log
        st = TournamentState.load(j.state_path)
        assert (st.games, st.committed, st.pending) == (0, 0, None)
        assert j.records_path.read_bytes() == b"one\ntwo\n"
        assert logged(j) == [entry(1, 0, b"one\n"), entry(2, 4, b"two\n")]
    st = TournamentState.load(j.state_path)  # checkpointed on close
    assert (st.games, st.committed, st.pending) == (2, 8, None)
    assert not j.log_path.exists()
    with Journal.resume(j.state_path) as j:
        assert st.config == j.config and st.fingerprint == j.config.fingerprint()
        assert j.records_path.read_bytes() == b"one\ntwo\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "t.records", "t.records.state", "t.records.state.commits", "t.toml"]
        raw = json.loads(j.state_path.read_text())
        assert raw["format"] == "sneferu-tournament-state 1"
        assert raw["config"]["seed"] == 11 and raw["config"]["engine"][0]["name"] == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "t.records", "t.records.state", "t.toml"]  # no temporary file left


class Clock:
    """time.monotonic of the journal, moved by hand."""

    def __init__(self, monkeypatch) -> None:
        self.now = 1000.0
        monkeypatch.setattr(journal_module.time, "monotonic", lambda: self.now)


@pytest.fixture
def fsyncs(monkeypatch) -> list[int]:
    """The descriptors fsync-ed, in order."""
    calls: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real(fd)
    monkeypatch.setattr(journal_module.os, "fsync", fsync)
    return calls


def test_fsync_second_checkpoints_at_most_once_a_second(tmp_path, monkeypatch, fsyncs):
    clock = Clock(monkeypatch)
    with started(tmp_path) as j:
        assert j.fsync == "second"
        fsyncs.clear()
        for game in range(1, 51):  # fifty games within a second: no fsync
            j.commit(game, b"g\n")
            clock.now += 0.019
            j.sync_due()
        assert fsyncs == [] and len(logged(j)) == 50
        assert TournamentState.load(j.state_path).games == 0
        clock.now += 0.05  # a second since the start: the next commit checkpoints
        j.commit(51, b"g\n")
        # the record file, the state's temporary file, the state's directory
        assert len(fsyncs) == 3 and fsyncs[0] == j.files()[0]
        assert (TournamentState.load(j.state_path).games, logged(j)) == (51, [])
        j.commit(52, b"g\n")
        clock.now += 0.999
        j.sync_due()
        assert len(fsyncs) == 3 and len(logged(j)) == 1
        clock.now += 0.001  # game 52 has waited a second: sync_due checkpoints
        j.sync_due()
        assert len(fsyncs) == 6 and TournamentState.load(j.state_path).games == 52
        clock.now += 5
        j.sync_due()  # nothing committed since
        assert len(fsyncs) == 6
        j.commit(53, b"g\n")
    assert len(fsyncs) == 9 and TournamentState.load(j.state_path).games == 53  # on close


def test_fsync_game_checkpoints_after_every_game(tmp_path, monkeypatch, fsyncs):
    Clock(monkeypatch)  # the clock stands still
    with started(tmp_path, fsync="game") as j:
        fsyncs.clear()
        for game in range(1, 4):
            j.commit(game, b"g\n")
            assert len(fsyncs) == 3 * game and fsyncs[-3] == j.files()[0]
            st = TournamentState.load(j.state_path)
            assert (st.games, st.committed, logged(j)) == (game, 2 * game, [])
    assert len(fsyncs) == 9  # nothing left for the close


def test_fsync_is_a_run_setting(tmp_path):
    with started(tmp_path) as j:
        j.commit(1, b"one\n")
    game = load_config(write_config(tmp_path, fsync="game"))
    assert game.fingerprint() == j.config.fingerprint()
    with Journal.resume(game.state_path, game) as j:
        assert j.fsync == "game"
    with Journal.resume(game.state_path) as j:  # the stored configuration's
        assert j.fsync == "game"


def power_loss(tmp_path, records: bytes, log: bytes) -> Journal:
    """A journal whose last checkpoint holds game 1, and what a power loss may have left
    of what followed: ``records`` after game 1, ``log`` as the commit log."""
    with started(tmp_path) as j:
        j.commit(1, b"first\n")  # checkpointed on close
    with open(j.records_path, "ab") as f:
        f.write(records)
    j.log_path.write_bytes(log)
    return Journal.resume(j.state_path)


def line(p: Pending) -> bytes:
    return msgspec.json.encode(p) + b"\n"


SECOND, THIRD = entry(2, 6, b"second\n"), entry(3, 13, b"third\n")


@pytest.mark.parametrize(("records", "log", "games", "cut"), [
    (b"second\nthird\n", line(SECOND) + line(THIRD), 3, 0),
    (b"", line(SECOND) + line(THIRD), 1, 0),  # the records were lost: played again
    (b"second\nthi", line(SECOND) + line(THIRD), 2, 3),
    (b"second\nthird\n", line(SECOND), 2, 6),  # the third's line lost: played again
    (b"second\nthird\n", line(SECOND) + line(THIRD)[:-1], 2, 6),  # its line cut short
    (b"second\nthird\n", b"\0" * 40 + b"\n" + line(SECOND) + line(THIRD), 1, 13),
    (b"second\nthird\n", line(SECOND) + b"\0" * 30 + b"\n" + line(THIRD), 2, 6),
    (b"secxnd\nthird\n", line(SECOND) + line(THIRD), 1, 13),  # not the bytes logged
    (b"second\nthird\n", line(THIRD) + line(SECOND), 1, 13),  # not in the file's order
    # a checkpoint's log not emptied before the stop: its lines were counted already
    (b"second\n", line(entry(1, 0, b"first\n")) + line(SECOND), 2, 0),
    (b"second\ntrailing", line(SECOND), 2, 8),
])
def test_recovery_from_the_commit_log(tmp_path, records, log, games, cut):
    with power_loss(tmp_path, records, log) as j:
        content = (b"first\n" + records)[:j.state.committed]
        assert (j.state.games, j.recovered, j.state.pending) == (games, cut, None)
        assert j.records_path.read_bytes() == content
        assert len(content) + cut == 6 + len(records)
        st = TournamentState.load(j.state_path)
        assert (st.games, st.committed) == (games, len(content))
        assert j.log_path.read_bytes() == b""  # emptied once counted
        j.commit(4, b"fourth\n")
        assert j.records_path.read_bytes() == content + b"fourth\n"
        assert logged(j) == [entry(4, len(content), b"fourth\n")]


def test_start_resolves_a_seed_and_resume_keeps_it(tmp_path):
    config = write_config(tmp_path)
    (tmp_path / "t.toml").write_text((tmp_path / "t.toml").read_text().replace("seed = 11\n", ""))
    cfg = load_config(config)
    assert cfg.seed is None
    with Journal.start(cfg) as j:
        seed = j.config.seed
    assert seed is not None
    with Journal.resume(cfg.state_path, cfg) as j:  # no seed given: the stored one
        assert j.config.seed == seed


def test_start_refuses_to_overwrite(tmp_path):
    started(tmp_path).close()
    with pytest.raises(StateError, match="a tournament state exists already"):
        started(tmp_path)
    os.remove(tmp_path / "t.records.state")
    (tmp_path / "t.records").write_bytes(b"a game\n")
    with pytest.raises(StateError, match="the record file is not empty"):
        started(tmp_path)


def test_one_run_at_a_time(tmp_path):
    with started(tmp_path) as j, pytest.raises(StateError, match="another process is running"):
        Journal.resume(j.state_path)


def test_resume_checks_the_configuration(tmp_path):
    started(tmp_path).close()
    changed = load_config(write_config(tmp_path, deals=4, concurrency=2))
    with pytest.raises(StateError, match="not the one the tournament was started with "
                                         r"\(differs in: deals\)"):
        Journal.resume(changed.state_path, changed)
    run_only = load_config(write_config(tmp_path, concurrency=2))
    with Journal.resume(run_only.state_path, run_only) as j:
        assert j.config.concurrency == 2  # run settings may change


@pytest.mark.parametrize(("content", "message"), [
    (b"{", "not a usable tournament state"),
    (b'{"format": "other 9", "fingerprint": "", "config": {}}', "not a sneferu tournament"),
    (b"[]", "not a usable tournament state"),
])
def test_damaged_state(tmp_path, content, message):
    started(tmp_path).close()
    (tmp_path / "t.records.state").write_bytes(content)
    with pytest.raises(StateError, match=message):
        Journal.resume(tmp_path / "t.records.state")


def test_a_state_whose_config_was_edited(tmp_path):
    started(tmp_path).close()
    path = tmp_path / "t.records.state"
    path.write_text(path.read_text().replace('"deals": 3', '"deals": 5'))
    with pytest.raises(StateError, match="the fingerprint does not match"):
        Journal.resume(path)


def test_missing_state_or_records(tmp_path):
    with pytest.raises(StateError, match="cannot read the tournament state: No such file"):
        Journal.resume(tmp_path / "none.state")
    with started(tmp_path) as j:
        j.commit(1, b"x\n")
    os.remove(tmp_path / "t.records")
    with pytest.raises(StateError, match="the record file of this tournament is missing"):
        Journal.resume(tmp_path / "t.records.state")


def test_a_state_that_cannot_be_written(tmp_path):
    with pytest.raises(StateError, match=r"cannot write the tournament state: No such file"):
        started(tmp_path, state=str(tmp_path / "no" / "such.state"))


def test_a_record_file_shortened_behind_our_back(tmp_path):
    with started(tmp_path) as j:
        j.commit(1, b"first\n")
    (tmp_path / "t.records").write_bytes(b"fir")
    with pytest.raises(StateError, match=r"shorter than its tournament state says \(3 < 6"):
        Journal.resume(tmp_path / "t.records.state")


def pending_state(tmp_path, written: bytes, record: bytes) -> Journal:
    """A journal killed between saving game 2 as pending and finishing its record."""
    j = started(tmp_path)
    j.commit(1, b"first\n")
    st = j.state
    st.pending = Pending(2, st.committed, len(record), hashlib.sha256(record).hexdigest())
    st.save(j.state_path)
    with open(j.records_path, "ab") as f:
        f.write(written)
    j.close()
    return Journal.resume(j.state_path)


@pytest.mark.parametrize(("written", "games", "content", "cut"), [
    (b"", 1, b"first\n", 0),
    (b"sec", 1, b"first\n", 3),
    (b"second\n", 2, b"first\nsecond\n", 0),
    (b"secxnd\n", 1, b"first\n", 7),  # the right length but not the bytes saved
    (b"second\ntrailing", 2, b"first\nsecond\n", 8),
])
def test_recovery_of_a_pending_game(tmp_path, written, games, content, cut):
    with pending_state(tmp_path, written, b"second\n") as j:
        assert (j.state.games, j.recovered, j.state.pending) == (games, cut, None)
        assert j.records_path.read_bytes() == content
        assert TournamentState.load(j.state_path).committed == len(content)
        j.commit(3, b"third\n")
        assert j.records_path.read_bytes() == content + b"third\n"
