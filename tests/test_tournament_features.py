"""Tournament features users of cutechess-cli and fastchess ask for, with real engines:
per-engine time control (time odds), start positions from a file, a first Ctrl-C that
finishes the running games, and the traffic and stderr logs (SPEC.md 9.1, 9.3, 9.8)."""

from __future__ import annotations

import json
import random
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest
from support import BROKEN, ROOT, run_cli
from test_tournament_run import LIMIT, games_of, run, wait_gone, write_config

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.record import (
    decode_records,
    format_record,
    parse_records,
    read_records,
    verify,
)
from sneferu_cli.record.jsonl import read_json_records, record_to_json
from sneferu_cli.record.model import Chance, GameRecord
from sneferu_cli.tournament import ConfigError, load_config

SLOW = ROOT / "tests" / "engines" / "slow.py"


def slow(ms: int) -> str:
    """The command of an engine that takes ``ms`` per move."""
    return f"{sys.executable} {SLOW} {ms}"


# ----------------------------------------------------------------- time odds


def test_an_engine_with_its_own_movetime_plays_by_it_and_the_record_says_so(tmp_path):
    """Time odds: `hasty` has 50 ms a move (and needs 300), the tournament gives 2000:
    hasty is retired for a timeout at its first move of every game, `calm` never, and each
    record's [Seat] tag of hasty holds its own time control; replay shows it."""
    (tmp_path / "t.toml").write_text(f"""
deals = 1
seed = 3
movetime = 2000
margin = 50
records = "odds.rec"

[[engine]]
name = "hasty"
command = "{slow(300)}"
movetime = 50

[[engine]]
name = "calm"
command = "random"
""")
    r = run("t.toml", "-j", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = read_records((tmp_path / "odds.rec").read_text()).games
    assert len(games) == 2
    for g in games:
        h = g.record.header
        verify(g, standard_edition())
        assert h.time_control == "movetime 2000"
        tcs = {s.name: s.tc for s in h.seats}
        assert tcs == {"hasty": "movetime 50", "calm": None}
        hasty = next(s.seat for s in h.seats if s.name == "hasty")
        assert [(f.seat, f.kind, f.detail) for f in h.faults] == [
            (hasty, "timeout", "no move within 50 ms (+50 ms margin)")]
        line = next(x for x in format_record(g.record).splitlines()
                    if x.startswith(f'[Seat {hasty} "hasty"'))
        assert line.endswith(' tc="movetime 50"]')
    shown = run_cli("replay", str(tmp_path / "odds.rec"))
    assert shown.returncode == 0, shown.stderr
    assert "(hasty [movetime 50], calm)" in shown.stdout
    assert "(calm, hasty [movetime 50])" in shown.stdout


def test_time_odds_through_the_engine_flag(tmp_path):
    """`--engine "... tc=SECONDS+INC"`: a clock for that engine only (the other keeps the
    tournament's movetime); an engine whose own control equals the tournament's has none
    recorded."""
    r = run("--engine", "name=a command=random tc=30+0.5", "--engine",
            "name=b command=random movetime=700", "--movetime", "700", "--deals", "1",
            "--seed", "2", "--records", "f.rec", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for g in games_of(tmp_path / "f.rec"):
        assert {s.name: s.tc for s in g.header.seats} == {"a": "30+0.5", "b": None}
        assert g.header.time_control == "movetime 700" and not g.header.faults


@pytest.mark.parametrize(("flags", "message"), [
    (["name=a command=random tc=fast"], "engine[0].tc: 'fast' is not SECONDS+INC"),
    (["name=a command=random movetime=0"], "engine[0].movetime: movetime 0: must be at least"),
    (["name=a command=random movetime=soon"],
     "engine[0].movetime: expected `int | null`, got `str`"),
    (["name=a command=random tc=5 movetime=50"], "engine[0].tc: a time per move and a game "
                                                 "clock: give one, not both"),
])
def test_a_bad_engine_time_control_names_the_engine(flags, message):
    with pytest.raises(ConfigError) as e:
        load_config(None, {"engine": [*flags, "name=b command=random"]})
    assert message in str(e.value)


def test_the_fingerprint_of_a_configuration_without_the_new_keys_is_unchanged():
    """A tournament started before `positions` and the engines' `tc`/`movetime` existed
    still resumes: its fingerprint (SPEC 9.7) is what that version computed."""
    cfg = load_config(None, {"engine": ["name=a command=random option.Depth=2",
                                        "name=b command=greedy dir=."],
                             "seed": 7, "movetime": 200, "sprt-elo0": 0, "sprt-elo1": 10})
    assert cfg.fingerprint() == (
        "2a5aa6d465906d8e52517ee8521b853fc4cf04d7415529605ff7ecfb6a63835f")
    odds = load_config(None, {"engine": ["name=a command=random option.Depth=2 tc=5",
                                         "name=b command=greedy dir=."],
                              "seed": 7, "movetime": 200, "sprt-elo0": 0, "sprt-elo1": 10})
    assert odds.fingerprint() != cfg.fingerprint()


def test_a_seat_time_control_round_trips_in_text_and_json_and_old_records_still_read():
    text = ('[Event "?"]\n[Date "?"]\n[Edition standard]\n[Variant standard]\n'
            '[Players 2]\n[Seat 1 "a" author="A" tc="movetime 50"]\n[Seat 2 "b"]\n'
            '[TimeControl "10+0.1"]\n\nend of game\n')
    rec = parse_records(text)[0]
    assert [s.tc for s in rec.header.seats] == ["movetime 50", None]
    assert format_record(rec) == text
    assert read_json_records(record_to_json(rec)).games[0].record == rec
    old = text.replace(' tc="movetime 50"', "")
    assert parse_records(old)[0].header.seats[0].tc is None


# ----------------------------------------------------------------- start positions


def opening(players: int, seed: int, turns: int) -> str:
    """The position after the set-up and ``turns`` random turns (with their draws)."""
    state = new_game(players)
    rng = random.Random(seed)
    for played in range(turns + 1):
        while state.is_chance_node():
            state.apply(sample_outcome(state, rng))
        if played == turns:
            break
        state.apply_turn(rng.choice(state.legal_turns()))
    return to_position(state)


def test_each_deal_starts_from_the_next_position_in_every_seating(tmp_path):
    """Deal d starts from position ((d - 1) mod P) + 1 of the file, for every seating;
    the records carry it in [Position] and replay from it (SPEC 9.3)."""
    first, second = opening(2, 1, 0), opening(2, 2, 6)
    (tmp_path / "book.txt").write_text(f"# a small book\n\n{first}\n   \n# mid-game\n"
                                       f"  {second}  \n")
    r = run("--engine", "name=a command=random", "--engine", "name=b command=greedy",
            "--positions", "book.txt", "--deals", "3", "--seed", "4", "--movetime", "1000",
            "-j", "2", "--records", "book.rec", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = read_records((tmp_path / "book.rec").read_text()).games
    assert len(games) == 6
    for g in games:
        verify(g, standard_edition())
        h = g.record.header
        deal = int(h.extra["deal"])
        assert h.position == (first if deal % 2 else second)
        assert h.termination in ("normal", "ptah")
    # the same luck from the same position in both seatings: the first refill draws agree
    for deal in (1, 2, 3):
        draws = [[str(e) for e in g.record.events if not hasattr(e, "move")][:3]
                 for g in games if g.record.header.extra["deal"] == str(deal)]
        assert len(draws) == 2 and draws[0] == draws[1]


def test_a_position_where_chance_is_due_draws_from_the_deal_seed(tmp_path):
    """A position right after a turn, its refill not drawn yet: the game's first events
    are that refill, drawn from the deal seed, the same in both seatings."""
    state = from_position(opening(2, 5, 3))
    state.apply_turn(state.legal_turns()[0])
    assert state.is_chance_node()
    (tmp_path / "book.txt").write_text(to_position(state) + "\n")
    r = run("--engine", "name=a command=random", "--engine", "name=b command=random",
            "--positions", "book.txt", "--deals", "1", "--seed", "2", "--movetime", "1000",
            "--records", "c.rec", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = read_records((tmp_path / "c.rec").read_text()).games
    assert len(games) == 2
    for g in games:
        verify(g, standard_edition())
        assert isinstance(g.record.events[0], Chance)
    assert games[0].record.events[0] == games[1].record.events[0]


@pytest.mark.parametrize(("lines", "message"), [
    (["# nothing"], "book.txt: no positions"),
    (["standard standard x"], "positions: book.txt:1: "),
    (["", "# ok", "{three}"], "positions: book.txt:3: the position has 3 seats, the tables 2"),
    (["{over}"], "positions: book.txt:1: the game is over in this position"),
])
def test_a_bad_positions_file_names_file_and_line_before_any_game(tmp_path, lines, message):
    text = "\n".join(lines).format(three=opening(3, 1, 0), over=finished(2))
    (tmp_path / "book.txt").write_text(text + "\n")
    r = run("--engine", "name=a command=random", "--engine", "name=b command=random",
            "--positions", "book.txt", "--deals", "1", cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.splitlines()) == 1 and message in r.stderr, r.stderr
    assert not (tmp_path / "tournament.records.state").exists()


def test_positions_and_builders_do_not_go_together(tmp_path):
    (tmp_path / "book.txt").write_text(opening(2, 1, 0) + "\n")
    with pytest.raises(ConfigError, match="builders: not with positions"):
        load_config(None, {"engine": ["name=a command=random", "name=b command=random"],
                           "positions": str(tmp_path / "book.txt"), "builders": "random"})


def finished(players: int) -> str:
    """A position where the game is over."""
    state = new_game(players)
    rng = random.Random(0)
    while not state.is_over():
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
        else:
            state.apply_turn(rng.choice(state.legal_turns()))
    return to_position(state)


# ----------------------------------------------------------------- the first Ctrl-C


def started_games(log: Path) -> set[int]:
    """The games whose engines were spoken to, from a tournament's traffic log."""
    text = log.read_text() if log.exists() else ""
    return {int(m.group(1)) for m in re.finditer(r"^\S+ (\d+):\d[<>!] ", text, re.M)}


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "tournament", *args],
                         cwd=str(cwd), encoding="utf-8", timeout=LIMIT, dimensions=(30, 120))


def slow_pair(tmp_path: Path) -> None:
    """Two engines that take 30 ms a move: a game lasts a second or more."""
    write_config(tmp_path / "t.toml", {"a": [sys.executable, str(SLOW), "30"],
                                       "b": [sys.executable, str(SLOW), "30"]},
                 deals=4, seed=8, movetime=2000)


def recorded(records: Path) -> list[GameRecord]:
    return [g.record for g in read_records(decode_records(records.read_bytes())).games] \
        if records.exists() else []


def test_the_first_ctrl_c_finishes_and_records_the_games_being_played(tmp_path):
    """cutechess #825: the first Ctrl-C starts no new game, but the games being played
    are played to their end and recorded; then the standings, exit code 130, and
    --resume plays the rest."""
    slow_pair(tmp_path)
    records = tmp_path / "tournament.records"
    child = spawn("t.toml", "-j", "2", "--log", "traffic.log", cwd=tmp_path)
    end = time.monotonic() + LIMIT
    while not recorded(records) and time.monotonic() < end:
        time.sleep(0.02)
    before = len(recorded(records))
    child.sendintr()
    child.expect("Stopping: no new game starts; the (2 games|game) being played (are|is) "
                 "finished and recorded")
    child.expect("#  engine")  # the standings
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    games = read_records((records).read_text()).games
    numbers = {int(g.record.header.round or 0) for g in games}
    assert numbers == started_games(tmp_path / "traffic.log")  # every game begun is done
    assert before < len(numbers) < 8
    for g in games:
        verify(g, standard_edition())
        assert g.record.header.termination in ("normal", "ptah")
    state = json.loads((tmp_path / "tournament.records.state").read_text())
    assert state["pending"] is None and state["games"] == len(numbers)
    assert wait_gone(tmp_path) == []
    again = run("t.toml", "--resume", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(games_of(records)) == 8


def test_a_second_ctrl_c_abandons_the_games_being_played(tmp_path):
    slow_pair(tmp_path)
    records = tmp_path / "tournament.records"
    child = spawn("t.toml", "-j", "2", "--log", "traffic.log", cwd=tmp_path)
    end = time.monotonic() + LIMIT
    while len(started_games(tmp_path / "traffic.log")) < 2 and time.monotonic() < end:
        time.sleep(0.02)
    child.sendintr()
    child.expect("Stopping: no new game starts")
    child.sendintr()
    child.expect("to go on: sneferu tournament --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert len(recorded(records)) < len(started_games(tmp_path / "traffic.log"))
    assert wait_gone(tmp_path) == []
    state = json.loads((tmp_path / "tournament.records.state").read_text())
    assert state["pending"] is None and state["committed"] == records.stat().st_size


def test_a_ctrl_c_while_the_workers_start_up_does_not_kill_them(tmp_path):
    """The terminal sends Ctrl-C to the workers too: one still starting up (before it
    could ignore it) must not die of it, so the games handed out are played to the end."""
    slow_pair(tmp_path)
    child = spawn("t.toml", "-j", "2", cwd=tmp_path)
    child.expect(r"\[ *0/8")  # the games are handed out, the workers are starting
    child.sendintr()
    child.expect("Stopping: no new game starts")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    games = recorded(tmp_path / "tournament.records")
    assert sorted(int(g.header.round or 0) for g in games) == [1, 2]


# ----------------------------------------------------------------- logs


TRAFFIC_LINE = re.compile(r"\d+\.\d{6} (\d+):([12])([<>!]) (.*)")


@pytest.mark.parametrize("into", ["file", "folder"])
def test_the_logs_of_several_workers_never_mix_within_a_line(tmp_path, into):
    """--log and --engine-stderr with 2 workers at once: every traffic line is whole and
    labelled GAME:SEAT, and so is every stderr line of an engine that writes megabyte
    lines (2 MB at its start, 256 kB at each request); an engine's own time control
    shows in what it is sent."""
    (tmp_path / "err").mkdir()
    stderr = "err.log" if into == "file" else "err"
    r = run("--engine", f"name=noisy command='{sys.executable} {BROKEN} stderr-flood'",
            "--engine", "name=quiet command=random tc=20+0.5", "--movetime", "800",
            "--deals", "2", "--seed", "6", "-j", "2", "--log", "traffic.log",
            "--engine-stderr", stderr, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = {int(g.header.round or 0): g for g in games_of(tmp_path / "tournament.records")}
    assert sorted(games) == [1, 2, 3, 4]
    seen = set()
    for line in (tmp_path / "traffic.log").read_text().splitlines():
        m = TRAFFIC_LINE.fullmatch(line)
        assert m, line[:200]
        game, seat, way, text = int(m[1]), int(m[2]), m[3], m[4]
        name = games[game].header.seats[seat - 1].name
        seen.add(game)
        if way == ">" and text.startswith("go "):
            assert text.startswith("go clock" if name == "quiet" else "go movetime 800")
            if name == "quiet":
                assert text.endswith(" inc 500")
    assert seen == {1, 2, 3, 4}
    text = (tmp_path / ("err.log" if into == "file" else "err/noisy.log")).read_bytes()
    lines = text.split(b"\n")
    assert lines.pop() == b""
    kinds = set()
    for line in lines:
        m = re.fullmatch(rb"\[(\d+):([12])\] (pid \d+|f{2000000}|e{256000})", line)
        assert m, line[:100]
        kinds.add(m[3][:1])
    assert kinds == {b"p", b"f", b"e"}
    if into == "folder":
        assert sorted(p.name for p in (tmp_path / "err").iterdir()) == ["noisy.log",
                                                                       "quiet.log"]


def test_a_log_that_cannot_be_written_is_a_usage_error_before_anything(tmp_path):
    r = run("--engine", "name=a command=random", "--engine", "name=b command=random",
            "--log", str(tmp_path / "no" / "where.log"), cwd=tmp_path)
    assert r.returncode == 2 and "where.log: cannot write the log" in r.stderr
    assert len(r.stderr.splitlines()) == 1
    assert not (tmp_path / "tournament.records.state").exists()


def test_a_positions_file_changed_before_a_resume_is_refused(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text(opening(2, 1, 0) + "\n")
    args = ["--engine", "name=a command=random", "--engine", "name=b command=random",
            "--positions", "book.txt", "--deals", "2", "--seed", "1", "--movetime", "1000"]
    assert run(*args, cwd=tmp_path).returncode == 0
    book.write_text(opening(2, 2, 0) + "\n")
    r = run(*args, "--resume", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert re.search(r"game \d: the record's start position is not the schedule's", r.stderr)
