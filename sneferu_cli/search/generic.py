"""Monte Carlo tree search over any game of :mod:`sneferu_cli.game` (no I/O).

Sneferu keeps its own search (:mod:`.mcts`); every other game is searched here, through
the game interface only, so a new game is searched with no code of its own:

- a **decision** node holds the legal moves of the seat to decide (``legal_moves``), all
  tried once, then chosen by UCT for that seat (max^n: a node keeps a mean reward for every
  seat, each seat maximises its own);
- a **chance** node samples an outcome by its weights (``sample_outcome``) and keeps a
  child per outcome met;
- after the tree a playout plays uniformly random legal moves, to the end or, when the
  game offers an estimate (``Game.evaluate``), for ``horizon`` moves a seat; the result is
  each seat's reward in 0..1: a finished game by its final rank, ``(n - rank) / (n - 1)``
  (one seat: 1 for first), an unfinished one by comparing the estimates (a logistic of
  each difference, ``spread`` points making a clear lead).

The answer is an :class:`~.mcts.Analysis` whose moves are notation text.

>>> import random
>>> from sneferu_cli.game import get_game
>>> game = get_game("imhotep")
>>> state = game.new_game(2)
>>> rng = random.Random(1)
>>> while state.is_chance_node():
...     game.apply_outcome(state, game.sample_outcome(state, rng))
>>> a = search_game(game, state, iterations=50, seed=1)
>>> a.iterations, a.best.move in game.legal_moves(state), 1.0 <= a.best.rank <= 2.0
(50, True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from .mcts import Analysis, MoveStat
from .uct import Node, check_budget, compare, select

__all__ = ["GenericOptions", "rewards", "search_game"]


@dataclass(frozen=True)
class GenericOptions:
    """How the generic search spends its iterations (the engine's options of the same names)."""

    exploration: float = 0.35
    """UCT's exploration constant (rewards are in 0..1)."""
    horizon: int = 4
    """Playout moves a seat before an unfinished game is valued by the game's estimate;
    0 plays to the end (always, for a game without an estimate)."""
    spread: float = 5.0
    """Points of estimated difference that make a clear lead (logistic scale)."""


def rewards(game: Game, state: Any, spread: float = GenericOptions.spread) -> list[float]:
    """Each seat's reward (0..1) for ``state``: a finished game by the final ranks, an
    unfinished one by the game's estimate (0.5 each when it has none)."""
    n = game.players_of(state)
    if state.is_over():
        ranks = [s.rank for s in game.standings(state)]
        if n == 1:
            return [1.0 if ranks[0] == 1 else 0.0]
        return [(n - r) / (n - 1) for r in ranks]
    values = game.evaluate(state)
    if values is None or n == 1:
        return [0.5] * n
    return compare(values, spread)


@dataclass
class _Search:
    game: Game
    root: Any
    options: GenericOptions
    rng: random.Random
    players: int
    seat: int
    estimates: bool
    tree: Node = field(init=False)
    visits: int = 0
    nodes: int = 0

    def __post_init__(self) -> None:
        self.tree = self._new(self.root)

    def _new(self, state: Any) -> Node:
        self.nodes += 1
        over = state.is_over() or state.is_chance_node()
        return Node(-1 if over else state.current_seat(), self.players)

    def iterate(self) -> None:
        game, rng = self.game, self.rng
        state = self.root.clone()
        node = self.tree
        path = [node]
        while not state.is_over():
            if state.is_chance_node():
                outcome = game.sample_outcome(state, rng)
                game.apply_outcome(state, outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new(state)
                    path.append(child)
                    break
            else:
                if node.untried is None:
                    node.untried = game.legal_moves(state)
                    rng.shuffle(node.untried)
                if node.untried:
                    move = node.untried.pop()
                    game.apply_listed_move(state, move)
                    child = node.children[move] = self._new(state)
                    path.append(child)
                    break
                move, child = select(node, self.options.exploration)
                game.apply_listed_move(state, move)
            node = child
            path.append(node)
        result = self._playout(state)
        for n in path:
            n.visits += 1
            for i, r in enumerate(result):
                n.value[i] += r
        self.visits += 1

    def _playout(self, state: Any) -> list[float]:
        game, rng = self.game, self.rng
        limit = self.options.horizon * self.players if self.estimates else 0
        moves = 0
        while not state.is_over():
            if state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, rng))
                continue
            if limit and moves >= limit:
                break
            game.apply_listed_move(state, rng.choice(game.legal_moves(state)))
            moves += 1
        return rewards(game, state, self.options.spread)

    def analysis(self, seconds: float) -> Analysis:
        n = self.players
        stats = []
        for move, child in self.tree.children.items():
            reward = child.value[self.seat] / child.visits if child.visits else 0.0
            win = reward if n == 1 else None
            stats.append(MoveStat(move, child.visits, reward, 0.0,
                                  1.0 + (n - 1) * (1.0 - reward) if n > 1 else 2.0 - reward,
                                  win))
        for move in self.tree.untried or ():
            stats.append(MoveStat(move, 0, 0.0, 0.0, float(n) if n > 1 else 2.0,
                                  0.0 if n == 1 else None))
        stats.sort(key=lambda m: (-m.visits, -m.reward))
        return Analysis(stats, self.visits, self.nodes, seconds, self.seat, n)


def search_game(game: Game, state: Any, *, iterations: int = 0, deadline: float | None = None,
                seed: int = 0, options: GenericOptions | None = None,
                progress: Callable[[Analysis], None] | None = None,
                progress_every: float = 0.25) -> Analysis:
    """Search ``state`` of ``game`` (a seat must be to decide) and return the analysis of
    its moves, best first (most visits, then reward).

    ``iterations``: how many (0: no limit); ``deadline``: a ``time.perf_counter()`` value
    to stop at (None: no limit); at least one of them must be given. The same position,
    ``iterations``, ``seed`` and options (and no deadline reached) give the same analysis.
    ``progress`` is called with the analysis so far every ``progress_every`` seconds.
    A ValueError when no seat is to decide.
    """
    check_budget(not (state.is_over() or state.is_chance_node()), state.is_over(), iterations,
                 deadline)
    began = time.perf_counter()
    o = options or GenericOptions()
    s = _Search(game, state.clone(), o, random.Random(seed), game.players_of(state),
                state.current_seat(), game.evaluate(state) is not None)
    if len(game.legal_moves(state)) == 1:
        iterations = min(iterations, 1) if iterations else 1
    next_report = began + progress_every
    while not (iterations and s.visits >= iterations):
        now = time.perf_counter()
        if deadline is not None and now >= deadline and s.visits:
            break
        if progress is not None and now >= next_report:
            progress(s.analysis(now - began))
            next_report = now + progress_every
        s.iterate()
    return s.analysis(time.perf_counter() - began)
