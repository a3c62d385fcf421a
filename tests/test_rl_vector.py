"""The vectorized environment (SPEC 16.6, :mod:`sneferu_cli.rl.vector`), for every set-up
of every game with an action encoding: its rows are the PettingZoo environment's (same
draws, same actions) with masks equal to the legal moves' ids, it autoresets at the end
of a game with every seat's return, it is the same for a seed whatever its workers, its
workers leave no process on close, and a worker's death is a one-line error."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from support import ROOT, children

from sneferu_cli.game import get_game
from sneferu_cli.rl import encoded_games, observation, returns
from sneferu_cli.rl.pettingzoo import env
from sneferu_cli.rl.vector import WorkerError, vector_env

PACKAGE = [g.name for g in encoded_games()][:4]
SET_UPS = [(name, n) for name in PACKAGE for n in get_game(name).players]


def random_actions(mask: Any, rng: random.Random) -> Any:
    """One legal action id per row of ``mask``, drawn uniformly."""
    return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask])


@pytest.mark.parametrize(("name", "players"), SET_UPS)
def test_rows_are_the_pettingzoo_environment_and_reset_at_game_end(name: str,
                                                                    players: int) -> None:
    """Two environments in two workers played until each has ended a game and made some
    steps of the next: at every step each row (seat, observation, mask) is that of a
    PettingZoo environment drawing from the same generator (``(seed, i)``) and given the
    same actions, each mask at the start of a move is the ids of the seat's legal moves,
    and the step that ends a game has every seat's return and the next game's first
    decision."""
    game = get_game(name)
    seed, n = 7, 2
    rng = random.Random(seed)
    shadows = []
    for i in range(n):
        shadow = env(game=name, players=players)
        shadow._rng = random.Random(f"{seed}/{i}")  # the vector's generator of environment i
        shadow.reset()
        shadows.append(shadow)
    ended = [0] * n
    after = [0] * n
    with vector_env(game=name, players=players, num_envs=n, workers=2) as v:
        assert len(v.processes) == 2
        obs, infos = v.reset(seed=seed)
        rewards = terminations = None
        while min(after) < 3:
            for i, shadow in enumerate(shadows):
                if terminations is not None and terminations[i]:
                    seats = shadow.possible_agents
                    assert all(shadow.terminations[a] for a in seats)
                    assert rewards[i].tolist() == returns(shadow.encoding, shadow.state)
                    assert rewards[i].tolist() == [shadow.rewards[a] for a in seats]
                    ended[i] += 1
                    shadow.reset()
                else:
                    assert rewards is None or not rewards[i].any()
                agent = shadow.agent_selection
                assert infos["seat"][i] == shadow.possible_agents.index(agent)
                seen = shadow.observe(agent)
                assert np.array_equal(obs["observation"][i], seen["observation"].ravel())
                fresh = observation(shadow.encoding, shadow.state, int(infos["seat"][i]),
                                    shadow.decision.chosen)  # not kept from a part before
                assert np.array_equal(obs["observation"][i], np.asarray(fresh, np.float32))
                assert np.array_equal(obs["action_mask"][i], seen["action_mask"])
                if not shadow.decision.chosen:
                    legal = {shadow.encoding.action_ids(m)[0]
                             for m in game.legal_moves(shadow.state, int(infos["seat"][i]))}
                    assert set(np.flatnonzero(obs["action_mask"][i]).tolist()) == legal
                after[i] += ended[i] > 0
            actions = random_actions(obs["action_mask"], rng)
            for shadow, action in zip(shadows, actions, strict=True):
                shadow.step(int(action))
            obs, rewards, terminations, truncations, infos = v.step(actions)
            assert rewards.shape == (n, players) and rewards.dtype == np.float64
            assert not truncations.any()
    assert all(p.exitcode == 0 for p in v.processes)


def play(name: str, players: int, seed: int, workers: int, steps: int,
         copy: bool = True) -> list[Any]:
    """Everything a vector environment of 3 games returns over ``steps`` random steps
    (copied here when the environment returns views)."""
    rng = random.Random(seed)
    seen: list[Any] = []
    with vector_env(game=name, players=players, num_envs=3, workers=workers,
                    copy=copy) as v:
        obs, infos = v.reset(seed=seed)
        for _ in range(steps):
            seen += [np.array(obs["observation"]), np.array(obs["action_mask"]),
                     np.array(infos["seat"])]
            obs, rewards, terminations, _, infos = v.step(random_actions(obs["action_mask"],
                                                                         rng))
            seen += [np.array(rewards), np.array(terminations)]
            assert obs["observation"].flags.writeable == copy
    return seen


def same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("name", PACKAGE)
def test_deterministic_for_a_seed_whatever_the_workers(name: str) -> None:
    players = get_game(name).players[-1]
    first = play(name, players, 11, 2, 30)
    assert same(first, play(name, players, 11, 2, 30))
    assert same(first, play(name, players, 11, 0, 30))  # in this process
    assert same(first, play(name, players, 11, 3, 30))  # one worker per environment
    assert same(first, play(name, players, 11, 2, 30, copy=False))  # views, read-only
    assert not same(first, play(name, players, 12, 2, 30))


def test_workers_leave_no_process_on_close() -> None:
    v = vector_env(game="imhotep", num_envs=4, workers=2)
    v.reset(seed=1)
    pids = {p.pid for p in v.processes}
    assert len(pids) == 2 and pids <= set(children(os.getpid()))
    v.close()
    assert not pids & set(children(os.getpid()))  # none left, not even a zombie
    v.close()  # twice: nothing more
    with pytest.raises(ValueError, match=r"^the vector environment is closed$"):
        v.reset(seed=1)


def test_a_dead_worker_is_a_clear_error_and_closes_the_rest() -> None:
    v = vector_env(game="imhotep", num_envs=4, workers=2)
    obs, _ = v.reset(seed=1)
    victim, other = v.processes
    assert victim.pid is not None and other.pid is not None
    os.kill(victim.pid, signal.SIGKILL)
    with pytest.raises(WorkerError, match=r"^vector environment closed: worker 1 "
                                          r"\(environments 0 to 1\) was killed by signal 9$"):
        v.step(random_actions(obs["action_mask"], random.Random(1)))
    assert v.closed and not {victim.pid, other.pid} & set(children(os.getpid()))


def test_bad_actions_and_set_ups_are_one_line_errors_and_change_nothing() -> None:
    with vector_env(game="imhotep", num_envs=2, workers=0) as v:
        obs, _ = v.reset(seed=3)
        legal = random_actions(obs["action_mask"], random.Random(3))
        illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        name = v.encoding.moves[illegal]
        with pytest.raises(ValueError, match=rf"^environment 1: action {illegal} "
                                             rf"\({re.escape(name)}\) is not legal now$"):
            v.step([legal[0], illegal])
        with pytest.raises(ValueError, match=r"^environment 0: action 1429, not an action "
                                             r"id is not legal now$"):
            v.step([1429, legal[1]])
        with pytest.raises(ValueError, match=r"^actions: action ids are integers, "
                                             r"not float64$"):
            v.step(legal.astype(float))
        with pytest.raises(ValueError, match=r"^actions: 2 action ids expected, one per "
                                             r"environment, not an array of shape \(3,\)$"):
            v.step([0, 0, 0])
        again, *_ = v.step(legal)  # nothing moved before
    with vector_env(game="imhotep", num_envs=2, workers=0) as w:
        w.reset(seed=3)
        assert np.array_equal(w.step(legal)[0]["observation"], again["observation"])
    for kwargs, message in (({"players": 7}, "Imhotep is for 2 to 4 players, not 7"),
                            ({"variant": "x"}, "Imhotep has no variant 'x'"),
                            ({"num_envs": 0}, "num_envs must be at least 1, not 0"),
                            ({"workers": 5, "num_envs": 4},
                             r"workers must be 0 to num_envs \(4\), not 5")):
        with pytest.raises(ValueError, match=f"^{message}$"):
            vector_env(game="imhotep", **kwargs)


def test_a_worker_whose_game_raises_is_a_clear_error() -> None:
    """A game registered in this process only is unknown to a worker started fresh
    (``spawn``): its error comes back as the worker's, in one line, and closes the rest."""
    import sealed_rl_game

    sealed_rl_game.register()
    v = vector_env(game="sealed-rl", num_envs=3, workers=2, context="spawn")
    with pytest.raises(WorkerError) as caught:
        v.reset(seed=1)
    assert str(caught.value) == (
        "vector environment closed: worker 1 (environments 0 to 0): UnknownGame: unknown "
        "game 'sealed-rl' (known: sneferu, imhotep, silver-gold, akropolis)")
    assert v.closed and all(not p.is_alive() for p in v.processes)


def test_learning_page_example() -> None:
    """docs/learning.md's example of the vectorized environment runs as written (a real
    subprocess, its workers included)."""
    page = (ROOT / "docs" / "learning.md").read_text()
    (code,) = [c for c in re.findall(r"```python\n(.*?)```", page, re.S) if "vector_env" in c]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert re.fullmatch(r"\(64, 216\) \(64, 2\) \[[01] [01] [01] [01]\]\n", out), out
