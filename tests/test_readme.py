"""The README and the docs/ pages stay true: the Quick start is two commands and CI runs the
test one verbatim, and every command of every `sh` block of the README, then of each docs
page (in the order of DOC_PAGES), runs as written, in order, in a scratch folder that
holds what they say to have (a checkout's `engines/`, `examples/` and `tests/`, and the
`cup.toml` they show), with `python3` and `sneferu` the ones under test. Commands for
other machines (a Dask scheduler and its workers) and benchmarks of many minutes stand in
`console` blocks, which are not run here: tests/test_tournament_cluster.py starts a real
scheduler and workers, and scripts/strength.sh is a benchmark.

The README stays a short user guide (at most 300 lines) and neither it nor the docs hold
a development diary: no dates, issue numbers or commit hashes; and every relative link of
the README names a file that exists (mkdocs build --strict checks the docs' own links)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, require_program

README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"
# The docs pages whose sh blocks run after the README's, in this order (a later one may use
# a file an earlier one wrote); every page with a sh block must be listed.
DOC_PAGES = ["protocol.md", "arbiter.md", "records.md", "tournaments.md", "search.md",
             "serve.md", "learning.md", "games/sneferu.md", "games/imhotep.md",
             "games/silver-gold.md", "games/akropolis.md", "adding-a-game.md",
             "performance.md"]
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


def sh_commands(text: str) -> list[str]:
    """Every command of a page's sh blocks, in order; a line ending in a backslash goes on
    with the next one."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for command in block.replace("\\\n", " ").splitlines():
            if command.strip():
                commands.append(command.strip())
    return commands


def readme_commands() -> list[str]:
    """The README's commands, then those of the docs pages of DOC_PAGES."""
    commands = sh_commands(README)
    for page in DOC_PAGES:
        commands += sh_commands((DOCS / page).read_text())
    return commands


def test_every_docs_page_with_commands_is_run():
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")
             if sh_commands(p.read_text())}
    assert pages <= set(DOC_PAGES), sorted(pages - set(DOC_PAGES))
    assert all(sh_commands((DOCS / page).read_text()) for page in DOC_PAGES)


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
    """The folder the commands run in: a checkout's engines/, examples/ and tests/, and
    cup.toml."""
    folder = tmp_path_factory.mktemp("readme")
    for name in ("engines", "examples", "tests"):
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


def user_docs() -> dict[str, str]:
    """The README and every page of docs/ (SPEC.md is checked for issue numbers and commit
    hashes only: its record examples hold a [Date] tag)."""
    pages = {"README.md": README}
    for page in sorted(DOCS.rglob("*.md")):
        pages[page.relative_to(ROOT).as_posix()] = page.read_text()
    return pages


DATE = re.compile(r"\b20\d\d-(?:[01]\d\b|\?)|\b20\d\d-\B")
ISSUE = re.compile(r"\b(?:issues?|PR|pull request)\s*#?\d+|(?<![\w&])#\d+\b", re.I)
# A short or long commit hash: 7 to 40 hex digits with at least one letter and one digit.
HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b")


def test_the_readme_is_a_short_user_guide():
    assert len(README.splitlines()) <= 300, len(README.splitlines())


def test_the_user_docs_hold_no_dates_issue_numbers_or_commit_hashes():
    found = []
    docs = {**user_docs(), "SPEC.md": (ROOT / "SPEC.md").read_text()}
    for name, text in docs.items():
        for n, line in enumerate(text.splitlines(), 1):
            patterns = (ISSUE, HASH) if name == "SPEC.md" else (DATE, ISSUE, HASH)
            found += [f"{name}:{n}: {m[0]!r}" for p in patterns for m in p.finditer(line)]
    assert not found, "\n".join(found)


def test_the_diary_checks_catch_what_they_are_for():
    assert DATE.search("on the idle machine (2026-11-24)")
    assert ISSUE.search("Issue 19 measured") and ISSUE.search("cutechess-cli #825")
    assert HASH.search("commit b4d4bfc") and HASH.search("(5c97e3c)")
    assert not HASH.search("1,128,960 sequences, 1103515245 and deadbeef")
    assert not ISSUE.search("SPEC 9.7, 16.4 and 8 floors")


def test_every_relative_link_of_the_readme_exists():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert links
    missing = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not missing, missing


def test_the_tournament_file_is_the_same_in_the_readme_and_its_docs_page():
    page = (DOCS / "tournaments.md").read_text()
    # the page's first TOML block (a later one shows the sandbox keys)
    assert re.findall(r"```toml\n(.*?)```", section("Tournaments"), re.S) == \
        re.findall(r"```toml\n(.*?)```", page, re.S)[:1]
