"""OpenSpiel's own MCTS bots as an outside anchor for the bundled engine ``mcts``, through
the bundled ``policy`` engine (SPEC 16.4; the ``rl`` extra), searching for the time the
engine gives a move (the ``deadline`` of the policy's context) rather than a fixed count,
so that both engines get the same time. ``scripts/anchor.sh`` plays ``mcts`` against them
in every game (docs/performance.md, "Strength of mcts"); one game:

    sneferu play mcts policy --game imhotep --movetime 200 \\
        -o 2:Policy=examples/openspiel_anchor.py:choose_mcts

- :func:`choose_mcts`: OpenSpiel's ``MCTSBot`` (its UCT constant 2, one random rollout a
  simulation, solving on), in every game with an action encoding. In a game with hidden
  information it searches one state drawn from the seat's view (``spiel_state(...,
  seat=)``), never the truth.
- :func:`choose_ismcts`: OpenSpiel's ``ISMCTSBot`` (the same constant and rollouts), in a
  game with hidden information: its worlds drawn from the seat's information state
  (``resample_from_infostate``).

Both search until the deadline (at least two simulations; then a simulation starts only if
one as long as their mean so far would end by it), through OpenSpiel's classes,
subclassed: ``MCTSBot``'s tree descent and ``ISMCTSBot``'s drawing of a root state are
where each simulation starts, so they look at the clock first and end the search there;
the tree searched so far chooses. In a game whose moves come in parts, the whole move is
searched at its first part (the parts are plies of OpenSpiel's tree) and its later parts
are read from that tree; where it has nothing below the parts chosen, the part is searched
again in what time is left, or, the deadline passed, drawn at random among the legal ones.

Each search writes ``anchor NAME: move|part N simulations T ms`` to standard error (the
arbiter's log of the engine, ``--engine-stderr``): ``move`` at a move's first part.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from sneferu_cli.game import Game
from sneferu_cli.rl.openspiel import spiel_state

UCT = 2.0
"""OpenSpiel's usual UCT constant for its MCTS bots (its examples' default)."""
ROLLOUTS = 1
"""Random rollouts a simulation (``RandomRolloutEvaluator``)."""
AT_LEAST = 2
"""Simulations a search always makes (MCTSBot expands its root at the second)."""
UNBOUNDED = 10**9
"""The bots' simulation count: the clock ends a search long before."""


class OutOfTime(Exception):
    """Raised where a simulation would start after the deadline."""


class _Clocked:
    """Counts the simulations started and ends the search by the deadline (or after
    ``limit`` simulations, when given)."""

    def __init__(self, deadline: float, limit: int | None = None) -> None:
        self.deadline = deadline
        self.limit = limit
        self.began = time.perf_counter()
        self.simulations = 0

    def tick(self) -> None:
        """A simulation starts: raise OutOfTime instead (after the first :data:`AT_LEAST`)
        when one more, as long as the mean so far, would end after the deadline, or when
        ``limit`` simulations have started."""
        if self.limit is not None:
            if self.simulations >= max(self.limit, AT_LEAST):
                raise OutOfTime
        elif self.simulations >= AT_LEAST:
            now = time.perf_counter()
            if now + (now - self.began) / self.simulations >= self.deadline:
                raise OutOfTime
        self.simulations += 1


class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTSBot that stops at ``deadline`` (or after ``simulations``):
    :meth:`search` is its ``mcts_search`` ended there, the tree so far kept."""

    def __init__(self, game: Any, deadline: float, seed: int,
                 simulations: int | None = None) -> None:
        rng = np.random.RandomState(seed)
        super().__init__(game, UCT, UNBOUNDED, mcts.RandomRolloutEvaluator(ROLLOUTS, rng),
                         random_state=rng)
        self.clock = _Clocked(deadline, simulations)
        self.root: Any = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self.root = root  # each simulation starts here, from the root of the search
        self.clock.tick()
        return super()._apply_tree_policy(root, state)

    def search(self, state: Any) -> Any:
        """The root of the search of ``state``, run until the deadline."""
        try:
            return self.mcts_search(state)
        except OutOfTime:
            return self.root


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot that stops at ``deadline`` (or after ``simulations``), its
    worlds drawn with ``resample_from_infostate`` seeded from ``seed``."""

    def __init__(self, game: Any, deadline: float, seed: int,
                 simulations: int | None = None) -> None:
        rng = np.random.RandomState(seed)
        super().__init__(game, mcts.RandomRolloutEvaluator(ROLLOUTS, rng), UCT, UNBOUNDED,
                         random_state=rng)
        self.clock = _Clocked(deadline, simulations)
        self.set_resampler(lambda state, player: state.resample_from_infostate(
            player, pyspiel.UniformProbabilitySampler(int(rng.randint(2**31)), 0.0, 1.0)))

    def sample_root_state(self, state: Any) -> Any:
        self.clock.tick()  # each simulation starts by drawing its world
        return super().sample_root_state(state)

    def search(self, state: Any) -> list[tuple[int, float]]:
        """Its policy at ``state`` (an action's share: 1 for the most visited, shared on a
        tie), searched until the deadline."""
        try:
            return list(self.run_search(state))
        except OutOfTime:
            return list(self.get_final_policy(state, self.lookup_node(state)))

    def known(self, state: Any) -> list[tuple[int, float]] | None:
        """Its policy at ``state`` from the tree searched so far, if it reached it."""
        node = self.lookup_node(state)
        if node is None or node.total_visits <= 0:
            return None
        return list(self.get_final_policy(state, node))


class Searches:
    """The last search of each bot (per seat and position), for the later parts of the
    move it searched."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[int, str, Any]] = {}

    def keep(self, name: str, seat: int, position: str, bot: Any) -> None:
        self.last[name] = (seat, position, bot)

    def of(self, name: str, seat: int, position: str) -> Any:
        """The bot that searched this move's first part, if the last one did."""
        kept = self.last.get(name)
        return kept[2] if kept is not None and kept[:2] == (seat, position) else None


SEARCHES = Searches()


def report(name: str, parts: tuple[int, ...], simulations: int, began: float) -> None:
    print(f"anchor {name}: {'part' if parts else 'move'} {simulations} simulations "
          f"{round((time.perf_counter() - began) * 1000)} ms", file=sys.stderr, flush=True)


def choose_mcts(observation: np.ndarray, mask: np.ndarray, *, game: Game, position: str,
                seat: int, parts: tuple[int, ...], rng: random.Random,
                deadline: float, simulations: int | None = None) -> int:
    """The action id OpenSpiel's MCTSBot chooses in ``position`` (the seat's view), having
    searched until ``deadline``: in a game with hidden information, one state drawn from
    the view. ``simulations`` (not given by the engine): a fixed count instead, so that a
    seed chooses the same whatever the clock."""
    began = time.perf_counter()
    node = None
    if parts:  # a later part: the tree of the move's first part, below the parts chosen
        node = SEARCHES.of("mcts", seat, position)
        for action in parts:
            node = None if node is None else next(
                (c for c in node.children if c.action == action), None)
    if (node is None or not node.children) and parts and time.perf_counter() >= deadline:
        report("mcts", parts, 0, began)  # no time left for this part
        return int(rng.choice(np.flatnonzero(mask).tolist()))
    if node is None or not node.children:
        state = spiel_state(game.name, position, parts, seat=seat, rng=rng)
        bot = TimedMCTSBot(state.get_game(), deadline, rng.randrange(2**31), simulations)
        node = bot.search(state)
        report("mcts", parts, bot.clock.simulations, began)
        if not parts:
            SEARCHES.keep("mcts", seat, position, node)
    return int(node.best_child().action)


def choose_ismcts(observation: np.ndarray, mask: np.ndarray, *, game: Game, position: str,
                  seat: int, parts: tuple[int, ...], rng: random.Random,
                  deadline: float, simulations: int | None = None) -> int:
    """The action id OpenSpiel's ISMCTSBot chooses in ``position`` (the seat's view),
    having searched until ``deadline`` from the seat's information state (a game with
    hidden information only: ISMCTSBot refuses the others); ``simulations`` as in
    :func:`choose_mcts`."""
    if game.hidden() is None:
        raise ValueError(f"ISMCTSBot is for a game with hidden information, not {game.name}")
    began = time.perf_counter()
    state = spiel_state(game.name, position, parts, seat=seat, rng=rng)
    bot = SEARCHES.of("ismcts", seat, position) if parts else None
    policy = None if bot is None else bot.known(state)
    if policy is None and parts and time.perf_counter() >= deadline:
        report("ismcts", parts, 0, began)  # no time left for this part
        return int(rng.choice(np.flatnonzero(mask).tolist()))
    if policy is None:
        bot = TimedISMCTSBot(state.get_game(), deadline, rng.randrange(2**31), simulations)
        policy = bot.search(state)
        report("ismcts", parts, bot.clock.simulations, began)
        if not parts:
            SEARCHES.keep("ismcts", seat, position, bot)
    best = max(share for _, share in policy)
    return int(rng.choice([action for action, share in policy if share == best]))
