"""The examples in examples/ run as documented (SPEC.md, section 10; README, Embedding)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from support import ROOT, require_program

NODE = "node"
TIMEOUT = 120


def run(*cmd: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                          env={**os.environ, **(env or {})})


def test_node_client_plays_a_whole_game_through_sneferu_serve() -> None:
    r = run(require_program(NODE, "Node.js"), str(ROOT / "examples" / "node_client.js"),
            sys.executable, "-m", "sneferu_cli", "serve")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("as expected, play: ")  # an error reply, and on it goes
    assert re.fullmatch(r"\d+ turns played, the game is over", lines[1])
    assert all(re.fullmatch(r"\d\. seat \d: \d+ stones, \d+ food", x) for x in lines[2:])
    assert [line.split(".")[0] for line in lines[2:]] in (["1", "2", "3"], ["1", "1", "3"],
                                                          ["1", "2", "2"], ["1", "1", "1"])


def test_node_client_takes_the_server_command_from_the_environment() -> None:
    r = run(require_program(NODE, "Node.js"), str(ROOT / "examples" / "node_client.js"),
            env={"SNEFERU_SERVE": f"{sys.executable} -m sneferu_cli serve", "SEED": "11"})
    assert r.returncode == 0, r.stderr
    assert "the game is over" in r.stdout


def test_node_client_fails_cleanly_without_a_server() -> None:
    r = run(require_program(NODE, "Node.js"), str(ROOT / "examples" / "node_client.js"),
            "/nonexistent/sneferu")
    assert r.returncode == 1
    assert r.stderr.startswith("node_client: cannot start /nonexistent/sneferu")


def test_shell_script_scripts_a_position() -> None:
    r = run("bash", str(ROOT / "examples" / "script_position.sh"), "4",
            env={"SNEFERU": f"{sys.executable} -m sneferu_cli"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("new game: standard standard ")
    assert [line.split(":")[0] for line in lines[2:5]] == ["turn 1", "turn 2", "turn 3"]
    final = lines[-1].removeprefix("final position: ")
    shown = run(sys.executable, "-m", "sneferu_cli", "position", "show", final)
    assert shown.returncode == 0 and shown.stdout.splitlines()[-1] == lines[-2]


def test_library_example_plays_a_game() -> None:
    r = run(sys.executable, str(ROOT / "examples" / "library_game.py"), "2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("after ") and re.fullmatch(r"\d+ turns played", lines[1])
    ranks = [int(line.split(".")[0]) for line in lines[2:5]]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert lines[-1].startswith('JSON state: {"edition":"standard"')


def test_imhotep_tournament_example_runs_from_a_checkout(tmp_path) -> None:
    """examples/imhotep.toml: 3 seats, 2 deals in every seating, variant ABAAB; the
    standings show Imhotep's points and sled, and every game replays."""
    records = tmp_path / "imhotep.records"
    r = run(sys.executable, "-m", "sneferu_cli", "tournament", "examples/imhotep.toml",
            "--records", str(records))
    assert r.returncode == 0, r.stderr
    table = r.stdout[r.stdout.index("#  engine"):]
    assert table.split()[6:8] == ["points", "sled"]
    text = records.read_text()
    assert text.count("[Game imhotep]") == 6 == text.count("[Variant ABAAB]")
    replay = run(sys.executable, "-m", "sneferu_cli", "replay", str(records))
    assert replay.returncode == 0 and replay.stdout.count(": verified") == 6, replay.stdout


def test_openspiel_mcts_example_enters_a_tournament(tmp_path) -> None:
    """examples/openspiel_mcts.toml: OpenSpiel's MCTSBot (examples/openspiel_mcts_policy.py,
    through the bundled engine policy) against greedy in Imhotep, 2 games; the standings
    name both, there is no fault, and every game replays."""
    records = tmp_path / "mcts.records"
    r = run(sys.executable, "-m", "sneferu_cli", "tournament", "examples/openspiel_mcts.toml",
            "--records", str(records))
    assert r.returncode == 0, r.stderr
    table = r.stdout[r.stdout.index("#  engine"):].splitlines()
    assert sorted(line.split()[1] for line in table[1:3]) == ["greedy", "openspiel-mcts"]
    assert all(line.split()[-1] == "-" for line in table[1:3])  # no faults
    text = records.read_text()
    assert text.count("[Game imhotep]") == 2 and "openspiel-mcts" in text
    replay = run(sys.executable, "-m", "sneferu_cli", "replay", str(records))
    assert replay.returncode == 0 and replay.stdout.count(": verified") == 2, replay.stdout


def test_openspiel_mcts_example_plays_one_game() -> None:
    """The example's one-game command (its docstring): sneferu play with the option."""
    r = run(sys.executable, "-m", "sneferu_cli", "play", "policy", "greedy", "--game",
            "imhotep", "--seed", "5", "--movetime", "5000", "-o",
            "1:Policy=examples/openspiel_mcts_policy.py:choose")
    assert r.returncode == 0, r.stderr
    assert "Game over after" in r.stdout and "retired" not in r.stdout


@pytest.mark.parametrize("seat", [1, 3])
def test_openspiel_mcts_example_plays_silver_gold_in_any_seat(seat: int) -> None:
    """In a game with hidden information and sealed moves the example searches a state
    drawn from its seat's view (it used to crash: the view's hidden cards left empty, and
    a seat above the first could not be rebuilt)."""
    engines = ["random", "random", "random"]
    engines[seat - 1] = "policy"
    r = run(sys.executable, "-m", "sneferu_cli", "play", *engines, "--game", "silver-gold",
            "--seed", "4", "--movetime", "5000", "-o",
            f"{seat}:Policy=examples/openspiel_mcts_policy.py:choose")
    assert r.returncode == 0, r.stderr
    assert "Game over after" in r.stdout and "retired" not in r.stdout, r.stdout


def test_node_client_plays_a_whole_game_over_websocket() -> None:
    """The same client against ``sneferu serve --listen`` (SPEC.md 10.12): its WebSocket
    is written from RFC 6455 alone, with no library."""
    server = subprocess.Popen([sys.executable, "-m", "sneferu_cli", "serve", "--listen", "0",
                               "--json"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        address = re.search(r"ws://127\.0\.0\.1:\d+", first)
        assert address, first
        r = run(require_program(NODE, "Node.js"), str(ROOT / "examples" / "node_client.js"),
                address[0])
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[0].startswith("as expected, play: ")
        assert re.fullmatch(r"\d+ turns played, the game is over", lines[1])
        assert all(re.fullmatch(r"\d\. seat \d: \d+ stones, \d+ food", x) for x in lines[2:])
        again = run(NODE, str(ROOT / "examples" / "node_client.js"), address[0])
        assert again.returncode == 0, again.stderr  # the server serves on
    finally:
        server.terminate()
        server.wait(timeout=TIMEOUT)


def test_the_ladder_reference_pool_is_a_valid_tournament_file() -> None:
    """examples/ladder_reference.toml: random (held at 0 by a ladder) and the bundled
    engines at fixed budgets, so that its ratings do not depend on the machine's load."""
    from sneferu_cli.tournament.config import load_config

    cfg = load_config(ROOT / "examples" / "ladder_reference.toml")
    names = [e.name for e in cfg.engines]
    assert "random" in names and "greedy" in names
    for e in cfg.engines:
        if e.command == ["mcts"]:
            assert e.budget is not None and e.budget.startswith("iterations ")
            assert e.name == f"mcts-{e.budget.split()[1]}"
            # the plain search its ratings were calibrated with (SPEC 11.4)
            assert dict(e.options) == {"Guided": "false", "Horizon": "4"}


def test_train_imhotep_example_trains_saves_and_enters_a_tournament(tmp_path) -> None:
    """examples/train_imhotep.py with a tiny budget: it trains on the vectorized
    environment (a few games end, so the policy is updated), saves weights that
    examples/imhotep_policy.py plays, and its tournament against random and greedy (one
    deal: 4 games) has no fault and replays."""
    import numpy as np

    weights, records = tmp_path / "w.npz", tmp_path / "t.records"
    r = run(sys.executable, str(ROOT / "examples" / "train_imhotep.py"), "--steps", "6000",
            "--envs", "16", "--batch", "512", "--deals", "1", "--out", str(weights),
            "--records", str(records))
    assert r.returncode == 0, r.stderr
    trained = re.search(r"^trained: 6,000 steps in .* steps/s\), (\d+) games, 16 "
                        r"environments$", r.stdout, re.MULTILINE)
    assert trained is not None and int(trained[1]) > 0, r.stdout
    with np.load(weights) as saved:
        assert saved["W"].shape == (216, 1429) and np.abs(saved["W"]).sum() > 0
    head = r.stdout[r.stdout.index("head to head"):].splitlines()
    assert head[2].split()[0] == "greedy" and head[3].split()[0] == "trained"
    table = r.stdout[r.stdout.index("#  engine"):].splitlines()
    assert sorted(line.split()[1] for line in table[1:4]) == ["greedy", "random", "trained"]
    assert all(line.split()[-1] == "-" for line in table[1:4])  # no faults
    text = records.read_text()
    assert text.count("[Game imhotep]") == 4 and text.count("trained") >= 4
    replay = run(sys.executable, "-m", "sneferu_cli", "replay", str(records))
    assert replay.returncode == 0 and replay.stdout.count(": verified") == 4, replay.stdout
