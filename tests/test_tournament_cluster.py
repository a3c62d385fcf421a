"""Tournaments on a Dask cluster (`--cluster`), with real processes: a `dask scheduler` and
two `dask worker` processes on 127.0.0.1 (a free port, no dashboard, one thread each),
real engines, no mocks. The games must be those of a local run; a worker killed mid-run,
a stop (SIGINT) and a SIGKILL of the coordinator lose or double no game."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client
from support import ROOT, children, run_cli
from test_tournament_run import (
    LIMIT,
    essence,
    games_of,
    run,
    sneferu,
    standings_text,
    wait_for_games,
    write_config,
)

from sneferu_cli.record import decode_records, read_records
from sneferu_cli.tournament.cluster import Cluster as DaskCluster
from sneferu_cli.tournament.config import load_config
from sneferu_cli.tournament.journal import Journal
from sneferu_cli.tournament.runner import TournamentRun

INSTANT = [sys.executable, str(ROOT / "tests" / "engines" / "instant.py")]
ENGINES = {"a": INSTANT, "b": INSTANT, "c": INSTANT}
# The same games, each move after 5 ms: a run lasts seconds, long enough to be caught
# running after a stop and a resume however fast the machine.
PACED = {name: [*command, "5"] for name, command in ENGINES.items()}
KEYS = {"seats": 2, "deals": 4, "seed": 8, "movetime": 1000, "records": "t.rec"}
GAMES = 24  # 3 tables x 2 seatings x 4 deals


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dask(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    """A ``dask`` command in its own process group (killed whole at the end)."""
    return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def start_worker(address: str, cwd: Path) -> subprocess.Popen[bytes]:
    return dask("worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                "--host", "127.0.0.1", "--death-timeout", "20", cwd=cwd)


def workers_of(address: str, n: int) -> list[str]:
    """Wait (bounded) until the scheduler has ``n`` workers; their addresses."""
    with Client(address, timeout=30) as client:
        client.wait_for_workers(n, timeout=60)
        return sorted(client.nthreads())


def stop(p: subprocess.Popen[bytes]) -> None:
    with_group = p.poll() is None
    if with_group:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait(10)


class Cluster:
    """A scheduler and its workers (in ``folder``, their working directory)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.processes = [dask("scheduler", "--host", "127.0.0.1", "--port",
                               self.address.rsplit(":", 1)[1], "--no-dashboard",
                               cwd=folder)]
        self.processes += [start_worker(self.address, folder) for _ in range(2)]
        self.workers = workers_of(self.address, 2)

    def add_worker(self) -> tuple[subprocess.Popen[bytes], str]:
        """Start one more worker: its process and address."""
        p = start_worker(self.address, self.folder)
        self.processes.append(p)
        (address,) = set(workers_of(self.address, len(self.processes) - 1)) - set(
            self.workers)
        return p, address


def wait_busy(scheduler: str, worker: str) -> None:
    """Wait (bounded) until ``worker`` is playing a deal."""
    with Client(scheduler, timeout=30) as client:
        end = time.monotonic() + LIMIT
        while not client.processing([worker]).get(worker) and time.monotonic() < end:
            time.sleep(0.05)
        assert client.processing([worker]).get(worker), "the worker got no deal"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("cluster")
    c = None
    try:
        c = Cluster(folder)
        yield c
    finally:
        for p in c.processes if c else []:
            stop(p)


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], str]:
    """The tournament played here (-j 2): each game's essence by number, and the report."""
    folder = tmp_path_factory.mktemp("local")
    write_config(folder / "t.toml", ENGINES, **KEYS)
    r = run("t.toml", "-j", "2", cwd=folder)
    assert r.returncode == 0, r.stderr
    return ({g.header.round: essence(g) for g in games_of(folder / "t.rec")},
            report(folder / "t.rec"))


def report(path: Path) -> str:
    r = run_cli("tournament", "report", str(path))
    assert r.returncode == 0, r.stderr
    return r.stdout


def whole_games(path: Path) -> int:
    return len(read_records(decode_records(path.read_bytes())).games)


def test_the_cluster_plays_the_games_of_a_local_run(tmp_path, cluster, local):
    write_config(tmp_path / "t.toml", ENGINES, **KEYS)
    r = run("t.toml", "--cluster", cluster.address, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"2 at once on 2 workers of {cluster.address}." in r.stdout
    assert "2 workers," in r.stdout  # the progress lines
    games, table = local
    assert {g.header.round: essence(g) for g in games_of(tmp_path / "t.rec")} == games
    assert report(tmp_path / "t.rec") == table == standings_text(r.stdout)


def test_a_worker_killed_mid_run_loses_and_doubles_no_game(tmp_path, cluster, local):
    extra, address = cluster.add_worker()
    write_config(tmp_path / "t.toml", PACED, **KEYS)
    p = sneferu("t.toml", "--cluster", cluster.address, cwd=tmp_path)
    wait_for_games(p, tmp_path / "t.rec", 3)
    wait_busy(cluster.address, address)
    assert p.poll() is None, "the run ended before a worker could be killed"
    os.kill(extra.pid, signal.SIGKILL)
    out, err = p.communicate(timeout=LIMIT)
    assert p.returncode == 0, err
    assert "3 at once on 3 workers" in out
    assert err == "", err
    assert {g.header.round: essence(g) for g in games_of(tmp_path / "t.rec")} == local[0]


def test_stop_then_sigkill_then_resume(tmp_path, cluster, local):
    """SIGTERM stops at once and cleanly (exit 130, the state whole); a resumed run killed
    with SIGKILL; a last resume: every game once, the games of the local run. (The first
    Ctrl-C lets the deals being played finish, which may be all of them: see
    test_the_first_ctrl_c_finishes_the_games_being_played_on_the_workers.)"""
    write_config(tmp_path / "t.toml", PACED, **KEYS)
    records = tmp_path / "t.rec"
    p = sneferu("t.toml", "--cluster", cluster.address, cwd=tmp_path)
    wait_for_games(p, records, 2)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=LIMIT)
    assert p.returncode == 130, err
    assert "sneferu tournament --resume --state t.rec.state" in err
    stopped = whole_games(records)
    assert 2 <= stopped < GAMES

    p = sneferu("--resume", "--state", "t.rec.state", "--cluster", cluster.address,
                cwd=tmp_path)
    wait_for_games(p, records, stopped + 2)
    assert p.poll() is None, "the run ended before it could be killed"
    p.kill()
    p.communicate(timeout=LIMIT)

    again = run("--resume", "--state", "t.rec.state", "--cluster", cluster.address,
                cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert {g.header.round: essence(g) for g in games_of(records)} == local[0]
    assert report(records) == local[1]


def test_an_engine_missing_on_a_worker_stops_the_run_before_it_starts(tmp_path, cluster):
    """The engine is here (the coordinator's folder), not in the workers' folder."""
    bot = tmp_path / "bot"
    bot.write_text(f"#!/bin/sh\nexec {' '.join(INSTANT)}\n")
    bot.chmod(0o755)
    write_config(tmp_path / "t.toml", {"a": INSTANT, "here": "./bot"}, deals=1,
                 movetime=1000)
    r = run("t.toml", "--cluster", cluster.address, cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("sneferu: worker tcp://127.0.0.1:")
    assert "engine 'here': no program './bot'" in r.stderr
    assert not (tmp_path / "tournament.records.state").exists()


def test_a_local_cluster(tmp_path, local):
    """Also when Dask's dashboard port 8787 is busy: nothing is said about it."""
    write_config(tmp_path / "t.toml", ENGINES, **KEYS)
    with socket.socket() as busy:
        with contextlib.suppress(OSError):  # (busy already)
            busy.bind(("127.0.0.1", 8787))
            busy.listen()
        r = run("t.toml", "--cluster", "local:2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    # at most a game a worker is played at once; the rest of the deals handed out wait
    running = re.findall(r"\] (\d+) running,", r.stdout)
    assert running and all(int(n) <= 2 for n in running), r.stdout
    assert "2 at once on 2 workers of local:2." in r.stdout
    assert {g.header.round: essence(g) for g in games_of(tmp_path / "t.rec")} == local[0]


def test_cluster_errors_are_one_line(tmp_path):
    write_config(tmp_path / "t.toml", ENGINES, deals=1, cluster="nowhere")
    r = run("t.toml", cwd=tmp_path)
    assert r.returncode == 2 and "t.toml: cluster: 'nowhere' (local:N" in r.stderr
    r = run("t.toml", "--cluster", f"tcp://127.0.0.1:{free_port()}", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:" in r.stderr
    # without distributed installed: how to install it
    fake = tmp_path / "fake"
    (fake / "distributed").mkdir(parents=True)
    (fake / "distributed" / "__init__.py").write_text("raise ImportError('not here')\n")
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "t.toml",
                        "--cluster", "local:1"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=LIMIT,
                       env={**os.environ, "PYTHONPATH": str(fake)})
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert 'pip install "sneferu[dask]"' in r.stderr
    assert not (tmp_path / "tournament.records.state").exists()


def test_a_decided_sprt_cancels_the_deals_not_played(tmp_path, cluster):
    write_config(tmp_path / "t.toml", {"greedy": "greedy", "instant": INSTANT},
                 deals=200, seed=1, movetime=1000)
    r = run("t.toml", "--sprt-elo0", "0", "--sprt-elo1", "50", "--cluster",
            cluster.address, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "SPRT greedy vs instant: H1 accepted (greedy is stronger)" in r.stdout
    pairs = int(r.stdout.split(" pairs: ")[0].rsplit(maxsplit=1)[1])
    games = games_of(tmp_path / "tournament.records")
    # at most the deals in flight (two per worker thread) are played past the verdict
    assert 2 * pairs <= len(games) <= 2 * (pairs + 4)
    assert f"The SPRT is decided: {len(games)} of 400 games played." in r.stdout
    with Client(cluster.address, timeout=30) as client:
        end = time.monotonic() + 10
        while any(client.processing().values()) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(client.processing().values()), "deals still played"


def test_the_first_ctrl_c_finishes_the_games_being_played_on_the_workers(tmp_path, cluster):
    """As here (9.8): no deal starts another game, the games being played are finished
    and recorded; exit code 130, and the state is whole."""
    slow = [sys.executable, str(ROOT / "tests" / "engines" / "slow.py"), "30"]
    write_config(tmp_path / "t.toml", {"a": slow, "b": slow}, **{**KEYS, "deals": 6})
    records = tmp_path / "t.rec"
    p = sneferu("t.toml", "--cluster", cluster.address, cwd=tmp_path)
    wait_for_games(p, records, 1)
    before = whole_games(records)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=LIMIT)
    assert p.returncode == 130, err
    assert "Stopping: no new game starts" in out
    games = read_records(decode_records(records.read_bytes())).games
    assert before < len(games) < 12
    assert all(g.record.header.termination in ("normal", "ptah") for g in games)
    state = (tmp_path / "t.rec.state").read_text()
    assert '"pending": null' in state


def test_the_logs_are_not_for_a_cluster(tmp_path, cluster):
    write_config(tmp_path / "t.toml", ENGINES, **KEYS)
    r = run("t.toml", "--cluster", cluster.address, "--log", "x.log", cwd=tmp_path)
    assert r.returncode == 2 and "--log and --engine-stderr are not for a cluster" in r.stderr
    assert not (tmp_path / "t.rec.state").exists()


def test_a_deal_whose_worker_dies_after_it_ended_is_played_again(tmp_path, local,
                                                                monkeypatch):
    """A worker killed after its deal ended and before the coordinator followed the task:
    the task's result is lost with it and Dask plays the deal again elsewhere (SPEC 9.10);
    the run goes on (it used to end: ``deal N: NoneType: None``). The coordinator is this
    process, on a real local cluster; the kill is made while it commits a game."""
    write_config(tmp_path / "t.toml", PACED, **KEYS, cluster="local:3")
    cfg = load_config(tmp_path / "t.toml").resolved()
    monkeypatch.chdir(tmp_path)
    killed: list[str] = []
    with DaskCluster(cfg.cluster) as cluster, Journal.start(cfg) as journal:
        cluster.check(cfg)
        client = cluster.client
        pids = client.run(os.getpid)

        def ended_deal() -> tuple[str, str] | None:
            """A deal task that ended, not yet followed: its key and its worker."""
            for key, state in list(client.futures.items()):
                if str(key).startswith("sneferu-deal-") and state.status == "finished":
                    holders = client.who_has().get(key)
                    if holders:
                        return key, holders[0]
            return None

        def update(run: TournamentRun, record: object) -> None:
            if record is None or killed:
                return
            end = time.monotonic() + LIMIT
            while (found := ended_deal()) is None and time.monotonic() < end:
                time.sleep(0.01)
            assert found, "no deal ended"
            key, worker = found
            os.kill(pids[worker], signal.SIGKILL)
            while client.futures[key].status != "lost" and time.monotonic() < end:
                time.sleep(0.01)
            assert client.futures[key].status == "lost"
            killed.append(key)

        run = TournamentRun(journal, 1, cluster)
        assert run.run(update) == "complete"
    assert killed
    assert {g.header.round: essence(g) for g in games_of(tmp_path / "t.rec")} == local[0]


def kill_first_worker(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``sneferu ARGS`` (in ``cwd``) and SIGKILL the first Dask worker process it starts
    as soon as it appears (a child of the coordinator started by multiprocessing's
    ``spawn_main``, not its resource tracker): at that point it is importing, long before
    it has started. The run's outcome, and the pid killed."""
    proc = subprocess.Popen([sys.executable, "-m", "sneferu_cli", *args], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    killed = 0
    try:
        deadline = time.monotonic() + LIMIT
        while not killed and proc.poll() is None and time.monotonic() < deadline:
            for pid in children(proc.pid):
                with contextlib.suppress(OSError):
                    words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                    if any(b"spawn_main" in w for w in words) and \
                            not any(b"resource_tracker" in w for w in words):
                        os.kill(pid, signal.SIGKILL)
                        killed = pid
                        break
            time.sleep(0.002)
        out, err = proc.communicate(timeout=LIMIT)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), killed


def test_a_worker_killed_at_start_up_is_one_worker_fewer(tmp_path):
    """A worker process of local:2 killed while it starts (Dask's 'Nanny failed to start'):
    the run goes on with the other worker, says so in one line, no traceback; with local:1
    none is left, a one-line error (exit 2) before any game."""
    write_config(tmp_path / "t.toml", ENGINES, **KEYS)
    r, killed = kill_first_worker("tournament", "t.toml", "--cluster", "local:2", cwd=tmp_path)
    assert killed, r
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "sneferu: local:2: 1 of 2 worker processes died at start-up; playing on 1" in \
        r.stderr.splitlines()
    assert "on 1 worker of local:2." in r.stdout, r.stdout
    assert len(games_of(tmp_path / "t.rec")) == GAMES
    (tmp_path / "t.rec").unlink()
    r, killed = kill_first_worker("tournament", "t.toml", "--cluster", "local:1", cwd=tmp_path)
    assert killed and r.returncode == 2
    assert r.stderr.splitlines() == [
        "sneferu: cluster: local:1: no worker process started (each died at start-up)"]
    assert not (tmp_path / "tournament.records.state").exists()
