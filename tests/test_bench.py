"""``sneferu bench``: it runs and reports; the counts follow from the seed (not its speed)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from support import run_cli

from sneferu_cli.arbiter.bench import instant_engine, pipe_round_trip, time_moves
from sneferu_cli.bench import STEP_ROUNDS, play_random, run_bench
from sneferu_cli.games.sneferu.rules import core_build, new_game, standard_edition


def counts(stdout: str) -> dict[str, str]:
    """measure -> count, from the table."""
    rows = {}
    for line in stdout.splitlines()[3:]:
        words = line.split()
        rows[" ".join(words[:-3])] = words[-3]
    return rows


def test_bench_prints_the_table_with_the_python_version():
    r = run_cli("bench", "--games", "3", "--seed", "7", "--rules")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "sneferu bench: 4 players, standard variant, 3 games, seed 7"
    assert lines[1].startswith("python 3.")
    assert lines[2].split() == ["measure", "count", "seconds", "per", "second"]
    rows = counts(r.stdout)
    assert list(rows) == ["random games", "actions in those games", "legal steps generated",
                          "legal_steps() calls", "positions written", "positions read"]
    assert rows["random games"] == "3"


def test_the_counts_follow_from_the_seed():
    a = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random", "--rules")
    b = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random", "--rules")
    c = run_cli("bench", "-n", "2", "--seed", "12", "-p", "3", "--builders", "random", "--rules")
    assert a.returncode == b.returncode == c.returncode == 0, a.stderr + c.stderr
    assert "builders (random) variant" in a.stdout.splitlines()[0]
    assert counts(a.stdout) == counts(b.stdout)
    assert counts(a.stdout) != counts(c.stdout)


def test_the_games_are_the_random_games_of_play_random():
    report = run_bench(players=2, games=4, seed=5)
    rng, actions = random.Random(5), 0
    for _ in range(4):
        state = new_game(2)
        actions += play_random(state, rng)
        assert state.is_over()
    figures = {f.what: f for f in report.figures}
    assert figures["actions in those games"].count == actions
    assert report.sample * STEP_ROUNDS == figures["legal_steps() calls"].count


def test_bench_rejects_bad_options_in_one_line():
    pos = "standard standard " + "?," * 14 + "? -/-/-/- 10,10,10,10,10,10,10,10,10,10 - " \
        "-,6,0.?,------/-----/----/---/--/-,-,- setup"
    for args in (["--games", "0"], ["--players", "5"], ["--builders", "Nobody", "-p", "1"],
                 ["--perft", pos, "--games", "5"], ["--json"], ["--depth", "2"],
                 ["--perft", pos, "--rules"], ["--rules", "--engine-games", "2"],
                 ["--engine-games", "0"]):
        r = run_cli("bench", *args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("sneferu: ") and len(r.stderr.splitlines()) == 1, r.stderr


ENGINE_ROWS = ["pipe round trip (Python <-> cat)", "pipe round trip (file objects)",
               "move, legal-move engines (instant)",
               "move, own-rules engines (random)", "random game, rules only",
               "legal step generated"]


def test_bench_measures_pipes_and_engines_in_the_same_run():
    """Without --rules: after the rules table, each figure per second, the time of one and
    its multiple of the floor (the pipe round trip, 1.0)."""
    r = run_cli("bench", "--games", "3", "--engine-games", "1", "-p", "2", "--seed", "4",
                timeout=120)
    assert r.returncode == 0, r.stderr
    rules, engines = r.stdout.split("\n\n")
    assert list(counts(rules)) == ["random games", "actions in those games",
                                   "legal steps generated", "legal_steps() calls",
                                   "positions written", "positions read"]
    lines = engines.splitlines()
    assert re.fullmatch(r"engines: 2 seats, 1 games from seed 4, movetime 1000; "
                        r"load average \d+\.\d\d on \d+ cores", lines[0]), lines[0]
    assert lines[1] == ("legal-move engine: engines/instant.c built with cc; "
                        "own-rules engine: random (Python)")
    assert lines[2].split() == ["figure", "per", "second", "time", "each", "x", "floor",
                                "arbiter", "CPU"]
    rows, cpu = {}, {}
    for line in lines[3:]:
        m = re.fullmatch(r"(.+?) +([\d,]+) +([\d,]+\.\d) µs +([\d,]+\.\d)"
                         r"(?: +([\d,]+\.\d) µs)?", line)
        assert m, line
        rows[m.group(1)] = float(m.group(4).replace(",", ""))
        cpu[m.group(1)] = m.group(5)
    assert list(rows) == ENGINE_ROWS
    assert rows[ENGINE_ROWS[0]] == 1.0
    assert [k for k, v in cpu.items() if v is not None] == ENGINE_ROWS[2:4]


@pytest.mark.parametrize("file_objects", [False, True])
def test_the_floor_is_a_line_through_cat(file_objects):
    assert 0 < pipe_round_trip(50, file_objects=file_objects) < 1e6


@pytest.mark.parametrize("compiler", [True, False])
def test_the_instant_engine_plays_legal_games_in_c_or_python(compiler, tmp_path, monkeypatch):
    """With a C compiler engines/instant.c is built and used; without one (no cc, gcc or
    clang on the PATH), engines/instant.py, and the bench says which."""
    if not compiler:
        monkeypatch.setenv("PATH", str(tmp_path))
    argv, which = instant_engine(Path(tmp_path))
    assert which == ("engines/instant.c built with cc" if compiler
                     else "engines/instant.py (no C compiler found)")
    assert argv[-1].endswith("instant" if compiler else "instant.py")
    turns, seconds, cpu = time_moves(argv, 3, 2, 9, None, standard_edition())
    assert turns > 40 and seconds > 0 and cpu > 0  # (_moves raises if a seat was retired)


def test_bench_says_whether_the_rules_core_is_compiled():
    """The python line names the build the tests import: mypyc-compiled or pure Python."""
    r = run_cli("bench", "--rules", "--games", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].endswith(f", rules core {core_build()}")
    assert core_build() in ("compiled (mypyc)", "pure Python")
