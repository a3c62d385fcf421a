"""The bindings' fast per-step path (``sneferu_cli/rl/core.py``, compiled in the real build)
against the plain one, at every step of random games of every game with an action
encoding (SPEC 16): the PettingZoo environment's observations, masks, rewards and
terminations, and the OpenSpiel binding's current player, legal actions, terminal flag and
observation tensors, each compared with what the game interface gives directly (the
observation made from scratch, the legal ids mapped from each legal move's text by
``Encoding.action_ids``, the returns from the ranking). The compiled module imports
without PettingZoo and OpenSpiel."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest

import sneferu_cli.rl.openspiel as spiel
from sneferu_cli.game import Encoding, get_game
from sneferu_cli.rl import encoded_games, observation, returns
from sneferu_cli.rl.core import Decision, legal_ids
from sneferu_cli.rl.pettingzoo import env

ENCODED = [g.name for g in encoded_games()]
SET_UPS = [(g.name, n) for g in encoded_games() for n in (2, 4) if n in g.players]


def plain_legal(encoding: Encoding, state: Any, seat: int, chosen: tuple[int, ...]
                ) -> list[int]:
    """The ids that may come next after ``chosen``, from each legal move's text."""
    k = len(chosen)
    ids = [encoding.action_ids(m) for m in encoding.game.legal_moves(state, seat)]
    return sorted({i[k] for i in ids if i[:k] == chosen})


def plain_mask(encoding: Encoding, state: Any, seat: int, chosen: tuple[int, ...]
               ) -> np.ndarray:
    mask = np.zeros(encoding.actions, np.int8)
    if not state.is_over():
        mask[plain_legal(encoding, state, seat, chosen)] = 1
    return mask


@pytest.mark.parametrize(("name", "players"), SET_UPS)
def test_pettingzoo_steps_as_the_plain_path(name: str, players: int) -> None:
    """At every step of a random game: every agent's observation and mask are those made
    from scratch (its game tensor and the parts it has chosen; the ids of the legal moves'
    texts), every reward and cumulative reward is 0 and nobody is terminated until the
    step that ends the game, which gives every agent its return from the ranking."""
    e = env(game=name, players=players)
    e.reset(seed=11)
    encoding = e.encoding
    rng = random.Random(11)
    steps = ended = 0
    for agent in e.agent_iter():
        if e.terminations[agent]:
            assert e.state.is_over()
            if not ended:  # the step that ended the game: then each leaves in turn
                wanted = dict(zip(e.possible_agents, returns(encoding, e.state),
                                  strict=True))
                assert e.rewards == e._cumulative_rewards == wanted
            ended += 1
            e.step(None)
            continue
        assert not e.state.is_over()
        assert e.rewards == e._cumulative_rewards == {a: 0.0 for a in e.agents}
        assert not any(e.terminations.values()) and not any(e.truncations.values())
        decision = e.decision
        assert decision is not None and agent == e.possible_agents[decision.seat]
        for seat, other in enumerate(e.possible_agents):
            chosen = decision.chosen if seat == decision.seat else ()
            seen = e.observe(other)
            fresh = np.asarray(observation(encoding, e.state, seat, chosen), np.float32)
            assert np.array_equal(seen["observation"].ravel(), fresh)
            assert np.array_equal(seen["action_mask"],
                                  plain_mask(encoding, e.state, seat, chosen))
        legal = plain_legal(encoding, e.state, decision.seat, decision.chosen)
        assert decision.legal_actions() == legal
        e.step(rng.choice(legal))
        steps += 1
    assert steps and ended == players and not e.agents


@pytest.mark.parametrize("name", ENCODED)
def test_openspiel_steps_as_the_plain_path(name: str) -> None:
    """At every step of a random game of 2 seats: the current player, the terminal flag
    (kept answers) and the legal actions are those of the game's state and its legal
    moves' texts, and each seat's observation tensor the one made from scratch."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    state = game.new_initial_state()
    encoding = state.encoding
    rng = random.Random(5)
    steps = 0
    while True:
        inner = state.state
        assert state.is_terminal() == inner.is_over()
        if inner.is_over():
            assert state.current_player() == pyspiel.PlayerId.TERMINAL
            assert state.returns() == returns(encoding, inner)
            break
        if inner.is_chance_node():
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat = int(inner.current_seat())
        assert state.current_player() == seat
        chosen = state.decision.chosen if state.decision is not None else ()
        assert state.legal_actions() == plain_legal(encoding, inner, seat, chosen)
        for other in range(2):
            mine = chosen if other == seat else ()
            fresh = np.asarray(observation(encoding, inner, other, mine), np.float32)
            assert np.array_equal(np.asarray(state.observation_tensor(other), np.float32),
                                  fresh)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps


@pytest.mark.parametrize("name", ENCODED)
def test_decision_chooses_as_the_plain_path(name: str) -> None:
    """A decision's legal ids (the game's own list, or the texts' looked up in compiled
    code and kept) and its choices part by part are those of the legal moves' texts, and a
    copy (OpenSpiel's clone) goes on alike; the move is applied once its last part is in."""
    game = get_game(name)
    encoding = game.learning().encoding(2)
    rng = random.Random(7)
    state = game.new_game(2)
    moves = 0
    while not state.is_over() and moves < 60:
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        seat = rng.choice(game.deciding_seats(state))
        texts = game.legal_moves(state, seat)
        assert legal_ids(encoding, state, seat, texts) == [encoding.action_ids(m)
                                                           for m in texts]
        decision = Decision(encoding, state, seat)
        move = None
        while move is None:
            legal = plain_legal(encoding, state, seat, decision.chosen)
            assert decision.legal_actions() == legal
            copy = decision.__deepcopy__({})
            action = rng.choice(legal)
            move = decision.choose(action)
            assert copy.choose(action) == move and copy.chosen == decision.chosen
        assert move in texts
        game.apply_move(state, move, seat, listed=True)
        moves += 1
    assert moves


def test_compiled_core_imports_without_pettingzoo_or_openspiel() -> None:
    """The compiled per-step module needs neither library: the binding classes that
    subclass theirs stay outside it."""
    code = ("import sys, sneferu_cli.rl.core; "
            "print(sorted(m for m in ('pettingzoo', 'pyspiel', 'gymnasium') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
