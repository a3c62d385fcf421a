"""Sneferu's own bench and perft (``Tools.rules_bench`` and ``Tools.perft`` of its
``Game.tools()``: ``sneferu bench`` and ``sneferu bench --perft``): how fast its rules
run step by step, and counts that pin move generation down.

:func:`run_bench` measures complete random games per second (every step drawn uniformly
from :meth:`~GameState.legal_steps`, every chance event drawn with
:func:`~sneferu_cli.games.sneferu.chance.sample_outcome`), legal steps generated per
second and position notation written and read per second, then the same number of random
games through the game interface (whole moves as text, as every layer above the rules plays
them, :func:`sneferu_cli.bench.play_random_moves`). The counts depend only on the seed;
the times are the machine's. Other games are measured through the interface by
:func:`sneferu_cli.bench.run_game_bench`.

:func:`perft` counts the action sequences of a given length from a state, where an action
is a legal step at a decision or any possible outcome at a chance node (each counted once,
whatever its probability). A change in move generation changes these counts.

>>> import random
>>> from sneferu_cli.games.sneferu.state import new_game
>>> state = new_game(players=2)
>>> perft(state, 1), perft(state, 2)  # the eye tiles: 4 kinds, one of each
(4, 12)
>>> actions = play_random(state, random.Random(1))
>>> state.is_over(), actions > 100
(True, True)
"""

from __future__ import annotations

import random
import time
from typing import NamedTuple

from ...bench import (
    INTERFACE_GAMES,
    SAMPLE_GAMES,
    STEP_ROUNDS,
    BenchReport,
    Figure,
    notation_figures,
    play_random_moves,
    python_version,
)
from ...bench import perft as count_sequences
from ...game import get_game
from . import state as _state_module
from .chance import sample_outcome
from .edition import Edition
from .move import legal_moves
from .position import from_position, to_position
from .state import GameState, new_game
from .steps import Action

__all__ = ["PerftResult", "actions", "core_build", "perft", "perft_counts", "play_random",
           "run_bench"]


def core_build() -> str:
    """How the rules core runs here: ``"compiled (mypyc)"`` or ``"pure Python"``.

    ``pip install .`` compiles it with mypyc where a C compiler is there (hatch_build.py);
    an editable install or a machine without a compiler runs the same source as Python.
    """
    file = _state_module.__file__ or ""
    return "pure Python" if file.endswith(".py") else "compiled (mypyc)"


def play_random(state: GameState, rng: random.Random,
                keep: list[GameState] | None = None) -> int:
    """Play ``state`` to its end: steps uniformly among the legal ones, chance by its odds.

    Returns the number of actions (steps and chance outcomes) applied. ``keep``, when
    given, collects a copy of every decision state on the way.
    """
    # Bound methods looked up once: the loop is the bench's own overhead, kept small.
    apply, legal_steps, is_chance_node = state.apply, state.legal_steps, state.is_chance_node
    is_over, choice = state.is_over, rng.choice
    applied = 0
    while True:
        if is_chance_node():
            apply(sample_outcome(state, rng))
        elif is_over():
            return applied
        else:
            if keep is not None:
                keep.append(state.clone())
            apply(choice(legal_steps()))
        applied += 1


def actions(state: GameState) -> list[Action]:
    """The actions of ``state``: its chance outcomes at a chance node, else its legal steps."""
    if state.is_chance_node():
        return [o for o, _ in state.chance_weights()]
    return list(state.legal_steps())


def perft(state: GameState, depth: int) -> int:
    """How many sequences of ``depth`` actions (steps or chance outcomes) start at ``state``.

    ``perft(state, 0)`` is 1; a state with no action (the game is over) counts 0 at any
    greater depth.
    """
    return count_sequences(state, depth, actions, GameState.apply)


class PerftResult(NamedTuple):
    """Perft counts of one position: ``counts[d - 1]`` is ``perft(state, d)``."""

    position: str
    counts: tuple[int, ...]
    moves: int  # the legal whole turns (legal_turns), 0 at a chance node or the end
    seconds: tuple[float, ...]  # the time each depth took
    python: str = ""  # the Python and the rules' build that counted them

    def record(self) -> dict[str, object]:
        """The counts as stored in ``tests/data/perft``: position, perft, moves."""
        return {"position": self.position, "perft": list(self.counts), "moves": self.moves}


def perft_counts(state: GameState, depth: int) -> PerftResult:
    """Perft at depths 1 to ``depth`` and the number of legal whole moves of ``state``."""
    counts: list[int] = []
    seconds: list[float] = []
    for d in range(1, depth + 1):
        t0 = time.perf_counter()
        counts.append(perft(state, d))
        seconds.append(time.perf_counter() - t0)
    return PerftResult(to_position(state), tuple(counts), len(legal_moves(state)),
                       tuple(seconds), python_version(core_build()))


def run_bench(players: int = 4, builders: str | None = None, games: int = 1000,
              seed: int = 1, edition: Edition | None = None) -> BenchReport:
    """Measure the rules and the position notation on complete random games.

    One ``random.Random(seed)`` drives the ``games`` games in turn. The legal-step figures
    are measured on every decision state of the first ``SAMPLE_GAMES`` of those games
    (replayed with the same seed, outside the timed loop), ``STEP_ROUNDS`` times over; the
    notation figures on every ``NOTATION_EVERY``-th of those states. Last, ``games`` random
    games of whole moves through the game interface, from a new ``random.Random(seed)``.
    """

    def fresh() -> GameState:
        return new_game(players, builders=builders, edition=edition)

    rng = random.Random(seed)
    applied = 0
    t0 = time.perf_counter()
    for _ in range(games):
        applied += play_random(fresh(), rng)
    played = time.perf_counter() - t0

    states: list[GameState] = []
    rng = random.Random(seed)
    for _ in range(min(games, SAMPLE_GAMES)):
        play_random(fresh(), rng, states)
    t0 = time.perf_counter()
    generated = 0
    for _ in range(STEP_ROUNDS):
        for state in states:
            generated += len(state.legal_steps())
    stepping = time.perf_counter() - t0

    game = get_game("sneferu")  # this package's own Game, through the registry (no cycle)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(games):
        play_random_moves(game, fresh(), rng)
    whole = time.perf_counter() - t0

    figures = (
        Figure("random games", games, played),
        Figure("actions in those games", applied, played),
        Figure("legal steps generated", generated, stepping, "legal step generated"),
        Figure("legal_steps() calls", STEP_ROUNDS * len(states), stepping),
        *notation_figures(states, to_position, lambda text: from_position(text, edition)),
        Figure(INTERFACE_GAMES, games, whole),
    )
    return BenchReport(players, builders, games, seed, len(states),
                       python_version(core_build()), figures,
                       variant="builders" if builders else "standard")
