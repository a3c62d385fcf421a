"""Final scoring, the Wrath of the Pharaoh, ranking and retiring (sections 11-13; I18,
I26, I27), and the game interface (sneferu_cli.game)."""

from __future__ import annotations

import random

import pytest
from imhotep.helpers import B, K, W, card, fill, moves, play, put, start

from sneferu_cli.game import IllegalMove, NotationError, get_game
from sneferu_cli.games.imhotep import GAME, VARIANTS
from sneferu_cli.games.imhotep.state import parse_variant


def test_wrath_costs_five_per_player_missing_a_monument():
    """12, I26: -5 for each player without a stone on each of P, T, C, O; the market does
    not count; scores may go below 0."""
    state = start(2, variant="AAAAA+wrath")
    fill(state, state.pyramid, K, W)
    fill(state, state.temple, K, W)
    fill(state, state.chamber, K, W, W)
    state.obelisks[K] = 1
    state.quarries[K] -= 1
    points = state.final_points()
    assert points[W] == 3 - 5  # a chamber group of 2; no obelisk stone: -5
    assert points[K] == 1 + 10  # a chamber group of 1; obelisks first
    state.wrath = False
    assert state.final_points()[W] == 3


def test_wrath_counts_stones_placed_by_cards():
    """I18: a stone placed by a red card counts as delivered."""
    state = start(2, variant="AAAAA+wrath", display=("PAV", "STA", "STA", "STA"))
    fill(state, state.pyramid, W)
    fill(state, state.temple, W)
    fill(state, state.chamber, W)
    assert state.final_points()[W] < 0
    put(state, "2A", W)
    play(state, "S 2A M", "take M1")
    assert state.obelisks[W] == 1 and state.final_points()[W] >= 0


def test_ranking_points_then_sled_then_shared():
    """13, I27: points, then stones on the sled, then a shared place."""
    state = start(4, card="R4-2")
    state.scores = [10, 10, 8, 10]
    state.sleds = [2, 3, 5, 2]
    assert [s.rank for s in state.ranking()] == [2, 1, 4, 2]
    standings = GAME.standings(state)
    assert standings[1].seat == 2 and standings[1].scores == {"points": 10, "sled": 3}


def test_retired_seats_rank_last_and_their_turns_are_skipped():
    """A retired seat takes no decisions: its turns are skipped, its stones' choices take
    the first legal option; it ranks below every other seat."""
    state = start(3, card="R3-7", display=("SAI", "STA", "STA", "STA"))
    put(state, "3A", B, K)
    state.scores[B] = 50
    state.retire(B)
    play(state, "Q")  # black
    assert state.current_seat() == W
    play(state, "S 3A M")
    assert state.current_seat() == K  # brown's choice was made for it: the first card
    assert state.hands[B][card(state, "SAI")] == 1
    play(state, "take M2")
    assert state.current_seat() == K  # brown's turn skipped
    assert [s.rank for s in state.ranking()] == [1, 2, 3]  # 0 points each; sleds 5, 3
    state.retire(K)
    state.retire(W)
    assert state.is_over() and GAME.termination(state) == "all-retired"


def test_retire_on_own_turn_moves_on():
    state = start(2)
    state.retire(K)
    assert state.current_seat() == W and not state.is_over()


def test_termination_and_standings_of_a_finished_game():
    game = get_game("imhotep")
    assert game is GAME
    rng = random.Random(11)
    state = game.new_game(3, variant="BBBBB+wrath")
    assert game.termination(state) == "aborted"
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        else:
            game.apply_move(state, rng.choice(game.legal_moves(state)))
    assert game.termination(state) == "normal"
    ranks = [s.rank for s in game.standings(state)]
    assert sorted(ranks)[0] == 1 and [s.seat for s in game.standings(state)] == [1, 2, 3]


def test_game_interface_basics():
    assert (GAME.name, GAME.title, GAME.players, GAME.score_keys) == (
        "imhotep", "Imhotep", range(2, 5), ("points", "sled"))
    assert VARIANTS[0] == "AAAAA" and len(VARIANTS) == 64 and "ABBAB+wrath" in VARIANTS
    state = GAME.new_game(2)
    assert GAME.variant_of(state) == "AAAAA" and GAME.players_of(state) == 2
    assert GAME.edition_of(state).name == "standard"
    assert parse_variant("BABAA+wrath") == ("BABAA", True)
    for bad in ("AAAA", "AAAAC", "AAAAA+", "AAAAA+war"):
        with pytest.raises(ValueError, match="unknown Imhotep variant"):
            GAME.new_game(2, variant=bad)
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_game(5)


def test_game_interface_moves_and_outcomes():
    state = GAME.new_game(2)
    with pytest.raises(NotationError):
        GAME.apply_outcome(state, "R2-1")
    with pytest.raises(IllegalMove):
        GAME.apply_outcome(state, "~R3-1")
    GAME.apply_outcome(state, "~R2-1")
    for _ in range(4):
        GAME.apply_outcome(state, "~STA")
    assert GAME.legal_moves(state)[:2] == ["Q", "L 4A.1"]
    with pytest.raises(NotationError):
        GAME.apply_move(state, "L 4A")
    before = state.clone()
    with pytest.raises(IllegalMove):
        GAME.apply_move(state, "S 4A P")
    assert state.todo == before.todo and state.sleds == before.sleds
    assert GAME.apply_move(state, "L 4A.1") == "L 4A.1"
    give_chisel = state.tables.card_index["CHI"]
    state.hands[1][give_chisel] += 1
    state.deck[give_chisel] -= 1
    assert GAME.apply_move(state, "CHI 2A.1 3A.1") == "CHI 3A.1 2A.1"
    assert moves(state)[0] == "Q"

