"""The bundled engines, the generic search and ``position moves`` / ``position analyse`` in
a game with simultaneous sealed decisions and hidden information (the test-only Sealed
Goofspiel, tests/sealed_game.py): a seat's choice can depend only on its view (SPEC 6.6,
11.4)."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from sealed_game import register
from support import ROOT, require_program, run_cli

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.game import get_game, seat_view
from sneferu_cli.record.model import Simultaneous, Turn
from sneferu_cli.search import search_game

register()
SEALED = get_game("sealed")
WITH_TEST_GAMES = [sys.executable, str(ROOT / "tests" / "engines" / "with_test_games.py")]
SEALED_PLAYER = [sys.executable, str(ROOT / "tests" / "engines" / "sealed_player.py")]

# Seat 1 has sealed its bid; seats 2 and 3 decide. Seat 2's view of A and of B is the same
# (its own hand 1.5.7), though seat 1's hand and sealed bid and seat 3's hand differ.
HEAD = "sealed prizes=1.3 prize=2 scores=0,0,0 "
A = HEAD + "hands=4.12/1.5.7/2.6.8 bids=9,-,- played=- retired=0,0,0"
B = HEAD + "hands=3.10/1.5.7/4.11.13 bids=2,-,- played=- retired=0,0,0"
VIEW = HEAD + "hands=?.?/1.5.7/?.?.? bids=?,-,- played=- retired=0,0,0"


def test_the_two_positions_differ_but_seat_2_sees_them_alike():
    a, b = SEALED.from_position(A), SEALED.from_position(B)
    assert SEALED.view(a, 1) == SEALED.view(b, 1) == VIEW
    assert SEALED.view(a, 2) != SEALED.view(b, 2)  # seat 3's own hand differs
    assert SEALED.deciding_seats(a) == SEALED.deciding_seats(b) == (1, 2)


def ask(engine: str, seat: int, position: str, *options: str) -> list[str]:
    """What the bundled ``engine`` (the test games registered) answers, through its pipes,
    to the lines the arbiter sends it at a simultaneous node of a 3-seat Sealed Goofspiel
    where it plays ``seat`` (1-based): ``position`` and ``go``, twice in one game."""
    lines = ["sneferu 1", "setoption name Seed value 11",
             *(f"setoption name {o}" for o in options),
             f"newgame players 3 seat {seat} variant standard edition standard game sealed",
             "isready", f"position {position}", "go movetime 60000",
             f"position {position}", "go movetime 60000", "quit"]
    r = subprocess.run([*WITH_TEST_GAMES, engine], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [line.removeprefix("move ") for line in r.stdout.splitlines()
            if line.startswith("move ")]


@pytest.mark.parametrize(("engine", "options"), [
    ("random", ()), ("greedy", ()), ("mcts", ("Iterations value 300",))])
def test_an_engines_choice_does_not_depend_on_what_its_view_hides(engine, options):
    """The same view of two different positions: the same moves, through the protocol."""
    a, b = (SEALED.from_position(p) for p in (A, B))
    answers = [ask(engine, 2, SEALED.view(state, 1), *options) for state in (a, b)]
    assert answers[0] == answers[1]
    assert len(answers[0]) == 2 and set(answers[0]) <= {"bid 1", "bid 5", "bid 7"}
    # Seat 3 decides at the same node, from its own view, among its own cards.
    assert set(ask(engine, 3, SEALED.view(a, 2), *options)) <= {"bid 2", "bid 6", "bid 8"}


def test_the_generic_search_of_a_full_position_knows_only_the_seats_view():
    """search_game given the whole truth searches seat 2's view: A, B and the view itself
    give the same analysis, move by move."""
    found = [search_game(SEALED, SEALED.from_position(p), seat=1, iterations=400, seed=3)
             for p in (A, B, VIEW)]
    table = [[(m.move, m.visits, m.reward) for m in a.moves] for a in found]
    assert table[0] == table[1] == table[2]
    assert found[0].seat == 1 and found[0].iterations == 400
    assert sorted(m for m, _, _ in table[0]) == ["bid 1", "bid 5", "bid 7"]


def test_the_search_finds_the_sure_sealed_bid():
    """Two rounds left, prizes 3 now and 1 last, seat 2 holds 13 and 1: bidding 13 wins 3
    points whatever seat 1 bids (13 is the highest card), and 3 beats the 1 point left:
    a sure first place. Bidding 1 loses unless seat 1 holds ... nothing lower: a sure
    second place (seat 1 takes the 3, and the 13 takes only the 1)."""
    view = "sealed prizes=1 prize=3 scores=0,0 hands=?.?/1.13 bids=-,- played=2.5 retired=0,0"
    a = search_game(SEALED, SEALED.from_position(view), seat=1, iterations=300, seed=1)
    assert a.best.move == "bid 13"
    assert a.moves[0].reward == 1.0 and a.moves[1].reward == 0.0


def test_at_a_sealed_node_no_seat_sees_the_others_choice():
    """Decoupled UCT: a seat's sealed move is chosen blind to the others'. Seat 1 (1 point)
    holds 1 and 3, seat 2 holds 2 and 4 (the other cards are played, so the view hides
    nothing that matters), prize 2 now and 3 last. Seat 1 ties or wins with 3 against 2,
    or 1 against 4, and loses otherwise; seat 2's 2 never loses (3:3 or 0:2 then 1:5).
    Blind, seat 1 bids 3 (worth 1 against 2, and as much as 1 is against 4), and seat 2
    is then as well off with 2 (a shared first place) as with 4. A search that let seat 2
    see seat 1's bid would answer 3 with 4 and 1 with 2: every move of seat 1 would be
    worth nothing. (Seeds 2, 8 and 9 once made both seats choose in lockstep, always
    (1, 2) then (3, 4), when ties were broken by order.)"""
    view = ("sealed prizes=3 prize=2 scores=1,0 hands=1.3/?.? bids=-,- "
            "played=5.6.7.8.9.10.11.12.13 retired=0,0")
    for seed in range(10):
        a = search_game(SEALED, SEALED.from_position(view), seat=0, iterations=500, seed=seed)
        assert a.best.move == "bid 3" and a.best.reward > 0.45 and a.best.visits > 450
    other = view.replace("1.3/?.?", "?.?/2.4")
    b = search_game(SEALED, SEALED.from_position(other), seat=1, iterations=500, seed=2)
    assert [m.reward for m in b.moves if m.move == "bid 2"] == [1.0]  # it never loses


def sneferu(*args: str) -> subprocess.CompletedProcess[str]:
    """``sneferu ARGS`` with the test games registered."""
    return subprocess.run([*WITH_TEST_GAMES, "sneferu", *args], capture_output=True,
                          text=True, timeout=120)


def test_position_moves_and_analyse_speak_for_a_seat():
    assert sneferu("position", "moves", "--game", "sealed", A).stdout.split("\n")[:3] == [
        "bid 1", "bid 5", "bid 7"]  # the current seat: the lowest deciding
    r = sneferu("position", "moves", "--game", "sealed", "--seat", "3", A)
    assert (r.returncode, r.stdout) == (0, "bid 2\nbid 6\nbid 8\n")
    assert sneferu("position", "moves", "--game", "sealed", "--seat", "2", VIEW).stdout == \
        "bid 1\nbid 5\nbid 7\n"
    out = [sneferu("position", "analyse", "--game", "sealed", "--seat", "2", "--iterations",
                   "200", "--top", "0", p).stdout for p in (A, B, VIEW)]
    assert out[0] == out[1] == out[2]
    assert out[0].startswith("seat 2 to move: 200 playouts, ")
    analysed = sneferu("position", "analyse", "--game", "sealed", "--seat", "3",
                       "--iterations", "50", "--json", A)
    assert analysed.returncode == 0 and '"seat":3' in analysed.stdout


@pytest.mark.parametrize(("args", "error"), [
    (("moves", "--seat", "1", A),
     "--seat 1: seat 1 has no decision to take now (seats deciding: 2, 3)"),
    (("analyse", "--seat", "4", "--iterations", "5", A),
     "--seat 4: seat 4 has no decision to take now (the game has 3 seats)"),
    (("moves", "--seat", "0", A), "Invalid value for '--seat': 0 is not in the range x>=1."),
    (("analyse", "--seat", "2", "--iterations", "5", "sealed prizes=1 hands=?"),
     "not a Sealed Goofspiel position: 'sealed prizes=1 hands=?'"),
])
def test_a_seat_that_does_not_decide_is_one_line_exit_2(args, error):
    r = sneferu("position", args[0], "--game", "sealed", *args[1:])
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("sneferu: ") and error in line, r.stderr


def test_seat_in_sneferu_is_the_seat_to_move():
    """Sneferu has no simultaneous node: --seat names the seat to move, or is refused."""
    pos = sneferu("position", "new", "--players", "2", "--seed", "1").stdout.strip()
    assert pos.endswith(" start:2:0")  # seat 2 moves first
    r = sneferu("position", "analyse", "--seat", "1", "--iterations", "5", pos)
    assert (r.returncode, r.stderr.strip()) == (2, "sneferu: --seat 1: seat 1 has no decision "
                                                   "to take now (seats deciding: 2)")
    r = sneferu("position", "analyse", "--seat", "2", "--iterations", "5", pos)
    assert r.returncode == 0 and r.stdout.startswith("seat 2 to move: 5 playouts")
    assert sneferu("position", "moves", "--seat", "2", pos).stdout == \
        sneferu("position", "moves", pos).stdout


START = "sealed prizes=1.3 prize=2 scores=0,0,0 hands={} bids=-,-,- played=- retired=0,0,0"
HANDS = ("4.9.12/1.5.7/2.6.8", "3.10.13/1.5.7/4.8.11")  # seat 2's view of both is the same


def first_sealed_move(seats: list[list[str]], options: dict[str, str], game: Any,
                      start: Any, seed: int) -> Turn:
    """Play a whole game of ``game`` from ``start`` through the arbiter, seat ``i + 1``
    played by the command ``seats[i]`` (seat 2's engine given ``options``), and return
    seat 2's move at the first simultaneous step."""
    started = Engine.start_all([Engine(argv, name=f"s{i + 1}")
                                for i, argv in enumerate(seats)])
    try:
        for name, value in options.items():
            started[1].set_option(name, value)
        record = play_game(started, seed=seed, time_control=TimeControl(movetime=20000),
                           game=game, start=start)
    finally:
        Engine.quit_all(started)
    assert record.header.faults == [] and record.header.termination == "normal"
    step = next(e for e in record.events if isinstance(e, Simultaneous))
    (mine,) = (t for t in step.turns if t.seat == 2)
    return mine


@pytest.mark.parametrize(("engine", "options"), [
    ("random", {}), ("greedy", {}), ("mcts", {"Iterations": "300"})])
def test_through_the_arbiter_an_engine_sees_only_its_view(engine, options):
    """Two games from different truths that seat 2 sees alike, played by the arbiter: the
    bundled engine in seat 2 makes the same first sealed bid in both."""
    first = [first_sealed_move([SEALED_PLAYER, [*WITH_TEST_GAMES, engine], SEALED_PLAYER],
                               options, SEALED, SEALED.from_position(START.format(hands)), 5)
             for hands in HANDS]
    if engine == "mcts":  # searched 300 playouts, not by time
        assert first[0].info is not None and first[0].info["playouts"] == "300"
    assert first[0].move == first[1].move and first[0].move in ("bid 1", "bid 5", "bid 7")


def silver_gold_truths() -> tuple[Any, Any]:
    """Two set-ups of a 3-seat Silver & Gold Pyramids game at the sealed keep (G-rules'
    set-up): the same cards dealt to seat 2, other cards dealt to seats 1 and 3."""
    game = get_game("silver-gold")
    truth = game.new_game(3)
    rng = random.Random(2)
    while truth.is_chance_node():
        game.apply_outcome(truth, game.sample_outcome(truth, rng))
    seen = game.from_position(seat_view(game, truth, 1))
    other = game.hidden().determinize(seen, 1, random.Random(5))
    assert seat_view(game, truth, 1) == seat_view(game, other, 1)
    assert game.to_position(truth) != game.to_position(other)
    assert seat_view(game, truth, 0) != seat_view(game, other, 0)
    assert game.deciding_seats(truth) == (0, 1, 2)
    return truth, other


@pytest.mark.parametrize(("engine", "options"), [
    ("random", {}), ("greedy", {}), ("mcts", {"Iterations": "60"}), ("js-random", {})])
def test_silver_gold_engines_see_only_their_view(engine, options):
    """Silver & Gold Pyramids through the arbiter: each bundled engine, in seat 2, keeps
    the same two of its four dealt cards whatever the other seats were dealt."""
    if engine == "js-random":
        require_program("node", "Node.js")
    game = get_game("silver-gold")
    random_player = engine_command("random")
    kept = [first_sealed_move([random_player, engine_command(engine), random_player],
                              options, game, start, 8).move
            for start in silver_gold_truths()]
    assert kept[0] == kept[1]
    assert kept[0] in game.legal_moves(silver_gold_truths()[0], 1)


def test_silver_gold_analyse_knows_only_the_seats_view():
    """position analyse --game silver-gold --seat 2: the same analysis of two truths and of
    seat 2's view; --seat 1 (seat 1's own view) another."""
    game = get_game("silver-gold")
    truth, other = silver_gold_truths()
    texts = [game.to_position(truth), game.to_position(other), seat_view(game, truth, 1)]
    out = [run_cli("position", "analyse", "--game", "silver-gold", "--seat", "2",
                   "--iterations", "40", "--top", "0", text) for text in texts]
    assert all(r.returncode == 0 for r in out), out[0].stderr
    assert out[0].stdout == out[1].stdout == out[2].stdout
    lines = out[0].stdout.splitlines()
    assert lines[0].startswith("seat 2 to move: 40 playouts, ")
    assert len(lines) == 1 + 6  # keep two of four cards: 6 ways
    moves = run_cli("position", "moves", "--game", "silver-gold", "--seat", "3", texts[0])
    assert moves.stdout.splitlines() == game.legal_moves(truth, 2)
