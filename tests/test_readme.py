"""The README's Quick start stays true: two commands, and CI runs the test one verbatim."""

from __future__ import annotations

import re

from support import ROOT


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
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
