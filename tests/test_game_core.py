"""The layers above the rules are game-agnostic (issue 11): the protocol's newgame line and
games feature, the arbiter's game loop, records ([Game] tag, the game's own scores, word
moves) and replay, run with Sneferu and with the test-only Nim game (tests/nim_game.py)."""

from __future__ import annotations

import re
import sys

import msgspec
import pytest
from nim_game import register
from support import ROOT, run_cli

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine, refuse_other_games
from sneferu_cli.arbiter.game import TimeControl, describe_result, play_game
from sneferu_cli.game import get_game
from sneferu_cli.protocol.messages import NewGame, parse_arbiter_line, parse_engine_line
from sneferu_cli.record.jsonl import read_json_records, records_to_json
from sneferu_cli.record.model import Chance, GameRecord, Header, SeatResult, Turn
from sneferu_cli.record.replay import ReplayError, verify
from sneferu_cli.record.text import RecordError, format_record, read_records
from sneferu_cli.tournament.config import ConfigError, fingerprint_of, load_config

register()
NIM = get_game("nim")
ANY_RANDOM = [sys.executable, str(ROOT / "tests" / "engines" / "any_random.py")]
FAST = TimeControl(movetime=2000)


def test_a_sneferu_newgame_line_is_version_1s_and_another_game_is_named():
    sneferu = NewGame(4, 2, "standard", "standard")
    assert str(sneferu) == "newgame players 4 seat 2 variant standard edition standard"
    assert parse_arbiter_line(str(sneferu)) == sneferu
    nim = NewGame(2, 1, "standard", "standard", "nim")
    assert str(nim) == "newgame players 2 seat 1 variant standard edition standard game nim"
    assert parse_arbiter_line(str(nim)) == nim
    # The grammar's reader (not the fast path) agrees.
    assert parse_arbiter_line("newgame players 2 seat 1  variant standard edition standard "
                              "game  nim") == nim


def test_another_games_moves_are_words_checked_by_the_game_not_the_protocol():
    assert parse_engine_line("move take  3", game="nim").move == "take 3"
    with pytest.raises(ValueError, match="unexpected"):
        parse_engine_line("move take 3", game="sneferu")  # not Sneferu move notation
    with pytest.raises(ValueError, match="unexpected"):
        parse_engine_line("move ~H5", game="nim")  # a chance outcome is no move word


@pytest.fixture(scope="module")
def engines():
    started = Engine.start_all([Engine(ANY_RANDOM, name="any-1"),
                                Engine(ANY_RANDOM, name="any-2"),
                                Engine(engine_command("greedy"), name="greedy")])
    yield started
    Engine.quit_all(started)


def test_engines_declare_their_games_and_one_that_does_not_play_nim_is_refused(engines):
    anyone, _, greedy = engines
    assert set(anyone.games) >= {"sneferu", "nim"}
    # the package's games only
    assert greedy.games == ("sneferu", "imhotep", "silver-gold", "akropolis")
    refuse_other_games([anyone, greedy], "sneferu")
    with pytest.raises(ValueError, match=r"engine 'greedy' does not play nim \(it plays: "
                                         r"sneferu, imhotep, silver-gold, akropolis;"):
        refuse_other_games([anyone, greedy], "nim")


def nim_game(engines: list[Engine], seed: int) -> GameRecord:
    return play_game(engines, seed=seed, time_control=FAST, game=NIM)


def test_nim_plays_through_the_arbiter_records_and_replays(engines):
    for seed in range(3):
        record = nim_game(engines[:2], seed)
        h = record.header
        assert (h.game, h.termination, h.faults) == ("nim", "normal", [])
        assert isinstance(record.events[0], Chance) and record.events[0].outcome.startswith("~H")
        moves = [e.move for e in record.events if isinstance(e, Turn)]
        assert moves and all(m in ("take 1", "take 2", "take 3") for m in moves)
        heap = int(record.events[0].outcome[2:])
        assert sum(int(m.split()[1]) for m in moves) == heap
        assert sorted(r.rank for r in h.result) == [1, 2]
        assert all(list(r.scores) == ["taken", "last"] for r in h.result)
        text = format_record(record)
        assert "\n[Game nim]\n[Edition standard]\n" in text
        assert f"[Result 1 rank={h.result[0].rank} taken={h.result[0].scores['taken']} last=" \
            in text
        assert "\n1. 1: take " in text
        entry = read_records(text).games[0]
        assert entry.record == record
        assert verify(entry, NIM.standard_edition()).turns == len(moves)
        back = read_json_records(records_to_json([record])).games[0]
        assert back.record == record
        verify(back, NIM.standard_edition())
        assert re.search(r"\d+ taken +\d+ last", describe_result(record))


def test_a_seat_whose_engine_does_not_play_the_game_is_retired_before_it_starts(engines):
    record = nim_game([engines[0], engines[2]], 1)
    fault = record.header.faults[0]
    assert (fault.seat, fault.kind, fault.ply) == (2, "handshake", 0)
    assert "does not play nim" in fault.detail
    assert record.header.result[1].retired and record.header.result[0].rank == 1


def test_a_tampered_nim_record_fails_replay_at_its_line(engines):
    text = format_record(nim_game(engines[:2], 4))
    bad = re.sub(r"^1\. 1: take \d", "1. 1: take 9", text, count=1, flags=re.M)
    with pytest.raises(ReplayError, match=r"turn 1 \(seat 1\): 'take 9': .*not a legal move") \
            as err:
        verify(read_records(bad).games[0], NIM.standard_edition())
    assert bad.splitlines()[err.value.line - 1].startswith("1. 1: take 9")
    score = text.replace(" last=1", " last=0", 1)
    with pytest.raises(ReplayError, match="but the replay gives"):
        verify(read_records(score).games[0], NIM.standard_edition())


def test_a_sneferu_record_is_written_without_a_game_tag_and_reads_with_one():
    result = [SeatResult(1, 1, scores={"stones": 12, "food": 4}),
              SeatResult(2, 2, scores={"stones": 11, "food": 10})]
    record = GameRecord(Header(players=2, result=result), [])
    text = format_record(record)
    assert "[Game" not in text and "[Result 1 rank=1 stones=12 food=4]" in text
    tagged = text.replace("[Edition", "[Game sneferu]\n[Edition", 1)
    assert read_records(tagged).games[0].record == record


def test_a_record_of_an_unknown_game_is_read_but_does_not_replay(tmp_path):
    record = GameRecord(Header(players=2, game="nim"), [Chance("~H5"), Turn(1, "take 1")])
    text = format_record(record).replace("[Game nim]", "[Game chess]")
    entry = read_records(text).games[0]
    assert entry.record.header.game == "chess"
    with pytest.raises(ReplayError, match=r"unknown game 'chess' \(known: sneferu, imhotep") \
            as err:
        verify(entry, None)
    assert err.value.line == 3  # the [Game] tag
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        format_record(entry.record)
    path = tmp_path / "chess.rec"
    path.write_text(text)
    for mode in ((), ("--text",), ("--ply", "0")):
        done = run_cli("replay", *mode, str(path))
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr == (f"sneferu: {path}, game 1, line 3: unknown game 'chess' "
                               "(known: sneferu, imhotep, silver-gold, akropolis)\n")


def test_another_games_record_lines_keep_to_the_word_rules():
    record = GameRecord(Header(players=2, game="nim"), [Chance("~H5"), Turn(1, "take 1")])
    text = format_record(record)
    for bad, what in [("1. 1: take 1", "1. 1: take ;1"), ("chance ~H5", "chance H5"),
                      ("[Variant standard]", "[Variant 1x]")]:
        with pytest.raises(RecordError):
            read_records(text.replace(bad, what))


@pytest.mark.parametrize("args", [
    ("play", "random", "random"), ("bench", "--rules"), ("position", "new"),
    ("position", "moves", "-"), ("tournament", "--engine", "name=a command=random",
                                 "--engine", "name=b command=random")])
def test_an_unknown_game_is_one_line_naming_the_known_games_and_exit_2(args, tmp_path):
    done = run_cli(*args, "--game", "chess", "--records", str(tmp_path / "r")) \
        if args[0] == "tournament" else run_cli(*args, "--game", "chess", stdin="x\n")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "unknown game 'chess' (known: sneferu, imhotep" in done.stderr


def test_the_default_game_is_sneferu_everywhere():
    plain = run_cli("position", "new", "--seed", "3")
    named = run_cli("position", "new", "--seed", "3", "--game", "sneferu")
    assert plain.returncode == named.returncode == 0 and plain.stdout == named.stdout
    shown = run_cli("position", "show", "--game", "sneferu", plain.stdout.strip())
    assert shown.returncode == 0 and "Pyramids" in shown.stdout


def test_a_tournaments_game_key_leaves_sneferu_fingerprints_as_they_were():
    base = {"engine": ["name=a command=a", "name=b command=b"], "seed": 3}
    sneferu = load_config(None, base)
    assert sneferu.game == "sneferu"
    assert load_config(None, {**base, "game": "sneferu"}).fingerprint() == sneferu.fingerprint()
    fields = msgspec.to_builtins(sneferu)
    del fields["game"]  # a state written before the key existed
    assert fingerprint_of(fields) == sneferu.fingerprint()
    assert load_config(None, {**base, "game": "nim"}).fingerprint() != sneferu.fingerprint()
    with pytest.raises(ConfigError, match=r"game: unknown game 'chess'"):
        load_config(None, {**base, "game": "chess"})
