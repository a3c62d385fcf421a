"""A tiny test-only game with sealed simultaneous bids and private hands, behind
sneferu_cli.game.Game: Goofspiel with dealt hands ("sealed"). Register it with
:func:`register`.

Set-up deals each seat, in seat order, a private hand of 3 cards from a deck of 1 to 13
(one chance outcome a seat, ``~D2.7.11``, every 3-card set of the cards left equally
likely). Then 3 rounds: a public chance draw turns up the round's prize from the prize
deck 1 to 3 (``~P2``), and every seat not retired bids one card of its hand at once,
sealed (``bid 7``); once the last bid is in, the highest bid scores the prize and every
bid is revealed (played). A tie for the highest bid: nobody scores the prize. Ranking by
score (ties share a rank); a retired seat ranks below every other. Score: ``score``.

Position (``?`` hides a card, ``*`` a hand not dealt yet, ``-`` an empty list)::

    sealed prizes=1.3 prize=2 scores=0,2 hands=4.9/?.? bids=-,? played=3.7 retired=0,0

``prizes`` are the prizes still to draw, ``prize`` the round's (``-`` before its draw),
``bids`` each seat's sealed bid (``-`` none yet). A seat's :meth:`SealedGame.view` hides
every other seat's hand cards and sealed bid with ``?``.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sneferu_cli.game import GAMES, BrokenInvariant, Game, NotationError, Standing

DECK = tuple(range(1, 14))
HAND = 3
PRIZES = (1, 2, 3)
UNKNOWN = 0
"""A card the state does not know (a ``?`` of a view)."""


class IllegalSealed(ValueError):
    """An illegal move or outcome."""


@dataclass
class SealedState:
    players: int
    hands: list[list[int] | None]
    """Each seat's hand, sorted (None: not dealt yet; UNKNOWN cards in a view)."""
    prizes: list[int]
    prize: int | None
    scores: list[int]
    bids: list[int | None]
    played: list[int]
    retired: list[bool]

    def is_chance_node(self) -> bool:
        return not self.is_over() and (None in self.hands or self.prize is None)

    def is_over(self) -> bool:
        return all(self.retired) or (None not in self.hands and self.prize is None
                                     and not self.prizes)

    def deciding(self) -> tuple[int, ...]:
        if self.is_over() or self.is_chance_node():
            return ()
        return tuple(s for s in range(self.players)
                     if not self.retired[s] and self.bids[s] is None)

    def current_seat(self) -> int:
        deciding = self.deciding()
        return deciding[0] if deciding else -1

    def clone(self) -> SealedState:
        return SealedState(self.players, [None if h is None else h[:] for h in self.hands],
                           self.prizes[:], self.prize, self.scores[:], self.bids[:],
                           self.played[:], self.retired[:])

    def retire(self, seat: int) -> None:
        """The seat leaves: a sealed bid of its own goes back to its hand unplayed, and the
        round resolves when every seat left has bid."""
        self.retired[seat] = True
        bid = self.bids[seat]
        hand = self.hands[seat]
        if bid is not None and hand is not None:
            hand.append(bid)
            hand.sort()
        self.bids[seat] = None
        if self.prize is not None and not all(self.retired) and not self.deciding():
            self.resolve()

    def resolve(self) -> None:
        bids = [b for b in self.bids if b is not None]
        top = max(bids)
        assert self.prize is not None
        if bids.count(top) == 1:
            self.scores[self.bids.index(top)] += self.prize
        self.played = sorted(self.played + bids)
        self.bids = [None] * self.players
        self.prize = None


@dataclass(frozen=True)
class Edition:
    name: str = "standard"


def _cards(cards: list[int]) -> str:
    return ".".join("?" if c == UNKNOWN else str(c) for c in cards) or "-"


def _read_cards(text: str) -> list[int]:
    if text == "-":
        return []
    return [UNKNOWN if c == "?" else int(c) for c in text.split(".")]


_POSITION = re.compile(
    r"sealed prizes=(-|\d(?:\.\d)*) prize=(-|\d) scores=(\d+(?:,\d+)*) "
    r"hands=([-*?\d.]+(?:/[-*?\d.]+)*) bids=([-?\d]+(?:,[-?\d]+)*) "
    r"played=(-|\d+(?:\.\d+)*) retired=([01](?:,[01])*)")
_CARDS = re.compile(r"-|\*|(?:\?|\d+)(?:\.(?:\?|\d+))*")


class SealedGame(Game[SealedState, Edition]):
    name = "sealed"
    title = "Sealed Goofspiel"
    players = range(2, 5)
    variants = ("standard",)
    score_keys = ("score",)
    move_help = "Type a bid: bid 7 (a card of your hand)."

    def standard_edition(self) -> Edition:
        return Edition()

    def load_edition(self, path: Path) -> Edition:
        return Edition(path.stem)

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> SealedState:
        if players not in self.players:
            raise ValueError(f"players: {players} (Sealed Goofspiel: 2 to 4)")
        return SealedState(players, [None] * players, list(PRIZES), None, [0] * players,
                           [None] * players, [], [False] * players)

    # ------------------------------------------------------------ positions and views

    def from_position(self, text: str, edition: Any | None = None) -> SealedState:
        m = _POSITION.fullmatch(text)
        if m is None:
            raise NotationError(f"not a Sealed Goofspiel position: {text!r}")
        prizes_text, prize_text, scores_text, hands_text, bids_text, played_text, ret = \
            m.groups()
        scores = [int(s) for s in scores_text.split(",")]
        players = len(scores)
        hands: list[list[int] | None] = []
        for h in hands_text.split("/"):
            if _CARDS.fullmatch(h) is None:
                raise NotationError(f"not a hand: {h!r} in {text!r}")
            hands.append(None if h == "*" else _read_cards(h))
        bids = [None if b == "-" else UNKNOWN if b == "?" else int(b)
                for b in bids_text.split(",")]
        retired = [r == "1" for r in ret.split(",")]
        state = SealedState(players, hands, _read_cards(prizes_text),
                            None if prize_text == "-" else int(prize_text), scores, bids,
                            _read_cards(played_text), retired)
        if players not in self.players or {len(hands), len(bids), len(retired)} != {players}:
            raise NotationError(f"{text!r}: every seat needs a score, hand, bid and retired")
        try:
            self.check(state)
        except BrokenInvariant as e:
            raise NotationError(f"impossible position {text!r}: {e}") from None
        return state

    def to_position(self, state: SealedState) -> str:
        return self._text(state, None)

    def hidden(self) -> SealedGame:
        return self  # the game gives the views itself (:class:`~sneferu_cli.game.Hidden`)

    def view(self, state: SealedState, seat: int) -> str:
        return self._text(state, seat)

    def public_view(self, state: SealedState) -> str:
        return self._text(state, -1)  # no seat's: every hand and bid hidden

    def _text(self, state: SealedState, seat: int | None) -> str:
        def hidden(s: int) -> bool:
            return seat is not None and s != seat

        hands = ["*" if h is None else _cards([UNKNOWN] * len(h) if hidden(s) else h)
                 for s, h in enumerate(state.hands)]
        bids = ["-" if b is None else "?" if hidden(s) or b == UNKNOWN else str(b)
                for s, b in enumerate(state.bids)]
        prize = "-" if state.prize is None else str(state.prize)
        return (f"sealed prizes={_cards(state.prizes)} prize={prize} "
                f"scores={','.join(map(str, state.scores))} hands={'/'.join(hands)} "
                f"bids={','.join(bids)} played={_cards(state.played)} "
                f"retired={','.join('1' if r else '0' for r in state.retired)}")

    def determinize(self, state: SealedState, seat: int, rng: random.Random) -> SealedState:
        full = state.clone()
        known = {c for h in full.hands if h is not None for c in h} | set(full.played) \
            | {b for b in full.bids if b is not None}
        pool = [c for c in DECK if c not in known]
        rng.shuffle(pool)
        for s in range(full.players):
            hand = full.hands[s]
            if hand is not None and UNKNOWN in hand:
                full.hands[s] = sorted(pool.pop() if c == UNKNOWN else c for c in hand)
            if full.bids[s] == UNKNOWN:
                full.bids[s] = pool.pop()
        return full

    def players_of(self, state: SealedState) -> int:
        return state.players

    def variant_of(self, state: SealedState) -> str:
        return "standard"

    def edition_of(self, state: SealedState) -> Edition:
        return Edition()

    # ------------------------------------------------------------ chance

    def chance_outcomes(self, state: SealedState) -> list[tuple[str, float]]:
        if not state.is_chance_node():
            return []
        if None in state.hands:
            dealt = {c for h in state.hands if h is not None for c in h}
            hands = list(itertools.combinations([c for c in DECK if c not in dealt], HAND))
            return [("~D" + ".".join(map(str, h)), 1 / len(hands)) for h in hands]
        return [(f"~P{p}", 1 / len(state.prizes)) for p in state.prizes]

    def sample_outcome(self, state: SealedState, rng: random.Random) -> str:
        outcomes = self.chance_outcomes(state)
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]

    def apply_outcome(self, state: SealedState, text: str) -> None:
        if text not in {o for o, _ in self.chance_outcomes(state)}:
            raise IllegalSealed(f"{text}: no such chance outcome now")
        if None in state.hands:
            state.hands[state.hands.index(None)] = [int(c) for c in text[2:].split(".")]
        else:
            state.prize = int(text[2:])
            state.prizes.remove(state.prize)

    def outcome_kind(self, text: str) -> str:
        return "deal" if text.startswith("~D") else "prize"

    # ------------------------------------------------------------ decisions

    def is_simultaneous(self, state: SealedState) -> bool:
        return bool(state.deciding())

    def deciding_seats(self, state: SealedState) -> tuple[int, ...]:
        return state.deciding()

    def _legal_moves(self, state: SealedState, seat: int) -> list[str]:
        hand = state.hands[seat] if 0 <= seat < state.players else None
        if seat not in state.deciding() or hand is None:
            return []
        return [f"bid {c}" for c in hand if c != UNKNOWN]

    def _apply_move(self, state: SealedState, seat: int, text: str, listed: bool) -> str:
        if not state.deciding():
            raise IllegalSealed(f"{text}: no seat decides now")
        move = self.canonical_move(text)
        if move not in self.legal_moves(state, seat):
            raise IllegalSealed(f"{move}: not a legal move of seat {seat + 1}")
        card = int(move.split()[1])
        hand = state.hands[seat]
        assert hand is not None
        hand.remove(card)
        state.bids[seat] = card
        if not state.deciding():
            state.resolve()
        return move

    def canonical_move(self, text: str) -> str:
        m = re.fullmatch(r"bid +([1-9]\d*)", text.strip())
        if m is None:
            raise NotationError(f"not a Sealed Goofspiel move: {text!r} (bid N)")
        return f"bid {m.group(1)}"

    # ------------------------------------------------------------ the end

    def standings(self, state: SealedState) -> list[Standing]:
        playing = [s for s in range(state.players) if not state.retired[s]]
        out = []
        for s in range(state.players):
            if state.retired[s]:
                rank = len(playing) + 1
            else:
                rank = 1 + sum(state.scores[o] > state.scores[s] for o in playing)
            out.append(Standing(s + 1, rank, {"score": state.scores[s]}, state.retired[s]))
        return out

    def termination(self, state: SealedState, standings: Any = None) -> str:
        if not state.is_over():
            return "aborted"
        return "all-retired" if all(state.retired) else "normal"

    def check(self, state: SealedState) -> None:
        known = [c for h in state.hands if h is not None for c in h] + state.played \
            + [b for b in state.bids if b is not None]
        known = [c for c in known if c != UNKNOWN]
        if len(set(known)) != len(known) or not set(known) <= set(DECK):
            raise BrokenInvariant(f"cards repeated or out of the deck: {sorted(known)}")
        if not set(state.prizes) <= set(PRIZES) or len(set(state.prizes)) != len(state.prizes) \
                or state.prize in state.prizes:
            raise BrokenInvariant(f"prizes repeated or out of the deck: {state.prizes}, "
                                  f"{state.prize}")
        if any(b is not None for b in state.bids) and state.prize is None:
            raise BrokenInvariant("a sealed bid with no prize to bid for")

    # ------------------------------------------------------------ pictures

    def picture(self, state: SealedState) -> str:
        lines = [f"prize: {state.prize if state.prize is not None else '-'}"
                 f"  (to draw: {_cards(state.prizes)})"]
        for s in range(state.players):
            hand = state.hands[s]
            bid = state.bids[s]
            lines.append(
                f"seat {s + 1}: score {state.scores[s]}, hand "
                f"{'not dealt' if hand is None else _cards(hand)}"
                f"{', bid sealed' if bid is not None else ''}"
                f"{', retired' if state.retired[s] else ''}")
        return "\n".join(lines)

    def page_data(self, state: SealedState) -> dict[str, Any]:
        return {"prize": state.prize, "scores": state.scores, "played": state.played}


GAME = SealedGame()


def register() -> None:
    """Add Sealed Goofspiel to the registry of this process (tests only)."""
    GAMES.setdefault("sealed", "sealed_game")
