"""PettingZoo binding (SPEC 16.3): :func:`env` makes an AEC environment of any registered
game with an action encoding.

>>> from sneferu_cli.rl.pettingzoo import env
>>> e = env(game="imhotep", players=2)
>>> e.reset(seed=1)
>>> e.agent_selection
'seat_1'

Agents are ``seat_1`` .. ``seat_N``. An observation is a dict: ``observation`` (the game's
observation tensor of the seat, float32) and ``action_mask`` (int8, 1 for each legal action
id). With a factored encoding (SPEC 16.1) a move takes as many steps of its agent as it has
parts, and the observation tensor ends with the parts chosen so far (SPEC 16.1).
Chance is resolved inside with the game's probabilities, drawn from the generator
``reset(seed=...)`` seeds. A simultaneous node is stepped seat by seat in ascending order,
each seat seeing only its view. When the game ends every agent is terminated with its
reward from the final ranking (:func:`sneferu_cli.rl.returns`), and steps ``None`` to leave.
"""

from __future__ import annotations

import random
from typing import Any

from . import Decision, need, observation_size, returns, set_up
from .core import Table

need("pettingzoo", "gymnasium", "numpy")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from ..game import Encoding  # noqa: E402

__all__ = ["SneferuEnv", "env"]


def env(game: str = "sneferu", players: int | None = None, variant: str | None = None,
        render_mode: str | None = None) -> SneferuEnv:
    """The AEC environment of ``game`` for ``players`` seats (the game's smallest count by
    default) in ``variant`` (its first by default); ValueError naming what is wrong, also
    when the game has no action encoding."""
    return SneferuEnv(game, players, variant, render_mode)


RENDER_MODES = ("ansi", "human")
"""``ansi``: :meth:`SneferuEnv.render` returns the terminal picture; ``human``: prints it."""


class SneferuEnv(AECEnv):  # type: ignore[misc]
    """A registered game as a PettingZoo AEC environment (see the module)."""

    def __init__(self, game: str, players: int | None, variant: str | None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        encoding = set_up(game, players, variant)
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode {render_mode!r}: only "
                             f"{' and '.join(map(repr, RENDER_MODES))} are offered")
        rules, learning, players = encoding.game, encoding.learning, encoding.players
        self.encoding: Encoding = encoding
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"sneferu_{rules.name}",
                         "is_parallelizable": False}
        self.possible_agents = [f"seat_{s + 1}" for s in range(players)]
        shape = (learning.observation_shape(players, encoding.variant) if encoding.max_parts == 1
                 else (observation_size(encoding),))
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.actions,), np.int8)})
            for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(encoding.actions)
                               for a in self.possible_agents}
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self._table = Table(encoding, shape)
        """The game stepped, compiled (:class:`sneferu_cli.rl.core.Table`)."""

    @property
    def state(self) -> Any:
        """The game's state."""
        return self._table.state

    @state.setter
    def state(self, state: Any) -> None:
        self._table.state = state

    @property
    def decision(self) -> Decision | None:
        """The selected agent's decision (its legal moves by action ids, the parts chosen)."""
        return self._table.decision

    @property
    def _rng(self) -> random.Random:
        """The generator of the chance draws."""
        return self._table.rng

    @_rng.setter
    def _rng(self, rng: random.Random) -> None:
        self._table.rng = rng

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: every action id of the set-up."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the chance draws. Without one the draws go on from
        the generator as it stands (Gymnasium's convention: a seeded environment reset
        without a seed is still reproducible), which an environment never seeded draws
        from the operating system's entropy."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selected(self._table.new_game())

    def _advance(self) -> None:
        """Resolve chance, then select the deciding seat or end the game."""
        self._selected(self._table.advance())

    def _selected(self, seat: int) -> None:
        """Select ``seat``'s agent, or (-1) end the game: every agent terminated with its
        reward, the first selected."""
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
            return
        for agent, value in zip(self.agents, returns(self.encoding, self.state),
                                strict=True):
            self.rewards[agent] = value
            self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation tensor and action mask."""
        return self._table.observe(self._seats[agent])

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id (``None`` for a terminated agent). Every
        reward stays 0 until the step that ends the game, which sets them all (and adds
        them to the cumulative ones): nothing else to clear or add at a step."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            seat = self._table.step(action)
        except ValueError as e:
            raise ValueError(f"{agent}: {e}") from None
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
            return
        self._selected(seat)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The terminal picture of the position: returned (``ansi``) or printed
        (``human``); None without a render mode."""
        if self.render_mode is None:
            return None
        picture = self.encoding.game.picture(self.state)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def close(self) -> None:
        """Nothing to release."""
