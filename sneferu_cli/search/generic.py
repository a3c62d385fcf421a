"""Monte Carlo tree search over any game of :mod:`sneferu_cli.game` (no I/O).

A game may keep its own search (``Tools.search`` of ``Game.tools()``: Sneferu's); every
other game is searched here, through the game interface only, so a new game is searched
with no code of its own:

- a **decision** node holds the legal moves of the seat to decide (``legal_moves``), all
  tried once, then chosen by UCT for that seat (max^n: a node keeps a mean reward for every
  seat, each seat maximises its own);
- a **simultaneous** node (decoupled UCT) keeps each deciding seat's own statistics of
  its own moves: each seat chooses by UCT on them alone, without the others' choices, and
  the joint move leads to a child per joint move met;
- with **hidden information** the search starts from the searching seat's view and each
  iteration draws a full state consistent with it (``Hidden.determinize``, as
  information-set MCTS does): the tree is keyed by moves, and at a node only the moves
  legal in the iteration's state are chosen;
- a **chance** node samples an outcome by its weights (``sample_outcome``) and keeps a
  child per outcome met;
- after the tree a playout plays uniformly random legal moves, to the end or, when the
  game offers an estimate (``Game.evaluate``), for ``horizon`` moves a seat; the result is
  each seat's reward in 0..1: a finished game by its final rank, ``(n - rank) / (n - 1)``
  (one seat: 1 for first), an unfinished one by comparing the estimates (a logistic of
  each difference, ``spread`` points making a clear lead).

The answer is an :class:`~.analysis.Analysis` whose moves are notation text.

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

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..game import Game, seat_state
from .analysis import Analysis, MoveStat, Tuning
from .uct import Node, check_budget, compare, select

__all__ = ["GenericOptions", "Halving", "analyse", "gain", "gains", "rewards", "search_game"]


@dataclass(frozen=True)
class GenericOptions:
    """How the generic search spends its iterations (the engine's options of the same names)."""

    exploration: float = 0.35
    """UCT's exploration constant (rewards are in 0..1)."""
    horizon: int = 1
    """Playout moves a seat before an unfinished game is valued by the game's estimate;
    0 plays to the end (always, for a game without an estimate)."""
    spread: float = 5.0
    """Points of estimated difference that make a clear lead (logistic scale)."""
    guided: bool = True
    """With the game's estimate: moves are tried in the order of their one-move value
    (greedy's), a node widening as it is visited, and playouts choose the best valued of
    ``sample`` drawn moves; False (or no estimate): every move tried once, in a random
    order, and uniformly random playouts."""
    widening: float = 1.0
    """Guided: a node searches its best ``1 + widening * sqrt(visits)`` moves by value."""
    candidates: int = 32
    """Guided: below the root a node values this many of its moves drawn at random (0:
    all; the root values them all)."""
    sample: int = 4
    """Guided: each playout move is the best valued of this many drawn legal moves; 0:
    no playout, the tree's new leaf is valued by the estimate at once."""
    halving: int = 0
    """Guided: the searching seat's move at the root is chosen by sequential halving
    among its best ``halving`` moves by value (each round gives the moves left equal
    visits and keeps the better half by mean reward); 0: by UCT with widening, as at any
    node."""
    paired: bool = True
    """Halving: the k-th visit of every root move draws the same chance (the same
    determinization and the same outcomes, in order), so that the moves are compared on
    the same luck (common random numbers); False: each iteration draws its own."""


def gain(game: Game, state: Any, seat: int, move: str) -> float:
    """What ``move`` of ``seat`` is worth by the game's estimate one move ahead: the
    seat's estimated value after it less the mean of the others' (greedy's measure; at a
    simultaneous node the move is applied alone, sealed). ``state`` is left unchanged;
    the game must have an estimate (:meth:`Game.evaluate`)."""
    after = state.clone()
    game.apply_move(after, move, seat, listed=True)
    values = game.evaluate(after)
    assert values is not None
    if len(values) == 1:
        return values[0]
    return values[seat] - (sum(values) - values[seat]) / (len(values) - 1)


def gains(game: Game, state: Any, seat: int, moves: list[str]) -> list[float]:
    """:func:`gain` of each of ``moves``, by the game's shortcut when it has one here
    (:meth:`Tools.move_gains`, equal to the plain way)."""
    tools = game.tools()
    fast = None if tools is None else tools.move_gains(state, seat, moves)
    return fast if fast is not None else [gain(game, state, seat, m) for m in moves]


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


class _Sealed(Node):
    """A simultaneous node (decoupled UCT): besides its children by joint move, each
    deciding seat's own statistics, a :class:`Node` per seat whose children are that
    seat's moves, so that each seat chooses by UCT on its own reward, never seeing what
    the others choose."""

    __slots__ = ("seats",)

    def __init__(self, players: int) -> None:
        super().__init__(-1, players)
        self.seats: dict[int, Node] = {}

    def of(self, seat: int) -> Node:
        """The statistics of ``seat``'s own moves here."""
        stats = self.seats.get(seat)
        if stats is None:
            stats = self.seats[seat] = Node(seat, len(self.value))
        return stats


class Halving:
    """Sequential halving over a few arms (moves), the best valued first: which arm to
    visit next for a budget of visits in all, given each arm's visits and mean reward.

    Round after round the arms left are visited alike, each up to the round's target,
    then the better half by mean reward stays (ties to the better valued); a round's
    visits are ``budget // (rounds * arms left)`` an arm (at least 1), ``rounds`` being
    ``ceil(log2(arms))``, so that the rounds spend at most the budget; the last arm left
    takes what remains. With no budget yet (:attr:`budget` None: a search by time that
    has not yet measured its speed) the arms are visited in turn and none is dropped.

    >>> h = Halving(["a", "b", "c", "d"], 8)
    >>> visits, means = dict.fromkeys("abcd", 0), {"a": 0.2, "b": 0.9, "c": 0.5, "d": 0.1}
    >>> for _ in range(8):
    ...     arm = h.next(visits, means)
    ...     visits[arm] += 1
    >>> visits, h.arms
    ({'a': 1, 'b': 3, 'c': 3, 'd': 1}, ['b', 'c'])
    >>> h.next(visits, means), h.arms
    ('b', ['b'])
    """

    def __init__(self, arms: list[str], budget: int | None) -> None:
        self.arms = list(arms)
        """The arms left, best first (by value, then by mean reward after a round)."""
        self.budget = budget
        self.rounds = max(1, math.ceil(math.log2(len(arms)))) if arms else 1
        self.target = 0  # the visits each arm left is to have at the end of this round

    def _share(self) -> int:
        assert self.budget is not None
        return max(1, self.budget // (self.rounds * len(self.arms)))

    def next(self, visits: dict[str, int], means: dict[str, float]) -> str:
        """The arm to visit now (``visits`` and ``means``: each arm's so far)."""
        arms = self.arms
        if len(arms) > 1 and self.budget is not None:
            if not self.target:
                self.target = max(self._share(), max(visits[a] for a in arms))
            elif min(visits[a] for a in arms) >= self.target:
                ranked = sorted(range(len(arms)), key=lambda i: (-means[arms[i]], i))
                self.arms = arms = [arms[i] for i in sorted(ranked[:(len(arms) + 1) // 2])]
                if len(arms) > 1:
                    self.target += self._share()
        return min(arms, key=visits.__getitem__)  # the first of the least visited


JOINT = " | "
"""Joins the seats' moves of a simultaneous node into its child's key."""


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
        self.hidden = self.game.hidden()
        self.guided = self.estimates and self.options.guided
        self.priors: dict[str, float] = {}  # guided: the root's moves valued one move ahead
        self.budget: int | None = None  # the iterations the search will spend, when known
        self.halving: Halving | None = None  # the root's sequential halving, once begun
        self.arm: str | None = None  # halving: the root's move for this iteration
        self.luck = 0  # paired: the seed of the chance of the k-th visits
        self.chance = random.Random()  # paired: the chance drawn by this iteration
        self.tree = self._new(self.root)

    def _new(self, state: Any) -> Node:
        self.nodes += 1
        if state.is_over() or state.is_chance_node():
            return Node(-1, self.players)
        if self.game.is_simultaneous(state):
            return _Sealed(self.players)
        return Node(state.current_seat(), self.players)

    def iterate(self) -> None:
        game, rng = self.game, self.rng
        chance = rng
        self.arm = None
        if self.guided and self.options.halving:
            stats = self.tree.of(self.seat) if isinstance(self.tree, _Sealed) else self.tree
            self.arm = self._halve(stats)
            if self.options.paired:
                self.chance.seed(self.luck * 1_000_003 + self._visits(stats, self.arm))
                chance = self.chance
        state = (self.root.clone() if self.hidden is None
                 else self.hidden.determinize(self.root, self.seat, chance))
        node = self.tree
        path = [node]
        while not state.is_over():
            if state.is_chance_node():
                outcome = game.sample_outcome(state, chance)
                game.apply_outcome(state, outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new(state)
                    path.append(child)
                    break
            elif isinstance(node, _Sealed) != game.is_simultaneous(state):
                break  # a determinization unlike the one that made the node: play out
            elif isinstance(node, _Sealed):
                root = node is self.tree
                joint = []
                for s in game.deciding_seats(state):
                    stats = node.of(s)
                    move, fresh = self._pick(stats, state, s, root, True)
                    if fresh:
                        stats.children[move] = Node(s, self.players)
                    path += (stats, stats.children[move])
                    joint.append((s, move))
                for s, move in joint:
                    game.apply_move(state, move, s)
                key = JOINT.join(move for _, move in joint)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = self._new(state)
                    path.append(child)
                    break
            elif self.hidden or self.guided:
                move, fresh = self._pick(node, state, node.seat, node is self.tree,
                                         self.hidden is not None)
                game.apply_move(state, move, listed=True)
                if fresh:
                    child = node.children[move] = self._new(state)
                    path.append(child)
                    break
                child = node.children[move]
            else:
                if node.untried is None:
                    node.untried = game.legal_moves(state)
                    rng.shuffle(node.untried)
                if node.untried:
                    move = node.untried.pop()
                    game.apply_move(state, move, listed=True)
                    child = node.children[move] = self._new(state)
                    path.append(child)
                    break
                move, child = select(node, self.options.exploration)
                game.apply_move(state, move, listed=True)
            node = child
            path.append(node)
        result = self._playout(state, chance)
        for n in path:
            n.visits += 1
            for i, r in enumerate(result):
                n.value[i] += r
        self.visits += 1

    def _order(self, state: Any, seat: int, legal: list[str], root: bool) -> list[str]:
        """The moves a guided node may search, worst first (they are taken from the end):
        all of ``legal`` at the root, else ``candidates`` of them drawn at random, in
        the order of their value one move ahead (:func:`gain`), ties at random."""
        limit = self.options.candidates
        moves = (list(legal) if root or not limit or len(legal) <= limit
                 else self.rng.sample(legal, limit))
        self.rng.shuffle(moves)
        valued = sorted(zip(gains(self.game, state, seat, moves), range(len(moves)), strict=True))
        if root and seat == self.seat:
            spread = self.options.spread  # in 0..1, as the rewards: for two seats, their reward
            self.priors = {moves[i]: 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, v / spread))))
                           for v, i in valued}
        return [moves[i] for _, i in valued]

    def _pick(self, stats: Node, state: Any, seat: int, root: bool,
              varies: bool) -> tuple[str, bool]:
        """The move of ``seat`` at the node whose statistics of that seat's moves are
        ``stats``, and whether it is new there. ``varies``: the moves legal there may
        differ from one iteration to the next (hidden information, a simultaneous node).
        A move not tried yet while the node may grow (every move; guided, its best
        ``1 + widening * sqrt(visits)``), the best valued left (guided) or one at random;
        else UCT among the legal moves tried (ties at random where ``varies``: seats of a
        simultaneous node that broke them alike would choose in lockstep, both first
        moves, then both second ones, and never meet the other pairs)."""
        legal = self.game.legal_moves(state, seat)
        children = stats.children
        if root and seat == self.seat and self.arm is not None and self.arm in legal:
            return self.arm, self.arm not in children
        allowed = set(legal) if varies else None
        tried = (len(children) if allowed is None
                 else sum(1 for m in children if m in allowed))
        room = tried < len(legal)
        if room and self.guided:
            room = tried < 1 + self.options.widening * math.sqrt(stats.visits)
        if room:
            if self.guided:
                if stats.untried is None:
                    stats.untried = self._order(state, seat, legal, root)
                order = stats.untried
                for i in range(len(order) - 1, -1, -1):
                    move = order[i]
                    if move in children:
                        del order[i]
                    elif allowed is None or move in allowed:
                        del order[i]
                        return move, True
            return self.rng.choice([m for m in legal if m not in children]), True
        if allowed is None:
            return select(stats, self.options.exploration)[0], False
        return _select_among(stats, legal, self.options.exploration, self.rng)[0], False

    def _halve(self, stats: Node) -> str:
        """The searching seat's move at the root for this iteration by sequential halving
        (:class:`Halving`) among its best ``halving`` moves by value, valued on a first
        determinization; UCT chooses when it is not legal in an iteration's."""
        if self.halving is None:
            state = (self.root.clone() if self.hidden is None
                     else self.hidden.determinize(self.root, self.seat, self.rng))
            legal = self.game.legal_moves(state, self.seat)
            if stats.untried is None:
                stats.untried = self._order(state, self.seat, legal, True)
            arms = list(reversed(stats.untried))[:self.options.halving]
            self.halving = Halving(arms, self.budget)
            self.luck = self.rng.randrange(2**31)
        halving = self.halving
        if halving.budget is None:
            halving.budget = self.budget
        visits = {arm: self._visits(stats, arm) for arm in halving.arms}
        move = halving.next(visits, {arm: self._mean(stats, arm) for arm in halving.arms})
        if stats.untried is not None and move in stats.untried:
            stats.untried.remove(move)
        return move

    @staticmethod
    def _visits(stats: Node, move: str) -> int:
        child = stats.children.get(move)
        return 0 if child is None else child.visits

    def _mean(self, stats: Node, move: str) -> float:
        """The mean reward of the searching seat after ``move`` at the root (0 unvisited)."""
        child = stats.children.get(move)
        return child.value[self.seat] / child.visits if child is not None and child.visits else 0.0

    def _playout(self, state: Any, chance: random.Random) -> list[float]:
        game, rng = self.game, self.rng
        sample = self.options.sample if self.guided else 1
        if sample == 0:  # guided, no playout: the leaf is valued at once
            return rewards(game, state, self.options.spread)
        limit = self.options.horizon * self.players if self.estimates else 0
        moves = 0
        while not state.is_over():
            if state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, chance))
                continue
            if limit and moves >= limit:
                break
            # At a simultaneous node the current seat is the lowest still to decide: the
            # sealed moves are collected in seat order.
            legal = game.legal_moves(state)
            if sample > 1 and len(legal) > 1:
                seat = state.current_seat()
                drawn = rng.sample(legal, min(sample, len(legal)))
                values = gains(game, state, seat, drawn)
                move = drawn[max(range(len(drawn)), key=values.__getitem__)]
            else:
                move = rng.choice(legal)
            game.apply_move(state, move, listed=True)
            moves += 1
        return rewards(game, state, self.options.spread)

    def analysis(self, seconds: float) -> Analysis:
        n = self.players
        root = self.tree
        if isinstance(root, _Sealed):  # the searching seat's own statistics
            root = root.of(self.seat)
        stats = []
        for move, child in root.children.items():
            reward = child.value[self.seat] / child.visits if child.visits else 0.0
            win = reward if n == 1 else None
            stats.append(MoveStat(move, child.visits, reward, self.priors.get(move, 0.0),
                                  1.0 + (n - 1) * (1.0 - reward) if n > 1 else 2.0 - reward,
                                  win))
        untried = (root.untried or () if root is self.tree and not self.hidden
                   else [m for m in self.game.legal_moves(self.root, self.seat)
                         if m not in root.children])
        for move in untried:
            stats.append(MoveStat(move, 0, 0.0, self.priors.get(move, 0.0),
                                  float(n) if n > 1 else 2.0, 0.0 if n == 1 else None))
        left: dict[object, float] = ({m: -self._mean(root, m) for m in self.halving.arms}
                                     if self.halving else {})
        if len(left) > 1:  # stopped within the halving: the arms left, best mean first
            stats.sort(key=lambda m: (m.move not in left, left.get(m.move, 0.0), -m.visits,
                                      -m.reward, -m.prior))
        else:  # the last arm left has had the most visits (ties: it is first)
            stats.sort(key=lambda m: (-m.visits, m.move not in left, -m.reward, -m.prior))
        return Analysis(stats, self.visits, self.nodes, seconds, self.seat, n)


def _select_among(node: Node, legal: list[str], exploration: float,
                  rng: random.Random | None = None) -> tuple[str, Node]:
    """UCT's choice at ``node`` among the children whose move is in ``legal`` (with
    hidden information the moves legal here depend on the determinization); ties broken
    at random with ``rng`` when given, else by the children's order."""
    allowed = set(legal)
    if rng is None and node.children.keys() <= allowed:
        return select(node, exploration)
    children = [(m, c) for m, c in node.children.items() if m in allowed]
    if rng is not None:
        rng.shuffle(children)
    some = Node(node.seat, 0)
    some.visits = node.visits
    some.children = dict(children)
    return select(some, exploration)


def search_game(game: Game, state: Any, *, seat: int | None = None, iterations: int = 0,
                deadline: float | None = None, seed: int = 0,
                options: GenericOptions | None = None,
                progress: Callable[[Analysis], None] | None = None,
                progress_every: float = 0.25) -> Analysis:
    """Search ``state`` of ``game`` for ``seat`` (0-based; by default the current seat),
    which must be one to decide, and return the analysis of its moves, best first (most
    visits, then reward).

    With hidden information the search knows only ``seat``'s view of ``state``: it starts
    from the state the view describes and draws what it hides anew at every iteration
    (``Hidden.determinize``). ``iterations``: how many (0: no limit); ``deadline``: a
    ``time.perf_counter()`` value to stop at (None: no limit); at least one of them must
    be given. The same position (or view), seat, ``iterations``, ``seed`` and options (and
    no deadline reached) give the same analysis. ``progress`` is called with the analysis
    so far every ``progress_every`` seconds. A ValueError when ``seat`` has no decision.
    """
    check_budget(not (state.is_over() or state.is_chance_node()), state.is_over(), iterations,
                 deadline)
    if seat is None:
        seat = state.current_seat()
    elif seat not in game.deciding_seats(state):
        raise ValueError(f"analyse: seat {seat + 1} has no decision to take now (seats "
                         f"deciding: {', '.join(str(s + 1) for s in game.deciding_seats(state))})")
    began = time.perf_counter()
    o = options or GenericOptions()
    root = seat_state(game, state, seat)
    s = _Search(game, root, o, random.Random(seed), game.players_of(state), seat,
                game.evaluate(state) is not None)
    if len(game.legal_moves(root, seat)) == 1:
        iterations = min(iterations, 1) if iterations else 1
    if iterations:
        s.budget = iterations
    next_report = began + progress_every
    while not (iterations and s.visits >= iterations):
        now = time.perf_counter()
        if s.budget is None and deadline is not None and now - began >= 0.1 * (deadline - began):
            s.budget = max(1, int(s.visits * (deadline - began) / (now - began)))
        if deadline is not None and now >= deadline and s.visits:
            break
        if progress is not None and now >= next_report:
            progress(s.analysis(now - began))
            next_report = now + progress_every
        s.iterate()
    return s.analysis(time.perf_counter() - began)


def analyse(game: Game, state: Any, *, seat: int | None = None, iterations: int = 0,
            deadline: float | None = None, seed: int = 0, tuning: Tuning | None = None,
            progress: Callable[[Analysis], None] | None = None) -> Analysis:
    """Search ``state`` of ``game`` for ``seat`` (by default the current seat) with the
    game's own search when it has one (:meth:`Tools.search`, SPEC 11.1), else with
    :func:`search_game` (11.4), each with its default options but for what the game's
    :meth:`Tools.search_tuning` and then ``tuning`` set; arguments and errors as
    :func:`search_game`."""
    tools = game.tools()
    own = None if tools is None else tools.search(
        state, seat=seat, iterations=iterations, deadline=deadline, seed=seed,
        tuning=tuning, progress=progress)
    if own is not None:
        return own
    options = GenericOptions()
    for knobs in (None if tools is None else tools.search_tuning(), tuning):
        if knobs is not None:
            options = replace(options, **{
                name: value for name in ("exploration", "horizon", "spread", "guided",
                                         "widening", "candidates", "sample", "halving",
                                         "paired")
                if (value := getattr(knobs, name)) is not None})
    return search_game(game, state, seat=seat, iterations=iterations, deadline=deadline,
                       seed=seed, options=options, progress=progress)
