"""OpenSpiel's MCTS bot in a sneferu tournament, through the bundled ``policy`` engine
(SPEC 16.4; the ``rl`` extra). From a checkout:

    sneferu tournament examples/openspiel_mcts.toml

plays it against ``greedy`` in Imhotep (records in ``openspiel_mcts.records``, then the
standings), or one game:

    sneferu play policy greedy --game imhotep -o 1:Policy=examples/openspiel_mcts_policy.py:choose

The engine calls :func:`choose` at each decision of its seat; the position it was sent
becomes an OpenSpiel state of the ``sneferu_imhotep`` game (``spiel_state``; in a game with
hidden information one drawn from the seat's view) in which ``MCTSBot`` searches with
random rollouts, seeded from the engine's ``Seed`` (so a
tournament's game repeats).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from sneferu_cli.game import Game
from sneferu_cli.rl.openspiel import spiel_state

SIMULATIONS = 12
"""Simulations a move: few, so the example runs in seconds; strength needs hundreds."""
ROLLOUTS = 1
UCT = 2.0


def choose(observation: np.ndarray, mask: np.ndarray, *, game: Game, position: str,
           seat: int, parts: tuple[int, ...], rng: random.Random) -> int:
    """The action id MCTSBot chooses in ``position``, the seat's view (one of those
    ``mask`` allows; in a game whose moves come in parts, the next part after ``parts``).
    In a game with hidden information it searches one state drawn from what the seat
    knows (``spiel_state(..., seat=)``), never the truth."""
    state = spiel_state(game.name, position, parts, seat=seat, rng=rng)
    seeded = np.random.RandomState(rng.randrange(2**31))
    bot: Any = mcts.MCTSBot(state.get_game(), UCT, SIMULATIONS,
                            mcts.RandomRolloutEvaluator(ROLLOUTS, seeded),
                            random_state=seeded)
    return int(bot.step(state))
