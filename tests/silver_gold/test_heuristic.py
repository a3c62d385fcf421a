"""Silver & Gold's estimate (games/silver_gold/heuristic.py): the shortest routes to the
tomb, the features along them and the values they give, on hand-built positions."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from silver_gold.helpers import Seat, build, cells, random_games
from support import decisions_of

from sneferu_cli.games.silver_gold import GAME, SilverGoldGame
from sneferu_cli.games.silver_gold.heuristic import (
    FEATURES,
    WEIGHTS,
    features,
    route,
    route_values,
    stage,
    turns_left,
)
from sneferu_cli.games.silver_gold.state import MARKING
from sneferu_cli.search.generic import gain, gains, search_game

ROUTE_9 = "a1 b1 b2 c2 d2 d3 d4 d5"
"""Card 9 (PUR, ``E.#X.`` ``#.G.S`` ``.X...`` ``G...#`` ``P#R.T``) marked to next to its tomb."""

SHARE, GEMS, SKULLS, TORCH, CLAIMS, CROSSES, BIAS = range(len(FEATURES))


def test_the_shortest_routes_of_card_1_by_the_rules_example():
    # Card 1, rows `E##..` `...#.` `#GR#.` `#.F.S` `....T`, after 1:a1,a2,b2 (5.2 example).
    state = build(Seat(play={1: "a1 a2 b2"}), Seat(play={2: ""}), exp=("V3", "O4"))
    # Six cells to go (G4: each marking joins the marked group), through b3 or c2, so the
    # cells on some such route are b3 b4 b5 c2 c3 c4 c5 d4 d5 e4 e5.
    assert route(state, 1) == (6, cells("c2 b3 c3 b4 c4 d4 e4 b5 c5 d5 e5"))
    # Unmarked, a card needs its entrance first (5.2, item 4): card 1 needs 9 cells.
    assert route(state, 2)[0] == 9


def test_the_features_read_the_symbols_on_the_routes():
    state = build(Seat(play={1: "a1 a2 b2"}), Seat(play={2: ""}), exp=("V3", "O4"))
    assert turns_left(state) == 27 and stage(state) == 0
    f = features(state, 0)
    # b3 a green gem and c3 a red one: a pair, 5 points (9); e4 a skull: -1 (2.5); c4 the
    # torch while round 1's box is empty (G8): 5 points; no colour near a claim (7).
    assert f == [pytest.approx(10 * 3 / 9), 5.0, -1.0, 5.0, 0.0, 0.0, 1.0]
    # The torch box of the round already marked: the torch on the route is worth nothing.
    state = build(Seat(play={1: "a1 a2 b2"}, torches="x---"), Seat(play={2: ""}),
                  exp=("V3", "O4"))
    assert features(state, 0)[TORCH] == 0.0


def test_the_estimate_counts_a_sealed_move_as_made():
    state = build(Seat(play={1: "a1 a2 b2"}), Seat(play={2: ""}), exp=("V3", "O4"))
    before = GAME.evaluate(state)
    GAME.apply_move(state, "1:b3,c3,b4,c4", 0)  # a green and a red gem, the torch
    after = GAME.evaluate(state)
    w = WEIGHTS[0]
    # Points now: 5 for the pair, 5 for the torch. Before: 3 of 9 marked, the pair, the
    # torch and the skull e4 to come; after: 7 of 10 marked (c5 d5 e5 or d4/e4), the
    # skull e4 still on a route.
    assert before[0] == pytest.approx(10 * 3 / 9 + 5 * w[GEMS] - w[SKULLS] + 5 * w[TORCH]
                                      + w[BIAS])
    assert after[0] == pytest.approx(10 + 10 * 7 / 10 - w[SKULLS] + w[BIAS])
    assert after[1] == before[1] and state.sealed[0] is not None


def test_a_card_that_would_reach_a_colour_threshold_promises_its_box():
    # Seat 1 completed card 3 (PUR); card 9 (PUR) lacks only its tomb: completing it is
    # the 2nd purple card, which claims the best free PUR box (7).
    state = build(Seat(play={9: ROUTE_9}, done=(3,)), Seat(play={7: ""}), exp=("I3",))
    assert features(state, 0)[CLAIMS] == pytest.approx(10 * 8 / 9)
    # With PUR 10 taken by seat 2, the next box is 6.
    state = build(Seat(play={9: ROUTE_9}, done=(3,)),
                  Seat(play={7: ""}, done=(6, 12), pts=("PUR10",)), exp=("I3",))
    assert features(state, 0)[CLAIMS] == pytest.approx(6 * 8 / 9)
    assert features(state, 1)[CLAIMS] == 0.0  # seat 2 has no card near a claim


def test_completing_a_card_keeps_the_box_it_claims_in_step_4():
    state = build(Seat(play={9: ROUTE_9}, done=(3,)), Seat(play={7: ""}), exp=("I3",))
    before = GAME.evaluate(state)
    GAME.apply_move(state, "9:e5", 0)  # the tomb (G5): card 9 complete (5.6)
    after = GAME.evaluate(state)
    # The box is claimed only in step 4 (7, G17), after the others' moves: until then it
    # counts as to come, so completing the card is worth its 10 points and the box's 10
    # against the shares it had (8 of 9 of each).
    assert after[0] - before[0] == pytest.approx(20 - 2 * 10 * 8 / 9)


def test_a_finished_game_is_worth_its_points():
    state = build(Seat(play={9: ROUTE_9}, red=2, green=1), Seat(play={7: ""}),
                  exp=("D2", "I3", "I3", "V3", "V3", "T4", "L4"), round=4, phase="over")
    assert GAME.evaluate(state) == [6.0, 0.0] == route_values(state)


def test_the_simpler_estimate_counts_points_and_shares_only():
    state = build(Seat(play={9: ROUTE_9}, red=2, green=1), Seat(play={7: ""}),
                  exp=("I3",))
    assert route(state, 9) == (1, cells("e5")) and route(state, 7)[0] == 9
    assert route_values(state) == [pytest.approx(5 + 1 + 10 * 8 / 9), 0.0]
    # In the last marking a card 8 cells from its tomb is worth nothing more.
    state = build(Seat(play={9: ROUTE_9}), Seat(play={7: "a1"}),
                  exp=("D2", "I3", "I3", "V3", "V3", "T4", "L4"), round=4)
    assert turns_left(state) == 1 and stage(state) == 3
    assert route_values(state) == [pytest.approx(10 * 8 / 9), 0.0]
    assert features(state, 1)[SHARE] == 0.0


SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_the_fitting_script_prints_weights_within_their_bounds():
    out = subprocess.run([sys.executable, str(SCRIPTS / "fit_silver_gold.py"), "4",
                          "--seats", "2"], capture_output=True, text=True, timeout=600,
                         check=True).stdout
    rows = [line for line in out.splitlines() if line.startswith("    (")]
    assert len(rows) == len(WEIGHTS)
    for row in rows:
        w = [float(x) for x in row.strip(" (),").split(",")]
        assert len(w) == len(FEATURES) and w[SHARE] == w[CLAIMS] == 1.0
        assert all(0.0 <= w[i] <= 1.0 for i in (GEMS, SKULLS, TORCH, CROSSES))


def test_a_duel_may_value_by_another_function_of_the_heuristic():
    out = subprocess.run([sys.executable, str(SCRIPTS / "duel.py"), "silver-gold", "2", "1",
                          "greedy", "greedy:Estimate=route_values"],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    assert out.startswith("silver-gold 2 seats, 2 games: greedy firsts")
    bad = subprocess.run([sys.executable, str(SCRIPTS / "duel.py"), "silver-gold", "2", "1",
                          "greedy", "greedy:Estimate=no_such_function"],
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "has no function 'no_such_function'" in bad.stderr
    assert "Traceback" not in bad.stderr


@random_games(6)
def test_the_searchs_shortcut_values_every_marking_as_the_plain_gain(players, seed):
    """Tools.move_gains (each marking made and taken back on one copy, G21: a sealed
    marking touches only its own seat) gives exactly gain()'s values, one copy per move,
    for every deciding seat at every step 2 of random games, seats already submitted
    included, and leaves the state as it was; None outside step 2 and for the last seat
    to mark (its marking closes the node), where the search takes the plain way."""
    rng = random.Random(seed)
    tools = GAME.tools()
    shortcuts = 0
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        before = GAME.to_position(state)
        deciding = GAME.deciding_seats(state)
        for seat in deciding:
            moves = GAME.legal_moves(state, seat)
            fast = tools.move_gains(state, seat, moves)
            if state.phase != MARKING or len(deciding) == 1:
                assert fast is None
                continue
            assert fast == [gain(GAME, state, seat, m) for m in moves]
            assert gains(GAME, state, seat, moves) == fast
            shortcuts += 1
        assert GAME.to_position(state) == before
        seat = rng.choice(deciding)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat)
    assert shortcuts


def test_the_search_with_the_move_gains_shortcut_is_the_search_without_it():
    """Silver & Gold values its step-2 markings by its shortcut (Tools.move_gains); the
    same game without it (every move valued by gain() on copies) searches alike, at 2 and
    4 seats."""
    class Plain(SilverGoldGame):
        def tools(self) -> None:  # type: ignore[override]
            return None

    fast, plain = GAME, Plain()
    rng = random.Random(5)
    for players in (2, 4):
        state = fast.new_game(players)
        while state.is_chance_node() or state.phase != MARKING or state.turn < 3:
            if state.is_chance_node():
                fast.apply_outcome(state, fast.sample_outcome(state, rng))
            else:
                for s in fast.deciding_seats(state):
                    fast.apply_move(state, rng.choice(fast.legal_moves(state, s)), s)
        moves = fast.legal_moves(state, 0)
        assert fast.tools().move_gains(state, 0, moves) is not None

        def table(game: Any, state: Any = state) -> list[tuple[str, int, float, float]]:
            a = search_game(game, state, iterations=150, seed=4)
            return [(str(m.move), m.visits, m.reward, m.prior) for m in a.moves]

        assert table(fast) == table(plain)
