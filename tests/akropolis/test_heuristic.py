"""Akropolis's estimate (games/akropolis/heuristic.py, ``GAME.evaluate``): the score now
plus the fitted worth of what the scoring does not count yet (its features), exact on
hand-built cities (AKROPOLIS-RULES.md section 8, rulings A13-A16)."""

from __future__ import annotations

import random

import pytest

from sneferu_cli.game import get_game
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.heuristic import (
    FEATURES,
    WEIGHTS,
    features,
    left_share,
    plain_values,
    values,
)
from sneferu_cli.games.akropolis.scoring import points

from .helpers import hand_city, play_to_end, ring, start


def named(state: object, seat: int) -> dict[str, float]:
    return dict(zip(FEATURES, features(state, seat), strict=True))  # type: ignore[arg-type]


def test_a_temple_with_five_neighbours_counts_apart_from_open_and_surrounded_ones():
    # 8.2: a temple scores when all six neighbours are occupied, by any hex; one short of
    # six is the temple a single tile can still complete.
    near = ring((0, 0))
    del near[(0, -1)]
    city = {(0, 0): "t2", **near, (5, 0): "t1", (8, 0): "t3", **ring((8, 0)), (0, 5): "T"}
    state = start()
    state.cities[0] = hand_city(city)
    f = named(state, 0)
    left = left_share(state)
    assert left == 1.0  # no tile placed yet (a hand city has no placements)
    assert f["value_t*left"] == 3.0  # the surrounded temple at level 3 scores (8.2)
    assert f["temples_5of6*stars_t"] == 2 * 2  # level 2 times the temple plaza's 2 stars
    assert f["temples_5of6*left"] == 2.0
    assert f["temples_open*left"] == 1.0  # the lone temple at level 1
    assert f["quarries*left"] == 11.0  # 5 + 6 quarries on top
    assert f["stars_t*left"] == 2.0


def test_houses_outside_the_largest_group_and_types_without_a_plaza():
    # A13/A14: one group of three houses (one at level 2) scores 4; the pair apart, 2.
    city = {(0, 0): "h2", (0, 1): "h", (1, 0): "h", (4, 0): "h", (4, 1): "h", (6, 6): "g2",
            (9, 9): "H"}
    state = start()
    state.cities[1] = hand_city(city)
    f = named(state, 1)
    assert f["value_h*left"] == 4.0 and f["houses_apart*left"] == 2.0
    assert f["houses_apart*stars_h"] == 2.0  # one house plaza, 1 star
    assert f["unstarred_value"] == 2.0  # the gardens (level 2) have no plaza yet
    assert f["value_g*left"] == 2.0


def test_the_estimate_is_the_score_now_plus_the_weighted_features():
    state = start()
    for seat in range(2):
        worth = points(state, seat) + sum(w * x for w, x in zip(WEIGHTS, features(state, seat),
                                                                strict=True))
        assert values(state)[seat] == pytest.approx(worth)
    assert plain_values(state) == [1.0, 2.0]  # the stones (4.6)


def test_a_finished_game_is_valued_by_its_final_score():
    game = get_game("akropolis")
    state = game.new_game(2)
    play_to_end(state, random.Random(3))
    assert features(state, 0) == [0.0] * len(FEATURES)
    assert values(state) == [float(points(state, s)) for s in range(2)] == plain_values(state)


def test_what_the_estimate_keeps_on_a_city_follows_its_placements():
    """Each city keeps what the estimate read of it until a tile is placed there: along a
    game the estimate equals that of the same position read afresh from its notation."""
    rng = random.Random(4)
    state = start(3)
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        fresh = GAME.from_position(GAME.to_position(state))
        assert values(state) == pytest.approx(values(fresh))
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
