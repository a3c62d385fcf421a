"""``sneferu serve`` for a game with simultaneous sealed moves and hidden information (the
test-only Sealed Goofspiel, tests/sealed_game.py; SPEC 10.11), over the real server: a
request naming ``seat=N`` shows only what seat N may know (its view), never another seat's
hidden card or pending move; the host (no seat named) sees the whole game."""

from __future__ import annotations

import random
import sys

import msgspec
import pytest
from sealed_game import UNKNOWN, register
from serve_client import Server, untimed
from support import ROOT

from sneferu_cli.game import get_game

register()
SEALED = get_game("sealed")
WITH_TEST_GAMES = (sys.executable, str(ROOT / "tests" / "engines" / "with_test_games.py"),
                   "sneferu")


@pytest.fixture
def server():
    s = Server(sneferu=WITH_TEST_GAMES)
    yield s
    s.kill()


def test_a_whole_game_each_seat_shown_only_its_view(server: Server) -> None:
    """Three seats bid in a random order through ``play G seat=N``; at every step, every
    seat's ``position``, ``state`` and ``show`` are its view and hold none of the cards it
    may not know, and ``moves G seat=N`` are its own bids."""
    assert server.ok("new game=sealed players=3 seed=2") == ["g1"]
    assert server.ok("turn g1") == ["chance"]
    rng = random.Random(4)
    steps = 0
    while (turn := server.ok("turn g1")[0]) != "over":
        if turn == "chance":
            server.ok("chance g1")
            continue
        truth = server.ok("position g1")[0]
        deciding = SEALED.deciding_seats(SEALED.from_position(truth))
        assert turn == "seats:" + ",".join(str(s + 1) for s in deciding)
        for seat in range(3):
            (view,) = server.ok(f"position g1 seat={seat + 1}")
            assert view == SEALED.view(SEALED.from_position(truth), seat)
            state = msgspec.json.decode(server.ok(f"state g1 seat={seat + 1} legal")[0])
            picture = server.ok(f"show g1 seat={seat + 1}")[1:]
            assert state["position"] == view
            seen = SEALED.from_position(view)
            for s in range(3):
                if s != seat:  # other seats' cards and sealed bids: "?" alone
                    assert set(seen.hands[s] or ()) <= {UNKNOWN}
                    assert seen.bids[s] in (None, UNKNOWN)
            for other, line in enumerate(picture):  # "seat 2: score 0, hand ?.?.?, ..."
                hand = line.split("hand ")[1].split(",")[0]
                assert other == seat or set(hand) <= {"?", ".", "-"} or hand == "not dealt"
            moves = server.ok(f"moves g1 seat={seat + 1}")
            assert moves == SEALED.legal_moves_of(SEALED.from_position(truth), seat)
            assert state["legal"]["moves"] == moves
            assert state["turn"]["seats"] == [s + 1 for s in deciding]
        seat = rng.choice(deciding)
        bid = rng.choice(SEALED.legal_moves_of(SEALED.from_position(truth), seat))
        server.ok(f"play g1 seat={seat + 1} {bid}")
        steps += 1
    assert steps == 9  # 3 rounds, 3 bids each
    ranking = server.ok("ranking g1")
    assert len(ranking) == 3 and all(r.startswith(f"seat={i + 1} rank=")
                                     for i, r in enumerate(ranking))
    server.send("quit")
    assert server.close() == 0


POSITION = ("sealed prizes=1.3 prize=2 scores=0,0,0 hands=4.12/1.5.7/2.6.8 bids=9,-,- "
            "played=- retired=0,0,0")


def test_sealed_moves_undo_and_errors(server: Server) -> None:
    assert server.ok(f"load game=sealed {POSITION}") == ["g1"]
    assert server.ok("turn g1") == ["seats:2,3"]
    assert server.ask("play g1 seat=1 bid 4").error == "bid 4: not a legal move of seat 1"
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

