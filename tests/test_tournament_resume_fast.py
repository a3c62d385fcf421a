"""Resuming a finished tournament (issue 20): it reads only the games' headers and starts
no engine, so that it answers at once however many games were played; the standings are
those of the run."""

from __future__ import annotations

import sys
from pathlib import Path

from support import ROOT
from test_tournament_run import run, standings_text, write_config

from sneferu_cli.record import decode_records, read_records
from sneferu_cli.record.text import RecordError

STARTS = """
import os, sys
with open(sys.argv[1], "a") as log:
    log.write("started\\n")
os.execv(sys.executable, [sys.executable, sys.argv[2]])
"""


def test_resuming_a_finished_tournament_starts_no_engine(tmp_path: Path) -> None:
    (tmp_path / "starts.py").write_text(STARTS)
    log = tmp_path / "started.txt"
    engine = [sys.executable, str(tmp_path / "starts.py"), str(log),
              str(ROOT / "tests" / "engines" / "instant.py")]
    write_config(tmp_path / "t.toml", {"a": engine, "b": engine}, seats=2, deals=3,
                 seed=4, movetime=1000, records="t.rec")
    first = run("t.toml", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert log.read_text().count("started") >= 2
    log.unlink()
    again = run("--resume", "--records", "t.rec", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "(6 played, 0 to play)" in again.stdout
    assert standings_text(again.stdout) == standings_text(first.stdout)
    assert not log.exists()


def test_headers_only_reads_the_tags_and_not_the_events(tmp_path: Path) -> None:
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, seats=2, deals=2,
                 seed=4, movetime=1000, records="t.rec")
    assert run("t.toml", cwd=tmp_path).returncode == 0
    text = decode_records((tmp_path / "t.rec").read_bytes())
    whole = read_records(text)
    heads = read_records(text, headers_only=True)
    assert [g.record.header for g in heads.games] == [g.record.header for g in whole.games]
    assert all(g.record.events == [] for g in heads.games)
    assert [g.end_line for g in heads.games] == [g.end_line for g in whole.games]
    assert [g.tag_lines for g in heads.games] == [g.tag_lines for g in whole.games]
    broken = text.replace("\n1. ", "\n1x ", 1)  # an event line no reader accepts
    assert read_records(broken, headers_only=True).games[0].record.header == \
        whole.games[0].record.header
    try:
        read_records(broken)
    except RecordError as e:
        assert "line" in str(e)
    else:
        raise AssertionError("the whole read accepted a broken turn line")


def test_a_second_start_names_the_command_that_resumes(tmp_path: Path) -> None:
    """The advice of a refused second start works as given; with the state file removed
    the record file's refusal gives no advice to resume (issue 20)."""
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, seats=2, deals=1,
                 seed=2, movetime=500, records="t.rec")
    assert run("t.toml", cwd=tmp_path).returncode == 0
    again = run("t.toml", cwd=tmp_path)
    assert again.returncode == 2
    command = again.stderr.split("(resume it: ")[1].split(";")[0]
    assert command == "sneferu tournament --resume --state t.rec.state"
    resumed = run(*command.split()[2:], cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "(2 played, 0 to play)" in resumed.stdout
    (tmp_path / "t.rec.state").unlink()
    fresh = run("t.toml", cwd=tmp_path)
    assert fresh.returncode == 2
    assert fresh.stderr == ("sneferu: t.rec: the record file is not empty, and there is no "
                            "tournament state (t.rec.state) to resume from: choose another "
                            "record file, or move it away\n")
