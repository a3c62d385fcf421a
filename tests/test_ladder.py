"""The ladder (SPEC.md 9.12): games counted once across files, ratings equal to the batch
fit of every stored game whatever the order of the additions, anchors, history, concurrent
writers, and bad input as one line."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

from support import run_cli, start_cli
from test_tournament_fit import simulate
from tournament_support import record

from sneferu_cli.record.text import format_records
from sneferu_cli.tournament.fit import fit_ratings
from sneferu_cli.tournament.ladder import Ladder, Pool, digest
from sneferu_cli.tournament.standings import GameResult

STRENGTH = {"random": 0.0, "greedy": 500.0, "mcts": 800.0, "alpha": 300.0, "beta": 650.0}
GAMES = simulate(STRENGTH, 120, seed=5)


def write(path: Path, numbers: range) -> Path:
    """Record file of the simulated games ``numbers`` (each its round tag: its identity)."""
    path.write_text(format_records([
        record([n for n, _ in GAMES[i]], [r for _, r in GAMES[i]], number=i + 1)
        for i in numbers]))
    return path


def ladder(db: Path, *args: str) -> str:
    done = run_cli("ladder", "--db", str(db), *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def ratings(db: Path) -> dict[str, float]:
    (pool,) = json.loads(ladder(db, "show", "--json"))["pools"]
    return {e["name"]: e["rating"] for e in pool["engines"]}


def test_each_game_counts_once_and_the_ratings_are_the_fit_of_all(tmp_path: Path) -> None:
    first = write(tmp_path / "first.txt", range(0, 80))
    second = write(tmp_path / "second.txt", range(40, 120))
    db = tmp_path / "ladder.sqlite"
    assert ladder(db, "add", str(first)) == ("added 80 games (0 already in the ladder, "
                                             "0 left out); refitted sneferu at 4 seats\n")
    assert ladder(db, "add", str(second)) == ("added 40 games (40 already in the ladder, "
                                              "0 left out); refitted sneferu at 4 seats\n")
    fit = fit_ratings(GAMES, {"random": 0.0})  # random held at 0 by default
    got = ratings(db)
    assert got.keys() == fit.engines.keys()
    for name, row in fit.engines.items():
        assert math.isclose(got[name], row.rating, abs_tol=1e-6), name
    assert got["random"] == 0.0
    shown = json.loads(ladder(db, "show", "--json"))["pools"][0]
    assert (shown["game"], shown["players"], shown["games"]) == ("sneferu", 4, 120)
    assert shown["engines"][0]["name"] == "mcts" and shown["engines"][0]["place"] == 1

    # The other order of additions gives the same list.
    other = tmp_path / "other.sqlite"
    ladder(other, "add", str(second))
    ladder(other, "add", str(first))
    for name, rating in ratings(other).items():
        assert math.isclose(rating, got[name], abs_tol=1e-6), name

    history = json.loads(ladder(db, "history", "mcts", "--json"))
    assert [(h["addition"], h["games"], h["source"]) for h in history] == [
        (1, sum(1 for g in GAMES[:80] if "mcts" in dict(g)), str(first)),
        (2, sum(1 for g in GAMES if "mcts" in dict(g)), str(second))]
    assert math.isclose(history[-1]["rating"], got["mcts"], abs_tol=1e-6)
    text = ladder(db, "show")
    assert text.splitlines()[0] == "sneferu at 4 seats: 120 games; anchored: random 0"
    assert "  1  mcts  " in text and text.count("provisional") == 0
    csv_lines = ladder(db, "show", "--csv").splitlines()
    assert csv_lines[0] == "game,players,place,engine,rating,ci,games,provisional,anchored"
    assert csv_lines[1].startswith("sneferu,4,1,mcts,")


def test_an_anchor_places_every_other_engine(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    ladder(db, "add", str(write(tmp_path / "all.txt", range(120))))
    assert ladder(db, "anchor", "greedy=1500", "--game", "sneferu", "--seats", "4") == (
        "greedy in sneferu at 4 seats: held at 1500\n")
    fit = fit_ratings(GAMES, {"greedy": 1500.0})
    got = ratings(db)
    for name, row in fit.engines.items():
        assert math.isclose(got[name], row.rating, abs_tol=1e-6), name
    assert got["greedy"] == 1500.0
    ladder(db, "anchor", "greedy", "--remove", "--game", "sneferu", "--seats", "4")
    assert ratings(db)["random"] == 0.0  # back to the default anchor
    bad = run_cli("ladder", "--db", str(db), "anchor", "greedy=high", "--game", "sneferu",
                  "--seats", "4")
    assert bad.returncode == 2 and bad.stderr.startswith("sneferu: 'greedy=high': expected "
                                                         "NAME=RATING with a finite number")


def test_a_copy_of_an_anchor_lands_within_its_interval(tmp_path: Path) -> None:
    strength = {"random": 0.0, "greedy": 600.0, "mcts": 900.0, "copy": 600.0}
    reference = simulate({n: s for n, s in strength.items() if n != "copy"} | {"alpha": 300.0},
                         300, seed=11)
    newcomer = [g for g in simulate(strength | {"alpha": 300.0}, 400, seed=12)
                if "copy" in dict(g)][:200]
    assert len(newcomer) == 200
    with Ladder(tmp_path / "ladder.sqlite") as lad:
        lad.add([(GameResult.of(record([n for n, _ in g], [r for _, r in g], number=i)), b"")
                 for i, g in enumerate(reference + newcomer)], "simulated")
        lad.set_anchor(Pool("sneferu", 4), "greedy", 600.0)
        row = lad.fit(Pool("sneferu", 4)).engines["copy"]
    assert row.games == 200 and not row.provisional
    assert abs(row.rating - 600.0) <= row.ci


def test_concurrent_additions_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    files = [write(tmp_path / f"part{k}.txt", range(30 * k, 30 * k + 30)) for k in range(4)]
    writers = [start_cli("ladder", "--db", str(db), "add", str(f)) for f in files]
    for w in writers:
        out, err = w.communicate(timeout=120)
        assert w.returncode == 0, err
        assert out.startswith("added 30 games (0 already in the ladder")
    (pool,) = json.loads(ladder(db, "show", "--json"))["pools"]
    assert pool["games"] == 120
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 480


def test_games_the_fit_cannot_use_are_left_out(tmp_path: Path) -> None:
    same = record(["a", "a"], [1, 2], number=1)  # one engine in two seats
    unfinished = record(["a", "b"], [1, 2], number=2)
    unfinished.header.result = []
    fine = record(["a", "b"], [1, 2], number=3)
    with Ladder(tmp_path / "ladder.sqlite") as lad:
        done = lad.add([(GameResult.of(r), b"") for r in (same, unfinished, fine)], "x")
    assert (done.added, done.known, done.left_out) == (1, 0, 2)
    assert digest(GameResult.of(fine)) != digest(GameResult.of(fine), b"another header")


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database, just words\n" * 100)
    done = run_cli("ladder", "--db", str(not_db), "show")
    assert done.returncode == 2 and done.stderr.startswith(f"sneferu: {not_db}: not a ladder")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
    done = run_cli("ladder", "--db", str(tmp_path / "no" / "such.sqlite"), "show")
    assert done.returncode == 2 and "no folder" in done.stderr
    db = tmp_path / "ladder.sqlite"
    done = run_cli("ladder", "--db", str(db), "add", str(tmp_path / "missing.txt"))
    assert done.returncode == 2 and "missing.txt: cannot read" in done.stderr
    done = run_cli("ladder", "--db", str(db), "history", "nobody")
    assert done.returncode == 2 and done.stderr == "sneferu: no engine 'nobody' in the ladder\n"
    assert ladder(db, "show") == "no games in the ladder\n"
