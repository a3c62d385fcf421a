"""The bundled engine ``mcts`` through the real protocol, and the analysis as users get it:
``sneferu position analyse`` (subprocess, and a terminal through pexpect) and the server's
``analyse`` request (real pipes)."""

from __future__ import annotations

import sys

import msgspec
import pexpect
import pytest
from serve_client import Server, untimed
from support import run_cli

from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import read_records

# (engines and options, seats). Iterations keep the games short and repeatable; the time
# limit is far away so it never cuts a search.
GAMES = [
    (["mcts", "random", "--seed", "5"], 2),
    (["mcts", "--seed", "6", "--builders", "Heba"], 1),
    (["mcts", "greedy", "random", "mcts", "--seed", "7", "--builders", "random"], 4),
    (["random", "mcts", "greedy", "--seed", "8", "--builders", "Lateef,Tsekani,Aya"], 3),
    (["mcts", "greedy", "--game", "imhotep", "--seed", "5"], 2),  # the generic search
    (["greedy", "mcts", "random", "mcts", "--game", "imhotep", "--seed", "6"], 4),
]


@pytest.mark.parametrize(("args", "seats"), GAMES)
def test_mcts_plays_whole_games_in_every_variant(tmp_path, args, seats):
    """A whole game through the protocol: no fault, every mcts turn has its info fields."""
    rec = tmp_path / "g.rec"
    r = run_cli("play", *args, "--movetime", "20000", "-o", "Iterations=12", "--record",
                str(rec), timeout=300)
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    header = entry.record.header
    assert header.players == seats and not header.faults
    assert header.termination in ("normal", "ptah")
    mcts = {i + 1 for i, s in enumerate(header.seats) if s.name == "mcts"}
    turns = [e for e in entry.record.events if isinstance(e, Turn) and e.seat in mcts]
    assert turns
    for t in turns:
        assert t.info is not None and t.info["pv"] == t.move
        assert 1 <= int(t.info["playouts"]) <= 12  # 1 when there is a single legal move
        assert int(t.info["nodes"]) > 0 and ("rank" in t.info) == (seats > 1)


def test_mcts_games_repeat_with_a_seed_and_iterations(tmp_path):
    """Seed (set by the arbiter from --seed, SPEC 6.5) and fixed iterations: the same game."""
    moves = []
    for n in range(2):
        rec = tmp_path / f"{n}.rec"
        r = run_cli("play", "mcts", "greedy", "--seed", "9", "--movetime", "20000",
                    "-o", "1:Iterations=10", "--record", str(rec), timeout=300)
        assert r.returncode == 0, r.stderr
        (entry,) = read_records(rec.read_text()).games
        moves.append([e.move for e in entry.record.events if isinstance(e, Turn)])
    assert moves[0] == moves[1]


def test_mcts_keeps_to_a_clock(tmp_path):
    """go clock: it shares out its clock and keeps a margin (no timeout with 3 s a game)."""
    rec = tmp_path / "g.rec"
    r = run_cli("play", "mcts", "random", "--seed", "3", "--tc", "3+0.05", "--record",
                str(rec), timeout=300)
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    assert not entry.record.header.faults
    spent = sum(e.ms or 0 for e in entry.record.events if isinstance(e, Turn) and e.seat == 1)
    assert spent < 3000 + 0.05 * 40 * 1000


POS = ("position", "new", "--players", "3", "--seed", "4")


@pytest.fixture(scope="module")
def pos() -> str:
    r = run_cli(*POS)
    assert r.returncode == 0
    return r.stdout.strip()


def test_analyse_is_the_same_for_a_seed(pos):
    """--iterations and --seed: the same lines every time; the top K moves, best first."""
    args = ("position", "analyse", pos, "--iterations", "150", "--seed", "2", "--top", "3")
    first, second = run_cli(*args), run_cli(*args)
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    head, *rows = first.stdout.splitlines()
    assert head.startswith("seat ") and ": 150 playouts," in head and len(rows) == 3
    visits = [int(r.split("visits ")[1].split()[0]) for r in rows]
    assert visits == sorted(visits, reverse=True) and "rank " in rows[0]
    other = run_cli("position", "analyse", pos, "--iterations", "150", "--seed", "3")
    assert other.stdout != first.stdout


def test_analyse_json_matches_the_server(pos):
    """--json gives the server's analysis object (SPEC 10.8): the same moves and numbers."""
    r = run_cli("position", "analyse", pos, "--iterations", "60", "--seed", "4", "--json",
                "--top", "0")
    assert r.returncode == 0, r.stderr
    cli = msgspec.json.decode(r.stdout)
    server = Server("--json")
    try:
        assert server.ask_json({"command": "load", "position": pos})["ok"]
        reply = server.ask_json({"id": 7, "command": "analyse", "game": "g1",
                                 "iterations": 60, "seed": 4, "top": 0})
    finally:
        server.send('{"command": "quit"}')
        server.close()
    assert reply["id"] == 7 and reply["ok"], reply
    served = reply["result"]["analysis"]
    assert untimed(cli) == untimed(served)
    assert cli["playouts"] == 60 and cli["players"] == 3 and len(cli["moves"]) > 3


def test_serve_analyse_in_text_mode_and_its_errors(pos):
    server = Server("--max-analyse-ms", "500")
    try:
        assert server.ok(f"load {pos}") == ["g1"]
        first = server.ok("1 analyse g1 iterations=40 seed=3 top=2")
        assert server.ok("analyse g1 top=2 seed=3 iterations=40") == first
        assert first[0].endswith("40 playouts, " + first[0].split(", ")[1]) and len(first) == 3
        assert server.ask("2 analyse g1 movetime=501").error == (
            "analyse: movetime 501 is over the server's bound of 500 ms (--max-analyse-ms)")
        assert "not both" in server.ask("analyse g1 movetime=5 iterations=5").error
        bounded = server.ok("analyse g1 iterations=100000000")  # stopped by the bound
        assert int(bounded[0].split(": ")[1].split()[0]) < 100000000
        assert server.ok("new players=2") == ["g2"]
        assert server.ask("analyse g2").error == "analyse: no seat is to decide (a chance node)"
        assert "analyse" in server.ok("commands")
    finally:
        server.send("quit")
        assert server.close() == 0


def test_analyse_errors_are_one_line(pos):
    r = run_cli("position", "analyse", pos, "--iterations", "5", "--movetime", "5")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not both" in r.stderr
    setup = run_cli("position", "new", "--players", "2", "--no-setup").stdout.strip()
    r = run_cli("position", "analyse", setup)
    assert r.returncode == 2 and r.stderr.startswith("sneferu: analyse: no seat is to decide")
    r = run_cli("position", "analyse", "standard nonsense")
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_analyse_shows_its_progress_on_a_terminal(pos):
    """On a terminal the search rewrites one status line on stderr while it thinks."""
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "position", "analyse", pos,
                                           "--movetime", "1500", "--top", "2"],
                          encoding="utf-8", timeout=60)
    child.expect(r"\r\x1b\[K(\d+) playouts +\d+ nodes .* best ")
    first = int(child.match.group(1))
    child.expect(r"\r\x1b\[K(\d+) playouts")
    assert int(child.match.group(1)) >= first
    child.expect(r"seat \d to move: \d+ playouts")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_analyse_another_game_through_the_generic_search():
    """--game imhotep: the generic search (sneferu_cli.search.generic), repeatable with
    --seed and --iterations; its moves are legal ones; the same one-line errors."""
    pos = run_cli("position", "new", "--game", "imhotep", "--players", "3", "--seed", "4")
    assert pos.returncode == 0, pos.stderr
    text = pos.stdout.strip()
    args = ("position", "analyse", "--game", "imhotep", text, "--iterations", "120", "--seed",
            "2", "--top", "0")
    first, second = run_cli(*args), run_cli(*args)
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    head, *rows = first.stdout.splitlines()
    assert head == "seat 1 to move: 120 playouts, 121 nodes"
    legal = run_cli("position", "moves", "--game", "imhotep", text).stdout.split("\n")
    assert sorted(r.split(". ", 1)[1].split("  ")[0] for r in rows) == sorted(filter(None, legal))
    visits = [int(r.split("visits ")[1].split()[0]) for r in rows]
    assert visits == sorted(visits, reverse=True) and sum(visits) == 120
    setup = run_cli("position", "new", "--game", "imhotep", "--players", "2", "--no-setup")
    r = run_cli("position", "analyse", "--game", "imhotep", setup.stdout.strip())
    assert r.returncode == 2 and r.stderr == (
        "sneferu: analyse: no seat is to decide (a chance node)\n")
    r = run_cli("position", "analyse", "--game", "imhotep", text, "--iterations", "1",
                "--movetime", "5")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not both" in r.stderr
