"""The game interface's simultaneous nodes and views, for every game the package registers,
the test-only sealed game (tests/sealed_game.py) and the test-only games of tests/games/
(:data:`games.TEST_GAMES`), through the interface only (issue
16, SPEC 12). Random games are played with the deciding seats' moves collected in a random
order (a seat sometimes retiring at a simultaneous node), checking at every decision:

- the deciding seats: ascending, not retired, the current seat first; one seat unless the
  node is simultaneous; each has legal moves (canonical), every other seat none;
- sealed moves commute: the moves of a simultaneous node give the same state in any order
  of collection, also as ``apply_move`` collects them (seat order), and a seat retiring
  there gives the same state before or after the others' moves;
- a seat's view never shows another seat's pending sealed move: two different moves of
  one seat leave every other seat's view the same;
- views round-trip: ``from_position(view)`` gives the view back and the seat's own
  decision (deciding or not, its legal moves); a game without hidden information's view
  is its position;
- ``determinize`` of a view is a full state the seat cannot tell from the real one (the
  same view, the same legal moves), which keeps the game's invariants;
- the public view (what a spectator may know, the live page's) round-trips and holds no
  more than any seat knows: read back from any seat's view it is the same; a game without
  hidden information's is its position.
(A game's private deal is hidden by its own tests, which know what is private.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from games import register_all
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sealed_game import register

from sneferu_cli.game import GAMES, Game, game_names, get_game, public_view, seat_view

register()
NAMES = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.")] + ["sealed",
                                                                           *register_all()]
MAX_STEPS = 20_000

VIEW_SETTINGS = settings(max_examples=8, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow])


def check_views(game: Game, state: Any, rng: random.Random) -> None:
    deciding = game.deciding_seats(state)
    for seat in range(game.players_of(state)):
        view = seat_view(game, state, seat)
        if game.hidden() is None:
            assert view == game.to_position(state)
            continue
        seen = game.from_position(view, game.edition_of(state))
        assert seat_view(game, seen, seat) == view
        assert (seat in game.deciding_seats(seen)) == (seat in deciding)
        assert game.legal_moves(seen, seat) == game.legal_moves(state, seat)
        full = game.hidden().determinize(seen, seat, rng)
        game.check(full)
        assert seat_view(game, full, seat) == view
        assert seat_view(game, seen, seat) == view  # determinize changed nothing in its argument
        assert game.legal_moves(full, seat) == game.legal_moves(state, seat)
    public = public_view(game, state)
    if game.hidden() is None:
        assert public == game.to_position(state)
        return
    edition = game.edition_of(state)
    assert public_view(game, game.from_position(public, edition)) == public
    for seat in range(game.players_of(state)):
        seen = game.from_position(seat_view(game, state, seat), edition)
        assert public_view(game, seen) == public


def check_node(game: Game, state: Any, rng: random.Random) -> dict[int, str]:
    """Check the decision of ``state``; the moves chosen for its deciding seats."""
    deciding = game.deciding_seats(state)
    standings = game.standings(state)
    assert deciding and list(deciding) == sorted(set(deciding))
    assert deciding[0] == state.current_seat()
    assert all(not standings[s].retired for s in deciding)
    if not game.is_simultaneous(state):
        assert len(deciding) == 1
    moves: dict[int, str] = {}
    for seat in range(game.players_of(state)):
        legal = game.legal_moves(state, seat)
        if seat not in deciding:
            assert legal == []
            continue
        assert legal and all(game.canonical_move(m) == m for m in legal)
        moves[seat] = rng.choice(legal)
    if len(deciding) > 1:
        # Two different moves of the first seat: the others' views are the same.
        first = game.legal_moves(state, deciding[0])
        if len(first) > 1:
            one, two = state.clone(), state.clone()
            game.apply_move(one, first[0], deciding[0])
            game.apply_move(two, first[1], deciding[0])
            for seat in range(game.players_of(state)):
                if seat != deciding[0]:
                    assert seat_view(game, one, seat) == seat_view(game, two, seat)
        # Any order of collection, and apply_move's seat order, give the same state.
        results = set()
        for order in (list(deciding), list(reversed(deciding)),
                      rng.sample(list(deciding), len(deciding))):
            child = state.clone()
            for seat in order:
                assert game.apply_move(child, moves[seat], seat) == moves[seat]
            results.add(game.to_position(child))
        child = state.clone()
        for seat in deciding:
            game.apply_move(child, moves[seat])
        results.add(game.to_position(child))
        assert len(results) == 1
        # A seat retiring there: before or after the others' moves, the same state.
        gone = rng.choice(deciding)
        before, after = state.clone(), state.clone()
        before.retire(gone)
        for seat in deciding:
            if seat != gone:
                game.apply_move(before, moves[seat], seat)
                game.apply_move(after, moves[seat], seat)
        after.retire(gone)
        assert game.to_position(before) == game.to_position(after)
    return moves


def play(game: Game, players: int, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_game(players)
    for _ in range(MAX_STEPS):
        if state.is_over():
            return state
        check_views(game, state, rng)
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        moves = check_node(game, state, rng)
        seats = list(moves)
        rng.shuffle(seats)
        if len(seats) > 1 and rng.random() < 0.05:
            state.retire(seats.pop())
        for seat in seats:
            game.apply_move(state, moves[seat], seat)
            game.check(state)
    raise AssertionError(f"no end after {MAX_STEPS} events")


@pytest.mark.parametrize("name", NAMES)
@VIEW_SETTINGS
@given(data=st.data())
def test_simultaneous_nodes_and_views_keep_the_interface_promises(name, data):
    game = get_game(name)
    players = data.draw(st.sampled_from(list(game.players)), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = play(game, players, seed)
    assert game.deciding_seats(state) == ()
    assert all(game.legal_moves(state, s) == [] for s in range(players))
