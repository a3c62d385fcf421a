"""Benchmarks of any registered game through its interface: how fast its rules run.

:func:`run_game_bench` measures complete random games per second (whole moves drawn
uniformly from :meth:`~sneferu_cli.game.Game.legal_moves`, every chance outcome by its
odds), legal moves listed per second and position notation written and read per second
(``sneferu bench --game NAME``). The counts depend only on the seed; the times are the
machine's. A game may measure its rules its own way
(``Tools.rules_bench`` of ``Game.tools()``: Sneferu's bench of single steps, and its
``Tools.perft`` counts, in
``games/sneferu/bench.py``: ``sneferu bench``, ``sneferu bench --perft``).

>>> import random
>>> from sneferu_cli.game import get_game
>>> game = get_game("imhotep")
>>> state = game.new_game(2)
>>> play_random_moves(game, state, random.Random(1)) > 10, state.is_over()
(True, True)
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, Self, TypeVar

from .game import DEFAULT_GAME, Game, unnamed
from .words import plural


class _Clonable(Protocol):
    def clone(self) -> Self: ...


S = TypeVar("S", bound=_Clonable)
A = TypeVar("A")


def perft(state: S, depth: int, actions: Callable[[S], Sequence[A]],
          apply: Callable[[S, A], None]) -> int:
    """How many sequences of ``depth`` actions start at ``state``, an action being what
    ``actions`` lists (a game's single steps, its whole moves, chance outcomes expanded)
    and ``apply`` does to a clone. ``perft(state, 0, ...)`` is 1; a state with no action
    (the game is over) counts 0 at any greater depth."""
    if depth <= 0:
        return 1
    here = actions(state)
    if depth == 1:
        return len(here)
    total = 0
    for action in here:
        child = state.clone()
        apply(child, action)
        total += perft(child, depth - 1, actions, apply)
    return total


@dataclass(frozen=True)
class Figure:
    """One measured figure: ``count`` things done in ``seconds``."""

    what: str
    count: int
    seconds: float
    row: str | None = None
    """The row of ``sneferu bench``'s engines table it fills when it is the figure of the
    rules' legal-move listing (what ``speed_figures`` compares a move with)."""

    @property
    def rate(self) -> float:
        """Things per second."""
        return self.count / self.seconds if self.seconds > 0 else float("inf")


class BenchReport(NamedTuple):
    """What a bench measured (:func:`run_game_bench`, or Sneferu's ``run_bench``), with
    the settings that reproduce the counts."""

    players: int
    setup: str | None  # the value of the game's seat set-up option (RecordTags.option)
    games: int
    seed: int
    sample: int  # decision states the legal-step and notation figures are measured on
    python: str
    figures: tuple[Figure, ...]
    game: str = DEFAULT_GAME
    variant: str = "standard"

    def table(self) -> str:
        """A short plain-text table: the settings, then one line per figure."""
        variant = f"{self.variant} ({self.setup})" if self.setup else self.variant
        seats = plural(self.players, "player")
        head = "sneferu bench" if unnamed(self.game) else f"sneferu bench --game {self.game}"
        lines = [f"{head}: {seats}, {variant} variant, "
                 f"{plural(self.games, 'game')}, seed {self.seed}",
                 f"python {self.python}",
                 f"{'measure':<26}{'count':>12}{'seconds':>10}{'per second':>14}"]
        for f in self.figures:
            lines.append(f"{f.what:<26}{f.count:>12,}{f.seconds:>10.3f}{f.rate:>14,.0f}")
        return "\n".join(lines)


def python_version(core: str | None = None) -> str:
    """The interpreter, and the game's rules core when it has one to name: ``3.11.7
    (CPython), rules core compiled (mypyc)``."""
    return (f"{platform.python_version()} ({platform.python_implementation()})"
            + (f", rules core {core}" if core else ""))


INTERFACE_GAMES = "random games, game interface"
"""Sneferu's figure of random games through the game interface (its ``random games`` are
played step by step; another game's ``random games`` are this figure)."""

def core_build_of(state: object) -> str:
    """How the rules core of ``state``'s game runs here, by the module of its state class:
    ``"compiled (mypyc)"`` (an extension module, ``pip install .``) or ``"pure Python"``."""
    file = getattr(sys.modules.get(type(state).__module__), "__file__", None) or ""
    return "pure Python" if file.endswith(".py") else "compiled (mypyc)"


SAMPLE_GAMES = 50
STEP_ROUNDS = 10
NOTATION_EVERY = 5


def notation_figures(states: list[Any], write: Callable[[Any], str],
                      read: Callable[[str], object]) -> tuple[Figure, Figure]:
    """Positions written and read: every ``NOTATION_EVERY``-th of ``states``."""
    t0 = time.perf_counter()
    texts = [write(state) for state in states[::NOTATION_EVERY]]
    writing = time.perf_counter() - t0
    t0 = time.perf_counter()
    for text in texts:
        read(text)
    reading = time.perf_counter() - t0
    return Figure("positions written", len(texts), writing), Figure("positions read",
                                                                     len(texts), reading)


def play_random_moves(game: Game, state: Any, rng: random.Random,
                      keep: list[Any] | None = None) -> int:
    """Play ``state`` of ``game`` to its end through the interface: whole moves uniformly
    among the listed ones, chance by its odds. Returns the moves and outcomes applied;
    ``keep`` collects a copy of every decision state on the way."""
    applied = 0
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        else:
            if keep is not None:
                keep.append(state.clone())
            game.apply_move(state, rng.choice(game.legal_moves(state)), listed=True)
        applied += 1
    return applied


def run_game_bench(game: Game, players: int, games: int = 1000, seed: int = 1,
                   edition: Any | None = None) -> BenchReport:
    """Measure any game through its interface: random games of whole moves,
    legal-move listing on the decision states of the first ``SAMPLE_GAMES`` games
    (``STEP_ROUNDS`` times over), position notation on every ``NOTATION_EVERY``-th."""
    rng = random.Random(seed)
    applied = 0
    t0 = time.perf_counter()
    for _ in range(games):
        applied += play_random_moves(game, game.new_game(players, edition=edition), rng)
    played = time.perf_counter() - t0

    states: list[Any] = []
    rng = random.Random(seed)
    for _ in range(min(games, SAMPLE_GAMES)):
        play_random_moves(game, game.new_game(players, edition=edition), rng, states)
    t0 = time.perf_counter()
    listed = 0
    for _ in range(STEP_ROUNDS):
        for state in states:
            listed += len(game.legal_moves(state))
    listing = time.perf_counter() - t0

    figures = (
        Figure("random games", games, played),
        Figure("moves and outcomes", applied, played),
        Figure("legal moves listed", listed, listing),
        Figure("legal_moves() calls", STEP_ROUNDS * len(states), listing,
               "legal-move listing, rules only"),
        *notation_figures(states, game.to_position,
                           lambda text: game.from_position(text, edition)),
    )
    core = core_build_of(game.new_game(players, edition=edition))
    return BenchReport(players, None, games, seed, len(states), python_version(core),
                       figures, game.name, game.variants[0])
