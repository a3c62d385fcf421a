"""The terminal picture in parts, the page data, the estimate greedy plays by, and the
invariants ``GAME.check`` guards (SPEC.md 15.5)."""

from __future__ import annotations

import random

import pytest
from akropolis.helpers import play, start

from sneferu_cli.game import BrokenInvariant
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.heuristic import plain_values
from sneferu_cli.games.akropolis.state import new_game

EXAMPLE = ("T05", "T22", "T01", "T02")


def example():
    """The rules' placement examples (5.2), the refill's draws still to come."""
    state = start(2, site=EXAMPLE)
    play(state, "1 @1,-1 r0", "2 @1,-1 r0", "1 @0,0 r0")
    return state


def test_the_picture_draws_the_site_and_every_city_with_levels():
    parts = dict(GAME.picture_parts(example()))
    assert list(parts) == ["title", "site", "city 1", "city 2", "legend", "turn"]
    assert parts["title"] == "Akropolis, 2 players, edition standard; variant hmbtga"
    for code in ("h house", "m market", "b barracks", "t temple", "g garden", "q quarry",
                 "~~ a lake", "(q,r)"):
        assert code in parts["legend"]
    assert parts["site"].splitlines() == [
        "Construction site (chief architect: seat 2; 10 stacks left):",
        "  1  T02  M b q   free", "  2  ?    to be drawn", "  3  ?    to be drawn",
        "  4  ?    to be drawn"]
    # T22 (M q q) on level 2 over the starting tile and T05 (B q q).
    assert parts["city 1"].splitlines() == [
        "Seat 1: 2 points (houses 0x0=0, markets 0x2=0, barracks 0x0=0, temples 0x0=0, "
        "gardens 0x0=0; 2 stones), played last",
        "    q=-1    q=0     q=1     q=2",
        "                     q1",
        "             q2    (1,-2)    q1",
        "           (0,-1)    q2    (2,-2)",
        "             M2    (1,-1)",
        "     q1    (0,0)     q1",
        "   (-1,1)          (1,0)"]
    assert parts["city 2"].splitlines()[0].startswith("Seat 2: 2 points (houses 1x1=1, ")
    assert parts["turn"] == "Chance: a tile is drawn for site place 2."
    assert GAME.picture(example()) == "\n\n".join(parts.values())


def test_a_lake_is_drawn_and_the_end_ranks_every_seat():
    state = start(2, site=("T05", "T22", "T30", "T26"))
    # Two tiles and the starting tile close a ring around (1, -1).
    play(state, "1 @1,-2 r1", "1 @1,-1 r0", "1 @2,-1 r2")
    city = GAME.page_data(state)["seats"][0]
    assert city["lakes"] == [[1, -1]]
    assert "~~" in dict(GAME.picture_parts(state))["city 1"]
    rng = random.Random(1)
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, GAME.legal_moves(state)[-1])
    turn = dict(GAME.picture_parts(state))["turn"]
    standings = GAME.standings(state)
    first = min(standings, key=lambda s: (s.rank, s.seat))
    assert turn.startswith(f"Game over: 1. seat {first.seat} ({first.scores['points']} points")


def test_the_page_data():
    d = GAME.page_data(example())
    assert (d["game"], d["variant"], d["players"], d["chief"], d["stacks_left"]) == (
        "akropolis", "hmbtga", 2, 2, 10)
    assert d["position"] == GAME.to_position(example())
    assert d["site"][0] == {"place": 1, "tile": "T02", "hexes": ["M", "b", "q"], "cost": 0}
    assert d["site"][1] == {"place": 2, "tile": None, "hexes": None, "cost": 1}
    one = d["seats"][0]
    assert one["newest"] == [[0, 0], [0, -1], [1, -1]]
    assert {"q": 0, "r": 0, "hex": "M", "level": 2, "tile": "T22"} in one["hexes"]
    assert {"q": 1, "r": -2, "hex": "q", "level": 1, "tile": "T05"} in one["hexes"]
    assert {"q": 1, "r": 0, "hex": "q", "level": 1, "tile": "S"} in one["hexes"]
    assert (one["points"], one["stones"], one["stars"]["markets"]) == (2, 2, 2)
    assert d["turn"] == {"over": False, "chance": True, "seat": 2, "last": 1,
                         "text": "Chance: a tile is drawn for site place 2."}
    assert d["board"]["stars"] == {"H": 1, "M": 2, "B": 2, "T": 2, "G": 3}
    assert GAME.page_data(new_game(2))["turn"]["last"] is None
    assert "PLACE @Q,R rK" in GAME.move_help


def test_the_plain_estimate_is_the_score_now_and_half_the_waiting_districts():
    """Seat 2: a house group of 1 with its plaza (1), 1 stone, and a barracks on the edge
    with no barracks plaza yet: 0.5. Seat 1: 2 stones."""
    assert plain_values(example()) == [2.0, 2.5]


def test_the_estimate_adds_what_the_rest_of_the_game_should_bring():
    """34 of the game's 37 tiles are still to be placed (left = 34/37). Seat 1: 2 points
    (stones) + left x (-50.3 + 2 market stars x 5.40 + 6 quarries x 2.58 + 2 stones x 3.46)
    + left^2 x 115.8 = 84.07 (heuristic.py, WEIGHTS)."""
    left = 34 / 37
    seat1 = 2 + left * (-50.3 + 2 * 5.40 + 6 * 2.58 + 2 * 3.46) + left * left * 115.8
    assert GAME.evaluate(example())[0] == pytest.approx(seat1)
    assert GAME.evaluate(example()) == pytest.approx([84.07, 80.47], abs=0.005)


def test_check_finds_a_broken_state():
    state = example()
    GAME.check(state)
    broken = state.clone()
    broken.undrawn.append(broken.site[0])
    with pytest.raises(BrokenInvariant, match="tile set"):
        GAME.check(broken)
    broken = state.clone()
    broken.stones[0] = -1
    with pytest.raises(BrokenInvariant, match="stones"):
        GAME.check(broken)
    broken = state.clone()
    broken.cities[1].height = bytes(len(broken.cities[1].height))
    with pytest.raises(BrokenInvariant, match="seat 2: the city is not what"):
        GAME.check(broken)
