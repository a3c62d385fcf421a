"""``sneferu play --record`` writes the record format (SPEC.md 7.5, 8) and ``sneferu replay``
verifies every game it wrote: every variant with 1-4 seats, the bundled engines (Python and
Node), engine faults, a human seat, another edition, an engine that sends every odd thing
the protocol allows; text -> JSON -> text is exact; and an arbiter killed with SIGKILL in the
middle of a game leaves every finished game of the file intact."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
from pathlib import Path

import pytest
from recgen import cheap_edition_toml, random_position
from support import BROKEN, ROOT, children, run_cli, solo_of, start_cli, wait_for

from sneferu_cli.arbiter.agent import TurnAnswer, TurnRequest
from sneferu_cli.arbiter.game import GameInterrupted, TimeControl, describe_result, play_game
from sneferu_cli.arbiter.process import EngineFault
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.record.jsonl import read_json_records
from sneferu_cli.record.model import GameRecord, Retire, Turn
from sneferu_cli.record.replay import verify
from sneferu_cli.record.text import GameEntry, format_records, read_records

TALKER = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'talker.py'}"


def broken(mode: str, at: int = 1) -> str:
    return f"{sys.executable} {BROKEN} {mode} {at}"


# Each game: the arguments of sneferu play, what the header says of the seats (name,
# author), the builders tag and the time control. Seeds differ from game to game.
BUNDLED = "the sneferu authors"
GAMES = [
    (["random", "--seed", "1"], [("random", BUNDLED)], None, "60+1"),
    (["greedy", "--builders", "random", "--seed", "2", "--tc", "30+0.25"],
     [("greedy", BUNDLED)], "random", "30+0.25"),
    (["js-random", "random", "--builders", "Heba,Aya", "--seed", "3", "--movetime", "2000"],
     [("js-random", BUNDLED), ("random", BUNDLED)], "chosen", "movetime 2000"),
    (["greedy", "random", "js-random", "--builders", "random", "--seed", "4"],
     [("greedy", BUNDLED), ("random", BUNDLED), ("js-random", BUNDLED)], "random", "60+1"),
    (["js-random", "random", "greedy", TALKER, "--seed", "5", "--tc", "100"],
     [("js-random", BUNDLED), ("random", BUNDLED), ("greedy", BUNDLED),
      ('Tälker "2" \\ {x} ☥', "Zoë O'Brien {and} \"friends\"")], None, "100+0"),
    (["random", broken("crash", 3), broken("illegal", 2), TALKER, "--seed", "6",
      "--movetime", "1000", "--builders", "Aya,Heba,Lateef,Tsekani"],
     [("random", BUNDLED), ("broken-crash", BUNDLED), ("broken-illegal", BUNDLED),
      ('Tälker "2" \\ {x} ☥', "Zoë O'Brien {and} \"friends\"")], "chosen", "movetime 1000"),
    ([broken("exit0"), "--seed", "7"], [("broken.py", None)], None, "60+1"),
    (["random", "random", "--human", "2", "--seed", "8"],
     [("random", BUNDLED), ("human", None), ("random", BUNDLED)], None, "60+1"),
    (["random", "greedy", "--edition", "{cheap}", "--seed", "9", "--builders", "Lateef,Aya"],
     [("random", BUNDLED), ("greedy", BUNDLED)], "chosen", "60+1"),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The record file that the games above appended to, and the edition file."""
    folder = tmp_path_factory.mktemp("played")
    cheap = folder / "cheap.toml"
    cheap.write_text(cheap_edition_toml())
    path = folder / "games.txt"
    for args, *_ in GAMES:
        # A human whose input is closed at once is retired (eof) and the game goes on.
        r = run_cli("play", *[a.replace("{cheap}", str(cheap)) for a in args],
                    "--record", str(path), stdin="")
        # A seat that fails its handshake (exit0) plays no turn: exit code 3 (SPEC 7.6).
        failed = any("exit0" in a for a in args)
        assert r.returncode == (3 if failed else 0), r.stderr
        assert r.stderr == ("sneferu: seat 1 broken.py failed its handshake: crash: exited "
                            f"with code 0; {r.stderr.partition('; ')[2]}" if failed else "")
    return path, cheap


def turns_before(record: GameRecord, index: int) -> int:
    return sum(1 for e in record.events[:index] if isinstance(e, Turn))


def test_replay_verifies_every_game_sneferu_play_wrote(played):
    path, cheap = played
    r = run_cli("replay", str(path), "--edition", str(cheap))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(GAMES)
    for n, line in enumerate(lines, start=1):
        assert re.match(rf"game {n} \(.+\): verified, \d+ turns\. Game over: ", line), line
    # Without the edition file, the game of another edition is named, the others verify.
    r = run_cli("replay", str(path))
    assert r.returncode == 1
    assert "the game was played with edition 'cheap', which is not loaded" in r.stderr
    assert len(r.stdout.splitlines()) == len(GAMES) - 1


def test_the_header_is_what_the_arbiter_promises(played):
    path, _ = played
    games = read_records(path.read_text(), str(path)).games
    assert len(games) == len(GAMES)
    for entry, (args, seats, builders, tc) in zip(games, GAMES, strict=True):
        h = entry.record.header
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", h.date) and h.event == "?"
        assert h.seed == int(args[args.index("--seed") + 1])
        assert h.time_control == tc
        assert [(s.seat, s.name, s.author) for s in h.seats] == [
            (i, name, author) for i, (name, author) in enumerate(seats, start=1)]
        assert h.tags.get("Builders") == builders
        assert h.variant == ("standard" if builders is None else "builders")
        if builders == "chosen":
            names = args[args.index("--builders") + 1].split(",")
            assert [s.tags.get("builder") for s in h.seats] == names
        else:
            assert all(s.tags.get("builder") is None for s in h.seats)
        assert h.edition == ("cheap" if "--edition" in args else "standard")
        assert h.termination in ("normal", "ptah", "all-retired")
        assert [r.seat for r in h.result] == list(range(1, h.players + 1))
        assert (solo_of(h) is not None) == (h.players == 1)
        # One [Fault] for each retire event, the same seat and kind, ply = turns before.
        retires = [(e.seat, e.kind, turns_before(entry.record, i))
                   for i, e in enumerate(entry.record.events) if isinstance(e, Retire)]
        assert [(f.seat, f.kind, f.ply) for f in h.faults] == retires
        retired = {seat for seat, _, _ in retires}
        assert {r.seat for r in h.result if r.retired} == retired
    faults = {(n, f.seat, f.kind) for n, g in enumerate(games, start=1)
              for f in g.record.header.faults}
    assert faults == {(6, 2, "crash"), (6, 3, "illegal"), (7, 1, "handshake"),
                      (8, 2, "eof")}
    assert games[6].record.header.termination == "all-retired"
    talker = [e for e in games[4].record.events if isinstance(e, Turn) and e.seat == 4]
    assert talker and all(t.info and t.info["string"].startswith('said "{hi}"')
                          and " ; " in t.info["pv"] for t in talker)


def test_text_to_json_and_back_is_exact(played):
    path, cheap = played
    text = path.read_text()
    # Conversion verifies first (SPEC 8.5), so the edition of game 9 is given.
    as_json = run_cli("replay", str(path), "--json", "--edition", str(cheap))
    assert as_json.returncode == 0, as_json.stderr
    jsonl = path.with_suffix(".jsonl")
    jsonl.write_text(as_json.stdout)
    back = run_cli("replay", str(jsonl), "--text", "--edition", str(cheap))
    assert back.returncode == 0, back.stderr
    assert back.stdout == text
    # The same games, event for event, and the JSON verifies as the text does.
    from_text = [g.record for g in read_records(text).games]
    from_json = [g.record for g in read_json_records(as_json.stdout).games]
    assert from_json == from_text
    assert format_records(from_json) == text
    verified = run_cli("replay", str(jsonl), "--edition", str(cheap))
    assert verified.returncode == 0 and verified.stdout.count("verified") == len(GAMES)


def test_a_killed_arbiter_leaves_every_finished_game_intact(tmp_path: Path):
    """SIGKILL cannot be handled: the game in progress is lost, the file is as it was."""
    path, stderr = tmp_path / "games.txt", tmp_path / "stderr.log"
    for seed in ("1", "2"):
        r = run_cli("play", "random", "random", "--seed", seed, "--record", str(path))
        assert r.returncode == 0, r.stderr
    before = path.read_bytes()
    arbiter = start_cli("play", "random", broken("hang-move", 3), "--seed", "3",
                        "--record", str(path), "--engine-stderr", str(stderr))
    engines: list[int] = []
    try:
        wait_for(stderr, r"^\[2\] misbehaving: hang-move$")  # in the middle of the game
        engines = children(arbiter.pid)
        assert len(engines) == 2
        arbiter.kill()
        arbiter.communicate(timeout=20)
    finally:
        arbiter.kill()
        for pid in engines:  # orphans now: the arbiter could not stop them
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
    assert arbiter.returncode == -signal.SIGKILL
    assert path.read_bytes() == before
    r = run_cli("replay", str(path))
    assert r.returncode == 0, r.stderr
    assert [line.split(":")[1].split(",")[0] for line in r.stdout.splitlines()] == [
        " verified", " verified"]


# ------------------------------------------------------------------ the game so far


TC = TimeControl(movetime=1000)


class FirstMove:
    """A seat played in this process: the first legal move; a crash at its turn ``fail_at``."""

    author, timed = None, True

    def __init__(self, fail_at: int | None = None) -> None:
        self.name = "first"
        self.fail_at = fail_at
        self.fault: EngineFault | None = None
        self.turns = 0

    def new_game(self, game: object) -> None:
        self.turns = 0

    def wait_ready(self) -> None:
        pass

    def play_turn(self, request: TurnRequest) -> TurnAnswer:
        self.turns += 1
        if self.turns == self.fail_at:
            raise EngineFault("crash", "exited with code 1")
        return TurnAnswer(str(Move(request.state.legal_turns()[0])), 1)

    def game_over(self, position: object, result: object) -> None:
        pass

    def retire(self, fault: EngineFault) -> None:
        self.fault = fault


def three_seats() -> list[FirstMove]:
    return [FirstMove(), FirstMove(fail_at=3), FirstMove()]


def interrupted_at(stop: int) -> GameRecord:
    """The game stopped by Ctrl-C just after its event number ``stop`` (0-based)."""
    def on_event(event: object, state: object) -> None:
        if len(seen) == stop:
            raise KeyboardInterrupt
        seen.append(event)

    seen: list[object] = []
    with pytest.raises(GameInterrupted) as stopped:
        play_game(three_seats(), seed=5, time_control=TC, on_event=on_event)
    return stopped.value.record


def test_an_interrupted_game_is_the_game_so_far_and_verifies():
    full = play_game(three_seats(), seed=5, time_control=TC)
    events = full.events
    retire = next(i for i, e in enumerate(events) if isinstance(e, Retire))
    first_turn = next(i for i, e in enumerate(events) if isinstance(e, Turn))
    for stop in (0, first_turn, retire - 1, retire, retire + 1, len(events) - 2):
        record = interrupted_at(stop)
        assert record.events == events[:stop + 1], stop
        h = record.header
        assert (h.termination, h.result, solo_of(h)) == ("aborted", [], None)
        assert h.faults == (full.header.faults if stop >= retire else [])
        assert verify(GameEntry(record), standard_edition()).turns == turns_before(
            record, stop + 1)
        turns = turns_before(record, stop + 1)
        assert describe_result(record) == (f"Game aborted after {turns} "
                                           f"{'turn' if turns == 1 else 'turns'}.")
    # Stopped after the last event: the game is whole.
    assert interrupted_at(len(events) - 1) == full


def test_a_seat_retired_in_the_start_position_stays_out_of_the_game():
    state = random_position(3, 2, 4)
    state.retire(1)
    seats = three_seats()
    seats[1].fault = EngineFault("handshake", "crash: exited with code 0")  # failed to start
    record = play_game(seats, seed=2, time_control=TC, start=from_position(to_position(state)))
    assert record.header.faults == [] and seats[1].turns == 0
    assert not any(isinstance(e, Retire) for e in record.events)
    assert verify(GameEntry(record), standard_edition()).state.is_over()
    assert [r.retired for r in record.header.result] == [False, True, False]
