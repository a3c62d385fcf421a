"""Tricks (2-4 players), a test-only trick-taking card game with hidden hands, added by
following docs/adding-a-game.md: the rules in :mod:`.state`, the notations in
:mod:`.notation`, the learning encodings in :mod:`.learning`, the viewer's part in
``page.html``. Registered for the tests by one line of ``tests/games/__init__.py``.

>>> import random
>>> from sneferu_cli.game import seat_view
>>> state = GAME.new_game(2)
>>> for deal in ("~a1.b2.c3", "~a4.b1.c4"):
...     GAME.apply_outcome(state, deal)
>>> GAME.legal_moves(state)
['play a1', 'play b2', 'play c3']
>>> GAME.apply_move(state, "play  a1")
'play a1'
>>> GAME.legal_moves(state)  # seat 2 follows suit
['play a4']
>>> seat_view(GAME, state, 1)
'tricks leader=1 hands=?.?/a4.b1.c4 trick=1:a1 won=0,0 played=- retired=0,0'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sneferu_cli.game import Game, Hidden, Learning, Standing

from . import notation
from .state import TricksState, new_state

__all__ = ["GAME", "TricksGame", "TricksState"]


@dataclass(frozen=True)
class Edition:
    """Tricks has no printed numbers: one edition, by name."""

    name: str = "standard"


class TricksGame(Game[TricksState, Edition]):
    name: ClassVar[str] = "tricks"
    title: ClassVar[str] = "Tricks"
    players: ClassVar[range] = range(2, 5)
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    score_keys: ClassVar[tuple[str, ...]] = ("tricks",)
    move_help: ClassVar[str] = "Type a card of your hand: play a3 (follow the led suit)."

    # ------------------------------------------------------------ editions and states

    def standard_edition(self) -> Edition:
        return Edition()

    def load_edition(self, path: Path) -> Edition:
        raise ValueError(f"{path}: Tricks reads no edition files")

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Edition | None = None) -> TricksState:
        if players not in self.players:
            raise ValueError(f"players: {players} (Tricks: 2 to 4)")
        if variant not in (None, *self.variants):
            raise ValueError(f"unknown variant {variant!r} of Tricks (known: standard)")
        return new_state(players)

    def from_position(self, text: str, edition: Edition | None = None) -> TricksState:
        return notation.from_position(text)

    def to_position(self, state: TricksState) -> str:
        return notation.to_position(state)

    def variant_of(self, state: TricksState) -> str:
        return "standard"

    def edition_of(self, state: TricksState) -> Edition:
        return Edition()

    # ------------------------------------------------------------ chance

    def chance_outcomes(self, state: TricksState) -> list[tuple[str, float]]:
        if not state.is_chance_node():
            return []
        deals = state.deals()
        return [(notation.outcome(h), 1 / len(deals)) for h in deals]

    def sample_outcome(self, state: TricksState, rng: random.Random) -> str:
        return notation.outcome(rng.choice(state.deals()))

    def apply_outcome(self, state: TricksState, text: str) -> None:
        state.deal(notation.outcome_cards(text))

    def canonical_outcome(self, text: str) -> str:
        return notation.canonical_outcome(text)

    # ------------------------------------------------------------ decisions

    def _legal_moves(self, state: TricksState, seat: int) -> list[str]:
        return [f"play {c}" for c in state.legal_cards(seat)]

    def _apply_move(self, state: TricksState, seat: int, text: str, listed: bool) -> str:
        move = text if listed else notation.canonical_move(text)
        state.play(seat, move.split()[1])
        return move

    def canonical_move(self, text: str) -> str:
        return notation.canonical_move(text)

    # ------------------------------------------------------------ the end

    def standings(self, state: TricksState) -> list[Standing]:
        playing = [s for s in range(state.players) if not state.retired[s]]
        return [Standing(s + 1, len(playing) + 1 if state.retired[s] else
                         1 + sum(state.won[o] > state.won[s] for o in playing),
                         {"tricks": state.won[s]}, state.retired[s])
                for s in range(state.players)]

    def check(self, state: TricksState) -> None:
        state.check()

    # ------------------------------------------------------------ pictures

    def picture(self, state: TricksState) -> str:
        lines = [f"trick: {' '.join(f'{s + 1}:{c}' for s, c in state.trick) or '-'}"
                 f"  (led by seat {state.leader + 1})"]
        for s, hand in enumerate(state.hands):
            lines.append(f"seat {s + 1}: {state.won[s]} tricks, hand "
                         f"{'not dealt' if hand is None else ' '.join(hand) or '-'}"
                         f"{', retired' if state.retired[s] else ''}")
        return "\n".join(lines)

    def page_data(self, state: TricksState) -> dict[str, Any]:
        return {"hands": [None if h is None else len(h) for h in state.hands],
                "trick": [[s + 1, c] for s, c in state.trick], "won": state.won,
                "turn": self.describe_due(state)}

    # ------------------------------------------------------------ capabilities

    def hidden(self) -> Hidden[TricksState]:
        return _HIDDEN

    def learning(self) -> Learning[TricksState]:
        from .learning import TricksLearning

        return TricksLearning(self)


class _TricksHidden:
    """Each seat sees its own hand only (:class:`~sneferu_cli.game.Hidden`)."""

    @staticmethod
    def view(state: TricksState, seat: int) -> str:
        return notation.to_position(state, seat)

    @staticmethod
    def public_view(state: TricksState) -> str:
        return notation.to_position(state, -1)  # no seat's: every hand hidden

    @staticmethod
    def determinize(state: TricksState, seat: int, rng: random.Random) -> TricksState:
        return state.determinize(rng)


_HIDDEN = _TricksHidden()

GAME = TricksGame()
