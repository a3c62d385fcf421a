"""Set-up, the construction site, placement on the ground and on upper levels, quarries,
refills, the chief architect, the end and retiring (AKROPOLIS-RULES.md sections 4-7;
A1-A12), with exact numbers."""

from __future__ import annotations

import random

import pytest
from akropolis.helpers import play, start

from sneferu_cli.game import IllegalMove, NotationError
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.edition import HEXES
from sneferu_cli.games.akropolis.geometry import cell
from sneferu_cli.games.akropolis.state import new_game, spot_cells

EXAMPLE_SITE = ("T05", "T22", "T01", "T02")
"""T05 = B q q, T22 = M q q (the examples of section 5.2)."""


@pytest.mark.parametrize(("players", "variant", "tiles", "turns"), [
    (2, "hmbtga", 37, 36), (3, "hmbtga", 49, 48), (4, "hmbtga", 61, 60),
    (2, "hmbtgA", 61, 60), (3, "hmbtgA", 61, 60), (4, "hmbtgA", 61, 60)])
def test_tile_sets_and_game_length(players, variant, tiles, turns):
    """4.2, 4.3 and the game-length table: tiles in play, turns, turns per player; the last
    tile stays in the site (7)."""
    state = new_game(players, variant)
    assert len(state.undrawn) == tiles and state.to_draw == players + 2
    assert state.stones == [1, 2, 3, 4][:players]  # 4.6 [data]
    rng = random.Random(players)
    done = 0
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
            done += 1
    assert done == turns
    assert [len(c.tiles) for c in state.cities] == [turns // players] * players
    assert len(state.site) == 1 and state.undrawn == []


def test_every_city_starts_with_the_starting_tile():
    """A3: H at (0, 0), quarries at (0, -1), (1, 0), (-1, 1), in every city."""
    state = start(3)
    for city in state.cities:
        tops = {c: HEXES[city.top[c]] for c in city.cells}
        assert tops == {cell(0, 0): "H", cell(0, -1): "q", cell(1, 0): "q", cell(-1, 1): "q"}


def test_new_cities_are_copies_that_placements_leave_apart():
    """Every new city is a copy of one starting city (Tables.started): a placement in one
    city of one game changes no other city, of that game or of another."""
    state = start(2)
    other = start(2)
    before = GAME.to_position(other), [list(c.cells) for c in other.cities]
    for _ in range(2):
        play(state, GAME.legal_moves(state)[0])
    assert [len(c.tiles) for c in state.cities] == [1, 1]
    assert (GAME.to_position(other), [list(c.cells) for c in other.cities]) == before
    assert GAME.legal_moves(other) == GAME.legal_moves(start(2))
    fresh = start(2)
    assert fresh.cities[0].legal == other.cities[0].legal and not fresh.cities[0].tiles


def test_site_draws_are_uniform_over_the_undrawn_tiles():
    """4.3, A4: n + 2 draws into places 1 .. n + 2; each undrawn tile equally likely."""
    state = new_game(2)
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 37 and {p for _, p in outcomes} == {1 / 37}
    play(state, "~T05", "~T22", "~T01")
    assert len(GAME.chance_outcomes(state)) == 34 and state.is_chance_node()
    with pytest.raises(IllegalMove, match="not among the undrawn"):
        GAME.apply_outcome(state, "~T05")
    with pytest.raises(IllegalMove, match="unknown tile"):
        GAME.apply_outcome(state, "~T99")
    with pytest.raises(NotationError, match="bad chance outcome 'T05'"):
        GAME.apply_outcome(state, "T05")
    play(state, "~T02")
    assert [state.tables.codes[t] for t in state.site] == list(EXAMPLE_SITE)
    assert not state.is_chance_node() and state.current_seat() == 0


def test_the_rules_placement_examples():
    """5.2 examples: T05 on the ground; T22 over two tiles at level 2 gains a stone for the
    covered quarry (A11); not over stacks of different heights (A8); not on one tile (A9)."""
    state = start(2, site=EXAMPLE_SITE)
    play(state, "1 @1,-1 r0")  # seat 1: T05 (B q q) at level 1, free
    city = state.cities[0]
    assert [(HEXES[city.top[c]], city.height[c]) for c in (cell(1, -1), cell(1, -2),
                                                          cell(2, -2))] == [
        ("B", 1), ("q", 1), ("q", 1)]
    assert state.stones == [1, 2]
    play(state, "2 @1,-1 r0")  # seat 2 takes T01 for 1 stone
    assert state.stones == [1, 1]
    assert [state.tables.codes[t] for t in state.site] == ["T22", "T02"]  # A5: compact
    for text, why in [("1 @0,0 r5", "not of one height"), ("1 @1,-1 r0", "single tile"),
                      ("1 @5,5 r0", "touches no tile")]:
        with pytest.raises(IllegalMove, match=why):
            GAME.apply_move(state, text)
    play(state, "1 @0,0 r0")  # T22 (M q q) over H, q (start) and B (T05)
    assert [(HEXES[city.top[c]], city.height[c]) for c in (cell(0, 0), cell(0, -1),
                                                          cell(1, -1))] == [
        ("M", 2), ("q", 2), ("q", 2)]
    assert state.stones == [2, 1]  # one quarry covered (A11)


def test_a_tile_never_lies_on_the_starting_tile_alone():
    """A9: every legal spot of a new city is on the ground, and none covers a position: 30
    triangles of three positions touch the starting tile, each taken three ways (h0 on
    each of its positions)."""
    state = start()
    city = state.cities[0]
    spots = state.legal_spots()
    assert len(spots) == 90
    for spot in spots:
        at, rot = divmod(spot, 6)
        assert all(city.height[c] == 0 for c in spot_cells(at, rot))


def test_a_tile_costs_the_tiles_skipped_and_must_be_affordable():
    """5.1, A6: place p costs p - 1 stones; seat 1 (1 stone) may take places 1 and 2 only;
    stones from covered quarries come after the payment."""
    state = start(2, site=EXAMPLE_SITE)
    moves = GAME.legal_moves(state)
    assert {m.split()[0] for m in moves} == {"1", "2"} and len(moves) == 2 * 90
    with pytest.raises(IllegalMove, match="costs 2 stones, seat 1 has 1"):
        GAME.apply_move(state, "3 @1,-1 r0")
    play(state, "2 @-1,0 r5")  # T22 (M q q): 1 stone, covers nothing
    assert state.stones == [0, 2]
    play(state, "3 @1,-1 r0")  # seat 2: T02 for 2 stones
    assert state.stones == [0, 0]
    # Seat 1, no stones: T01 over (0, 0), (-1, 0), (0, -1) would cover a quarry, but
    # place 2 cannot be paid for with it.
    assert "1 @0,0 r5" in GAME.legal_moves(state)
    with pytest.raises(IllegalMove, match="costs 1 stones, seat 1 has 0"):
        GAME.apply_move(state, "2 @0,0 r5")
    assert {m.split()[0] for m in GAME.legal_moves(state)} == {"1"}


def test_refill_passes_the_chief_architect_and_turns_stay_clockwise():
    """6, A12: the turn that leaves one tile refills the site behind it (n + 1 draws), the
    chief architect passes clockwise, and the next seat clockwise plays."""
    state = start(3, site=("T01", "T02", "T03", "T04", "T05"))
    seats = []
    for _ in range(4):
        seats.append(state.current_seat())
        GAME.apply_move(state, GAME.legal_moves(state)[0])
    # The fourth turn left one tile: refill.
    assert seats == [0, 1, 2, 0]
    assert state.is_chance_node() and state.to_draw == 4
    assert [state.tables.codes[t] for t in state.site] == ["T05"]
    assert state.chief == 1 and state.current_seat() == 1
    assert state.stacks_left() == 10  # 49 - 5 - 4 = 40 undrawn for 10 stacks
    play(state, "~T10", "~T11", "~T12", "~T13")
    assert [state.tables.codes[t] for t in state.site] == ["T05", "T10", "T11", "T12", "T13"]
    seats = []
    for _ in range(4):
        seats.append(state.current_seat())
        GAME.apply_move(state, GAME.legal_moves(state)[0])
    assert seats == [1, 2, 0, 1] and state.chief == 2 and state.current_seat() == 2


def test_the_game_ends_when_a_turn_leaves_one_tile_and_no_stack():
    """7: no stack left, the turn that leaves one tile ends the game; that tile stays."""
    state = start(2)
    rng = random.Random(3)
    while state.undrawn or state.is_chance_node() or len(state.site) > 2:
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
    assert not state.is_over() and len(state.site) == 2
    GAME.apply_move(state, GAME.legal_moves(state)[0])
    assert state.is_over() and len(state.site) == 1 and GAME.legal_moves(state) == []
    assert GAME.termination(state) == "normal"
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.apply_move(state, "1 @1,-1 r0")


def test_a_retired_seats_turns_are_skipped_and_it_ranks_last():
    """A retired seat takes no more turns; with every seat retired the game is over."""
    state = start(3)
    state.retire(1)
    GAME.apply_move(state, GAME.legal_moves(state)[0])
    assert state.current_seat() == 2
    state.retire(2)
    assert state.current_seat() == 0 and not state.is_over()
    assert GAME.standings(state)[0].rank == 1
    assert [s.retired for s in GAME.standings(state)] == [False, True, True]
    state.retire(0)
    assert state.is_over() and GAME.termination(state) == "all-retired"


def test_variants_are_the_option_words():
    """9: six letters hmbtga, upper case when on; 64 of them; a wrong one is one line."""
    assert len(GAME.variants) == 64 and GAME.variants[0] == "hmbtga"
    assert "HMBTGA" in GAME.variants and "HmbTgA" in GAME.variants
    state = GAME.new_game(2, variant="hMbtgA")
    assert state.bonus == [False, True, False, False, False] and state.all_tiles
    with pytest.raises(ValueError, match="unknown Akropolis variant 'HMBTG'"):
        GAME.new_game(2, variant="HMBTG")
