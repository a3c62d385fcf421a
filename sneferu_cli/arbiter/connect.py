"""``sneferu connect``: a local pipe engine played at a remote arbiter (SPEC.md 6.7).

Each *session* is one connection and one run of the engine: connect (``ws://HOST:PORT``
or ``tcp://HOST:PORT``), say ``hello TOKEN``, start the engine, and copy lines both ways
until either side ends (the arbiter closes the connection after ``quit``, or after a
fault; the engine exits). Then the next session starts, so that the arbiter finds the
engine again for its next games, until the arbiter cannot be reached any more (its
tournament is over) or refuses the token.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from ..protocol.messages import LINE_LIMIT

__all__ = ["Refused", "run_sessions", "split_url"]

RETRY = 0.2
"""Seconds between attempts to connect."""


class Refused(Exception):
    """The arbiter refused the connection (a wrong token): one line."""


def split_url(url: str) -> tuple[str, str, int]:
    """``ws://HOST:PORT[/PATH]`` or ``tcp://HOST:PORT`` as (scheme, host, port);
    ValueError when it is neither."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in ("ws", "wss", "tcp") or not parts.hostname or port is None:
        raise ValueError(f"{url!r}: expected ws://HOST:PORT or tcp://HOST:PORT")
    return parts.scheme, parts.hostname, port


class _Lines:
    """One connection to the arbiter, as lines both ways."""

    def __init__(self, url: str, timeout: float) -> None:
        self.scheme, host, port = split_url(url)
        self.ws: ClientConnection | None = None
        self.sock: socket.socket | None = None
        self._lines: list[str] = []
        if self.scheme == "tcp":
            self.sock = socket.create_connection((host, port), timeout=timeout)
            self.sock.settimeout(None)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._file = self.sock.makefile("rb")
        else:
            try:
                self.ws = ws_connect(url, open_timeout=timeout, compression=None,
                                     ping_interval=None, max_size=4 * LINE_LIMIT, proxy=None)
            except WebSocketException as e:  # a refused or cut opening handshake
                raise OSError(str(e)) from None
        self._lock = threading.Lock()

    def send(self, line: str) -> None:
        """Send one line (without its LF); OSError when the connection is gone."""
        with self._lock:
            if self.ws is not None:
                try:
                    self.ws.send(line)
                except ConnectionClosed as e:
                    raise OSError(str(e)) from None
            else:
                assert self.sock is not None
                self.sock.sendall(line.encode() + b"\n")

    def receive(self) -> str | None:
        """The next line, or None once the connection is closed; Refused when it was
        refused (an ``error`` line, a WebSocket close 1008)."""
        if self._lines:
            return self._lines.pop(0)
        if self.ws is not None:
            try:
                data = self.ws.recv()
            except ConnectionClosed as e:
                if e.rcvd is not None and e.rcvd.code == 1008:
                    raise Refused(e.rcvd.reason) from None
                return None
            text = data if isinstance(data, str) else data.decode(errors="replace")
            self._lines = text.removesuffix("\n").split("\n")
            return self._lines.pop(0)
        try:
            raw = self._file.readline(LINE_LIMIT + 2)
        except OSError:
            return None
        if not raw:
            return None
        line = raw.decode(errors="replace").rstrip("\r\n")
        if line.startswith("error "):
            raise Refused(line.removeprefix("error "))
        return line

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()


def _session(url: str, token: str, argv: Sequence[str], timeout: float) -> bool:
    """One session; False when the arbiter could not be reached. Raises Refused."""
    try:
        lines = _Lines(url, timeout)
        lines.send(f"hello {token}")
    except OSError:
        return False
    engine = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              bufsize=0)
    assert engine.stdin is not None and engine.stdout is not None
    stdout = engine.stdout

    def engine_to_arbiter() -> None:
        with contextlib.suppress(OSError):
            for raw in iter(lambda: stdout.readline(LINE_LIMIT + 2), b""):
                lines.send(raw.decode(errors="replace").rstrip("\r\n"))
        lines.close()  # the engine is gone: so is the session

    copier = threading.Thread(target=engine_to_arbiter, daemon=True)
    copier.start()
    quit_sent = False
    try:
        while (line := lines.receive()) is not None:
            quit_sent = quit_sent or line.strip() == "quit"
            try:
                engine.stdin.write(line.encode() + b"\n")
            except OSError:
                break
    finally:
        with contextlib.suppress(OSError):
            engine.stdin.close()
        try:
            engine.wait(1.0 if quit_sent else 0.0)
        except subprocess.TimeoutExpired:
            engine.kill()
            engine.wait()
        lines.close()
        copier.join(1.0)
    return True


def run_sessions(url: str, token: str, argv: Sequence[str], *, wait: float, once: bool,
                 log: Callable[[str], None]) -> int:
    """Sessions one after the other until the arbiter is gone: exit code 0 after at least
    one session, 1 when it was never reached within ``wait`` seconds or refused."""
    sessions = 0
    while True:
        end = time.monotonic() + (wait if sessions == 0 else 2.0)
        while True:
            try:
                reached = _session(url, token, argv, max(1.0, end - time.monotonic()))
            except Refused as e:
                log(f"{url}: refused: {e}")
                return 1
            if reached or time.monotonic() > end:
                break
            time.sleep(RETRY)
        if not reached:
            if sessions == 0:
                log(f"{url}: cannot connect within {wait:g} s")
                return 1
            return 0
        sessions += 1
        if once:
            return 0
