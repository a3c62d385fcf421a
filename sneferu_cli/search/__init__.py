"""Searching positions for the best move: Monte Carlo tree search (no I/O).

Between the rules and notation below and the protocol above: the bundled engine ``mcts``,
``sneferu position analyse`` and the server's ``analyse`` request all call :func:`search`
for Sneferu; the engine and ``position analyse`` search every other game with
:func:`search_game` (:mod:`.generic`, through the game interface only).
"""

from .generic import GenericOptions, search_game
from .mcts import Analysis, MoveStat, SearchOptions, estimate, playout_step, search
from .report import AnalysisDoc, MoveDoc, analysis_doc, analysis_lines

__all__ = ["Analysis", "AnalysisDoc", "GenericOptions", "MoveDoc", "MoveStat", "SearchOptions",
           "analysis_doc", "analysis_lines", "estimate", "playout_step", "search", "search_game"]
