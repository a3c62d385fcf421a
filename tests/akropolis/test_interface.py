"""Akropolis through every layer above the rules, with no Akropolis code there: the text
server plays a whole game and loads its positions, a human seat types moves at a real
terminal (pexpect), and the command line's position tools read and list it."""

from __future__ import annotations

import random
import sys

import msgspec
import pexpect
from serve_client import Server
from support import run_cli

T = 60


def test_an_akropolis_game_through_the_text_server():
    server = Server()
    try:
        assert server.ok("new game=akropolis players=3 seed=7 variant=HmbtgA") == ["g1"]
        odds = [line.split() for line in server.ok("outcomes g1")]
        assert len(odds) == 61 and odds[0][0] == "~T01"
        drawn = server.ok("chance g1")
        assert len(drawn) == 5 and all(d.startswith("~T") for d in drawn)
        assert server.ok("turn g1") == ["seat:1"]
        moves = server.ok("moves g1")
        assert moves[0].startswith("1 @") and {m[0] for m in moves} == {"1", "2"}
        state = msgspec.json.decode(server.ok("state g1 legal")[0])
        assert state["game"] == "akropolis" and state["legal"]["moves"] == moves
        assert state["data"]["variant"] == "HmbtgA" and len(state["data"]["seats"]) == 3
        assert server.ask("play g1 3 @1,-1 r0").error.startswith("illegal move: place 3 costs")
        assert server.ask("play g1 1 @1,-1").error.startswith("bad move")
        assert server.ok(f"play g1 {moves[0]}") == []
        assert server.ok("undo g1") == [moves[0]]
        assert server.ok(f"play g1 {moves[-1]}") == []
        position = server.ok("position g1")[0]
        assert server.ok(f"load game=akropolis seed=3 {position}") == ["g2"]
        assert server.ok("position g2") == [position]
        rng = random.Random(2)
        played = 1
        while True:
            server.ok("chance g1")
            legal = server.ok("moves g1")
            if not legal:
                break
            assert server.ok(f"play g1 {rng.choice(legal)}") == []
            played += 1
        assert played == 60  # all tiles, 3 players: 14 stacks (section 4)
        standings = [dict(kv.split("=") for kv in line.split())
                     for line in server.ok("ranking g1")]
        assert [s["seat"] for s in standings] == ["1", "2", "3"]
        assert all(set(s) == {"seat", "rank", "points", "stones", "retired"} for s in standings)
        assert server.ok("show g1")[-1].startswith("Game over: 1. seat ")
        assert server.ok("quit") == []
        assert server.close() == 0
    finally:
        server.kill()


def test_a_human_seat_types_a_move():
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "random", "--human",
                                           "1", "--game", "akropolis", "--seed", "6",
                                           "--movetime", "2000"],
                          encoding="utf-8", timeout=T, dimensions=(60, 200))
    try:
        child.expect(r"Construction site \(chief architect: seat 1; 11 stacks left\):")
        child.expect(r"seat 1> ")
        child.sendline("1 @1,-1 r7")
        child.expect(r"bad move")
        child.expect(r"seat 1> ")
        child.sendline("3 @1,-1 r0")
        child.expect(r"costs 2 stones, seat 1 has 1")
        child.expect(r"seat 1> ")
        child.sendline("1 @1,-1 r0")
        child.expect(r"Seat 1: \d+ points?")
        child.expect(r"seat 1> ")
        child.sendeof()
        child.expect(r"seat 1 human is retired: eof")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_position_commands_read_and_list_akropolis():
    new = run_cli("position", "new", "--game", "akropolis", "--players", "2", "--seed", "4",
                  "--variant", "hmbTga")
    assert new.returncode == 0, new.stderr
    position = new.stdout.strip()
    assert position.startswith("standard hmbTga 1 1 T") and "?" not in position
    moves = run_cli("position", "moves", "--game", "akropolis", position)
    assert moves.returncode == 0 and len(moves.stdout.split("\n")) > 100
    bad = run_cli("position", "show", "--game", "akropolis",
                  position.replace(" 1:-", " 1:T99@0,0r0"))
    assert bad.returncode != 0 and "unknown tile T99" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_record_puts_the_set_up_on_one_line_and_each_refill_on_its_turn(tmp_path):
    """Section 8.3 with ``outcome_kind``: the n + 2 set-up draws on one ``chance`` line, the
    n + 1 draws of a refill on the line of the turn that left one tile; it replays."""
    rec = tmp_path / "a.rec"
    r = run_cli("play", "random", "random", "random", "--game", "akropolis", "--seed", "3",
                "--record", str(rec))
    assert r.returncode == 0, r.stderr
    lines = rec.read_text(encoding="utf-8").splitlines()
    chance = [line for line in lines if line.startswith("chance ")]
    assert len(chance) == 1 and len(chance[0].split()) == 1 + 5
    turns = [line.split(" {")[0].split() for line in lines if line[:1].isdigit()]
    assert len(turns) == 48
    refills = [t for t in turns if any(w.startswith("~") for w in t)]
    assert [int(t[0].rstrip(".")) for t in refills] == list(range(4, 48, 4))
    assert all(len([w for w in t if w.startswith("~")]) == 4 for t in refills)
    assert run_cli("replay", str(rec)).returncode == 0
