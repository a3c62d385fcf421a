"""Simultaneous sealed nodes and per-seat views through the protocol, the arbiter, records,
replay and tournaments (SPEC 6.3, 7.1, 7.2, 8.3, 8.6), played with the test-only sealed
game (tests/sealed_game.py) by real engine processes (tests/engines/sealed_player.py); and
the games without hidden information unchanged byte for byte (tests/golden_games.py)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from golden_games import GAMES, GOLDEN, transcript
from nim_game import register as register_nim
from sealed_game import GAME, register
from support import ROOT, group_gone

from sneferu_cli.arbiter.agent import TurnRequest
from sneferu_cli.arbiter.bench import (
    has_simultaneous_nodes,
    simultaneous_figures,
    simultaneous_report,
)
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.arbiter.human import Human
from sneferu_cli.arbiter.process import TrafficLog
from sneferu_cli.game import get_game, seat_view
from sneferu_cli.protocol.messages import NewGame
from sneferu_cli.record.html import _moves
from sneferu_cli.record.jsonl import read_json_records, records_to_json
from sneferu_cli.record.model import (
    Chance,
    GameRecord,
    Header,
    Retire,
    Simultaneous,
    Turn,
    TurnEvent,
    seat_turns,
)
from sneferu_cli.record.replay import ReplayError, position_at, verify
from sneferu_cli.record.text import RecordError, format_record, read_records

register()
register_nim()
PLAYER = ROOT / "tests" / "engines" / "sealed_player.py"
CLI = ROOT / "tests" / "sealed_cli.py"
FAST = TimeControl(movetime=2000)
EDITION = GAME.standard_edition()


def player(*mode: str, traffic: TrafficLog | None = None) -> Engine:
    return Engine([sys.executable, str(PLAYER), *mode], traffic=traffic)


def play(engines: list[Engine], seed: int = 1, **kw: object) -> GameRecord:
    Engine.start_all([e for e in engines if e._process is None])
    for seat, e in enumerate(engines, start=1):
        e.set_option("Seed", str(seed * 10 + seat))
    return play_game(engines, seed=seed, time_control=kw.pop("tc", FAST),  # type: ignore[arg-type]
                     game=GAME, **kw)  # type: ignore[arg-type]


def sent(traffic: str, seat: int) -> list[str]:
    """The lines the arbiter sent to ``seat``, in order."""
    return [line.split(" ", 2)[2] for line in traffic.splitlines()
            if line.split(" ", 2)[1] == f"{seat}>"]


# ----------------------------------------------------------------- the record line


def sealed_record() -> GameRecord:
    events = [Chance("~D1.5.9"), Chance("~D2.6.10"), Chance("~P2"),
              Simultaneous([Turn(1, "bid 9", 30), Turn(2, "bid 2", 12, {"depth": "3"})]),
              Chance("~P1"),
              Simultaneous([Turn(1, "bid 5", 4), Turn(2, "bid 10", 7)]), Chance("~P3"),
              Simultaneous([Turn(1, "bid 1"), Turn(2, "bid 6")])]
    header = Header(players=2, game="sealed", termination="normal")
    state = GAME.new_game(2)
    for e in events:
        if isinstance(e, Chance):
            GAME.apply_outcome(state, e.outcome)
        else:
            for t in seat_turns(e):
                GAME.apply_move(state, t.move, t.seat - 1)
    from sneferu_cli.record.replay import final_result
    header.result = final_result(state, GAME)[0]
    return GameRecord(header, events)


def test_a_simultaneous_step_is_one_turn_line_with_every_seats_move_and_notes():
    text = format_record(sealed_record())
    body = text.split("\n\n", 1)[1]
    assert body == ("chance ~D1.5.9 ~D2.6.10\n"
                    "chance ~P2\n"
                    "1. 1: bid 9 {30ms} ; 2: bid 2 {12ms depth=3} ~P1\n"
                    "2. 1: bid 5 {4ms} ; 2: bid 10 {7ms} ~P3\n"
                    "3. 1: bid 1 ; 2: bid 6\n"
                    "end of game\n")
    entry = read_records(text).games[0]
    assert entry.record == sealed_record()
    assert entry.event_lines[3:5] == (13, 13)  # the step and the draw after it: one line
    assert read_json_records(records_to_json([sealed_record()])).games[0].record \
        == sealed_record()
    assert '{"type":"simultaneous","turns":[{"type":"turn","seat":1,"move":"bid 9","ms":30}' \
        in records_to_json([sealed_record()])
    verified = verify(entry, EDITION)
    assert verified.turns == 3 and verified.state.scores == [2, 4]  # 9>2: 2; 10>5: 1; 6>1: 3


def test_a_simultaneous_turn_is_one_ply():
    entry = read_records(format_record(sealed_record())).games[0]
    assert GAME.to_position(position_at(entry, 1, EDITION)) == (
        "sealed prizes=3 prize=1 scores=2,0 hands=1.5/6.10 bids=-,- played=2.9 retired=0,0")
    with pytest.raises(ValueError, match="plies 0 to 3"):
        position_at(entry, 4, EDITION)


def test_the_viewers_move_list_shows_a_simultaneous_turn_as_one_move():
    entry = read_records(format_record(sealed_record())).games[0]
    moves = _moves(entry)
    assert len(moves) == 3
    assert moves[0] == {"seat": None, "move": "1: bid 9 {30ms} ; 2: bid 2 {12ms}",
                        "draws": ["~P1"], "ms": None, "line": 13}


def test_a_simultaneous_turn_needs_two_seats_in_seat_order():
    bad = sealed_record()
    bad.events[3] = Simultaneous([Turn(2, "bid 2"), Turn(1, "bid 9")])
    with pytest.raises(ValueError, match=r"seats \[2, 1\] \(two or more, in seat order"):
        format_record(bad)
    bad.events[3] = Simultaneous([Turn(1, "bid 9")])
    with pytest.raises(ValueError, match="two or more"):
        format_record(bad)
    text = format_record(sealed_record()).replace("1. 1: bid 9 {30ms} ; 2: bid 2",
                                                  "1. 2: bid 2 {30ms} ; 1: bid 9")
    with pytest.raises(RecordError, match="line 13: a simultaneous turn of seats 2 1: the seats "
                                          "come in seat order, each once"):
        read_records(text)
    with pytest.raises(RecordError, match="line 13: unexpected"):
        read_records(format_record(sealed_record()).replace(" ; 2: bid 2", " ;2: bid 2"))


@pytest.mark.parametrize(("old", "new", "error"), [
    # A seat left out: the step would be cut in two.
    ("1. 1: bid 9 {30ms} ; 2: bid 2 {12ms depth=3} ~P1", "1. 1: bid 9 ~P1 {30ms}",
     r"line 13: turn 1 \(seat 1\): seats 1, 2 decide together here: their moves come on one "
     "line"),
    ("1. 1: bid 9 {30ms} ; 2: bid 2", "1. 1: bid 9 {30ms} ; 2: bid 3",
     r"line 13: turn 1 \(seats 1,2\): seat 2's 'bid 3': bid 3: not a legal move of seat 2"),
    ("chance ~P2\n", "chance ~P2\nretire 2 crash\n",
     r"line 14: turn 1 \(seats 1,2\): only seat 1 decides here"),
])
def test_replay_checks_a_simultaneous_turn(old, new, error):
    text = format_record(sealed_record()).replace(old, new)
    assert text != format_record(sealed_record())
    with pytest.raises(ReplayError, match=error):
        verify(read_records(text).games[0], EDITION)


def test_a_simultaneous_turn_where_one_seat_moves_alone_is_refused():
    nim = ("[Event \"?\"]\n[Date \"?\"]\n[Game nim]\n[Edition standard]\n[Variant standard]\n"
           "[Players 2]\n\nchance ~H5\n1. 1: take 1 ; 2: take 1\nend of game\n")
    with pytest.raises(ReplayError, match=r"line 9: turn 1 \(seats 1,2\): seat 1 alone is to "
                                          "move, at no simultaneous node"):
        verify(read_records(nim).games[0], None)


def test_a_retire_at_a_sealed_node_and_the_others_moves_replay_in_any_order():
    """The arbiter writes a seat retired at a simultaneous node before the step, whatever
    the order things happened in; the replay gives the arbiter's state."""
    state = GAME.new_game(3)
    for o in ("~D1.5.9", "~D2.6.10", "~D3.7.11", "~P2"):
        GAME.apply_outcome(state, o)
    live = state.clone()
    GAME.apply_move(live, "bid 9", 0)
    GAME.apply_move(live, "bid 7", 2)
    live.retire(1)  # the last to answer fails: the step resolves
    replayed = state.clone()
    replayed.retire(1)
    GAME.apply_move(replayed, "bid 9", 0)
    GAME.apply_move(replayed, "bid 7", 2)
    assert GAME.to_position(live) == GAME.to_position(replayed)
    assert live.scores == [2, 0, 0] and live.prize is None


# ----------------------------------------------------------------- the arbiter


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_seats_of_a_sealed_node_are_asked_at_once_and_see_only_their_view(seats):
    out = io.StringIO()
    log = TrafficLog(out)
    engines = [player(traffic=log) for _ in range(seats)]
    try:
        record = play(engines, seed=seats)
    finally:
        Engine.quit_all(engines)
    h = record.header
    assert (h.termination, h.faults) == ("normal", [])
    steps = [e for e in record.events if isinstance(e, TurnEvent)]
    assert len(steps) == 3 and all(isinstance(e, Simultaneous) for e in steps)
    assert all([t.seat for t in e.turns] == list(range(1, seats + 1))  # type: ignore[union-attr]
               for e in steps)
    entry = read_records(format_record(record)).games[0]
    final = verify(entry, EDITION).state
    traffic = out.getvalue()
    dealt = [e.outcome for e in record.events if isinstance(e, Chance)][:seats]
    for seat in range(1, seats + 1):
        lines = sent(traffic, seat)
        positions = [x for x in lines if x.startswith("position ")]
        assert len(positions) == 4  # three steps and the end
        others = {c for j, d in enumerate(dealt) if j != seat - 1
                  for c in d[2:].split(".")}
        for x in lines:
            assert " moves " not in x and "~" not in x  # no events: they would tell
            if x.startswith("position "):
                fields = dict(f.split("=") for f in x.split()[2:])
                hands = fields["hands"].split("/")
                bids = fields["bids"].split(",")
                for j in range(seats):
                    if j != seat - 1:
                        assert set(hands[j]) <= set("?.-") and bids[j] in ("-", "?")
                assert not others & set(re.split(r"[./]", hands[seat - 1]))
            if x.startswith("go "):
                assert not others & set(re.findall(r"bid (\d+)", x))
        # The last position before gameover is the seat's view of the final position.
        assert lines[lines.index(next(x for x in lines if x.startswith("gameover"))) - 1] \
            == f"position {seat_view(GAME, final, seat - 1)}"
    # At once: every seat's go of a step is sent before any answer of that step is read.
    order = [line.split(" ", 2)[1:] for line in traffic.splitlines()]
    for step in range(3):
        gos = [i for i, (who, text) in enumerate(order) if who.endswith(">")
               and text.startswith("go ")]
        moves = [i for i, (who, text) in enumerate(order) if who.endswith("<")
                 and text.startswith("move ")]
        batch = gos[step * seats:(step + 1) * seats]
        answers = moves[step * seats:(step + 1) * seats]
        assert max(batch) < min(answers)


def test_asked_one_after_the_other_the_seats_get_the_same_lines_and_play_the_same_game():
    runs = []
    for at_once in (True, False):
        out = io.StringIO()
        engines = [player(traffic=TrafficLog(out)) for _ in range(3)]
        try:
            record = play(engines, seed=9, at_once=at_once)
        finally:
            Engine.quit_all(engines)
        runs.append((record, out.getvalue()))
    (together, t1), (in_turn, t2) = runs
    assert [seat_turns(e) and [t.move for t in seat_turns(e)] for e in together.events] \
        == [seat_turns(e) and [t.move for t in seat_turns(e)] for e in in_turn.events]
    for seat in (1, 2, 3):
        assert sent(t1, seat) == sent(t2, seat)
    # One after the other: each answer is read before the next seat is asked.
    order = [line.split(" ", 2)[1:] for line in t2.splitlines()
             if " go " in line or " move " in line]
    assert [who for who, _ in order[:6]] == ["1>", "1<", "2>", "2<", "3>", "3<"]


FAULTS = [
    # mode, fault kind, detail
    ("crash", "crash", r"exited with code 3; stderr: misbehaving: crash"),
    ("hang-move", "timeout", r"no move within 300 ms \(\+200 ms margin\)"),
    # A refused sealed move is not quoted (SPEC 7.2): only the game's reason.
    ("illegal", "illegal", r"^bid 99: not a legal move of seat 2$"),
    ("flood", "flood", r"a line longer than 65536 bytes"),
    ("garbage", "malformed", r"'bestmove'"),
    ("eof", "eof", r"closed its output but is still running"),
]


@pytest.mark.parametrize(("mode", "kind", "detail"), FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("at", [1, 2])
def test_a_seat_that_fails_at_a_sealed_node_is_retired_and_the_others_moves_apply(
        mode, kind, detail, at):
    engines = [player(), player(mode, str(at)), player()]
    Engine.start_all(engines)
    pid = engines[1]._process.proc.pid  # type: ignore[union-attr]
    try:
        record = play(engines, seed=5, tc=TimeControl(movetime=300, margin=200))
    finally:
        Engine.quit_all(engines)
    h = record.header
    assert [(f.seat, f.kind, f.ply) for f in h.faults] == [(2, kind, at - 1)]
    assert re.search(detail, h.faults[0].detail), h.faults[0].detail
    steps = [e for e in record.events if isinstance(e, TurnEvent)]
    assert len(steps) == 3  # the game went on to its end
    # The failing step: the retire line first, then the others' moves as one turn.
    failed = record.events.index(steps[at - 1])
    assert record.events[failed - 1] == Retire(2, kind)
    assert [[t.seat for t in seat_turns(e)] for e in steps] == \
        [[1, 2, 3]] * (at - 1) + [[1, 3]] * (4 - at)
    assert h.termination == "normal"
    assert [r.retired for r in h.result] == [False, True, False]
    assert h.result[1].rank == 3
    verify(read_records(format_record(record)).games[0], EDITION)
    assert group_gone(pid)


def test_a_human_at_a_sealed_node_sees_only_its_view_and_plays_its_own_move():
    state = GAME.new_game(2)
    for o in ("~D1.5.9", "~D2.6.10", "~P2"):
        GAME.apply_outcome(state, o)
    GAME.apply_move(state, "bid 9", 0)  # sealed: seat 2 must not see it
    typed = io.StringIO("bid 9\n?\nbid 6\n")
    out = io.StringIO()
    human = Human(inp=typed, out=out)
    human.new_game(NewGame(2, 2, "standard", "standard", "sealed"))
    request = TurnRequest(state, 1, f"position {seat_view(GAME, state, 1)}", None, None, 0, 100,
                          GAME, sealed=True)
    answer = human.play_turn(request)
    assert answer.move == "bid 6"
    shown = out.getvalue()
    assert "seat 1: score 0, hand ?.?, bid sealed" in shown
    assert "seat 2: score 0, hand 2.6.10" in shown
    assert "Illegal: bid 9: not a legal move of seat 2" in shown
    assert "3 legal moves:" in shown and "bid 2" in shown
    assert "9" not in shown.replace("bid 9", "")  # seat 1's card and bid are never shown
    assert state.bids == [9, None]  # the arbiter applies the move, not the human seat


def test_sneferu_play_with_a_human_at_a_sealed_node(tmp_path):
    """The real command line (pexpect): seat 1 a person, seat 2 an engine; the person is
    shown its own hand only, and the game is recorded and replays."""
    command = f"{sys.executable} {PLAYER}"
    child = pexpect.spawn(sys.executable, [str(CLI), "play", "--game", "sealed", "--human",
                                           "1", command, "--seed", "3", "--record",
                                           str(tmp_path / "g.rec"), "--log",
                                           str(tmp_path / "g.log")],
                          encoding="utf-8", timeout=60, cwd=str(tmp_path))
    try:
        for _ in range(3):
            child.expect(r"seat 1: score \d+, hand ([\d.]+)")
            hand = child.match.group(1)
            # The engine's hand is hidden (it has bid already: its card is out of it).
            child.expect(r"seat 2: score \d+, hand ([?.]+|-), bid sealed")
            child.expect("seat 1> ")
            child.sendline(f"bid {hand.split('.')[0]}")
        child.expect(r"Game over after 3 turns")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    done = subprocess.run([sys.executable, str(CLI), "replay", str(tmp_path / "g.rec")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "verified, 3 turns" in done.stdout
    # The engine's traffic (the --log file): the person's hand never, its own always.
    record = read_records((tmp_path / "g.rec").read_text()).games[0].record
    mine, its = ({c for c in o.outcome[2:].split(".")} for o in record.events[:2])
    to_engine = [line.split(" ", 2)[2] for line in (tmp_path / "g.log").read_text()
                 .splitlines() if line.split(" ", 2)[1] == "2>"]
    positions = [x for x in to_engine if x.startswith("position ")]
    assert len(positions) == 4 and all(" moves " not in x for x in positions)
    for x in positions:
        hands = dict(f.split("=") for f in x.split()[2:])["hands"].split("/")
        assert set(hands[0]) <= set("?.-") and not mine & set(hands[1].split("."))
    assert set(positions[0].split("hands=")[1].split()[0].split("/")[1].split(".")) == its
    assert not any(mine & set(re.findall(r"bid (\d+)", x)) for x in to_engine)


def test_sneferu_play_prints_a_simultaneous_turn_on_one_line():
    command = f"{sys.executable} {PLAYER}"
    done = subprocess.run([sys.executable, str(CLI), "play", "--game", "sealed", command,
                           command, f"{command} crash 2", "-v", "--seed", "2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"turn   1  seat 1 sealed-play: bid \d+ \(\d+ ms\)  seat 2 sealed-play: "
                        r"bid \d+ \(\d+ ms\)  seat 3 sealed-crash: bid \d+ \(\d+ ms\)", lines[1])
    assert lines[2] == "seat 3 sealed-crash is retired: crash"
    assert re.fullmatch(r"turn   2  seat 1 sealed-play: bid \d+ \(\d+ ms\)  seat 2 sealed-play: "
                        r"bid \d+ \(\d+ ms\)", lines[3])
    assert "Game over after 3 turns" in done.stdout
    assert "retired at ply 1: crash" in done.stdout


def test_a_sealed_game_tournament_with_real_engines(tmp_path):
    """`sneferu tournament` (with the test games registered) between engine processes: the
    standings, and every game's record verifies with its simultaneous turns."""
    command = f"'{sys.executable} {PLAYER}'"
    done = subprocess.run(
        [sys.executable, str(CLI), "tournament", "--game", "sealed",
         "--engine", f"name=a command={command}", "--engine", f"name=b command={command}",
         "--engine", f"name=c command={command}", "--seats", "3", "--deals", "1",
         "--seed", "4", "--movetime", "2000", "--records", "s.rec", "-j", "2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^#\s+engine\s+games\s+rank", done.stdout, re.M)
    games = read_records((tmp_path / "s.rec").read_text()).games
    assert len(games) == 3
    for g in games:
        assert g.record.header.game == "sealed" and g.record.header.faults == []
        assert sum(isinstance(e, Simultaneous) for e in g.record.events) == 3
        verify(g, EDITION)
    replay = subprocess.run([sys.executable, str(CLI), "replay", "s.rec"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0 and replay.stdout.count("verified, 3 turns") == 3


# ----------------------------------------------------------------- nothing changes elsewhere


@pytest.mark.parametrize(("name", "players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_games_without_hidden_information_keep_their_lines_and_records_byte_for_byte(
        name, players, seed):
    """The golden transcripts were written by the arbiter before it knew of simultaneous
    nodes and views (tests/golden_games.py)."""
    traffic, record = transcript(name, players, seed)
    assert traffic == (GOLDEN / f"{name}.traffic").read_text()
    assert record == (GOLDEN / f"{name}.record").read_text()


def test_no_engine_process_is_left_behind():
    mine = [int(p) for p in os.listdir("/proc") if p.isdigit()
            and Path(f"/proc/{p}/cmdline").exists()
            and str(PLAYER).encode() in Path(f"/proc/{p}/cmdline").read_bytes()
            and int(Path(f"/proc/{p}/stat").read_text().split()[3]) == os.getpid()]
    assert mine == []


def test_the_bench_of_simultaneous_steps_plays_the_same_steps_both_ways():
    """`sneferu bench`'s simultaneous part (no timing is asserted: the figures are the
    bench's to report)."""
    assert has_simultaneous_nodes(GAME, 3, 1, EDITION)
    assert not has_simultaneous_nodes(get_game("imhotep"), 3, 1, None)
    figures = simultaneous_figures(GAME, 3, 2, 1, EDITION, thinks=(0, 5))
    assert [(f.think, f.steps) for f in figures] == [(0, 6), (5, 6)]
    assert all(f.at_once > 0 and f.in_turn > 0 for f in figures)
    report = simultaneous_report(GAME, 2, 1, 1, EDITION, thinks=(1,)).splitlines()
    assert report[0] == ("simultaneous steps: 2 seats, 1 game from seed 1, engines answering "
                         "with the first legal move listed after a fixed time:")
    assert re.fullmatch(r"1 ms +3 +\d+\.\d\d ms +\d+\.\d\d ms +\d+\.\d\dx", report[2])


def test_a_person_who_leaves_at_a_sealed_node_is_retired_and_the_engine_plays_on_alone():
    """Seat 1 a person whose input closes (eof) at the first sealed node: the engine's
    move of that step still applies; alone at the later nodes, its moves are ordinary
    turn lines; the record verifies."""
    engines = [player()]
    Engine.start_all(engines)
    try:
        person = Human(inp=io.StringIO(""), out=io.StringIO())
        record = play_game([person, engines[0]], seed=2, time_control=FAST, game=GAME)
    finally:
        Engine.quit_all(engines)
    h = record.header
    assert [(f.seat, f.kind, f.ply) for f in h.faults] == [(1, "eof", 0)]
    steps = [e for e in record.events if isinstance(e, TurnEvent)]
    assert [type(e) for e in steps] == [Turn, Turn, Turn]
    assert all(isinstance(e, Turn) and e.seat == 2 for e in steps)
    assert record.events.index(Retire(1, "eof")) < record.events.index(steps[0])
    assert [r.rank for r in h.result] == [2, 1] and h.termination == "normal"
    text = format_record(record)
    assert "\nretire 1 eof\n1. 2: bid " in text
    verify(read_records(text).games[0], EDITION)
