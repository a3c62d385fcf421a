"""The optional members of Game that carry one game's own record tags, search, serve steps,
bench and perft (SPEC.md section 12, issue 17): their neutral defaults, seen through the
test-only Nim game (tests/nim_game.py), and Sneferu's, which give what its own modules
give."""

from __future__ import annotations

import random
from typing import Any

import pytest
from nim_game import register

from sneferu_cli.game import Tools, get_game
from sneferu_cli.games.sneferu import bench, record
from sneferu_cli.games.sneferu import serve as sneferu_serve
from sneferu_cli.games.sneferu.search import search
from sneferu_cli.record.model import Header
from sneferu_cli.record.replay import start_state
from sneferu_cli.search import analyse, search_game

register()
NIM = get_game("nim")
SNEFERU = get_game("sneferu")


def _decision(game, players, seed=1):
    state = game.new_game(players)
    rng = random.Random(seed)
    while state.is_chance_node():
        game.apply_outcome(state, game.sample_outcome(state, rng))
    return state


def test_the_defaults_say_nothing_of_a_game_without_them():
    state = _decision(NIM, 3)
    assert NIM.record_tags() is None
    assert NIM.tools() is None and NIM.turn_steps() is None and NIM.hidden() is None
    assert NIM.learning() is None and NIM.fast_paths() is None
    tools = Tools[Any, Any]()  # what a game that offers some tools inherits for the rest
    assert tools.search(state, iterations=5) is None
    assert tools.rules_bench(3, None, 2, 1, NIM.standard_edition()) is None
    assert tools.perft(state, 2) is None


def test_the_default_words_for_what_a_position_waits_for():
    state = NIM.new_game(2)
    assert NIM.describe_due(state) == "a chance event is due"
    NIM.apply_outcome(state, "~H5")
    assert NIM.describe_due(state) == "seat 1 is to move"
    while not state.is_over():
        NIM.apply_move(state, NIM.legal_moves(state)[-1])
    # take 3 then take 2: seat 2 took the last stone (the ranking with the game's scores)
    assert NIM.describe_due(state) == ("Game over: 1. seat 2 (2 taken, 1 last), "
                                       "2. seat 1 (3 taken, 0 last).")


def test_a_game_without_record_tags_starts_from_its_variant_and_refuses_own_tags():
    edition = NIM.standard_edition()
    state = start_state(Header(players=2, game="nim", variant=NIM.variants[0]), edition)
    assert NIM.to_position(state) == NIM.to_position(NIM.new_game(2))
    with pytest.raises(ValueError, match=r"^\[Builders random\] in a game of Nim$"):
        start_state(Header(players=2, game="nim", variant=NIM.variants[0],
                           tags={"Builders": "random"}), edition)
    with pytest.raises(ValueError, match=r"^\[Variant misere\]: Nim has "):
        start_state(Header(players=2, game="nim", variant="misere"), edition)


def test_analyse_uses_the_generic_search_for_a_game_without_its_own():
    state = _decision(NIM, 2)
    got = analyse(NIM, state, iterations=30, seed=4)
    assert got.moves == search_game(NIM, state, iterations=30, seed=4).moves
    assert got.iterations == 30


def test_sneferus_record_tags_are_its_record_module():
    tags = SNEFERU.record_tags()
    assert tags is record.TAGS and tags.option == "builders"
    state = tags.new_game(2, "Aya,Heba")
    assert record.builders_tags(state, False) == ("chosen", ["Aya", "Heba"])
    assert tags.tags(state, drawn=False) == ({"Builders": "chosen"},
                                             [{"builder": "Aya"}, {"builder": "Heba"}])
    assert [tags.seat_tags(state, s) for s in (0, 1)] == [{"builder": "Aya"},
                                                           {"builder": "Heba"}]
    assert SNEFERU.describe_due(state) == record.describe_turn(state)
    solo = _decision(SNEFERU, 1)
    while not solo.is_over():
        if solo.is_chance_node():
            SNEFERU.apply_outcome(solo, SNEFERU.sample_outcome(solo, random.Random(2)))
        else:
            SNEFERU.apply_move(solo, SNEFERU.legal_moves(solo)[0])
    got = record.solo_score(solo)
    assert got is not None and tags.solo_of(tags.result_tags(solo)) == got
    with pytest.raises(ValueError, match=r"^\[Variant builders\] needs \[Builders random\]"):
        tags.from_tags(2, "builders", {}, [{}, {}], SNEFERU.standard_edition())


def test_sneferus_search_is_its_own_and_refuses_a_seat_not_deciding():
    state = _decision(SNEFERU, 2)
    own = SNEFERU.tools().search(state, iterations=20, seed=3)
    assert own is not None
    assert [str(m.move) for m in own.moves] == [
        str(m.move) for m in search(state, iterations=20, seed=3).moves]
    assert analyse(SNEFERU, state, iterations=20, seed=3).moves == own.moves
    other = 1 - state.current_seat()
    with pytest.raises(ValueError, match=rf"^analyse: seat {other + 1} has no decision"):
        SNEFERU.tools().search(state, seat=other, iterations=20)


def test_sneferus_turn_steps_are_its_serve_module():
    steps = SNEFERU.turn_steps()
    assert steps is sneferu_serve.STEPS
    state = SNEFERU.new_game(2)
    assert steps.chance_weights(state) == [(str(o), w) for o, w in state.chance_weights()]
    assert steps.turn_field(state) == "setup"
    state = _decision(SNEFERU, 2)
    assert steps.legal_steps(state) == [str(s) for s in state.legal_steps()]
    turn = steps.turn_number(state)
    step = steps.read_step(steps.legal_steps(state)[0])
    steps.apply_step(state, step)
    assert steps.turn_number(state) == turn
    with pytest.raises(ValueError, match=r"^~FOOD1: a chance outcome \(use chance\)$"):
        steps.read_step("~FOOD1")


def test_sneferus_perft_and_rules_bench_are_its_bench_module():
    state = SNEFERU.new_game(2)
    got = SNEFERU.tools().perft(state, 2)
    assert got is not None
    assert (got.counts, got.moves) == ((4, 12), 0)
    assert got.record() == bench.perft_counts(state, 2).record()
    assert got.python.startswith("3.")
    report = SNEFERU.tools().rules_bench(2, None, 2, 1, SNEFERU.standard_edition())
    assert report is not None
    assert [(f.what, f.count) for f in report.figures] == [
        (f.what, f.count) for f in bench.run_bench(2, None, 2, 1).figures]
