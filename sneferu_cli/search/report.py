"""An analysis as data and as text: what ``position analyse`` and ``serve``'s ``analyse`` give.

:func:`analysis_doc` keeps the ``top`` best moves of an :class:`~.analysis.Analysis` as a
msgspec struct (the JSON of both), :func:`analysis_lines` writes it as text lines. Times
are left out of the text, so a search by iterations prints the same lines every time.

>>> doc = AnalysisDoc(seat=1, players=2, playouts=10, nodes=30, seconds=0.01,
...                   playouts_per_second=1000,
...                   moves=[MoveDoc("2.1 BT@1.1", 7, 0.61, 1.39, None, 0.55)])
>>> print("\\n".join(analysis_lines(doc)))
seat 1 to move: 10 playouts, 30 nodes
   1. 2.1 BT@1.1  visits 7  rank 1.390  value 0.610  prior 0.550
"""

from __future__ import annotations

import msgspec

from .analysis import Analysis

__all__ = ["AnalysisDoc", "MoveDoc", "analysis_doc", "analysis_lines"]


class MoveDoc(msgspec.Struct, frozen=True):
    """One move of an analysis: its visits, mean reward (``value``, 0..1 for the seat to
    move), expected place (``rank``; solo: 2 − win), solo win rate (null with 2+ seats)
    and the estimate it started from (``prior``)."""

    move: str
    visits: int
    value: float
    rank: float
    win: float | None
    prior: float


class AnalysisDoc(msgspec.Struct, frozen=True):
    """An analysis: the seat to move (1-based), the search's size and speed, the moves
    best first."""

    seat: int
    players: int
    playouts: int
    nodes: int
    seconds: float
    playouts_per_second: int
    moves: list[MoveDoc]


def analysis_doc(a: Analysis, top: int = 0) -> AnalysisDoc:
    """The analysis with its ``top`` best moves (0: all), numbers rounded for reading."""
    moves = a.moves[:top] if top > 0 else a.moves
    return AnalysisDoc(
        a.seat + 1, a.players, a.iterations, a.nodes, round(a.seconds, 3), a.playouts_per_second,
        [MoveDoc(str(m.move), m.visits, round(m.reward, 4), round(m.rank, 4),
                 None if m.win is None else round(m.win, 4), round(m.prior, 4))
         for m in moves])


def analysis_lines(doc: AnalysisDoc) -> list[str]:
    """The analysis as text: a head line, then one line a move, best first."""
    width = max((len(m.move) for m in doc.moves), default=0)
    out = [f"seat {doc.seat} to move: {doc.playouts} playouts, {doc.nodes} nodes"]
    for i, m in enumerate(doc.moves, start=1):
        estimate = f"rank {m.rank:.3f}" if m.win is None else f"win {m.win:.3f}"
        out.append(f"{i:4}. {m.move:<{width}}  visits {m.visits}  {estimate}  "
                   f"value {m.value:.3f}  prior {m.prior:.3f}")
    return out
