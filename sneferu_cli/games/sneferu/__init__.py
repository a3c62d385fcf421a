"""Sneferu: Builders of the Pyramids, behind :class:`sneferu_cli.game.Game`.

``rules/`` holds the rules (no I/O) and the edition data, ``notation/`` the move and
position notations and the terminal picture, ``page.py`` the web viewer's data. The layers
above reach them through :data:`GAME` (``get_game("sneferu")``, the builders through
``new_game_set_up``); only the Sneferu-only paths of SPEC.md section 12 import this folder
directly, by ``record.py`` (builders and solo tags), ``bench.py`` (step bench and perft),
the Sneferu search and ``sneferu serve``.

>>> state = GAME.new_game(2)
>>> GAME.apply_outcome(state, "~FOOD1")
>>> GAME.canonical_move("3.2+  BT@1.4 feast")
'3.2+ BT@1.4 feast'
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

from ...game import Game, Standing
from .notation.fast import MOVE, read_canonical_move, read_listed_steps, read_outcome
from .notation.picture import picture, sections
from .notation.position import from_position, to_position
from .page import page_data
from .rules.chance import sample_outcome
from .rules.edition import Edition, load_edition, parse_edition, standard_edition
from .rules.state import GameState, new_game

__all__ = ["GAME", "SneferuGame"]


class SneferuGame(Game):
    """Sneferu's rules and notations (SPEC.md sections 3 to 5) as a :class:`Game`.

    The variant ``builders`` draws the builders at set-up; chosen builders, solo against
    Ptah and the rest of Sneferu's own API are in ``rules/`` and ``notation/``.
    """

    name = "sneferu"
    title = "Sneferu"
    players = range(1, 5)
    variants = ("standard", "builders")
    score_keys = ("stones", "food")

    def standard_edition(self) -> Edition:
        return standard_edition()

    def load_edition(self, path: Path) -> Edition:
        return load_edition(path)

    def parse_edition(self, raw: bytes, source: str) -> Edition:
        return parse_edition(raw, source)

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> GameState:
        if variant not in (None, *self.variants):
            raise ValueError(f"variant {variant!r} (Sneferu has {', '.join(self.variants)})")
        return new_game(players, builders="random" if variant == "builders" else None,
                        edition=edition)

    seat_setup: ClassVar[str | None] = "builders"

    def new_game_set_up(self, players: int, setup: str, *,
                        edition: Any | None = None) -> GameState:
        """The builders variant: ``setup`` is ``random`` (drawn at set-up) or one builder
        name per seat, comma-separated (SPEC 3)."""
        return new_game(players, builders=setup, edition=edition)

    move_pattern: ClassVar[str | None] = MOVE

    def from_position(self, text: str, edition: Any | None = None) -> GameState:
        return from_position(text, edition)

    def to_position(self, state: GameState) -> str:
        return to_position(state)

    def players_of(self, state: GameState) -> int:
        return len(state.players)

    def variant_of(self, state: GameState) -> str:
        return state.variant.value

    def edition_of(self, state: GameState) -> Edition:
        return state.edition

    def chance_outcomes(self, state: GameState) -> list[tuple[str, float]]:
        return [(str(o), p) for o, p in state.chance_outcomes()]

    def sample_outcome(self, state: GameState, rng: random.Random) -> str:
        return str(sample_outcome(state, rng))

    def apply_outcome(self, state: GameState, text: str) -> None:
        state.apply(read_outcome(text))

    def canonical_outcome(self, text: str) -> str:
        return str(read_outcome(text))

    def outcome_kind(self, text: str) -> str:
        return type(read_outcome(text)).__name__

    def legal_moves(self, state: GameState) -> list[str]:
        return state.legal_turn_texts()

    def apply_move(self, state: GameState, text: str) -> str:
        move, canonical = read_canonical_move(text)
        state.apply_turn(move.steps)
        return canonical

    def apply_listed_move(self, state: GameState, text: str) -> None:
        state.apply_listed_turn(read_listed_steps(text))

    def canonical_move(self, text: str) -> str:
        return read_canonical_move(text)[1]

    def standings(self, state: GameState) -> list[Standing]:
        return [Standing(s.seat + 1, s.rank, {"stones": s.stones, "food": s.food}, s.retired)
                for s in state.ranking()]

    def termination(self, state: GameState) -> str:
        if not state.is_over():
            return "aborted"
        if all(p.retired for p in state.players):
            return "all-retired"
        if state.solo and state.ptah_total >= state.tables.ptah_target:
            return "ptah"
        return "normal"

    move_help: ClassVar[str] = """\
Type a whole turn in move notation, its steps separated by spaces:
  1.1 TG@1.1        buy column 1 row 1, place it Tura left, granite right, in slot 1.1
  3.2+ BT@1.4       buy with the quarry bonus (+)
  4.1 store         keep the stone in the storehouse (STOREHOUSE bonus)
  MG@1.2 4.1 BT@1.3 place a stored stone first, then buy and place
  end               the forced end, when no stone can be bought"""

    def picture(self, state: GameState) -> str:
        return picture(state)

    def picture_parts(self, state: GameState) -> list[tuple[str, str]]:
        return sections(state)

    def page_data(self, state: GameState) -> dict[str, Any]:
        return page_data(state)

    def check(self, state: GameState) -> None:
        from .rules.check import check

        check(state)


GAME = SneferuGame()
"""The registered Sneferu game."""

