"""The live page of a running tournament (``sneferu tournament --live HOST:PORT``, SPEC.md
9.11): every game being played drawn as it is played, the clocks, each engine's last
``info``, the standings as they change.

Two halves. In a worker, a :class:`Reporter` turns each event of the game it plays into a
stream message (JSON-ready) drawn from public information only: the picture of the
game's :meth:`~sneferu_cli.game.Game.public_state` (what a spectator may know), the move
of a turn once played (a sealed move only once revealed: the arbiter reports a
simultaneous turn when all its moves are in), and in a game with hidden information
(:meth:`~sneferu_cli.game.Game.hidden`) neither chance outcomes (a private deal) nor the
engines' ``info`` (an engine may write what only it knows). The messages go to the main
process on the worker's pipe. In the main process a :class:`LiveBoard` keeps what has
been shown of every game, holds each game's last ``delay`` moves back until it ends,
and serves the page over HTTP and the messages over a WebSocket (``/stream``) with
``websockets``, in threads of its own.
"""

from __future__ import annotations

import contextlib
import http
import json
import queue
import threading
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from ..game import Game as Rules
from ..game import public_state
from ..record.html import element_helper, filled_page, move_entry, retired_text
from ..record.model import Chance, Event, GameRecord, Retire, Simultaneous, Turn
from .schedule import Game
from .standings import Standings, to_json

__all__ = ["MAX_WATCHERS", "LiveBoard", "Reporter"]

Message = dict[str, Any]
"""One message of the stream (SPEC.md 9.13), JSON-ready."""

MAX_WATCHERS = 64
"""The most pages (stream connections) served at once."""

BACKLOG = 10_000
"""The most messages waiting for one page: a page that reads no more than that is let go
(its connection closed), so that it cannot make the arbiter keep ever more."""

FINISHED_SHOWN = 20
"""How many of the last finished games the page lists."""


class Reporter:
    """In a worker: the stream messages of one game, sent with ``send`` as it is played
    (``on_start`` and ``on_event`` of :func:`~sneferu_cli.arbiter.game.play_game`)."""

    def __init__(self, rules: Rules, game: Game, clocks: Sequence[tuple[int | None, int]],
                 send: Callable[[Message], None]) -> None:
        self.rules = rules
        self.game = game
        self.send = send
        self.open = rules.hidden() is None
        self.clocks = [base for base, _ in clocks]
        self.incs = [inc for _, inc in clocks]
        self.moved = False

    def step(self, state: Any) -> dict[str, Any]:
        return self.rules.page_data(public_state(self.rules, state))

    def on_start(self, state: Any) -> None:
        step = self.step(state)
        board = step.pop("board", None)
        self.send({"type": "start", "game": self.game.number, "seats": list(self.game.seats),
                   "board": board, "edition_name": self.rules.edition_of(state).name,
                   "step": step, "clocks": list(self.clocks)})

    def on_event(self, event: Event, state: Any) -> None:
        step = self.step(state)
        step.pop("board", None)
        if isinstance(event, Turn | Simultaneous):
            turns = event.turns if isinstance(event, Simultaneous) else [event]
            info: dict[str, dict[str, str]] = {}
            for t in turns:
                base = self.clocks[t.seat - 1]
                if base is not None and t.ms is not None:
                    self.clocks[t.seat - 1] = max(0, base - t.ms) + self.incs[t.seat - 1]
                if self.open and t.info:
                    info[str(t.seat)] = t.info
            self.moved = True
            self.send({"type": "move", "game": self.game.number,
                       "move": {**move_entry(event), "clocks": list(self.clocks),
                                "info": info},
                       "step": step})
            return
        draw = None
        if isinstance(event, Retire):
            draw = retired_text(event)
        elif isinstance(event, Chance) and self.open:
            draw = event.outcome
        self.send({"type": "step", "game": self.game.number, "step": step,
                   "draw": draw if self.moved else None})

    def end(self, record: GameRecord) -> None:
        h = record.header
        self.send({"type": "end", "game": self.game.number,
                   "ranks": [r.rank for r in h.result], "termination": h.termination})


class _Shown:
    """One game as the board knows it (everything public) and as it has been shown."""

    def __init__(self, m: Message) -> None:
        self.number: int = m["game"]
        self.seats: list[str] = m["seats"]
        self.board = m["board"]
        self.edition_name: str = m["edition_name"]
        self.clocks0: list[int | None] = m["clocks"]
        self.steps: list[dict[str, Any]] = [m["step"]]
        self.first = m["step"]
        self.moves: list[dict[str, Any]] = []
        self.shown = 0  # moves shown
        self.ended: Message | None = None

    def visible(self, delay: int) -> int:
        return len(self.moves) if self.ended is not None else max(0, len(self.moves) - delay)

    def view(self, delay: int) -> Message:
        """The game as it has been shown: its seats, shown moves and steps."""
        steps = self.steps[:self.shown + 1]
        if delay and self.ended is None and self.shown == len(self.moves):
            steps = [self.first]  # no move shown yet: the start, not what came since
        return {"game": self.number, "seats": self.seats, "board": self.board,
                "edition_name": self.edition_name, "clocks": self.clocks0,
                "moves": self.moves[:self.shown], "steps": steps,
                "end": self.ended}


class LiveBoard:
    """The main process's half (module docstring): :meth:`post` takes the workers'
    messages and the standings, :meth:`serve` serves the page and the stream on
    ``host:port`` until :meth:`close`; :attr:`address` is where it listens."""

    def __init__(self, host: str, port: int, *, title: str, game: str, delay: int = 0
                 ) -> None:
        from websockets.sync.server import serve as ws_serve

        self.title = title
        self.game = game
        self.delay = delay
        self._lock = threading.Lock()
        self._games: dict[int, _Shown] = {}
        self._finished: list[Message] = []
        self._standings: Message = {"type": "standings", "finished": 0, "total": 0,
                                    "standings": None}
        self._watchers: set[queue.SimpleQueue[str | None]] = set()
        self.backlog = BACKLOG
        """The most messages waiting for one page (:data:`BACKLOG`)."""
        try:
            self._server = ws_serve(self._session, host, port, compression=None,
                                    process_request=self._http, max_size=4096)
        except OSError as e:
            raise ValueError(f"live: cannot listen on {host}:{port}: "
                             f"{e.strerror or e}") from None
        where = self._server.socket.getsockname()
        self.address: tuple[str, int] = (where[0], where[1])
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        name="sneferu live", daemon=True)

    def __enter__(self) -> LiveBoard:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving; the pages open see the stream end."""
        with self._lock:
            for q in self._watchers:
                q.put(None)
        self._server.shutdown()
        self._thread.join(5)

    # ---------------------------------------------------------------- what comes in

    def post(self, m: Message) -> None:
        """A message of a worker's :class:`Reporter` (the tournament loop calls this)."""
        with self._lock:
            kind = m["type"]
            if kind == "start":
                g = self._games[m["game"]] = _Shown(m)
                self._send({"type": "start", **g.view(self.delay)})
                return
            g2 = self._games.get(m["game"])
            if g2 is None:
                return
            if kind == "move":
                g2.moves.append(m["move"])
                g2.steps.append(m["step"])
            elif kind == "step":
                g2.steps[-1] = m["step"]
                if m["draw"] is not None and g2.moves:
                    g2.moves[-1]["draws"].append(m["draw"])
            elif kind == "end":
                g2.ended = {"ranks": m["ranks"], "termination": m["termination"]}
            self._show(g2, kind == "step")
            if g2.ended is not None:
                del self._games[g2.number]
                self._finished = [*self._finished[-FINISHED_SHOWN + 1:],
                                  {"game": g2.number, "seats": g2.seats, **g2.ended}]
                self._send({"type": "end", "game": g2.number, "seats": g2.seats,
                            **g2.ended})

    def standings(self, st: Standings, finished: int, total: int) -> None:
        """The standings now (after each committed game): as :func:`~.standings.to_json`
        writes them."""
        data = json.loads(to_json(st))
        with self._lock:
            self._standings = {"type": "standings", "finished": finished, "total": total,
                               "standings": data}
            self._send(self._standings)

    def _show(self, g: _Shown, changed: bool) -> None:
        """Send what of ``g`` may now be shown: its moves up to ``delay`` before the last
        (all once it ended), and its last shown step when it changed."""
        target = g.visible(self.delay)
        while g.shown < target:
            g.shown += 1
            self._send({"type": "move", "game": g.number, "ply": g.shown,
                        "move": g.moves[g.shown - 1], "step": g.steps[g.shown]})
        if changed and g.shown == len(g.moves) and not (self.delay and g.ended is None):
            self._send({"type": "step", "game": g.number, "ply": g.shown,
                        "step": g.steps[g.shown], "draws": g.moves[-1]["draws"]
                        if g.moves else []})

    def _send(self, m: Message) -> None:
        text = json.dumps(m, separators=(",", ":"))
        for q in list(self._watchers):
            if q.qsize() >= self.backlog:  # a page that does not read is let go
                self._watchers.discard(q)
                q.put(None)
            else:
                q.put(text)

    def snapshot(self) -> Message:
        """Everything shown so far: the games being played, the last finished, the
        standings (the stream's first message)."""
        return {"type": "snapshot", "title": self.title, "game": self.game,
                "delay": self.delay,
                "games": [g.view(self.delay) for g in self._games.values()],
                "finished": self._finished, "standings": self._standings}

    # ---------------------------------------------------------------- serving

    def _session(self, conn: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        q: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        with self._lock:
            if len(self._watchers) >= MAX_WATCHERS:
                conn.close(1013, f"over {MAX_WATCHERS} pages at once; try again later")
                return
            q.put(json.dumps(self.snapshot(), separators=(",", ":")))
            self._watchers.add(q)
        try:
            while (text := q.get()) is not None:
                conn.send(text)
        except ConnectionClosed:
            pass
        finally:
            with self._lock:
                self._watchers.discard(q)
            with contextlib.suppress(Exception):
                conn.close()

    def _http(self, conn: Any, request: Any) -> Any:
        """The answer to a plain HTTP request (None: the WebSocket ``/stream``)."""
        path = request.path.partition("?")[0]
        if path == "/stream":
            return None
        if path == "/":
            return _html(conn, self._index())
        if path.startswith("/game/") and path[6:].isdigit():
            page = self._game_page(int(path[6:]))
            if page is not None:
                return _html(conn, page)
            return conn.respond(http.HTTPStatus.NOT_FOUND,
                                f"game {path[6:]} is not being played\n")
        return conn.respond(http.HTTPStatus.NOT_FOUND, "not found: the live page is /\n")

    def _index(self) -> str:
        text = resources.files(__package__).joinpath("live.html").read_text(encoding="utf-8")
        with self._lock:
            blob = json.dumps(self.snapshot(), separators=(",", ":"))
        text = text.replace("/*VIEWER-EL*/\n", element_helper(), 1)
        return text.replace("/*LIVE-DATA*/null", blob.replace("</", "<\\/"), 1)

    def _game_page(self, number: int) -> str | None:
        """The replay page of a game being played, with what has been shown of it, kept
        up to date from the stream."""
        from ..game import get_game

        with self._lock:
            g = self._games.get(number)
            if g is None:
                return None
            view = g.view(self.delay)
        rules = get_game(self.game)
        data = {"title": f"{self.title} · game {number} (live)", "edition": view["board"],
                "edition_name": view["edition_name"],
                "seats": [{"seat": i, "name": n} for i, n in enumerate(view["seats"], 1)],
                "moves": view["moves"], "steps": view["steps"], "live": number}
        page = filled_page(rules.name, rules.title, data)
        script = resources.files(__package__).joinpath("live-game.js").read_text(
            encoding="utf-8")
        return page.replace("</body>", f"<script>\n{script}</script>\n</body>", 1)


def _html(conn: Any, text: str) -> Any:
    response = conn.respond(http.HTTPStatus.OK, text)
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Cache-Control"] = "no-store"
    return response
