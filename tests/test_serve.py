"""``sneferu serve``: every request, good and bad, over real pipes (SPEC.md, section 10).

Each bad request must get an error reply and leave the server serving: every test sends
a good request after each bad one.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from nim_game import register
from recgen import cheap_edition_toml, random_game
from serve_client import TIMEOUT, Server, untimed
from support import ROOT, run_cli

from sneferu_cli.game import get_game
from sneferu_cli.record import format_records, record_to_json, records_to_json
from sneferu_cli.serve import (
    Analyse,
    Chance,
    FileAccess,
    Moves,
    New,
    Outcomes,
    Play,
    Ranking,
    Session,
    Steps,
    Turn,
    Undo,
)


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.kill()


@pytest.fixture
def json_server() -> Iterator[Server]:
    s = Server("--json")
    yield s
    s.kill()


@pytest.fixture
def file_server(tmp_path: Path) -> Iterator[Server]:
    """A text-mode server that may read the files of tmp_path (--files)."""
    s = Server("--files", str(tmp_path))
    yield s
    s.kill()


@pytest.fixture
def json_file_server(tmp_path: Path) -> Iterator[Server]:
    s = Server("--json", "--files", str(tmp_path))
    yield s
    s.kill()


def play_out(server: Server, game: str, rng: random.Random) -> int:
    """Let the server draw chance and play random legal moves to the end; the turns played."""
    played = 0
    while True:
        server.ok(f"chance {game}")
        moves = server.ok(f"moves {game}")
        if not moves:
            assert server.ok(f"turn {game}")[0].startswith("over")
            return played
        assert server.ok(f"play {game} {rng.choice(moves)}") == []
        played += 1


# --------------------------------------------------------------------------- text mode


def test_a_whole_game_through_every_reading_request(server: Server) -> None:
    assert server.ok("new players=2 seed=11") == ["g1"]
    assert server.ok("turn g1") == ["setup"]
    odds = [line.split() for line in server.ok("outcomes g1")]
    assert {o for o, _, _ in odds} <= {"~FOOD1", "~FOOD2", "~NOEXTRA", "~SAVETIME",
                                       "~TIMEFOOD", "~STOREHOUSE"}
    assert sum(float(p) for _, p, _ in odds) == pytest.approx(1, abs=1e-5)
    assert server.ok("moves g1") == [] and server.ok("steps g1") == []
    drawn = server.ok("chance g1")
    assert len(drawn) == 15 + 28 + 2  # tiles, the offer, two boats arriving
    # The game's seed draws exactly what `sneferu position new --seed` draws.
    position = server.ok("position g1")
    assert position == [run_cli("position", "new", "--players", "2", "--seed", "11")
                        .stdout.strip()]
    moves, steps = server.ok("moves g1"), server.ok("steps g1")
    assert moves and {m.split()[0] for m in moves} <= set(steps)
    assert server.ok("outcomes g1") == []
    rng = random.Random(5)
    assert play_out(server, "g1", rng) > 10
    standings = [dict(kv.split("=") for kv in line.split()) for line in server.ok("ranking g1")]
    assert [s["seat"] for s in standings] == ["1", "2"]
    assert {s["rank"] for s in standings} <= {"1", "2"} and "1" in {s["rank"] for s in standings}
    picture = server.ok("show g1")
    assert picture[0].startswith("Sneferu: edition standard") and "" not in picture
    assert picture[-1].startswith("Game over")
    state = msgspec.json.decode(server.ok("state g1 legal")[0])
    assert state["turn"]["phase"] == "over"
    assert state["legal"] == {"moves": [], "steps": [], "outcomes": []}
    assert state["position"] == server.ok("position g1")[0]
    assert "legal" not in msgspec.json.decode(server.ok("state g1")[0])
    games = server.ok("games")
    assert games[0].startswith("g1 edition=standard variant=standard players=2 seed=11 "
                               "turn=over history=")
    assert server.ok("close g1") == [] and server.ok("games") == []
    assert "quit" in server.ok("commands")
    assert server.ok("quit") == []
    assert server.close() == 0


def test_help_gives_every_request_s_syntax_and_a_game_s_move_forms(server: Server) -> None:
    """``help`` lists each command's syntax, one a line, in the order of ``commands``;
    ``help G`` the move forms of the game G plays (its ``move_help``), for every game."""
    syntax = server.ok("help")
    assert [line.split()[0] for line in syntax] == server.ok("commands")
    assert "play G [seat=N] MOVE" in syntax and "help [G]" in syntax
    for n, name in enumerate(("sneferu", "imhotep", "silver-gold", "akropolis"), start=1):
        server.ok(f"new game={name} players=2")
        lines = server.ok(f"help g{n}")
        assert lines == [x for x in get_game(name).move_help.splitlines() if x.strip()]
    assert server.ask("help g9").error


def test_steps_one_at_a_time_and_given_outcomes(server: Server) -> None:
    server.ok("new players=2 seed=4")
    # Give the first tile ourselves, let the server draw the rest of the set-up.
    first = server.ok("outcomes g1")[0].split()[0]
    assert server.ok(f"chance g1 {first}") == [first]
    server.ok("chance g1")
    buy = next(s for s in server.ok("steps g1") if s[0].isdigit())
    assert server.ok(f"step g1 {buy}") == []
    assert server.ok("turn g1")[0].startswith("place:1:")
    place = server.ok("steps g1")[0]
    server.ok(f"step g1 {place}")
    post = server.ok("turn g1")[0].startswith("post:")
    if post:
        server.ok("step g1 done")
    assert server.ok("turn g1") == ["draw:" + buy[0]]
    stone = server.ok("outcomes g1")[0].split()[0]
    assert server.ok(f"chance g1 {stone}") == [stone]
    state = msgspec.json.decode(server.ok("state g1")[0])
    assert state["seats"][0]["stones"] == 1 and state["turn"]["seat"] == 2
    # Each step and outcome is its own entry: undo takes them back one at a time.
    for entry in [stone, *(["done"] if post else []), place, buy]:
        assert server.ok("undo g1") == [entry]
    assert server.ok("turn g1") == ["start:1:0"]


def test_undo_a_step_a_move_and_a_turn(server: Server) -> None:
    server.ok("new players=3 seed=8")
    server.ok("chance g1")
    start = server.ok("position g1")
    move = server.ok("moves g1")[-1]
    server.ok(f"play g1 {move}")
    assert server.ok("undo g1") == [move]  # a whole move is one entry
    assert server.ok("position g1") == start
    server.ok(f"play g1 {move}")
    drawn = server.ok("chance g1")
    next_start = server.ok("position g1")
    # At the start of a turn, undo turn goes back to the start of the previous one,
    # undoing the refill draws on the way.
    assert server.ok("undo g1 turn") == [move, *drawn]
    assert server.ok("position g1") == start
    # In the middle of a turn, undo turn goes back to its start.
    buy = move.split()[0]
    server.ok(f"step g1 {buy}")
    assert server.ok("undo g1 turn") == [buy]
    assert server.ok("position g1") == start
    # Undo one step at a time.
    server.ok(f"step g1 {buy}")
    server.ok("undo g1")
    assert server.ok("position g1") == start
    # Going forward again reaches the same position (the outcomes given, not redrawn).
    server.ok(f"play g1 {move}")
    for o in drawn:
        server.ok(f"chance g1 {o}")
    assert server.ok("position g1") == next_start
    # Back to the opening, and then there is nothing left.
    while True:
        r = server.ask("undo g1 turn")
        if not r.ok:
            break
    assert r.error == "undo: nothing to undo"
    assert server.ok("turn g1") == ["setup"]


def test_load_a_position_solo_ranking_and_builders(server: Server) -> None:
    solo = run_cli("position", "new", "--players", "1", "--seed", "2").stdout.strip()
    assert server.ok(f"load seed=9 {solo}") == ["g1"]
    assert server.ok("position g1") == [solo]
    play_out(server, "g1", random.Random(1))
    ranking = server.ok("ranking g1")
    assert ranking[0].startswith("seat=1 rank=")
    assert ranking[1].startswith("solo won=")
    assert ranking[1].startswith("solo won=no ptah=") or " title=" in ranking[1]
    server.ok("new players=2 builders=Lateef,Heba seed=1 edition=standard")
    server.ok("chance g2")
    seats = msgspec.json.decode(server.ok("state g2")[0])["seats"]
    assert [s["builder"] for s in seats] == ["Lateef", "Heba"]
    server.ok("new players=4 builders=random seed=1")
    drawn = server.ok("chance g3")
    assert sorted(d for d in drawn if d[1:] in ("Aya", "Heba", "Lateef", "Tsekani")) == [
        "~Aya", "~Heba", "~Lateef", "~Tsekani"]  # the builders are drawn at set-up
    seats = msgspec.json.decode(server.ok("state g3")[0])["seats"]
    assert sorted(s["builder"] for s in seats) == ["Aya", "Heba", "Lateef", "Tsekani"]


def test_bad_requests_get_error_replies_and_the_server_goes_on(server: Server) -> None:
    server.ok("new players=2 seed=3")
    server.ok("chance g1")
    good = server.ok("position g1")
    bad_bag = good[0].split(" ")
    bad_bag[4] = "9" + bad_bag[4][1:]  # one stone type too many
    cases = {
        "frobnicate g1": "unknown command 'frobnicate'",
        "": "empty request",
        "   ": "empty request",
        "load standard standard garbage": "request: unexpected",
        " ".join(bad_bag): "position: ",
        "load edition=/nonexistent/ed.toml " + good[0]: "the server reads no files",
        "play g1 1.1 XX@1.1": "request: unexpected",
        "play g1 7.7 TG@1.1": "step 1 (7.7): ",
        "play g1 1.1": "the move is incomplete",
        "step g1 ~BT": "request: unexpected",
        "chance g1 ~BT": "not a chance node (seat 1 is to move)",
        "chance g1 ~QQ": "unknown tile 'QQ'",
        "moves g42": "no open game 'g42'",
        "moves 42": "request: unexpected",
        "new players=7": "players: 7 (1 to 4)",
        "new players=2 players=3": "option players= given twice",
        "new builders=Nobody,Heba players=2": "unknown builder 'Nobody'",
        "undo g1 twice": "request: unexpected",
        "close g9": "no open game 'g9'",
    }
    for line, message in cases.items():
        if line.startswith("standard "):
            line = "load " + line
        r = server.ask(line)
        assert not r.ok and r.id is None, (line, r)
        assert message in r.error, (line, r.error)
        assert "\n" not in r.error
        assert server.ok("position g1") == good  # still serving, the game unchanged
    # The id is echoed in success and error replies alike.
    r = server.ask("42 turn g1")
    assert r.ok and r.id == "42" and r.lines == ["start:1:0"]
    r = server.ask("  42   turn   g1  ")  # any run of spaces separates words
    assert r.ok and r.id == "42" and r.lines == ["start:1:0"]
    r = server.ask("43 moves g99")
    assert not r.ok and r.id == "43" and "g99" in r.error
    r = server.ask("44 frobnicate")
    assert not r.ok and r.id == "44"
    r = server.ask("45")
    assert not r.ok and r.id == "45" and r.error == "a request id but no command"
    # A line over the limit (1 MiB) is skipped in pieces and answered with an error.
    for rid in ("", "46 "):
        r = server.ask(rid + "play g1 " + "x" * (1 << 20))
        assert not r.ok and r.error == "request line longer than 1048576 bytes; ignored"
        assert r.id == (rid.strip() or None)
        assert server.ok("position g1") == good
    # Bytes that are not UTF-8.
    server.child.proc.stdin.write(b"47 turn \xff\xfe\n")
    server.child.proc.stdin.flush()
    r = server.reply()
    assert not r.ok and r.id == "47" and "not UTF-8" in r.error
    # Undo with nothing to undo, an illegal step.
    server.ok("new players=2")
    assert server.ask("undo g2").error == "undo: nothing to undo"
    assert "not allowed during set-up" in server.ask("step g2 done").error
    assert server.ok("turn g1") == ["start:1:0"]


def test_too_many_games_and_closing_frees_a_place() -> None:
    server = Server("--max-games", "2")
    try:
        assert server.ok("new") == ["g1"] and server.ok("new") == ["g2"]
        r = server.ask("new")
        assert r.error == "too many open games (2, the server's --max-games); close one first"
        pos = run_cli("position", "new", "--players", "2", "--seed", "1").stdout.strip()
        assert "too many open games" in server.ask(f"load {pos}").error
        server.ok("close g1")
        assert server.ok(f"load {pos}") == ["g3"]  # ids are never reused
        assert [line.split()[0] for line in server.ok("games")] == ["g2", "g3"]
    finally:
        server.kill()


def test_end_of_input_stops_the_server_cleanly() -> None:
    r = run_cli("serve", stdin="new seed=1\nturn g1")  # the last line has no line end
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == "= g1\n\n= setup\n\n"


def test_serve_help_and_bad_option() -> None:
    assert "--max-games" in run_cli("serve", "--help").stdout
    r = run_cli("serve", "--max-games", "0")
    assert r.returncode == 2 and "max-games" in r.stderr and "Traceback" not in r.stderr


# --------------------------------------------------------------------------- JSON mode


def test_json_mode_game(json_server: Server) -> None:
    s = json_server
    assert s.ask_json({"id": 1, "command": "new", "players": 2, "seed": 11,
                       "builders": ["Aya", "Heba"]}) == {"id": 1, "ok": True,
                                                         "result": {"game": "g1"}}
    odds = s.ask_json({"command": "outcomes", "game": "g1"})["result"]["outcomes"]
    assert set(odds[0]) == {"outcome", "weight", "probability"}
    drawn = s.ask_json({"command": "chance", "game": "g1"})["result"]["drawn"]
    assert len(drawn) == 45
    state = s.ask_json({"command": "state", "game": "g1", "legal": True})["result"]["state"]
    # The builders variant starts on space 2; Aya brings 4 food, Heba 5.
    assert state["turn"] == {"phase": "start", "seat": 1, "start_space": 2, "hand": None,
                             "can_store": False, "refills": [], "chance": None, "number": 1}
    assert [seat["builder"] for seat in state["seats"]] == ["Aya", "Heba"]
    assert state["seats"][0]["boat"] == {"space": 2, "order": 1}
    assert [seat["food"] for seat in state["seats"]] == [4, 5]
    assert state["seats"][1]["pyramid"] == [[None] * n for n in range(6, 0, -1)]
    assert sum(state["bag"].values()) == 100 - 28 and list(state["bag"])[:2] == ["BT", "BM"]
    assert [len(col) for col in state["offer"]] == [7, 7, 7, 7]
    assert state["quarries"][0] == {"space": 3, "material": "B", "eye": True,
                                    "tile": state["position"].split()[2].split(",")[0]}
    assert state["ptah"] is None and state["solo"] is False
    move = state["legal"]["moves"][0]
    assert state["legal"]["outcomes"] == [] and move.split()[0] in state["legal"]["steps"]
    assert s.ask_json({"id": "x", "command": "play", "game": "g1", "move": move}) == {
        "id": "x", "ok": True, "result": {}}
    assert s.ask_json({"command": "turn", "game": "g1"})["result"]["turn"].startswith("draw:")
    assert s.ask_json({"command": "undo", "game": "g1"})["result"] == {"undone": [move]}
    assert s.ask_json({"command": "step", "game": "g1", "step": move.split()[0]})["ok"]
    assert s.ask_json({"command": "undo", "game": "g1", "turn": True})["ok"]
    r = s.ask_json({"command": "ranking", "game": "g1"})["result"]
    assert r == {"ranking": [{"seat": 1, "rank": 2, "scores": {"stones": 0, "food": 4}},
                             {"seat": 2, "rank": 1, "scores": {"stones": 0, "food": 5}}]}
    pos = s.ask_json({"command": "position", "game": "g1"})["result"]["position"]
    assert s.ask_json({"command": "load", "position": pos})["result"] == {"game": "g2"}
    assert "Seat 1 to move" in s.ask_json({"command": "show", "game": "g2"})["result"]["picture"]
    games = s.ask_json({"command": "games"})["result"]["games"]
    assert [g["game"] for g in games] == ["g1", "g2"] and games[0]["seed"] == 11
    assert s.ask_json({"command": "close", "game": "g2"})["ok"]
    assert "load" in s.ask_json({"command": "commands"})["result"]["commands"]
    assert s.ask_json({"command": "help", "game": "g1"})["result"]["help"].startswith("Type")
    assert s.ask_json({"id": 9, "command": "quit"}) == {"id": 9, "ok": True, "result": {}}
    assert s.close() == 0


def test_json_mode_bad_requests(json_server: Server) -> None:
    s = json_server
    s.ask_json({"command": "new", "seed": 1})
    cases: list[tuple[dict[str, object] | str, object, str]] = [
        ("not json", None, "not JSON"),
        ("[1, 2]", None, "a request is a JSON object"),
        ("", None, "not JSON"),
        ({"id": 3}, 3, "no command"),
        ({"id": 4, "command": "frobnicate"}, 4, "unknown command 'frobnicate'"),
        ({"id": "a", "command": "moves", "game": "g9"}, "a", "no open game 'g9'"),
        ({"id": 5, "command": "new", "players": "two"}, 5, "Expected `int`"),
        ({"id": 6, "command": "play", "game": "g1"}, 6, "missing required field `move`"),
        ({"id": 7, "command": "play", "game": "g1", "move": "1.1", "x": 1}, 7,
         "unknown field `x`"),
        ({"id": 8, "command": "load", "position": "standard nonsense"}, 8, "position: "),
        ({"id": 9, "command": "step", "game": "g1", "step": "~BT"}, 9, "a chance outcome"),
        ({"id": 10, "command": "play", "game": "g1", "move": "1.1 TG@1.1"}, 10,
         "not allowed during set-up"),
        ({"id": [1], "command": "games"}, None, "id: must be an integer or a string"),
        ('{"id": 11, "command": "play", "game": "g1", "move": "' + "x" * (1 << 20) + '"}',
         11, "request line longer than 1048576 bytes; ignored"),
    ]
    for request, rid, message in cases:
        reply = s.ask_json(request)
        assert reply["ok"] is False and message in reply["error"], (request, reply)
        assert reply.get("id") == rid, (request, reply)
        assert s.ask_json({"command": "turn", "game": "g1"})["result"] == {"turn": "setup"}


# --------------------------------------------------------------------------- resources


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_many_games_do_not_grow_memory_without_bound() -> None:
    """Open, play (step by step), undo and close 250 games, ten open at a time: the
    server's resident memory after a warm-up (30 games) and at the end (220 more)
    differ by a bounded amount.

    A resource check, not an interactive session: plain pipes, many round trips.
    """
    proc = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "serve", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    rng = random.Random(2)

    def ask(**request: object) -> dict[str, object]:
        stdin.write(msgspec.json.encode(request) + b"\n")
        stdin.flush()
        reply = msgspec.json.decode(stdout.readline())
        assert reply["ok"], (request, reply)
        result = reply["result"]
        assert isinstance(result, dict)
        return result

    def batch() -> None:
        games = [ask(command="new", players=rng.randint(1, 4), seed=rng.randrange(1000))["game"]
                 for _ in range(10)]
        for turn in range(8):
            for g in games:
                ask(command="chance", game=g)
                while steps := ask(command="steps", game=g)["steps"]:
                    assert isinstance(steps, list)
                    ask(command="step", game=g, step=rng.choice(steps))
                if turn % 4 == 3:
                    ask(command="undo", game=g, turn=True)
        for g in games:
            ask(command="close", game=g)

    try:
        for _ in range(3):
            batch()
        warm = _rss_kib(proc.pid)
        for _ in range(22):
            batch()
        end = _rss_kib(proc.pid)
        assert ask(command="games") == {"games": []}
        assert ask(command="new")["game"] == "g251"
        ask(command="quit")
        assert proc.wait(TIMEOUT) == 0
    finally:
        proc.kill()
        proc.wait(TIMEOUT)
    # Observed: ~12 KiB of growth; keeping the closed games alive would add ~6 MiB.
    assert end - warm < 3 * 1024, f"RSS grew from {warm} KiB to {end} KiB over 220 games"


def test_the_readme_example_session() -> None:
    """README, "Embedding": the printf | sneferu serve line gives the replies it names."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Embedding (sneferu serve)", 1)[1].split("\n## ", 1)[0]
    line = next(x for x in section.splitlines() if x.startswith("printf "))
    requests = line.split("'")[1].encode().decode("unicode_escape")
    r = run_cli("serve", stdin=requests)
    heads = [reply.split("\n")[0] for reply in r.stdout.split("\n\n") if reply]
    assert heads == ["=1 g1", "=2 ~" + heads[1][4:], "=3", "=4 draw:1"]
    assert "`=1 g1`" in section and "`=4 draw:1`" in section


# --------------------------------------------------------------------------- records


def test_load_a_record_at_a_ply_and_verify_records(file_server: Server, tmp_path: Path
                                                    ) -> None:
    server = file_server
    positions: list[str] = []
    first = random_game(2, 5, positions=positions)
    second = random_game(3, 6, max_turns=4)
    path = tmp_path / "games.rec"
    path.write_text(format_records([first, second]))
    turns = len(positions) - 1
    assert server.ok(f"verify {path}") == [f"number=1 valid turns={turns}",
                                           "number=2 valid turns=4"]
    assert server.ok(f"load-record ply=3 {path}") == ["g1"]
    assert server.ok("position g1") == [positions[3]]
    server.ok("chance g1")
    assert server.ok("moves g1")  # a seat is to move: play on from there
    assert server.ok(f"load-record {path}") == ["g2"]  # the final position by default
    assert server.ok("position g2") == [positions[-1]] and server.ok("moves g2") == []
    assert server.ok(f"load-record number=2 ply=-1 seed=4 {path}") == ["g3"]
    assert server.ok("games")[-1].startswith("g3 edition=standard variant=standard players=3 "
                                             "seed=4 turn=")
    # One record inline, in its JSON encoding.
    assert server.ok(f"load-record ply=0 {record_to_json(first)}") == ["g4"]
    assert server.ok("position g4") == [positions[0]]
    assert server.ok(f"verify {record_to_json(first)}") == [f"number=1 valid turns={turns}"]
    # A record that does not verify: a line per game says why.
    wrong = tmp_path / "wrong.rec"
    wrong.write_text(format_records([second, first]).replace("[Termination normal]",
                                                             "[Termination aborted]"))
    lines = server.ok(f"verify {wrong}")
    assert lines[0] == "number=1 valid turns=4"
    assert lines[1].startswith("number=2 invalid ") and "[Termination aborted]" in lines[1]
    assert server.ok(f"load-record number=2 {wrong}") == ["g5"]  # loads what replays
    cut = tmp_path / "cut.rec"
    # Cut off while being written, even in the middle of a character.
    cut.write_bytes(format_records([first]).removesuffix("end of game\n").encode()
                    + "{☥".encode()[:2])
    (line,) = server.ok(f"verify {cut}")
    assert line.startswith("number=1 invalid ") and "cut off" in line
    cases = {
        "verify /nonexistent/games.rec": "/nonexistent/games.rec: outside the folder",
        "verify nothere.rec": "nothere.rec: cannot read the record: No such file",
        f"load-record number=3 {path}": "holds 2 game(s), there is no game 3",
        f"load-record ply={turns + 1} {path}": f"has plies 0 to {turns}, not {turns + 1}",
        "load-record {not json": "record: not JSON",
        'verify {"header": {}}': "Object missing required field `players`",
        f"load-record edition=nothere.toml {path}": "nothere.toml: cannot read the edition",
    }
    garbage = tmp_path / "garbage.rec"
    garbage.write_text("[Event \"x\"]\nnonsense\nend of game\n")
    cases[f"verify {garbage}"] = str(garbage)
    for line, message in cases.items():
        r = server.ask(line)
        assert not r.ok and message in r.error, (line, r)
        assert server.ok("turn g1")  # still serving
    assert server.ok("verify games.rec") == server.ok(f"verify {path}")  # relative to --files


def test_json_mode_records(json_file_server: Server, tmp_path: Path) -> None:
    positions: list[str] = []
    game = random_game(1, 3, positions=positions)
    path = tmp_path / "solo.jsonl"
    path.write_text(records_to_json([game]))
    s = json_file_server
    assert s.ask_json({"command": "verify", "path": str(path)})["result"] == {
        "games": [{"number": 1, "valid": True, "turns": len(positions) - 1}]}
    record = msgspec.json.decode(record_to_json(game))
    r = s.ask_json({"id": 1, "command": "load-record", "record": record, "ply": 2})
    assert r == {"id": 1, "ok": True, "result": {"game": "g1"}}
    assert s.ask_json({"command": "position", "game": "g1"})["result"]["position"] == \
        positions[2]
    r = s.ask_json({"id": 2, "command": "verify", "path": str(path), "record": record})
    assert r["ok"] is False and "not both" in r["error"]
    r = s.ask_json({"id": 3, "command": "verify"})
    assert r["ok"] is False and r["id"] == 3 and "a record file's path or one record" in r["error"]


# --------------------------------------------------------------------------- file access


SECRET = "root:x:0:0:the secret line"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """tmp_path/served: a record, an edition, and every way out of the folder; outside
    it, a secret file."""
    (tmp_path / "secret.txt").write_text(SECRET + "\n")
    served = tmp_path / "served"
    served.mkdir()
    (served / "games.rec").write_text(format_records([random_game(2, 5)]))
    (served / "cheap.toml").write_text(cheap_edition_toml())
    (served / "inside.txt").write_text(SECRET + "\n")
    (served / "out").symlink_to(tmp_path / "secret.txt")
    (served / "outdir").symlink_to(tmp_path)
    (served / "in").symlink_to(served / "games.rec")
    (served / "sub").mkdir()
    os.mkfifo(served / "fifo")
    (served / "big.rec").write_text(format_records([random_game(2, 6)]) * 40)
    return served


ESCAPES = {
    "{secret}": "outside the folder the server reads (--files)",
    "../secret.txt": "outside the folder",
    "sub/../../secret.txt": "outside the folder",
    "out": "outside the folder",  # a symbolic link out
    "outdir/secret.txt": "outside the folder",  # through a linked folder
    "/etc/passwd": "outside the folder",
    "/proc/self/environ": "outside the folder",
    "/dev/zero": "outside the folder",
    "fifo": "fifo: not a regular file",  # answered at once: a FIFO is never opened to wait
    "sub": "sub: not a regular file",
    "big.rec": "big.rec: larger than 20000 bytes (the server's --max-file)",
    "inside.txt": "inside.txt, line 1: not a valid record (the server does not quote files",
}


@pytest.mark.parametrize("json_mode", [False, True])
def test_files_are_read_only_inside_the_folder_given(folder: Path, json_mode: bool) -> None:
    """Every way out of --files DIR is refused, for verify, load-record and edition=, in
    both modes; no error quotes a file; the server goes on serving after each."""
    server = Server(*(["--json"] if json_mode else []), "--files", str(folder),
                    "--max-file", "20000")

    def error(request: dict[str, object]) -> str:
        request = dict(request)
        if json_mode:
            r = server.ask_json(request)
            assert r["ok"] is False, (request, r)
            return str(r["error"])
        command = str(request.pop("command"))
        path = request.pop("path", None) or ""
        words = [command] + [f"{k}={v}" for k, v in request.items()] + [str(path)]
        reply = server.ask(" ".join(w for w in words if w))
        assert not reply.ok, (words, reply)
        return reply.error

    try:
        for name, message in ESCAPES.items():
            name = name.format(secret=folder.parent / "secret.txt")
            for request in ({"command": "verify", "path": name},
                            {"command": "load-record", "path": name},
                            {"command": "new", "edition": name},
                            {"command": "verify", "path": "games.rec", "edition": name}):
                text = error(request)
                want = message
                if "edition" in request:
                    want = want.replace(", line 1: not a valid record", ": not a usable "
                                        "edition file")
                assert want in text and "secret line" not in text, (request, text)
        if json_mode:
            assert server.ask_json({"command": "verify", "path": "in"})["ok"] is True
            r = server.ask_json({"command": "new", "players": 2, "edition": "cheap.toml"})
            assert r["ok"] is True
        else:
            assert server.ok("verify in")[0].startswith("number=1 valid turns=")
            assert server.ok("new players=2 edition=cheap.toml") == ["g1"]
    finally:
        server.kill()


def test_without_files_the_server_reads_no_file(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "games.rec"
    path.write_text(format_records([random_game(2, 5)]))
    for request in (f"verify {path}", f"load-record {path}", f"new edition={path}"):
        assert server.ask(request).error == (f"{path}: the server reads no files (start it "
                                             "with --files DIR)")
    assert server.ok(f"verify {record_to_json(random_game(2, 5))}")  # inline records still


# --------------------------------------------------------------------------- Imhotep


def test_an_imhotep_game_through_the_text_server(server: Server) -> None:
    """``new game=imhotep``: the server plays another game through its interface; its moves
    are single decisions (no steps), its positions load back, a whole game is played."""
    assert server.ok("new game=imhotep players=3 seed=7 variant=BABAB") == ["g1"]
    assert server.ok("games") == ["g1 edition=standard variant=BABAB players=3 seed=7 "
                                  "turn=chance history=0 plays=imhotep"]
    odds = [line.split() for line in server.ok("outcomes g1")]
    assert [(p, w) for _, p, w in odds] == [("0.142857", "1")] * 7  # seven round cards
    assert {o for o, _, _ in odds} == {f"~R3-{k}" for k in range(1, 8)}
    assert server.ok("moves g1") == []
    drawn = server.ok("chance g1")
    assert drawn[0].startswith("~R3-")  # the round card, then the market display's cards
    assert len(drawn) > 1 and not any(d.startswith("~R") for d in drawn[1:])
    turn = server.ok("turn g1")[0]
    assert turn == "seat:1"
    moves = server.ok("moves g1")
    assert moves[0] == "Q" and "L 4A.1" in moves
    state = msgspec.json.decode(server.ok("state g1 legal")[0])
    assert state["game"] == "imhotep" and state["turn"] == {"over": False, "chance": False,
                                                            "seat": 1}
    assert state["legal"]["moves"] == moves and state["legal"]["outcomes"] == []
    assert state["data"]["sides"] == "BABAB" and len(state["data"]["seats"]) == 3
    assert state["position"] == server.ok("position g1")[0]
    # Bad moves are error replies naming what is wrong; the game goes on.
    assert server.ask("play g1 L 9Z.1").error.startswith("illegal move")
    assert server.ask("play g1 load it").error.startswith("bad move")
    assert server.ask("play g1").error == "play: no move after the game id g1"
    assert server.ask("steps g1").error.startswith("steps: Sneferu's only; g1 plays imhotep")
    assert server.ask("step g1 Q").error.startswith("step: Sneferu's only")
    assert server.ask("chance g1 ~STA").error  # a decision is due, not chance
    assert server.ok("analyse g1 iterations=20 top=2")[0].startswith("seat 1 to move: 20 ")
    assert server.ask("new game=chess").error.startswith("unknown game 'chess'")
    assert server.ask("new game=imhotep builders=random").error.startswith("new: builders=")
    # A move, undone; then the position loads into a second game.
    assert server.ok("play g1 L 4A.1") == []
    assert server.ok("turn g1") == ["seat:2"]
    assert server.ok("undo g1") == ["L 4A.1"]
    position = server.ok("position g1")[0]
    assert server.ok(f"load game=imhotep seed=3 {position}") == ["g2"]
    assert server.ok("position g2") == [position]
    assert server.ok("show g2")[0].startswith("Imhotep: edition standard, 3 players")
    assert server.ask("load game=imhotep standard AAAAA nonsense").error
    # The whole game.
    assert play_out(server, "g1", random.Random(2)) > 40
    standings = [dict(kv.split("=") for kv in line.split()) for line in server.ok("ranking g1")]
    assert [s["seat"] for s in standings] == ["1", "2", "3"]
    assert all(set(s) == {"seat", "rank", "points", "sled", "retired"} for s in standings)
    assert server.ok("show g1")[-1].startswith("Game over: 1. seat ")
    assert msgspec.json.decode(server.ok("state g1 legal")[0])["turn"] == {
        "over": True, "chance": False, "seat": None}
    assert server.ok("quit") == []
    assert server.close() == 0


def test_an_imhotep_game_through_the_json_server(json_server: Server) -> None:
    """JSON mode: ``{"command": "new", "game": "imhotep"}``, then the state with what is
    legal at every decision, played to the end with the moves it lists."""
    s = json_server
    assert s.ask_json({"id": 1, "command": "new", "game": "imhotep", "players": 2,
                       "seed": 5}) == {"id": 1, "ok": True, "result": {"game": "g1"}}
    rng = random.Random(4)
    plays = 0
    while True:
        s.ask_json({"command": "chance", "game": "g1"})
        state = s.ask_json({"command": "state", "game": "g1", "legal": True})["result"]["state"]
        assert state["data"]["position"] == state["position"]
        if state["turn"]["over"]:
            break
        seat = state["turn"]["seat"]
        assert state["data"]["turn"]["seat"] == seat
        move = rng.choice(state["legal"]["moves"])
        assert s.ask_json({"command": "play", "game": "g1", "move": move})["ok"]
        plays += 1
    assert plays > 40
    ranking = s.ask_json({"command": "ranking", "game": "g1"})["result"]["ranking"]
    assert sorted(r["rank"] for r in ranking) in ([1, 2], [1, 1])
    assert set(ranking[0]["scores"]) == {"points", "sled"}
    pos = s.ask_json({"command": "position", "game": "g1"})["result"]["position"]
    assert s.ask_json({"command": "load", "game": "imhotep", "position": pos})["result"] == {
        "game": "g2"}
    assert s.ask_json({"command": "games"})["result"]["games"][1]["plays"] == "imhotep"
    bad = s.ask_json({"command": "load", "position": pos})  # read as Sneferu's notation
    assert not bad["ok"]
    assert s.ask_json({"command": "quit"})["ok"]
    assert s.close() == 0


def test_an_imhotep_record_loads_at_a_ply_and_verifies(json_file_server: Server,
                                                       tmp_path: Path) -> None:
    """``load-record`` opens a record of the game it names (here Imhotep) at a ply, and
    ``verify`` replays it."""
    r = run_cli("play", "random", "random", "--game", "imhotep", "--seed", "3", "--record",
                str(tmp_path / "imhotep.rec"))
    assert r.returncode == 0, r.stderr
    s = json_file_server
    assert s.ask_json({"command": "load-record", "path": "imhotep.rec", "ply": 10})[
        "result"] == {"game": "g1"}
    shown = run_cli("replay", str(tmp_path / "imhotep.rec"), "--ply", "10")
    state = s.ask_json({"command": "state", "game": "g1"})["result"]["state"]
    assert state["game"] == "imhotep" and state["position"] == shown.stdout.strip()
    checks = s.ask_json({"command": "verify", "path": "imhotep.rec"})["result"]["games"]
    assert checks[0]["valid"] is True and checks[0]["turns"] > 40


def test_an_imhotep_position_analysed_by_the_generic_search(tmp_path: Path) -> None:
    """``analyse`` of another game is the generic search (sneferu_cli.search.generic) in
    text and JSON modes: the same analysis as ``sneferu position analyse --game imhotep``
    for the same iterations and seed, bounded by --max-analyse-ms (the checks of its
    options, the same for every game, are tested in test_mcts.py)."""
    pos = run_cli("position", "new", "--game", "imhotep", "--players", "3", "--seed", "4")
    assert pos.returncode == 0, pos.stderr
    position = pos.stdout.strip()
    cli = run_cli("position", "analyse", "--game", "imhotep", position, "--iterations", "80",
                  "--seed", "2", "--top", "0", "--json")
    assert cli.returncode == 0, cli.stderr
    expected = msgspec.json.decode(cli.stdout)
    legal = run_cli("position", "moves", "--game", "imhotep", position)
    assert legal.returncode == 0, legal.stderr
    text = Server("--max-analyse-ms", "400")
    json = Server("--json", "--max-analyse-ms", "400")
    try:
        assert text.ok(f"load game=imhotep {position}") == ["g1"]
        lines = text.ok("7 analyse g1 iterations=80 seed=2 top=3")
        assert lines == text.ok("analyse g1 top=3 seed=2 iterations=80")  # repeatable
        assert lines[0].startswith("seat 1 to move: 80 playouts, ") and len(lines) == 4
        shown = run_cli("position", "analyse", "--game", "imhotep", position, "--iterations",
                        "80", "--seed", "2", "--top", "3")
        assert lines == shown.stdout.splitlines()
        bounded = text.ok("analyse g1 iterations=100000000 top=1")  # stopped by the bound
        assert int(bounded[0].split(": ")[1].split()[0]) < 100000000
        assert text.ok("new game=imhotep players=2") == ["g2"]
        assert text.ask("analyse g2").error == "analyse: no seat is to decide (a chance node)"

        assert json.ask_json({"command": "load", "game": "imhotep", "position": position})[
            "ok"]
        reply = json.ask_json({"id": 3, "command": "analyse", "game": "g1", "iterations": 80,
                               "seed": 2, "top": 0})
        assert reply["id"] == 3 and reply["ok"], reply
        served = reply["result"]["analysis"]
        assert untimed(served) == untimed(expected)
        assert {m["move"] for m in served["moves"]} == set(legal.stdout.split("\n")[:-1])
    finally:
        for server in (text, json):
            server.kill()


def test_imhotep_edition_files_within_the_folder(tmp_path: Path) -> None:
    """``edition=FILE`` for another game: read within --files as that game's edition (the
    generic edition reader); its games, positions and records name it; a file that is not
    one of its editions is one error line that does not quote it."""
    folder = tmp_path / "served"
    folder.mkdir()
    standard = (ROOT / "sneferu_cli/games/imhotep/editions/standard.toml").read_text()
    assert 'name = "standard"' in standard
    (folder / "club.toml").write_text(standard.replace('name = "standard"', 'name = "club"'))
    (folder / "cheap.toml").write_text(cheap_edition_toml())  # a Sneferu edition
    rec = folder / "standard.rec"
    r = run_cli("play", "random", "random", "--game", "imhotep", "--seed", "3", "--record",
                str(rec))
    assert r.returncode == 0, r.stderr
    # The same game played with "club" (its numbers are the standard ones).
    assert rec.read_text().count("[Edition standard]") == 1
    (folder / "club.rec").write_text(rec.read_text().replace("[Edition standard]",
                                                             "[Edition club]"))
    server = Server("--files", str(folder))
    try:
        assert server.ok("new game=imhotep players=2 seed=1 edition=club.toml") == ["g1"]
        assert server.ok("games")[0].startswith("g1 edition=club variant=")
        server.ok("chance g1")
        position = server.ok("position g1")[0]
        assert server.ok(f"load game=imhotep edition=club.toml {position}") == ["g2"]
        assert server.ask(f"load game=imhotep {position}").error  # club is not loaded
        assert server.ask("new game=imhotep edition=cheap.toml").error == (
            "cheap.toml: not a usable edition file (the server does not quote files; "
            "sneferu position new --game imhotep --edition says more)")
        assert server.ask("new game=imhotep edition=../x.toml").error == (
            "../x.toml: outside the folder the server reads (--files)")
        assert server.ok("new players=2 edition=cheap.toml") == ["g3"]  # Sneferu's still
        assert server.ok("verify edition=club.toml club.rec")[0].startswith(
            "number=1 valid turns=")
        assert server.ok("verify club.rec")[0].startswith("number=1 invalid ")
        assert server.ok("load-record edition=club.toml ply=4 club.rec") == ["g4"]
        assert server.ok("load-record ply=4 standard.rec") == ["g5"]
        club, standard = server.ok("position g4")[0], server.ok("position g5")[0]
        assert club.startswith("club ") and club == "club" + standard.removeprefix("standard")
        assert server.ask("load-record ply=4 club.rec").error.startswith(
            "the game was played with edition 'club', which is not loaded")
    finally:
        server.send("quit")
        assert server.close() == 0


def test_a_third_game_is_served_through_the_interface_alone(tmp_path: Path) -> None:
    """The test-only Nim (tests/nim_game.py), which serve has no code for: opened, drawn
    for, played, undone, analysed by the generic search and ranked through the game
    interface; an edition file of a game that reads none is one error line."""
    register()
    (tmp_path / "nim.toml").write_text('name = "big"\n')
    session = Session(files=FileAccess(tmp_path))
    assert session.handle(New(players=2, seed=1, game="nim")).lines() == ["g1"]
    assert session.handle(Turn("g1")).lines() == ["chance"]
    assert session.handle(Outcomes("g1")).lines() == [f"~H{h} 0.333333 1" for h in (5, 6, 7)]
    (heap,) = session.handle(Chance("g1")).lines()
    assert session.handle(Moves("g1")).lines() == ["take 1", "take 2", "take 3"]
    session.handle(Play("g1", "take  2"))
    assert session.handle(Turn("g1")).lines() == ["seat:2"]
    assert session.handle(Undo("g1", turn=True)).lines() == [heap, "take 2"]  # no move before
    (heap,) = session.handle(Chance("g1")).lines()
    found = [session.handle(Analyse("g1", iterations=60, seed=1, top=0)).analysis
             for _ in range(2)]
    assert found[0].playouts == 60
    assert [(m.move, m.visits) for m in found[0].moves] == [
        (m.move, m.visits) for m in found[1].moves]  # the same search for the same seed
    assert {m.move for m in found[0].moves} == {"take 1", "take 2", "take 3"}
    while session.handle(Turn("g1")).lines() != ["over"]:
        session.handle(Play("g1", session.handle(Moves("g1")).lines()[0]))
    ranking = session.handle(Ranking("g1")).lines()
    assert sorted(r.split()[1] for r in ranking) == ["rank=1", "rank=2"]
    assert ranking[0].split()[2:] == [f"taken={(int(heap[2:]) + 1) // 2}",
                                      f"last={int(heap[2:]) % 2}", "retired=no"]
    with pytest.raises(ValueError, match=r"^nim.toml: not a usable edition file \(the "
                       r"server does not quote files; sneferu position new --game nim "
                       r"--edition says more\)$"):
        session.handle(New(players=2, game="nim", edition="nim.toml"))
    with pytest.raises(ValueError, match=r"^steps: Sneferu's only; g1 plays nim"):
        session.handle(Steps("g1"))
