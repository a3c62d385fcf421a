"""Policy functions for the bundled ``policy`` engine's tests (engines/policy_player.py,
SPEC 16.4): given as ``Policy=tests/policies.py:NAME``."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from sneferu_cli.game import seat_view

NOT_A_FUNCTION = 3
MOVETIME = 20.0
"""The seconds a move the tests that use ``checked`` give (``--movetime 20000``)."""
deadlines: dict[tuple[int, str], float] = {}
"""The ``deadline`` given at each decision (seat and position) so far."""


def uniform(observation: np.ndarray, mask: np.ndarray, *, rng: random.Random) -> int:
    """A legal action id at random (repeatable: ``rng`` is reseeded by ``Seed``)."""
    return int(rng.choice(np.flatnonzero(mask)))


def first(observation: np.ndarray, mask: np.ndarray) -> Any:
    """The lowest legal action id, as numpy gives it (an ``np.int64``)."""
    return np.flatnonzero(mask)[0]


def raises(observation: np.ndarray, mask: np.ndarray) -> int:
    raise RuntimeError("the network is not trained yet")


def out_of_range(observation: np.ndarray, mask: np.ndarray) -> int:
    return len(mask)


def illegal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def text(observation: np.ndarray, mask: np.ndarray) -> str:
    return "Q"


def checked(observation: np.ndarray, mask: np.ndarray, *, game: Any, state: Any,
            position: str, seat: int, encoding: Any, rng: random.Random,
            parts: tuple[int, ...], deadline: float) -> int:
    """A legal id at random, once what the engine gives is checked against the game (an
    AssertionError is a crash fault the test sees); ``deadline`` is 80% of the movetime
    less the default ``Overhead`` (40 ms) after the ``go`` at the latest, the same for
    every part of a move."""
    assert isinstance(deadline, float)
    assert deadline - time.perf_counter() <= MOVETIME * 0.8 - 0.04
    assert deadlines.setdefault((seat, position), deadline) == deadline
    assert observation.dtype == np.float32 and mask.dtype == np.int8
    assert seat in game.deciding_seats(state) and position == game.to_position(state)
    seen = game.from_position(seat_view(game, state, seat))  # what the seat may know, alone
    tensor = list(game.learning().observation(seen, seat))
    if encoding.max_parts > 1:  # then the parts chosen so far: a slot each, 1 and the bits
        bits = (encoding.actions - 1).bit_length()
        for k in range(encoding.max_parts - 1):
            tensor += ([1.0, *(float(parts[k] >> b & 1) for b in range(bits))]
                       if k < len(parts) else [0.0] * (1 + bits))
    assert observation.tolist() == np.asarray(tensor, np.float32).tolist()
    assert len(mask) == encoding.actions
    moves = [encoding.action_ids(m) for m in game.legal_moves(state, seat)]
    legal = {ids[len(parts)] for ids in moves if ids[:len(parts)] == parts}
    assert set(np.flatnonzero(mask).tolist()) == legal
    if game.name == "sealed-parts":  # a bid as its tens, then its units
        assert {encoding.moves[a].split()[0] for a in legal} == {"units" if parts else "tens"}
    return int(rng.choice(sorted(legal)))


def keywords(observation: np.ndarray, mask: np.ndarray, **context: Any) -> int:
    """Gets every keyword (``**``): the lowest legal id once they are all there."""
    assert sorted(context) == ["deadline", "encoding", "game", "parts", "position", "rng",
                               "seat", "state"]
    return int(np.flatnonzero(mask)[0])


print("tests/policies.py imported")  # to standard error, as the engine runs it


def chatty(observation: np.ndarray, mask: np.ndarray) -> int:
    """Prints while it chooses: the engine keeps that off the protocol."""
    print("thinking about", int(mask.sum()), "ids")
    return int(np.flatnonzero(mask)[0])


def array(observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Two ids instead of one."""
    return np.array([[1, 2], [3, 4]])  # its repr holds a new line
