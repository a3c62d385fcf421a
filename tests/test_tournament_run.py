"""Real tournaments: `sneferu tournament` with real engine processes, concurrency, engines
that crash or hang, SIGKILL and SIGTERM in the middle and --resume, SPRT, reports, the
demo, the live display on a terminal, and configuration errors."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pexpect
import pytest
from support import ROOT, run_cli, solo_of
from tournament_support import play

from sneferu_cli.cli.tournament import tournament
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.record import (
    RecordError,
    Turn,
    decode_records,
    format_record,
    parse_records,
    read_records,
    records_to_json,
    verify,
)
from sneferu_cli.record.model import GameRecord
from sneferu_cli.tournament import (
    Schedule,
    TournamentConfig,
    compute_standings,
    format_standings,
    load_config,
)
from sneferu_cli.tournament.config import SprtConfig, fingerprint_of
from sneferu_cli.tournament.runner import WORKER_NAME, read_games

BROKEN = ROOT / "tests" / "engines" / "broken.py"
LIMIT = 120  # seconds any one command here may take
SLOW = [sys.executable, str(ROOT / "tests" / "engines" / "slow.py"), "5"]
"""An engine that sleeps 5 ms a move: a run stopped in the middle outlasts the wait for its
first games however loaded the machine (instant engines play 24 games in 0.7 s)."""


def toml_list(words: list[str]) -> str:
    return "[" + ", ".join(json.dumps(w) for w in words) + "]"


def write_config(path: Path, engines: dict[str, list[str] | str], **keys: object) -> Path:
    """A TOML configuration: top-level ``keys`` and the engines (name: command)."""
    lines = [f"{k.replace('_', '-')} = {json.dumps(v)}" for k, v in keys.items()]
    for name, command in engines.items():
        cmd = json.dumps(command) if isinstance(command, str) else toml_list(command)
        lines += ["[[engine]]", f"name = {json.dumps(name)}", f"command = {cmd}"]
    path.write_text("\n".join(lines) + "\n")
    return path


def broken(mode: str, n: int) -> list[str]:
    return [sys.executable, str(BROKEN), mode, str(n)]


def games_of(path: Path) -> list[GameRecord]:
    return parse_records(path.read_text())


def essence(rec: GameRecord) -> tuple[object, ...]:
    """What a seeded game between deterministic engines must repeat exactly: the seats,
    every chance outcome and move, the retirements, the result (not dates or times)."""
    h = rec.header
    events = [(e.seat, e.move) if isinstance(e, Turn) else e for e in rec.events]
    return (h.round, h.seed, h.extra, h.event, h.time_control, h.variant, h.tags.get("Builders"),
            [(s.seat, s.name, s.tags.get("builder")) for s in h.seats], h.result, solo_of(h),
            h.termination, [(f.seat, f.kind, f.ply) for f in h.faults], events)


def standings_text(stdout: str) -> str:
    """The final standings printed by a run (from the table's header line to the blank
    line before the closing lines)."""
    start = stdout.index("#  engine")
    return stdout[start:stdout.index("\nrecords: ", start) + 1]


def processes_in(folder: Path) -> list[int]:
    """Processes whose working directory is ``folder`` (workers and engines of a run)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if Path(os.readlink(entry / "cwd")) == folder:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def wait_gone(folder: Path, timeout: float = 10) -> list[int]:
    end = time.monotonic() + timeout
    while (left := processes_in(folder)) and time.monotonic() < end:
        time.sleep(0.1)
    return left


def sneferu(*args: str, cwd: Path, **popen: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sneferu_cli", "tournament", *args],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **popen)  # type: ignore[call-overload]


def wait_for_games(p: subprocess.Popen[str], records: Path, n: int) -> None:
    """Wait until the running tournament ``p`` has ``n`` whole games in ``records``."""
    end = time.monotonic() + LIMIT
    while time.monotonic() < end and p.poll() is None:
        text = decode_records(records.read_bytes()) if records.exists() else ""
        if len(read_records(text).games) >= n:  # a game may be half written
            return
        time.sleep(0.02)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=LIMIT)


# ----------------------------------------------------------------- whole tournaments


def test_three_seats_with_engines_that_crash_and_hang(tmp_path):
    """A crashing engine and a hanging one cost their games, not the tournament: they are
    retired (crash, timeout) and started again for their next game."""
    cfg = write_config(tmp_path / "t.toml", {
        "greedy": "greedy", "flaky": broken("flaky", 10), "hangs": broken("hang-move", 4)},
        seats=3, deals=2, seed=5, movetime=150, records="cup.rec")
    r = run(str(cfg), "-j", "2", "--json", "s.json", "--csv", "s.csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = read_records((tmp_path / "cup.rec").read_text()).games
    assert sorted(int(g.record.header.round or 0) for g in games) == list(range(1, 7))
    for g in games:
        verify(g, standard_edition())  # every game replays to its recorded result
        h = g.record.header
        assert {s.name for s in h.seats} == {"greedy", "flaky", "hangs"}
        assert h.event == "sneferu tournament" and h.time_control == "movetime 150"
    kinds: dict[str, set[str]] = {}
    for g in games:
        h = g.record.header
        for f in h.faults:
            kinds.setdefault(h.seats[f.seat - 1].name, set()).add(f.kind)
    assert kinds["flaky"] == {"crash"} and kinds["hangs"] == {"timeout"}
    # hangs is retired at its 4th move in every game: it was started again each time
    assert all(sum(1 for f in g.record.header.faults if f.kind == "timeout") == 1
               for g in games)
    st = compute_standings(g.record for g in games)
    assert format_standings(st) in r.stdout
    assert json.loads((tmp_path / "s.json").read_text())["games"] == 6
    assert (tmp_path / "s.csv").read_text().startswith("engine,games,mean_rank")
    assert wait_gone(tmp_path) == []


@pytest.mark.parametrize(("seats", "builders"), [(1, "Heba"), (2, "random")])
def test_round_robin_and_solo_through_flags(tmp_path, seats, builders):
    r = run("--engine", "name=r1 command=random", "--engine", "name=g command=greedy",
            "--engine", "name=r2 command=random", "--seats", str(seats), "--deals", "2",
            "--seed", "3", "--tc", "5+0.1", "--records", "x.rec", "-j", "2",
            "--builders", builders, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = games_of(tmp_path / "x.rec")
    for g in games:
        verify(read_records(format_record(g)).games[0], standard_edition())
        assert g.header.tags.get("Builders") == ("chosen" if seats == 1 else "random")
    # 1 seat: each engine alone, 2 deals; 2 seats: 3 tables x 2 seatings x 2 deals
    assert len(games) == (6 if seats == 1 else 12)
    assert {g.header.time_control for g in games} == {"5+0.1"}
    assert all(g.header.players == seats and not g.header.faults for g in games)
    if seats == 1:
        assert all(solo_of(g.header) is not None for g in games)
        assert "win rate" in r.stdout
    report = run_cli("tournament", "report", str(tmp_path / "x.rec"))
    assert report.returncode == 0 and report.stdout == standings_text(r.stdout)


def test_sigkill_then_resume_gives_the_games_of_an_uninterrupted_run(tmp_path):
    """kill -9 in the middle (workers and engines go with it), then --resume: the same
    games, move for move, and the same standings as a run never stopped (two engines
    SLOW: a loaded CI machine once saw the run end before the kill)."""
    engines: dict[str, list[str] | str] = {"r1": SLOW, "g": "greedy", "r2": SLOW}
    keys = {"seats": 2, "deals": 4, "seed": 11, "movetime": 1000, "records": "t.rec"}
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    write_config(whole / "t.toml", engines, **keys)
    write_config(cut / "t.toml", engines, **keys)
    done = run("t.toml", "-j", "1", cwd=whole)
    assert done.returncode == 0, done.stderr

    p = sneferu("t.toml", "-j", "2", cwd=cut)
    wait_for_games(p, cut / "t.rec", 5)
    assert p.poll() is None, "the run ended before it could be killed"
    p.kill()
    p.communicate(timeout=LIMIT)
    assert wait_gone(cut) == [], "workers or engines outlived the killed run"
    partial = len(read_records(decode_records((cut / "t.rec").read_bytes())).games)
    assert 5 <= partial < 24

    again = run("t.toml", "--resume", "-j", "2", cwd=cut)
    assert again.returncode == 0, again.stderr
    assert f"({partial} played, {24 - partial} to play)" in again.stdout
    a = {g.header.round: essence(g) for g in games_of(whole / "t.rec")}
    b = {g.header.round: essence(g) for g in games_of(cut / "t.rec")}
    assert len(a) == 24 and a == b
    assert standings_text(again.stdout) == standings_text(done.stdout)
    assert run("t.toml", "--resume", cwd=cut).stdout.count("(24 played, 0 to play)") == 1


def test_fsync_game_through_the_flag(tmp_path):
    """--fsync game: every game checkpointed (the state file counts them all); the commit
    log is gone at the end; a value that is not one of the two is a usage error."""
    write_config(tmp_path / "t.toml", {"a": "random", "b": "greedy"}, seats=2, deals=2,
                 seed=5, movetime=1000)
    r = run("t.toml", "--fsync", "game", "-j", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    records = tmp_path / "tournament.records"
    state = json.loads((tmp_path / "tournament.records.state").read_text())
    assert state["config"]["fsync"] == "game"
    assert (state["games"], state["committed"]) == (4, records.stat().st_size)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "t.toml", "tournament.records", "tournament.records.state"]
    bad = run("t.toml", "--fsync", "never", cwd=tmp_path)
    assert bad.returncode == 2 and "'never' is not one of 'game', 'second'" in bad.stderr


def test_a_tournament_process_exits_without_the_interpreter_teardown(tmp_path):
    """Once ``sneferu tournament`` is done its process ends at once (``main`` does not
    return), after the atexit functions and with its output flushed, its exit code kept.
    Other commands, and a tournament under a profiler (which writes its data once the
    command returns), end as usual."""
    (tmp_path / "empty.records").write_text("")
    script = ("import atexit, sys\n"
              "from sneferu_cli.cli import main\n"
              "atexit.register(print, 'atexit ran')\n"
              "sys.argv[0] = 'sneferu'\n"
              "PROFILE\n"
              "try:\n"
              "    main()\n"
              "finally:\n"
              "    print('main returned')\n")
    plain, profiled = (script.replace("PROFILE", profile)
                       for profile in ("", "sys.setprofile(lambda *a: None)"))
    report = ["tournament", "report", "empty.records"]
    for code, args, returned in ((plain, report, False),
                                 (plain, ["tournament", "--seats", "9"], False),
                                 (plain, ["--version"], True),
                                 (profiled, report, True)):
        r = subprocess.run([sys.executable, "-c", code, *args], cwd=tmp_path,
                           capture_output=True, text=True, timeout=LIMIT)
        error = "--seats" in args  # an error's line and exit code are kept
        assert r.returncode == (2 if error else 0), r.stderr
        assert ("no engines (give at least one)" in r.stderr) == error
        assert ("main returned" in r.stdout) == returned, (args, r.stdout)
        assert r.stdout.splitlines()[-1] == "atexit ran"
        assert report != args or r.stdout.startswith("no finished games\n")  # flushed


def test_a_tournament_imports_only_what_it_plays_with():
    """``sneferu tournament`` imports its command's module, not the other commands', nor
    Lark (its games' moves and the engines' lines are read by the fast readers), nor the
    cluster module without a cluster: each costs its start-up CPU."""
    code = ("import sys\n"
            "from sneferu_cli.cli import cli\n"
            "import click\n"
            "cli.get_command(click.Context(cli), 'tournament')\n"
            "from sneferu_cli.tournament.runner import EnginePool\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'\n"
            "      or m.startswith(('sneferu_cli.cli.', 'sneferu_cli.serve',\n"
            "                       'sneferu_cli.tournament.cluster')))))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=LIMIT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["sneferu_cli.cli.options", "sneferu_cli.cli.tournament"]


def test_sigterm_stops_cleanly_and_resume_finishes(tmp_path):
    write_config(tmp_path / "t.toml", {"a": SLOW, "b": "random", "c": SLOW, "d": "random"},
                 seats=4, deals=4, seed=2, movetime=1000)
    p = sneferu("t.toml", "-j", "2", cwd=tmp_path)
    records = tmp_path / "tournament.records"
    wait_for_games(p, records, 1)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=LIMIT)
    assert p.returncode == 130, err
    assert "sneferu tournament --resume --state tournament.records.state" in err
    assert wait_gone(tmp_path) == []
    state = json.loads((tmp_path / "tournament.records.state").read_text())
    assert state["pending"] is None and state["committed"] == records.stat().st_size
    r = run("t.toml", "--resume", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(games_of(records)) == 16


def test_sprt_stops_once_decided(tmp_path):
    cfg = write_config(tmp_path / "t.toml", {"greedy": "greedy", "random": "random"},
                       deals=200, seed=1, movetime=1000)
    r = run(str(cfg), "--sprt-elo0", "0", "--sprt-elo1", "50", "-j", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    games = games_of(tmp_path / "tournament.records")
    assert 0 < len(games) < 400
    assert "SPRT greedy vs random: H1 accepted (greedy is stronger): LLR" in r.stdout
    assert "(bounds -2.944, 2.944)" in r.stdout and ", WW " in r.stdout
    assert "The SPRT is decided" in r.stdout
    again = run("--resume", cwd=tmp_path)  # decided: nothing more to play
    assert again.returncode == 0 and len(games_of(tmp_path / "tournament.records")) == len(
        games)


def test_demo_without_arguments(tmp_path):
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "tournament", "-j", "2"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=LIMIT,
                       env={**os.environ, "TMPDIR": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("sneferu demo: random, greedy")
    path = Path(r.stdout.strip().splitlines()[-1].removeprefix("records: "))
    assert path.parent.parent == tmp_path and len(games_of(path)) == 36
    assert "head to head" in r.stdout


def test_live_display_on_a_terminal(tmp_path):
    # b thinks 20 ms a move, so the 12 games last seconds: long enough to be drawn live
    slow = [sys.executable, str(ROOT / "tests" / "engines" / "slow.py"), "20"]
    write_config(tmp_path / "t.toml", {"a": "random", "b": slow}, deals=6, seed=4,
                 movetime=1000)
    seen = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "tournament", "t.toml",
                                           "-j", "1"], cwd=str(tmp_path), encoding="utf-8",
                          timeout=LIMIT, dimensions=(30, 120), logfile=seen)
    child.expect(r"\[ *\d+/12 +\d+%\].*ETA")
    child.expect("#  engine")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # the block (status, table header, 2 engines) is redrawn in place
    assert "\x1b[4F\x1b[J" in seen.getvalue()
    assert "head to head" in seen.getvalue()  # then the final standings


# ----------------------------------------------------------------- errors and flags


@pytest.mark.parametrize(("args", "message"), [
    (("t.toml", "--deals", "0"), "t.toml: deals: 0 (1 to 1000000)"),
    (("--engine", "name=a command=greedy", "--engine", "name=b command=random",
      "--sprt-elo0", "0", "--sprt-elo1", "400"),
     "configuration: sprt: elo1: 400.0 is out of the normalized model's range (-200 to 200)"),
    (("t.toml", "--tc", "fast"), "t.toml: time-control: 'fast' is not SECONDS+INC"),
    (("t.toml", "--movetime", "5", "--tc", "5"), "give one, not both"),
    (("t.toml", "--format", "swiss"), "t.toml: format: invalid enum value 'swiss'"),
    (("nothing.toml",), "nothing.toml: cannot read"),
    (("--engine", "name=a command=./nowhere", "--engine", "name=b command=random"),
     "engine 'a': no program './nowhere'"),
    (("--engine", "name=a command=random option.Depth=2", "--engine", "name=b command=random"),
     "engine 'a': no option 'Depth' (it declares: Seed EditionFile)"),
    (("--engine", "name=a command=random option.Seed=x", "--engine", "name=b command=random"),
     "engine 'a': option Seed (spin): 'x' is not an integer"),
    (("t.toml", "--resume", "--state", "none.state"), "none.state: cannot read"),
    (("report", "missing.rec"), "missing.rec: cannot read: No such file"),
])
def test_bad_configuration_is_one_line_and_exit_2(tmp_path, args, message):
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, deals=1)
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("sneferu: ")
    assert message in r.stderr
    assert not (tmp_path / "tournament.records.state").exists()


def test_a_second_start_is_refused_and_points_to_resume(tmp_path):
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, deals=1, movetime=500)
    assert run("t.toml", cwd=tmp_path).returncode == 0
    r = run("t.toml", cwd=tmp_path)
    assert r.returncode == 2 and "a tournament state exists already (resume it:" in r.stderr
    other = run("t.toml", "--resume", "--deals", "2", cwd=tmp_path)
    assert other.returncode == 2 and "differs in: deals" in other.stderr


def test_every_configuration_key_is_a_flag():
    flags = {o for p in tournament.params for o in p.opts}
    keys = [f.encode_name for f in msgspec.structs.fields(TournamentConfig)]
    keys += [f"sprt-{f.encode_name}" for f in msgspec.structs.fields(SprtConfig)]
    assert [k for k in keys if f"--{k}" not in flags and k != "sprt"] == []
    text = run_cli("tournament", "--help").stdout
    assert all(f"--{k}" in text for k in keys if k != "sprt")
    assert "--resume" in text and "-j, --concurrency" in text and "report RECORDS..." in text


def test_report_formats(tmp_path):
    write_config(tmp_path / "t.toml", {"a": "random", "b": "greedy"}, deals=2, seed=9,
                 movetime=500)
    r = run("t.toml", "--json", "s.json", "--csv", "s.csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for flag, file in (("--json", "s.json"), ("--csv", "s.csv")):
        out = run_cli("tournament", "report", str(tmp_path / "tournament.records"), flag)
        assert out.returncode == 0 and out.stdout == (tmp_path / file).read_text()


def two_workers_under_way(tmp_path: Path) -> tuple[subprocess.Popen[str], Path, list[int]]:
    """A run of 16 games on two workers, its first game recorded: the run, its record
    file and the workers' pids."""
    write_config(tmp_path / "t.toml", {"a": SLOW, "b": "greedy"}, deals=8, seed=6,
                 movetime=1000)
    p = sneferu("t.toml", "-j", "2", cwd=tmp_path)
    records = tmp_path / "tournament.records"
    wait_for_games(p, records, 1)
    workers = [pid for pid in processes_in(tmp_path)
               if Path(f"/proc/{pid}/comm").read_text() == f"{WORKER_NAME}\n"]
    assert len(workers) == 2
    return p, records, workers


def test_a_worker_killed_mid_game_is_replaced_and_its_game_played_again(tmp_path):
    p, records, workers = two_workers_under_way(tmp_path)
    os.kill(workers[0], signal.SIGKILL)
    _, err = p.communicate(timeout=LIMIT)
    assert p.returncode == 0, err
    assert sorted(int(g.header.round or 0) for g in games_of(records)) == list(range(1, 17))
    assert wait_gone(tmp_path) == []


def test_the_workers_are_named_and_hold_no_file_of_the_run(tmp_path):
    """The workers (forked from the main process) show as sneferu-worker, and have closed
    the record file they inherit: its lock goes with the main process."""
    p, records, workers = two_workers_under_way(tmp_path)
    files = {Path(os.readlink(f)) for pid in workers
             for f in Path(f"/proc/{pid}/fd").iterdir() if os.path.exists(f)}
    main = {Path(os.readlink(f)) for f in Path(f"/proc/{p.pid}/fd").iterdir()
            if os.path.exists(f)}
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=LIMIT)
    assert len(workers) == 2 and records in main and records not in files
    assert wait_gone(tmp_path) == []


@pytest.mark.parametrize("batch", [1, 3000, 1 << 20])
def test_read_games_streams_a_record_file(tmp_path, batch):
    """A resumed run reads its record file a batch at a time (flat memory): the same
    games as reading it whole, and an error names the file's own game and line."""
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b"],
                             "deals": 3, "seed": 4})
    recs = [play(cfg, g, moves_seed=g.number) for g in Schedule.of(cfg).games]
    text = tmp_path / "t.rec"
    text.write_text("".join(format_record(r) for r in recs))
    # a text record's games are read as their headers (a run needs no more, SPEC 9.7)
    assert list(read_games(text, batch)) == [GameRecord(r.header, [])
                                             for r in parse_records(text.read_text())]
    lines = (tmp_path / "t.jsonl")
    lines.write_text(records_to_json(recs))
    assert list(read_games(lines, batch)) == recs
    bad = text.read_text().split("\n")
    fourth = [i for i, line in enumerate(bad) if line.startswith("[Event ")][3]
    bad[fourth + 3] = "[Players nine]"
    text.write_text("\n".join(bad))
    with pytest.raises(RecordError) as whole:
        read_records(text.read_text(), str(text))
    with pytest.raises(RecordError) as streamed:
        list(read_games(text, batch))
    assert str(streamed.value) == str(whole.value)
    assert "game 4" in str(whole.value)


def test_resuming_a_run_whose_sprt_cannot_be_computed_is_one_line(tmp_path):
    """A run started (by an older version) with an SPRT bound out of the model's range,
    with a complete pair recorded: --resume says so in one line (it used to crash in the
    estimator at start, for ever)."""
    args = ("tournament", "--engine", "name=a command=greedy", "--engine",
            "name=b command=random", "--movetime", "20", "--deals", "1", "--seed", "1",
            "--records", str(tmp_path / "z.rec"), "--sprt-elo0", "0", "--sprt-elo1", "100")
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr
    state_path = tmp_path / "z.rec.state"
    state = msgspec.json.decode(state_path.read_bytes())

    assert fingerprint_of(state["config"]) == state["fingerprint"]
    state["config"]["sprt"]["elo1"] = 400.0
    state["fingerprint"] = fingerprint_of(state["config"])
    state_path.write_bytes(msgspec.json.encode(state))
    r = run_cli("tournament", "--resume", "--state", str(state_path))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.splitlines() == [
        f"sneferu: {state_path}: not a usable tournament state: elo1: 400.0 is out of the "
        "normalized model's range (-200 to 200) - at `$.config.sprt`"]
