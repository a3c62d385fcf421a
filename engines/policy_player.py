#!/usr/bin/env python3
"""policy: an engine that plays any policy function, in every game with an action encoding
(it declares them with ``feature games``), so a bot trained with OpenSpiel or PettingZoo
enters ``sneferu play`` and ``sneferu tournament`` like any other (SPEC 16.4).

The option ``Policy`` names the function: ``module:function`` (the module imported as
``python -m`` would, the engine's working directory first on the path) or
``path/to/file.py:function`` (relative to the working directory). At each decision the
function is called with the seat's observation (``Learning.observation`` of the position the
engine was sent, float32, as the bindings give it) and the action mask (int8, 1 for each
legal action id of the seat), and returns an action id, which is played as its move. In a
game whose moves are several parts (a factored encoding) it is called once a part, as the
bindings ask for them (``sneferu_cli.rl.Decision``), the parts chosen so far at the end
of the observation (``sneferu_cli.rl.observation``), until they are a whole move. A
function that accepts them (by name, or ``**kwargs``) also gets ``game`` (the ``Game``),
``state`` (the game's state the engine follows: in a game with hidden information one read
from the seat's view), ``position`` (its position text), ``seat`` (0-based), ``encoding``
(the set-up's ``Encoding``), ``rng`` (a ``random.Random`` reseeded with the option ``Seed``
at every game), ``parts`` (the action ids already chosen for this move, in a game whose
moves are several parts) and ``deadline`` (the ``time.perf_counter()`` instant by which
the whole move should be chosen: as the bundled ``mcts`` shares out its time,
``Bot.move_time``, the option ``Overhead`` in ms kept back), for a policy that searches.

What the function (or its module, when imported) prints goes to standard error, which the
arbiter keeps in its log, not to the protocol. Nothing is played in its place: a
``Policy`` that cannot be imported or is no callable, a game without it, a function that
raises or returns anything but a legal action id, and the engine says so in one line
(``info string`` and, last, on standard error, which the arbiter puts in the record's
fault) and exits with code 1, so the arbiter retires the seat (a ``crash`` fault, SPEC
7.2).
"""

import contextlib
import importlib
import importlib.util
import inspect
import operator
import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from sneferu_cli.rl import Decision, encoded_games, need
from sneferu_cli.rl import observation as observation_of
from sneferu_cli.words import clip

try:
    need("numpy")
except ImportError as e:
    sys.exit(f"policy: {e}")

import numpy as np

from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go, NewGame, OptionSpec

CONTEXT = ("game", "state", "position", "seat", "encoding", "rng", "parts", "deadline")
"""The keyword arguments a policy function may accept, besides observation and mask."""


def fail(line: str) -> NoReturn:
    """Say ``line`` (``info string`` and standard error; on one line, whatever the
    messages it quotes hold) and exit with code 1."""
    line = " ".join(line.split())
    with contextlib.suppress(OSError):  # the arbiter is gone: standard error is all there is
        print(f"info string {line}", flush=True)
    print(line, file=sys.stderr, flush=True)
    sys.exit(1)


def load_policy(spec: str) -> Callable[..., Any]:
    """The function ``spec`` names (``module:function`` or ``file.py:function``); exits
    through :func:`fail` when it cannot be had."""
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name:
        fail(f"policy: Policy {spec!r} is not module:function (or path/file.py:function)")
    try:
        if where.endswith(".py") or "/" in where or os.sep in where:
            path = Path(where)
            if not path.is_file():
                fail(f"policy: Policy {spec!r}: no file {where} (in {os.getcwd()})")
            # As `python file.py` runs it: its folder first on the path (for the modules
            # beside it); named after it unless that name is taken (`random.py`).
            sys.path.insert(0, str(path.resolve().parent))
            named = path.stem if path.stem not in sys.modules else f"policy_file_{path.stem}"
            found = importlib.util.spec_from_file_location(named, path)
            assert found is not None and found.loader is not None
            module = importlib.util.module_from_spec(found)
            sys.modules[named] = module
            with contextlib.redirect_stdout(sys.stderr):
                found.loader.exec_module(module)
        else:
            sys.path.insert(0, os.getcwd())
            with contextlib.redirect_stdout(sys.stderr):
                module = importlib.import_module(where)
    except ModuleNotFoundError as e:
        fail(f"policy: Policy {spec!r}: cannot import {where}: {e}")
    except Exception as e:  # the module's own code failed: its traceback, then one line
        traceback.print_exc()
        fail(f"policy: Policy {spec!r}: importing {where} raised {type(e).__name__}: {e}")
    target: Any = module
    for attribute in name.split("."):
        if not hasattr(target, attribute):
            fail(f"policy: Policy {spec!r}: {where} has no {name}")
        target = getattr(target, attribute)
    if not callable(target):
        fail(f"policy: Policy {spec!r}: {name} is not a function ({type(target).__name__})")
    return target


def accepted_context(function: Callable[..., Any]) -> tuple[str, ...]:
    """The names of :data:`CONTEXT` that ``function`` takes as keywords."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # no signature to read (some builtins)
        return ()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return CONTEXT
    keywords = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                           p.KEYWORD_ONLY)}
    return tuple(name for name in CONTEXT if name in keywords)


class PolicyPlayer(Bot):
    name = "policy"
    games = tuple(g.name for g in encoded_games())

    def __init__(self) -> None:
        super().__init__()
        self.spec = ""
        self.policy: Callable[..., Any] | None = None
        self.context: tuple[str, ...] = ()
        self.encoding: Any = None
        self.overhead = 40

    def declare_options(self) -> list[OptionSpec]:
        return [*super().declare_options(), OptionSpec("Policy", "string"),
                OptionSpec("Overhead", "spin", str(self.overhead), 0, 10_000)]

    def set_option(self, name: str, value: str | None) -> None:
        if name == "Policy":
            self.spec = value or ""
            self.policy = load_policy(self.spec)
            self.context = accepted_context(self.policy)
        elif name == "Overhead" and value is not None:
            self.overhead = int(value)
        else:
            super().set_option(name, value)

    def new_game(self, game: NewGame) -> None:
        super().new_game(game)
        if self.policy is None:
            fail("policy: no policy: set the option Policy to module:function")
        learning = self.game.learning()
        if learning is None:
            fail(f"policy: {self.game.title} has no action encoding (Game.learning)")
        self.encoding = learning.encoding(game.players, game.variant)

    def choose(self, state: Any, go: Go) -> str:
        deadline = time.perf_counter() + self.move_time(state, go, self.overhead / 1000)
        encoding = self.encoding
        try:
            decision = Decision(encoding, state, self.seat)
        except ValueError as e:  # a legal move without an id (another edition's)
            fail(f"policy: {e}")
        while True:
            observation = np.asarray(observation_of(encoding, state, self.seat,
                                                    decision.chosen), np.float32)
            mask = np.zeros(encoding.actions, np.int8)
            mask[decision.legal_actions()] = 1
            move = decision.choose(self.ask(state, observation, mask, decision.chosen,
                                            deadline))
            if move is not None:
                return move

    def ask(self, state: Any, observation: Any, mask: Any, parts: tuple[int, ...],
            deadline: float) -> int:
        """The action id the policy chooses; exits through :func:`fail` unless it is one
        that ``mask`` allows."""
        assert self.policy is not None
        values = {"game": lambda: self.game, "state": lambda: state,
                  "position": lambda: self.game.to_position(state),
                  "seat": lambda: self.seat, "encoding": lambda: self.encoding,
                  "rng": lambda: self.rng, "parts": lambda: parts,
                  "deadline": lambda: deadline}
        try:
            with contextlib.redirect_stdout(sys.stderr):  # its prints are no protocol lines
                answer = self.policy(observation, mask,
                                     **{name: values[name]() for name in self.context})
        except Exception as e:
            traceback.print_exc()
            fail(f"policy: {self.spec} raised {type(e).__name__}: {e}")
        try:
            if isinstance(answer, bool):
                raise TypeError
            action = operator.index(answer)
        except TypeError:
            fail(f"policy: {self.spec} returned {clip(repr(answer), 60)} "
                 f"({type(answer).__name__}), not an action id")
        if not 0 <= action < len(mask):
            fail(f"policy: {self.spec} returned {action}, not an action id (0 to "
                 f"{len(mask) - 1})")
        if not mask[action]:
            fail(f"policy: {self.spec} returned {action} ({self.encoding.moves[action]}), "
                 f"not legal here ({int(mask.sum())} legal ids)")
        return action


if __name__ == "__main__":
    run(PolicyPlayer())
