"""The server loop: requests in, replies out, one at a time (SPEC.md, section 10).

:func:`serve` reads request lines from a byte stream in bounded pieces (a line over the
limit is skipped and answered with an error, never held in memory whole), hands each to
a :class:`~sneferu_cli.serve.session.Session`, and writes the reply: GTP-style text, or
one JSON object a line in JSON mode. A bad request gets an error reply and the server
goes on; it stops at ``quit`` or at the end of its input.

>>> import io
>>> out = io.BytesIO()
>>> serve(io.BytesIO(b"1 new players=2 seed=3\\nbogus\\n2 games\\n"), out)
>>> print(out.getvalue().decode(), end="")
=1 g1
<BLANKLINE>
? unknown command 'bogus' (the command 'commands' lists them)
<BLANKLINE>
=2 g1 edition=standard variant=standard players=2 seed=3 turn=setup history=0
<BLANKLINE>
>>> out = io.BytesIO()
>>> serve(io.BytesIO(b'{"id": 1, "command": "new", "players": 2}\\n'), out, json_mode=True)
>>> out.getvalue()
b'{"id":1,"ok":true,"result":{"game":"g1"}}\\n'
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, NamedTuple

import msgspec

from ..record.jsonl import upgrade
from .files import FileAccess
from .requests import COMMANDS, Request, RequestError, parse_request
from .session import MAX_ANALYSE_MS, MAX_GAMES, Result, Session

MAX_LINE = 1 << 20
"""The longest request line served, in bytes (without the line end): 1 MiB."""

RequestId = str | int | None


class Reply(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A JSON-mode reply: ``ok`` with a ``result``, or not ok with an ``error``."""

    id: str | int | None = None
    ok: bool
    result: Result | None = None
    error: str | None = None


class _TooLong(NamedTuple):
    head: bytes  # the line's first bytes, to find its id


def serve(inp: BinaryIO, out: BinaryIO, *, json_mode: bool = False,
          max_line: int = MAX_LINE, max_games: int = MAX_GAMES,
          files: FileAccess | None = None, max_analyse_ms: int = MAX_ANALYSE_MS) -> None:
    """Serve requests from ``inp`` until ``quit`` or its end, replying on ``out``; files
    are read only as ``files`` allows (none by default)."""
    def write(reply: bytes) -> None:
        out.write(reply)
        out.flush()

    serve_lines(_lines(inp, max_line), write, json_mode=json_mode, max_line=max_line,
                max_games=max_games, files=files, max_analyse_ms=max_analyse_ms)


def serve_lines(lines: Iterable[bytes | _TooLong], write: Callable[[bytes], None], *,
                json_mode: bool = False, max_line: int = MAX_LINE,
                max_games: int = MAX_GAMES, files: FileAccess | None = None,
                max_analyse_ms: int = MAX_ANALYSE_MS) -> None:
    """One session: answer each request line until ``quit`` or the end of ``lines``,
    each reply given to ``write`` whole."""
    session = Session(max_games, files, max_analyse_ms)
    codec: _Codec = _Json() if json_mode else _Text()
    for line in lines:
        if isinstance(line, _TooLong):
            reply = codec.error(codec.sniff_id(line.head),
                                f"request line longer than {max_line} bytes; ignored")
        else:
            reply = _answer(session, codec, line)
        write(reply)
        if session.quitting:
            return


MAX_CONNECTIONS = 64
"""The most WebSocket sessions ``sneferu serve --listen`` serves at once."""


def serve_websocket(host: str, port: int, *, ready: Callable[[str], None],
                    json_mode: bool = False, max_line: int = MAX_LINE,
                    max_games: int = MAX_GAMES, files: FileAccess | None = None,
                    max_analyse_ms: int = MAX_ANALYSE_MS) -> None:
    """Serve WebSocket connections on ``host:port`` until interrupted (SPEC.md 10.12):
    each connection is one session; each message holds request lines (LF between them),
    each reply is one message. ``ready`` gets the ``ws://`` address once listening.
    OSError when it cannot listen."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.server import ServerConnection
    from websockets.sync.server import serve as ws_serve

    live = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def session(conn: ServerConnection) -> None:
        if not live.acquire(blocking=False):
            conn.close(1013, f"over {MAX_CONNECTIONS} sessions at once; try again later")
            return
        try:
            def lines() -> Iterator[bytes]:
                for message in conn:
                    data = message.encode() if isinstance(message, str) else message
                    yield from data.removesuffix(b"\n").split(b"\n")

            serve_lines(lines(), lambda reply: conn.send(reply.decode()),
                        json_mode=json_mode, max_line=max_line, max_games=max_games,
                        files=files, max_analyse_ms=max_analyse_ms)
        except ConnectionClosed:
            pass
        finally:
            live.release()

    with ws_serve(session, host, port, max_size=max_line + 1, compression=None) as server:
        where = server.socket.getsockname()
        ready(f"ws://{where[0]}:{where[1]}")
        server.serve_forever()


def _answer(session: Session, codec: _Codec, line: bytes) -> bytes:
    rid: RequestId = None
    try:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError("the request is not UTF-8 text",
                               codec.sniff_id(line[:64])) from None
        rid, request = codec.decode(text, session.game_name)
        return codec.ok(rid, session.handle(request))
    except RequestError as e:
        return codec.error(e.id if e.id is not None else rid, str(e))
    except ValueError as e:  # NotationError, IllegalAction, EditionError, ...
        return codec.error(rid, str(e))
    except Exception as e:  # a bug: answer it and keep serving the other games
        print(f"sneferu serve: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return codec.error(rid, f"internal error: {type(e).__name__}: {e}")


def _lines(inp: BinaryIO, limit: int) -> Iterator[bytes | _TooLong]:
    """The input's lines without their line end; a line over ``limit`` bytes as _TooLong."""
    while True:
        line = inp.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1].rstrip(b"\r")
        elif len(line) <= limit:
            yield line.rstrip(b"\r")  # the last line, without a line end
        else:
            head = line[:64]
            while True:  # skip the rest of the line, a piece at a time
                piece = inp.readline(1 << 16)
                if not piece or piece.endswith(b"\n"):
                    break
            yield _TooLong(head)


class _Codec:
    """How requests are read and replies written in one mode."""

    def decode(self, text: str, game_of: Callable[[str], str]
               ) -> tuple[RequestId, Request]:
        """The request of a line; ``game_of`` names the game an open game id plays."""
        raise NotImplementedError

    def ok(self, rid: RequestId, result: Result) -> bytes:
        raise NotImplementedError

    def error(self, rid: RequestId, message: str) -> bytes:
        raise NotImplementedError

    def sniff_id(self, head: bytes) -> RequestId:
        raise NotImplementedError


class _Text(_Codec):
    """GTP style: ``=ID content`` or ``?ID message``, then an empty line."""

    _ID = re.compile(rb"\s*([0-9]+)(?:\s|$)")

    def decode(self, text: str, game_of: Callable[[str], str]
               ) -> tuple[RequestId, Request]:
        return parse_request(text, game_of)

    def ok(self, rid: RequestId, result: Result) -> bytes:
        lines = result.lines()
        head = f"={'' if rid is None else rid}"
        if lines:
            head += " " + lines[0]
        return "\n".join([head, *lines[1:], "", ""]).encode()

    def error(self, rid: RequestId, message: str) -> bytes:
        one_line = " ".join(message.split())
        return f"?{'' if rid is None else rid} {one_line}\n\n".encode()

    def sniff_id(self, head: bytes) -> RequestId:
        m = self._ID.match(head)
        return m.group(1).decode() if m else None


class _Json(_Codec):
    """One JSON object a line each way."""

    _ID = re.compile(rb'"id"\s*:\s*(-?[0-9]+|"[^"\\]*")')

    def decode(self, text: str, game_of: Callable[[str], str]
               ) -> tuple[RequestId, Request]:
        try:
            obj = msgspec.json.decode(text)
        except msgspec.DecodeError as e:
            raise RequestError(f"not JSON: {e}", self.sniff_id(text[:64].encode())) from None
        if not isinstance(obj, dict):
            raise RequestError("a request is a JSON object")
        rid = obj.pop("id", None)
        if isinstance(rid, bool) or not isinstance(rid, int | str | None):
            raise RequestError("id: must be an integer or a string")
        command = obj.get("command")
        if command not in COMMANDS:
            what = f"unknown command {command!r}" if command is not None else "no command"
            raise RequestError(f"{what} (the command 'commands' lists them)", rid)
        try:
            if obj.get("record") is not None:  # maybe of the form before it was generic
                obj["record"] = upgrade(obj["record"])
            request: Request = msgspec.convert(obj, type=Request)
        except ValueError as e:  # msgspec's ValidationError, or an old field malformed
            raise RequestError(f"{command}: {e}", rid) from None
        return rid, request

    def ok(self, rid: RequestId, result: Result) -> bytes:
        return msgspec.json.encode(Reply(id=rid, ok=True, result=result)) + b"\n"

    def error(self, rid: RequestId, message: str) -> bytes:
        return msgspec.json.encode(Reply(id=rid, ok=False, error=message)) + b"\n"

    def sniff_id(self, head: bytes) -> RequestId:
        m = self._ID.search(head)
        return msgspec.json.decode(m.group(1)) if m else None
