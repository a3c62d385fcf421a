"""The search (sneferu_cli.search): with a fixed number of playouts it finds the clearly
best move of hand-built positions, and repeats itself for a seed."""

from __future__ import annotations

import random
import time

import pytest
from positions import Seat, build, filler_colour, legal, levels_below, moves, placements, play

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.search import search
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.search import analysis_doc, analysis_lines

# Basalt cells (level, x) of levels 1-4 whose only empty neighbours, once levels 1-4 are
# full, are the cells of slot 5.1: the largest such area (8 cells; a basalt half on the
# left of 5.1 joins it: 9 cells, 19 food).
AREA = {(4, 4), (4, 5), (3, 4), (3, 3), (2, 4), (2, 5), (1, 4), (1, 3)}


def with_area(n: int, x: int) -> str:
    return "B" if (n, x) in AREA else filler_colour(n, x)


def other(n: int, x: int) -> str:
    """A pyramid of one-cell areas for the opponent, from other stones than with_area's."""
    return "BTMGA"[(x + 2 * n + 3) % 5]


MINE = placements(levels_below(5), with_area)  # levels 1-4 full: 18 stones
THEIRS = placements([*levels_below(5), (5, 1)], other)  # 19 stones


def best(state, iterations: int = 100, seed: int = 1) -> str:
    return str(search(state, iterations=iterations, seed=seed).best.move)


def test_the_placement_that_closes_an_area_for_food():
    """4.5, chart (R1 for the largest areas): closing a 9-cell basalt area gains 19 food.

    Seat 1 (18 stones, 5 food, space 39) plays its last turn; seat 2 is done with 19
    stones and 20 food. Every move gives seat 1 its 19th stone, so food decides (R6): only
    basalt-left on 5.1 (5 - 3 + 19 = 21 food) beats 20; other stones on 5.1 close the
    8-cell area for 17 (5 - 4 + 17 = 18), on 5.2 nothing.
    """
    state = build([Seat(pyramid=MINE, space=39, food=5),
                   Seat(pyramid=THEIRS, space=40, food=20)],
                  offer=["TG", "MA", "TA", "GBTAMA"])
    assert len(moves(state)) == 12
    assert best(state) == "4.1 BG@5.1"
    after = play(state.clone(), "4.1 BG@5.1")
    assert after.players[0].food == 21


def test_a_stored_stone_is_placed_where_it_closes_an_area():
    """4.6, R5: after the turn that reached space 40 the stored stone may still be placed;
    placing it where it closes the area (19 food) wins, leaving it stored (`done`) or
    placing it elsewhere loses on stones or food (R6)."""
    state = build([Seat(pyramid=MINE, space=40, food=5, store="BG"),
                   Seat(pyramid=THEIRS, space=40, food=20)], turn="post:1")
    assert moves(state) == {"BG@5.1", "GB@5.1", "BG@5.2", "GB@5.2", "done"}
    assert best(state, iterations=50) == "BG@5.1"


def test_solo_the_buy_that_keeps_ptah_from_completing():
    """6, R7: Ptah holds 20 stones; a buy that takes the boat from 36 past the gold quarry
    at 37 lets Ptah take a gold stone and win at once. Only column 4 (time 1, to 37 itself)
    is safe, and with the 21st stone on 6.1 the player wins."""
    ptah = "BM" * 7 + "BG" * 7 + "BT" * 6
    state = build([Seat(pyramid=placements(levels_below(6)), space=36, food=6)], ptah=ptah,
                  offer=["GABT", "MABT", "TABT", "BABT"])
    assert state.ptah_total == 20
    a = search(state, iterations=100, seed=1)
    assert str(a.best.move).startswith("4.")
    assert a.best.win == 1.0
    losing = next(m for m in a.moves if str(m.move) == "1.1")
    assert losing.visits <= 1 and losing.rank > 1.5


def start(players: int, seed: int = 3, builders: str | None = None):
    state = new_game(players, builders=builders)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    return state


@pytest.mark.parametrize(("players", "builders"), [(1, None), (2, None), (4, "random"),
                                                   (3, "Lateef,Heba,Aya")])
def test_the_same_seed_and_playouts_give_the_same_analysis(players, builders):
    """Fixed playouts and seed: the very same analysis, whatever the speed of the machine."""
    state = start(players, builders=builders)
    a = analysis_lines(analysis_doc(search(state, iterations=80, seed=5), top=0))
    b = analysis_lines(analysis_doc(search(state, iterations=80, seed=5), top=0))
    assert a == b
    assert a[0].startswith(f"seat {state.seat + 1} to move: 80 playouts")
    c = analysis_lines(analysis_doc(search(state, iterations=80, seed=6), top=0))
    assert c != a  # another seed, other playouts


def test_the_analysis_lists_every_legal_move_once():
    state = start(2)
    a = search(state, iterations=30, seed=1)
    assert sorted(str(m.move) for m in a.moves) == sorted(moves(state))
    assert sum(m.visits for m in a.moves) == 30
    assert [m.visits for m in a.moves] == sorted((m.visits for m in a.moves), reverse=True)


def test_a_deadline_stops_the_search():
    """A deadline already past: the moves valued so far (at least one), no playout."""
    a = search(start(4), deadline=time.perf_counter(), seed=1)
    assert a.iterations == 0 and a.moves and a.best.visits == 0


def test_progress_is_reported_while_searching():
    seen = []
    a = search(start(4), iterations=20, seed=1, progress=seen.append, progress_every=0)
    assert [p.iterations for p in seen] == list(range(20))  # before each playout
    assert a.iterations == 20 and seen[-1].best.move is not None


def test_no_search_where_no_seat_decides():
    state = new_game(2)
    with pytest.raises(ValueError, match="no seat is to decide"):
        search(state, iterations=10)
    with pytest.raises(ValueError, match="iterations or a deadline"):
        search(start(2))


def test_with_stored_stones_the_root_holds_single_steps_made_whole_moves():
    """4.6: two stored stones make some 21 000 whole moves (legal_turns takes a second);
    the root then holds the first steps, each reported as a whole legal move completed
    along the tree, the same for a seed."""
    state = build([Seat(space=10, store="BTMG", pyramid="TM@1.1 GA@1.2"), Seat(space=12)])
    a = search(state, iterations=60, seed=2)
    first_steps = {str(s) for s in state.legal_steps()}
    assert a.iterations == 60 and 1 < len(a.moves) <= len(first_steps)
    for m in a.moves:
        assert legal(state, str(m.move)), m.move
        assert str(m.move).split()[0] in first_steps
    again = search(state, iterations=60, seed=2)
    assert [(str(m.move), m.visits) for m in again.moves] == [
        (str(m.move), m.visits) for m in a.moves]
