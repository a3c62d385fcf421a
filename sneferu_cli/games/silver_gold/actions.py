"""Silver & Gold Pyramids' action encoding and observation tensor for the learning libraries
(SPEC 16.1).

A step-2 move with bonus marks is one of far too many to number one by one, so a marking is
played in *parts* (:func:`action_parts`): its main marking (``16:a1,b1,c1,a2``), then each
bonus mark (``+16:d1``), in the order of the canonical move. No end part is needed: what a
move still owes after a prefix of its parts is fixed by the prefix (5.4, 5.5: the red
crosses marked so far, less the bonus marks made, and whether a card is still in play,
G11, G12), and a legal move makes exactly what it owes, so no legal move's parts are a
proper prefix of another's. ``keep A B`` and ``take N`` are one part each.

The action names of a set-up (the same for every player count) are, in this order:

- ``keep A B`` for every pair of cards, ``A < B`` (3.3, G26);
- every main marking that is legal in some state (5.2, 5.3, G3, G4, G5, G29), card by
  card; on each card the pattern placements by their sorted cells, then the single cells;
- every bonus mark ``+C:cell`` that is legal in some state (G10: a single cell under 5.3);
- ``take N`` for every card, then ``take deck`` (6).

*Legal in some state* (:func:`markable`): a set of cells ``P`` of one card (a placement of
an edition pattern in any of its eight orientations, or one cell) is a legal marking in
some state exactly when it covers no wall and either holds the entrance (the card's first
marking) or touches a cell that the non-wall cells outside ``P`` and outside the tomb
connect to the entrance. Necessary: the earlier marks of a card in play are one group with
the entrance, never a wall nor its tomb (5.2, 5.6), and the marking must touch them (G4).
Enough: a card kept at set-up can have any such group (at most 23 cells) marked one single
cell a turn (5.3) in the 27 turns before the last, the bonus marks its red crosses owe (at
most 2) made on the seat's other card, and any pattern can be the current one at any turn
of a round (G24). A bonus mark on card ``C`` is owed by a red cross marked in the same
move on the seat's other card, which can be any card with a cross. Both directions are
tested: every part of every legal move over random games has an id, and each id is a part
of a legal move in a position built for it, listed, or, for a main marking that completes
its card, the same move as a listed one (G26: a completed card leaves play with its
marks, so another marking of its tomb that moves the counters alike leaves the same
state; ``tests/silver_gold/test_actions.py``).

Chance outcomes are factored too (:func:`outcome_parts`): a deal ``~deal:5,18,22,47`` (one of
194 580 at the first deal) is given as its cards in ascending order, the parts
``~deal:5``, ``~deal:18``, ``~deal:22``, ``~deal:47`` (*a card of the deal*), and is
complete at its fourth card (:func:`outcome_of_parts`); ``~offer:N``, ``~draw:N`` and
``~exp:CODE`` are one part each. A deal is uniform over the 4-card sets of the cards not
visible anywhere (3.2), so with ``k`` cards still to deal after the last chosen card ``l``
(0 before the first) and ``m(x)`` the deck's cards above ``x``, the next card is ``c > l``
with probability ``C(m(c), k - 1) / C(m(l), k)`` (:func:`deal_part_outcomes`).
Chance ids: ``~deal:N``, ``~offer:N``, ``~draw:N`` for every card, then ``~exp:CODE`` per
pattern.

The observation (:func:`observation`; numbers in [0, 1]) holds only what the seat may know
(its view, G21, G22): its own dealt cards, never another seat's, nor another seat's
pending sealed move (every other seat looks still to decide). Layout: the observing seat
(one-hot), the round (one-hot), the turn (one-hot 0-7), the phase (one-hot), the current
pattern (one-hot), the copies of each pattern still unrevealed this round (over its
copies), the offer (a 0/1 per card), the deck (over 48), the seat's own dealt cards (0/1
per card); then per seat, seat 1 first: retired, still to decide, taking a new card, owed
new cards (over 2), red and green gems (over 10), skulls (over the track), the four torch
boxes, the points so far ((points + worst penalty) / 250, cut to [0, 1]), the claimed
boxes (per colour 10, 6, 3), completed cards (0/1 per card) and per colour (over 16), and
two chambers, the cards in play ascending (zeros when fewer): the card (one-hot), its grid
(0/1 per cell for each code ``# E T R G F S P X``) and its marked cells.
"""

from __future__ import annotations

import functools
import itertools
import math
from array import array

from ...game import Learning
from .edition import COLOURS, Edition, standard_edition
from .move import CELL_NAMES, mark_text
from .observe import GRID_CODES, fill
from .state import (
    BOXES,
    CELLS,
    DEALING,
    DEALT,
    FULL,
    KEPT,
    OFFER_SIZE,
    PHASES,
    ROUNDS,
    TURNS,
    SilverGoldState,
    Tables,
    spread,
    tables_of,
)

__all__ = ["action_names", "action_parts", "bonus_marks", "deal_part_outcomes",
           "main_markings", "markable", "max_action_parts", "max_game_length", "observation",
           "observation_size", "outcome_names", "outcome_of_parts", "outcome_parts"]



def markable(tables: Tables, card: int, mask: int) -> bool:
    """Whether the cells ``mask`` of ``card`` are a legal marking in some state (see the
    module): no wall, and the entrance among them or a cell of them next to the group of
    non-wall cells outside them and outside the tomb that holds the entrance."""
    walls = tables.walls[card]
    entrance = 1 << tables.entrance[card]
    if mask & walls:
        return False
    if mask & entrance:
        return True
    free = FULL & ~(walls | mask | 1 << tables.tomb[card])
    group = entrance
    while True:
        grown = group | (spread(group) & free)
        if grown == group:
            return bool(spread(group) & mask)
        group = grown


def main_markings(tables: Tables, card: int) -> list[tuple[int, ...]]:
    """The main markings of ``card`` legal in some state, as sorted cells: the placements of
    every pattern (G3) by their cells, then the single cells (5.3, G29)."""
    placements = sorted({cells for p in tables.placements for mask, cells in p
                         if markable(tables, card, mask)})
    return placements + [(k,) for k in range(CELLS) if markable(tables, card, 1 << k)]


def bonus_marks(tables: Tables, card: int) -> list[int]:
    """The cells of ``card`` a bonus mark can take in some state (G10: as a single cell)."""
    return [k for k in range(CELLS) if markable(tables, card, 1 << k)]


@functools.cache
def action_names(edition: Edition) -> tuple[str, ...]:
    """Every action name (move part) of a game with ``edition``, each once (the module)."""
    t = tables_of(edition)
    numbers = range(1, t.cards + 1)
    names = [f"keep {a} {b}" for a, b in itertools.combinations(numbers, KEPT)]
    names += [mark_text(card, cells, ()) for card in numbers
              for cells in main_markings(t, card)]
    names += [f"+{card}:{CELL_NAMES[k]}" for card in numbers for k in bonus_marks(t, card)]
    return (*names, *(f"take {k}" for k in numbers), "take deck")


def action_parts(move: str) -> tuple[str, ...]:
    """The parts of a canonical move: a marking's main marking, then each bonus mark;
    ``keep A B`` and ``take N`` whole."""
    if move[:1].isdigit():
        return tuple(move.split(" "))
    return (move,)


def max_action_parts(edition: Edition) -> int:
    """The most parts of one move: the main marking and one bonus mark per red cross marked
    in the move (5.4), at most every cross of the seat's two cards in play."""
    t = tables_of(edition)
    crosses = sorted(t.cross[k].bit_count() for k in range(1, t.cards + 1))
    return 1 + sum(crosses[-KEPT:])


DEAL_PART = "~deal:"
"""What a deal and each of its parts begin with."""


def outcome_names(edition: Edition) -> list[str]:
    """Every chance outcome part (14.3, the module): a card of a deal, the offer cards, the
    drawn cards, the expedition patterns."""
    numbers = range(1, len(edition.cards) + 1)
    names = [f"{DEAL_PART}{k}" for k in numbers]
    names += [f"~offer:{k}" for k in numbers] + [f"~draw:{k}" for k in numbers]
    return names + [f"~exp:{e.code}" for e in edition.expeditions]


def outcome_parts(outcome: str) -> tuple[str, ...]:
    """The parts of a canonical chance outcome: a deal's cards ascending, ``~deal:N``
    each; any other outcome whole."""
    if outcome.startswith(DEAL_PART):
        return tuple(DEAL_PART + k for k in outcome[len(DEAL_PART):].split(","))
    return (outcome,)


def outcome_of_parts(parts: tuple[str, ...]) -> str | None:
    """The outcome whose parts are ``parts``: a deal once it has its four cards (None
    before), any other outcome at once."""
    if not parts[0].startswith(DEAL_PART):
        return parts[0]
    if len(parts) < DEALT:
        return None
    return DEAL_PART + ",".join(p[len(DEAL_PART):] for p in parts)


def deal_part_outcomes(state: SilverGoldState,
                       chosen: tuple[str, ...]) -> list[tuple[str, float]]:
    """The next card of the deal at ``state`` after the cards ``chosen`` (parts), with its
    probability given them (the module): ``C(m(c), k - 1) / C(m(l), k)``."""
    last = int(chosen[-1][len(DEAL_PART):]) if chosen else 0
    k = DEALT - len(chosen)
    above = [c for c in state.pool_cards() if c > last]
    total = math.comb(len(above), k)
    # m(c) = len(above) - 1 - i; a card too high to leave k - 1 cards above it is no part
    return [(f"{DEAL_PART}{c}", math.comb(len(above) - 1 - i, k - 1) / total)
            for i, c in enumerate(above[:len(above) - k + 1])]


def max_game_length(edition: Edition, players: int) -> int:
    """A bound on the moves and chance events of one game (SPEC 16.1: the bindings count
    a move's parts by multiplying by :func:`max_action_parts`): the deals and keeps, the
    set-up offer, each of the 28 turns' expedition card and one marking per seat, and for each
    card that can enter play after the set-up its take and the refill or draw it causes
    (6, G15; a card taken never comes back)."""
    return (2 * players + OFFER_SIZE + ROUNDS * TURNS * (1 + players)
            + 2 * (len(edition.cards) - KEPT * players))


# ---------------------------------------------------------------------- observation

def _head_size(tables: Tables, players: int) -> int:
    patterns = len(tables.codes)
    return players + ROUNDS + TURNS + 1 + len(PHASES) + 2 * patterns + 2 * tables.cards + 1


def _seat_size(tables: Tables) -> int:
    # retired, deciding, taking, owed; red, green, skulls; torches; points; boxes; completed
    # cards, per card and per colour; a chamber for each card in play (never more than the
    # two kept: one new card for each completed one, 6)
    chamber = tables.cards + (len(GRID_CODES) + 1) * CELLS
    return (4 + 3 + ROUNDS + 1 + len(BOXES) * len(COLOURS) + tables.cards + len(COLOURS)
            + KEPT * chamber)


@functools.cache
def observation_size(edition: Edition, players: int) -> int:
    """The length of :func:`observation` for a game of ``players`` seats."""
    t = tables_of(edition)
    return _head_size(t, players) + players * _seat_size(t)


@functools.cache
def _grids(tables: Tables) -> list[array[float]]:
    """Per card number (0 unused): its card one-hot and grid planes, as in a chamber."""
    out: list[array[float]] = [array("d")]
    for k in range(1, tables.cards + 1):
        grid = tables.grid[k]
        one_hot = [0.0] * tables.cards
        one_hot[k - 1] = 1.0
        out.append(array("d", one_hot + [1.0 if grid[i] == code else 0.0 for code in GRID_CODES
                                         for i in range(CELLS)]))
    return out


@functools.cache
def _chambers(tables: Tables) -> dict[int, array[float]]:
    """The chambers' numbers kept for an edition's tables (:func:`.observe.fill`)."""
    return {}


_ZERO = array("d", [0.0])


@functools.cache
def _size(tables: Tables, players: int) -> int:
    """:func:`observation_size` by the edition's tables (a key hashed at once, where an
    edition's hash reads all of it)."""
    return observation_size(tables.edition, players)


def observation(state: SilverGoldState, seat: int) -> array[float]:
    """What ``seat`` may know of ``state`` as :func:`observation_size` numbers (the
    module's layout), an ``array('d')``, which the bindings copy at once, filled by the
    compiled :func:`.observe.fill`."""
    out = _ZERO * _size(state.tables, state.players)
    fill(state, seat, _grids(state.tables), _chambers(state.tables),
         memoryview(out))  # cheaper item writes
    return out


class SilverGoldLearning(Learning[SilverGoldState]):
    """Silver & Gold's encodings for the learning libraries (SPEC 16.1): a marking in
    parts, a deal in its cards."""

    def action_names(self, players: int, variant: str) -> tuple[str, ...]:
        return action_names(standard_edition())

    def action_parts(self, move: str) -> tuple[str, ...]:
        return action_parts(move)

    def max_action_parts(self, players: int, variant: str) -> int:
        return max_action_parts(standard_edition())

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return outcome_names(standard_edition())

    def outcome_parts(self, outcome: str) -> tuple[str, ...]:
        return outcome_parts(outcome)

    def max_outcome_parts(self, players: int, variant: str) -> int:
        return DEALT

    def chance_part_outcomes(self, state: SilverGoldState,
                             chosen: tuple[str, ...]) -> list[tuple[str, float]]:
        if state.phase == DEALING:
            return deal_part_outcomes(state, chosen)
        return self.game.chance_outcomes(state)  # one part each

    def outcome_of_parts(self, state: SilverGoldState, parts: tuple[str, ...]) -> str | None:
        return outcome_of_parts(parts)

    def max_game_length(self, players: int, variant: str) -> int:
        return max_game_length(standard_edition(), players)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (observation_size(standard_edition(), players),)

    def observation(self, state: SilverGoldState, seat: int) -> array[float]:
        return observation(state, seat)
