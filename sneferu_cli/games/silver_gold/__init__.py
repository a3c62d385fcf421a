"""Silver & Gold Pyramids (2-4 players): the game behind :mod:`sneferu_cli.game`'s interface.

Rules in :mod:`.state` (SILVER-GOLD-RULES.md, rulings G1..G31), moves and chance outcomes in
:mod:`.move`, the printed cards in :mod:`.edition` (``editions/sgp-recon-1.toml``), the
position notation and the seats' views in :mod:`.position`, pictures in :mod:`.picture`,
invariants in :mod:`.check` and the estimate the greedy and mcts engines play by in
:mod:`.heuristic`.

The game has hidden information and simultaneous nodes (SPEC 14.5): the set-up deal is
private, and the set-up keep and every step-2 marking are sealed decisions of all seats.

>>> import random
>>> from sneferu_cli.game import get_game
>>> game = get_game("silver-gold")
>>> state = game.new_game(3)
>>> rng = random.Random(2)
>>> while state.is_chance_node():
...     game.apply_outcome(state, game.sample_outcome(state, rng))
>>> game.is_simultaneous(state), game.deciding_seats(state)
(True, (0, 1, 2))
>>> game.hidden().view(state, 1).split(" | ")[1]
'1: R0 G0 F:---- S0 done:- pts:- dealt:?'
"""

from __future__ import annotations

from typing import Any, ClassVar

from sneferu_cli.game import Game, Hidden, Learning, Standing, Tools, delegate
from sneferu_cli.search.analysis import Tuning

from . import heuristic, interface
from .move import Mark, canonical_outcome, parse_move, parse_outcome
from .state import SilverGoldState, new_game

__all__ = ["GAME", "SilverGoldGame", "SilverGoldState"]

_KINDS = {"deal": "deal", "offer": "offer", "draw": "draw", "exp": "exp"}
"""One interned string per outcome kind (records group a run of outcomes by identity)."""


class SilverGoldGame(Game[SilverGoldState, Any]):
    """Silver & Gold Pyramids: expedition patterns marked on pyramid chambers, sealed."""

    name: ClassVar[str] = "silver-gold"
    title: ClassVar[str] = "Silver & Gold Pyramids"
    players: ClassVar[range] = range(2, 5)
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    score_keys: ClassVar[tuple[str, ...]] = ("points", "tiebreak")

    standard_edition = delegate("edition", "standard_edition")
    load_edition = delegate("edition", "load_edition")
    parse_edition = delegate("edition", "parse_edition")

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> SilverGoldState:
        if variant not in (None, *self.variants):
            raise ValueError(f"unknown variant {variant!r} of {self.title} (known: standard)")
        return new_game(players, edition)

    def from_position(self, text: str, edition: Any | None = None) -> SilverGoldState:
        from .position import from_position

        return from_position(text, edition)

    def to_position(self, state: Any) -> str:
        from .position import to_position

        return to_position(state)

    def variant_of(self, state: Any) -> str:
        return "standard"

    # ---------------------------------------------------------------- chance

    def chance_outcomes(self, state: Any) -> list[tuple[str, float]]:
        result: list[tuple[str, float]] = state.chance_outcomes()
        return result

    sample_outcome = staticmethod(interface.sample_outcome)
    apply_outcome = staticmethod(interface.apply_outcome)

    def canonical_outcome(self, text: str) -> str:
        return canonical_outcome(text)

    def outcome_kind(self, text: str) -> str:
        return _KINDS[parse_outcome(text)[0]]

    # ---------------------------------------------------------------- decisions

    _legal_moves = staticmethod(interface.legal_moves_of)
    _apply_move = staticmethod(interface.apply_move_of)
    # The derived members, compiled (a fast path the generic tests hold equal).
    legal_moves = staticmethod(interface.legal_moves)
    apply_move = staticmethod(interface.apply_move)

    def canonical_move(self, text: str) -> str:
        return str(parse_move(text))

    is_simultaneous = staticmethod(interface.is_simultaneous)
    deciding_seats = staticmethod(interface.deciding_seats)

    def hidden(self) -> Hidden[SilverGoldState]:
        return _HIDDEN

    def tools(self) -> Tools[SilverGoldState, Any]:
        return _TOOLS

    def learning(self) -> Learning[SilverGoldState]:
        from .actions import SilverGoldLearning

        return SilverGoldLearning(self)

    # ---------------------------------------------------------------- the end

    def standings(self, state: Any) -> list[Standing]:
        return [Standing(seat + 1, rank, {"points": points, "tiebreak": tiebreak}, retired)
                for seat, rank, points, tiebreak, retired in state.ranking()]

    # ---------------------------------------------------------------- pictures

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

    def shown_state(self, state: Any, seat: int) -> SilverGoldState:
        """The state read from the seat's view, with the cells every seat marked in the
        last step 2 (public once revealed; the position notation does not hold them)."""
        shown = super().shown_state(state, seat)
        shown.last = [x[:] for x in state.last]
        return shown

    def public_state(self, state: Any) -> SilverGoldState:
        """The state read from the public view, with the cells marked in the last step
        (as :meth:`shown_state`)."""
        shown = super().public_state(state)
        shown.last = [x[:] for x in state.last]
        return shown

    moves_note: ClassVar[str | None] = (
        "(Moves that mark the same cells are listed once (G26): another way to mark them, "
        "such as the same bonus marks in another order, may still be typed.)")

    move_help: ClassVar[str] = """\
Type one move (cards by their order number, cells a1..e5: columns a-e, rows 1-5, the
entrance E at a1 and the tomb T at e5):
  keep 12 40            set-up: keep two of your four dealt cards
  17:a1,a2,b2           mark the expedition pattern on card 17 (turned or mirrored)
  17:b3                 or mark one single cell instead
  7:c1,d1,e1 +7:c2      each red cross marked owes a bonus mark: +card:cell, in order
  take 31, take deck    after completing a card: a card of the offer, or the deck's top"""


class _SilverGoldHidden:
    """The seats' views and determinization (:class:`~sneferu_cli.game.Hidden`)."""

    view = staticmethod(interface.view)
    public_view = staticmethod(interface.public_view)
    determinize = staticmethod(interface.determinize)


_HIDDEN = _SilverGoldHidden()


class _SilverGoldTools(Tools[SilverGoldState, Any]):
    def search_tuning(self) -> Tuning:
        """The root's move by sequential halving among its 16 best valued moves, and below
        the root each node searching only its best valued move (widening 0: every root
        move followed by the seats' one-move best replies, the hidden cards drawn anew):
        with these the search took more games from ``greedy`` in the same time
        (docs/performance.md, "Strength of mcts")."""
        return Tuning(halving=16, widening=0.0)

    def move_gains(self, state: SilverGoldState, seat: int,
                   moves: list[str]) -> list[float] | None:
        """The markings of a sealed step 2 valued on one state, each made and taken back
        (:func:`.heuristic.mark_gains`); None elsewhere."""
        marks: list[Mark] = []
        for text in moves:
            move = interface.listed_move(text)
            if not isinstance(move, Mark):
                return None
            marks.append(move)
        return heuristic.mark_gains(state, seat, marks)


_TOOLS = _SilverGoldTools()

GAME = SilverGoldGame()
