"""What a search answers: the moves it looked at, best first (no I/O).

Shared by the generic search (:mod:`.generic`) and a game's own search (Sneferu's,
``Tools.search``), and read by :mod:`.report`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Analysis", "MoveStat", "Tuning"]


@dataclass(frozen=True)
class Tuning:
    """The knobs of a search that an engine's options set (``mcts``: Exploration, Horizon,
    Widening), for whichever search runs: a game's own or the generic one. None leaves the
    search's own default; a search without such a knob ignores it."""

    exploration: float | None = None
    """UCT's exploration constant (rewards are in 0..1)."""
    horizon: int | None = None
    """Playout turns (moves a seat) before an unfinished game is valued; 0 to the end."""
    widening: float | None = None
    """Progressive widening: children searched at a node grow by this times the square
    root of its visits (a search that widens)."""
    guided: bool | None = None
    """Moves searched in the order of their one-move value, playouts by the best of a
    few drawn moves (the generic search, :class:`~.generic.GenericOptions`)."""
    candidates: int | None = None
    """Moves valued at a node below the root (guided; 0: all)."""
    sample: int | None = None
    """Moves drawn for each playout move, the best valued played (guided)."""
    spread: float | None = None
    """Points of estimated difference that make a clear lead."""
    halving: int | None = None
    """The root's move by sequential halving among this many best valued moves (guided;
    0: by UCT)."""
    paired: bool | None = None
    """Halving: the k-th visits of the root's moves draw the same chance."""


@dataclass(frozen=True)
class MoveStat:
    """One whole move at the root: visits, mean reward of the seat to move, its prior.

    ``rank`` is the expected place (1 = first) for two or more seats; ``win`` the
    estimated chance to beat Ptah in a solo game (None otherwise). ``move`` is a Sneferu
    :class:`~sneferu_cli.games.sneferu.move.Move` (its own search), or
    another game's move text (:mod:`.generic`); ``str`` gives its notation.
    """

    move: object
    visits: int
    reward: float
    prior: float
    rank: float
    win: float | None


@dataclass(frozen=True)
class Analysis:
    """The result of a search: the moves best first (most visits, then reward, then prior)."""

    moves: list[MoveStat]
    iterations: int
    nodes: int
    seconds: float
    seat: int
    players: int

    @property
    def best(self) -> MoveStat:
        return self.moves[0]

    @property
    def playouts_per_second(self) -> int:
        """Iterations (playouts) per second."""
        return int(self.iterations / self.seconds) if self.seconds > 0 else 0
