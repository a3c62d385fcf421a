"""Imhotep's estimate (games/imhotep/heuristic.py, ``GAME.evaluate``): points now, the
final scoring as it stands (section 11), visible temple stones (6.2), stones on ships and
sleds; and the greedy engine's choice by it, through the real protocol."""

from __future__ import annotations

import subprocess
import sys

import pytest
from imhotep.helpers import K, W, fill, put, start
from support import ROOT

from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.heuristic import LOADED, SLED, values


def test_a_new_game_is_worth_its_sled_stones():
    """I2: the start player has 2 stones on the sled, the next 3."""
    state = start(2)
    assert values(state) == pytest.approx([2 * SLED, 3 * SLED])
    assert GAME.evaluate(state) == values(state)


def test_stones_count_on_ships_and_sites_by_the_final_scoring():
    state = start(2)
    put(state, "4A", K, W, W)
    assert values(state) == pytest.approx([2 * SLED + LOADED, 3 * SLED + 2 * LOADED])
    fill(state, state.chamber, W, W)  # a chamber group of 2: 3 points (6.4, side A)
    state.obelisks[K] = 1  # obelisks, 2 players: first 10; no stone there, no points (6.5)
    state.quarries[K] -= 1
    assert values(state) == pytest.approx([2 * SLED + LOADED + 10, 3 * SLED + 2 * LOADED + 3])


def test_visible_temple_stones_score_at_coming_round_ends():
    """6.2, I11: of a temple 4 wide in a 2-player game, the last 4 stones are seen from
    above; each scores 1 point at a round end (counted for 1.5 round ends)."""
    state = start(2)
    fill(state, state.temple, K, W, W, W, K)  # the first black stone is covered
    assert values(state) == pytest.approx([2 * SLED + 1.5, 3 * SLED + 4.5])


def test_a_finished_game_is_worth_its_scores():
    state = start(2)
    state.scores = [40, 38]
    state.finished = True
    state.todo.clear()
    assert state.is_over() and values(state) == [40.0, 38.0]


def test_greedy_sails_for_the_obelisk_majority_through_the_protocol():
    """The greedy engine (engines/greedy_player.py) plays the best-valued move: with a
    ship of two black stones ready and no obelisk stone anywhere, the obelisks' first
    place (10 points, 6.5) beats the pyramid's first two places (2 + 1), the chamber's
    group of 2 (3), the temple (1 a round end) and loading or taking stones."""
    state = start(2)
    put(state, "2A", K, K)
    position = GAME.to_position(state)
    engine = subprocess.run(
        [sys.executable, str(ROOT / "engines" / "greedy_player.py")],
        input=("sneferu 1\nnewgame players 2 seat 1 variant AAAAA edition standard "
               f"game imhotep\nposition {position}\ngo movetime 5000\nquit\n"),
        capture_output=True, text=True, timeout=60)
    assert engine.returncode == 0, engine.stderr
    assert engine.stdout.splitlines()[-1] == "move S 2A O"
