"""Tournament features users of cutechess-cli and fastchess ask for, with real engines:
per-engine time control (time odds), start positions from a file, a first Ctrl-C that
finishes the running games, and the traffic and stderr logs (SPEC.md 9.1, 9.3, 9.8)."""

from __future__ import annotations

import random
import sys

import pytest
from support import ROOT, run_cli
from test_tournament_run import games_of, run

from sneferu_cli.notation.position import to_position
from sneferu_cli.record import format_record, parse_records, read_records, verify
from sneferu_cli.record.jsonl import read_json_records, record_to_json
from sneferu_cli.rules import sample_outcome
from sneferu_cli.rules.edition import standard_edition
from sneferu_cli.rules.state import new_game
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
