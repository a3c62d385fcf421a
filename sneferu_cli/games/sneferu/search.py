"""Monte Carlo tree search over Sneferu positions, with chance and several opponents.

:func:`search` takes a position where a seat is to decide and a budget (a number of
iterations, a deadline, or both) and returns an :class:`Analysis`: every whole move it
looked at with its visits and its estimated result for the seat to move. No I/O: the
engine ``mcts``, ``sneferu position analyse`` and the server's ``analyse`` share it.

The tree (SPEC.md, section 11):

- the **root** holds the legal whole moves (``legal_turns``), each first valued by the
  position it leads to (:func:`estimate`), and considered best-first: only the
  ``widen_root + widening * sqrt(visits)`` best-valued moves are searched (progressive
  widening); when the seat holds stored stones (thousands of whole moves) it holds single
  steps instead, each reported as a whole move completed along the tree;
- below the root every **decision** node holds single steps (``legal_steps``) of the seat
  to move, tried in the order of the playout policy and widened the same way; every
  **chance** node samples an outcome with its odds (``sample_outcome``, the bag counts) and
  keeps a child per outcome met;
- an iteration descends by UCT, each node choosing for the seat to move there (max^n: a
  node keeps a mean reward for every seat), adds one node, then plays ``horizon`` turns with
  the playout policy (cheapest buy, the placement that gains most food, a little noise)
  and scores the result: a finished game by its ranking, reward
  ``(players - rank) / (players - 1)`` (solo: a win against Ptah, plus a little for the
  score), an unfinished one by :func:`estimate`.

>>> import random
>>> from sneferu_cli.games.sneferu.chance import sample_outcome
>>> from sneferu_cli.games.sneferu.state import new_game
>>> state = new_game(players=2)
>>> rng = random.Random(3)
>>> while state.is_chance_node():
...     state.apply(sample_outcome(state, rng))
>>> a = search(state, iterations=60, seed=1)
>>> a.iterations, a.best.visits > 0, 1.0 <= a.best.rank <= 2.0
(60, True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...search.analysis import Analysis, MoveStat
from ...search.uct import Node, check_budget, compare, select
from .chance import sample_outcome
from .components import Tile
from .move import Move
from .state import GameState, Phase
from .steps import DONE, Action, Buy, Done, Feast, Place, Shift, Step, Store

__all__ = ["SearchOptions", "estimate", "playout_step", "search"]


@dataclass(frozen=True)
class SearchOptions:
    """How the search spends its iterations (the engine's options of the same names)."""

    exploration: float = 0.35
    """UCT's exploration constant (rewards are in 0..1)."""
    horizon: int = 4
    """Turns played by the playout policy after the tree before the position is scored;
    0 plays to the end of the game. A solo game always plays to the end."""
    widening: float = 1.0
    """Children searched at a node: ``widen + widening * sqrt(visits)``."""
    widen_root: int = 3
    """Root moves searched from the start (the best-valued ones)."""
    noise: float = 1.0
    """Randomness of the playout policy (0: always its first choice)."""


# ------------------------------------------------------------------ evaluation

STORED = 0.85  # a stored stone, in stones: placed later for free, but not counted yet
SPACE = 0.15  # a space left on the river, in stones: time to buy more
FOOD = 0.1  # a food, in stones
SPREAD = 1.0  # stones of difference that make a clear lead (logistic scale)
WON = 0.8  # solo: a won game's reward is at least this, a lost one's below


def potential(state: GameState, seat: int) -> float:
    """The stones ``seat`` may end with: placed, stored, and what its food and the spaces
    left on the river can still buy (no more than its pyramid holds)."""
    p = state.players[seat]
    t = state.tables
    count = p.pyramid.count
    room = t.slots - count - len(p.store)
    more = 0.0 if p.ended else FOOD * p.food + SPACE * (t.last - p.space)
    return count + STORED * len(p.store) + min(float(room), more) + p.food * 1e-3


def estimate(state: GameState) -> list[float]:
    """Each seat's reward (0..1) as the position stands: finished games by the ranking
    (solo: the result against Ptah), others by comparing :func:`potential`\\s."""
    n = len(state.players)
    if state.is_over():
        return _final(state)
    if n == 1:
        p = state.players[0]
        left = state.tables.last - p.space
        ptah = state.ptah_total + 0.45 * left  # Ptah's stones to come as the boat sails
        x = (potential(state, 0) - ptah) / (2 * SPREAD)
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))]
    v = [potential(state, i) if not state.players[i].retired else -100.0 for i in range(n)]
    return compare(v, SPREAD)


def _final(state: GameState) -> list[float]:
    n = len(state.players)
    if n == 1:
        r = state.solo_result()
        if r.won:
            return [WON + (1 - WON) * min(max(r.score or 0, 0), 60) / 60]
        return [0.2 * r.stones / max(1, r.stones + r.ptah)]
    return [(n - s.rank) / (n - 1) for s in state.ranking()]


# ------------------------------------------------------------------ playout policy


def _step_scores(state: GameState, steps: Sequence[Step], rng: random.Random,
                 noise: float) -> list[float]:
    """A cheap score for each legal step (higher is better) for the playout policy."""
    phase = state.phase
    p = state.players[state.seat]
    last = state.tables.last
    late = p.space >= last - 8
    scores: list[float] = []
    food_before = p.food
    tile = state.start_tile() if phase == Phase.START else None
    for step in steps:
        kind = type(step)
        if kind is Buy:
            assert isinstance(step, Buy)
            food, spent = state.price(step.column, step.row, step.bonus)
            gain = 0
            if step.bonus and tile is not None:
                if tile == Tile.FOOD1:
                    gain = state.tables.food1
                elif tile == Tile.FOOD2:
                    gain = state.tables.food2
                elif tile == Tile.TIMEFOOD:
                    gain = state.tables.timefood
            score = 10.0 - food - spent + gain
        elif kind is Place:
            assert isinstance(step, Place)
            after = state.clone()
            after.apply(step)
            score = 20.0 + after.players[state.seat].food - food_before
            if step.heba:
                score += 2.0 if late else -3.0
            if phase == Phase.START:
                score += 10.0  # place stored stones before buying
        elif kind is Store:
            score = 20.5
        elif kind is Feast:
            score = 30.0 if p.pyramid.highest_level() >= 3 or late else -1.0
        elif kind is Done:
            score = 0.0
        elif kind is Shift:
            score = -5.0
        else:  # End
            score = 0.0
        scores.append(score + noise * rng.random())
    return scores


def playout_step(state: GameState, rng: random.Random, noise: float = 1.0) -> Step:
    """The playout policy's step in ``state``: the best-scored legal step, with noise."""
    steps = state.legal_steps()
    if len(steps) == 1:
        return steps[0]
    scores = _step_scores(state, steps, rng, noise)
    return steps[max(range(len(steps)), key=scores.__getitem__)]


def _order(state: GameState, rng: random.Random, noise: float) -> list[Step]:
    """The legal steps, best first for the playout policy."""
    steps = state.legal_steps()
    scores = _step_scores(state, steps, rng, noise)
    order = sorted(range(len(steps)), key=lambda i: -scores[i])
    return [steps[i] for i in order]


# ------------------------------------------------------------------ the tree


_Node = Node


@dataclass
class _RootMove:
    steps: tuple[Step, ...]
    after: GameState
    prior: float
    node: _Node
    wins: float = 0.0


@dataclass
class _Search:
    options: SearchOptions
    rng: random.Random
    players: int
    seat: int
    moves: list[_RootMove] = field(default_factory=list)
    stepwise: bool = False  # the root's moves are single steps, completed by the tree
    turn: int = 0  # the turn number at the root
    visits: int = 0
    nodes: int = 0

    def iterate(self) -> None:
        o = self.options
        allowed = min(len(self.moves), o.widen_root + int(o.widening * math.sqrt(self.visits)))
        move = self._pick(allowed)
        state = move.after.clone()
        path = [move.node]
        node = move.node
        expanded = False
        while not state.is_over() and not expanded:
            if state.is_chance_node():
                outcome = sample_outcome(state, self.rng)
                state.apply(outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new(state)
                    expanded = True
            else:
                if node.untried is None:
                    node.untried = _order(state, self.rng, o.noise)
                width = 1 + int(o.widening * math.sqrt(node.visits))
                if node.untried and len(node.children) < width:
                    step = node.untried.pop(0)
                    state.apply(step)
                    child = node.children[step] = self._new(state)
                    expanded = True
                else:
                    action, child = self._select(node)
                    state.apply(action)
            node = child
            path.append(node)
        rewards = self._rollout(state)
        for n in path:
            n.visits += 1
            v = n.value
            for i, r in enumerate(rewards):
                v[i] += r
        move.wins += rewards[self.seat] >= WON
        self.visits += 1

    def _new(self, state: GameState) -> _Node:
        self.nodes += 1
        return _Node(state.current_seat(), self.players)

    def _pick(self, allowed: int) -> _RootMove:
        c = self.options.exploration
        log_n = math.log(self.visits + 1)
        best, best_u = self.moves[0], -math.inf
        for m in self.moves[:allowed]:
            n = m.node.visits
            # the prior counts as one visit, so an unvisited move is tried by its prior
            u = (m.node.value[self.seat] + m.prior) / (n + 1) + c * math.sqrt(log_n / (n + 1))
            if u > best_u:
                best, best_u = m, u
        return best

    def _select(self, node: _Node) -> tuple[Action, _Node]:
        action, child = select(node, self.options.exploration)
        return action, child

    def _rollout(self, state: GameState) -> list[float]:
        horizon = 0 if self.players == 1 else self.options.horizon
        start = state.turn
        rng, noise = self.rng, self.options.noise
        while not state.is_over():
            if state.is_chance_node():
                state.apply(sample_outcome(state, rng))
            else:
                if horizon and state.turn - start >= horizon and state.phase == Phase.START:
                    break
                state.apply(playout_step(state, rng, noise))
        return estimate(state)


def search(state: GameState, *, iterations: int = 0, deadline: float | None = None,
           seed: int = 0, options: SearchOptions | None = None,
           progress: Callable[[Analysis], None] | None = None,
           progress_every: float = 0.25) -> Analysis:
    """Search ``state`` (a seat must be to decide) and return the analysis of its moves.

    ``iterations``: how many (0: no limit); ``deadline``: a ``time.perf_counter()`` value
    to stop at (None: no limit); at least one of them must be given. The same position,
    ``iterations``, ``seed`` and options (and no deadline reached) give the same analysis.
    ``progress`` is called with the analysis so far every ``progress_every`` seconds.
    A ValueError when no seat is to decide.
    """
    check_budget(state.current_seat() >= 0, state.is_over(), iterations, deadline)
    began = time.perf_counter()
    o = options or SearchOptions()
    seat = state.current_seat()
    s = _Search(o, random.Random(seed), len(state.players), seat)
    s.stepwise = bool(state.players[seat].store)
    s.turn = state.turn
    # Stored stones multiply the whole moves (thousands): the root then holds single steps.
    roots = ([(step,) for step in state.legal_steps()] if s.stepwise
             else state.legal_turns())
    for steps in roots:
        after = _after(state, steps) if not s.stepwise else _step_after(state, steps[0])
        s.moves.append(_RootMove(steps, after, estimate(after)[seat], s._new(after)))
        if deadline is not None and time.perf_counter() >= deadline and s.moves:
            break  # out of time while valuing the moves: the best-valued so far
    s.moves.sort(key=lambda m: -m.prior)  # stable: ties keep the order of legal_turns
    if len(s.moves) == 1:
        iterations = min(iterations, 1) if iterations else 1
    next_report = began + progress_every
    while not (iterations and s.visits >= iterations):
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            break
        if progress is not None and now >= next_report:
            progress(_analysis(s, now - began))
            next_report = now + progress_every
        s.iterate()
    return _analysis(s, time.perf_counter() - began)


def _after(state: GameState, steps: tuple[Step, ...]) -> GameState:
    """The state after a legal turn (as legal_turns lists it): ``apply_turn`` without its
    checks and its second copy."""
    after = state.clone()
    turn = after.turn
    for step in steps:
        after.apply(step)
    if not after.turn_over_since(turn):
        after.apply(DONE)
    return after


def _step_after(state: GameState, step: Step) -> GameState:
    after = state.clone()
    after.apply(step)
    return after


def _whole_move(s: _Search, m: _RootMove, turn: int) -> Move:
    """A stepwise root move made whole: the most visited steps of the tree while the turn
    goes on, then the playout policy's first choices (its own generator, so that reports
    do not change the search)."""
    steps = list(m.steps)
    state = m.after.clone()
    node: _Node | None = m.node
    rng = random.Random(0)
    while not state.turn_over_since(turn):
        step: Action | None = None
        if node is not None and node.children:
            step, node = max(node.children.items(), key=lambda kv: kv[1].visits)
        else:
            node = None
            step = playout_step(state, rng, 0.0)
        state.apply(step)
        steps.append(step)  # type: ignore[arg-type]
    return Move(tuple(x for x in steps if type(x) is not Done))


def _analysis(s: _Search, seconds: float) -> Analysis:
    n = s.players
    stats: list[MoveStat] = []
    for m in s.moves:
        visits = m.node.visits
        if s.stepwise and not visits and stats:
            continue  # listed once searched (the best-valued one always)
        reward = m.node.value[s.seat] / visits if visits else m.prior
        win = None if n > 1 else (m.wins / visits if visits else m.prior)
        rank = 1.0 + (n - 1) * (1.0 - reward) if win is None else 2.0 - win
        move = _whole_move(s, m, s.turn) if s.stepwise else Move(m.steps)
        stats.append(MoveStat(move, visits, reward, m.prior, rank, win))
    order = sorted(range(len(stats)),
                   key=lambda i: (-stats[i].visits, -stats[i].reward, -stats[i].prior, i))
    return Analysis([stats[i] for i in order], s.visits, s.nodes, seconds, s.seat, n)
