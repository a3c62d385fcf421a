"""``sneferu ladder run`` (SPEC.md 9.12): rounds of real games between many engines, tables
from the ladder's ratings (the matchmaking's rules held over many rounds), duplicate deals
kept, every game in the ladder once, and the same command going on after kill -9."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_tournament_run import SLOW, games_of, wait_for_games, wait_gone, write_config

from sneferu_cli.tournament.matchmaking import round_tables

LIMIT = 300

ENGINES = {"random": "random", "r2": "random", "r3": "random", "g1": "greedy",
           "g2": "greedy", "g3": "greedy"}


def ladder(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sneferu_cli", "ladder", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=LIMIT)


def pool_games(cwd: Path) -> dict[str, int]:
    shown = ladder("show", "--json", cwd=cwd)
    assert shown.returncode == 0, shown.stderr
    (pool,) = json.loads(shown.stdout)["pools"]
    return {"games": pool["games"], **{e["name"]: e["games"] for e in pool["engines"]}}


def test_rounds_add_every_game_once_and_go_on_where_they_stopped(tmp_path: Path) -> None:
    write_config(tmp_path / "club.toml", ENGINES, game="imhotep", seats=4, movetime=50,
                 seed=3, records="club.records")
    first = ladder("run", "club.toml", "--rounds", "2", "-j", "2", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "round 1: 2 tables, 8 games\nround 2: 2 tables, 8 games\ndone: 2 rounds played" \
        in first.stdout
    rounds = tmp_path / "club.records.rounds"
    for n in (1, 2):
        games = games_of(rounds / f"round-00{n}.records")
        assert len(games) == 8
        # each table plays one deal in its four seatings (duplicate deals)
        by_table = Counter((tuple(sorted(s.name for s in g.header.seats)), g.header.seed)
                           for g in games)
        assert sorted(by_table.values()) == [4, 4]
        assert {name for table, _ in by_table for name in table} == set(ENGINES)
    counts = pool_games(tmp_path)
    assert counts["games"] == 16
    assert sum(v for k, v in counts.items() if k != "games") == 16 * 4
    again = ladder("run", "club.toml", "--rounds", "3", "-j", "2", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "round 3: 2 tables, 8 games\ndone: 3 rounds played" in again.stdout
    assert pool_games(tmp_path)["games"] == 24
    history = json.loads(ladder("history", "g1", "--json", cwd=tmp_path).stdout)
    assert [h["source"] for h in history] == [
        f"club.records.rounds/round-00{n}.records" for n in (1, 2, 3)]


def test_a_run_killed_mid_round_goes_on_with_the_same_command(tmp_path: Path) -> None:
    engines = {name: SLOW for name in ENGINES}  # 5 ms a move: the round outlasts the wait
    write_config(tmp_path / "club.toml", engines, seats=4, movetime=1000,
                 seed=4, records="club.records")
    p = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "ladder", "run", "club.toml",
                          "--rounds", "1", "-j", "1"], cwd=tmp_path, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    records = tmp_path / "club.records.rounds" / "round-001.records"
    wait_for_games(p, records, 2)
    assert p.poll() is None, p.communicate()
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=LIMIT)
    assert not wait_gone(tmp_path)
    assert 2 <= len(games_of(records)) < 8
    done = ladder("run", "club.toml", "--rounds", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "round 1: 2 tables, 8 games (resumed)\ndone: 1 round played" in done.stdout
    assert len(games_of(records)) == 8
    assert pool_games(tmp_path)["games"] == 8


@pytest.mark.parametrize("seed", range(20))
def test_round_tables_seat_every_engine_from_the_least_played(seed: int) -> None:
    rng = random.Random(seed)
    engines = [f"e{k}" for k in range(rng.randint(4, 30))]
    seats = rng.choice([3, 4]) if len(engines) >= 4 else 3
    ratings = {e: rng.uniform(-500, 1500) for e in engines if rng.random() < 0.8}
    games = {e: rng.randint(0, 50) for e in engines}
    anchors = {engines[0]}
    tables = round_tables(engines, seats, ratings, games, anchors, rng, anchor_share=0.5)
    seated = Counter(e for t in tables for e in t)
    assert set(seated) == set(engines)  # nobody idle
    assert all(len(t) == seats and len(set(t)) == seats for t in tables)
    # an engine but an anchor sits at one table, or two when it fills the last one
    twice = [e for e, n in seated.items() if n > 1 and e not in anchors]
    assert all(seated[e] == 2 for e in twice) and len(twice) < seats
    assert not twice or set(twice) <= set(tables[-1])
    least = min(games.values())
    assert tables[0][0] in [e for e in engines if games[e] == least]


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    done = ladder("run", "missing.toml", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("sneferu: missing.toml: cannot read")
    write_config(tmp_path / "few.toml", {"a": "random", "b": "random"}, seats=4)
    done = ladder("run", "few.toml", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr
    assert not os.path.exists(tmp_path / "tournament.records.rounds" / "round-001.records")


def test_a_tournament_file_may_list_its_tables(tmp_path: Path) -> None:
    from sneferu_cli.tournament.config import ConfigError, load_config
    from sneferu_cli.tournament.schedule import Schedule

    engines = [f"name={n} command=random" for n in "abcd"]
    cfg = load_config(None, {"engine": engines, "seats": 3, "deals": 2, "seed": 1,
                             "tables": [["a", "b", "c"], ["d", "a", "b"]]})
    schedule = Schedule.of(cfg)
    assert schedule.tables == [("a", "b", "c"), ("d", "a", "b")]
    assert len(schedule.games) == 2 * 2 * 3  # deals x tables x seatings
    for tables, message in (([["a", "b", "x"]], "tables[0]: 'x' is not an engine's name"),
                            ([["a", "a", "b"]], "tables[0]: ['a', 'a', 'b'] is not 3 "
                                                "different engines"),
                            ([], "tables: no tables")):
        with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
            load_config(None, {"engine": engines, "seats": 3, "tables": tables})


def test_a_ladder_run_plays_on_a_cluster(tmp_path: Path) -> None:
    write_config(tmp_path / "club.toml", ENGINES, game="imhotep", seats=4, movetime=50,
                 seed=5, records="club.records")
    done = ladder("run", "club.toml", "--rounds", "1", "--cluster", "local:2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "round 1: 2 tables, 8 games\ndone: 1 round played" in done.stdout
    assert pool_games(tmp_path)["games"] == 8
    assert not wait_gone(tmp_path)
