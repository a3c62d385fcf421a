"""The ladder in PostgreSQL (SPEC.md 9.12): a real server started here (Debian's
``postgresql``, on 127.0.0.1, in a temporary folder, stopped after), the same ratings as a
SQLite ladder of the same games, and concurrent writers losing nothing."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import require_program, run_cli, start_cli
from test_ladder import GAMES, write

STARTUP_SECONDS = 60


def _server_bin() -> Path:
    """The folder of PostgreSQL's server programs (``initdb``, ``postgres``)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    return Path(require_program("initdb", "PostgreSQL (Debian's postgresql)")).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of its own, trusting local connections on 127.0.0.1: its URL.
    As root the server runs as the ``postgres`` user (it refuses to run as root), in a
    folder of its own under the system's temporary folder (pytest's is root's alone)."""
    bin_dir = _server_bin()
    folder = Path(tempfile.mkdtemp(prefix="sneferu-postgres-"))
    data = folder / "data"
    log = folder / "server.log"
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    server: subprocess.Popen[bytes] | None = None
    try:
        made = subprocess.run([*as_user, str(bin_dir / "initdb"), "-D", str(data), "-U",
                               "ladder", "--auth=trust", "--no-sync"], capture_output=True,
                              text=True, timeout=STARTUP_SECONDS)
        assert made.returncode == 0, made.stderr
        port = _free_port()
        with log.open("wb") as out:  # the server's log: read only when it fails to start
            server = subprocess.Popen(
                [*as_user, str(bin_dir / "postgres"), "-D", str(data), "-p", str(port),
                 "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={folder}",
                 "-c", "fsync=off", "-c", "max_connections=20"],
                stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        deadline = time.monotonic() + STARTUP_SECONDS
        while subprocess.run([str(bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p",
                              str(port)], capture_output=True).returncode != 0:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "PostgreSQL did not start: " + log.read_text()
            time.sleep(0.1)
        yield f"postgresql://ladder@127.0.0.1:{port}/postgres"
    finally:
        if server is not None:
            server.terminate()  # SIGTERM: a smart shutdown, no client is left
            try:
                server.wait(timeout=STARTUP_SECONDS)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        with contextlib.suppress(OSError):
            shutil.rmtree(folder)


def fresh(url: str, name: str) -> str:
    """A new empty database on the server: its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def shown(db: str) -> dict[str, object]:
    done = run_cli("ladder", "--db", db, "show", "--json")
    assert done.returncode == 0, done.stderr
    (pool,) = json.loads(done.stdout)["pools"]
    return {"games": pool["games"], **{e["name"]: round(e["rating"], 6)
                                       for e in pool["engines"]}}


def test_a_postgres_ladder_gives_what_a_sqlite_one_does(postgres: str, tmp_path: Path
                                                        ) -> None:
    db = fresh(postgres, "same")
    first = write(tmp_path / "first.txt", range(0, 80))
    second = write(tmp_path / "second.txt", range(40, 120))
    sqlite = str(tmp_path / "ladder.sqlite")
    for where in (db, sqlite):
        for f, added in ((first, 80), (second, 40)):
            done = run_cli("ladder", "--db", where, "add", str(f))
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith(f"added {added} games")
    assert shown(db) == shown(sqlite)
    assert shown(db)["games"] == len(GAMES)
    history = run_cli("ladder", "--db", db, "history", "mcts", "--json")
    assert [h["addition"] for h in json.loads(history.stdout)] == [1, 2]


def test_concurrent_writers_to_postgres_lose_nothing(postgres: str, tmp_path: Path) -> None:
    db = fresh(postgres, "concurrent")
    files = [write(tmp_path / f"part{k}.txt", range(20 * k, 20 * k + 30)) for k in range(5)]
    writers = [start_cli("ladder", "--db", db, "add", str(f)) for f in files]
    added = 0
    for w in writers:
        out, err = w.communicate(timeout=120)
        assert w.returncode == 0, err
        added += int(out.split()[1])
    # the parts overlap by 10 games: 110 games in all, each counted once
    assert added == 110
    assert shown(db)["games"] == 110


def test_a_server_that_is_not_there_is_one_line(postgres: str) -> None:
    port = _free_port()
    done = run_cli("ladder", "--db", f"postgresql://ladder:secret@127.0.0.1:{port}/x", "show")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"sneferu: postgresql://ladder:***@127.0.0.1:{port}/x: "
                                  "cannot connect: ")
    assert "secret" not in done.stderr
