"""The rules of Tricks: the state, the deal, the play of a card, the end.

A deck of 12 cards in 3 suits (``a``, ``b``, ``c``) of ranks 1 to 4 (``a1`` .. ``c4``).
Set-up deals each seat, in seat order, a private hand of 3 cards (one chance outcome a
seat, every 3-card set of the cards left equally likely). Then 3 tricks: the leader (seat
1 for the first trick, then the last trick's winner) plays a card, and each other seat in
turn plays one, following the led suit when it can; the highest card of the led suit
takes the trick, a point for its seat. A retired seat plays no more cards: a trick is
complete when every seat not retired has played to it.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from sneferu_cli.game import BrokenInvariant, IllegalMove

SUITS = "abc"
RANKS = (1, 2, 3, 4)
DECK: tuple[str, ...] = tuple(f"{s}{r}" for s in SUITS for r in RANKS)
HAND = 3
UNKNOWN = "?"
"""A card the state does not know (another seat's card in a view)."""


class IllegalTricks(IllegalMove):
    """A card that may not be played now, or a deal that is not a chance outcome now."""


def card_key(card: str) -> int:
    """Deck order (unknown cards last)."""
    return DECK.index(card) if card in DECK else len(DECK)


@dataclass
class TricksState:
    players: int
    hands: list[list[str] | None]
    """Each seat's hand in deck order (None: not dealt yet; UNKNOWN cards in a view)."""
    leader: int
    """The seat that leads (or led) the trick being played."""
    trick: list[tuple[int, str]]
    """The cards played to the current trick: (seat, card), in the order played."""
    won: list[int]
    """Tricks taken, by seat."""
    played: list[str]
    """The cards of the completed tricks, in deck order (public)."""
    retired: list[bool]

    # ------------------------------------------------------------ the State protocol

    def is_chance_node(self) -> bool:
        return not all(self.retired) and None in self.hands

    def is_over(self) -> bool:
        if all(self.retired):
            return True
        return None not in self.hands and not self.trick and all(
            not h for s, h in enumerate(self.hands) if not self.retired[s])

    def current_seat(self) -> int:
        if self.is_over() or self.is_chance_node():
            return -1
        done = {s for s, _ in self.trick}
        for i in range(self.players):
            seat = (self.leader + i) % self.players
            if not self.retired[seat] and seat not in done:
                return seat
        return -1

    def clone(self) -> TricksState:
        return TricksState(self.players, [None if h is None else h[:] for h in self.hands],
                           self.leader, self.trick[:], self.won[:], self.played[:],
                           self.retired[:])

    def retire(self, seat: int) -> None:
        self.retired[seat] = True
        if self.trick and self.current_seat() == -1 and not all(self.retired):
            self.resolve()

    # ------------------------------------------------------------ the rules

    def deal(self, cards: list[str]) -> None:
        if not self.is_chance_node():
            raise IllegalTricks("no deal is due")
        dealt = {c for h in self.hands if h is not None for c in h}
        if len(cards) != HAND or len(set(cards)) != HAND or not set(cards) <= set(DECK) \
                or dealt & set(cards):
            raise IllegalTricks(f"{'.'.join(cards)}: not a hand of the cards left")
        self.hands[self.hands.index(None)] = sorted(cards, key=card_key)

    def deals(self) -> list[list[str]]:
        """The hands the next deal may give, in deck order."""
        dealt = {c for h in self.hands if h is not None for c in h}
        left = [c for c in DECK if c not in dealt]
        return [list(h) for h in itertools.combinations(left, HAND)]

    def legal_cards(self, seat: int) -> list[str]:
        if seat < 0 or seat != self.current_seat():
            return []
        hand = [c for c in self.hands[seat] or () if c != UNKNOWN]
        if self.trick:
            led = self.trick[0][1][0]
            follow = [c for c in hand if c[0] == led]
            if follow:
                return follow
        return hand

    def play(self, seat: int, card: str) -> None:
        if card not in self.legal_cards(seat):
            raise IllegalTricks(f"play {card}: not a legal move of seat {seat + 1}")
        hand = self.hands[seat]
        assert hand is not None
        hand.remove(card)
        self.trick.append((seat, card))
        if self.current_seat() == -1:
            self.resolve()

    def resolve(self) -> None:
        led = self.trick[0][1][0]
        winner = max((c for c in self.trick if c[1][0] == led), key=lambda c: int(c[1][1:]))[0]
        self.won[winner] += 1
        self.played = sorted(self.played + [c for _, c in self.trick], key=card_key)
        self.trick = []
        self.leader = winner

    def determinize(self, rng: random.Random) -> TricksState:
        """Every UNKNOWN card drawn from the cards not seen, at random."""
        full = self.clone()
        seen = {c for h in full.hands if h is not None for c in h} | set(full.played) \
            | {c for _, c in full.trick}
        pool = [c for c in DECK if c not in seen]
        rng.shuffle(pool)
        for s, hand in enumerate(full.hands):
            if hand is not None and UNKNOWN in hand:
                full.hands[s] = sorted((pool.pop() if c == UNKNOWN else c for c in hand),
                                       key=card_key)
        return full

    def check(self) -> None:
        known = [c for h in self.hands if h is not None for c in h] + self.played \
            + [c for _, c in self.trick]
        known = [c for c in known if c != UNKNOWN]
        if len(set(known)) != len(known) or not set(known) <= set(DECK):
            raise BrokenInvariant(f"cards repeated or out of the deck: {sorted(known)}")
        if None in self.hands and (self.hands.index(None) != sum(h is not None
                                                                  for h in self.hands)
                                   or self.trick or self.played):
            raise BrokenInvariant("a hand dealt out of seat order, or play before the deal")
        if any(len(h) > HAND for h in self.hands if h is not None):
            raise BrokenInvariant("a hand of more than 3 cards")
        if len({s for s, _ in self.trick}) != len(self.trick) \
                or not 0 <= self.leader < self.players:
            raise BrokenInvariant("a seat played twice to a trick, or no such leader")
        if sum(self.won) > HAND:
            raise BrokenInvariant(f"{sum(self.won)} tricks taken")


def new_state(players: int) -> TricksState:
    return TricksState(players, [None] * players, 0, [], [0] * players, [],
                       [False] * players)
