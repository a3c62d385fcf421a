"""Helpers shared by the tests (importable as ``support``; tests/ is on the path)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "engines" / "broken.py"
WITH_TEST_GAMES = [sys.executable, str(ROOT / "tests" / "engines" / "with_test_games.py")]
"""Runs a bundled engine (``random``, ...) or, with ``sneferu``, the command line, with the
test-only games registered in that process too (tests/engines/with_test_games.py)."""


def run_cli(*args: str, stdin: str | None = None, timeout: float = 60,
            test_games: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``sneferu ARGS`` with this interpreter (python -m sneferu_cli), capturing output;
    ``test_games``: with the test-only games registered too (:data:`WITH_TEST_GAMES`)."""
    command = [*WITH_TEST_GAMES, "sneferu"] if test_games else [sys.executable, "-m",
                                                                 "sneferu_cli"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def start_cli(*args: str) -> subprocess.Popen[str]:
    """Start ``sneferu ARGS`` in the background, its output captured (no input)."""
    return subprocess.Popen([sys.executable, "-m", "sneferu_cli", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, pattern: str, timeout: float = 30) -> re.Match[str]:
    """Wait (at most ``timeout`` s) until the file at ``path`` holds a line matching
    ``pattern``; the match."""
    deadline = time.monotonic() + timeout
    while True:
        text = path.read_text(errors="replace") if path.exists() else ""
        found = re.search(pattern, text, re.M)
        if found:
            return found
        assert time.monotonic() < deadline, f"no line {pattern!r} in {path}: {text[-500:]!r}"
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def group_gone(pgid: int) -> bool:
    """True when no process is left in the process group ``pgid``."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def require_program(path: str, what: str) -> str:
    """``path``, a program from outside Python that a test needs (Chromium, Node.js).

    When it is missing the test is skipped with the reason, so the README's test command
    works on a machine with only Python and pip; under CI (``SNEFERU_CI=1``, set by
    ``.ci/run``, which installs them) a missing program fails the test instead.
    """
    import os
    import shutil

    import pytest

    found = shutil.which(path)
    if found:
        return found
    message = f"{what} is not installed ({path}); .ci/run installs it"
    if os.environ.get("SNEFERU_CI") == "1":
        pytest.fail(message)
    pytest.skip(message)


def require_sandbox(level: str) -> None:
    """For a test that runs engines in the sandbox ``level`` (SPEC.md 7.10): skipped with
    the reason when this machine cannot enforce it; under CI (``SNEFERU_CI=1``: .ci/run
    installs bubblewrap and runs as root) the test fails instead."""
    import os

    import pytest

    from sneferu_cli.arbiter.sandbox import Sandbox, SandboxError

    try:
        Sandbox.parse(level).require()
    except SandboxError as e:
        if os.environ.get("SNEFERU_CI") == "1":
            pytest.fail(f"{e}; .ci/run installs bubblewrap and runs as root")
        pytest.skip(str(e))


def mutate(draw: Callable[[Any], Any], line: str, noise: str,
           ends: Sequence[str] = ("", " ", "\t", "\r", " \r")) -> str:
    """``line`` (of a grammar) with up to two characters inserted, deleted or replaced by
    one of ``noise``, or blanks added before it and one of ``ends`` after it (for
    hypothesis: ``draw`` is a ``st.composite``'s draw)."""
    from hypothesis import strategies as st

    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(line)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "pad"]))
        c = draw(st.sampled_from(noise))
        if kind == "insert":
            line = line[:i] + c + line[i:]
        elif kind == "delete":
            line = line[:i] + line[i + 1:]
        elif kind == "replace":
            line = line[:i] + c + line[i + 1:]
        else:
            line = (draw(st.sampled_from(["", " ", "\t", " \t"])) + line
                    + draw(st.sampled_from(list(ends))))
    return line


def random_engine_run(lines: str) -> tuple[int, list[str]]:
    """Feed ``lines`` to the bundled ``random`` engine in a fresh interpreter: how many Lark
    parsers it built, and the lines it answered."""
    from sneferu_cli.arbiter.bundled import engines_dir

    script = (
        "import io, sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from random_player import RandomPlayer\n"
        "from sneferu_cli.grammar import parser\n"
        "from sneferu_cli.protocol.bot import run\n"
        "out = io.StringIO()\n"
        "run(RandomPlayer(), io.StringIO(sys.argv[2]), out)\n"
        "print(parser.cache_info().currsize)\n"
        "print(out.getvalue(), end='')\n")
    r = subprocess.run([sys.executable, "-c", script, str(engines_dir()), lines],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    built, *answers = r.stdout.splitlines()
    return int(built), answers


def play_with_mcts(name: str, players: int, simulations: int, seed: int) -> tuple[Any, int]:
    """A whole game of the OpenSpiel game ``name`` played by OpenSpiel's ``MCTSBot``
    (``simulations`` random rollouts a decision) with chance drawn by its odds, each
    action checked legal: the final state and the number of the bot's decisions. In a
    game with hidden information the bot searches a state drawn from the deciding seat's
    information state (``resample_from_infostate``), never the truth."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name, {"players": players})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                       random_state=rng)
    hidden = game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    return play_with_bot(game, bot, rng, drawn=hidden)


def play_with_bot(game: Any, bot: Any, rng: Any, *, drawn: bool = False) -> tuple[Any, int]:
    """A whole game of the OpenSpiel ``game``, each decision ``bot.step``'s (on a state
    drawn from the deciding seat's information state with ``drawn``), each action checked
    legal, chance drawn by its odds with ``rng`` (a numpy RandomState): the final state and
    the number of the bot's decisions."""
    import pyspiel

    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            searched = state if not drawn else state.resample_from_infostate(
                state.current_player(),
                pyspiel.UniformProbabilitySampler(int(rng.randint(2**31)), 0.0, 1.0))
            action = bot.step(searched)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    return state, decisions


def drawn_as_walked(game: Any, state: Any, rng: Any) -> str:
    """``game.sample_outcome(state, rng)``, checked to be the plain draw (``randrange`` of
    the total of ``state.chance_weights()``, walked in their order) taking the same draws
    from ``rng``: the outcome drawn."""
    before = rng.getstate()
    fast = game.sample_outcome(state, rng)
    after = rng.getstate()
    rng.setstate(before)
    weights = state.chance_weights()
    pick = rng.randrange(sum(w for _, w in weights))
    for outcome, w in weights:
        if pick < w:
            assert str(outcome) == fast
            break
        pick -= w
    assert rng.getstate() == after  # the same draws taken
    return str(fast)


def decisions_of(game: Any, state: Any, rng: Any) -> Iterator[Any]:
    """``state`` at each decision of its game to the end, chance drawn with ``rng`` by its
    odds on the way; the caller applies the decision's moves after each."""
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        yield state


def solo_of(header: Any) -> Any:
    """The solo result a record header's own result tags hold (Sneferu's [Solo]), or None."""
    from sneferu_cli.game import get_game

    tags = get_game(header.game).record_tags()
    return None if tags is None else tags.solo_of(header.result_tags)
