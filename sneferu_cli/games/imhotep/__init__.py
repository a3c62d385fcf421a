"""Imhotep (2-4 players): the game behind :mod:`sneferu_cli.game`'s interface.

Rules in :mod:`.state` (IMHOTEP-RULES.md, rulings I1..I38), moves in :mod:`.move`, the
printed numbers in :mod:`.edition` (``editions/standard.toml``).

Variants name the side of each site in ``M P T C O`` order, ``A`` or ``B``, and ``+wrath``
for the Wrath of the Pharaoh: ``AAAAA`` (the default), ``BABAA``, ``AAAAA+wrath``.

The position notation and the pictures live in ``position.py`` (``to_position(state)``,
``from_position(text, edition)``) and ``picture.py`` (``picture(state)``,
``page_data(state)``); the invariants the tests check in ``check.py`` (``GAME.check``)
and the estimate the greedy and mcts engines play by in ``heuristic.py``
(``GAME.evaluate``).

>>> from sneferu_cli.game import get_game
>>> game = get_game("imhotep")
>>> state = game.new_game(3, variant="ABAAA+wrath")
>>> game.chance_outcomes(state)[0]
('~R3-1', 0.14285714285714285)
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

from sneferu_cli.game import Game, Learning, Standing, Tools, delegate
from sneferu_cli.search.analysis import Tuning

from . import interface
from .move import parse_move
from .state import ImhotepState, new_game, sample_outcome

__all__ = ["GAME", "ImhotepGame", "ImhotepState"]

VARIANTS: tuple[str, ...] = tuple(
    "".join(sides) + wrath for wrath in ("", "+wrath")
    for sides in itertools.product("AB", repeat=5))
"""Every variant: 32 combinations of sides, each without and with ``+wrath``."""


class ImhotepGame(Game[ImhotepState, Any]):
    """Imhotep: ships carry stones to five sites; round and market cards are chance."""

    name: ClassVar[str] = "imhotep"
    title: ClassVar[str] = "Imhotep"
    players: ClassVar[range] = range(2, 5)
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    score_keys: ClassVar[tuple[str, ...]] = ("points", "sled")

    standard_edition = delegate("edition", "standard_edition")
    load_edition = delegate("edition", "load_edition")
    parse_edition = delegate("edition", "parse_edition")

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> ImhotepState:
        return new_game(players, variant or VARIANTS[0], edition)

    def from_position(self, text: str, edition: Any | None = None) -> ImhotepState:
        from .position import from_position

        return from_position(text, edition)

    def to_position(self, state: Any) -> str:
        from .position import to_position

        return to_position(state)

    def chance_outcomes(self, state: Any) -> list[tuple[str, float]]:
        result: list[tuple[str, float]] = state.chance_outcomes()
        return result

    # Compiled functions (interface.py, state.py) called with no Python frame of this
    # class's.
    sample_outcome = staticmethod(sample_outcome)
    apply_outcome = staticmethod(interface.apply_outcome)

    _legal_moves = staticmethod(interface.legal_moves_of)
    _apply_move = staticmethod(interface.apply_move_of)
    # The derived members, compiled (a fast path the generic tests hold equal).
    legal_moves = staticmethod(interface.legal_moves)
    apply_move = staticmethod(interface.apply_move)

    def canonical_move(self, text: str) -> str:
        return str(parse_move(text))

    def tools(self) -> Tools[ImhotepState, Any]:
        return _TOOLS

    def learning(self) -> Learning[ImhotepState]:
        from .actions import ImhotepLearning

        return ImhotepLearning(self)

    def standings(self, state: Any) -> list[Standing]:
        return [Standing(s.seat + 1, s.rank, {"points": s.points, "sled": s.sled}, s.retired)
                for s in state.ranking()]

    picture = delegate("picture", "picture")
    picture_parts = delegate("picture", "sections")
    page_data = delegate("picture", "page_data")
    check = delegate("check", "check")
    evaluate = delegate("heuristic", "values")

    def picture_focus(self, state: Any) -> tuple[str, ...]:
        from .picture import focus

        return focus(state)

    def decision_hint(self, state: Any) -> str:
        from .picture import decision_hint

        return decision_hint(state)

    move_help: ClassVar[str] = """\
Type one move (ships as on the round card, e.g. 3A; slots from the bow; sites M P T C O):
  Q                 take stones from your quarry onto your sled
  L 3A.2            load a stone from your sled onto ship 3A, slot 2
  S 4A P            sail ship 4A to the pyramid
  LEV 4A P 3,1,4,2  lever card: sail 4A to P, unloading slots in this order
  HAM 2A.1, HAM -   hammer card: take stones, then load slot 2A.1 (or nothing)
  SAI 3A.3 T        sail card: load slot 3A.3, then sail 3A to the temple
  CHI 3A.1 2B.2     chisel card: load two slots
  PASS              when no other move is legal
  take M2, take MX  take a market card for your stone (MX: the side-B pair)
  keep ENT          keep one card of the pair
  pyr PL, pyr PR bonus 3A.1   choose a side-B pyramid (and its bonus)
  temple pts, temple stones   the side-B temple's PS choice"""


class _ImhotepTools(Tools[ImhotepState, Any]):
    def search_tuning(self) -> Tuning:
        """The generic search unguided, with playouts of 4 random moves a seat: a turn has
        a handful of moves, so every one is tried and cheap random playouts go further
        than valued ones (at equal time the unguided search took most games from the
        guided one, docs/performance.md, "Strength of mcts")."""
        return Tuning(guided=False, horizon=4)


_TOOLS = _ImhotepTools()
GAME = ImhotepGame()
