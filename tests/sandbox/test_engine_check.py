"""``sneferu engine check`` (SPEC.md 7.11): a correct engine passes at every sandbox level
this machine enforces; broken and hostile engines fail with the reason and their stderr's
last lines (exit code 1); the tournament key ``check = true`` runs it first."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import BROKEN, require_sandbox, run_cli

from sneferu_cli.arbiter.bundled import engines_dir
from sneferu_cli.game import get_game

HOSTILE = Path(__file__).with_name("fixtures") / "hostile.py"


@pytest.mark.parametrize("level", ["none", "limits", "bwrap", "cgroup"])
def test_the_random_engine_passes_every_game_at_every_seat_count(level: str) -> None:
    require_sandbox(level)
    r = run_cli("engine", "check", "random", "--sandbox", level, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1] == "PASS"
    assert "options: Seed EditionFile" in lines
    # the games random declares (the shipped ones: other tests may register test-only
    # games in this process, which the engine's own process does not know)
    (declared,) = [line.removeprefix("games: ").split() for line in lines
                   if line.startswith("games: ")]
    assert set(declared) >= {"sneferu", "imhotep", "silver-gold", "akropolis"}
    for name in declared:
        for n in get_game(name).players:
            assert f"ok {name} at {n} seat{'s' * (n > 1)}" in lines


@pytest.mark.parametrize(("argv", "sandbox", "failure"), [
    ([str(BROKEN), "crash", "2"], "none",
     "FAIL sneferu at 1 seat: crash: exited with code 3; stderr: broken: crashing on purpose"),
    ([str(BROKEN), "illegal", "1"], "none", "FAIL sneferu at 1 seat: illegal: 9.9 BT@1.1"),
    ([str(HOSTILE), "memory", "m"], "cgroup memory=128M",
     "FAIL sneferu at 1 seat: memory: killed at its memory limit"),
    ([str(HOSTILE), "fork", "m"], "cgroup pids=16",
     "FAIL sneferu at 1 seat: processes: reached its process limit"),
    ([str(HOSTILE), "spin", "m"], "limits cpu=1",
     "FAIL sneferu at 1 seat: cpu: used up its CPU seconds (SIGXCPU)"),
], ids=["crash", "illegal", "memory", "fork", "spin"])
def test_a_broken_or_hostile_engine_fails_with_its_reason(argv: list[str], sandbox: str,
                                                          failure: str) -> None:
    require_sandbox(sandbox.split()[0])
    command = " ".join([sys.executable, *argv])
    r = run_cli("engine", "check", command, "--sandbox", sandbox, "--movetime", "60000",
                timeout=180)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1] == "FAIL (1 failed)"
    assert any(line.startswith(failure) for line in lines), r.stdout
    assert any(line.startswith("  stderr: ") for line in lines)  # the stderr's tail


def test_an_engine_without_a_handshake_fails_at_once() -> None:
    r = run_cli("engine", "check", f"{sys.executable} {BROKEN} hang-handshake",
                "--handshake-timeout", "1")
    assert r.returncode == 1
    assert "FAIL handshake: handshake: timeout: no sneferuok within 1 s" in r.stdout
    assert "  stderr: pid " in r.stdout


def test_a_program_is_found_in_its_folder(tmp_path: Path) -> None:
    """``--dir``: the engine runs there, and a program written as a path is found there
    (as a tournament's ``dir``, SPEC.md 9.1)."""
    bot = tmp_path / "bot"
    bot.write_text(f"#!{sys.executable}\nimport runpy\n"
                   f"runpy.run_path({str(engines_dir() / 'random_player.py')!r}, "
                   "run_name='__main__')\n")
    bot.chmod(0o755)
    r = run_cli("engine", "check", "./bot", "--dir", str(tmp_path), timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "PASS"
    r = run_cli("engine", "check", "./bot")
    assert r.returncode == 2 and "no program './bot'" in r.stderr


def test_usage_errors_exit_2() -> None:
    r = run_cli("engine", "check", "./no-such-bot")
    assert r.returncode == 2
    assert "no program './no-such-bot'" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("engine", "check", "random", "--sandbox", "jail")
    assert r.returncode == 2 and "'jail': the level is one of" in r.stderr


def test_a_tournament_engine_with_check_true_is_checked_first(tmp_path: Path) -> None:
    """A failing engine stops the tournament before any game (exit 2, one line); a
    passing one plays."""
    records = tmp_path / "cup.records"
    bad = f"name=bad command='{sys.executable} {BROKEN} crash 2' check=true"
    r = run_cli("tournament", "--engine", bad, "--engine", "name=b command=random",
                "--deals", "1", "--records", str(records))
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == ("sneferu: engine 'bad' failed its check: sneferu at 1 seat: "
                                "crash: exited with code 3; stderr: broken: crashing on "
                                "purpose (ply 1)")
    assert not records.exists()
    r = run_cli("tournament", "--engine", "name=a command=random check=true 'sandbox=limits'",
                "--engine", "name=b command=random", "--deals", "1", "--records",
                str(records), timeout=120)
    assert r.returncode == 0, r.stderr
    assert records.read_text().count("[Event ") == 2
