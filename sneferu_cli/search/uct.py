"""What both tree searches share (no I/O): the node, UCT's choice of a child for the seat
to decide, and turning estimates into rewards by comparing the seats.

>>> [round(r, 3) for r in compare([3.0, 1.0], spread=1.0)]
[0.881, 0.119]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["Node", "check_budget", "compare", "select"]


class Node:
    """A tree node: visits, reward sums per seat, children by action (a step, a move's or
    an outcome's text)."""

    __slots__ = ("children", "seat", "untried", "value", "visits")

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat  # the seat to decide; -1 at a chance node or the end
        self.visits = 0
        self.value = [0.0] * players
        self.children: dict[Any, Node] = {}
        self.untried: list[Any] | None = None  # decision nodes: actions not yet expanded


def select(node: Node, exploration: float) -> tuple[Any, Node]:
    """The child UCT picks for the seat deciding at ``node`` (an unvisited one first)."""
    seat = node.seat
    log_n = math.log(node.visits + 1)
    best: tuple[Any, Node] | None = None
    best_u = -math.inf
    for action, child in node.children.items():
        n = child.visits
        u = child.value[seat] / n + exploration * math.sqrt(log_n / n) if n else math.inf
        if u > best_u:
            best, best_u = (action, child), u
    assert best is not None
    return best


def compare(values: Sequence[float], spread: float) -> list[float]:
    """Each seat's reward (0..1) from the seats' estimated values: the mean over the other
    seats of a logistic of the difference, ``spread`` making a clear lead."""
    n = len(values)
    out = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            if j != i:
                x = max(-30.0, min(30.0, (values[i] - values[j]) / spread))
                s += 1.0 / (1.0 + math.exp(-x))
        out.append(s / (n - 1))
    return out


def check_budget(decides: bool, over: bool, iterations: int, deadline: float | None) -> None:
    """A ValueError when a search cannot start: no seat decides (``decides`` False: the
    game is ``over`` or at a chance node), or neither iterations nor a deadline is given."""
    if not decides:
        why = "the game is over" if over else "a chance node"
        raise ValueError(f"analyse: no seat is to decide ({why})")
    if iterations <= 0 and deadline is None:
        raise ValueError("search: give a number of iterations or a deadline")
