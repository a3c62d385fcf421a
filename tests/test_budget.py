"""Fixed search budgets (SPEC 6.3 ``go ... iterations N``, 6.4 ``feature iterations``, 7.4,
9.1 an engine's ``budget``): the line, the bundled mcts keeping to it whatever the
machine's load, and the arbiter refusing an engine that takes none.

The games are Sneferu games played by the real programs; what they check is the rules'
turn order only through the arbiter (a turn is one whole move, SNEFERU R-turns via SPEC
2.2), so no ruling is at stake: these tests are about the protocol and the arbiter.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import ROOT, require_program, run_cli

from sneferu_cli.game import NotationError
from sneferu_cli.grammar import parse
from sneferu_cli.protocol.messages import (
    Feature,
    Go,
    parse_arbiter_line,
    parse_engine_line,
    read_arbiter_line,
)
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import parse_records

BUDGET = 200


@pytest.mark.parametrize("line", [
    "go movetime 60000 iterations 2000",
    "go movetime 60000 iterations 2000 legalmoves 1.1 TG@1.1 ; end",
    "go clock 59000 60000 inc 1000 iterations 7 legalmoves 1.1 TG@1.1",
    "go clock 59000 60000 inc 1000 iterations 1",
])
def test_go_with_a_budget_round_trips_through_the_grammar_and_the_engines_reader(line):
    parse("engine", "arbiter_line", line, "arbiter line")  # the grammar itself takes it
    msg = parse_arbiter_line(line)
    assert isinstance(msg, Go) and msg.iterations == int(line.split(" iterations ")[1]
                                                         .split()[0])
    assert str(msg) == line
    assert read_arbiter_line(line) == msg  # the engines' quick reader agrees


def test_go_without_a_budget_is_unchanged_and_a_malformed_budget_is_refused():
    assert parse_arbiter_line("go movetime 200").iterations is None
    assert str(Go(movetime=200)) == "go movetime 200"
    for bad in ("go movetime 200 iterations", "go movetime 200 iterations x",
                "go iterations 200", "go movetime 200 legalmoves end iterations 5"):
        with pytest.raises(NotationError):
            parse_arbiter_line(bad)
    assert parse_engine_line("feature iterations") == Feature("iterations")


def _engine_session(argv: list[str], go: str) -> list[str]:
    """The lines an engine answers to a handshake, a new game, the start position and
    ``go``."""
    import random

    from sneferu_cli.game import get_game

    game, rng = get_game(), random.Random(0)
    state = game.new_game(2)
    while state.is_chance_node():  # the set-up draws, up to the first decision
        game.apply_outcome(state, game.sample_outcome(state, rng))
    start = game.to_position(state)
    legal = " ; ".join(game.legal_moves(state))
    lines = ["sneferu 1", "newgame players 2 seat 1 variant standard edition standard",
             "isready", f"position {start}", f"{go} legalmoves {legal}", "quit"]
    r = subprocess.run(argv, input="".join(f"{x}\n" for x in lines), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.parametrize("program", [
    [sys.executable, str(ROOT / "engines" / "random_player.py")],
    [sys.executable, str(ROOT / "engines" / "greedy_player.py")],
    [sys.executable, str(ROOT / "engines" / "instant.py")],
    ["node", str(ROOT / "engines" / "random_player.js")],
    ["cc", str(ROOT / "engines" / "instant.c")],
])
def test_engines_without_budgets_still_answer_a_go_that_has_one(program, tmp_path):
    """They do not declare ``feature iterations`` (so an arbiter never sends them a
    budget), but a ``go`` holding one is still a ``go`` to them."""
    if program[0] == "node":
        program[0] = require_program("node", "Node.js")
    elif program[0] == "cc":
        built = tmp_path / "instant"
        subprocess.run([require_program("cc", "a C compiler"), "-O1", "-o", str(built),
                        program[1]], check=True, timeout=120)
        program = [str(built)]
    out = _engine_session(program, "go movetime 5000 iterations 3")
    assert "feature iterations" not in out
    assert sum(line.startswith("move ") for line in out) == 1, out


def test_mcts_declares_budgets_and_keeps_to_one():
    out = _engine_session([sys.executable, str(ROOT / "engines" / "mcts_player.py")],
                          f"go movetime 60000 iterations {BUDGET}")
    assert "feature iterations" in out
    last_info = [line for line in out if line.startswith("info ")][-1]
    assert f" playouts {BUDGET} " in last_info
    assert sum(line.startswith("move ") for line in out) == 1


@pytest.fixture
def busy_cores() -> Iterator[None]:
    """Both cores made busy (two ``yes > /dev/null``), stopped after the test."""
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait(timeout=10)


def _turns(path: Path) -> list[Turn]:
    (record,) = parse_records(path.read_text(encoding="utf-8"))
    return [e for e in record.events if isinstance(e, Turn)]


def _kept_to_the_budget(turns: list[Turn]) -> bool:
    """Every search ran the budget's playouts, but for a forced move (one legal move: the
    search stops after one playout); and most moves were searched."""
    playouts = [t.info["playouts"] if t.info else None for t in turns]
    return (all(p in (str(BUDGET), "1") for p in playouts)
            and 2 * playouts.count(str(BUDGET)) > len(playouts))


@pytest.mark.parametrize("game", ["sneferu", "imhotep"])  # its own search; the generic one
def test_mcts_with_a_budget_plays_the_same_moves_twice_under_load(busy_cores, tmp_path, game):
    runs = []
    for n in (1, 2):
        path = tmp_path / f"{n}.records"
        r = run_cli("play", "mcts", "mcts", "--game", game, "--iterations", str(BUDGET),
                    "--seed", "11", "--record", str(path), timeout=600)
        assert r.returncode == 0, r.stderr
        turns = _turns(path)
        assert turns and _kept_to_the_budget(turns)
        runs.append([(t.seat, t.move) for t in turns])
    assert runs[0] == runs[1]
    (record,) = parse_records((tmp_path / "1.records").read_text(encoding="utf-8"))
    assert record.header.time_control == f"iterations {BUDGET} movetime 60000"


def test_play_refuses_a_budget_for_an_engine_that_takes_none():
    r = run_cli("play", "mcts", "greedy", "--iterations", "50", "--seed", "1")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "sneferu: engine 'greedy' takes no search budget (iterations 50): it does not "
        "declare 'feature iterations' (see 'sneferu play --help')"]


TOURNAMENT = """\
deals = 1
seed = 5
movetime = 100
records = "t.records"
concurrency = 1

[[engine]]
name = "searcher"
command = "mcts"
budget = "iterations {budget}"

[[engine]]
name = "other"
command = "random"
"""


def test_a_tournament_engine_with_a_budget_plays_by_it_and_the_record_says_so(tmp_path):
    (tmp_path / "t.toml").write_text(TOURNAMENT.format(budget=BUDGET), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "t.toml"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    records = parse_records((tmp_path / "t.records").read_text(encoding="utf-8"))
    assert len(records) == 2
    for record in records:
        assert record.header.time_control == "movetime 100"
        tcs = {s.name: s.tc for s in record.header.seats}
        assert tcs == {"searcher": f"iterations {BUDGET} movetime 60000", "other": None}
        seat = next(s.seat for s in record.header.seats if s.name == "searcher")
        mine = [e for e in record.events if isinstance(e, Turn) and e.seat == seat]
        assert mine and _kept_to_the_budget(mine)
        assert not record.header.faults


def test_a_tournament_refuses_a_budget_for_an_engine_that_takes_none(tmp_path):
    text = TOURNAMENT.format(budget=BUDGET) + 'budget = "iterations 5"\n'
    (tmp_path / "t.toml").write_text(text, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "t.toml"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "sneferu: engine 'random' takes no search budget (iterations 5): it does not "
        "declare 'feature iterations'"]
    assert not (tmp_path / "t.records").exists()


@pytest.mark.parametrize(("spec", "message"), [
    ("name=m command=mcts budget=iterations", "engine[0].budget: 'iterations' is not a "
                                             "search budget (like 'iterations 2000')"),
    ("name=m command=mcts 'budget=iterations 0'", "engine[0].budget: 'iterations 0': a "
                                                 "search budget's iterations are 1 to "
                                                 "999999999"),
])
def test_a_malformed_budget_is_named_with_its_field(tmp_path, spec, message):
    r = run_cli("tournament", "--engine", spec, "--engine", "name=r command=random",
                "--records", str(tmp_path / "t.records"))
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_library_game_retires_a_seat_given_a_budget_it_does_not_take():
    """``play_game`` with a budget: the engine without ``feature iterations`` is retired
    before the first turn (a handshake fault), the other plays by the budget."""
    from sneferu_cli.arbiter.bundled import engine_command
    from sneferu_cli.arbiter.engine import Engine
    from sneferu_cli.arbiter.game import TimeControl, play_game

    engines = Engine.start_all([Engine(engine_command("random")),
                                Engine(engine_command("mcts"))])
    try:
        record = play_game(engines, seed=3,
                           time_control=TimeControl(movetime=60000, iterations=20))
    finally:
        Engine.quit_all(engines)
    (fault,) = record.header.faults
    assert (fault.seat, fault.kind, fault.ply) == (1, "handshake", 0)
    assert fault.detail == ("it takes no search budget (it does not declare 'feature "
                            "iterations')")
    turns = [e for e in record.events if isinstance(e, Turn)]
    assert turns and {t.seat for t in turns} == {2}
    assert all(t.info and t.info["playouts"] in ("20", "1") for t in turns)
