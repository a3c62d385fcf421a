"""Tournament standings of every game: the game's own score columns (Imhotep: points,
sled) in the table, JSON and CSV, the same from a run and from `sneferu tournament
report`; Sneferu's exactly as before (golden files in tests/data/standings/)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import msgspec
import pytest
from support import ROOT, run_cli

from sneferu_cli.game import get_game
from sneferu_cli.record.model import GameRecord, Header, Seat, SeatResult
from sneferu_cli.record.replay import verify
from sneferu_cli.record.text import read_records
from sneferu_cli.tournament import compute_standings, format_standings, to_csv, to_json
from sneferu_cli.tournament.config import ConfigError, fingerprint_of, load_config
from sneferu_cli.tournament.progress import Progress
from sneferu_cli.tournament.standings import GameResult, Results

GOLDEN = ROOT / "tests" / "data" / "standings"
LIMIT = 120  # seconds any one command here may take


def imhotep(names: list[str], ranks: list[int], points: list[int], sled: list[int],
            deal: int) -> GameRecord:
    """A finished Imhotep game's record: engines by seat, ranks and scores."""
    return GameRecord(header=Header(
        players=len(names), game="imhotep", variant="AAAAA",
        seats=[Seat(i + 1, n) for i, n in enumerate(names)],
        result=[SeatResult(i + 1, ranks[i], scores={"points": points[i], "sled": sled[i]})
                for i in range(len(names))],
        extra={"deal": str(deal)}))


def three_games() -> list[GameRecord]:
    """A and B, two seats:  g1 A 30 2 / B 25 4;  g2 B 31 0 / A 31 1 (tie on points,
    A ahead on the sled, I25);  g3 A 20 5 / B 28 3."""
    return [imhotep(["A", "B"], [1, 2], [30, 25], [2, 4], 1),
            imhotep(["B", "A"], [2, 1], [31, 31], [0, 1], 1),
            imhotep(["A", "B"], [2, 1], [20, 28], [5, 3], 2)]


def test_sneferus_report_is_byte_for_byte_as_before():
    """A record file of a 3-seat tournament and a solo one, reported before the standings
    learned other games' scores: the table, JSON and CSV are unchanged (but for the line
    under the table saying what its ± are, added since)."""
    records = str(GOLDEN / "sneferu.rec")
    for flags, golden in (((), "sneferu.txt"), (("--json",), "sneferu.json"),
                          (("--csv",), "sneferu.csv")):
        out = run_cli("tournament", "report", records, *flags)
        assert out.returncode == 0, out.stderr
        assert out.stdout == (GOLDEN / golden).read_text(), golden


def test_imhotep_means_by_hand():
    st = compute_standings(three_games())
    assert st.score_keys == get_game("imhotep").score_keys == ("points", "sled")
    rows = {e.name: e for e in st.engines}
    assert rows["A"].means == {"points": (30 + 31 + 20) / 3, "sled": (2 + 1 + 5) / 3}
    assert rows["B"].means == {"points": (25 + 31 + 28) / 3, "sled": (4 + 0 + 3) / 3}
    assert (rows["A"].mean_rank, rows["B"].mean_rank) == (4 / 3, 5 / 3)


def test_imhotep_table_json_and_csv_show_points_and_sled():
    st = compute_standings(three_games())
    header, a = format_standings(st).splitlines()[:2]
    assert header.split() == ["#", "engine", "games", "rank", "±95%", "first", "points",
                              "sled", "rating", "faults"]
    assert a.split()[:8] == ["1", "A", "3", "1.33", "0.87", "66.7%", "27.0", "2.7"]
    assert a.split()[-1] == "-"
    engines = json.loads(to_json(st))["engines"]
    assert list(engines[0]) == ["name", "games", "mean_rank", "rank_ci", "firsts",
                                "mean_points", "mean_sled", "rating", "rating_sigma",
                                "faults"]
    assert (engines[0]["mean_points"], engines[0]["mean_sled"]) == (27.0, 8 / 3)
    rows = list(csv.DictReader(io.StringIO(to_csv(st))))
    assert list(rows[0]) == ["engine", "games", "mean_rank", "rank_ci", "firsts",
                             "mean_points", "mean_sled", "rating", "rating_sigma", "faults"]
    assert (rows[0]["engine"], rows[0]["mean_points"], rows[0]["mean_sled"]) == (
        "A", "27", "2.66667")
    assert "stones" not in format_standings(st) + to_json(st) + to_csv(st)


def test_imhotep_results_kept_small_give_the_same_standings():
    """A run keeps a Results list: the scores and the game survive it."""
    games = [*three_games(), imhotep(["A", "B"], [1, 2], [9, 8], [0, 0], 3)]
    games[-1].header.result = []  # unfinished
    results = Results.of(games)
    assert list(results) == [GameResult.of(g) for g in games]
    assert results[0].game == "imhotep"
    assert results[0].result[1].scores == {"points": 25, "sled": 4}
    assert to_json(compute_standings(results)) == to_json(compute_standings(games))


def test_no_finished_game_gives_the_games_columns():
    unfinished = imhotep(["A", "B"], [1, 2], [9, 8], [0, 0], 3)
    unfinished.header.result = []
    st = compute_standings([unfinished])
    assert st.score_keys == ("points", "sled")
    assert to_csv(st).startswith("engine,games,mean_rank,rank_ci,firsts,mean_points,"
                                 "mean_sled,rating")
    assert compute_standings([]).score_keys == ("stones", "food")


def test_a_file_of_two_games_shows_the_scores_of_both():
    """Sneferu's and Imhotep's games in one file: a score a game lacks counts 0."""
    sneferu = GameRecord(header=Header(players=2, seats=[Seat(1, "A"), Seat(2, "B")],
                                       result=[SeatResult(1, 1, scores={"stones": 12, "food": 4}),
                                               SeatResult(2, 2, scores={"stones": 10, "food": 3})]))
    st = compute_standings([*three_games(), sneferu])
    assert st.score_keys == ("points", "sled", "stones", "food")
    a = next(e for e in st.engines if e.name == "A")
    assert a.means == {"points": 81 / 4, "sled": 2.0, "stones": 3.0, "food": 1.0}
    assert format_standings(st).split()[6:10] == ["points", "sled", "stones", "food"]


def test_an_imhotep_tournament_reports_its_scores_and_the_report_agrees(tmp_path):
    """A real run (two bundled random engines and engines/instant.py, 3 seats): the final table,
    the live status lines, JSON and CSV show points and sled, and `tournament report` on
    the record file prints exactly the run's table; every game replays."""
    done = subprocess.run(
        [sys.executable, "-m", "sneferu_cli", "tournament", "--game", "imhotep",
         "--engine", "name=a command=random", "--engine", "name=b command=random",
         "--engine", f"name=c command='{sys.executable} {ROOT / 'engines' / 'instant.py'}'",
         "--seats", "3", "--deals", "1", "--seed", "4", "--movetime", "2000",
         "--records", "im.rec", "--json", "s.json", "--csv", "s.csv", "-j", "2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    games = read_records((tmp_path / "im.rec").read_text()).games
    assert len(games) == 3 and all(g.record.header.game == "imhotep" for g in games)
    for g in games:
        verify(g, get_game("imhotep").standard_edition())
    st = compute_standings(g.record for g in games)
    table = format_standings(st)
    assert table.split()[6:8] == ["points", "sled"] and table in done.stdout
    assert all(e.means["points"] > 0 for e in st.engines)
    report = run_cli("tournament", "report", str(tmp_path / "im.rec"))
    assert report.returncode == 0 and report.stdout == table
    for flag, file in (("--json", "s.json"), ("--csv", "s.csv")):
        out = run_cli("tournament", "report", str(tmp_path / "im.rec"), flag)
        assert out.returncode == 0 and out.stdout == (tmp_path / file).read_text()
    assert '"mean_points"' in (tmp_path / "s.json").read_text()


@pytest.mark.parametrize("live", [False, True])
def test_progress_shows_the_games_columns(live):
    """The live block's top rows are the standings table's, with points and sled; the
    plain lines name the leader."""
    results = Results.of(three_games())
    run = SimpleNamespace(finished=3, total=6, resumed=0, started=time.monotonic(),
                          running={}, todo=[4, 5, 6], cluster=None, sprt=None,
                          results=results, standings=lambda: compute_standings(results),
                          finish=threading.Event(), stop=threading.Event())
    out = io.StringIO()
    Progress(out, live=live).update(run, three_games()[-1])  # type: ignore[arg-type]
    text = out.getvalue()
    if live:
        assert text.splitlines()[1].split()[6:8] == ["points", "sled"]
    else:
        assert "leader A (mean rank 1.33)" in text


# ----------------------------------------------------------------- variants


def test_an_imhotep_variant_is_played_recorded_and_replayed(tmp_path):
    """variant = "BBBBB+wrath": every game is played in it, its records say so (a variant
    with "+" could not be written before) and replay; the report reads them."""
    (tmp_path / "w.toml").write_text(
        'game = "imhotep"\nvariant = "BBBBB+wrath"\ndeals = 1\nseed = 2\nmovetime = 2000\n'
        'records = "w.rec"\n[[engine]]\nname = "a"\ncommand = "random"\n'
        '[[engine]]\nname = "b"\ncommand = "random"\n')
    done = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "w.toml"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "w.rec").read_text()
    games = read_records(text).games
    assert len(games) == 2 and text.count("[Variant BBBBB+wrath]\n") == 2
    for g in games:
        state = verify(g, get_game("imhotep").standard_edition()).state
        assert get_game("imhotep").variant_of(state) == "BBBBB+wrath"
    assert run_cli("tournament", "report", str(tmp_path / "w.rec")).returncode == 0


@pytest.mark.parametrize(("keys", "message"), [
    ({"game": "imhotep", "variant": "CCCCC"}, "variant: unknown Imhotep variant 'CCCCC'"),
    ({"variant": "builders"}, "variant: Sneferu's variant is chosen with builders"),
])
def test_a_variant_that_cannot_be_played_is_a_configuration_error(keys, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(None, {"engine": ["name=a command=random", "name=b command=random"],
                           **keys})


def test_a_variant_is_not_given_with_positions(tmp_path):
    start = run_cli("position", "new", "--game", "imhotep", "--players", "2", "--seed", "1")
    (tmp_path / "book.txt").write_text(start.stdout)
    with pytest.raises(ConfigError, match="variant: not with positions"):
        load_config(None, {"engine": ["name=a command=random", "name=b command=random"],
                           "game": "imhotep", "variant": "ABAAB",
                           "positions": str(tmp_path / "book.txt")})


def test_the_variant_key_counts_in_the_fingerprint_only_when_given():
    engines = {"engine": ["name=a command=random", "name=b command=random"], "seed": 1,
               "game": "imhotep"}
    plain = load_config(None, engines)
    before = msgspec.to_builtins(plain)
    del before["variant"]  # a state written before the key: the same fingerprint
    assert plain.fingerprint() == fingerprint_of(before)
    assert load_config(None, {**engines, "variant": "AAAAA"}).fingerprint() != \
        plain.fingerprint()


def test_position_new_takes_another_games_variant_for_an_opening_book(tmp_path):
    """`position new --variant` starts a book of that variant; a tournament from it plays
    it (the positions carry their variant)."""
    new = run_cli("position", "new", "--game", "imhotep", "-p", "2", "--seed", "5",
                  "--variant", "ABAAB+wrath")
    assert new.returncode == 0, new.stderr
    assert new.stdout.split()[1] == "ABAAB+wrath"
    (tmp_path / "book.txt").write_text(new.stdout)
    cfg = load_config(None, {"engine": ["name=a command=random", "name=b command=random"],
                             "game": "imhotep", "positions": str(tmp_path / "book.txt")})
    assert cfg.start_positions() == [new.stdout.strip()]
    for args, message in ((["--game", "imhotep", "--variant", "AAAA"], "unknown Imhotep "
                           "variant 'AAAA'"), (["--variant", "ABAAB"], "Sneferu's is "
                                                "--builders")):
        bad = run_cli("position", "new", *args)
        assert bad.returncode == 2 and message in bad.stderr
        assert len(bad.stderr.splitlines()) == 1
