"""Every registered game through the game interface (sneferu_cli.game): random games keep
the interface's promises, and the layers above need nothing else."""

from __future__ import annotations

import random

import pytest

from sneferu_cli.game import DEFAULT_GAME, GAMES, Game, NotationError, UnknownGame, get_game


def _available() -> list[str]:
    """The registered games whose folder is there (imhotep lands from another branch)."""
    out = []
    for name in GAMES:
        try:
            get_game(name)
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


AVAILABLE = _available()
assert DEFAULT_GAME in AVAILABLE


def random_game(game: Game, players: int, seed: int) -> tuple[object, list[str]]:
    """A random game to its end through the interface, checking each listed move both
    ways (the checked path and the listed fast path give the same position)."""
    rng = random.Random(seed)
    state = game.new_game(players)
    events: list[str] = []
    while not state.is_over():
        if state.is_chance_node():
            outcomes = game.chance_outcomes(state)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            text = game.sample_outcome(state, rng)
            assert text in {o for o, _ in outcomes}
            game.apply_outcome(state, text)
        else:
            moves = game.legal_moves(state)
            assert moves and len(set(moves)) == len(moves)
            text = rng.choice(moves)
            checked = state.clone()
            assert game.apply_move(checked, text) == text == game.canonical_move(text)
            game.apply_listed_move(state, text)
            assert game.to_position(checked) == game.to_position(state)
        events.append(text)
        position = game.to_position(state)
        assert game.to_position(game.from_position(position)) == position
    return state, events


@pytest.mark.parametrize("name", AVAILABLE)
def test_a_random_game_through_the_interface_ends_with_standings(name):
    game = get_game(name)
    for players, seed in [(2, 1), (max(game.players), 2)]:
        state, _ = random_game(game, players, seed)
        standings = game.standings(state)
        assert [s.seat for s in standings] == list(range(1, players + 1))
        assert all(list(s.scores) == list(game.score_keys) for s in standings)
        assert min(s.rank for s in standings) == 1
        assert game.termination(state) == "normal"
        assert game.picture(state) and game.page_data(state)
        assert game.players_of(state) == players and game.variant_of(state) in game.variants


def test_clone_is_independent_and_retire_ranks_last():
    game = get_game("sneferu")
    fresh = game.new_game(3)
    copy = fresh.clone()
    game.apply_outcome(copy, game.sample_outcome(copy, random.Random(1)))
    assert game.to_position(fresh) == game.to_position(game.new_game(3))
    assert game.termination(fresh) == "aborted"
    # R6: a retired seat ranks below every seat not retired.
    mid = game.new_game(2)
    mid.retire(0)
    assert [s.retired for s in game.standings(mid)] == [True, False]
    assert game.standings(mid)[0].rank == 2


def test_sneferu_standings_carry_stones_and_food_and_bad_text_is_a_notation_error():
    game = get_game("sneferu")
    assert game.score_keys == ("stones", "food")
    with pytest.raises(NotationError):
        game.canonical_move("9.9.9")
    with pytest.raises(NotationError):
        game.from_position("not a position")


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(UnknownGame, match=r"unknown game 'chess' \(known: sneferu, imhotep"):
        get_game("chess")
