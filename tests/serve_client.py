"""A test client for ``sneferu serve``: the real server over real pipes, through pexpect."""

from __future__ import annotations

import sys
from typing import Any

import msgspec
import pexpect
from pexpect.popen_spawn import PopenSpawn

TIMEOUT = 30


class Reply:
    """A text-mode reply: ok or not, the id echoed, the content lines."""

    def __init__(self, text: str) -> None:
        first, *rest = text.split("\n")
        assert first[:1] in ("=", "?"), f"not a reply: {text!r}"
        self.ok = first[0] == "="
        head, _, content = first[1:].partition(" ")
        self.id = head or None
        self.lines = ([content] if content else []) + rest
        self.text = text

    @property
    def error(self) -> str:
        assert not self.ok, f"expected an error, got {self.text!r}"
        return self.lines[0]

    def __repr__(self) -> str:
        return f"Reply({self.text!r})"


class Server:
    """``python -m sneferu_cli serve ARGS`` as a pexpect child on pipes (``sneferu``: the
    command that runs ``sneferu``, to run it with test-only games registered)."""

    def __init__(self, *args: str,
                 sneferu: tuple[str, ...] = (sys.executable, "-m", "sneferu_cli")) -> None:
        self.json = "--json" in args
        self.child = PopenSpawn([*sneferu, "serve", *args],
                                timeout=TIMEOUT, encoding="utf-8", maxread=1 << 16)

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def reply(self) -> Reply:
        """The next text-mode reply (everything up to the empty line that ends it)."""
        self.child.expect("\n\n")
        return Reply(self.child.before)

    def ask(self, line: str) -> Reply:
        self.send(line)
        return self.reply()

    def ok(self, line: str) -> list[str]:
        """Ask, insist on success, return the content lines."""
        r = self.ask(line)
        assert r.ok, f"{line!r} -> {r.text!r}"
        return r.lines

    def ask_json(self, request: dict[str, Any] | str) -> dict[str, Any]:
        line = request if isinstance(request, str) else msgspec.json.encode(request).decode()
        self.send(line)
        self.child.expect("\n")
        reply: dict[str, Any] = msgspec.json.decode(self.child.before)
        return reply

    def close(self) -> int:
        """Wait for the server to exit (after quit or end of input); its exit status."""
        self.child.expect(pexpect.EOF)
        status: int = self.child.wait()
        return status

    def kill(self) -> None:
        if self.child.proc.poll() is None:
            self.child.proc.kill()
            self.child.proc.wait(TIMEOUT)


def untimed(analysis: dict[str, Any]) -> dict[str, Any]:
    """An ``analyse`` result object without what varies from run to run: its times."""
    return {k: v for k, v in analysis.items() if k not in ("seconds", "playouts_per_second")}
