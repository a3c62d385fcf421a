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


def test_reference_run(reference):
    records = decode(reference)
    # 3 engines at 2 seats: 3 tables x 2 seatings x 3 deals
    assert [r.header.round for r in records] == [str(n) for n in range(1, 19)]
    assert len(reference) > 18 * 40_000


@pytest.mark.parametrize("point", ["intent", "half", "append", "done"])
def test_sigkill_at_each_point_of_a_commit(tmp_path, reference, point):
    config = write_config(tmp_path)
    r = child(config, "start", point, 4)
    assert r.returncode == -signal.SIGKILL
    assert r.stdout.splitlines()[-1] == "committed 3"
    size = (tmp_path / "t.records").stat().st_size
    out = finish(config)
    first = out.splitlines()[0]
    if point in ("intent", "half"):  # game 4 is not done: played again
        three = sum(len(line) + 1 for line in reference.splitlines()[:3])
        assert first == f"resumed 3 cut {size - three}"
        assert "committed 4" in out.splitlines()
    else:  # its record was whole: it counts, and is not played again
        assert first == "resumed 4 cut 0" and "committed 4" not in out.splitlines()
    if point == "half":
        assert first != "resumed 3 cut 0"  # a half record was really cut off
    check_complete(tmp_path, config, reference)


def test_sigkill_from_outside_at_random_moments(tmp_path, reference):
    """Kill the running process with SIGKILL at random times (writing slowly, so most
    kills land in the middle of a record), resume, repeat: the end is the uninterrupted
    run's games, none lost, none doubled."""
    config = write_config(tmp_path)
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


def test_state_round_trips_and_is_replaced_atomically(tmp_path):
    with started(tmp_path) as j:
        j.commit(1, b"one\n")
        j.commit(2, b"two\n")
        assert (j.state.games, j.state.committed, j.state.pending) == (2, 8, None)
        # one save a game: the file names the last game pending, which resume counts
        st = TournamentState.load(j.state_path)
        assert (st.games, st.committed, st.pending) == (1, 4, Pending(2, 4, 4, hashlib.sha256(
            b"two\n").hexdigest()))
    st = TournamentState.load(j.state_path)  # saved with no game pending on close
    assert (st.games, st.committed, st.pending) == (2, 8, None)
    with Journal.resume(j.state_path) as j:
        assert st.config == j.config and st.fingerprint == j.config.fingerprint()
        assert j.records_path.read_bytes() == b"one\ntwo\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "t.records", "t.records.state", "t.toml"]  # no temporary file left
        raw = json.loads(j.state_path.read_text())
        assert raw["format"] == "sneferu-tournament-state 1"
        assert raw["config"]["seed"] == 11 and raw["config"]["engine"][0]["name"] == "x"


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
