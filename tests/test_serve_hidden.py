"""``sneferu serve`` for a game with simultaneous sealed moves and hidden information (the
test-only Sealed Goofspiel, tests/sealed_game.py, and Silver & Gold Pyramids; SPEC 10.11),
over the real server: a
request naming ``seat=N`` shows only what seat N may know (its view), never another seat's
hidden card or pending move; the host (no seat named) sees the whole game."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from games import register_all
from sealed_game import UNKNOWN, register
from serve_client import Server, untimed
from support import ROOT

from sneferu_cli.game import Game, get_game, seat_state, seat_view
from sneferu_cli.serve.session import OutcomeList
from sneferu_cli.serve.state_json import game_odds

register()
TEST_GAMES = register_all()
SEALED = get_game("sealed")
WITH_TEST_GAMES = (sys.executable, str(ROOT / "tests" / "engines" / "with_test_games.py"),
                   "sneferu")


@pytest.fixture
def server():
    s = Server(sneferu=WITH_TEST_GAMES)
    yield s
    s.kill()


def unmarked(lines: list[str]) -> list[str]:
    """A picture's lines with a cell marked in the last step drawn as any marked cell."""
    return [line.replace("<", "[").replace(">", "]") for line in lines]


def play_through(server: Server, game: Game, players: int, seed: int,
                 check: Callable[[Any, int], None] | None = None,
                 marked: list[str] | None = None) -> int:
    """Play a whole game of ``game`` on the server, every seat's move with ``play G seat=N``
    in a random order at each simultaneous node; before each move check every seat's
    ``position``, ``state``, ``show`` and ``moves`` against its view (and ``check`` the
    view's state for each seat; ``marked`` gets each ``show`` that marks the last step's
    cells beyond the view's picture). The number of moves played."""
    assert server.ok(f"new game={game.name} players={players} seed={seed}") == ["g1"]
    rng = random.Random(seed)
    moves_played = 0
    while (turn := server.ok("turn g1")[0]) != "over":
        if turn == "chance":
            truth = game.from_position(server.ok("position g1")[0])
            for seat in range(players):
                assert server.ok(f"turn g1 seat={seat + 1}") == ["chance"]
                seen = seat_state(game, truth, seat)
                assert server.ok(f"outcomes g1 seat={seat + 1}") == OutcomeList(
                    game_odds(game, seen)).lines()
            server.ok("chance g1")
            continue
        truth = game.from_position(server.ok("position g1")[0])
        deciding = game.deciding_seats(truth)
        assert turn == ("seats:" + ",".join(str(s + 1) for s in deciding)
                        if game.is_simultaneous(truth) else f"seat:{deciding[0] + 1}")
        for seat in range(players):
            (view,) = server.ok(f"position g1 seat={seat + 1}")
            assert view == seat_view(game, truth, seat)
            seen = game.from_position(view)
            state = msgspec.json.decode(server.ok(f"state g1 seat={seat + 1} legal")[0])
            assert state["position"] == view
            assert state["data"] == msgspec.json.decode(msgspec.json.encode(
                game.page_data(seen)))
            assert state["turn"].get("seats") == ([s + 1 for s in game.deciding_seats(seen)]
                                                  if game.is_simultaneous(seen) else None)
            # The picture of the view, with what every seat saw marked in the last step
            # (Game.shown_state; Silver & Gold's <X>: the position does not hold it).
            picture = [line for line in game.picture(seen).splitlines() if line.strip()]
            shown = server.ok(f"show g1 seat={seat + 1}")
            assert unmarked(shown) == unmarked(picture)
            if marked is not None and shown != picture:
                marked.append(f"seat {seat + 1}, move {moves_played}")
            assert server.ok(f"turn g1 seat={seat + 1}") == [
                "seats:" + ",".join(str(s + 1) for s in game.deciding_seats(seen))
                if game.is_simultaneous(seen) else f"seat:{deciding[0] + 1}"]
            moves = server.ok(f"moves g1 seat={seat + 1}")
            assert moves == game.legal_moves(truth, seat) == state["legal"]["moves"]
            if check is not None:
                check(seen, seat)
        seat = rng.choice(deciding)
        move = rng.choice(game.legal_moves(truth, seat))
        server.ok(f"play g1 seat={seat + 1} {move}")
        moves_played += 1
    ranking = server.ok("ranking g1")
    assert [r.split()[0] for r in ranking] == [f"seat={i + 1}" for i in range(players)]
    return moves_played


def test_a_whole_game_each_seat_shown_only_its_view(server: Server) -> None:
    """Sealed Goofspiel, three seats: each seat's requests show its view, in which the
    other seats' cards and sealed bids are ``?``, and its own bids."""

    def hidden(seen: Any, seat: int) -> None:
        for s in range(3):
            if s != seat:
                assert set(seen.hands[s] or ()) <= {UNKNOWN}
                assert seen.bids[s] in (None, UNKNOWN)

    assert play_through(server, SEALED, 3, 2, hidden) == 9  # 3 rounds, 3 bids each
    server.send("quit")
    assert server.close() == 0


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_silver_gold_game_each_seat_shown_only_its_view(server: Server, players):
    """Silver & Gold Pyramids (SPEC 14): the set-up keep and every marking are sealed moves
    of all seats; each seat is shown its view (the others' dealt cards and pending marks
    hidden: ``dealt:?``), and its own moves."""
    game = get_game("silver-gold")

    def hidden(seen: Any, seat: int) -> None:
        text = game.to_position(seen)
        for s in range(players):
            part = text.split(" | ")[s + 1]
            assert s == seat or "dealt:" not in part or part.endswith("dealt:?")

    marked: list[str] = []
    assert play_through(server, game, players, 6, hidden, marked) > 20 * players
    assert marked  # a seat is shown the cells every seat marked in the last step


@pytest.mark.parametrize(("name", "players"), [
    (name, n) for name in TEST_GAMES
    for n in sorted({min(get_game(name).players), max(get_game(name).players)})])
def test_a_test_only_game_served_each_seat_shown_only_its_view(server: Server, name,
                                                               players) -> None:
    """Every test-only game of tests/games/, which serve has no code for, at its fewest and
    most seats: each seat's requests show its view and its own moves (play_through)."""
    assert play_through(server, get_game(name), players, players) > 0
    server.send("quit")
    assert server.close() == 0


POSITION = ("sealed prizes=1.3 prize=2 scores=0,0,0 hands=4.12/1.5.7/2.6.8 bids=9,-,- "
            "played=- retired=0,0,0")


def test_sealed_moves_undo_and_errors(server: Server) -> None:
    assert server.ok(f"load game=sealed {POSITION}") == ["g1"]
    assert server.ok("turn g1") == ["seats:2,3"]
    assert server.ask("play g1 seat=1 bid 4").error == "seat 1 has no decision to take now"
    assert server.ask("play g1 seat=4 bid 4").error == "seat=4: the game has 3 seats"
    assert server.ask("play g1 seat=x bid 4").error == "play: seat=x: not a seat number"
    assert server.ask("position g1 seat=0").error == "seat=0: the game has 3 seats"
    assert server.ask("analyse g1 seat=1 iterations=10").error == \
        "analyse: seat 1 has no decision to take now (seats deciding: 2, 3)"
    assert server.ok("moves g1 seat=1") == []  # its bid is sealed already
    server.ok("play g1 seat=3 bid 8")
    assert server.ok("position g1 seat=2")[0].endswith("bids=?,-,? played=- retired=0,0,0")
    assert server.ok("turn g1") == ["seats:2"]
    server.ok("play g1 bid 5")  # the current seat: the last one to decide
    assert server.ok("turn g1") == ["chance"]
    assert server.ok("position g1")[0].endswith("bids=-,-,- played=5.8.9 retired=0,0,0")
    assert server.ok("undo g1") == ["seat=2 bid 5"]
    assert server.ok("undo g1") == ["seat=3 bid 8"]
    assert server.ok("position g1") == [POSITION]


def test_analyse_for_a_seat_knows_only_its_view(server: Server) -> None:
    """Two games whose truths differ but whose views for seat 2 are the same: the same
    analysis, and the same as the view's own."""
    other = POSITION.replace("4.12/", "3.10/").replace("2.6.8", "4.11.13") \
        .replace("bids=9", "bids=2")
    for text in (POSITION, other):
        server.ok(f"load game=sealed {text}")
    server.ok(f"load game=sealed {server.ok('position g1 seat=2')[0]}")
    found = [server.ok(f"analyse g{n} seat=2 iterations=200 top=0") for n in (1, 2, 3)]
    assert found[0] == found[1] == found[2]
    assert found[0][0] == "seat 2 to move: 200 playouts, 201 nodes"


def test_json_mode_names_the_seat() -> None:
    server = Server("--json", sneferu=WITH_TEST_GAMES)
    try:
        ask = server.ask_json
        assert ask({"command": "load", "game": "sealed", "position": POSITION})["ok"]
        assert ask({"command": "play", "game": "g1", "seat": 3, "move": "bid 6"}) == {
            "ok": True, "result": {}}
        state = ask({"command": "state", "game": "g1", "seat": 2, "legal": True})["result"]
        assert state["state"]["position"].endswith("hands=?.?/1.5.7/?.? bids=?,-,? played=- "
                                                   "retired=0,0,0")
        assert state["state"]["turn"] == {"over": False, "chance": False, "seat": 2,
                                          "seats": [2]}
        assert state["state"]["legal"]["moves"] == ["bid 1", "bid 5", "bid 7"]
        assert ask({"command": "moves", "game": "g1", "seat": 2})["result"] == {
            "moves": ["bid 1", "bid 5", "bid 7"]}
        a = ask({"command": "analyse", "game": "g1", "seat": 2, "iterations": 30})
        assert untimed(a["result"]["analysis"])["seat"] == 2
        assert ask({"command": "position", "game": "g1", "seat": "2"})["error"] == \
            "position: Expected `int | null`, got `str` - at `$.seat`"
    finally:
        server.kill()


def test_the_grammar_reads_seat_options_of_sneferu_requests(server: Server) -> None:
    """seat= is read in Sneferu's requests too (nothing is hidden there): the seat to move's
    moves, and a move of another seat is refused."""
    server.ok("new players=2 seed=3")
    server.ok("chance g1")
    assert server.ok("moves g1 seat=2") == []
    assert server.ok("moves g1 seat=1") == server.ok("moves g1")
    assert server.ask("play g1 seat=2 1.1 TG@1.1").error == \
        "seat 2 has no decision to take now"
    server.ok("play g1 seat=1 1.1 TG@1.1")
    assert server.ok("position g1 seat=2") == server.ok("position g1")



def test_turn_tells_a_seat_nothing_of_who_has_answered(server: Server) -> None:
    """G21/G22: what the others chose at a sealed node, and whether they have chosen, is
    hidden until the reveal. After seat 1 keeps, the host's ``turn`` says who is still to
    answer (SPEC 10.11: the host sees everything), a seat's ``turn`` and ``state`` only what
    that seat knows: seat 1 that it has answered, seats 2 and 3 that all three decide."""
    for line in ("new game=silver-gold players=3 seed=6", "chance g1",
                 "play g1 seat=1 keep 6 17"):
        server.ok(line)
    assert server.ok("turn g1") == ["seats:2,3"]
    assert server.ok("turn g1 seat=1") == ["seats:2,3"]
    for seat in (2, 3):
        assert server.ok(f"turn g1 seat={seat}") == ["seats:1,2,3"]
        state = msgspec.json.decode(server.ok(f"state g1 seat={seat} legal")[0])
        assert state["turn"]["seats"] == [1, 2, 3]
        assert not state["data"]["seats"][0]["sealed"]
    # a seat's turn is the same whether seat 1 has answered or not
    server.ok("undo g1")
    assert server.ok("turn g1 seat=2") == ["seats:1,2,3"]


def test_the_host_requests_refuse_a_seat(server: Server) -> None:
    """SPEC 10.11: ``chance`` (which shows every private deal), ``undo`` (which lists the
    sealed moves) and ``close`` are the host's alone: with ``seat=N`` they are refused and
    change nothing; in JSON mode too."""
    server.ok("new game=silver-gold players=3 seed=6")
    for line in ("chance g1 seat=2", "undo g1 seat=2", "undo g1 turn seat=2",
                 "close g1 seat=2"):
        command = line.split()[0]
        assert server.ask(line).error == (
            f"{command}: a request of the host's alone, not of a seat's client (SPEC 10.11): "
            "leave out seat=")
    assert server.ok("turn g1") == ["chance"]
    server.ok("chance g1")
    server.ok("play g1 seat=1 keep 6 17")
    assert server.ask("undo g1 seat=1").error.startswith("undo: a request of the host's")
    assert server.ok("turn g1") == ["seats:2,3"]
    server.send("quit")
    assert server.close() == 0
    json = Server("--json", sneferu=WITH_TEST_GAMES)
    try:
        assert json.ask_json({"command": "new", "game": "silver-gold", "players": 3})["ok"]
        assert json.ask_json({"command": "chance", "game": "g1", "seat": 1})["error"] == (
            "chance: a request of the host's alone, not of a seat's client (SPEC 10.11): "
            "leave out seat=")
        assert json.ask_json({"command": "turn", "game": "g1", "seat": 1})["result"] == {
            "turn": "chance"}
    finally:
        json.kill()


def test_a_seats_outcomes_at_a_deal_do_not_tell_the_others_cards(server: Server) -> None:
    """G22: each seat sees only its own deal. At the second deal the host's outcomes leave
    out the cards dealt to seat 1; seat 2's are the same whatever seat 1 was dealt."""
    first = ["~deal:1,2,3,4", "~deal:45,46,47,48"]
    for n, deal in enumerate(first, 1):
        server.ok("new game=silver-gold players=3")
        server.ok(f"chance g{n} {deal}")
    host = [server.ok(f"outcomes g{n}") for n in (1, 2)]
    assert host[0] != host[1]
    assert not any(line.startswith("~deal:1 ") for line in host[0])
    seat2 = [server.ok(f"outcomes g{n} seat=2") for n in (1, 2)]
    assert seat2[0] == seat2[1]
    assert seat2[0][0].startswith("~deal:1 ")
    assert server.ok("ranking g1 seat=2") == server.ok("ranking g1")


def test_a_deal_node_is_answered_in_parts_in_a_few_lines(server: Server) -> None:
    """SPEC 10.4, outcomes in parts: Silver & Gold's first deal (G22: four of 48 cards,
    194,580 outcomes) is answered a card at a time, in a few lines, and so is ``state
    legal``; following the parts gives a whole outcome that ``chance`` applies, with the
    probability of the whole deal, 1 / C(48, 4)."""
    server.ok("new game=silver-gold players=4 seed=1")
    first = server.ask("outcomes g1")
    assert len(first.text.encode()) < 2000 and len(first.lines) == 45
    assert first.lines[0] == "~deal:1 0.083333 16215 part"
    assert len(server.ask("state g1 legal").text.encode()) < 10_000
    chosen: list[str] = []
    probability = 1.0
    for card in (6, 17, 32, 37):
        lines = server.ok(" ".join(["outcomes g1", *chosen]))
        assert math.isclose(sum(float(line.split()[1]) for line in lines), 1, rel_tol=1e-5)
        line = next(line for line in lines
                    if line.split()[0] in (f"~deal:{card}", "~deal:6,17,32,37"))
        probability *= float(line.split()[1])
        chosen.append(f"~deal:{card}")
    assert line.split()[0] == "~deal:6,17,32,37" and not line.endswith("part")
    assert math.isclose(probability, 1 / math.comb(48, 4), rel_tol=1e-4)
    assert server.ask("outcomes g1 ~deal:6 ~deal:5").error == (
        "outcomes: ~deal:6 ~deal:5: not the first parts of an outcome of this chance node")
    assert server.ask("outcomes g1 ~deal:1 ~deal:2 ~deal:3 ~deal:4").error == (
        "outcomes: ~deal:1 ~deal:2 ~deal:3 ~deal:4: not the first parts of an outcome of "
        "this chance node")
    assert server.ok("chance g1 ~deal:6,17,32,37") == ["~deal:6,17,32,37"]
    assert server.ask("outcomes g1 ~deal:6").error == (  # dealt to seat 1 now
        "outcomes: ~deal:6: not the first parts of an outcome of this chance node")
    server.ok("new game=imhotep players=2")
    assert server.ask("outcomes g2 ~R3-1").error == (
        "outcomes: Imhotep gives its chance outcomes whole, not in parts")
    json = Server("--json", sneferu=WITH_TEST_GAMES)
    try:
        assert json.ask_json({"command": "new", "game": "silver-gold", "players": 2})["ok"]
        odds = json.ask_json({"command": "outcomes", "game": "g1",
                              "after": ["~deal:44", "~deal:45", "~deal:46"]})
        assert odds["result"]["outcomes"] == [
            {"outcome": f"~deal:44,45,46,{c}", "weight": 1, "probability": 0.5}
            for c in (47, 48)]
        odds = json.ask_json({"command": "outcomes", "game": "g1", "after": ["~deal:44"]})
        assert odds["result"]["outcomes"][0] == {
            "outcome": "~deal:45", "weight": 3, "probability": 0.75, "part": True}
    finally:
        json.kill()
