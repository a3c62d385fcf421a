"""Akropolis (2-4 players): the game behind :mod:`sneferu_cli.game`'s interface.

Rules in :mod:`.state` (AKROPOLIS-RULES.md, rulings A1..A23), hex geometry in
:mod:`.geometry`, the final scoring in :mod:`.scoring` (these three are the rules core:
no lark, no click, compiled with mypyc), moves in :mod:`.move`, the printed numbers in
:mod:`.edition` (``editions/standard.toml``).

Variants are the option word of section 9: six letters ``hmbtga``, upper case when on: the
houses, markets, barracks, temples and gardens bonus variants and the all-tiles option
(``hmbtga``, the default; ``HMBTGa``; ``hmbtgA``). The all-tiles option changes nothing
with 4 players, who play every tile anyway.

The position notation and the pictures live in ``position.py`` and ``picture.py``; the
invariants the tests check in ``check.py`` (``GAME.check``) and the estimate the greedy
and mcts engines play by in ``heuristic.py`` (``GAME.evaluate``); the learning libraries'
action encoding (a move in three parts) and observation in ``actions.py`` (SPEC 16.1).

>>> from sneferu_cli.game import get_game
>>> game = get_game("akropolis")
>>> state = game.new_game(2, variant="HmbtgA")
>>> game.chance_outcomes(state)[0]
('~T01', 0.01639344262295082)
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from sneferu_cli.game import FastPaths, Game, Learning, Standing, Tools, delegate
from sneferu_cli.search.analysis import Tuning

from . import interface
from .actions import AkropolisLearning
from .move import MOVE, parse_move, parse_outcome
from .scoring import ranking
from .state import (
    AkropolisState,
    new_game,
    options_of,
)

__all__ = ["GAME", "AkropolisGame", "AkropolisState"]

VARIANTS: tuple[str, ...] = tuple(
    "".join(c.upper() if on else c for c, on in zip("hmbtga", flags, strict=True))
    for flags in itertools.product((False, True), repeat=6))
"""Every option word (section 9): 64, ``hmbtga`` first."""

class AkropolisGame(Game[AkropolisState, Any]):
    """Akropolis: cities of hexagonal tiles taken from a shared construction site."""

    name: ClassVar[str] = "akropolis"
    title: ClassVar[str] = "Akropolis"
    players: ClassVar[range] = range(2, 5)
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    score_keys: ClassVar[tuple[str, ...]] = ("points", "stones")

    standard_edition = delegate("edition", "standard_edition")
    load_edition = delegate("edition", "load_edition")
    parse_edition = delegate("edition", "parse_edition")

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> AkropolisState:
        options_of(variant or VARIANTS[0])
        return new_game(players, variant or VARIANTS[0], edition)

    def from_position(self, text: str, edition: Any | None = None) -> AkropolisState:
        from .position import from_position

        return from_position(text, edition)

    def to_position(self, state: Any) -> str:
        from .position import to_position

        return to_position(state)

    def chance_outcomes(self, state: Any) -> list[tuple[str, float]]:
        if not state.is_chance_node():
            return []
        outcomes = state.tables.outcomes
        p = 1.0 / len(state.undrawn)
        return [(outcomes[t], p) for t in state.undrawn]

    # Compiled functions (interface.py) called with no Python frame of this class's.
    sample_outcome = staticmethod(interface.sample_outcome)
    apply_outcome = staticmethod(interface.apply_outcome)

    def canonical_outcome(self, text: str) -> str:
        parse_outcome(text)
        return text

    def outcome_kind(self, text: str) -> str:
        return "draw"

    _legal_moves = staticmethod(interface.legal_moves_of)
    _apply_move = staticmethod(interface.apply_move_of)
    # The derived members, compiled (a fast path the generic tests hold equal).
    legal_moves = staticmethod(interface.legal_moves)
    apply_move = staticmethod(interface.apply_move)

    def canonical_move(self, text: str) -> str:
        parse_move(text)
        return text

    def standings(self, state: Any) -> list[Standing]:
        return [Standing(seat + 1, rank, {"points": total, "stones": stones}, retired)
                for seat, rank, total, stones, retired in ranking(state)]

    picture = delegate("picture", "picture")
    picture_parts = delegate("picture", "sections")
    page_data = delegate("picture", "page_data")
    check = delegate("check", "check")
    evaluate = delegate("heuristic", "values")

    def learning(self) -> Learning[AkropolisState]:
        return AkropolisLearning(self)

    def tools(self) -> Tools[AkropolisState, Any]:
        return _TOOLS

    def fast_paths(self) -> FastPaths[AkropolisState]:
        return _FAST

    def picture_focus(self, state: Any) -> tuple[str, ...]:
        from .picture import focus

        return focus(state)

    def decision_hint(self, state: Any) -> str:
        from .picture import decision_hint

        return decision_hint(state)

    move_help: ClassVar[str] = """\
Type one move: PLACE @Q,R rK
  1 @1,-1 r0   take the tile in site place 1 (free) and lay its first hex at (1,-1),
               rotation 0: its second hex goes north of it, its third north-east
  3 @0,0 r5    take site place 3 (costs 2 stones), first hex at (0,0), rotation 5
Rotations turn the tile clockwise about its first hex, 60 degrees a step (r0..r5);
positions are axial (q to the south-east, r to the south), as the picture labels them:
each hex of a city shows its (q,r) under its code."""


class _AkropolisFastPaths(FastPaths[AkropolisState]):
    move_pattern = MOVE
    is_listed_move = staticmethod(interface.is_listed_move)
    legal_line = staticmethod(interface.legal_line)


_FAST = _AkropolisFastPaths()


class _AkropolisTools(Tools[AkropolisState, Any]):
    def search_tuning(self) -> Tuning:
        """The guided search with 96 candidates below the root instead of 32: a turn has
        hundreds of moves (each site tile in each placement), and a reply drawn among 32
        often misses the tiles that matter; the root's move by sequential halving among
        its 16 best valued moves, and below the root each node searching only its best
        valued move (widening 0: every root move followed by the seats' one-move best
        replies, chance drawn anew): with these the search took more games from
        ``greedy`` in the same time (docs/performance.md, "Strength of mcts")."""
        return Tuning(candidates=96, halving=16, widening=0.0)


_TOOLS = _AkropolisTools()

GAME = AkropolisGame()
