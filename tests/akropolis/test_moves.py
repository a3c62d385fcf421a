"""The legal-move listing (A23): exactly the legal placements (checked against a brute force
over every anchor and rotation), sorted by place, q, r, rotation, each result once; the
listed fast path equals the checked one; perft counts at fixed positions."""

from __future__ import annotations

import random

import pytest
from akropolis.helpers import start
from hypothesis import given, settings
from hypothesis import strategies as st
from support import decisions_of

from sneferu_cli.bench import perft as count_sequences
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.geometry import cell, q_of, r_of
from sneferu_cli.games.akropolis.move import parse_move
from sneferu_cli.games.akropolis.state import AkropolisState, spot_text


def actions(state: AkropolisState) -> list[str]:
    if state.is_chance_node():
        return [o for o, _ in GAME.chance_outcomes(state)]
    return GAME.legal_moves(state)


def apply(state: AkropolisState, text: str) -> None:
    if text.startswith("~"):
        GAME.apply_outcome(state, text)
    else:
        GAME.apply_move(state, text, listed=True)


def seeded(players: int, variant: str, seed: int, turns: int) -> AkropolisState:
    """A new game, its chance drawn by ``seed``, then ``turns`` random moves."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    while True:
        while state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        if not turns or state.is_over():
            return state
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
        turns -= 1


def brute_force(state: AkropolisState) -> list[str]:
    """Every move whose spot passes the rules' check, over anchors near the city."""
    city = state.cities[state.seat]
    qs = [q_of(c) for c in city.cells]
    rs = [r_of(c) for c in city.cells]
    spots = []
    for q in range(min(qs) - 3, max(qs) + 4):
        for r in range(min(rs) - 3, max(rs) + 4):
            for rot in range(6):
                if not city.spot_problem(cell(q, r), rot):
                    spots.append((q, r, rot))
    return [f"{p} @{q},{r} r{k}" for p in range(1, state.affordable() + 1)
            for q, r, k in sorted(spots)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1), st.integers(0, 59))
def test_the_listing_is_the_brute_force_in_order(players, seed, turns):
    state = seeded(players, "hmbtga", seed, turns)
    if state.is_over():
        return
    moves = GAME.legal_moves(state)
    assert moves == brute_force(state)
    keys = [parse_move(m) for m in moves]
    assert keys == sorted(keys)  # A23: place, q, r, rotation as numbers


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_the_spots_each_placement_keeps_are_those_a_search_finds(players, seed):
    """The fast path: every city keeps its legal spots up to date at each placement,
    judging only the triangles near the tile laid; at every decision of random games
    (and in a clone) they are those a full search of the city finds (City.spots_into),
    with their texts. A position read leaves them to be found when first listed
    (City.refresh): the same."""
    rng = random.Random(seed)
    game = GAME.new_game(players)
    for state in decisions_of(GAME, game, rng):
        read = GAME.from_position(GAME.to_position(state))
        assert not any(city.legal_known for city in read.cities)
        for other in (state, state.clone(), read):
            assert other.legal_spots() == other.searched_spots()
            for city in other.cities:
                city.refresh()
                assert [s.number for s in city.legal] == city.searched()
                assert [s.texts[0] for s in city.legal] == [spot_text(s) for s in city.searched()]
        assert all(city.legal_known for city in state.cities)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
    assert game.legal_spots() == game.searched_spots() == []


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1))
def test_a_clone_and_its_original_change_apart(players, seed):
    """The fast path: a clone shares its cities' grids and kept spots (City.copy), never
    changed in place. Every decision of random games: a clone plays on; the original's
    position, listing and grids are unchanged, and the original's own next move leaves
    both its clones as they were (the one that played on and one that did not)."""
    rng = random.Random(seed)
    game = GAME.new_game(players)
    for state in decisions_of(GAME, game, rng):
        before = GAME.to_position(state)
        moves = GAME.legal_moves(state)
        grids = [(bytes(c.height), bytes(c.top), bytes(c.tile)) for c in state.cities]
        clone = state.clone()
        GAME.apply_move(clone, moves[-1], listed=True)
        after = GAME.to_position(clone)
        assert after != before
        assert GAME.to_position(state) == before and GAME.legal_moves(state) == moves
        assert [(bytes(c.height), bytes(c.top), bytes(c.tile)) for c in state.cities] == grids
        twin = state.clone()
        GAME.apply_move(state, moves[0], listed=True)
        assert GAME.to_position(clone) == after
        GAME.check(clone)
        assert [(bytes(c.height), bytes(c.top), bytes(c.tile)) for c in twin.cities] == grids
        GAME.check(twin)


@pytest.mark.parametrize("seed", [1, 2])
def test_cities_that_reach_far_out_list_and_rebuild_as_searched(seed):
    """Cities kept for the grid columns they occupy and a margin (City's window), grown as
    they reach out: in 2-player games where seat 1 always lays its tile farthest east (the
    greatest q) and seat 2 farthest west, each city ends over 30 steps from the origin,
    its window grown again and again. At every decision the legal moves (5.2, A23) are
    those a full search finds, and the cities are what replaying their placements builds
    (Game.check: heights, top hexes and top tiles of the whole grid)."""
    rng = random.Random(seed)
    game = GAME.new_game(2)
    for state in decisions_of(GAME, game, rng):
        assert state.legal_spots() == state.searched_spots()
        GAME.check(state)
        moves = GAME.legal_moves(state)
        east = state.current_seat() == 0
        far = max(moves, key=lambda m: parse_move(m)[1] if east else -parse_move(m)[1])
        GAME.apply_move(state, far, listed=True)
    GAME.check(game)
    reach = [max(q_of(c) for c in game.cities[0].cells),
             min(q_of(c) for c in game.cities[1].cells)]
    assert reach[0] > 30 and reach[1] < -30, reach


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_a_game_read_from_a_position_lists_as_the_game_played(players, seed, turns):
    """A position read mid-game (its cities' legal spots left to be found when listed)
    goes on to list exactly the moves of the game it was written from, to the end: the
    cities not listed yet take placements while out of date."""
    state = seeded(players, "hmbtga", seed, turns)
    read = GAME.from_position(GAME.to_position(state))
    rng = random.Random(seed)
    while not state.is_over():
        if state.is_chance_node():
            outcome = GAME.sample_outcome(state, rng)
            GAME.apply_outcome(state, outcome)
            GAME.apply_outcome(read, outcome)
            continue
        moves = GAME.legal_moves(state)
        assert GAME.legal_moves(read) == moves
        move = rng.choice(moves)
        GAME.apply_move(state, move, listed=True)
        GAME.apply_move(read, move, listed=True)
        GAME.check(read)
    assert GAME.to_position(read) == GAME.to_position(state)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32 - 1), st.integers(5, 40))
def test_every_listed_move_gives_a_different_city(players, seed, turns):
    """Section 3: no two (anchor, rotation)s of one tile give the same city."""
    state = seeded(players, "hmbtga", seed, turns)
    if state.is_over():
        return
    seat = state.current_seat()
    tile = state.site[0]
    cities = set()
    moves = [m for m in GAME.legal_moves(state) if m.startswith("1 ")]
    for m in moves:
        child = state.clone()
        GAME.apply_move(child, m, listed=True)
        city = child.cities[seat]
        cities.add((bytes(city.height), bytes(city.top)))
        checked = state.clone()
        GAME.apply_move(checked, m)
        assert GAME.to_position(checked) == GAME.to_position(child)
    assert len(cities) == len(moves) and tile not in child.site


def test_the_game_tells_a_listed_text_without_listing():
    """``is_listed_move``: seat 1 (1 stone) may take places 1 and 2 (A6) at the 90 spots
    around the starting tile; a text as listed is, another spot, a dearer place, another
    spacing or a spot on the starting tile is not; then seat 2 (2 stones) may take places 1
    to 3 of the three left; nothing is listed at a chance node."""
    state = start(2)
    listed = GAME.fast_paths().is_listed_move
    assert listed(state, "1 @-3,1 r1") and listed(state, "2 @3,0 r5")
    for text in ("3 @-3,1 r1", "1 @0,0 r0", "1 @-3,1  r1", "1 @-3,1 r1 ", "", "x"):
        assert listed(state, text) is False, text
    GAME.apply_move(state, "1 @-3,1 r1")
    assert listed(state, "3 @-3,1 r1") and not listed(state, "4 @-3,1 r1")
    assert listed(GAME.new_game(2), "1 @-3,1 r1") is False  # the site is drawn first


def test_perft_at_the_start():
    """2 players: 90 spots around the starting tile (A9); seat 1 (1 stone) may take places
    1 and 2, seat 2 (2 stones) places 1 to 3 of the three left; chance expanded at the
    set-up: 37 x 36 x 35 x 34 orders of the site."""
    state = start(2)
    assert count_sequences(state, 1, actions, apply) == 90 * 2
    assert count_sequences(state, 2, actions, apply) == 90 * 2 * 90 * 3
    fresh = GAME.new_game(2)
    assert count_sequences(fresh, 2, actions, apply) == 37 * 36


@pytest.mark.parametrize(("players", "variant", "seed", "turns", "counts"), [
    (2, "hmbtga", 1, 10, [192, 35136]),
    (3, "HMBTGA", 2, 20, [210, 46620]),
    (4, "hmbtga", 3, 30, [258, 63468]),
])
def test_perft_golden_counts(players, variant, seed, turns, counts):
    """Counts of move sequences from positions reached by fixed seeds: a change in the
    listing shows up here."""
    state = seeded(players, variant, seed, turns)
    assert [count_sequences(state, d, actions, apply) for d in (1, 2)] == counts
