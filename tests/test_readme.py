"""The README stays true: the Quick start is two commands and CI runs the test one verbatim,
and every command of every `sh` block runs as written, in order, in a scratch folder that
holds what the README says to have (a checkout's `engines/` and `examples/`, and the
`cup.toml` it shows), with `python3` and `sneferu` the ones under test. Commands for other
machines (a Dask scheduler and its workers) and benchmarks of many minutes stand in
`console` blocks, which are not run here: tests/test_tournament_cluster.py starts a real
scheduler and workers, and scripts/strength.sh is a benchmark."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, require_program

README = (ROOT / "README.md").read_text()
TIMEOUT = 300


def section(title: str) -> str:
    return README.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def quick_start_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", section("Quick start"), re.S)
    assert block, "the Quick start has a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_has_exactly_two_commands():
    cmds = quick_start_commands()
    assert len(cmds) == 2
    assert cmds[0].startswith("python3 -m pip install . && ")
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text()
    assert quick_start_commands()[1] in ci.splitlines()


def readme_commands() -> list[str]:
    """Every command of the README's sh blocks, in order; a line ending in a backslash goes
    on with the next one."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for command in block.replace("\\\n", " ").splitlines():
            if command.strip():
                commands.append(command.strip())
    return commands


COMMANDS = readme_commands()
INSTALL = "python3 -m pip install . && "


def how_to_run(command: str) -> tuple[str | None, str]:
    """What the test runs for a README command (None: nothing) and the standard input.

    The installation is this test run's own, so the Quick start's first command runs only
    what follows the install; its second command is the test suite itself, which CI runs
    verbatim (checked above). A human seat gets its input typed by the test: `help`, the
    legal moves, then the end of input (the seat retires and the game goes on)."""
    if command.startswith(INSTALL):
        return command.removeprefix(INSTALL), ""
    if "pytest" in command:
        return None, ""
    if "--human" in command:
        return command, "help\n?\n"
    return command, ""


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the commands run in: a checkout's engines/ and examples/, and cup.toml."""
    folder = tmp_path_factory.mktemp("readme")
    for name in ("engines", "examples"):
        (folder / name).symlink_to(ROOT / name)
    tournaments = section("Tournaments")
    assert "here `cup.toml`" in tournaments
    (toml,) = re.findall(r"```toml\n(.*?)```", tournaments, re.S)
    (folder / "cup.toml").write_text(toml)
    return folder


@pytest.fixture(scope="module")
def results(scratch: Path) -> dict[int, subprocess.CompletedProcess[str] | None]:
    """Run every command in README order (later ones use what earlier ones wrote)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
                                 f"{os.environ.get('PATH', '')}", "TMPDIR": str(scratch)}
    env.pop("POS", None)
    out: dict[int, subprocess.CompletedProcess[str] | None] = {}
    for i, command in enumerate(COMMANDS):
        run, stdin = how_to_run(command)
        if run is None:
            out[i] = None
            continue
        if "node" in run.split() or "js-random" in run:
            require_program("node", "Node.js")
        # A variable a command sets (POS=$(...)) is kept for the commands after it.
        assigned = re.match(r"^([A-Z_]+)=(\$\(.*\))\s*(#.*)?$", run)
        if assigned:
            run = f"{assigned[1]}={assigned[2]}; printf %s \"${assigned[1]}\""
        out[i] = subprocess.run(["bash", "-e", "-c", run], cwd=scratch,
                                env=env, input=stdin, capture_output=True, text=True,
                                timeout=TIMEOUT)
        if assigned:
            env[assigned[1]] = out[i].stdout
    return out


@pytest.mark.parametrize("index", range(len(COMMANDS)),
                         ids=[f"{i + 1}:{c[:50]}" for i, c in enumerate(COMMANDS)])
def test_every_readme_command_runs_as_written(results, index: int):
    r = results[index]
    if r is None:
        assert "pytest" in COMMANDS[index]  # the test suite itself: CI runs it
        return
    assert r.returncode == 0, (COMMANDS[index], r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr
