"""The Silver & Gold Pyramids game state: every rule of SILVER-GOLD-RULES.md (G1-G31).

A :class:`SilverGoldState` is a chance node (a deal, an offer card, a drawn card, an
expedition card), a decision, or over. Two decisions are simultaneous and sealed (G21,
G22): the set-up keep and the step-2 marking. Every seat that owes such a decision
(:meth:`~SilverGoldState.deciding_seats`) submits its move, which is checked against the
node and kept *pending* (``sealed``); the moves take effect together when the last one is
in. A move touches only its own seat's cards and scoring card, so the order of submission
cannot matter. ``current_seat()`` is the lowest deciding seat, so a loop that knows nothing
of simultaneous nodes collects the moves in seat order (G1). The new-card choices of step 3
are ordinary decisions of one seat, in the order of G13.

Chambers are bit masks: bit ``k`` is cell ``k`` (``a1`` = 0 .. ``e5`` = 24, row by row).
The cards not visible anywhere form ``pool`` (a mask of card numbers): the deck, plus, in a
seat's view during set-up, the other seats' hidden dealt cards (``hidden``).

>>> import random
>>> from sneferu_cli.games.silver_gold.move import parse_outcome
>>> state = new_game(2)
>>> rng = random.Random(3)
>>> while state.is_chance_node():
...     state.apply_outcome(*parse_outcome(sample_outcome(state, rng)))
>>> state.deciding_seats(), len(state.legal_moves())
((0, 1), 6)
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Final

from ...game import IllegalMove
from .edition import COLOURS, SIZE, Edition, cell_index, standard_edition
from .move import (
    CELL_NAMES,
    DEAL,
    DRAW,
    EXP,
    OFFER,
    Keep,
    Mark,
    Move,
    Take,
    mark_text,
    parse_move,
)

__all__ = ["SilverGoldIllegal", "SilverGoldState", "Tables", "new_game", "sample_outcome"]

# Phases (what the state waits for).
DEALING: Final = 0   # chance: the deal of seat ``phase_seat`` (3.2)
KEEPING: Final = 1   # simultaneous: every seat keeps 2 of its 4 (3.3, G22)
OFFERING: Final = 2  # chance: the set-up offer (3.4)
REVEAL: Final = 3    # chance: the expedition card of the next turn (step 1, G24)
MARKING: Final = 4   # simultaneous: every seat with a card in play marks (step 2, G21)
TAKING: Final = 5    # decision: seat ``phase_seat`` takes a new card (step 3, G13)
DRAWING: Final = 6   # chance: the card ``take deck`` gives seat ``phase_seat``
REFILL: Final = 7    # chance: the offer refilled after a seat's takes (G15)
OVER: Final = 8

_OUTCOME_KIND: Final = (DEAL, "", OFFER, EXP, "", "", DRAW, OFFER, "")
"""The kind of chance outcome each phase waits for ("": none)."""
PHASES: Final = ("deal", "keep", "offer", "exp", "mark", "take", "draw", "refill", "over")
"""The name of each phase in the position notation."""

ROUNDS: Final = 4
TURNS: Final = 7
"""Rounds in a game and turns (expedition cards revealed) in a round (4)."""
DEALT: Final = 4
KEPT: Final = 2
OFFER_SIZE: Final = 4
GEMS: Final = 10
"""Each gem track has 10 spaces (G9)."""
CARD_POINTS: Final = 10
TORCH_POINTS: Final = 5
PAIR_POINTS: Final = 5
BOXES: Final = (10, 6, 3)
"""Each colour's pyramid-point boxes, taken best first (7)."""
THRESHOLDS: Final = (2, 4, 6)
"""A claim each time a colour's completed cards reach one of these (7)."""

CELLS: Final = SIZE * SIZE
FULL: Final = (1 << CELLS) - 1
_COL_A: Final = sum(1 << (SIZE * r) for r in range(SIZE))
_COL_E: Final = _COL_A << (SIZE - 1)


class SilverGoldIllegal(IllegalMove):
    """A move or chance outcome the rules do not allow in the state it is applied to."""


def spread(mask: int) -> int:
    """The cells sharing a side with a cell of ``mask`` (G4: never diagonally)."""
    return ((mask << SIZE) | (mask >> SIZE) | ((mask & ~_COL_E) << 1)
            | ((mask & ~_COL_A) >> 1)) & FULL


def marks_key(ms: list[int]) -> int:
    """The marks of a seat's cards in play as one number: those of the *j*-th card in bits
    ``CELLS * j`` on."""
    key = 0
    for j in range(len(ms) - 1, -1, -1):
        key = key << CELLS | ms[j]
    return key


def cells_of(mask: int) -> list[int]:
    """The cell indices of ``mask``, ascending (row by row, then column)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _orientations(cells: list[tuple[int, int]]) -> set[tuple[tuple[int, int], ...]]:
    """Every turn and mirror image of a shape of (row, column) cells, moved to the corner
    (G3)."""
    shapes: set[tuple[tuple[int, int], ...]] = set()
    for mirror in (False, True):
        cur = [(r, -c) if mirror else (r, c) for r, c in cells]
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            r0 = min(r for r, _ in cur)
            c0 = min(c for _, c in cur)
            shapes.add(tuple(sorted((r - r0, c - c0) for r, c in cur)))
    return shapes


class Tables:
    """An edition's numbers in the shapes the rules use, shared by all its states: per card
    number (index 0 unused) its colour index and cell masks, per pattern its placements."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        n = len(edition.cards) + 1
        self.cards = len(edition.cards)
        self.all_cards = sum(1 << k for k in range(1, n))
        """The pool of a new game: bit k set for every card number k."""
        self.colour = [0] * n
        self.walls = [0] * n
        self.entrance = [0] * n
        self.tomb = [0] * n
        self.red = [0] * n
        self.green = [0] * n
        self.torch = [0] * n
        self.skull = [0] * n
        self.potion = [0] * n
        self.cross = [0] * n
        self.grid = [""] * n
        for card in edition.cards:
            k = card.number
            grid = "".join(card.rows)
            self.grid[k] = grid
            self.colour[k] = COLOURS.index(card.colour)
            masks = {code: sum(1 << i for i, c in enumerate(grid) if c == code)
                     for code in "#ETRGFSPX"}
            self.walls[k] = masks["#"]
            self.entrance[k] = grid.index("E")
            self.tomb[k] = grid.index("T")
            self.red[k] = masks["R"]
            self.green[k] = masks["G"]
            self.torch[k] = masks["F"]
            self.skull[k] = masks["S"]
            self.potion[k] = masks["P"]
            self.cross[k] = masks["X"]
        self.codes = tuple(e.code for e in edition.expeditions)
        self.copies = tuple(e.copies for e in edition.expeditions)
        self.pattern_size = tuple(len(e.cells) for e in edition.expeditions)
        self.skull_values = edition.skull_values
        self.skull_cap = len(edition.skull_values)
        # Every placement of each pattern on the grid, as (mask, sorted cells), ordered by
        # the sorted cell indices (the legal-move order, SPEC 14.2).
        self.placements: list[list[tuple[int, tuple[int, ...]]]] = []
        self.placement_set: list[frozenset[int]] = []
        for e in edition.expeditions:
            shape = [divmod(cell_index(c), SIZE) for c in e.cells]
            found: set[tuple[int, ...]] = set()
            for form in _orientations(shape):
                h = max(r for r, _ in form)
                w = max(c for _, c in form)
                for dr in range(SIZE - h):
                    for dc in range(SIZE - w):
                        found.add(tuple(sorted(SIZE * (r + dr) + c + dc for r, c in form)))
            ordered = sorted(found)
            self.placements.append([(sum(1 << k for k in cells), cells) for cells in ordered])
            self.placement_set.append(frozenset(sum(1 << k for k in c) for c in ordered))
        # What a listing of markings reads instead: each card's main markings with each
        # pattern (Mains, made when first listed) and each bonus mark's `` +17:c2`` (index
        # card * CELLS + cell).
        self.mains: list[Mains | None] = [None] * ((len(self.placements) + 1) * n)
        self.bonus_text = [f" +{k // CELLS}:{CELL_NAMES[k % CELLS]}" for k in range(n * CELLS)]

    def mains_of(self, p: int, card: int) -> Mains:
        """The main markings of pattern ``p`` (-1: none) on ``card`` (:class:`Mains`)."""
        at = (p + 1) * (self.cards + 1) + card
        mains = self.mains[at]
        if mains is None:
            mains = self.mains[at] = Mains(self, p, card)
        return mains

    def pattern(self, code: str) -> int:
        """The index of the pattern ``code``; -1 when the edition has none."""
        return self.codes.index(code) if code in self.codes else -1

    def skulls_after(self, card: int, cells: int, skulls: int) -> int:
        """The skull counter after one marking of ``cells`` on ``card`` from ``skulls``:
        its skulls added, then its potions erasing two each (5.4, G6, G7)."""
        n = (cells & self.skull[card]).bit_count()
        if n:
            skulls = min(self.skull_cap, skulls + n)
        n = (cells & self.potion[card]).bit_count()
        if n:
            skulls = max(0, skulls - 2 * n)
        return skulls

    def penalty(self, skulls: int) -> int:
        """The skull penalty for ``skulls`` marked (2.5, G7)."""
        return self.skull_values[skulls - 1] if skulls > 0 else 0


class Mains:
    """The main markings one card may take with one pattern (SPEC 14.2's order): the
    placements clear of its walls by their sorted cells, then every single cell (number
    ``places`` + cell); each one's cell mask and whole text (``17:a1,a2,b2``), made once
    per edition, pattern (or none) and card: at most 7 x 48 in the standard edition."""

    def __init__(self, t: Tables, p: int, card: int) -> None:
        walls = t.walls[card]
        clear = [(mask, cells) for mask, cells in (t.placements[p] if p >= 0 else [])
                 if not mask & walls]
        self.places = len(clear)
        self.masks = [mask for mask, _ in clear] + [1 << k for k in range(CELLS)]
        self.texts = [mark_text(card, cells, ()) for _, cells in clear]
        self.texts += [mark_text(card, (k,), ()) for k in range(CELLS)]


@functools.cache
def tables_of(edition: Edition) -> Tables:
    """The shared :class:`Tables` of ``edition``."""
    return Tables(edition)


Undo = tuple[list[int], int, int, int, int, list[int], list[int], list[int],
             list[tuple[int, int]]]
"""What :meth:`SilverGoldState.mark_alone` keeps to take a marking back."""


class SilverGoldState:
    """A Silver & Gold Pyramids game of 2-4 seats (0-based here, 1-based in notations)."""

    def __init__(self, players: int, edition: Edition | None = None,
                 tables: Tables | None = None) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"Silver & Gold Pyramids is played by 2 to 4, not {players}")
        self.tables = tables or tables_of(edition or standard_edition())
        self.players = players
        self.round = 1
        self.turn = 0
        """Expedition cards revealed this round (0-7)."""
        self.phase = DEALING
        self.phase_seat = 0
        self.revealed: list[int] = []
        """The patterns revealed this round, in order; the last is the current one."""
        self.offer: list[int] = []
        self.pool = self.tables.all_cards
        self.hidden = [0] * players
        """Per seat, how many of its dealt cards this state does not know (a view)."""
        self.dealt: list[list[int]] = [[] for _ in range(players)]
        self.play: list[list[int]] = [[] for _ in range(players)]
        self.marks = [0] * (self.tables.cards + 1)
        """The marked cells of each card in play, by card number."""
        self.red = [0] * players
        self.green = [0] * players
        self.skulls = [0] * players
        self.torches = [0] * players
        """Bit r-1 set: the torch box of round r is marked."""
        self.done: list[list[int]] = [[] for _ in range(players)]
        self.boxes: list[list[tuple[int, int]]] = [[] for _ in range(players)]
        """Claimed pyramid-point boxes per seat: (colour index, points)."""
        self.taken = [0] * len(COLOURS)
        """Boxes claimed per colour (0-3)."""
        self.sealed: list[Move | None] = [None] * players
        self.now: list[list[int]] = [[] for _ in range(players)]
        """Cards each seat completed in this turn's step 2 (kept until step 4)."""
        self.owed = [0] * players
        self.retired = [False] * players
        self.last: list[list[tuple[int, int]]] = [[] for _ in range(players)]
        """Per seat, (card, cells) marked in the last step 2 (for the pictures only; not
        part of the position)."""
        self.version = 0
        """Counts the changes made by the methods (an outcome, a move, a retirement): a
        view written is kept as long as it stays the same (:func:`.position.view`). Change
        a state only through its methods once a view of it was written."""

    @property
    def edition(self) -> Edition:
        return self.tables.edition

    def clone(self) -> SilverGoldState:
        other = SilverGoldState(self.players, tables=self.tables)
        other.round = self.round
        other.turn = self.turn
        other.phase = self.phase
        other.phase_seat = self.phase_seat
        other.revealed = self.revealed[:]
        other.offer = self.offer[:]
        other.pool = self.pool
        other.hidden = self.hidden[:]
        other.dealt = [d[:] for d in self.dealt]
        other.play = [p[:] for p in self.play]
        other.marks = self.marks[:]
        other.red = self.red[:]
        other.green = self.green[:]
        other.skulls = self.skulls[:]
        other.torches = self.torches[:]
        other.done = [d[:] for d in self.done]
        other.boxes = [b[:] for b in self.boxes]
        other.taken = self.taken[:]
        other.sealed = self.sealed[:]
        other.now = [n[:] for n in self.now]
        other.owed = self.owed[:]
        other.retired = self.retired[:]
        other.last = [x[:] for x in self.last]
        return other

    # ------------------------------------------------------------------ where play is

    def is_over(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in (DEALING, OFFERING, REVEAL, DRAWING, REFILL)

    def is_simultaneous(self) -> bool:
        return self.phase in (KEEPING, MARKING)

    def deciding_seats(self) -> tuple[int, ...]:
        """The seats that owe a decision now (at a sealed node: those still to submit)."""
        if self.phase == KEEPING:
            return tuple(s for s in range(self.players) if not self.retired[s]
                         and self.sealed[s] is None and (self.dealt[s] or self.hidden[s]))
        if self.phase == MARKING:
            return tuple(s for s in range(self.players) if not self.retired[s]
                         and self.sealed[s] is None and self.play[s])
        if self.phase == TAKING:
            return (self.phase_seat,)
        return ()

    def current_seat(self) -> int:
        seats = self.deciding_seats()
        if not seats:
            raise ValueError("no seat decides now")
        return seats[0]

    def deck_size(self) -> int:
        """The cards in the pyramid deck."""
        return self.pool.bit_count() - sum(self.hidden)

    def pattern(self) -> int:
        """The current pattern (index into the edition's expeditions); -1 before the first
        reveal of a round."""
        return self.revealed[-1] if self.revealed else -1

    # ------------------------------------------------------------------ chance

    def pool_cards(self) -> list[int]:
        """The cards not visible anywhere, ascending."""
        return [k for k in range(1, self.tables.cards + 1) if self.pool >> k & 1]

    def chance_weights(self) -> list[tuple[str, int]]:
        """The outcomes of this chance node with integer weights (each deal weight 1)."""
        if self.phase == DEALING:
            return [(f"~deal:{a},{b},{c},{d}", 1)
                    for a, b, c, d in itertools.combinations(self.pool_cards(), DEALT)]
        if self.phase == REVEAL:
            left = self._copies_left()
            return [(f"~exp:{code}", n) for code, n in zip(self.tables.codes, left,
                                                           strict=True) if n > 0]
        kind = DRAW if self.phase == DRAWING else OFFER
        if self.is_chance_node():
            return [(f"~{kind}:{k}", 1) for k in self.pool_cards()]
        return []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(o, w / total) for o, w in weights]

    def _copies_left(self) -> list[int]:
        left = list(self.tables.copies)
        for p in self.revealed:
            left[p] -= 1
        return left

    def apply_outcome(self, kind: str, cards: tuple[int, ...], code: str) -> None:
        """Apply a chance outcome (as :func:`.move.parse_outcome` reads it)."""
        self.version += 1
        expected = _OUTCOME_KIND[self.phase]
        if kind != expected:
            raise SilverGoldIllegal(f"a ~{kind} outcome does not fit here (expected "
                                    f"{'~' + expected if expected else 'no chance event'})")
        if kind == EXP:
            p = self.tables.pattern(code)
            if p < 0 or self._copies_left()[p] <= 0:
                raise SilverGoldIllegal(f"expedition card {code!r} is not left this round")
            self.revealed.append(p)
            self.turn += 1
            self.phase = MARKING
            self._run()
            return
        if len(set(cards)) != len(cards):
            raise SilverGoldIllegal("a deal is four different cards")
        for k in cards:
            if not 1 <= k <= self.tables.cards or not self.pool >> k & 1:
                raise SilverGoldIllegal(f"card {k} is not in the deck")
        for k in cards:
            self.pool &= ~(1 << k)
        seat = self.phase_seat
        if kind == DEAL:
            self.dealt[seat] = list(cards)
            self.phase_seat += 1
        elif kind == DRAW:
            self.play[seat].append(cards[0])
            self.play[seat].sort()
            self.owed[seat] -= 1
            self.phase = TAKING
            self._after_take(seat)
            return
        else:
            self.offer.append(cards[0])
            self.offer.sort()
        self._run()

    # ------------------------------------------------------------------ decisions

    def legal_moves_of(self, seat: int) -> list[str]:
        """The legal moves of ``seat`` as canonical text (SPEC 14.2's order); empty when it
        owes no decision (or, in a view, when its dealt cards are hidden)."""
        if seat not in self.deciding_seats():
            return []
        if self.phase == KEEPING:
            return [f"keep {a} {b}" for a, b in itertools.combinations(self.dealt[seat], 2)]
        if self.phase == MARKING:
            return self._marking(seat)
        moves = [f"take {k}" for k in self.offer]
        if self.deck_size() > 0:
            moves.append("take deck")
        return moves

    def legal_moves(self) -> list[str]:
        seats = self.deciding_seats()
        return self.legal_moves_of(seats[0]) if seats else []

    def mark_options(self, seat: int
                     ) -> list[tuple[str, int, int, tuple[tuple[int, int], ...]]]:
        """Every legal step-2 move of ``seat``: (text, card, main mask, bonus marks), each
        result once (G26: the marks and counters a move leaves, :meth:`result_key`). Order:
        cards ascending; on each, the pattern placements by their sorted cells, then the
        single cells (5.2, 5.3); each with its bonus-mark sequences by card number, row and
        column; a move that leaves the same result as one listed before it is left out (so
        each result comes with its first text in the order of G26)."""
        options: list[tuple[str, int, int, tuple[tuple[int, int], ...]]] = []
        self._marking(seat, None, options)
        return options

    def _marking(self, seat: int, finals: list[int] | None = None,
                 options: list[tuple[str, int, int, tuple[tuple[int, int], ...]]] | None
                 = None) -> list[str]:
        """The texts of :meth:`mark_options`, taken from the cards' :class:`Mains`; with
        ``finals``, each text's result (:meth:`result_key`) appended to it, with
        ``options``, each option."""
        t = self.tables
        p = self.pattern()
        cards = self.play[seat]
        marks = self.marks
        # The mains of each card that its marks allow (numbers in its Mains), and whether
        # one of them owes bonus marks or two complete the card: without either, no two
        # texts leave the same result (they mark different cells, and at most one of
        # them makes the card leave play with its marks).
        tables: list[Mains] = []
        picks: list[list[int]] = []
        owing = finals is not None or options is not None
        for card in cards:
            mains = t.mains_of(p, card)
            m = marks[card]
            need = spread(m) if m else 1 << t.entrance[card]
            cross = t.cross[card]
            tomb = 1 << t.tomb[card]
            masks = mains.masks
            picked: list[int] = []
            completing = 0
            for i in range(mains.places):
                mask = masks[i]
                if not mask & m and mask & need:
                    picked.append(i)
                    if mask & cross:
                        owing = True
                    if mask & tomb:
                        completing += 1
            single = need & ~(t.walls[card] | m)
            if single & cross:
                owing = True
            if single & tomb:
                completing += 1
            if completing > 1:  # two markings that complete the card may leave one result
                owing = True
            while single:
                low = single & -single
                single ^= low
                picked.append(mains.places + low.bit_length() - 1)
            tables.append(mains)
            picks.append(picked)
        texts: list[str] = []
        if not owing:
            for j in range(len(cards)):
                names = tables[j].texts
                texts.extend([names[i] for i in picks[j]])
            return texts
        seen: set[int] = set()
        ms = [marks[c] for c in cards]
        base = marks_key(ms)
        skulls = self.skulls[seat]
        top = CELLS * len(cards)
        tombs = 0  # a result with none of these is its marks and skulls (result_key)
        for j, card in enumerate(cards):
            tombs |= 1 << t.tomb[card] + CELLS * j
        for j, card in enumerate(cards):
            m = ms[j]
            cross = t.cross[card]
            shift = CELLS * j
            mains = tables[j]
            dark = t.skull[card] | t.potion[card]
            for i in picks[j]:
                mask = mains.masks[i]
                owed = (mask & cross).bit_count()
                key = base | mask << shift
                s = t.skulls_after(card, mask, skulls) if mask & dark else skulls
                if owed == 0:
                    key = self.result_key(seat, key, s) if key & tombs else key | s << top
                    if key not in seen:
                        seen.add(key)
                        texts.append(mains.texts[i])
                        if finals is not None:
                            finals.append(key)
                        if options is not None:
                            options.append((mains.texts[i], card, mask, ()))
                    continue
                ms[j] = m | mask
                found: list[tuple[tuple[tuple[int, int], ...], int]] = []
                self._bonus(seat, ms, key, s, owed, [], found, set(), tombs)
                ms[j] = m
                for bonus, key in found:
                    if key not in seen:
                        seen.add(key)
                        text = mains.texts[i] + "".join(
                            [t.bonus_text[c * CELLS + k] for c, k in bonus])
                        texts.append(text)
                        if finals is not None:
                            finals.append(key)
                        if options is not None:
                            options.append((text, card, mask, bonus))
        return texts

    def result_key(self, seat: int, key: int, skulls: int) -> int:
        """What a step-2 move of ``seat`` leaves as one number (a listing tells its moves'
        results apart by it, G26), from the marks it leaves on the seat's cards in play
        (``key``, :func:`marks_key`) and the skull counter: the marks, and above them the
        skull counter. The rest of the result follows from these: gems and torches only
        add (G8, G9), and a card is complete when its tomb is marked (5.6); only the skull
        counter depends on the order of skulls and potions (G6, G7). A completed card
        leaves play with its marks, so which of its cells were marked is no part of the
        result: its marks are cut to its tomb, and the gem counters and torch boxes, which
        those marks no longer tell, are placed above the skulls."""
        t = self.tables
        cards = self.play[seat]
        top = CELLS * len(cards)
        cut = key
        for j, card in enumerate(cards):
            tomb = 1 << t.tomb[card] + CELLS * j
            if key & tomb:
                cut = cut & ~(FULL << CELLS * j) | tomb
        if cut == key:  # no card completed
            return key | skulls << top
        red = green = torch = 0
        for j, card in enumerate(cards):
            new = key >> CELLS * j & ~self.marks[card] & FULL
            red += (new & t.red[card]).bit_count()
            green += (new & t.green[card]).bit_count()
            torch |= new & t.torch[card]
        torches = self.torches[seat] | (1 << self.round - 1 if torch else 0)
        counters = (min(GEMS, self.red[seat] + red) | min(GEMS, self.green[seat] + green) << 4
                    | torches << 8)
        return cut | (counters | skulls << 12) << top

    def _open(self, card: int, m: int) -> bool:
        """Whether a card with marks ``m`` is still in play (its tomb not marked, G11)."""
        return not m >> self.tables.tomb[card] & 1

    def _bonus(self, seat: int, ms: list[int], key: int, skulls: int,
               owed: int, path: list[tuple[int, int]],
               out: list[tuple[tuple[tuple[int, int], ...], int]], seen: set[int],
               tombs: int) -> None:
        """Depth first, in the order of G26: every sequence of bonus marks that settles
        ``owed`` marks (5.5, G10-G12), by card number, row and column, each result once
        (:meth:`result_key` of the marks left, ``key`` is :func:`marks_key` of ``ms``,
        and of ``skulls``) with the first sequence that leads to it. Two
        prefixes that leave the same result and marks owed have the same completions (a
        completed card takes no more marks, G11), so the later one is not searched
        again. ``tombs``: the tombs of the cards in play, placed as in ``key``."""
        top = CELLS * len(ms)
        done = self.result_key(seat, key, skulls) if key & tombs else key | skulls << top
        if done << 5 | owed in seen:  # owed is at most a pattern's size: below 32
            return
        seen.add(done << 5 | owed)
        t = self.tables
        tomb = t.tomb
        cards = self.play[seat]
        if owed == 0 or all(ms[j] >> tomb[card] & 1 for j, card in enumerate(cards)):
            out.append((tuple(path), done))  # all owed marks made, or they lapse (G12)
            return
        for j, card in enumerate(cards):
            m = ms[j]
            if m >> tomb[card] & 1:
                continue
            blocked = t.walls[card] | m
            front = (spread(m) if m else 1 << t.entrance[card]) & ~blocked
            cross = t.cross[card]
            shift = CELLS * j
            dark = t.skull[card] | t.potion[card]
            while front:
                low = front & -front
                front ^= low
                k = low.bit_length() - 1
                left = owed - 1 + (cross >> k & 1)
                s = t.skulls_after(card, low, skulls) if low & dark else skulls
                if left == 0:  # the last mark owed: what the call for it would do, at once
                    done = key | low << shift
                    done = self.result_key(seat, done, s) if done & tombs else done | s << top
                    if done << 5 not in seen:
                        seen.add(done << 5)
                        out.append(((*path, (card, k)), done))
                    continue
                ms[j] = m | low
                path.append((card, k))
                self._bonus(seat, ms, key | low << shift, s, left, path, out, seen, tombs)
                path.pop()
            ms[j] = m

    def check_move(self, seat: int, move: Move) -> str:
        """Check ``move`` for ``seat`` at this node (its own cards, nothing pending counts);
        return its canonical text; :class:`SilverGoldIllegal` saying why not."""
        if seat not in self.deciding_seats():
            raise SilverGoldIllegal(f"seat {seat + 1} has no decision to take now")
        if self.phase == KEEPING:
            if not isinstance(move, Keep):
                raise SilverGoldIllegal("set-up: keep two of your dealt cards (keep A B)")
            dealt = self.dealt[seat]
            if move.a == move.b or move.a not in dealt or move.b not in dealt:
                # The deal is the seat's own: the reason, which a record may show, names
                # none of its cards (G22).
                raise SilverGoldIllegal("keep: two different cards of your four dealt (3.3)")
            return str(move)
        if self.phase == TAKING:
            if not isinstance(move, Take):
                raise SilverGoldIllegal("step 3: take a card of the offer or take deck")
            if move.card == 0 and self.deck_size() == 0:
                raise SilverGoldIllegal("take deck: the deck is empty")
            if move.card and move.card not in self.offer:
                raise SilverGoldIllegal(f"take {move.card}: not in the offer")
            return str(move)
        if not isinstance(move, Mark):
            raise SilverGoldIllegal("step 2: mark the pattern or one cell on a card in play")
        return self._check_mark(seat, move)

    def _check_mark(self, seat: int, move: Mark) -> str:
        t = self.tables
        cards = self.play[seat]
        if move.card not in cards:
            raise SilverGoldIllegal(f"card {move.card} is not one of your cards in play")
        mask = 0
        for k in move.cells:
            mask |= 1 << k
        card = move.card
        m = self.marks[card]
        if mask.bit_count() != len(move.cells):
            raise SilverGoldIllegal("a cell is named twice")
        p = self.pattern()
        if len(move.cells) != 1:  # G29
            if len(move.cells) != t.pattern_size[p]:
                raise SilverGoldIllegal(f"mark one cell or the {t.codes[p]} pattern of "
                                        f"{t.pattern_size[p]} cells (G29)")
            if mask not in t.placement_set[p]:
                raise SilverGoldIllegal(f"these cells are not the {t.codes[p]} pattern (G3)")
        self._check_cells(card, m, mask)
        ms = [self.marks[c] for c in cards]
        j = cards.index(card)
        ms[j] |= mask
        skulls = t.skulls_after(card, mask, self.skulls[seat])
        owed = (mask & t.cross[card]).bit_count()
        for c, k in move.bonus:
            if not any(self._open(x, y) for x, y in zip(cards, ms, strict=True)):
                raise SilverGoldIllegal("a bonus mark after every card was completed "
                                        "(G11, G12)")
            if owed == 0:
                raise SilverGoldIllegal("more bonus marks than red crosses owe (5.5)")
            if c not in cards or not self._open(c, ms[cards.index(c)]):
                raise SilverGoldIllegal(f"bonus mark +{c}: not a card in play (G11)")
            i = cards.index(c)
            self._check_cells(c, ms[i], 1 << k)
            ms[i] |= 1 << k
            skulls = t.skulls_after(c, 1 << k, skulls)
            owed += (t.cross[c] >> k & 1) - 1
        if owed and any(self._open(x, y) for x, y in zip(cards, ms, strict=True)):
            raise SilverGoldIllegal(f"{owed} more bonus mark(s) owed (5.5, G10)")
        return self._canonical_mark(seat, ms, skulls)

    def _check_cells(self, card: int, m: int, mask: int) -> None:
        """A marking's cells on ``card`` with marks ``m``: free and connected (5.2, G4)."""
        t = self.tables
        if mask & t.walls[card]:
            raise SilverGoldIllegal(f"card {card}: a wall cannot be marked")
        if mask & m:
            raise SilverGoldIllegal(f"card {card}: a cell is marked already")
        if not m and not mask >> t.entrance[card] & 1:
            raise SilverGoldIllegal(f"card {card}: its first marking must include the "
                                    "entrance (5.2)")
        if m and not mask & spread(m):
            raise SilverGoldIllegal(f"card {card}: the marking must touch an earlier mark "
                                    "(G4)")

    def _canonical_mark(self, seat: int, ms: list[int], skulls: int) -> str:
        """The listed text of a legal marking that leaves the marks ``ms`` and the skull
        counter ``skulls``: the listed move with that result (G26: a text is the same move
        as another only when it leaves the same state)."""
        finals: list[int] = []
        texts = self._marking(seat, finals)
        return texts[finals.index(self.result_key(seat, marks_key(ms), skulls))]

    def apply_move_of(self, seat: int, move: Move) -> str:
        """Check and apply (or, at a sealed node, seal) the move of ``seat``; its canonical
        text. A sealed move takes effect with the others when the last one is in. A marking
        is sealed as its listed text, which leaves the same state as the one given (G26)."""
        text = self.check_move(seat, move)
        if isinstance(move, Mark) and text != str(move):  # G26: the same result, as listed
            move = parse_move(text)
        self._submit(seat, move)
        return text

    def apply_listed(self, seat: int, text: str, move: Move) -> None:
        """Apply a move taken unchanged from ``legal_moves_of(seat)``, ``move`` its value
        (no checks)."""
        self._submit(seat, move)

    def _submit(self, seat: int, move: Move) -> None:
        self.version += 1
        if self.phase == TAKING:
            assert isinstance(move, Take)
            self._take(seat, move.card)
            return
        self.sealed[seat] = move
        self._run()

    def retire(self, seat: int) -> None:
        """Seat ``seat`` takes no more decisions (its pending sealed move is dropped, its
        turns are skipped, its cards stay as they are) and ranks below every seat not
        retired."""
        self.version += 1
        self.retired[seat] = True
        self.sealed[seat] = None
        if self.phase == OVER:
            return
        if all(self.retired):
            self.phase = OVER
            return
        if self.phase == TAKING and self.phase_seat == seat:
            self.owed[seat] = 0
            self.phase = REFILL
        self._run()

    def all_retired(self) -> bool:
        return all(self.retired)

    # ------------------------------------------------------------------ resolving

    def _run(self) -> None:
        """Move on until a chance event, a decision or the end."""
        while True:
            if self.phase == DEALING:
                if self.phase_seat < self.players:
                    return
                self.phase = KEEPING
            elif self.phase == KEEPING:
                if self.deciding_seats():
                    return
                self._resolve_keeps()
                self.phase = OFFERING
            elif self.phase in (OFFERING, REFILL):
                if len(self.offer) < OFFER_SIZE and self.deck_size() > 0:
                    return
                if self.phase == OFFERING:
                    self.phase = REVEAL
                else:
                    self._next_taker()
            elif self.phase == REVEAL:
                return
            elif self.phase == MARKING:
                if self.deciding_seats():
                    return
                self._resolve_marks()
                if self.round == ROUNDS and self.turn == TURNS:  # G16
                    self.owed = [0] * self.players
                self._next_taker()
            else:  # TAKING, DRAWING, OVER
                return

    def _resolve_keeps(self) -> None:
        for seat in range(self.players):
            move = self.sealed[seat]
            kept = [move.a, move.b] if isinstance(move, Keep) else []
            for k in self.dealt[seat]:
                if k not in kept:
                    self.pool |= 1 << k
            self.play[seat] = kept
            self.dealt[seat] = []
            self.sealed[seat] = None

    def _resolve_marks(self) -> None:
        """Apply every sealed marking together (G21); each touches only its own seat."""
        for seat in range(self.players):
            move = self.sealed[seat]
            self.sealed[seat] = None
            self.last[seat] = []  # from now on, the cells of this step 2 (none: no move)
            if isinstance(move, Mark):
                self._apply_mark(seat, move)
            self.owed[seat] = len(self.now[seat])

    def _apply_mark(self, seat: int, move: Mark) -> None:
        mask = 0
        for k in move.cells:
            mask |= 1 << k
        self._resolve(seat, move.card, mask)
        for card, k in move.bonus:
            self._resolve(seat, card, 1 << k)

    def _resolve(self, seat: int, card: int, cells: int) -> None:
        """One marking's symbols in the order of G6 (5.4)."""
        t = self.tables
        self.marks[card] |= cells
        self.last[seat].append((card, cells))
        n = (cells & t.red[card]).bit_count()
        if n:
            self.red[seat] = min(GEMS, self.red[seat] + n)  # G9
        n = (cells & t.green[card]).bit_count()
        if n:
            self.green[seat] = min(GEMS, self.green[seat] + n)
        if cells & t.torch[card]:
            self.torches[seat] |= 1 << (self.round - 1)  # G8
        self.skulls[seat] = t.skulls_after(card, cells, self.skulls[seat])  # G7
        if cells >> t.tomb[card] & 1:  # 5.6: complete
            self.play[seat].remove(card)
            self.marks[card] = 0
            self.done[seat].append(card)
            self.done[seat].sort()
            self.now[seat].append(card)
            self.now[seat].sort()

    def _next_taker(self) -> None:
        """Step 3 (G13, G14): the next seat owing new cards, or step 4."""
        order = sorted((min(self.now[s]), s) for s in range(self.players) if self.owed[s])
        for _, seat in order:
            if self.retired[seat] or (not self.offer and self.deck_size() == 0):
                self.owed[seat] = 0  # G14
                continue
            self.phase = TAKING
            self.phase_seat = seat
            return
        self._claims()
        self.now = [[] for _ in range(self.players)]
        self.owed = [0] * self.players
        if self.turn < TURNS:
            self.phase = REVEAL
        elif self.round < ROUNDS:
            self.round += 1
            self.turn = 0
            self.revealed = []
            self.phase = REVEAL
        else:
            self.phase = OVER

    def _take(self, seat: int, card: int) -> None:
        if card == 0:
            self.phase = DRAWING
            return
        self.offer.remove(card)
        self.play[seat].append(card)
        self.play[seat].sort()
        self.owed[seat] -= 1
        self._after_take(seat)

    def _after_take(self, seat: int) -> None:
        if self.owed[seat] > 0 and not self.retired[seat] and (self.offer
                                                               or self.deck_size() > 0):
            return
        self.owed[seat] = 0  # G14
        self.phase = REFILL
        self._run()

    def _claims(self) -> None:
        """Step 4 (7, G17): each colour's claims served by their threshold card."""
        if not any(self.now):  # no card completed this turn: no claim
            return
        t = self.tables
        for colour in range(len(COLOURS)):
            claims: list[tuple[int, int]] = []
            for seat in range(self.players):
                new = [k for k in self.now[seat] if t.colour[k] == colour]
                if not new:
                    continue
                after = sum(1 for k in self.done[seat] if t.colour[k] == colour)
                before = after - len(new)
                if any(before < x <= after for x in THRESHOLDS):
                    claims.append((min(new), seat))
            for _, seat in sorted(claims):
                if self.taken[colour] < len(BOXES):
                    self.boxes[seat].append((colour, BOXES[self.taken[colour]]))
                    self.taken[colour] += 1

    # ------------------------------------------------------------------ the end

    def points(self, seat: int) -> int:
        """The final score of ``seat`` if the game ended now (9)."""
        r, g = self.red[seat], self.green[seat]
        return (CARD_POINTS * len(self.done[seat])
                + TORCH_POINTS * self.torches[seat].bit_count()
                + sum(v for _, v in self.boxes[seat])
                + PAIR_POINTS * min(r, g) + abs(r - g)
                - self.tables.penalty(self.skulls[seat]))

    def tiebreak(self, seat: int) -> int:
        """G20's second key as a number where more is better: 49 minus the lowest order
        number completed, 0 when none."""
        return self.tables.cards + 1 - self.done[seat][0] if self.done[seat] else 0

    def ranking(self) -> list[tuple[int, int, int, int, bool]]:
        """Every seat's (seat, rank, points, tiebreak, retired) by G20, retired last."""
        keys = [(not self.retired[s], self.points(s), self.tiebreak(s))
                for s in range(self.players)]
        return [(s, 1 + sum(1 for k in keys if k > keys[s]), keys[s][1], keys[s][2],
                 self.retired[s]) for s in range(self.players)]

    def sealed_applied(self) -> SilverGoldState:
        """A copy in which every sealed move pending at this node has taken effect on its
        own seat (kept cards in play, markings resolved), the node not yet closed: what a
        seat's move is worth before the others' are in (each touches only its own seat)."""
        other = self.clone()
        for seat in range(self.players):
            move = other.sealed[seat]
            if isinstance(move, Keep):
                other.play[seat] = [move.a, move.b]
            elif isinstance(move, Mark):
                other._apply_mark(seat, move)
            other.sealed[seat] = None
        return other

    def mark_alone(self, seat: int, move: Mark) -> Undo:
        """Make ``move``'s marking on ``seat``'s cards at once (as :meth:`sealed_applied`
        does, the node not closed, nothing else changed) and return what :meth:`undo_mark`
        needs to take it back: for valuing each of a seat's markings on one state
        without copying it."""
        saved = (self.marks[:], self.red[seat], self.green[seat], self.skulls[seat],
                 self.torches[seat], self.play[seat][:], self.done[seat][:],
                 self.now[seat][:], self.last[seat][:])
        self._apply_mark(seat, move)
        return saved

    def undo_mark(self, seat: int, saved: Undo) -> None:
        """Take back the marking :meth:`mark_alone` made (``saved``: what it returned)."""
        (self.marks, self.red[seat], self.green[seat], self.skulls[seat],
         self.torches[seat], self.play[seat], self.done[seat], self.now[seat],
         self.last[seat]) = saved

    # ------------------------------------------------------------------ for check and views

    def visible_cards(self) -> list[int]:
        """Every card shown somewhere: offer, dealt, in play, completed (with repeats if
        the state is broken)."""
        out = list(self.offer)
        for s in range(self.players):
            out += self.dealt[s] + self.play[s] + self.done[s]
        return out

    def determinize(self, rng: random.Random) -> SilverGoldState:
        """A copy in which every hidden dealt card is drawn from the unseen cards."""
        other = self.clone()
        for seat in range(self.players):
            if other.hidden[seat]:
                cards = sorted(rng.sample(other.pool_cards(), other.hidden[seat]))
                other.dealt[seat] = cards
                for k in cards:
                    other.pool &= ~(1 << k)
                other.hidden[seat] = 0
        return other


def new_game(players: int, edition: Edition | None = None) -> SilverGoldState:
    """A new game before the deal (3.2): a chance node."""
    return SilverGoldState(players, edition)


def sample_outcome(state: SilverGoldState, rng: random.Random) -> str:
    """Draw one outcome of the chance node by its weights: a deal directly, without listing
    every 4-card set; another outcome as ``randrange`` of the total weight, walked in the
    order of :meth:`~SilverGoldState.chance_weights`, draws it (the same draws taken),
    writing only the text drawn."""
    if state.phase == DEALING:
        cards = sorted(rng.sample(state.pool_cards(), DEALT))
        return "~deal:" + ",".join(map(str, cards))
    if state.phase == REVEAL:
        left = state._copies_left()
        pick = rng.randrange(sum(left))
        for p, n in enumerate(left):
            if pick < n:
                return "~exp:" + state.tables.codes[p]
            pick -= n
    elif state.is_chance_node():  # an offer or a draw: every card not seen, weight 1
        cards = state.pool_cards()
        return f"~{_OUTCOME_KIND[state.phase]}:{cards[rng.randrange(len(cards))]}"
    raise ValueError("not a chance node")


def deal_count(pool: int) -> int:
    """How many 4-card sets a deal from ``pool`` cards has."""
    return math.comb(pool, DEALT)
