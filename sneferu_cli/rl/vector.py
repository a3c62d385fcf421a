"""Vectorized environment (SPEC 16.6): :func:`vector_env` steps ``num_envs`` games of one
set-up together, in Gymnasium's vector API, its arrays in shared memory, the games split
over worker processes so that every core works.

>>> from sneferu_cli.rl.vector import vector_env
>>> with vector_env(game="imhotep", players=2, num_envs=4, workers=0) as v:
...     obs, infos = v.reset(seed=1)
...     obs["observation"].shape, obs["action_mask"].shape, infos["seat"].tolist()
((4, 216), (4, 1429), [0, 0, 0, 0])

``reset(seed=)`` returns ``(observations, infos)`` and ``step(actions)`` returns
``(observations, rewards, terminations, truncations, infos)``:

- ``observations`` is a dict of batched arrays, PettingZoo's observation of each game's
  deciding seat: ``observation`` (``(num_envs, size)`` float32, the seat's flattened
  observation tensor, with a factored encoding followed by the parts chosen so far) and
  ``action_mask`` (``(num_envs, actions)`` int8, 1 for each legal action id);
- ``infos["seat"]`` (``(num_envs,)`` int64) is the seat to move in each game (from 0): in
  a turn-based game each environment's current seat acts, and ``actions`` holds one action
  id per environment, that seat's;
- ``rewards`` is ``(num_envs, players)`` float64: 0 except at the step that ends a game,
  where it is every seat's return from the final ranking (:func:`sneferu_cli.rl.returns`);
- ``terminations`` is ``(num_envs,)`` bool, true at the step that ended a game;
  ``truncations`` is all false (every game ends by its rules).

Autoreset is Gymnasium's same-step mode: the step that ends a game starts the next one
and returns its first observation, so every row of every observation is a decision to
take. Chance is resolved inside, each environment drawing from its own generator:
``reset(seed=s)`` seeds environment ``i`` from ``(s, i)``, so the games depend on the
seed alone, not on how many workers step them."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import random
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from . import (
    Decision,
    action_index,
    need,
    observation,
    observation_size,
    returns,
    set_up,
    write_chosen,
)

need("gymnasium", "numpy")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

from ..game import Encoding  # noqa: E402

__all__ = ["SneferuVectorEnv", "WorkerError", "vector_env"]


def vector_env(game: str = "imhotep", players: int | None = None, variant: str | None = None,
               num_envs: int = 16, workers: int | None = None,
               context: str | None = None, copy: bool = True) -> SneferuVectorEnv:
    """``num_envs`` games of ``game`` for ``players`` seats (the game's smallest count by
    default) in ``variant`` (its first by default), stepped by ``workers`` processes (by
    default one per core, at most one per environment; 0 steps them in this process),
    started with the multiprocessing start method ``context`` (the platform's default).
    With ``copy`` false the arrays returned are read-only views of the shared ones,
    overwritten by the next step (Gymnasium's ``copy``). ValueError naming what is
    wrong."""
    return SneferuVectorEnv(game, players, variant, num_envs, workers, context, copy)


class WorkerError(RuntimeError):
    """A worker process died or its game raised: the vector environment is closed."""


class _Arrays:
    """The batched arrays, numpy views of shared memory (or of plain buffers with no
    worker): what the workers write and the parent reads."""

    NAMES = ("obs", "mask", "rewards", "terminations", "seat", "actions", "moves")

    def __init__(self, buffers: dict[str, Any], num_envs: int, size: int, actions: int,
                 players: int) -> None:
        self.buffers = buffers
        self.obs = np.frombuffer(buffers["obs"], np.float32).reshape(num_envs, size)
        self.mask = np.frombuffer(buffers["mask"], np.int8).reshape(num_envs, actions)
        self.rewards = np.frombuffer(buffers["rewards"], np.float64).reshape(num_envs, players)
        self.terminations = np.frombuffer(buffers["terminations"], np.bool_)
        self.seat = np.frombuffer(buffers["seat"], np.int64)
        self.actions = np.frombuffer(buffers["actions"], np.int64)
        self.moves = np.frombuffer(buffers["moves"], np.int64)
        """Moves completed in each environment since it was made (a factored encoding's
        move is several steps)."""


def _buffers(make: Any, num_envs: int, size: int, actions: int, players: int
             ) -> dict[str, Any]:
    """Raw buffers of :class:`_Arrays`' sizes in bytes, each from ``make(bytes)``."""
    sizes = {"obs": num_envs * size * 4, "mask": num_envs * actions,
             "rewards": num_envs * players * 8, "terminations": num_envs,
             "seat": num_envs * 8, "actions": num_envs * 8, "moves": num_envs * 8}
    return {name: make(sizes[name]) for name in _Arrays.NAMES}


class _Games:
    """Environments ``first`` to ``last`` - 1 of the vector: their states, decisions and
    generators, stepped in place on the shared arrays."""

    def __init__(self, encoding: Encoding, arrays: _Arrays, first: int, last: int) -> None:
        self.encoding = encoding
        self.arrays = arrays
        self.range = range(first, last)
        self.states: dict[int, Any] = {}
        self.decisions: dict[int, Decision] = {}
        self.rngs = {i: random.Random() for i in self.range}

    def reset(self, seed: int | None) -> None:
        """New games everywhere; with ``seed``, environment ``i``'s generator seeded from
        ``(seed, i)``."""
        for i in self.range:
            if seed is not None:
                self.rngs[i] = random.Random(f"{seed}/{i}")
            self.arrays.rewards[i] = 0.0
            self.arrays.terminations[i] = False
            self._new_game(i)

    def _new_game(self, i: int) -> None:
        encoding = self.encoding
        self.states[i] = encoding.game.new_game(encoding.players, variant=encoding.variant)
        self._advance(i)

    def _advance(self, i: int) -> None:
        """Resolve chance, then show the deciding seat, or end the game (its returns and
        termination) and start the next one."""
        rules, state, rng = self.encoding.game, self.states[i], self.rngs[i]
        while state.is_chance_node():
            rules.apply_outcome(state, rules.sample_outcome(state, rng))
        if state.is_over():
            self.arrays.rewards[i] = returns(self.encoding, state)
            self.arrays.terminations[i] = True
            self._new_game(i)
            return
        seat = state.current_seat()
        self.decisions[i] = Decision(self.encoding, state, seat)
        self._show(i)

    def _show(self, i: int, whole: bool = True) -> None:
        """Write environment ``i``'s deciding seat, observation and mask; not ``whole``
        after a part of a move: the parts chosen and the mask (the seat and the game's
        tensor are the row's already)."""
        decision = self.decisions[i]
        arrays = self.arrays
        if whole:
            arrays.seat[i] = decision.seat
            observation(self.encoding, self.states[i], decision.seat, decision.chosen,
                        arrays.obs[i])
        else:
            write_chosen(self.encoding, decision.chosen, arrays.obs[i])
        mask = arrays.mask[i]
        mask[:] = 0
        mask[decision.legal_actions()] = 1

    def step(self) -> None:
        """Each environment plays its action id from the shared ``actions`` (legal: the
        parent checked it against the mask)."""
        arrays = self.arrays
        for i in self.range:
            arrays.rewards[i] = 0.0
            arrays.terminations[i] = False
            move = self.decisions[i].choose(int(arrays.actions[i]))
            if move is None:
                self._show(i, whole=False)
                continue
            arrays.moves[i] += 1
            self.encoding.game.apply_move(self.states[i], move, listed=True)
            self._advance(i)


def _worker(connection: multiprocessing.connection.Connection, game: str, players: int,
            variant: str, buffers: dict[str, Any], num_envs: int, first: int, last: int
            ) -> None:
    """A worker process: steps environments ``first`` to ``last`` - 1 on each command of
    ``connection`` (``("reset", seed)``, ``("step", None)``, ``("close", None)``) and
    answers ``("ok", "")``, or ``("error", message)`` and exits when its game raises."""
    try:
        encoding = set_up(game, players, variant)
        arrays = _Arrays(buffers, num_envs, observation_size(encoding), encoding.actions,
                         players)
        games = _Games(encoding, arrays, first, last)
        while True:
            command, seed = connection.recv()
            if command == "close":
                connection.send(("ok", ""))
                return
            if command == "reset":
                games.reset(seed)
            else:
                games.step()
            connection.send(("ok", ""))
    except (EOFError, KeyboardInterrupt):
        return
    except Exception as e:  # said to the parent, which raises it
        connection.send(("error", f"{type(e).__name__}: {e}"))


class SneferuVectorEnv(VectorEnv):
    """``num_envs`` games of one set-up as a Gymnasium vector environment (see the
    module); a context manager that closes it."""

    def __init__(self, game: str, players: int | None, variant: str | None, num_envs: int,
                 workers: int | None, context: str | None, copy: bool = True) -> None:
        encoding = set_up(game, players, variant)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        workers = min(os.cpu_count() or 1, num_envs) if workers is None else workers
        if not 0 <= workers <= num_envs:
            raise ValueError(f"workers must be 0 to num_envs ({num_envs}), not {workers}")
        self.encoding = encoding
        self.num_envs = num_envs
        self.players = encoding.players
        size = observation_size(encoding)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,
                         "name": f"sneferu_{encoding.game.name}"}
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.actions,), np.int8)})
        self.single_action_space = spaces.Discrete(encoding.actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (num_envs, size), np.float32),
            "action_mask": spaces.Box(0, 1, (num_envs, encoding.actions), np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, encoding.actions))
        self.closed = False
        self.copy = copy
        self.processes: list[multiprocessing.process.BaseProcess] = []
        """The worker processes (none with ``workers=0``)."""
        self._connections: list[multiprocessing.connection.Connection] = []
        self._slices: list[tuple[int, int]] = []
        shape = (num_envs, size, encoding.actions, encoding.players)
        if workers == 0:
            self._arrays = _Arrays(_buffers(bytearray, *shape), *shape)
            self._games: _Games | None = _Games(encoding, self._arrays, 0, num_envs)
            return
        self._games = None
        mp: Any = multiprocessing.get_context(context)
        buffers = _buffers(lambda n: mp.RawArray("b", n), *shape)
        self._arrays = _Arrays(buffers, *shape)
        for w in range(workers):
            first, last = num_envs * w // workers, num_envs * (w + 1) // workers
            parent, child = mp.Pipe()
            process = mp.Process(target=_worker, daemon=True,
                                 name=f"sneferu-vector-{w + 1}",
                                 args=(child, encoding.game.name, encoding.players,
                                       encoding.variant, buffers, num_envs, first, last))
            process.start()
            child.close()
            self.processes.append(process)
            self._connections.append(parent)
            self._slices.append((first, last))

    def __del__(self) -> None:
        if "_connections" in self.__dict__ and not self.closed:
            self.close()

    def __enter__(self) -> SneferuVectorEnv:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _command(self, command: str, seed: int | None = None) -> None:
        """Run ``command`` in every worker (or in this process) and wait for them all;
        WorkerError, the environment closed, when a worker died or its game raised."""
        if self.closed:
            raise ValueError("the vector environment is closed")
        if self._games is not None:
            if command == "reset":
                self._games.reset(seed)
            else:
                self._games.step()
            return
        failures = []
        for w, connection in enumerate(self._connections):
            try:
                connection.send((command, seed))
            except OSError:
                failures.append(self._failure(w, None))
        for w, connection in enumerate(self._connections):
            if failures and failures[-1].startswith(f"worker {w + 1} "):
                continue
            try:
                answer, message = connection.recv()
            except (EOFError, OSError):
                failures.append(self._failure(w, None))
                continue
            if answer != "ok":
                failures.append(self._failure(w, message))
        if failures:
            self.close()
            raise WorkerError(f"vector environment closed: {failures[0]}")

    def _failure(self, w: int, message: str | None) -> str:
        """What became of worker ``w``: its game's error, or how its process ended."""
        first, last = self._slices[w]
        where = f"worker {w + 1} (environments {first} to {last - 1})"
        if message is not None:
            return f"{where}: {message}"
        process = self.processes[w]
        process.join(5)
        code = process.exitcode
        how = (f"was killed by signal {-code}" if code is not None and code < 0
               else f"exited with code {code}" if code is not None else "stopped answering")
        return f"{where} {how}"

    def _out(self, array: Any) -> Any:
        """``array`` as returned: a copy, or with ``copy`` false a read-only view."""
        if self.copy:
            return array.copy()
        view = array.view()
        view.flags.writeable = False
        return view

    def _results(self) -> tuple[dict[str, Any], dict[str, Any]]:
        arrays = self._arrays
        return ({"observation": self._out(arrays.obs), "action_mask": self._out(arrays.mask)},
                {"seat": self._out(arrays.seat), "_seat": np.ones(self.num_envs, np.bool_)})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games in every environment: ``(observations, infos)``. ``seed`` seeds
        environment ``i``'s chance draws from ``(seed, i)``; without one the generators go
        on as they stand (from the operating system's entropy if never seeded)."""
        if seed is not None and action_index(seed, 2**63) is None:
            raise ValueError(f"seed {seed!r} is not a non-negative integer")
        self._command("reset", None if seed is None else int(seed))
        return self._results()

    def step(self, actions: Sequence[int] | Any
             ) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Each environment's deciding seat plays its action id of ``actions`` (one per
        environment, integers). ValueError naming the first environment whose id is not
        legal, before any game moves."""
        ids = np.asarray(actions)
        if ids.shape != (self.num_envs,):
            raise ValueError(f"actions: {self.num_envs} action ids expected, one per "
                             f"environment, not an array of shape {ids.shape}")
        if ids.dtype == np.bool_ or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"actions: action ids are integers, not {ids.dtype}")
        mask = self._arrays.mask
        inside = (ids >= 0) & (ids < self.encoding.actions)
        legal = inside.copy()
        legal[inside] = mask[np.flatnonzero(inside), ids[inside]] == 1
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            a = int(ids[i])
            name = (f" ({self.encoding.moves[a]})" if 0 <= a < self.encoding.actions
                    else ", not an action id")
            raise ValueError(f"environment {i}: action {a}{name} is not legal now")
        self._arrays.actions[:] = ids
        self._command("step")
        observations, infos = self._results()
        arrays = self._arrays
        return (observations, self._out(arrays.rewards), self._out(arrays.terminations),
                np.zeros(self.num_envs, np.bool_), infos)

    def moves(self) -> int:
        """The moves completed over all environments since they were made."""
        return int(self._arrays.moves.sum())

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers: each asked to leave, then terminated if it has not within a
        few seconds, then joined."""
        if self.closed:
            return
        self.closed = True
        for connection in self._connections:
            with contextlib.suppress(OSError):
                connection.send(("close", None))
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(5)
        for connection in self._connections:
            connection.close()
