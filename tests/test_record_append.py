"""Appending games durably: finished games survive a writer cut off in the middle of a game."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time

import pytest
from recgen import many_games, random_game

from sneferu_cli.record.jsonl import read_json_records, records_to_json
from sneferu_cli.record.model import GameRecord
from sneferu_cli.record.text import (
    RecordError,
    append_record,
    format_records,
    parse_records,
    read_records,
)


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    return many_games(6, base_seed=500)


def test_appending_games_one_by_one_gives_the_file_of_all_of_them(tmp_path, games):
    path = tmp_path / "games.rec"
    for g in games:
        append_record(path, g)
    assert path.read_text(encoding="utf-8") == format_records(games)
    assert parse_records(path.read_text(encoding="utf-8")) == games


def test_truncating_the_last_game_anywhere_keeps_the_finished_ones(games):
    """A cut at any byte of the last game: the games before it read back intact and the
    cut one is reported with its game number and first line."""
    whole = format_records(games).encode("utf-8")
    start = whole.rindex(b"[Event ")
    end_line = whole.rindex(b"end of game")
    first_line = whole[:start].count(b"\n") + 1
    cuts = sorted({start + 1, start + 3, start + 7, start + 40, end_line, end_line + 5,
                   end_line + 10, *range(start + 1, end_line, 97)})
    for cut in cuts:
        text = whole[:cut].decode("utf-8", errors="replace")
        rf = read_records(text, "cut.rec")
        assert [g.record for g in rf.games] == games[:-1], cut
        assert len(rf.cut_off) == 1, cut
        e = rf.cut_off[0]
        assert (e.game, e.line) == (len(games), first_line)
        assert str(e).startswith(f"cut.rec, game {len(games)}, line {first_line}: cut off:")
        with pytest.raises(RecordError, match="cut off"):
            parse_records(text)
        assert parse_records(text, skip_cut_off=True) == games[:-1]
    # Only the final line break missing: the game is complete.
    assert parse_records(whole[:-1].decode()) == games


def test_appending_after_a_cut_off_game_keeps_both_sides_readable(tmp_path, games):
    path = tmp_path / "games.rec"
    append_record(path, games[0])
    with open(path, "ab") as f:
        f.write(format_records(games[1:2]).encode()[:123])  # a writer died in game 2
    append_record(path, games[2])
    rf = read_records(path.read_text(encoding="utf-8"))
    assert [(g.number, g.record) for g in rf.games] == [(1, games[0]), (3, games[2])]
    assert [e.game for e in rf.cut_off] == [2]
    # Cut inside the first tag line of a game, too.
    with open(path, "ab") as f:
        f.write(b"\n[Eve")
    append_record(path, games[3])
    rf = read_records(path.read_text(encoding="utf-8"))
    assert [g.record for g in rf.games] == [games[0], games[2], games[3]]
    assert [e.game for e in rf.cut_off] == [2, 4]


def test_a_truncated_json_lines_file_keeps_the_finished_games(games):
    whole = records_to_json(games)
    last = whole.rstrip("\n").rindex("\n") + 1
    for cut in (last + 1, last + 50, len(whole) - 3):
        rf = read_json_records(whole[:cut], "cut.jsonl")
        assert [g.record for g in rf.games] == games[:-1]
        assert [(e.game, e.line) for e in rf.cut_off] == [(len(games), len(games))]


WRITER = """
import sys
from sneferu_cli.record.jsonl import read_json_records
from sneferu_cli.record.text import append_record
games = [g.record for g in read_json_records(open(sys.argv[1]).read()).games]
for n in range(int(sys.argv[3])):
    append_record(sys.argv[2], games[n % len(games)])
    print(n + 1, flush=True)
"""


def writer(source, target, count: int, **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(source), str(target),
                             str(count)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)  # type: ignore[call-overload]


def big_games(games: list[GameRecord]) -> list[GameRecord]:
    """The games with a 1 MB Extra tag, so that a write takes long enough to be hit."""
    out = []
    for g in games:
        rec = GameRecord(g.header, g.events)
        rec.header.extra = {"padding": "x" * 1_000_000}
        out.append(rec)
    return out


def test_a_writer_killed_with_sigkill_loses_at_most_the_game_it_was_writing(tmp_path, games):
    """A real process appending records in a loop is killed (SIGKILL) at an arbitrary
    moment: every game it finished is intact, in order; a game it had begun is reported."""
    recs = big_games(games[:3])
    source = tmp_path / "source.jsonl"
    source.write_text(records_to_json(recs), encoding="utf-8")
    for attempt, delay in enumerate((0.0, 0.021)):
        target = tmp_path / f"killed{attempt}.rec"
        proc = writer(source, target, 1000)
        assert proc.stdout is not None
        done = 0
        deadline = time.monotonic() + 60
        while done < 3 and time.monotonic() < deadline:
            done = int(proc.stdout.readline() or done)
        assert done >= 3, proc.stderr.read() if proc.stderr else ""
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        rf = read_records(target.read_text(encoding="utf-8", errors="replace"))
        finished = [g.record for g in rf.games]
        assert len(finished) >= done
        assert finished == [recs[n % 3] for n in range(len(finished))]
        assert [g.number for g in rf.games] == list(range(1, len(finished) + 1))
        assert len(rf.cut_off) <= 1
        if rf.cut_off:
            assert rf.cut_off[0].game == len(finished) + 1


def test_a_writer_stopped_in_the_middle_of_a_game_leaves_it_cut_off(tmp_path, games):
    """The file size limit stops a real writer process in the middle of its third game
    (a short write, then EFBIG): the two games before it are intact, the third is
    reported cut off."""
    source = tmp_path / "source.jsonl"
    source.write_text(records_to_json(games[:3]), encoding="utf-8")
    size = len(format_records(games[:2]).encode()) + 1 + 300

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    target = tmp_path / "limited.rec"
    proc = writer(source, target, 3, preexec_fn=limit)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and out.split() == ["1", "2"]
    assert "File too large" in err
    assert target.stat().st_size == size
    rf = read_records(target.read_text(encoding="utf-8"), "limited.rec")
    assert [g.record for g in rf.games] == games[:2]
    assert [(e.game, e.line) for e in rf.cut_off] == [(3, format_records(games[:2])
                                                       .count("\n") + 2)]


def test_append_creates_the_file_and_survives_an_existing_one_without_final_newline(
        tmp_path):
    rec = random_game(2, 3)
    path = tmp_path / "new" / "x.rec"
    path.parent.mkdir()
    append_record(path, rec)
    assert oct(os.stat(path).st_mode & 0o777) == "0o644"
    data = path.read_bytes()
    path.write_bytes(data[:-1])  # an editor dropped the final newline
    append_record(path, rec)
    assert parse_records(path.read_text()) == [rec, rec]
