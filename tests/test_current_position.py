"""``feature currentposition`` (SPEC 6.4): an engine that knows no rules gets, before
every ``go`` and before ``gameover``, the position as it stands in the game's position
notation, with no events (its seat's view where the game hides things); in every registered
game, with a real subprocess engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import ROOT, run_cli

from sneferu_cli.game import GAMES, game_names, get_game, seat_view
from sneferu_cli.record import parse_records
from sneferu_cli.record.model import TurnEvent, seat_turns
from sneferu_cli.record.replay import position_at
from sneferu_cli.record.text import GameEntry

SHIPPED = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.games.")]
"""The package's games (not the test-only Nim other tests register: the command line
does not know it)."""
ENGINE = ROOT / "tests" / "engines" / "current.py"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_go_is_preceded_by_the_position_as_it_stands(tmp_path: Path, name: str
                                                           ) -> None:
    log = tmp_path / "positions.txt"
    command = f"{sys.executable} {ENGINE} {log} {' '.join(SHIPPED)}"
    out = run_cli("play", command, "random", "--game", name, "--seed", "3", "--record",
                  str(tmp_path / "g.rec"), timeout=120)
    assert out.returncode == 0, out.stderr
    (record,) = parse_records((tmp_path / "g.rec").read_text())
    assert not record.header.faults
    game = get_game(name)
    edition = game.standard_edition()
    turns = [e for e in record.events if isinstance(e, TurnEvent)]
    # the position before each turn of seat 1 (alone, or in a simultaneous step): after
    # the turns before it and their draws, as seat 1 may see it (Game.view)
    expected = [f"position {seat_view(game, position_at(GameEntry(record), k, edition), 0)}"
                for k, t in enumerate(turns) if any(m.seat == 1 for m in seat_turns(t))]
    final = seat_view(game, position_at(GameEntry(record), -1, edition), 0)
    lines = log.read_text().splitlines()
    assert lines[:-2] == expected
    assert lines[-2:] == [f"position {final}", "gameover ranks " + " ".join(
        str(r.rank) for r in record.header.result)]
    assert len(expected) > 5 and all(" moves " not in line for line in lines)
