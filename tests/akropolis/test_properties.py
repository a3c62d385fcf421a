"""Property tests over random Akropolis games: the invariants (``GAME.check``: tiles
conserved, heights and top hexes what the placements build, stones never negative) at
every step, the stones of every turn (5.1, A11), the levels (5.2), scoring through a city's
window and its lakes (8.2, A16-A18) and the standings (8.4)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sneferu_cli.games.akropolis import GAME, VARIANTS
from sneferu_cli.games.akropolis.geometry import CELLS, QUARRY, cell
from sneferu_cli.games.akropolis.heuristic import _city_features as city_features
from sneferu_cli.games.akropolis.move import parse_move
from sneferu_cli.games.akropolis.scoring import breakdown, city_scores, lakes
from sneferu_cli.games.akropolis.state import spot_cells


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(players, variant, seed):
    """At every step: the invariants; the stones, levels and top hexes of each move; and
    scoring reads a city's window of grid columns (``City.window``) as it would the whole
    grid, skipping the flood fill exactly where the city has no lake (``City.has_lakes``,
    A16-A18)."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    while not state.is_over():
        GAME.check(state)
        for city in state.cities:
            whole = city.copy()
            whole.height = whole.height  # the window is now the whole grid
            whole.scores = None
            assert whole.window()[0] == 0 and len(whole.window()[1]) == CELLS
            assert (breakdown(whole, state.tables.stars, state.bonus)
                    == breakdown(city, state.tables.stars, state.bonus))
            assert (city_features(whole, state.bonus, state.tables.stars)
                    == city_features(city, state.bonus, state.tables.stars))
            assert city.has_lakes() == bool(lakes(city))
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        text = rng.choice(GAME.legal_moves(state))
        place, q, r, rot = parse_move(text)
        seat = state.current_seat()
        city = state.cities[seat]
        cells = spot_cells(cell(q, r), rot)
        below = [city.height[c] for c in cells]
        quarries = sum(1 for c in cells if city.height[c] and city.top[c] == QUARRY)
        before = state.stones[seat]
        hexes = state.tables.hexes[state.site[place - 1]]
        GAME.apply_move(state, text)
        assert state.stones[seat] == before - (place - 1) + quarries  # 5.1, A11
        assert len(set(below)) == 1  # A8: one height under the tile
        assert [city.height[c] for c in cells] == [below[0] + 1] * 3
        assert [city.top[c] for c in cells] == hexes  # h0, h1, h2 on top where laid (3)
    GAME.check(state)
    for s in GAME.standings(state):
        city = state.cities[s.seat - 1]
        total = sum(city_scores(city, state.tables.stars, state.bonus)) + state.stones[s.seat - 1]
        assert s.scores == {"points": total, "stones": state.stones[s.seat - 1]}
    assert GAME.evaluate(state) == [float(s.scores["points"]) for s in GAME.standings(state)]

