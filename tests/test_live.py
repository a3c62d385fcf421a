"""``sneferu tournament --live``: the live page of a running tournament (SPEC.md 9.13).

A real tournament of bundled and slow engines serves its page and stream on 127.0.0.1; the
stream of a Silver & Gold tournament is read whole and holds no private card and no sealed
move before the rules make it public (G21, G22); a real headless Chromium opens the page
mid-tournament and sees moves appear and the standings; the delay is checked on the board
itself, message by message."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from support import ROOT
from test_replay_html import browser  # noqa: F401 (the fixture)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sneferu_cli.record.jsonl import read_any
from sneferu_cli.record.model import Chance, Simultaneous, Turn
from sneferu_cli.record.text import decode_records
from sneferu_cli.tournament.live import LiveBoard
from sneferu_cli.tournament.standings import compute_standings

LIMIT = 240
"""Seconds a whole test's tournament may take at most (both cores busy)."""

SLOW_ANY = ROOT / "tests" / "engines" / "slow_any.py"


def slow_any(ms: int) -> str:
    """An engine of every game taking ``ms`` a move, telling its view and move in info."""
    return f"{sys.executable} {SLOW_ANY} {ms}"


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """A tournament with a live page on any free port of 127.0.0.1: the run and the
    page's address (host:port), read from what it says on stderr."""
    p = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "tournament", *args,
                          "--live", "127.0.0.1:0", "--records", str(tmp_path / "t.records")],
                         cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    assert p.stderr is not None
    for line in p.stderr:
        m = re.search(r"the live page is at http://(127\.0\.0\.1:\d+)/", line)
        if m:
            return p, m[1]
    p.wait(LIMIT)
    raise AssertionError(f"no live page said (exit {p.returncode})")


def read_stream(where: str) -> list[str]:
    """Every message of the stream, from connecting to its end (the tournament's)."""
    out = []
    with connect(f"ws://{where}/stream", open_timeout=LIMIT) as ws:
        try:
            while True:
                out.append(str(ws.recv(timeout=LIMIT)))
        except ConnectionClosed:
            pass
    return out


def records(path: Path) -> dict[int, Any]:
    """The games of a record file by tournament game number."""
    rf = read_any(decode_records(path.read_bytes()), str(path))
    return {int(g.record.header.round): g.record for g in rf.games}


def test_the_silver_gold_stream_shows_no_private_card_or_sealed_move(tmp_path):
    """G22: no seat's dealt cards, no deal, no returned card; G21: no sealed move before it
    is revealed, no sealed marker; an engine's info (here its view and its coming move) is
    not shown in a game with hidden information."""
    p, where = start(tmp_path, "--game", "silver-gold", "--engine",
                     f"name=a command='{slow_any(30)}'", "--engine", "name=b command=random",
                     "--deals", "1", "--movetime", "5000", "--seed", "4", "-j", "2")
    stream = read_stream(where)
    assert p.wait(LIMIT) == 0, p.stderr.read() if p.stderr else ""
    games = records(tmp_path / "t.records")
    assert len(games) == 2
    text = "\n".join(stream)
    assert re.search(r"dealt:\d", text) is None and "sealed:" not in text
    assert re.search(r"deal:\d+,", text) is None  # the private chance outcomes
    assert '"string"' not in text and '"pv"' not in text
    messages = [json.loads(m) for m in stream]
    seen_moves = 0
    for number, rec in games.items():
        dealt = [e.outcome.removeprefix("~deal:") for e in rec.events
                 if isinstance(e, Chance) and e.outcome.startswith("~deal:")]
        assert len(dealt) == 2  # a deal a seat, in seat order
        for cards in dealt:
            assert cards not in text
        sealed = [e for e in rec.events if isinstance(e, Simultaneous | Turn)]
        for m in messages:
            views = ([g for g in m["games"] if g["game"] == number] if m["type"] == "snapshot"
                     else [m] if m.get("game") == number and m["type"] != "end" else [])
            for v in views:
                steps = v["steps"] if "steps" in v else [v["step"]]
                shown = len(v["moves"]) if "moves" in v else v.get("ply", 0)
                if m["type"] == "move":
                    seen_moves += 1
                    assert m["move"]["info"] == {}
                for step in steps:
                    for seat in step["seats"]:
                        assert seat["dealt"] == [] and seat["sealed"] is False
                        if shown == 0:  # before the keeps are revealed: no card in play
                            assert seat["cards"] == []
                # no sealed move of a later turn shows before its turn is revealed
                later = json.dumps(v, separators=(",", ":"))
                for e in sealed[shown:]:
                    if isinstance(e, Simultaneous):
                        for t in e.turns:
                            pattern = rf"(?<![0-9]){re.escape(t.move)}(?![0-9a-e,])"
                            assert re.search(pattern, later) is None, (number, t.move)
    assert seen_moves > 20  # the games were followed move by move


def test_the_page_opened_mid_tournament_shows_moves_and_standings(tmp_path, browser):  # noqa: F811
    p, where = start(tmp_path, "--engine", f"name=slow command='{slow_any(300)}'",
                     "--engine", "name=random command=random", "--deals", "10",
                     "--movetime", "5000", "--seed", "2", "-j", "1")
    # 20 games of a seat that takes 300 ms a move: minutes of runway however slowly the
    # browser starts on a busy machine; the run is stopped once the page is checked
    try:
        browser.get(f"http://{where}/")
        wait = WebDriverWait(browser, LIMIT)

        def ply() -> tuple[str, int] | None:  # read at once: the cards come and go
            card = browser.execute_script(
                "const c = document.querySelector('#games .game');"
                "return c && [c.id, Number(c.dataset.ply), c.querySelector('.facts').textContent];")
            return None if card is None else (card[0], card[1])

        first = wait.until(lambda d: ply())
        wait.until(lambda d: (now := ply()) is not None and (now[0] != first[0]
                                                            or now[1] > first[1]))
        facts = browser.execute_script(
            "return [...document.querySelectorAll('#games .game .facts')]"
            ".map(f => f.textContent).join('\\n');")
        assert "seat 1 " in facts and "clock" in facts and "info depth 1" in facts
        # a game's own page: the replay drawing, kept up to date
        def open_game() -> str | None:
            """The ply shown by the page of a game being played (None: it just ended)."""
            browser.get(f"http://{where}/")
            now = wait.until(lambda d: ply())
            browser.get(f"http://{where}/game/{now[0].removeprefix('game-')}")
            return browser.execute_script("return document.body.dataset.ply")

        at = int(wait.until(lambda d: open_game()))
        wait.until(lambda d: int(d.execute_script("return document.body.dataset.ply")) > at
                   or d.execute_script("return document.body.dataset.over") == "1")
        assert browser.find_elements(By.CSS_SELECTOR, "#moves li")
        # the standings, once a game is finished
        browser.get(f"http://{where}/")
        names = wait.until(lambda d: d.execute_script(
            "const r = [...document.querySelectorAll('#standings tr.engine td:first-child')];"
            "return r.length === 2 && r.map(td => td.textContent).sort();"))
        assert names == ["random", "slow"]
        assert browser.find_elements(By.CSS_SELECTOR, "#finished li")
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)  # stop the run now (SPEC 9.8: exit code 130)
        p.communicate(timeout=LIMIT)
        assert p.returncode in (0, 130)


def board_messages(ws: Any, n: int) -> list[dict[str, Any]]:
    return [json.loads(ws.recv(timeout=30)) for _ in range(n)]


def test_the_delay_holds_the_last_moves_back_until_the_game_ends():
    """--live-delay 2: a game's moves are shown two behind, all at its end; a page
    opened then sees the same; the pages answer over plain HTTP."""
    with LiveBoard("127.0.0.1", 0, title="cup", game="sneferu", delay=2) as board:
        where = f"{board.address[0]}:{board.address[1]}"
        board.post({"type": "start", "game": 7, "seats": ["a", "b"], "board": None,
                    "edition_name": "e", "step": {"n": 0}, "clocks": [1000, 1000]})
        with connect(f"ws://{where}/stream") as ws:
            (snap,) = board_messages(ws, 1)
            assert snap["type"] == "snapshot" and snap["games"][0]["moves"] == []
            for k in range(1, 4):
                board.post({"type": "move", "game": 7, "step": {"n": k},
                            "move": {"seat": 1, "move": f"m{k}", "draws": [], "ms": 5,
                                     "clocks": [995, 1000], "info": {}}})
            board.post({"type": "step", "game": 7, "step": {"n": 31}, "draw": "d"})
            (m,) = board_messages(ws, 1)  # only move 1: moves 2 and 3 held back
            assert (m["type"], m["ply"], m["move"]["move"], m["step"]) == ("move", 1, "m1",
                                                                          {"n": 1})
            page = urllib.request.urlopen(f"http://{where}/game/7").read().decode()
            assert '"moves":[{"seat":1,"move":"m1"' in page and "m2" not in page
            board.standings(compute_standings([]), 0, 4)
            (st,) = board_messages(ws, 1)
            assert st["type"] == "standings" and st["total"] == 4
            board.post({"type": "end", "game": 7, "ranks": [1, 2], "termination": "normal"})
            got = board_messages(ws, 3)
            assert [(g["type"], g.get("ply")) for g in got] == [("move", 2), ("move", 3),
                                                               ("end", None)]
            assert got[1]["step"] == {"n": 31} and got[1]["move"]["draws"] == ["d"]
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"http://{where}/game/7")
        assert e.value.code == 404
        index = urllib.request.urlopen(f"http://{where}/").read().decode()
        assert '"finished":[{"game":7' in index


@pytest.mark.parametrize(("flags", "error"), [
    (["--live", "nowhere"], "live: 'nowhere' (expected HOST:PORT"),
    (["--live", "0", "--cluster", "local:1"], "live: not with a cluster"),
])
def test_bad_live_settings_are_one_line_errors(tmp_path, flags, error):
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "--engine",
                        "name=a command=random", "--engine", "name=b command=random",
                        *flags], cwd=tmp_path, capture_output=True, text=True, timeout=LIMIT)
    assert r.returncode == 2 and error in r.stderr and "Traceback" not in r.stderr


def test_a_page_that_does_not_read_is_let_go_and_the_others_go_on():
    """A stream client that never reads cannot make the board keep its messages without
    end: past its backlog it is dropped; a page that reads gets every message."""
    with LiveBoard("127.0.0.1", 0, title="cup", game="sneferu") as board:
        board.backlog = 50
        where = f"{board.address[0]}:{board.address[1]}"
        with connect(f"ws://{where}/stream", max_size=None, max_queue=1), \
                connect(f"ws://{where}/stream") as reader:
            assert board_messages(reader, 1)[0]["type"] == "snapshot"
            board.post({"type": "start", "game": 1, "seats": ["a", "b"], "board": None,
                        "edition_name": "e", "step": {"n": 0}, "clocks": [1000, 1000]})
            got = 1
            for k in range(1, 2001):  # moves of 20 kB: more than the idle page's buffers
                board.post({"type": "move", "game": 1, "step": {"n": k, "pad": "x" * 20000},
                            "move": {"seat": 1, "move": f"m{k}", "draws": [], "ms": 5,
                                     "info": {}}})
                while got < k + 1:  # the reader keeps up
                    got += len(board_messages(reader, 1))
            assert len(board._watchers) == 1  # the idle page was let go
        assert got == 2001
