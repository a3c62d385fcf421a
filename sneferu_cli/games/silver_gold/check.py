"""Silver & Gold Pyramids invariants (``GAME.check``, called by the tests at every step of
random games).

The 48 pyramid cards are conserved: each lies in exactly one of the deck (with, in a view,
the hidden deals), the offer, a seat's deal, its cards in play or its completed cards (the
returned ones are back in the deck, 3.4). Counters stay in bounds (G7, G9), a card in play's
marks are free cells in one group with its entrance (5.2), each colour's boxes are claimed
best first (7), the round and turn are within the game's (4), a seat has at most two cards
in play and the offer at most four.
"""

from __future__ import annotations

from ...game import BrokenInvariant
from .edition import COLOURS
from .state import BOXES, GEMS, ROUNDS, TURNS, SilverGoldState, cells_of, spread

__all__ = ["check"]


def check(state: SilverGoldState) -> None:
    """Raise :class:`BrokenInvariant` when ``state`` breaks conservation or a bound."""
    t = state.tables
    problems: list[str] = []
    seen = state.visible_cards() + [k for k in range(1, t.cards + 1) if state.pool >> k & 1]
    if sorted(seen) != list(range(1, t.cards + 1)):
        problems.append(f"cards not conserved: {len(seen)} seen, {len(set(seen))} different")
    if state.pool & 1 or state.pool >> (t.cards + 1):
        problems.append("the deck holds a card that does not exist")
    if state.deck_size() < 0 or len(state.offer) > 4:
        problems.append(f"deck {state.deck_size()}, offer {len(state.offer)}")
    if not 1 <= state.round <= ROUNDS or not 0 <= state.turn <= TURNS:
        problems.append(f"round {state.round} turn {state.turn}")
    for s in range(state.players):
        if not 0 <= state.red[s] <= GEMS or not 0 <= state.green[s] <= GEMS:
            problems.append(f"seat {s + 1}: gems {state.red[s]}/{state.green[s]}")
        if not 0 <= state.skulls[s] <= t.skull_cap:
            problems.append(f"seat {s + 1}: skulls {state.skulls[s]}")
        if len(state.play[s]) > 2 or state.torches[s] >> state.round:
            problems.append(f"seat {s + 1}: {len(state.play[s])} cards in play, torches "
                            f"{state.torches[s]:b}")
        for card in state.play[s]:
            m = state.marks[card]
            if m & t.walls[card] or m >> t.tomb[card] & 1:
                problems.append(f"card {card}: a wall or the tomb marked while in play")
            group = (1 << t.entrance[card]) & m
            while group and group | (spread(group) & m) != group:
                group |= spread(group) & m
            if group != m:
                problems.append(f"card {card}: marks {cells_of(m)} not one group with "
                                "its entrance")
    for colour in range(len(COLOURS)):
        values = sorted((v for b in state.boxes for c, v in b if c == colour), reverse=True)
        if values != list(BOXES[:len(values)]) or state.taken[colour] != len(values):
            problems.append(f"{COLOURS[colour]} boxes {values}")
    if problems:
        raise BrokenInvariant("; ".join(problems))
