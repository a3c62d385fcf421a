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
>>> game.view(state, 1).split(" | ")[1]
'1: R0 G0 F:---- S0 done:- pts:- dealt:?'
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from sneferu_cli.game import Game, IllegalMove, Standing, delegate

from . import interface
from .edition import standard_edition
from .move import canonical_outcome, parse_move, parse_outcome
from .state import DEALING, DEALT, SilverGoldState, new_game

__all__ = ["GAME", "SilverGoldGame", "SilverGoldState"]

_KINDS = {"deal": "deal", "offer": "offer", "draw": "draw", "exp": "exp"}
"""One interned string per outcome kind (records group a run of outcomes by identity)."""


class SilverGoldGame(Game):
    """Silver & Gold Pyramids: expedition patterns marked on pyramid chambers, sealed."""

    name: ClassVar[str] = "silver-gold"
    title: ClassVar[str] = "Silver & Gold Pyramids"
    players: ClassVar[range] = range(2, 5)
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    score_keys: ClassVar[tuple[str, ...]] = ("points", "tiebreak")
    hidden_information: ClassVar[bool] = True

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

    legal_moves = staticmethod(interface.legal_moves)

    def apply_move(self, state: Any, text: str) -> str:
        seats = state.deciding_seats()
        if not seats:
            raise IllegalMove("no seat decides now")
        return self.apply_move_of(state, seats[0], text)

    apply_listed_move = staticmethod(interface.apply_listed_move)

    def canonical_move(self, text: str) -> str:
        return str(parse_move(text))

    is_simultaneous = staticmethod(interface.is_simultaneous)
    deciding_seats = staticmethod(interface.deciding_seats)
    legal_moves_of = staticmethod(interface.legal_moves_of)

    def apply_move_of(self, state: Any, seat: int, text: str) -> str:
        move = parse_move(text)
        result: str = state.apply_move_of(seat, move)
        return result

    apply_listed_move_of = staticmethod(interface.apply_listed_move_of)
    view = staticmethod(interface.view)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> SilverGoldState:
        result: SilverGoldState = state.determinize(rng)
        return result

    # ---------------------------------------------------------------- learning libraries

    def action_names(self, players: int, variant: str) -> tuple[str, ...]:
        from .actions import action_names

        return action_names(standard_edition())

    def action_parts(self, move: str) -> tuple[str, ...]:
        from .actions import action_parts

        return action_parts(move)

    def max_action_parts(self, players: int, variant: str) -> int:
        from .actions import max_action_parts

        return max_action_parts(standard_edition())

    def outcome_names(self, players: int, variant: str) -> list[str]:
        from .actions import outcome_names

        return outcome_names(standard_edition())

    def outcome_parts(self, outcome: str) -> tuple[str, ...]:
        from .actions import outcome_parts

        return outcome_parts(outcome)

    def max_outcome_parts(self, players: int, variant: str) -> int:
        return DEALT

    def chance_part_outcomes(self, state: Any,
                             chosen: tuple[str, ...]) -> list[tuple[str, float]]:
        from .actions import deal_part_outcomes

        if state.phase == DEALING:
            return deal_part_outcomes(state, chosen)
        return self.chance_outcomes(state)  # one part each

    def outcome_of_parts(self, state: Any, parts: tuple[str, ...]) -> str | None:
        from .actions import outcome_of_parts

        return outcome_of_parts(parts)

    def max_game_length(self, players: int, variant: str) -> int:
        from .actions import max_game_length

        return max_game_length(standard_edition(), players)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        from .actions import observation_size

        return (observation_size(standard_edition(), players),)

    def observation(self, state: Any, seat: int) -> list[float]:
        from .actions import observation

        return observation(state, seat)

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

    move_help: ClassVar[str] = """\
Type one move (cards by their order number, cells a1..e5, row 1 the entrance row):
  keep 12 40            set-up: keep two of your four dealt cards
  17:a1,a2,b2           mark the expedition pattern on card 17 (turned or mirrored)
  17:b3                 or mark one single cell instead
  7:c1,d1,e1 +7:c2      each red cross marked owes a bonus mark: +card:cell, in order
  take 31, take deck    after completing a card: a card of the offer, or the deck's top"""


GAME = SilverGoldGame()
