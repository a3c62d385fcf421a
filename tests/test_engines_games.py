"""Every bundled engine plays every game the package registers, through the real protocol:
each declares them all (``feature games``), and a whole game of each, against the bundled
``random``, is played by ``sneferu play`` without a fault and replays. ``policy`` plays the
games with an action encoding (a policy function's action ids, SPEC 16.4) and is refused
in the others."""

from __future__ import annotations

import pytest
from support import ROOT, require_program, run_cli

from sneferu_cli.arbiter.bundled import BUNDLED, engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.game import GAMES, game_names
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import read_records
from sneferu_cli.rl import encoded_games

NAMES = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.")]
"""The package's games (not a test-only one another module registers)."""
ENCODED = [g.name for g in encoded_games() if g.name in NAMES]
"""Those with an action encoding: the games of the bundled ``policy``."""
POLICY = f"Policy={ROOT / 'tests' / 'policies.py'}:uniform"


@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_every_bundled_engine_declares_every_game(engine):
    if BUNDLED[engine][0] == "node":
        require_program("node", "Node.js")
    (started,) = Engine.start_all([Engine(engine_command(engine), name=engine)])
    try:
        assert started.fault is None
        assert set(started.games) == set(ENCODED if engine == "policy" else NAMES)
    finally:
        Engine.quit_all([started])


@pytest.mark.parametrize("game", NAMES)
@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_every_bundled_engine_plays_a_whole_game(tmp_path, engine, game):
    if BUNDLED[engine][0] == "node":
        require_program("node", "Node.js")
    rec = tmp_path / "g.rec"
    search = ["-o", "1:Iterations=8"] if engine == "mcts" else []  # short and repeatable
    if engine == "policy":
        search = ["-o", f"1:{POLICY}"]
        if game not in ENCODED:
            r = run_cli("play", engine, "random", "--game", game, *search)
            assert r.returncode == 2 and f"engine 'policy' does not play {game}" in r.stderr
            return
    r = run_cli("play", engine, "random", "--game", game, "--seed", "3", "--movetime", "20000",
                *search, "--record", str(rec), timeout=300)
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    header = entry.record.header
    assert (header.game, header.termination, header.faults) == (game, "normal", [])
    assert any(isinstance(e, Turn) and e.seat == 1 for e in entry.record.events)
    assert run_cli("replay", str(rec)).returncode == 0
