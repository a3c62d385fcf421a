"""Whole games between real engine processes over real pipes, in every variant with 1-4
seats, through the library (play_game) and the command line (sneferu play)."""

from __future__ import annotations

import io
import os
import re
import signal
import sys
import time
import tomllib

import pytest
from recgen import random_position
from support import ROOT, run_cli, solo_of

from sneferu_cli.arbiter.bundled import BUNDLED, engine_command, engines_dir
from sneferu_cli.arbiter.engine import Engine, automatic_options
from sneferu_cli.arbiter.game import TimeControl, describe_result, play_game
from sneferu_cli.arbiter.process import TrafficLog
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.move import Move, parse_outcome
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import GameState, new_game
from sneferu_cli.protocol.messages import (
    Answer,
    GameOver,
    Go,
    NewGame,
    Position,
    parse_arbiter_line,
    parse_engine_line,
    read_arbiter_line,
)
from sneferu_cli.record.model import Chance, GameRecord, Turn
from sneferu_cli.record.replay import verify
from sneferu_cli.record.text import GameEntry, format_records, read_records

TC = TimeControl(base=20_000, inc=500)


@pytest.fixture(scope="module")
def traffic():
    return io.StringIO()


@pytest.fixture(scope="module")
def engines(traffic):
    """One of each bundled engine, and a second random: reused for every game here."""
    log = TrafficLog(traffic)
    handles = Engine.start_all([Engine(engine_command(n), name=n, label=str(i), traffic=log)
                                for i, n in enumerate(["greedy", "js-random", "random",
                                                       "random"], start=1)])
    assert [e.fault for e in handles] == [None] * 4
    yield handles
    Engine.quit_all(handles)


def replay(record: GameRecord) -> GameState:
    """The final state of a finished record, which the record verifier accepts (SPEC 8.5)."""
    state = verify(GameEntry(record), standard_edition()).state
    assert state.is_over()
    return state


GAMES = [
    (1, None), (1, "random"), (1, "Heba"),
    (2, None), (2, "random"), (2, "Lateef,Heba"),
    (3, None), (3, "random"), (3, "Aya,Tsekani,Heba"),
    (4, None), (4, "random"), (4, "Heba,Aya,Lateef,Tsekani"),
]


@pytest.mark.parametrize(("players", "builders"), GAMES,
                         ids=[f"{p}-{b or 'standard'}" for p, b in GAMES])
def test_a_whole_game(engines, players, builders):
    seats = engines[:players]
    record = play_game(seats, seed=players * 10 + len(builders or ""), time_control=TC,
                       setup=builders)
    h = record.header
    assert h.faults == []
    assert h.players == players and h.seed is not None and h.time_control == "20+0.5"
    assert [(s.seat, s.name) for s in h.seats] == [(i + 1, e.name) for i, e in enumerate(seats)]
    assert h.variant == ("standard" if builders is None else "builders")
    if builders is None:
        assert h.tags == {} and all(s.tags == {} for s in h.seats)
    elif builders == "random":
        assert h.tags.get("Builders") == "random"
        assert sum(1 for e in record.events if isinstance(e, Chance)
                   and e.outcome[1:] in ("Lateef", "Heba", "Tsekani", "Aya")) == players
    else:
        assert h.tags.get("Builders") == "chosen"
        assert [s.tags.get("builder") for s in h.seats] == builders.split(",")
    assert all(isinstance(e, Turn) and e.ms is not None for e in record.events
               if not isinstance(e, Chance))
    final = replay(record)
    ranking = final.ranking()
    assert [(r.seat, r.rank, r.scores["stones"], r.scores["food"]) for r in h.result] == [
        (s.seat + 1, s.rank, s.stones, s.food) for s in ranking]
    if players == 1:
        assert solo_of(h) is not None and solo_of(h).against == final.ptah_total
        assert h.termination in ("normal", "ptah")
    else:
        assert solo_of(h) is None and h.termination == "normal"


def test_every_line_of_the_traffic_is_in_the_grammar(engines, traffic):
    play_game(engines[:2], seed=7, time_control=TimeControl(movetime=2000))
    kinds = set()
    for line in traffic.getvalue().splitlines():
        found = re.fullmatch(r"\d+\.\d{6} (\d)([<>]) (.*)", line)
        assert found, line
        seat, direction, text = found.groups()
        msg = (parse_arbiter_line if direction == ">" else parse_engine_line)(text)
        if direction == ">":
            assert read_arbiter_line(text) == msg  # the engines' shortcut reads the same
        kinds.add((direction, type(msg).__name__))
        if isinstance(msg, Go) and seat == "2":
            assert msg.legal, "js-random asked for the legal moves"
        if isinstance(msg, Go) and seat == "1":
            assert msg.legal is None
    assert kinds >= {(">", k) for k in ("Sneferu", "NewGame", "IsReady", "Position", "Go",
                                        "GameOver")} | {("<", k) for k in (
                                            "Id", "OptionSpec", "Feature", "SneferuOk",
                                            "ReadyOk", "Answer")}


def test_a_game_from_a_position(engines):
    state = random_position(3, 5, 10, builders="Heba,Aya,Lateef")
    start = to_position(state)
    record = play_game(engines[:3], seed=5, time_control=TC, start=from_position(start))
    h = record.header
    assert h.position == start and h.tags.get("Builders") == "chosen" and h.faults == []
    assert [s.tags.get("builder") for s in h.seats] == ["Heba", "Aya", "Lateef"]
    for e in record.events:
        if isinstance(e, Chance):
            state.apply(parse_outcome(e.outcome))
        else:
            assert isinstance(e, Turn)
            state.apply_turn(Move.from_str(e.move).steps)
    assert state.is_over()
    assert [r.rank for r in h.result] == [s.rank for s in state.ranking()]
    assert to_position(replay(record)) == to_position(state)


def test_the_same_seeds_replay_the_same_game(engines):
    def game() -> GameRecord:
        for seat, e in enumerate(engines, start=1):
            for name, value in automatic_options(e, seed=3, seat=seat,
                                                 edition_file=None).items():
                e.set_option(name, value)
        return play_game(engines, seed=3, time_control=TC)

    first, second = game(), game()
    assert [(type(e), getattr(e, "move", None), getattr(e, "outcome", None))
            for e in first.events] == [(type(e), getattr(e, "move", None),
                                        getattr(e, "outcome", None)) for e in second.events]


def test_the_engines_see_the_position_as_the_arbiter_plays_it(engines):
    """The position and events sent at each request rebuild the arbiter's own state."""
    from sneferu_cli.arbiter.agent import TurnAnswer, TurnRequest
    from sneferu_cli.protocol.bot import Follower
    from sneferu_cli.protocol.messages import read_arbiter_line

    class Checker:
        name, author, timed, fault = "checker", None, True, None

        def __init__(self) -> None:
            self.follower = Follower(new_game(2).edition)
            self.requests = 0

        def new_game(self, game: NewGame) -> None:
            self.seat = game.seat

        def wait_ready(self) -> None:
            pass

        def play_turn(self, request: TurnRequest) -> TurnAnswer:
            self.requests += 1
            line = read_arbiter_line(request.position)  # the line as engines read it
            assert isinstance(line, Position) and str(line) == request.position
            mine = self.follower.update(line)
            assert to_position(mine) == to_position(request.state)
            assert request.clock is not None and request.inc == 500
            return TurnAnswer(request.legal()[0], 0)

        def game_over(self, position: Position, result: GameOver) -> None:
            self.final = self.follower.update(position)
            self.ranks = result.ranks

        def retire(self, fault: object) -> None:
            pass

    checker = Checker()
    record = play_game([checker, engines[2]], seed=11, time_control=TC)
    assert checker.requests == sum(1 for e in record.events
                                   if isinstance(e, Turn) and e.seat == 1)
    assert checker.final.is_over()
    assert list(checker.ranks) == [r.rank for r in record.header.result]


def test_the_bundled_engines_are_found():
    assert set(BUNDLED) == {"random", "greedy", "mcts", "js-random", "policy"}
    for _, file, _ in BUNDLED.values():
        assert (engines_dir() / file).is_file()
    # A wheel carries them where engines_dir() looks first.
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]
    assert build["targets"]["wheel"]["force-include"]["engines"] == "sneferu_cli/engines"
    assert engine_command("python3 -u 'my bot.py'") == ["python3", "-u", "my bot.py"]


# ------------------------------------------------------------------ the command line


def test_play_prints_the_game_and_the_ranking():
    r = run_cli("play", "greedy", "random", "js-random", "--seed", "5", "--movetime", "2000",
                "-v")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == ("Game: seat 1 greedy, seat 2 random, seat 3 js-random; seed 5; "
                        "movetime 2000.")
    assert re.fullmatch(r"turn   1  seat \d \S+: .+  \(\d+ ms\)", lines[1])
    assert re.fullmatch(r"Game over after \d+ turns \(every boat reached the last space\)\.",
                        lines[-4])
    assert [re.match(r"  (\d)\. seat (\d)  \S+ +\d+ stones +\d+ food$", x) is not None
            for x in lines[-3:]] == [True] * 3


def test_play_solo_against_ptah():
    r = run_cli("play", "greedy", "--seed", "2", "--builders", "Lateef", "--tc", "30+0.1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "Game: seat 1 greedy; seed 2; 30+0.1."
    assert re.search(r"^Solo: seat 1 greedy (beats|loses to) Ptah, \d+ stones? against his "
                     r"\d+, \d+ food(; score \d+, \".+\")?\.$", r.stdout, re.M), r.stdout


def test_play_writes_the_traffic_log_and_engine_stderr(tmp_path):
    log, err = tmp_path / "traffic.log", tmp_path / "stderr.log"
    r = run_cli("play", "random", "random", "--seed", "1", "--log", str(log),
                "--engine-stderr", str(err), "-o", "2:Seed=99")
    assert r.returncode == 0, r.stderr
    lines = log.read_text().splitlines()
    assert re.fullmatch(r"\d+\.\d{6} 1> sneferu 1", lines[0])
    assert any(re.fullmatch(r"\d+\.\d{6} 2> setoption name Seed value 99", x) for x in lines)
    assert any(re.fullmatch(r"\d+\.\d{6} 1> setoption name Seed value \d+", x) for x in lines)
    assert any(re.fullmatch(r"\d+\.\d{6} 2< move .+", x) for x in lines)
    assert re.fullmatch(r"\d+\.\d{6} 2> quit", lines[-1]) or "quit" in lines[-2]
    assert err.read_text() == ""  # the bundled engines write nothing on stderr


@pytest.mark.parametrize(("args", "message"), [
    ((), "0 seats: give 1 to 4 engines and --human seats"),
    (("random",) * 5, "5 seats"),
    (("random", "--human", "3"), "--human: seats are 1 to 2, each once"),
    (("random", "--movetime", "5", "--tc", "5"), "give one, not both"),
    (("random", "--tc", "fast"), "'fast' is not SECONDS+INC"),
    (("no-such-engine",), "no program 'no-such-engine' (bundled engines: random, greedy, "
                          "mcts, js-random, policy)"),
    (("random", "--builders", "Ramses"), "Ramses"),
    (("random", "-o", "Seed=x"), "seat 1: option Seed (spin): 'x' is not an integer"),
    (("random", "-o", "1:Hash=64"), "seat 1: random has no option 'Hash'"),
    (("random", "-o", "Seed"), "'Seed' is not [SEAT:]NAME=VALUE"),
])
def test_play_rejects_bad_arguments_in_one_line(args, message):
    r = run_cli("play", *args)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("sneferu: ")
    assert message in r.stderr


def test_play_record_appends_the_text_record(tmp_path):
    path = tmp_path / "games.txt"
    for seed in ("4", "5"):
        r = run_cli("play", "random", "random", "--seed", seed, "--record", str(path))
        assert r.returncode == 0, r.stderr
    games = read_records(path.read_text()).games
    assert [g.record.header.seed for g in games] == [4, 5]
    # Exactly the record format: the file is what the writer makes of the games read.
    assert path.read_text() == format_records(g.record for g in games)
    for g in games:
        turns = verify(g, standard_edition()).turns
        h = g.record.header
        assert [s.name for s in h.seats] == ["random", "random"]
        assert f"Game over after {turns} turns" in describe_result(g.record)


@pytest.mark.parametrize(("where", "message"), [
    ("", "is a directory"), ("no/such/folder/games.txt", "no folder"),
])
def test_a_record_file_that_cannot_be_written_is_refused_before_the_game(tmp_path, where,
                                                                         message):
    r = run_cli("play", "random", "--seed", "1", "--record", str(tmp_path / where))
    assert r.returncode == 2
    assert r.stderr.startswith("sneferu: ") and len(r.stderr.splitlines()) == 1
    assert message in r.stderr and r.stdout == ""  # no game was played


def test_bench_reports_turns_per_second_and_the_overhead():
    r = run_cli("play", "--bench", "1", "random", "random", "--seed", "1")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "2 engines (random, random), 1 game from seed 1, 60+1:"
    assert re.fullmatch(r"  played:  \d+ turns in [\d.]+ s = \d+ turns/s \(.*\)", out[1])
    assert re.fullmatch(r"  pipe round trip .*: \d+ µs", out[3])
    assert re.fullmatch(r"  arbiter overhead per move: -?\d+ µs .*", out[4])
    assert _turns_in(out[1]) == _turns_in(out[2])


def test_bench_replays_with_the_legal_moves_listed_as_in_the_games():
    """The instant replay asks for the legal moves for the seats whose engine did, so the
    overhead includes the listing the games cost (it used to leave it out)."""
    instant = f"{sys.executable} {engines_dir() / 'instant.py'}"
    r = run_cli("play", "--bench", "1", instant, "random", "--seed", "2")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[4].endswith("legal moves listed for 1 of 2 seats, as in the games)"), out[4]
    assert _turns_in(out[1]) == _turns_in(out[2])


def _turns_in(line: str) -> int:
    found = re.search(r"(\d+) turns in", line)
    assert found
    return int(found.group(1))


def test_answer_lines_are_canonical():
    assert parse_engine_line("  move   3.2+   BT@1.4  ") == Answer("3.2+ BT@1.4")


def test_play_with_another_edition_sets_the_engines_edition_file(tmp_path):
    text = (ROOT / "sneferu_cli" / "games" / "sneferu" / "editions"
            / "standard.toml").read_text()
    assert 'name = "standard"' in text and "starting_food = 6" in text
    edition = tmp_path / "rich.toml"
    edition.write_text(text.replace('name = "standard"', 'name = "rich"', 1)
                       .replace("starting_food = 6", "starting_food = 9"))
    log = tmp_path / "traffic.log"
    r = run_cli("play", "greedy", "random", "js-random", "--edition", str(edition),
                "--seed", "2", "--log", str(log))
    assert r.returncode == 0, r.stderr
    assert "retired" not in r.stdout
    traffic = log.read_text()
    assert f"1> setoption name EditionFile value {edition}" in traffic
    assert "3> setoption name EditionFile" not in traffic  # js-random does not declare it
    assert "newgame players 3 seat 2 variant standard edition rich" in traffic


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_a_signal_waits_while_the_record_is_written(sig):
    """The arbiter holds Ctrl-C and SIGTERM while it stops the engines and writes the
    record; the signal stops it right after."""
    from sneferu_cli.cli.play import _signals_held

    done = []
    with pytest.raises(KeyboardInterrupt), _signals_held():
        os.kill(os.getpid(), sig)
        time.sleep(0.05)  # the handler has run by now
        done.append(True)
    assert done == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_missing_bot_script_names_the_seat_after_it_and_exits_3(tmp_path):
    """SPEC 7.5 and 7.6: the seat is named after the script (not the interpreter), and a
    seat that failed its handshake makes the exit code 3 once the game is played; its
    stderr log is named after the script too."""
    script = tmp_path / "my_bot.py"  # not there
    logs = tmp_path / "logs"
    r = run_cli("play", f"{sys.executable} {script}", "random", "--seed", "1", "--movetime",
                "50", "--engine-stderr", f"{logs}{os.sep}")
    assert r.returncode == 3, (r.stdout, r.stderr)
    assert r.stdout.startswith("Game: seat 1 my_bot.py, seat 2 random; seed 1;")
    (line,) = r.stderr.splitlines()
    assert line.startswith("sneferu: seat 1 my_bot.py failed its handshake: crash: exited "
                           "with code 2; stderr: ")
    assert sorted(p.name for p in logs.iterdir()) == ["1-my_bot.py.log", "2-random.log"]
    assert "my_bot.py" in (logs / "1-my_bot.py.log").read_text()


def test_engine_stderr_with_a_trailing_slash_is_a_folder_created_when_missing(tmp_path):
    folder = tmp_path / "nodir" / "deeper"
    r = run_cli("play", "random", "greedy", "--seed", "1", "--movetime", "50",
                "--engine-stderr", f"{folder}{os.sep}")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["1-random.log", "2-greedy.log"]
    assert not (tmp_path / "nodir.log").exists()


def test_an_option_no_engine_declares_is_a_usage_error():
    r = run_cli("play", "random", "greedy", "-o", "Foo=1", "--movetime", "50")
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["sneferu: Invalid value for --option: Foo=1: no engine "
                                     "declares an option 'Foo' (greedy, random) (see 'sneferu "
                                     "play --help')"]


def test_every_command_takes_dash_h():
    import click

    from sneferu_cli.cli import cli

    def paths(group, prefix):
        yield prefix
        if isinstance(group, click.Group):  # its commands, imported when asked for
            ctx = click.Context(group)
            for name in group.list_commands(ctx):
                yield from paths(group.get_command(ctx, name), [*prefix, name])

    commands = [*paths(cli, []), ["tournament", "report"]]
    assert len(commands) >= 12
    for words in commands:
        r = run_cli(*words, "-h")
        assert r.returncode == 0 and r.stdout.startswith("Usage: "), (words, r.stderr)


def test_play_takes_another_games_variant(tmp_path):
    path = tmp_path / "games.txt"
    r = run_cli("play", "random", "random", "--game", "imhotep", "--variant", "BBBBB+wrath",
                "--seed", "3", "--record", str(path))
    assert r.returncode == 0, r.stderr
    text = path.read_text()
    assert "[Game imhotep]" in text and "[Variant BBBBB+wrath]" in text, text[:400]
    replayed = run_cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


@pytest.mark.parametrize(("args", "message"), [
    (("random", "--variant", "builders"), "--variant is another game's; Sneferu's is "
                                          "--builders"),
    (("random", "random", "--game", "imhotep", "--variant", "CCCCC"), "CCCCC"),
    (("random", "random", "--game", "imhotep", "--builders", "random"),
     "--builders is for a game with that seat set-up option; not for Imhotep"),
])
def test_play_rejects_a_variant_that_does_not_fit_in_one_line(args, message):
    r = run_cli("play", *args)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("sneferu: "), r.stderr
    assert message in r.stderr
