"""A human seat at the terminal (SPEC 7.1): the pyramid picture numbers its slots and has a
key for its marks, a long move list comes grouped, and only what changed is shown again."""

from __future__ import annotations

import io
import random
import re
import sys

import pexpect

from sneferu_cli.arbiter.agent import TurnRequest
from sneferu_cli.arbiter.human import LIST_LIMIT, Human
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import Move, legal_moves
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import GameState, new_game
from sneferu_cli.protocol.messages import NewGame, Position

T = 60


def start(seed: int = 3) -> GameState:
    state = new_game(2)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    return state


def ask(human: Human, state: GameState, seat: int | None = None) -> None:
    seat = state.current_seat() if seat is None else seat
    human.play_turn(TurnRequest(state, seat,
                                str(Position(to_position(state), ())), None, None, 0, 100))


def test_only_what_changed_since_the_last_turn_is_shown_again():
    state = start()
    typed = io.StringIO()
    out = io.StringIO()
    human = Human(inp=typed, out=out)
    human.new_game(NewGame(2, state.current_seat() + 1, "standard", "standard"))
    me = state.current_seat()
    typed.write("1.1 TG@1.1\n")
    typed.seek(0)
    ask(human, state)
    first = out.getvalue()
    assert "River (spaces 0 to 40" in first and f"Seat {2 - me}: food 6" in first
    assert "Pyramids: level 1 at the bottom" in first  # the key
    # The next picture this seat sees: after its move and the refill, only the river, the
    # offer, its own seat and the turn have changed; the other seat has not.
    state.apply_turn(Move.from_str("1.1 TG@1.1").steps)
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    out.truncate(0)
    out.seek(0)
    typed.truncate(0)
    typed.seek(0)
    typed.write(f"show\n{legal_moves(state)[0]}\n")
    typed.seek(0)
    ask(human, state)
    again = out.getvalue().split(f"seat {me + 1}> ", 1)[0]
    assert f"Seat {me + 1}: food" in again and "Offer (stone food/time" in again
    assert f"Seat {2 - me}: food" not in again
    assert "Pyramids: level 1 at the bottom" in again  # the key, at every decision (focus)
    assert (f"(Unchanged since your last turn: seat {2 - me}; type show for the whole "
            "picture.)") in again
    assert f"Seat {2 - me}: food" in out.getvalue()  # after `show`, everything


def test_a_long_move_list_is_grouped_by_first_step():
    state = start()
    moves = [str(m) for m in legal_moves(state)]
    assert len(moves) > LIST_LIMIT
    out = io.StringIO()
    human = Human(inp=io.StringIO("?\n? 1.1\n1.1 TG@1.1\n"), out=out)
    human.new_game(NewGame(2, state.current_seat() + 1, "standard", "standard"))
    ask(human, state)
    text = out.getvalue()
    head = re.search(r"(\d+) legal moves, by their first words \(type \? WORDS for the moves "
                     r"of one\):\n((?:  .*\n)+)", text)
    assert head and int(head[1]) == len(moves)
    groups = dict(re.findall(r"(\S+) \((\d+)\)", head[2]))
    assert sum(map(int, groups.values())) == len(moves)
    assert groups["1.1"] == str(sum(1 for m in moves if m.startswith("1.1 ")))
    listed = re.search(r"(\d+) legal moves starting with '1\.1':\n((?:  .*\n)+)", text)
    assert listed and listed[2].split() == [w for m in moves if m.startswith("1.1")
                                           for w in m.split()]


def test_the_terminal_picture_numbers_slots_and_explains_its_marks():
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "greedy", "--human",
                                           "1", "--seed", "6", "--movetime", "2000"],
                          encoding="utf-8", timeout=T, dimensions=(50, 200))
    try:
        child.expect(r"You play seat 1 against 1 other seat\.")
        child.expect(r"  1\[\.\.\] 2\[1\.\] 3\[\.\.\] 4\[\.\.\] 5\[\.1\] 6\[\.\.\]   level 1")
        child.expect(r"Pyramids: level 1 at the bottom, slots numbered from the left "
                     r"\(BT@2\.3: level 2, slot 3\)\.")
        child.expect(r"\[2\.\] an empty slot with 2 food\r\n  printed on its left half")
        child.expect(r"seat 1> ")
        child.sendline("?")
        child.expect(r"(\d+) legal moves, by their first words")
        child.expect(r"seat 1> ")
        child.sendeof()
        child.expect(r"seat 1 human is retired: eof")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
