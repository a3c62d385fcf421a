"""``sneferu bench``: it runs and reports; the counts follow from the seed (not its speed)."""

from __future__ import annotations

import random

from support import run_cli

from sneferu_cli.bench import STEP_ROUNDS, play_random, run_bench
from sneferu_cli.rules import core_build, new_game


def counts(stdout: str) -> dict[str, str]:
    """measure -> count, from the table."""
    rows = {}
    for line in stdout.splitlines()[3:]:
        words = line.split()
        rows[" ".join(words[:-3])] = words[-3]
    return rows


def test_bench_prints_the_table_with_the_python_version():
    r = run_cli("bench", "--games", "3", "--seed", "7")
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
    a = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random")
    b = run_cli("bench", "-n", "2", "--seed", "11", "-p", "3", "--builders", "random")
    c = run_cli("bench", "-n", "2", "--seed", "12", "-p", "3", "--builders", "random")
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
                 ["--perft", pos, "--games", "5"], ["--json"], ["--depth", "2"]):
        r = run_cli("bench", *args)
        assert r.returncode == 2, args
        assert r.stderr.startswith("sneferu: ") and len(r.stderr.splitlines()) == 1, r.stderr


def test_bench_says_whether_the_rules_core_is_compiled():
    """The python line names the build the tests import: mypyc-compiled or pure Python."""
    r = run_cli("bench", "--games", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].endswith(f", rules core {core_build()}")
    assert core_build() in ("compiled (mypyc)", "pure Python")
