"""Protocol conversations, message by message, with the bundled engines run under pexpect,
and a human seat played at a terminal."""

from __future__ import annotations

import random
import re
import sys

import pexpect
import pytest
from support import run_cli

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import legal_moves
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import GameState, new_game
from sneferu_cli.protocol.messages import SEP
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import read_records

T = 20  # seconds: every expect is bounded


def start_position(players: int = 2, seed: int = 1) -> GameState:
    state = new_game(players)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    return state


def spawn(name: str) -> pexpect.spawn:
    argv = engine_command(name)
    child = pexpect.spawn(argv[0], argv[1:], encoding="utf-8", timeout=T, echo=False)
    child.setecho(False)
    return child


def ask(child: pexpect.spawn, line: str, answer: str) -> str:
    """Send a line and wait for a line matching ``answer``; return the match."""
    child.sendline(line)
    child.expect(answer + r"\r\n")
    return str(child.match.group(0)).strip()


@pytest.mark.parametrize("name", ["random", "greedy", "js-random"])
def test_a_bundled_engine_session(name):
    child = spawn(name)
    try:
        child.sendline("sneferu 1")
        child.expect(rf"id name {name}\r\n")
        child.expect(r"option name Seed type spin default 0 min 0 max 2147483647\r\n")
        if name == "js-random":
            child.expect(r"feature legalmoves\r\n")
        child.expect(r"sneferuok\r\n")
        child.sendline("setoption name Seed value 42")
        ask(child, "isready", "readyok")
        child.sendline("a command from a later protocol version")  # must be ignored
        child.sendline("newgame players 2 seat 1 variant standard edition standard")
        ask(child, "isready", "readyok")
        state = start_position()
        legal = [str(m) for m in legal_moves(state)]
        child.sendline(f"position {to_position(state)}")
        go = "go clock 60000 60000 inc 1000"
        if name == "js-random":
            go += " legalmoves " + SEP.join(legal)
        move = ask(child, go, r"move [^\r\n]+")[len("move "):]
        assert move in legal
        child.sendline("gameover ranks 1 2")
        ask(child, "isready", "readyok")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_random_engine_follows_the_moves_after_a_position():
    """position P moves M ; ~X ; ...: the engine applies the events and moves from there."""
    state = start_position(seed=4)
    base = to_position(state)
    rng = random.Random(9)
    events = []
    while True:
        turn = rng.choice(state.legal_turns())
        state.apply_turn(turn)
        events.append(" ".join(str(s) for s in turn))
        while state.is_chance_node():
            outcome = sample_outcome(state, rng)
            state.apply(outcome)
            events.append(str(outcome))
        if state.current_seat() == 1 and len(events) > 6:
            break
    child = spawn("random")
    try:
        child.sendline("sneferu 1")
        child.expect(r"sneferuok\r\n")
        child.sendline("newgame players 2 seat 2 variant standard edition standard")
        ask(child, "isready", "readyok")
        child.sendline(f"position {base} moves {SEP.join(events)}")
        move = ask(child, "go movetime 1000", r"move [^\r\n]+")[len("move "):]
        assert move in [str(m) for m in legal_moves(state)]
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_an_engine_exits_at_the_end_of_its_input():
    child = spawn("js-random")
    child.sendline("sneferu 1")
    child.expect(r"sneferuok\r\n")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ------------------------------------------------------------------ a human seat


def play(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", *args],
                         encoding="utf-8", timeout=T, dimensions=(50, 200))


PROMPT = r"seat 1> "


def first_legal_move(child: pexpect.spawn, seat: int = 1) -> str:
    """Ask for the legal moves (``?``, then ``? GROUP`` when they come grouped) and return
    the first one listed; the prompt is waiting afterwards."""
    child.sendline("?")
    i = child.expect([r"\d+ legal moves?:\r\n  (\S+(?: \S+)*?)(?:  |\r\n)",
                      r"\d+ legal moves, by their first words \(type \? WORDS for the moves "
                      r"of one\):\r\n  (\S+(?: \S+)*?) \(\d+\)"])
    found = child.match.group(1)
    child.expect(rf"seat {seat}> ")
    if i == 0:
        return found
    child.sendline(f"? {found}")
    child.expect(rf"\d+ legal moves? starting with '{re.escape(found)}':\r\n  "
                 r"(\S+(?: \S+)*?)(?:  |\r\n)")
    first = child.match.group(1)
    child.expect(rf"seat {seat}> ")
    return first


def play_out(child: pexpect.spawn) -> int:
    """Play seat 1's first listed legal move at each prompt until the game is over; the
    number of turns played."""
    turns = 0
    while child.expect([PROMPT, r"Game over: you placed (\d)\."]) == 0:
        first = first_legal_move(child)
        child.sendline(first)
        child.expect(rf"turn +\d+  seat 1 human: {re.escape(first)}  \(\d+ ms\)")
        turns += 1
    return turns


def test_a_human_plays_a_whole_game_against_an_engine(tmp_path):
    path = tmp_path / "games.txt"
    child = play("random", "--human", "1", "--seed", "6", "--movetime", "2000",
                 "--record", str(path))
    try:
        child.expect(r"Game: seat 1 human, seat 2 random; seed 6; movetime 2000\.")
        child.expect(r"You play seat 1 against 1 other seat\. Type help for help\.")
        child.expect(r"Sneferu: edition standard, standard variant, 2 players")
        child.expect(PROMPT)
        child.sendline("help")
        child.expect(r"Type a whole turn in move notation")
        child.expect(PROMPT)
        child.sendline("1.1 TG@1.1 extra words")
        child.expect(r"Not a move: move: unexpected 'extra words' at column 12")
        child.expect(r"Type \? for the legal moves, help for help\.")
        child.expect(PROMPT)
        child.sendline("9.9 BT@1.1")
        child.expect(r"Illegal: step 1 \(9\.9\): buy 9\.9: there is no stone at column 9")
        child.expect(PROMPT)
        child.sendline("? 4.")
        child.expect(r"(\d+) legal moves starting with '4\.', by their first words")
        child.expect(PROMPT)
        child.sendline("show")
        child.expect(r"Offer \(stone food/time")
        turns = play_out(child)
        child.expect(r"Game over after \d+ turns \(every boat reached the last space\)\.")
        child.expect(r"  1\. seat \d ")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert turns > 5
    # The record holds the human's turns (timed, not limited) and verifies.
    (entry,) = read_records(path.read_text()).games
    assert [(s.name, s.author) for s in entry.record.header.seats] == [
        ("human", None), ("random", "the sneferu authors")]
    mine = [e for e in entry.record.events if isinstance(e, Turn) and e.seat == 1]
    assert len(mine) == turns and all(t.ms is not None and t.info is None for t in mine)
    r = run_cli("replay", str(path))
    assert r.returncode == 0 and ": verified, " in r.stdout, r.stderr


def test_ctrl_c_at_the_prompt_records_the_game_so_far(tmp_path):
    path = tmp_path / "games.txt"
    child = play("random", "--human", "1", "--seed", "6", "--movetime", "2000",
                 "--record", str(path))
    try:
        for _ in range(3):
            child.expect(PROMPT)
            child.sendline(first_legal_move(child))
        child.expect(PROMPT)
        child.sendintr()  # the terminal's Ctrl-C: SIGINT to the arbiter, not to the engines
        child.expect(r"Game aborted after (\d+) turns\. The game so far is in ")
        turns = int(child.match.group(1))
        child.expect(r"sneferu: interrupted")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    (entry,) = read_records(path.read_text()).games
    assert entry.record.header.termination == "aborted"
    assert sum(1 for e in entry.record.events if isinstance(e, Turn) and e.seat == 1) == 3
    r = run_cli("replay", str(path))
    assert r.returncode == 0, r.stderr
    assert f": aborted after {turns} turns, its moves verified. Seat 1 to move" in r.stdout


def test_a_human_who_closes_the_input_is_retired_and_the_game_goes_on():
    child = play("random", "random", "--human", "2", "--seed", "8", "--movetime", "2000")
    try:
        child.expect(r"seat 2> ")
        child.sendeof()
        child.expect(r"seat 2 human is retired: eof")
        child.expect(r"3\. seat 2  human +\d+ stones +\d+ food  retired at ply \d+: eof "
                     r"\(the player's input closed\)")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_a_human_plays_a_whole_imhotep_game_against_random(tmp_path):
    """``sneferu play random --human 1 --game imhotep``: the Imhotep picture and move help,
    a bad word and an illegal move explained (with the legal moves that begin alike), then
    the whole game from the listed legal moves (the seat also takes market cards and the
    like when its stones are unloaded); the record verifies."""
    path = tmp_path / "imhotep.txt"
    child = play("random", "--human", "1", "--game", "imhotep", "--seed", "4",
                 "--record", str(path))
    try:
        child.expect(r"You play seat 1 against 1 other seat\. Type help for help\.")
        child.expect(r"Round 1 of 6, card R2-\d")
        child.expect(r"Ships \(slots from the bow")
        child.expect(r"P pyramid \(side A\): 0 of 14 slots")
        child.expect(r"Seat 1 \(K black\): score 0")
        child.expect(PROMPT)
        child.sendline("help")
        child.expect(r"L 3A\.2 +load a stone from your sled onto ship 3A, slot 2")
        child.expect(PROMPT)
        child.sendline("load it")
        child.expect(r"Not a move: bad move 'load it'\r\nType \? for the legal moves")
        child.expect(PROMPT)
        child.sendline("L 9Z.1")
        child.expect(r"Illegal: illegal move L 9Z\.1: there is no ship 9Z this round "
                     r"\(ships: [0-9A-Z ]+\)\r\nLegal moves beginning with 'L': L \d[A-Z]\.1, ")
        child.expect(PROMPT)
        child.sendline("PASS")
        child.expect(r"Illegal: .*\r\nNo legal move begins with 'PASS'; type \? for the "
                     r"legal moves\.")
        turns = play_out(child)
        child.expect(r"Game over after \d+ turns \(the game reached its end\)\.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert turns > 20
    (entry,) = read_records(path.read_text()).games
    assert entry.record.header.game == "imhotep"
    mine = [e for e in entry.record.events if isinstance(e, Turn) and e.seat == 1]
    assert len(mine) == turns
    r = run_cli("replay", str(path))
    assert r.returncode == 0 and ": verified, " in r.stdout, r.stderr
