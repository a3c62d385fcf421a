"""Tricks's notations: moves, chance outcomes, positions and views.

- move: ``play a3`` (``play`` and a card; blanks between them are one space in the
  canonical form);
- chance outcome, a seat's deal: ``~a1.b3.c4`` (its cards in deck order);
- position: the fields below, separated by single spaces; seats 1-based; ``-`` an empty
  list, ``*`` a hand not dealt yet, ``?`` a card hidden from the seat the view is for::

      tricks leader=2 hands=a1.b2/?.?/* trick=2:a3 won=0,1,0 played=a2.b4.c1 retired=0,0,0

A seat's view hides every other seat's hand cards (their number stays).
"""

from __future__ import annotations

import re

from sneferu_cli.game import BrokenInvariant, NotationError, bound_numbers

from .state import DECK, UNKNOWN, TricksState, card_key

_CARD = "[abc][1-4]"
_MOVE = re.compile(rf"play +({_CARD})")
_OUTCOME = re.compile(rf"~({_CARD}(?:\.{_CARD})*)")
_HAND = rf"(?:\*|-|(?:{_CARD}|\?)(?:\.(?:{_CARD}|\?))*)"
_POSITION = re.compile(
    rf"tricks leader=(\d+) hands=({_HAND}(?:/{_HAND})*) "
    rf"trick=(-|\d+:{_CARD}(?:,\d+:{_CARD})*) won=(\d+(?:,\d+)*) "
    rf"played=(-|{_CARD}(?:\.{_CARD})*) retired=([01](?:,[01])*)")


def canonical_move(text: str) -> str:
    m = _MOVE.fullmatch(text.strip())
    if m is None:
        raise NotationError(f"not a Tricks move: {text!r} (play and a card, e.g. play a3)")
    return f"play {m.group(1)}"


def move_card(move: str) -> str:
    return canonical_move(move).split()[1]


def outcome(cards: list[str]) -> str:
    return "~" + ".".join(cards)


def outcome_cards(text: str) -> list[str]:
    m = _OUTCOME.fullmatch(text)
    if m is None:
        raise NotationError(f"not a Tricks deal: {text!r} (e.g. ~a1.b3.c4)")
    return m.group(1).split(".")


def canonical_outcome(text: str) -> str:
    cards = outcome_cards(text)
    return outcome(sorted(cards, key=card_key))


def _cards(cards: list[str]) -> str:
    return ".".join(cards) or "-"


def to_position(state: TricksState, seat: int | None = None) -> str:
    """The position, or (``seat`` given) that seat's view."""
    hands = ["*" if h is None else _cards([UNKNOWN] * len(h) if seat not in (None, s) else h)
             for s, h in enumerate(state.hands)]
    trick = ",".join(f"{s + 1}:{c}" for s, c in state.trick) or "-"
    return (f"tricks leader={state.leader + 1} hands={'/'.join(hands)} trick={trick} "
            f"won={','.join(map(str, state.won))} played={_cards(state.played)} "
            f"retired={','.join('1' if r else '0' for r in state.retired)}")


def from_position(text: str) -> TricksState:
    bound_numbers(text, "Tricks position")
    m = _POSITION.fullmatch(text)
    if m is None:
        raise NotationError(f"not a Tricks position: {text!r}")
    leader, hands_text, trick_text, won_text, played_text, retired_text = m.groups()
    hands = [None if h == "*" else [] if h == "-" else h.split(".")
             for h in hands_text.split("/")]
    trick = [] if trick_text == "-" else [
        (int(s) - 1, c) for s, c in (t.split(":") for t in trick_text.split(","))]
    won = [int(w) for w in won_text.split(",")]
    played = [] if played_text == "-" else played_text.split(".")
    retired = [r == "1" for r in retired_text.split(",")]
    players = len(won)
    if not 2 <= players <= 4 or {len(hands), len(retired)} != {players}:
        raise NotationError(f"{text!r}: 2 to 4 seats, each with a hand, tricks won and retired")
    if any(not 0 <= s < players for s, _ in trick) or not 1 <= int(leader) <= players:
        raise NotationError(f"{text!r}: no such seat")
    state = TricksState(players, hands, int(leader) - 1, trick, won, played, retired)
    for h in [*hands, played]:
        if h is not None and [c for c in h if c != UNKNOWN] != sorted(
                (c for c in h if c != UNKNOWN), key=card_key):
            raise NotationError(f"{text!r}: cards not in deck order")
    try:
        state.check()
    except BrokenInvariant as e:
        raise NotationError(f"impossible Tricks position {text!r}: {e}") from None
    assert all(c in DECK for c in played)
    return state
