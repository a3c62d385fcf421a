"""Every bundled engine plays every game the package registers, through the real protocol:
each declares them all (``feature games``), and a whole game of each, against the bundled
``random``, is played by ``sneferu play`` without a fault and replays."""

from __future__ import annotations

import pytest
from support import require_program, run_cli

from sneferu_cli.arbiter.bundled import BUNDLED, engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.game import GAMES, game_names
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import read_records

NAMES = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.")]
"""The package's games (not a test-only one another module registers)."""


@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_every_bundled_engine_declares_every_game(engine):
    if BUNDLED[engine][0] == "node":
        require_program("node", "Node.js")
    (started,) = Engine.start_all([Engine(engine_command(engine), name=engine)])
    try:
        assert started.fault is None
        assert set(started.games) == set(NAMES)
    finally:
        Engine.quit_all([started])


@pytest.mark.parametrize("game", NAMES)
@pytest.mark.parametrize("engine", sorted(BUNDLED))
def test_every_bundled_engine_plays_a_whole_game(tmp_path, engine, game):
    if BUNDLED[engine][0] == "node":
        require_program("node", "Node.js")
    rec = tmp_path / "g.rec"
    search = ["-o", "1:Iterations=8"] if engine == "mcts" else []  # short and repeatable
    r = run_cli("play", engine, "random", "--game", game, "--seed", "3", "--movetime", "20000",
                *search, "--record", str(rec), timeout=300)
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    header = entry.record.header
    assert (header.game, header.termination, header.faults) == (game, "normal", [])
    assert any(isinstance(e, Turn) and e.seat == 1 for e in entry.record.events)
    assert run_cli("replay", str(rec)).returncode == 0
