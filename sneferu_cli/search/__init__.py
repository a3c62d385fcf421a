"""Searching positions for the best move: Monte Carlo tree search (no I/O).

Between the rules and notation below and the protocol above: the bundled engine ``mcts``,
``sneferu position analyse`` and the server's ``analyse`` request call :func:`analyse`,
which searches with a game's own search when it has one (``Tools.search`` of
``Game.tools()``: Sneferu's, in its folder) and every other game with :func:`search_game`
(:mod:`.generic`, through the game interface only). Both answer an :class:`Analysis`.
"""

from .analysis import Analysis, MoveStat, Tuning
from .generic import GenericOptions, analyse, search_game
from .report import AnalysisDoc, MoveDoc, analysis_doc, analysis_lines

__all__ = [
           "Analysis",
           "AnalysisDoc",
           "GenericOptions",
           "MoveDoc",
           "MoveStat",
           "Tuning",
           "analyse",
           "analysis_doc",
           "analysis_lines",
           "search_game",
]
