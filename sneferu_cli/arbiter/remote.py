"""Engines that connect from elsewhere: a listener for their connections, and the
connection as an engine's line channel (SPEC.md 6.7).

A remote engine connects *out* to the arbiter, over WebSocket or plain TCP lines on the
same port (a WebSocket opening handshake starts with ``GET``), and says ``hello TOKEN``
first. The :class:`Listener` (a thread of the main process, with its own selector)
accepts connections, reads the hello and checks the token; a connection whose token
names an engine waits in that engine's queue until a seat asks for it. Seats ask through
a Unix socket (the *broker*), from any process: a tournament's worker processes get the
connection itself, its file descriptor passed with ``SCM_RIGHTS``, and drive it as
:class:`Connection`, which offers what :class:`~.process.EngineProcess` offers (a line
sent and a line read, each with a deadline), so an engine behind a connection is a seat
like any other. WebSocket frames are read and written by ``websockets``' Sans-I/O
protocol, in the listener and in the seat's process alike; no HTTP is parsed here.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import select
import selectors
import socket
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from websockets.exceptions import PayloadTooBig
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from ..protocol.messages import LINE_LIMIT
from .process import EngineFault, LineChannel, TrafficLog, take_line

__all__ = ["HELLO_TIMEOUT", "LATENCY", "Connection", "Listener", "RemoteSeat",
           "parse_listen"]

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to send its hello line, by default (a tournament gives
its handshake timeout)."""

LATENCY = 50
"""The latency allowance, in milliseconds, added to the margin of a remote seat's turns."""

MAX_PENDING = 256
"""Connections at most between their opening and their hello (more are closed at once)."""

MAX_WAITING = 64
"""Connections at most that wait with the same token for a seat (more are refused)."""

WS_MAX = 4 * LINE_LIMIT
"""The largest WebSocket message taken; a larger one ends the connection (a flood)."""

_CHUNK = 1 << 16


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``PORT`` (host 127.0.0.1) as (host, port); ValueError when not.
    Port 0: any free port (the listener says which)."""
    host, colon, port = text.rpartition(":")
    host = host.strip("[]") if colon else "127.0.0.1"
    if not port.isascii() or not port.isdigit() or int(port) > 65535 or not host:
        raise ValueError(f"listen: {text!r} (expected HOST:PORT or PORT, e.g. 127.0.0.1:9000)")
    return host, int(port)


def _hello_token(line: bytes) -> str | None:
    """The token of a hello line (``hello TOKEN``), or None when it is not one."""
    words = line.decode(errors="replace").strip().split(" ")
    return words[1] if len(words) == 2 and words[0] == "hello" and words[1] else None


# ----------------------------------------------------------------- the listener


@dataclass
class _Opening:
    """A connection that has not said its hello yet."""

    sock: socket.socket
    peer: str
    due: float
    buf: bytearray = field(default_factory=bytearray)
    ws: ServerProtocol | None = None
    text: bytearray = field(default_factory=bytearray)  # a WebSocket message in fragments


@dataclass
class _Waiting:
    """A seat's request (on the broker socket) for engine ``index``'s connection."""

    sock: socket.socket
    index: int
    due: float


class Listener:
    """Accept remote engines on ``host:port`` for the engines of ``tokens`` (token →
    engine index), in a thread, while it is entered (until :meth:`close`). ``log`` gets
    one line for each connection refused (never the token); a connection has
    ``hello_timeout`` seconds to say its hello. :attr:`broker` is the path seats ask
    at (:class:`RemoteSeat`); :attr:`address` the address listened on."""

    def __init__(self, host: str, port: int, tokens: Mapping[str, int],
                 log: Callable[[str], None], hello_timeout: float = HELLO_TIMEOUT) -> None:
        self.tokens = dict(tokens)
        self.hello_timeout = hello_timeout
        self.log = log
        try:
            self.server = socket.create_server((host, port), backlog=MAX_PENDING,
                                               family=(socket.AF_INET6 if ":" in host
                                                       else socket.AF_INET))
        except OSError as e:
            raise ValueError(f"listen: cannot listen on {host}:{port}: "
                             f"{e.strerror or e}") from None
        self.server.setblocking(False)
        self.address = self.server.getsockname()[:2]
        self._dir = tempfile.mkdtemp(prefix="sneferu-remote-")
        self.broker = os.path.join(self._dir, "broker")
        self.brokers = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.brokers.bind(self.broker)
        self.brokers.listen(64)
        self.brokers.setblocking(False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.server, selectors.EVENT_READ, "accept")
        self._sel.register(self.brokers, selectors.EVENT_READ, "broker")
        self._wake_r, self._wake_w = socket.socketpair()
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._opening: dict[socket.socket, _Opening] = {}
        self._ready: dict[int, deque[tuple[socket.socket, str, bytes, str]]] = {}
        self._waiting: list[_Waiting] = []
        self._closing = False
        self._thread = threading.Thread(target=self._loop, name="sneferu listener",
                                        daemon=True)

    def __enter__(self) -> Listener:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop listening and close every connection not handed to a seat."""
        self._closing = True
        with contextlib.suppress(OSError):
            self._wake_w.send(b"x")
        if self._thread.is_alive():
            self._thread.join(5)
        for sock in [self.server, self.brokers, self._wake_r, self._wake_w,
                     *self._opening, *(w.sock for w in self._waiting),
                     *(c[0] for q in self._ready.values() for c in q)]:
            with contextlib.suppress(OSError):
                _drop(sock)
        with contextlib.suppress(OSError):
            os.unlink(self.broker)
            os.rmdir(self._dir)

    # ------------------------------------------------------------------ the loop

    def _loop(self) -> None:
        while not self._closing:
            try:
                self._turn()
            except Exception as e:  # a bug: say it, and keep the other connections going
                self.log(f"listener: internal error: {type(e).__name__}: {e}")
                time.sleep(0.05)

    def _turn(self) -> None:
        """Wait for what comes first (a connection, a line, a seat's request, a due time)
        and deal with it."""
        due = min([o.due for o in self._opening.values()]
                  + [w.due for w in self._waiting], default=time.monotonic() + 1)
        for key, _ in self._sel.select(max(0.0, due - time.monotonic()) + 0.001):
            what = key.data
            if what == "accept":
                self._accept()
            elif what == "broker":
                self._broker_accept()
            elif isinstance(what, _Opening):
                self._read_hello(what)
            elif isinstance(what, _Waiting):
                self._drop_waiting(what)  # a seat's process went away
        now = time.monotonic()
        for o in [o for o in self._opening.values() if o.due < now]:
            self._refuse(o, f"no hello within {self.hello_timeout:g} s")
        for w in [w for w in self._waiting if w.due < now]:
            with contextlib.suppress(OSError):
                w.sock.send(b"none\n")
            self._drop_waiting(w)
        self._match()

    def _accept(self) -> None:
        for _ in range(64):
            try:
                sock, addr = self.server.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of files: the backlog waits (a pause, not a spin)
                time.sleep(0.05)
                return
            if len(self._opening) >= MAX_PENDING:
                self.log(f"refused a connection from {_peer(addr)}: too many connections "
                         "waiting for their hello")
                _drop(sock)
                continue
            sock.setblocking(False)
            o = _Opening(sock, _peer(addr), time.monotonic() + self.hello_timeout)
            self._opening[sock] = o
            self._sel.register(sock, selectors.EVENT_READ, o)

    def _forget(self, o: _Opening) -> None:
        self._opening.pop(o.sock, None)
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(o.sock)

    def _refuse(self, o: _Opening, why: str) -> None:
        """Log why, say it to the client (a line, or a WebSocket close), close."""
        self.log(f"refused a connection from {o.peer}: {why}")
        self._forget(o)
        with contextlib.suppress(OSError):
            if o.ws is None:
                o.sock.send(f"error {why}\n".encode())
            elif o.ws.state is State.OPEN:
                o.ws.send_close(1008, why[:120])
                o.sock.send(b"".join(o.ws.data_to_send()))
        _drop(o.sock)

    def _read_hello(self, o: _Opening) -> None:
        try:
            data = o.sock.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._forget(o)
            _drop(o.sock)
            self.log(f"a connection from {o.peer} closed before its hello")
            return
        o.buf += data
        if o.ws is None and len(o.buf) < 4 and b"GET ".startswith(o.buf):
            return  # too little to tell a WebSocket from a line yet
        if o.ws is None and o.buf.startswith(b"GET "):
            o.ws = ServerProtocol(max_size=WS_MAX)
        if o.ws is not None:
            o.ws.receive_data(bytes(o.buf))
            o.buf.clear()
            self._ws_events(o)
            return
        end = o.buf.find(b"\n")
        if end < 0:
            if len(o.buf) > LINE_LIMIT:
                self._refuse(o, f"a hello line longer than {LINE_LIMIT} bytes")
            return
        self._hello(o, bytes(o.buf[:end]), bytes(o.buf[end + 1:]), "tcp")

    def _ws_events(self, o: _Opening) -> None:
        ws = o.ws
        assert ws is not None
        for event in ws.events_received():
            if isinstance(event, Request):
                ws.send_response(ws.accept(event))
            elif isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                o.text += event.data
                if event.fin:
                    self._hello(o, bytes(o.text), b"", "ws")
                    return
        with contextlib.suppress(OSError):
            o.sock.send(b"".join(ws.data_to_send()))
        if ws.handshake_exc is not None:
            self._refuse(o, "not a WebSocket opening handshake")
        elif ws.parser_exc is not None:
            self._refuse(o, f"a broken WebSocket frame or a message over {WS_MAX} bytes")
        elif ws.state is not State.OPEN:
            self._refuse(o, "closed before its hello")
        elif len(o.text) > LINE_LIMIT:
            self._refuse(o, f"a hello line longer than {LINE_LIMIT} bytes")

    def _hello(self, o: _Opening, line: bytes, rest: bytes, kind: str) -> None:
        token = _hello_token(line)
        index = None if token is None else self._index(token)
        if index is None:
            self._refuse(o, "not a hello line (hello TOKEN)" if token is None
                         else "wrong token")
            return
        if len(self._ready.get(index, ())) >= MAX_WAITING:
            self._refuse(o, f"{MAX_WAITING} connections with this token wait already")
            return
        self._forget(o)
        if o.ws is not None:  # what the opening handshake still has to write
            with contextlib.suppress(OSError):
                o.sock.send(b"".join(o.ws.data_to_send()))
        self._ready.setdefault(index, deque()).append((o.sock, kind, rest, o.peer))

    def _index(self, token: str) -> int | None:
        """The engine whose token this is (compared in constant time), or None."""
        found = None
        for known, index in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = index
        return found

    def _broker_accept(self) -> None:
        try:
            sock, _ = self.brokers.accept()
        except OSError:
            return
        # the request is one short line, written at once after connecting
        sock.settimeout(1.0)
        try:
            words = sock.recv(256).decode(errors="replace").split()
            index, wait = int(words[1]), float(words[2])
        except (OSError, ValueError, IndexError):
            sock.close()
            return
        w = _Waiting(sock, index, time.monotonic() + wait)
        self._waiting.append(w)
        self._sel.register(sock, selectors.EVENT_READ, w)

    def _drop_waiting(self, w: _Waiting) -> None:
        with contextlib.suppress(ValueError):
            self._waiting.remove(w)
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(w.sock)
        w.sock.close()

    def _match(self) -> None:
        """Hand each waiting seat a connection of its engine (the oldest one still open)."""
        for w in list(self._waiting):
            queue = self._ready.get(w.index)
            while queue:
                sock, kind, rest, peer = queue.popleft()
                if not _open(sock):
                    _drop(sock)
                    continue
                meta = json.dumps({"kind": kind, "peer": peer, "rest": rest.hex()})
                try:
                    socket.send_fds(w.sock, [meta.encode() + b"\n"], [sock.fileno()])
                except OSError:
                    queue.appendleft((sock, kind, rest, peer))
                else:
                    sock.close()
                self._drop_waiting(w)
                break


def _drop(sock: socket.socket) -> None:
    """Close a client's connection, for good: a worker process forked meanwhile holds a
    copy of the descriptor, so it is shut down first."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def _peer(addr: object) -> str:
    if isinstance(addr, tuple) and len(addr) >= 2:
        return f"{addr[0]}:{addr[1]}"
    return str(addr)


def _open(sock: socket.socket) -> bool:
    """Whether the peer has not closed ``sock`` (does not consume what it sent)."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except (BlockingIOError, InterruptedError):
        return True
    except OSError:
        return False


# ----------------------------------------------------------------- a seat's side


class RemoteSeat:
    """Where an engine's connections come from: the listener's ``broker`` socket, for
    the engine ``index`` (its place in the configuration), waiting ``wait`` seconds."""

    def __init__(self, broker: str, index: int, wait: float) -> None:
        self.broker = broker
        self.index = index
        self.wait = wait

    def connect(self, label: str, traffic: TrafficLog | None) -> Connection:
        """The engine's next connection; a ``handshake`` fault when none comes in time."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.wait + 5)
            sock.connect(self.broker)
            sock.sendall(f"want {self.index} {self.wait}\n".encode())
            data, fds, _, _ = socket.recv_fds(sock, 1 << 18, 1)
        except OSError as e:
            raise EngineFault("handshake", f"the listener is gone ({e.strerror or e})"
                              ) from None
        finally:
            sock.close()
        if not fds:
            raise EngineFault("handshake", f"no connection within {self.wait:g} s")
        meta = json.loads(data)
        return Connection(socket.socket(fileno=fds[0]), label=label, traffic=traffic,
                          websocket=meta["kind"] == "ws", peer=meta["peer"],
                          rest=bytes.fromhex(meta["rest"]))


class Connection(LineChannel):
    """A remote engine's connection as its line channel (what
    :class:`~.process.EngineProcess` offers the :class:`~.engine.Engine`): every wait has
    a deadline, a line is at most ``LINE_LIMIT`` bytes (else a ``flood``), and the
    connection closing is a ``disconnect`` fault. Over WebSocket each line the arbiter
    sends is one text message; each message received holds one line or several (LF
    between them)."""

    def __init__(self, sock: socket.socket, *, label: str, traffic: TrafficLog | None,
                 websocket: bool, peer: str, rest: bytes = b"") -> None:
        self.sock = sock
        self.label = label
        self.traffic = traffic
        self.peer = peer
        self.ws = ServerProtocol(state=State.OPEN, max_size=WS_MAX) if websocket else None
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._fd = sock.fileno()
        self._buf = bytearray()
        self._text = bytearray()
        self._pending = bytearray()  # WebSocket frames of the arbiter's not written yet
        self._writing = False
        self._closed = False
        self._poll_out = select.poll()
        self._poll_out.register(self._fd, select.POLLIN)
        self._poll_in = select.poll()
        self._poll_in.register(self._fd, select.POLLIN | select.POLLOUT)
        if websocket:
            for line in rest.split(b"\n") if rest else ():
                self._buf += line + b"\n"
        else:
            self._buf += rest

    # ------------------------------------------------------------------ lines

    def send(self, deadline: float, *lines: str) -> None:
        """Send lines before ``deadline`` (reading what comes meanwhile, as a pipe does:
        more than ``LINE_LIMIT`` bytes while the engine takes none is a ``flood``)."""
        if self.traffic:
            for line in lines:
                self.traffic.write(self.label, ">", line)
        if self.ws is None:
            data = "\n".join((*lines, "")).encode()
        else:
            if self.ws.state is not State.OPEN:
                raise self._gone()
            for line in lines:
                self.ws.send_text(line.encode())
            data = bytes(self._pending) + b"".join(self.ws.data_to_send())
            self._pending.clear()  # (the pongs first: a frame is never cut in two)
        self._write(memoryview(data), deadline)

    def _write(self, data: memoryview, deadline: float) -> None:
        """Write ``data``, then the frames queued meanwhile (the pongs to the pings read
        while waiting: never in the middle of ``data``)."""
        self._writing = True
        try:
            self._write_all(data, deadline)
        finally:
            self._writing = False

    def _write_all(self, data: memoryview, deadline: float) -> None:
        unread = 0  # bytes the engine wrote since it last took any
        while True:
            if not data:
                if not self._pending:
                    return
                data = memoryview(bytes(self._pending))
                self._pending.clear()
            try:
                n = self.sock.send(data)
            except (BlockingIOError, InterruptedError):
                n = 0
            except OSError:
                raise self._gone() from None
            if n:
                unread = 0
                data = data[n:]
                continue
            ready = self._poll_in.poll(_millis(deadline))
            if not ready:
                raise EngineFault("timeout", "stopped reading its input")
            if any(ev & select.POLLIN for _, ev in ready):
                before = len(self._buf)
                self._receive()
                unread += len(self._buf) - before
                if unread > LINE_LIMIT:
                    raise EngineFault("flood", f"wrote over {LINE_LIMIT} bytes while not "
                                               "reading its input")

    def _receive(self) -> bool:
        """Read what has come into the line buffer; False when nothing had come."""
        try:
            data = self.sock.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        if not data:
            raise self._gone()
        if self.ws is None:
            self._buf += data
            return True
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.BINARY,
                                                              Opcode.CONT):
                self._text += event.data
                if event.fin:
                    self._buf += self._text
                    if not self._text.endswith(b"\n"):
                        self._buf += b"\n"
                    self._text.clear()
                elif len(self._text) > LINE_LIMIT:
                    raise EngineFault("flood", f"a line longer than {LINE_LIMIT} bytes")
        reply = self.ws.data_to_send()  # pongs, the answer to a close
        if reply:  # written when the socket takes them, the rest kept for the next send
            self._pending += b"".join(reply)
            if not self._writing:
                with contextlib.suppress(OSError):
                    del self._pending[:self.sock.send(self._pending)]
        if self.ws.parser_exc is not None or self.ws.close_rcvd is not None:
            raise self._gone()
        return True

    def readline(self, deadline: float) -> str:
        """The next line (without LF or CR), waiting until ``deadline`` at most."""
        while True:
            line = take_line(self._buf)
            if line is not None:
                if self.traffic:
                    self.traffic.write(self.label, "<", line)
                return line
            if self._receive():  # (WebSocket pings or a line's start: time goes on)
                if time.monotonic() > deadline:
                    raise EngineFault("timeout", "no line in time")
            elif not self._poll_out.poll(_millis(deadline)):
                raise EngineFault("timeout", "no line in time")

    def fds(self) -> list[int]:
        """What becomes readable when a line may have come."""
        return [self._fd]

    # ------------------------------------------------------------------ life

    def find_descendants(self, parents: dict[int, int] | None = None) -> None:
        """Nothing to find: the engine's processes are on the other side."""

    def stop(self, grace: float) -> None:
        """Wait up to ``grace`` seconds for the engine to close the connection (after
        quit), then close it. Never raises."""
        deadline = time.monotonic() + max(0.0, grace)
        with contextlib.suppress(EngineFault):
            while not self._closed:
                if not self._receive() and not self._poll_out.poll(_millis(deadline)):
                    break
                self._buf.clear()
        self.kill()

    def kill(self) -> None:
        """Close the connection now (a WebSocket with a close frame). Never raises."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            if self.ws is not None and self.ws.state is State.OPEN:
                self.ws.send_close(1000)
                self.sock.send(b"".join(self.ws.data_to_send()))
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    def stderr_tail(self) -> str:
        """A remote engine's stderr stays on its machine."""
        return ""

    def usage(self) -> tuple[float, int] | None:
        """A remote engine's CPU and memory are not measured here: None."""
        return None

    def reset_peak(self) -> None:
        """Nothing to reset: the engine's processes are on the other side."""

    def _gone(self) -> EngineFault:
        """The fault for a connection that ended, or for a WebSocket frame refused (the
        connection is then closed)."""
        if self.ws is not None and self.ws.parser_exc is not None:
            if isinstance(self.ws.parser_exc, PayloadTooBig):
                return EngineFault("flood", f"a WebSocket message over {WS_MAX} bytes")
            return EngineFault("malformed", f"a broken WebSocket frame: {self.ws.parser_exc}")
        if self.ws is not None and self.ws.close_rcvd is not None:
            return EngineFault("disconnect", f"{self.peer} closed the connection "
                                             f"(WebSocket close {self.ws.close_rcvd.code})")
        return EngineFault("disconnect", f"{self.peer} closed the connection")


def _millis(deadline: float) -> float:
    return max(0.0, (deadline - time.monotonic()) * 1000)
