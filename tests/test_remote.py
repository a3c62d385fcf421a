"""Engines that connect from elsewhere (SPEC.md 6.7): a tournament listening on
127.0.0.1, engines attached through ``sneferu connect`` over WebSocket and TCP lines, and
hostile clients. Every test is a real tournament process and real sockets."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import wait_for
from websockets.exceptions import ConnectionClosed

TOKEN_A = "alpha-0123456789"
TOKEN_B = "beta-9876543210"


def _strip(records: str) -> list[str]:
    """A record file's games without what depends on time (answer times, the date),
    sorted by their round and seats (the games finish in any order at -j 2)."""
    games = [g for g in re.split(r"(?m)^(?=\[Event )", records) if g.strip()]
    out = [re.sub(r" \{[^}]*\}", "", re.sub(r'(?m)^\[Date "[^"]*"\]\n', "", g)) for g in games]
    return sorted(out)


@contextmanager
def tournament(tmp_path: Path, *args: str, name: str = "t") -> Iterator[
        tuple[subprocess.Popen[bytes], int, Path]]:
    """A tournament run in the background, listening on a free port of 127.0.0.1; its
    process, the port and the file its stderr goes to. Killed if still running after."""
    err = tmp_path / f"{name}.err"
    with open(err, "wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "tournament",
                                 "--listen", "127.0.0.1:0",
                                 "--records", str(tmp_path / f"{name}.records"), *args],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=stderr)
    try:
        port = int(wait_for(err, r"listening for remote engines on ws://127\.0\.0\.1:(\d+)"
                            ).group(1))
        yield proc, port, err
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()


def connect(url: str, token: str, *engine: str, sessions: int = 1
            ) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "sneferu_cli", "connect", url,
                             "--token", token, "--sessions", str(sessions), "--", *engine],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen[bytes], timeout: float = 120) -> tuple[int, str]:
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err.decode() if err else ""


PLAY = ["--deals", "2", "--seed", "11", "--movetime", "500", "--margin", "2000", "-j", "2"]


@pytest.mark.parametrize("schemes", [("ws", None), ("ws", "tcp")],
                         ids=["one over WebSocket", "every one, WebSocket and TCP"])
def test_records_of_remote_engines_equal_those_of_pipe_engines(
        tmp_path: Path, schemes: tuple[str, str | None]) -> None:
    """The same tournament (two games at once) with pipe engines, and with one engine or
    every one attached over loopback through ``sneferu connect`` running the same bundled
    engine (two sessions each): the same games, moves, seeds and results (times aside);
    the tokens are in no record, traffic log or output."""
    piped = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", *PLAY,
                            "--engine", "name=a command=random",
                            "--engine", "name=b command=greedy",
                            "--records", str(tmp_path / "pipe.records")],
                           capture_output=True, timeout=300)
    assert piped.returncode == 0, piped.stderr
    log = tmp_path / "traffic.log"
    engines = [("a", "random", TOKEN_A, schemes[0]), ("b", "greedy", TOKEN_B, schemes[1])]
    flags = [x for name, program, token, scheme in engines for x in
             ("--engine", f"name={name} token={token}" if scheme
              else f"name={name} command={program}")]
    with tournament(tmp_path, *PLAY, *flags, "--log", str(log), name="remote") as (
            proc, port, err):
        bridges = [connect(f"{scheme}://127.0.0.1:{port}", token, program, sessions=2)
                   for _, program, token, scheme in engines if scheme]
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.read_text()
        for bridge in bridges:
            assert finish(bridge, 60)[0] == 0
    remote = (tmp_path / "remote.records").read_text()
    assert _strip(remote) == _strip((tmp_path / "pipe.records").read_text())
    assert remote.count("[Event ") == 4 and "[Fault" not in remote
    traffic = log.read_text()
    assert "> go movetime 500" in traffic and "< move " in traffic
    for text in (remote, traffic, err.read_text(), out.decode()):
        assert TOKEN_A not in text and TOKEN_B not in text


class Scripted:
    """A remote engine written here: it connects over TCP lines with ``token``, and for
    each session of ``sessions`` plays the protocol until that session's ``breaks(line)``
    says what to do instead (``close`` the connection, ``flood`` a 70,000-byte line)."""

    def __init__(self, port: int, token: str,
                 sessions: list[Callable[[str], str | None]]) -> None:
        self.port = port
        self.token = token
        self.sessions = sessions
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        for breaks in self.sessions:
            with socket.create_connection(("127.0.0.1", self.port), timeout=60) as s:
                s.sendall(f"hello {self.token}\n".encode())
                f = s.makefile("rb")
                for raw in f:
                    line = raw.decode().strip()
                    what = breaks(line)
                    if what == "close":
                        break
                    if what == "flood":
                        s.sendall(b"x" * 70_000 + b"\n")
                        continue
                    if line == "sneferu 1":
                        s.sendall(b"id name scripted\nsneferuok\n")
                    elif line == "isready":
                        s.sendall(b"readyok\n")
                    elif line == "quit":
                        break


class ScriptedWebSocket(Scripted):
    """:class:`Scripted` over WebSocket: ``close`` sends a WebSocket close, ``flood`` a
    message over the arbiter's limit (262,144 bytes)."""

    def run(self) -> None:
        from websockets.sync.client import connect as ws_connect

        for breaks in self.sessions:
            with ws_connect(f"ws://127.0.0.1:{self.port}", compression=None,
                            max_size=None, ping_interval=None) as ws:
                ws.send(f"hello {self.token}")
                with contextlib.suppress(ConnectionClosed):
                    for message in ws:
                        line = str(message).strip()
                        what = breaks(line)
                        if what == "close" or line == "quit":
                            break
                        if what == "flood":
                            ws.send("x" * 300_000)
                        elif what == "pings":  # until the arbiter gives up on it
                            with contextlib.suppress(ConnectionClosed):
                                while True:
                                    ws.ping()
                        elif line == "sneferu 1":
                            ws.send("id name scripted\nsneferuok")
                        elif line == "isready":
                            ws.send("readyok\n")


def _at_go(what: str) -> Callable[[str], str | None]:
    return lambda line: what if line.startswith("go") else None


def _never(line: str) -> None:
    return None


def test_a_disconnect_is_a_fault_for_that_game_only_and_the_engine_comes_back(
        tmp_path: Path) -> None:
    """A remote seat whose connection closes in a game is retired with a ``disconnect``
    fault; a line over the limit is a ``flood``; the engine connects again and plays its
    next game whole."""
    with tournament(tmp_path, "--engine", "name=pipe command=random", "--engine",
                    f"name=far token={TOKEN_B}", "--deals", "2", "--seed", "3",
                    "--movetime", "500", "-j", "1") as (proc, port, err):
        script = Scripted(port, TOKEN_B, [_never, _at_go("close"), _at_go("flood")])
        script.thread.join(120)
        bridge = connect(f"tcp://127.0.0.1:{port}", TOKEN_B, "random")
        code, _ = finish(proc, 180)
        assert code == 0, err.read_text()
        assert finish(bridge, 60)[0] == 0
    records = (tmp_path / "t.records").read_text()
    faults = re.findall(r"\[Fault (\d) (\w+) ply=\d+ detail=\"([^\"]*)\"\]", records)
    assert [kind for _, kind, _ in faults] == ["disconnect", "flood"], records
    assert "127.0.0.1" in faults[0][2]
    games = [g for g in re.split(r"(?m)^(?=\[Event )", records) if g.strip()]
    assert len(games) == 4 and sum("[Fault" in g for g in games) == 2


def test_websocket_faults(tmp_path: Path) -> None:
    """Over WebSocket: a message over 262,144 bytes is a ``flood``, a WebSocket close in a
    game a ``disconnect``, pings without end instead of a move a ``timeout``; each for its
    game only."""
    with tournament(tmp_path, "--engine", "name=pipe command=random", "--engine",
                    f"name=far token={TOKEN_B}", "--deals", "1", "--seed", "3",
                    "--movetime", "500", "-j", "1",
                    "--engine", "name=third command=random") as (proc, port, err):
        script = ScriptedWebSocket(port, TOKEN_B, [_never, _at_go("flood"), _at_go("close"),
                                                   _at_go("pings"), _at_go("close")])
        code, _ = finish(proc, 180)
        assert code == 0, err.read_text()
        script.thread.join(60)
    records = (tmp_path / "t.records").read_text()
    faults = re.findall(r"\[Fault \d (\w+) ply=\d+ detail=\"([^\"]*)\"\]", records)
    assert [kind for kind, _ in faults] == ["flood", "disconnect", "timeout", "disconnect"]
    assert faults[0][1] == "a WebSocket message over 262144 bytes"
    assert "WebSocket close 1000" in faults[1][1]
    assert faults[2][1] == "no move within 500 ms (+100 ms margin, +50 ms latency)"


def _hello(port: int, line: bytes) -> bytes:
    """What the listener answers a hello line (TCP) with, before it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(line)
        s.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: s.recv(1 << 16), b""))


class Player:
    """A remote engine written here (TCP lines): it plays the first legal move listed,
    and holds its first move of the games until :attr:`go_on` is set (:attr:`thinking`
    says it has come), so that a test acts while a game is being played."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.thinking = threading.Event()
        self.go_on = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        for _ in range(2):  # the tournament's probe, then the games
            with socket.create_connection(("127.0.0.1", self.port), timeout=120) as s:
                s.sendall(f"hello {self.token}\n".encode())
                for raw in s.makefile("rb"):
                    line = raw.decode().strip()
                    if line == "sneferu 1":
                        s.sendall(b"id name player\nfeature legalmoves\nsneferuok\n")
                    elif line == "isready":
                        s.sendall(b"readyok\n")
                    elif line.startswith("go "):
                        self.thinking.set()
                        self.go_on.wait(120)
                        move = line.split(" legalmoves ", 1)[1].split(" ; ")[0]
                        s.sendall(f"move {move}\n".encode())
                    elif line == "quit":
                        break


def test_hostile_clients_leave_the_tournament_and_its_seats_alone(tmp_path: Path) -> None:
    """While a game with a remote engine is being played: 200 connections at once that
    never speak (closed after the hello timeout), a wrong token, garbage bytes, a line
    over 65,536 bytes, a WebSocket with a message over the limit, a broken WebSocket
    handshake. Each is refused and logged without its token; the games are played whole,
    without a fault."""
    with tournament(tmp_path, "--engine", "name=pipe command=random", "--engine",
                    f"name=far token={TOKEN_B}", "--deals", "1", "--seed", "5",
                    "--handshake-timeout", "2", "-j", "1") as (proc, port, err):
        player = Player(port, TOKEN_B)
        assert player.thinking.wait(120)  # a game is being played: its move waits
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30)
                  for _ in range(200)]
        assert _hello(port, b"hello not-the-token\n") == b"error wrong token\n"
        assert _hello(port, bytes(range(256)) * 4 + b"\n").startswith(b"error not a hello")
        assert _hello(port, b"y" * 70_000).startswith(b"error a hello line longer")
        assert _hello(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 4")
        ws = subprocess.run(
            [sys.executable, "-c",
             "import sys; from websockets.sync.client import connect\n"
             "with connect(sys.argv[1], max_size=None, compression=None) as c:\n"
             "    c.send('hello ' + 'z' * 300000)\n"
             "    try: c.recv(timeout=30)\n"
             "    except Exception as e: print(type(e).__name__, e)\n",
             f"ws://127.0.0.1:{port}"], capture_output=True, text=True, timeout=60)
        assert "1009" in ws.stdout, ws
        for s in silent:  # each is closed by the listener after the hello timeout
            s.settimeout(30)
            assert s.recv(100) == b"error no hello within 2 s\n"
            s.close()
        assert proc.poll() is None
        player.go_on.set()
        code, _ = finish(proc, 240)
        assert code == 0, err.read_text()
        player.thread.join(60)
    log = err.read_text()
    assert log.count("no hello within 2 s") == 200, log
    for why in ("wrong token", "not a hello line", "a hello line longer than 65536 bytes",
                "not a WebSocket opening handshake", "a message over 262144 bytes"):
        assert why in log, why
    assert "not-the-token" not in log and TOKEN_B not in log
    records = (tmp_path / "t.records").read_text()
    assert records.count("[Event ") == 2 and "[Fault" not in records
    assert records.count("[Termination normal]") == 2


def test_connect_with_a_wrong_token_exits_1(tmp_path: Path) -> None:
    """``sneferu connect`` with a token the arbiter does not know: refused, exit 1, over
    WebSocket and TCP alike."""
    with tournament(tmp_path, "--engine", "name=pipe command=random", "--engine",
                    f"name=far token={TOKEN_B}", "--deals", "1", "--movetime", "200",
                    "--connect-timeout", "60") as (proc, port, err):
        for scheme in ("ws", "tcp"):
            code, out = finish(connect(f"{scheme}://127.0.0.1:{port}", "nope", "random"))
            assert code == 1 and "refused: wrong token" in out, out
        ok = connect(f"ws://127.0.0.1:{port}", TOKEN_B, "random")
        assert finish(proc, 120)[0] == 0, err.read_text()
        assert finish(ok)[0] == 0


@pytest.mark.parametrize(("flags", "message"), [
    (["--engine", "name=a token=x", "--engine", "name=b command=random"],
     "listen: engines with a token connect from elsewhere"),
    (["--engine", "name=a token=x command=random", "--engine", "name=b command=random",
      "--listen", "9000"], "token: an engine with a token connects from elsewhere"),
    (["--engine", "name=a token=x", "--engine", "name=b token=x", "--listen", "9000"],
     "token: two engines have the same token"),
    (["--engine", "name=a token=x", "--engine", "name=b command=random",
      "--listen", "here"], "listen: 'here' (expected HOST:PORT or PORT"),
])
def test_remote_configuration_errors(flags: list[str], message: str) -> None:
    """A token without somewhere to listen, with a command, twice; a bad address: one
    line, exit 2, before anything runs."""
    done = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", *flags],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_connect_usage_errors() -> None:
    """A URL that is not ws:// or tcp://, a program that does not exist: exit 2."""
    for args in (["http://x:1", "--token", "t", "--", "random"],
                 ["tcp://127.0.0.1:1", "--token", "t", "--", "./no-such-engine"]):
        done = subprocess.run([sys.executable, "-m", "sneferu_cli", "connect", *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


def test_nothing_listening_connect_gives_up(tmp_path: Path) -> None:
    """With nobody listening, ``sneferu connect`` tries for --wait seconds, then exit 1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "sneferu_cli", "connect",
                           f"tcp://127.0.0.1:{port}", "--token", "t", "--wait", "0.5",
                           "--", "random"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "cannot connect" in done.stderr
    assert time.monotonic() - start < 60


def test_a_token_is_not_part_of_the_fingerprint() -> None:
    """SPEC 9.1: the token and the listening settings may change on resume; a remote
    engine is not the same tournament as a pipe engine of the same name."""
    from sneferu_cli.tournament.config import load_config

    def cfg(b: str, **more: object) -> str:
        return load_config(None, {"engine": ["name=a command=random", b], "seed": 1,
                                  **more}).fingerprint()

    remote = cfg("name=b token=one", listen="9000")
    assert remote == cfg("name=b token=two", listen="127.0.0.1:9001", latency=200,
                         connect_timeout=5.0)
    assert remote != cfg("name=b command=random")


def test_play_with_a_remote_seat(tmp_path: Path) -> None:
    """``sneferu play random remote:TOKEN --listen``: the seat's engine connects over
    WebSocket and plays the game whole; without --listen it is a usage error."""
    err = tmp_path / "play.err"
    with open(err, "wb") as stderr:
        game = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "play", "random",
                                 f"remote:{TOKEN_A}", "--listen", "0", "--movetime", "500",
                                 "--seed", "4", "--record", str(tmp_path / "g.rec")],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=stderr)
    port = wait_for(err, r"on ws://127\.0\.0\.1:(\d+)").group(1)
    bridge = connect(f"ws://127.0.0.1:{port}", TOKEN_A, "greedy")
    out, _ = game.communicate(timeout=120)
    assert game.returncode == 0, err.read_text()
    code, said = finish(bridge)
    assert code == 0, said
    record = (tmp_path / "g.rec").read_text()
    assert '[Seat 2 "greedy"' in record and "[Fault" not in record
    assert TOKEN_A not in record + out.decode() + err.read_text()
    done = subprocess.run([sys.executable, "-m", "sneferu_cli", "play", "random",
                           "remote:x"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "give --listen" in done.stderr


def test_serve_over_websocket_one_session_per_connection(tmp_path: Path) -> None:
    """``sneferu serve --listen``: each connection its own session (its own games), a
    message's request lines answered one message each, quit ends that connection only."""
    from websockets.sync.client import connect as ws_connect

    err = tmp_path / "serve.err"
    with open(err, "wb") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "serve", "--listen",
                                   "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        url = wait_for(err, r"listening on (ws://127\.0\.0\.1:\d+)").group(1)
        with ws_connect(url) as a, ws_connect(url) as b:
            a.send("1 new players=2 seed=3\n2 games")
            assert a.recv(timeout=30) == "=1 g1\n\n"
            assert str(a.recv(timeout=30)).startswith("=2 g1 edition=standard")
            b.send("5 games")
            assert b.recv(timeout=30) == "=5\n\n"  # b's session has no game
            b.send("bogus")
            assert str(b.recv(timeout=30)).startswith("? unknown command 'bogus'")
            a.send("quit")
            assert a.recv(timeout=30) == "=\n\n"
            with pytest.raises(ConnectionClosed):
                a.recv(timeout=30)
            b.send("6 new players=3")
            assert b.recv(timeout=30) == "=6 g1\n\n"
        assert server.poll() is None  # it serves on
    finally:
        server.kill()
        server.wait()
    done = subprocess.run([sys.executable, "-m", "sneferu_cli", "serve", "--listen", "x:y"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--listen" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("latency", "fault"), [(20, True), (60_000, False)])
def test_the_latency_allowance_is_added_to_the_margin(tmp_path: Path, latency: int,
                                                      fault: bool) -> None:
    """A remote engine that takes 50 ms a move at movetime 1, margin 0: late at once with
    20 ms of allowance (1 + 0 + 20 < 50); with 60 s it plays the (solo) game whole."""
    slow = str(Path(__file__).parent / "engines" / "slow.py")
    err = tmp_path / "play.err"
    with open(err, "wb") as stderr:
        game = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "play",
                                 f"remote:{TOKEN_A}", "--listen", "0", "--movetime", "1",
                                 "--margin", "0", "--latency", str(latency), "--seed", "2",
                                 "--record", str(tmp_path / "g.rec")],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=stderr)
    port = wait_for(err, r"on ws://127\.0\.0\.1:(\d+)").group(1)
    bridge = connect(f"tcp://127.0.0.1:{port}", TOKEN_A, sys.executable, slow, "50")
    game.communicate(timeout=180)
    finish(bridge)
    record = (tmp_path / "g.rec").read_text()
    if fault:
        assert ('[Fault 1 timeout ply=0 detail="no move within 1 ms '
                '(+0 ms margin, +20 ms latency)"]') in record
    else:
        assert "[Fault" not in record and "[Solo " in record, record
