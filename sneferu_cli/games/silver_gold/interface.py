"""The members of the game interface that every decision and chance node calls, as
functions compiled with the rules core (``compiled.txt``): :class:`~sneferu_cli.games.
silver_gold.SilverGoldGame` holds them as static methods, so a call from Python reaches
compiled code with no Python frame on the way (as Akropolis's ``interface.py`` does).

>>> import random
>>> from sneferu_cli.games.silver_gold.state import new_game
>>> state = new_game(2)
>>> rng = random.Random(3)
>>> while state.is_chance_node():
...     apply_outcome(state, sample_outcome(state, rng))
>>> deciding_seats(state), legal_moves(state, 1)[:2]
((0, 1), ['keep 26 33', 'keep 26 43'])
"""

from __future__ import annotations

import random
from typing import Final

from sneferu_cli.game import IllegalMove

from .move import Mark, Move, parse_move, parse_outcome
from .position import public_view as public_view_of
from .position import view as view_of
from .state import SilverGoldState
from .state import sample_outcome as sample

__all__ = [
    "apply_move",
    "apply_move_of",
    "apply_outcome",
    "deciding_seats",
    "determinize",
    "is_simultaneous",
    "legal_moves",
    "legal_moves_of",
    "listed_move",
    "sample_outcome",
    "view",
]


def legal_moves_of(state: SilverGoldState, seat: int) -> list[str]:
    """``Game._legal_moves``: :meth:`SilverGoldState.legal_moves_of`."""
    return state.legal_moves_of(seat)


def apply_move_of(state: SilverGoldState, seat: int, text: str, listed: bool) -> str:
    """``Game._apply_move``: a listed move by :meth:`SilverGoldState.apply_listed`, any
    other read and checked (:meth:`SilverGoldState.apply_move_of`)."""
    if listed:
        state.apply_listed(seat, text, listed_move(text))
        return text
    return state.apply_move_of(seat, parse_move(text))


_LISTED: Final[dict[str, Move]] = {}
"""The value of each listed text applied, read once per process: every keep, take and
main marking (at most some 16,500 texts; never more than :data:`_KEPT` kept), not the markings with
bonus marks, which are too many to keep. A move value is never changed once made."""
_KEPT: Final = 20_000


def legal_moves(state: SilverGoldState, seat: int | None = None) -> list[str]:
    """``Game.legal_moves`` compiled: what the base class derives from
    :func:`legal_moves_of` (``tests/test_games.py`` holds them equal), without its Python
    frames on the per-move path."""
    if seat is None:
        return state.legal_moves()
    if seat not in state.deciding_seats():
        return []
    return state.legal_moves_of(seat)


def apply_move(state: SilverGoldState, text: str, seat: int | None = None, *,
               listed: bool = False) -> str:
    """``Game.apply_move`` compiled: what the base class derives from
    :func:`apply_move_of` (``tests/test_games.py`` holds them equal)."""
    if seat is None:
        seat = state.current_seat()
    elif not listed and seat not in state.deciding_seats():
        raise IllegalMove(f"seat {seat + 1} has no decision to take now")
    return apply_move_of(state, seat, text, listed)


def listed_move(text: str) -> Move:
    """:func:`.move.parse_move` of a listed text, read once (:data:`_LISTED`)."""
    move = _LISTED.get(text)
    if move is None:
        move = parse_move(text)
        if len(_LISTED) < _KEPT and not (isinstance(move, Mark) and move.bonus):
            _LISTED[text] = move
    return move


def deciding_seats(state: SilverGoldState) -> tuple[int, ...]:
    """``Game.deciding_seats``: :meth:`SilverGoldState.deciding_seats`."""
    return state.deciding_seats()


def is_simultaneous(state: SilverGoldState) -> bool:
    """``Game.is_simultaneous``: :meth:`SilverGoldState.is_simultaneous`."""
    return state.is_simultaneous()


def view(state: SilverGoldState, seat: int) -> str:
    """``Hidden.view``: :func:`.position.view`."""
    return view_of(state, seat)


def public_view(state: SilverGoldState) -> str:
    """``Hidden.public_view``: :func:`.position.public_view`."""
    return public_view_of(state)


def determinize(state: SilverGoldState, seat: int, rng: random.Random) -> SilverGoldState:
    """``Hidden.determinize``: :meth:`SilverGoldState.determinize`."""
    return state.determinize(rng)


def apply_outcome(state: SilverGoldState, text: str) -> None:
    """``Game.apply_outcome``: the outcome :func:`.move.parse_outcome` reads."""
    kind, cards, code = parse_outcome(text)
    state.apply_outcome(kind, cards, code)


def sample_outcome(state: SilverGoldState, rng: random.Random) -> str:
    """``Game.sample_outcome``: :func:`.state.sample_outcome`."""
    return sample(state, rng)
