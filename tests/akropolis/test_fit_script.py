"""scripts/fit_akropolis_value.py: the games it records (``play``, between any engines of
``scripts/duel.py``) and the pairs of seats its margin fit compares (``fit --margin``)."""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import numpy as np
from support import ROOT

from sneferu_cli.games.akropolis.heuristic import FEATURES

FOUND = importlib.util.spec_from_file_location("fit_akropolis_value",
                                               ROOT / "scripts" / "fit_akropolis_value.py")
assert FOUND is not None and FOUND.loader is not None
fit: Any = importlib.util.module_from_spec(FOUND)
FOUND.loader.exec_module(fit)


def test_the_pairs_of_seats_of_each_decision():
    """A decision's rows are consecutive, one a seat (column 1: the seats): a 2-seat
    decision gives one pair, a 3-seat one three."""
    rows = np.zeros((5, 3))
    rows[:2, 1] = 2
    rows[2:, 1] = 3
    first, second = fit.pairs(rows)
    assert first.tolist() == [0, 2, 2, 3]
    assert second.tolist() == [1, 3, 4, 4]


def test_a_game_between_engines_records_every_seat_at_every_decision():
    """Two greedy engines: every decision records both seats' features, each row ending
    with the seat's score then, the plain estimate's gain and its final score (8.4)."""
    rows = fit.play_game(2, random.Random(1), 0.0, 7, ["greedy"])
    n = len(FEATURES)
    assert len(rows) % 2 == 0 and len(rows) > 20
    assert {len(r) for r in rows} == {n + 5}
    assert {(r[0], r[1]) for r in rows} == {(7.0, 2.0)}
    finals = [rows[-2][-1], rows[-1][-1]]
    assert all(r[-1] == finals[k % 2] for k, r in enumerate(rows))
    assert rows[0][2] == 1.0  # left: no tile placed yet
    assert [r[2 + n] for r in rows[:2]] == [1.0, 2.0]  # the starting stones (4.6)
