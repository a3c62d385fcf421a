"""The game state: decisions, chance nodes, and every rule of docs/RULES.md.

A :class:`GameState` is either waiting for the active player's next *step*
(:meth:`~GameState.legal_steps`, :meth:`~GameState.apply`) or at a *chance node*
(:meth:`~GameState.chance_outcomes`, each outcome with its probability). Applying a chance
outcome is deterministic; sampling one is the caller's business. The state does no I/O.

>>> import random
>>> from sneferu_cli.games.sneferu.chance import sample_outcome
>>> from sneferu_cli.games.sneferu.state import new_game
>>> state = new_game(players=2)
>>> rng = random.Random(7)
>>> while state.is_chance_node():
...     state.apply(sample_outcome(state, rng))
>>> state.phase.name, state.seat in (0, 1), len(state.legal_steps()) > 0
('START', True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum
from typing import Final, NamedTuple

from ...game import IllegalMove
from .components import STONE_MATERIALS, STONE_OF_PAIR, Material, Power, Stone, Tile
from .edition import Builder, Edition, standard_edition
from .pyramid import Geometry, Pyramid
from .steps import (
    DONE,
    END,
    FEAST,
    STORE,
    Action,
    Arrive,
    Assign,
    Buy,
    Done,
    Draw,
    End,
    Feast,
    LayTile,
    Outcome,
    Place,
    Shift,
    Step,
    Store,
)


class IllegalAction(IllegalMove):
    """A step or chance outcome that the rules do not allow in this state."""


class Variant(Enum):
    """The rule variants: the standard game, or variable builder powers (section 7)."""

    STANDARD = "standard"
    BUILDERS = "builders"


class Phase(IntEnum):
    """Where the game stands."""

    SETUP = 0  # chance: tiles, initial offer, random builders, boat order
    START = 1  # the active player's pre-buy steps, the buy, or the forced end
    PLACE = 2  # the active player places (or stores) the stone just bought
    POST = 3  # optional after-turn steps (feast, R5 placements), then Done
    DRAW = 4  # chance: refilling the offer after a turn
    OVER = 5


# Phases and tiles as plain int constants, powers as Final globals: the hot path compares
# them without enum lookups (and mypyc compiles them to C constants).
_SETUP: Final = 0
_START: Final = 1
_PLACE: Final = 2
_POST: Final = 3
_DRAW: Final = 4
_OVER: Final = 5
PHASES: Final = tuple(Phase)
_FOOD1: Final = 0
_FOOD2: Final = 1
_NOEXTRA: Final = 2
_SAVETIME: Final = 3
_TIMEFOOD: Final = 4
_STOREHOUSE: Final = 5
_FEAST: Final = Power.FEAST
_SAIL_BACK: Final = Power.SAIL_BACK
_BETWEEN: Final = Power.BETWEEN
_SINGLE_AREA: Final = Power.SINGLE_AREA

# Step classes and singletons as Final globals: mypyc keeps them in C statics, so the
# dispatch in apply() and the lists of legal_steps() do not look names up in a dict.
_DRAW_T: Final = Draw
_BUY_T: Final = Buy
_PLACE_T: Final = Place
_LAYTILE_T: Final = LayTile
_ARRIVE_T: Final = Arrive
_ASSIGN_T: Final = Assign
_DONE_T: Final = Done
_STORE_T: Final = Store
_FEAST_T: Final = Feast
_END_T: Final = End
_SHIFT_T: Final = Shift
_STORE_STEP: Final = STORE
_FEAST_STEP: Final = FEAST
_DONE_STEP: Final = DONE
_END_STEP: Final = END

# The two materials (ints) of each stone.
_MATERIALS_OF: Final = tuple((int(a), int(b)) for a, b in STONE_MATERIALS)
# The stone (an int) of materials a, b at [a * 5 + b].
_STONE_OF_PAIR: Final = tuple(int(x) for x in STONE_OF_PAIR)
# Bit masks: which materials a stone is made of.
STONE_MASK: Final = tuple((1 << a) | (1 << b) for a, b in STONE_MATERIALS)



# How many placement lists (Tables.placements) an edition keeps at most (random 4-player
# games meet about 3,700 over 3,000 games).
PLACEMENT_LISTS_KEPT = 20_000

class Tables:
    """Numbers and precomputed step objects of an edition, shared by all its states."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.columns = len(edition.offer.columns)
        self.rows = len(edition.offer.row_extra_food)
        self.col_food = tuple(c.food for c in edition.offer.columns)
        self.col_time = tuple(c.time for c in edition.offer.columns)
        self.row_extra = edition.offer.row_extra_food
        # Food price of each offer cell, [column][row].
        self.prices = tuple(tuple(f + x for x in self.row_extra) for f in self.col_food)
        river = edition.river
        self.last = river.last_space
        self.quarry_spaces = tuple(q.space for q in river.quarries)
        self.quarry_material = tuple(int(Material[q.material]) for q in river.quarries)
        self.quarry_eye = tuple(q.eye for q in river.quarries)
        self.quarry_at = [-1] * (self.last + 1)
        for i, q in enumerate(river.quarries):
            self.quarry_at[q.space] = i
        # For each quarry, the quarries drawing from the same pool (eye or not).
        self.same_class = tuple(tuple(j for j, f in enumerate(self.quarry_eye) if f == e)
                                for e in self.quarry_eye)
        self.tile_count = [0] * len(Tile)
        self.tile_eye = [0] * len(Tile)
        for ts in edition.tiles:
            self.tile_count[Tile[ts.kind]] = ts.count
            self.tile_eye[Tile[ts.kind]] = ts.eye
        self.eye_pool = self.tile_eye
        self.other_pool = [n - e for n, e in zip(self.tile_count, self.tile_eye, strict=True)]
        self.food1 = edition.tile_amount(Tile.FOOD1)
        self.food2 = edition.tile_amount(Tile.FOOD2)
        self.savetime = edition.tile_amount(Tile.SAVETIME)
        self.timefood = edition.tile_amount(Tile.TIMEFOOD)
        self.area_food = edition.pyramid.area_food
        self.forced_food = edition.player.forced_end_food_per_space
        self.per_type = edition.stones.per_type
        icons = tuple((i.level, i.slot, i.half, i.food) for i in edition.pyramid.icons)
        self.geometry = g = Geometry.of(edition.pyramid.levels, icons)
        self.slots = g.slot_count
        self.builders = edition.builders
        self.powers = {b.name: Power(b.power) for b in edition.builders}
        self.ptah_target = edition.solo.ptah_target
        # Every step object, built once: legal_steps() hands out these very objects.
        self.buy = [[[Buy(c + 1, r + 1, bonus) for bonus in (False, True)]
                     for r in range(self.rows)] for c in range(self.columns)]
        materials = tuple(Material)  # indexing, not Material(a): an enum call each
        self.place = [[[[Place(g.level_of[s], g.number_of[s], materials[a], materials[b], h)
                         if a != b else None for h in (False, True)]
                        for b in range(5)] for a in range(5)] for s in range(g.slot_count)]
        self.shift = [[Shift(a + 1, b + 1) for b in range(self.columns)]
                      for a in range(self.columns)]
        self.draw = [Draw(s) for s in Stone]
        # The plain buys of column c that cost at most f food when the column holds n
        # stones: affordable[c][f][n] (f capped at the dearest price).
        self.max_price = max(max(p) for p in self.prices)
        # A buy's number, (c * rows + r) * 2 + bonus (0-based column and row), and back.
        self.buy_of = [self.buy[n // 2 // self.rows][n // 2 % self.rows][n % 2]
                       for n in range(self.columns * self.rows * 2)]
        self.column_of = [n // 2 // self.rows for n in range(len(self.buy_of))]
        self.row_of = [n // 2 % self.rows for n in range(len(self.buy_of))]
        self.affordable = [[[tuple((c * self.rows + r) * 2 for r in range(n)
                                   if self.prices[c][r] <= f)
                             for n in range(self.rows + 1)]
                            for f in range(self.max_price + 1)] for c in range(self.columns)]
        self.lay = [LayTile(k) for k in Tile]
        # The tokens of those steps, for writing whole moves without str() on each step.
        self.buy_text = [[[str(b) for b in row] for row in col] for col in self.buy]
        # Each buy's text with store, by buy number.
        self.store_texts = [f"{self.buy_text[n // 2 // self.rows][n // 2 % self.rows][n % 2]} "
                            f"{_STORE_STEP}" for n in range(len(self.buy_of))]
        self.draw_text = [str(d) for d in self.draw]
        self.lay_text = [str(x) for x in self.lay]
        self.arrive_text = [str(Arrive(i)) for i in range(4)]
        # The chance outcomes of the edition by their texts, and back: what the game
        # interface writes and reads at each chance node, without str() or a parser.
        # (Not a builder's: the notation reads a name in capitals as a tile, and a
        # builder is drawn at most once a seat.)
        outcomes: list[Outcome] = [*self.draw, *self.lay, *(Arrive(i) for i in range(4))]
        self.outcome_of: dict[str, Outcome] = {str(o): o for o in outcomes}
        self.outcome_text: dict[Outcome, str] = {o: str(o) for o in outcomes}
        self.drawn_stone: dict[str, int] = {text: s for s, text in enumerate(self.draw_text)}
        self.placement_lists: dict[int, tuple[tuple[Place, ...], tuple[int, ...]]] = {}
        # Each stone's placements in every slot, at [(slot * 2 + heba) * 2 + swapped]
        # (swapped 0: its materials left and right as STONE_MATERIALS gives them, 1: the
        # other way round), with their numbers (``store_at``): a stone's placements into
        # some open slots are these at the indices of ``place_order``.
        stone_places: list[tuple[Place, ...]] = []
        stone_place_numbers: list[tuple[int, ...]] = []
        for a, b in _MATERIALS_OF:
            places: list[Place] = []
            numbers: list[int] = []
            for s in range(g.slot_count):
                for h in (0, 1):
                    for x, y in ((a, b), (b, a)):
                        place = self.place[s][x][y][h]
                        assert place is not None  # a stone's materials differ
                        places.append(place)
                        numbers.append(((s * 5 + x) * 5 + y) * 2 + h)
            stone_places.append(tuple(places))
            stone_place_numbers.append(tuple(numbers))
        self.stone_places = tuple(stone_places)
        self.stone_place_numbers = tuple(stone_place_numbers)
        self.place_orders: dict[int, tuple[int, ...]] = {}
        # A placement's number: ((slot * 5 + left) * 5 + right) * 2 + heba; ``store_at``
        # is the store step's, ``store_at + 1`` none (a buy alone).
        self.store_at = g.slot_count * 50
        self.place_of: list[Step | None] = [
            self.place[n // 50][n // 10 % 5][n // 2 % 5][n % 2] for n in range(self.store_at)]
        self.place_of += [_STORE_STEP, None]
        # Each placement's text after a space, by number ("" for none), written as
        # Place.__str__ writes it, without its call and enum lookups each.
        names = [m.name for m in materials]
        self.spaced_place_text = [
            f" {names[n // 10 % 5]}{names[n // 2 % 5]}@{g.level_of[n // 50]}."
            f"{g.number_of[n // 50]}{'h' if n % 2 else ''}"
            if n // 10 % 5 != n // 2 % 5 else "" for n in range(self.store_at)]
        # Whole-move texts, a buy and a placement (or store), made a buy at a time when
        # first needed: turn_texts[buy number][placement number], without Heba's
        # sail-back ("" in its places: half the texts, and only a game with Heba lists
        # them), and sail_texts[buy number] with it too (a listing with the sail-back
        # takes its texts from there). Tuples of strings, which the garbage collector
        # leaves alone.
        self.turn_texts: list[tuple[str, ...] | None] = [None] * len(self.buy_of)
        self.sail_texts: list[tuple[str, ...] | None] = [None] * len(self.buy_of)
        # The same texts by buy, stone and sail-back, indexed as ``stone_places``, made
        # when a listing first needs them: stone_texts[(buy number * 10 + stone) * 2 +
        # sail] (without the sail-back made a stone at a time: a plain listing needs no
        # buy's whole row, only the walk of a start with stored stones does).
        self.stone_texts: list[tuple[str, ...] | None] = [None] * (len(self.buy_of) * 20)
        # A whole move written from these tables is read back from its buy (column and
        # row digits, "+") and the placement number of the rest (a space and a
        # placement, or store): ``listed_number``. (Kept by whole text instead, a dict
        # filled with each text made cost more than all the reading back: a text in five
        # is ever applied.)
        self.moves_per_buy = self.store_at + 2
        self.then_of = {text: n for n, text in enumerate(self.spaced_place_text) if text}
        self.then_of[f" {_STORE_STEP}"] = self.store_at
        # Bounds for telling a buy's outcomes apart by one int (GameState._buy_outcomes).
        self.rest_bound: int = 16 ** self.rows
        self.bonus_food = [0] * len(Tile)
        self.bonus_food[_FOOD1], self.bonus_food[_FOOD2] = self.food1, self.food2
        self.bonus_food[_TIMEFOOD] = self.timefood

    def place_order(self, open_slots: int, sail: bool) -> tuple[int, ...]:
        """Where a stone's placements into ``open_slots`` are in ``stone_places``, in
        legal-step order: slot by slot upwards, without then with Heba's sail-back
        (``sail``), the stone's materials as given then swapped.

        Kept once made (few masks of open slots recur over many games).
        """
        key = open_slots << 1 | sail
        found = self.place_orders.get(key)
        if found is not None:
            return found
        order: list[int] = []
        for s in range(self.slots):
            if open_slots >> s & 1:
                order += (s * 4, s * 4 + 1, s * 4 + 2, s * 4 + 3) if sail else (s * 4, s * 4 + 1)
        if len(self.place_orders) >= PLACEMENT_LISTS_KEPT:
            self.place_orders.clear()
        found = self.place_orders[key] = tuple(order)
        return found

    def placements(self, open_slots: int, stone: int,
                   sail: bool) -> tuple[tuple[Place, ...], tuple[int, ...]]:
        """The placements of ``stone`` into ``open_slots`` in legal-step order, with their
        numbers (see ``store_at``).

        Kept once made (a position's open slots recur turn after turn).
        """
        key = (open_slots << 5) | (stone << 1) | sail
        found = self.placement_lists.get(key)
        if found is not None:
            return found
        order = self.place_order(open_slots, sail)
        places, numbers = self.stone_places[stone], self.stone_place_numbers[stone]
        if len(self.placement_lists) >= PLACEMENT_LISTS_KEPT:
            self.placement_lists.clear()
        found = self.placement_lists[key] = (tuple([places[i] for i in order]),
                                             tuple([numbers[i] for i in order]))
        return found

    def turn_texts_of(self, c: int, r: int, bonus: int) -> tuple[str, ...]:
        """The whole-move texts of buy ``c``, ``r`` (0-based), ``bonus`` followed by each
        placement without Heba's sail-back (by its number; "" for one with it) and by
        ``store``, made on first use."""
        number = (c * self.rows + r) * 2 + bonus
        made = self.turn_texts[number]
        if made is not None:
            return made
        alone = self.buy_text[c][r][bonus]
        texts = [alone + spaced if spaced and not n & 1 else ""  # "": Heba's (sail_texts_of)
                 for n, spaced in enumerate(self.spaced_place_text)]
        texts.append(self.store_texts[number])
        made = self.turn_texts[number] = tuple(texts)
        return made

    def sail_texts_of(self, number: int) -> tuple[str, ...]:
        """The texts of :meth:`turn_texts_of` of the buy numbered ``number``, those with
        Heba's sail-back too (made on first use)."""
        made = self.sail_texts[number]
        if made is not None:
            return made
        c, r, bonus = self.column_of[number], self.row_of[number], number & 1
        texts = list(self.turn_texts_of(c, r, bonus))
        alone = self.buy_text[c][r][bonus]
        for n in range(1, self.store_at, 2):
            spaced = self.spaced_place_text[n]
            if spaced:
                texts[n] = alone + spaced
        made = self.sail_texts[number] = tuple(texts)
        return made

    def stone_texts_of(self, number: int, stone: int, sail: bool) -> tuple[str, ...]:
        """The whole-move texts of the buy numbered ``number`` of ``stone`` followed by
        each placement of ``stone``, indexed as ``stone_places``, with Heba's sail-back
        only if ``sail`` ("" there otherwise): with it from :meth:`sail_texts_of`, without
        it made here, those of this stone alone (a plain listing needs no other)."""
        key = (number * 10 + stone) * 2 + sail
        made = self.stone_texts[key]
        if made is not None:
            return made
        numbers = self.stone_place_numbers[stone]
        if sail:
            row = self.sail_texts_of(number)
            made = tuple([row[n] for n in numbers])
        else:
            alone = self.buy_text[self.column_of[number]][self.row_of[number]][number & 1]
            spaced = self.spaced_place_text
            made = tuple([alone + spaced[n] if not n & 1 else "" for n in numbers])
        self.stone_texts[key] = made
        return made

    def place_number(self, step: Place) -> int:
        """The number of placement ``step`` (see ``store_at``)."""
        s = self.geometry.level_start[step.level - 1] + step.slot - 1
        return ((s * 5 + step.left) * 5 + step.right) * 2 + step.heba

    def listed_number(self, text: str) -> int:
        """The move of a whole-move text as these tables write it (``turn_texts_of``,
        ``sail_texts_of``, a buy alone, the forced end): buy number * ``moves_per_buy`` +
        placement number (``store_at``: store, ``store_at + 1``: the buy alone), -1 for
        the forced end; -2 for any other text."""
        size = len(text)
        if size < 3 or text[1] != ".":
            return -1 if text == "end" else -2
        c, r = ord(text[0]) - 49, ord(text[2]) - 49  # the digits 1 to 9 (Edition checks)
        if not (0 <= c < self.columns and 0 <= r < self.rows):
            return -2
        bonus = 1 if size > 3 and text[3] == "+" else 0
        first = ((c * self.rows + r) * 2 + bonus) * self.moves_per_buy
        if size == 3 + bonus:
            return first + self.store_at + 1
        then = self.then_of.get(text[3 + bonus:])
        return -2 if then is None else first + then

    def listed_move(self, text: str) -> tuple[Step, ...] | None:
        """The steps of a whole-move text as these tables write it, else None."""
        n = self.listed_number(text)
        if n < -1:
            return None
        if n < 0:
            return (_END_STEP,)
        buy = self.buy_of[n // self.moves_per_buy]
        then = self.place_of[n % self.moves_per_buy]
        return (buy,) if then is None else (buy, then)

    @staticmethod
    def of(edition: Edition) -> Tables:
        """The tables of ``edition``, made once per edition (equal editions share them)."""
        seen = _TABLES_OF_OBJECT.get(id(edition))
        if seen is not None and seen[0] is edition:
            return seen[1]  # no hashing of the whole edition: new_game() asks every game
        tables = _tables_of(edition)
        if len(_TABLES_OF_OBJECT) >= 64:
            _TABLES_OF_OBJECT.clear()
        _TABLES_OF_OBJECT[id(edition)] = (edition, tables)
        return tables


@functools.cache
def _tables_of(edition: Edition) -> Tables:
    return Tables(edition)


# The tables of the edition objects asked for lately, by id (each kept alive by its entry).
_TABLES_OF_OBJECT: dict[int, tuple[Edition, Tables]] = {}


class Player:
    """One seat: builder, food, boat, pyramid, storehouse and powers used."""

    __slots__ = ("arrival", "builder", "ended", "feasted", "food", "power", "pyramid",
                 "retired", "sailed", "space", "store")

    def __init__(self, geometry: Geometry, food: int, space: int,
                 builder: Builder | None, pyramid: Pyramid | None = None) -> None:
        self.builder = builder
        self.power = Power(builder.power) if builder else None
        self.food = food
        self.space = space
        self.arrival = -1  # order of arrival on its space (global counter); -1: not yet placed
        self.pyramid = pyramid if pyramid is not None else Pyramid(geometry)
        self.store: list[int] = []  # stored stones (Stone values)
        self.feasted = False  # Lateef's feast used
        self.sailed = False  # Heba's sail-back used
        self.ended = False  # took the forced end: its game is over (4.1), no sail-back after
        self.retired = False  # taken out of the game by the arbiter

    def copy(self) -> Player:
        p = Player(self.pyramid.geometry, self.food, self.space, None, self.pyramid.copy())
        p.builder = self.builder
        p.power = self.power
        p.arrival = self.arrival
        p.store = self.store[:]
        p.feasted = self.feasted
        p.sailed = self.sailed
        p.ended = self.ended
        p.retired = self.retired
        return p


class Standing(NamedTuple):
    """A seat's result: its place (1 = first, shared on ties) and the ranking keys (R6)."""

    seat: int
    rank: int
    stones: int
    food: int
    areas: tuple[int, ...]  # enclosed area sizes, largest first
    retired: bool


class SoloResult(NamedTuple):
    """The outcome of a solo game against Ptah (section 6)."""

    won: bool
    stones: int
    ptah: int
    score: int | None  # only when won
    title: str | None


class GameState:
    """A Sneferu game in progress; see the module docstring."""

    __slots__ = (
        "_phase",
        "bag",
        "bag_total",
        "can_store",
        "hand",
        "next_arrival",
        "offer",
        "pending",
        "players",
        "ptah",
        "ptah_total",
        "seat",
        "setup_next",
        "start_space",
        "tables",
        "tiles",
        "turn",
        "variant",
    )

    def __init__(self, tables: Tables, variant: Variant, players: list[Player],
                 solo: bool, source: GameState | None = None) -> None:
        """A game at its first set-up chance node with these ``players``, or with
        ``source``'s state: the offer, the refills due and Ptah's stones copied, the tiles
        and the bag shared (:meth:`clone`, :meth:`_turn_copy`)."""
        self.tables = tables
        self.variant = variant
        self.players = players
        if source is not None:
            self.tiles: list[int] = source.tiles
            self.offer: list[list[int]] = [col[:] for col in source.offer]
            self.bag: list[int] = source.bag
            self.bag_total: int = source.bag_total
            self.ptah: list[int] | None = source.ptah[:] if source.ptah is not None else None
            self.ptah_total: int = source.ptah_total
            self._phase: int = source._phase
            self.seat: int = source.seat
            self.start_space: int = source.start_space
            self.hand: int = source.hand
            self.can_store: bool = source.can_store
            self.pending: list[int] = source.pending[:]
            self.next_arrival: int = source.next_arrival
            self.turn: int = source.turn
            self.setup_next: tuple[str, int] = source.setup_next
            return
        self.tiles = [-1] * len(tables.quarry_spaces)  # Tile per quarry; -1 not laid yet
        self.offer = [[] for _ in range(tables.columns)]  # bottom row first
        self.bag = [tables.per_type] * len(Stone)
        self.bag_total = tables.per_type * len(Stone)
        self.ptah = [0] * len(Stone) if solo else None
        self.ptah_total = 0
        self._phase = _SETUP
        self.seat = -1  # the active seat, -1 when no one is
        self.start_space = -1  # the active boat's space at the start of the turn
        self.hand = -1  # the stone bought this turn, until placed or stored
        self.can_store = False  # the STOREHOUSE bonus applies to the stone in hand
        self.pending = []  # columns to refill at the end of the turn, in order
        self.next_arrival = 0
        self.turn = 0  # turns begun so far
        # The next set-up chance event (kind, index), kept so it is not searched each time.
        self.setup_next = self._find_setup_next()

    # ----------------------------------------------------------------- basics

    @property
    def phase(self) -> Phase:
        """Where the game stands (kept as a plain int inside)."""
        return PHASES[self._phase]

    @phase.setter
    def phase(self, value: Phase) -> None:
        self._phase = int(value)

    @property
    def edition(self) -> Edition:
        return self.tables.edition

    @property
    def solo(self) -> bool:
        return self.ptah is not None

    def clone(self) -> GameState:
        """An independent copy."""
        s = GameState(self.tables, self.variant, [p.copy() for p in self.players],
                      self.ptah is not None, self)
        s.tiles = self.tiles[:]
        s.bag = self.bag[:]
        return s

    def _turn_copy(self) -> GameState:
        """A copy to try the steps of this turn on (:meth:`_walk`): what a step can change
        is copied (the active seat, the offer, the refills due, Ptah's stones), the other
        seats, the tiles and the bag are shared (only chance outcomes change those)."""
        players = self.players[:]
        players[self.seat] = players[self.seat].copy()
        return GameState(self.tables, self.variant, players, self.ptah is not None, self)

    def is_chance_node(self) -> bool:
        return self._phase == _SETUP or self._phase == _DRAW

    def is_over(self) -> bool:
        return self._phase == _OVER

    def current_seat(self) -> int:
        """The seat to decide, or -1 at a chance node or when the game is over."""
        return self.seat if _START <= self._phase <= _POST else -1

    def price(self, column: int, row: int, bonus: bool = False) -> tuple[int, int]:
        """(food, time) of the offer cell at 1-based ``column``, ``row`` for the active player.

        ``bonus`` applies the start quarry's tile where it changes the price: NOEXTRA
        drops the row extra, SAVETIME saves time, TIMEFOOD adds its extra space.
        """
        tile = self.start_tile() if bonus else None
        return self._cost(column - 1, row - 1, -1 if tile is None else tile)

    def _cost(self, c: int, r: int, tile: int) -> tuple[int, int]:
        """(food, time) of offer cell ``c``, ``r`` (0-based) with bonus ``tile`` used (-1: none)."""
        t = self.tables
        food, time = t.prices[c][r], t.col_time[c]
        if tile == _NOEXTRA:
            food = t.col_food[c]
        elif tile == _SAVETIME:
            time = max(0, time - t.savetime)
        elif tile == _TIMEFOOD:
            time += 1
        return food, time

    def start_tile(self) -> Tile | None:
        """The bonus tile of the quarry the active boat started this turn on, if any."""
        if self.start_space < 0:
            return None
        q = self.tables.quarry_at[self.start_space]
        return Tile(self.tiles[q]) if q >= 0 and self.tiles[q] >= 0 else None

    # ----------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Outcome, float]]:
        """The outcomes of this chance node with their probabilities (empty if none)."""
        weighted = self.chance_weights()
        total = sum(w for _, w in weighted)
        return [(o, w / total) for o, w in weighted]

    def chance_weights(self) -> list[tuple[Outcome, int]]:
        """The outcomes of this chance node with integer weights (counts)."""
        t = self.tables
        phase = self._phase
        if phase == _DRAW:
            draw = t.draw
            return [(draw[s], n) for s, n in enumerate(self.bag) if n]
        if phase != _SETUP:
            return []
        kind, index = self.setup_next
        if kind == "tile":
            lay = t.lay
            return [(lay[k], n) for k, n in enumerate(self._tile_pool(index)) if n > 0]
        if kind == "offer":
            draw = t.draw
            return [(draw[s], n) for s, n in enumerate(self.bag) if n]
        if kind == "builder":
            taken = {p.builder.name for p in self.players if p.builder}
            return [(Assign(b.name), 1) for b in t.builders if b.name not in taken]
        return [(Arrive(i), 1) for i, p in enumerate(self.players) if p.arrival < 0]

    def _tile_pool(self, quarry: int) -> list[int]:
        """How many tiles of each kind are left for ``quarry`` (eye tiles for eye spaces)."""
        t = self.tables
        eye = t.quarry_eye[quarry]
        left = t.eye_pool[:] if eye else t.other_pool[:]
        tiles = self.tiles
        for q in t.same_class[quarry]:
            tile = tiles[q]
            if tile >= 0:
                left[tile] = left[tile] - 1  # (-= on a list item is not compiled to C ints)
        return left

    def draws_from_bag(self) -> bool:
        """True at a chance node whose outcomes are draws from the bag (offer or refill)."""
        phase = self._phase
        return phase == _DRAW or (phase == _SETUP and self.setup_next[0] == "offer")

    def is_drawing_offer(self) -> bool:
        """True at a set-up chance node that fills the offer from the bag."""
        return self._phase == _SETUP and self.setup_next[0] == "offer"

    def _find_setup_next(self) -> tuple[str, int]:
        """Which set-up chance event comes next: (kind, index); ("", -1) when none."""
        for i, kind in enumerate(self.tiles):
            if kind < 0:
                return "tile", i
        for c, col in enumerate(self.offer):
            if len(col) < self.tables.rows:
                return "offer", c
        if self.variant == Variant.BUILDERS:
            for i, p in enumerate(self.players):
                if p.builder is None:
                    return "builder", i
        for i, p in enumerate(self.players):
            if p.arrival < 0:
                return "boat", i
        return "", -1

    def _deal(self, stone: int) -> None:
        """A draw from the bag filling the offer at set-up (a column at a time)."""
        bag = self.bag
        if not bag[stone]:
            raise IllegalAction(self._not_drawn(self.tables.draw_text[stone]))
        bag[stone] = bag[stone] - 1
        self.bag_total -= 1
        index = self.setup_next[1]
        col = self.offer[index]
        col.append(stone)
        if len(col) >= self.tables.rows:  # else: the same column again
            self.setup_next = self._find_setup_next()

    def _not_drawn(self, outcome: str) -> str:
        return (f"{outcome}: the next chance event is a draw from the bag, which holds "
                f"{self._bag_text()}")

    def _apply_outcome(self, o: Outcome) -> None:
        if self._phase != _SETUP:
            raise IllegalAction(f"{o}: this is not a chance node (a player is to move)")
        kind, index = self.setup_next
        if kind == "offer":
            if type(o) is not _DRAW_T:
                raise IllegalAction(self._not_drawn(str(o)))
            self._deal(int(o.stone))
            return
        if kind == "tile":
            if type(o) is not LayTile or self._tile_pool(index)[o.tile] <= 0:
                raise IllegalAction(f"{o}: the next chance event lays a tile on the quarry at "
                                    f"space {self.tables.quarry_spaces[index]}; possible: "
                                    + " ".join(str(x) for x, _ in self.chance_weights()))
            self.tiles[index] = o.tile
        elif kind == "builder":
            if type(o) is not Assign or (o, 1) not in self.chance_weights():
                raise IllegalAction(f"{o}: the next chance event draws seat {index + 1}'s "
                                    "builder; possible: "
                                    + " ".join(str(x) for x, _ in self.chance_weights()))
            b = self.tables.edition.builder(o.builder)
            p = self.players[index]
            p.builder, p.power, p.food = b, Power(b.power), b.food
        else:
            if type(o) is not Arrive or not (0 <= o.seat < len(self.players)
                                             and self.players[o.seat].arrival < 0):
                raise IllegalAction(f"{o}: the next chance event is a boat arriving at the "
                                    "start; possible: "
                                    + " ".join(str(x) for x, _ in self.chance_weights()))
            self.players[o.seat].arrival = self.next_arrival
            self.next_arrival += 1
        self.setup_next = self._find_setup_next()
        if not self.setup_next[0]:
            self._begin_turn()

    def apply_outcome_text(self, text: str) -> bool:
        """:meth:`apply` of the chance outcome written ``text``, as ``str`` writes it
        (``Tables.outcome_of``); False, and nothing done, for any other text (the caller
        reads it)."""
        t = self.tables
        stone = t.drawn_stone.get(text)
        if stone is not None:
            if self._phase == _DRAW:
                self._refill(stone)
                return True
            if self._phase == _SETUP and self.setup_next[0] == "offer":
                self._deal(stone)
                return True
        outcome = t.outcome_of.get(text)
        if outcome is None:
            return False
        self.apply(outcome)
        return True

    def _bag_text(self) -> str:
        return " ".join(f"{Stone(s).name}:{n}" for s, n in enumerate(self.bag) if n) or "nothing"

    # ----------------------------------------------------------------- decisions

    def legal_steps(self) -> list[Step]:
        """The steps the active player may take now (empty at chance nodes and the end)."""
        phase = self._phase
        if phase == _START:
            return self._start_steps()
        if phase == _PLACE:
            p = self.players[self.seat]
            places = self.tables.placements(p.pyramid.open, self.hand, self._can_sail(p))[0]
            steps: list[Step] = list(places)
            if self.can_store:
                steps.append(_STORE_STEP)
            return steps
        if phase == _POST:
            p = self.players[self.seat]
            steps = []
            if p.power is _FEAST and not p.feasted:
                steps.append(_FEAST_STEP)
            if p.space == self.tables.last:
                self._stored_placements(p, steps)
            steps.append(_DONE_STEP)
            return steps
        return []

    def _start_steps(self) -> list[Step]:
        p = self.players[self.seat]
        if not p.store and p.power is not _FEAST and self.bag_total:
            buys = self._buys(p)  # the usual start: the buys alone
            if not buys:
                buys.append(_END_STEP)
            return buys
        steps: list[Step] = []
        if p.store:
            self._stored_placements(p, steps)
        if p.power is _FEAST and not p.feasted:
            steps.append(_FEAST_STEP)
        if not self.bag_total:
            steps.extend(self._shifts())
        buys = self._buys(p)
        if buys:
            steps.extend(buys)
        else:
            steps.append(_END_STEP)
        return steps

    def _can_sail(self, p: Player) -> bool:
        """Whether ``p``'s placements may carry Heba's sail-back now."""
        return p.power is _SAIL_BACK and not p.sailed and not p.ended and p.space > 0

    def _stored_placements(self, p: Player, out: list[Step]) -> None:
        sail = self._can_sail(p)
        for stone in sorted(set(p.store)):
            out += self.tables.placements(p.pyramid.open, stone, sail)[0]

    def _shifts(self) -> list[Step]:
        cols = self.offer
        empty = [t for t, col in enumerate(cols) if not col]
        return [self.tables.shift[s][t] for t in empty
                for s, col in enumerate(cols) if len(col) >= 2]

    def _buys(self, p: Player) -> list[Step]:
        """Every affordable buy (plain, then with the bonus) for player ``p``."""
        buy_of = self.tables.buy_of
        return [buy_of[n] for n in self._buy_numbers(p)]

    def _buy_numbers(self, p: Player) -> list[int]:
        """:meth:`_buys` by their numbers (``Tables.buy_of``)."""
        t = self.tables
        if p.pyramid.count + len(p.store) >= t.slots:
            return []
        food, space, last = p.food, p.space, t.last
        q = t.quarry_at[self.start_space]
        tile = self.tiles[q] if q >= 0 else -1
        # The STOREHOUSE bonus is the Store step, not a '+' buy.
        colour_bit = 1 << t.quarry_material[q] if q >= 0 and tile != _STOREHOUSE else 0
        out: list[int] = []
        rows = t.rows
        for c, col in enumerate(self.offer):
            if not col:
                continue
            arrive = space + t.col_time[c]
            prices = t.prices[c]
            if arrive <= last:
                out += t.affordable[c][food if food < t.max_price else t.max_price][len(col)]
            if not colour_bit:
                continue
            if tile == _NOEXTRA:
                ok = t.col_food[c] <= food and arrive <= last
            elif tile == _SAVETIME:
                ok = arrive - t.savetime <= last
            elif tile == _TIMEFOOD:
                ok = arrive + 1 <= last
            else:
                ok = arrive <= last
            if not ok:
                continue
            no_extra = tile == _NOEXTRA
            for r, stone in enumerate(col):
                if STONE_MASK[stone] & colour_bit and (no_extra or prices[r] <= food):
                    out.append((c * rows + r) * 2 + 1)
        return out

    def apply(self, action: Action) -> None:
        """Apply a step of the active player or a chance outcome; raise IllegalAction."""
        kind = type(action)
        if kind is _DRAW_T and self._phase == _DRAW:
            self._refill(int(action.stone))  # type: ignore[union-attr]
        elif kind is _BUY_T:
            self._buy(action)  # type: ignore[arg-type]
        elif kind is _PLACE_T:
            self._apply_place(action)  # type: ignore[arg-type]
        elif kind is _DRAW_T or kind is _LAYTILE_T or kind is _ARRIVE_T or kind is _ASSIGN_T:
            self._apply_outcome(action)  # type: ignore[arg-type]
        elif kind is _DONE_T:
            if self._phase != _POST:
                raise IllegalAction(self._not_now("done"))
            self._end_turn()
        elif kind is _STORE_T:
            if self._phase != _PLACE or not self.can_store:
                raise IllegalAction("store: only with the STOREHOUSE bonus of the quarry the "
                                    "boat started on, for a stone of its colour, before placing")
            self._store_hand()
        elif kind is _FEAST_T:
            self._feast()
        elif kind is _END_T:
            self._forced_end()
        elif kind is _SHIFT_T:
            self._shift(action)  # type: ignore[arg-type]
        else:
            raise IllegalAction(f"not an action: {action!r}")

    def _refill(self, stone: int) -> None:
        """A draw from the bag refilling the next column due (phase DRAW)."""
        if not self.bag[stone]:
            raise IllegalAction(f"{self.tables.draw_text[stone]}: the bag holds "
                                f"{self._bag_text()}")
        bag = self.bag
        bag[stone] = bag[stone] - 1
        self.bag_total -= 1
        pending = self.pending
        self.offer[pending.pop(0)].append(stone)
        if not pending:
            self._begin_turn()
        elif not self.bag_total:
            pending.clear()
            self._begin_turn()

    def _store_hand(self) -> None:
        """The stone in hand to the storehouse (the store step, checked)."""
        self.players[self.seat].store.append(self.hand)
        self.hand = -1
        self._finish_main()

    def _not_now(self, what: str) -> str:
        where = {_SETUP: "during set-up (a chance node)", _START: "before the buy",
                 _PLACE: "while the bought stone waits to be placed",
                 _POST: "after the turn", _DRAW: "while the offer is refilled",
                 _OVER: "after the game is over"}[self._phase]
        return f"{what}: not allowed {where}"

    def _buy(self, step: Buy) -> None:
        if self._phase != _START:
            raise IllegalAction(self._not_now(f"buy {step}"))
        t = self.tables
        c, r = step.column - 1, step.row - 1
        if not (0 <= c < t.columns and 0 <= r < len(self.offer[c])):
            raise IllegalAction(f"buy {step}: there is no stone at column {step.column}, "
                                f"row {step.row}")
        p = self.players[self.seat]
        if p.pyramid.count + len(p.store) >= t.slots:
            raise IllegalAction(f"buy {step}: the pyramid has no room (placed + stored = "
                                f"{t.slots}); the forced end applies")
        stone = self.offer[c][r]
        q = t.quarry_at[self.start_space]
        # The start quarry's tile when the stone has its colour, else -1.
        tile = self.tiles[q] if q >= 0 and STONE_MASK[stone] >> t.quarry_material[q] & 1 else -1
        if step.bonus:
            if tile < 0:
                raise IllegalAction(f"buy {step}: no quarry bonus applies (the boat started "
                                    f"this turn on space {self.start_space}, stone "
                                    f"{Stone(stone).name})")
            if tile == _STOREHOUSE:
                raise IllegalAction(f"buy {step}: the STOREHOUSE bonus is used by the store "
                                    "step, not by '+'")
        food, time = self._cost(c, r, tile if step.bonus else -1)
        if food > p.food:
            raise IllegalAction(f"buy {step}: costs {food} food, the player has {p.food}")
        if p.space + time > t.last:
            raise IllegalAction(f"buy {step}: {time} time would take the boat from space "
                                f"{p.space} past space {t.last}")
        self._take(p, c, r, step.bonus, tile)

    def _take(self, p: Player, c: int, r: int, bonus: bool, tile: int) -> None:
        """``p`` buys the stone of offer cell ``c``, ``r`` (0-based), a buy checked:
        ``tile`` is the start quarry's tile if the stone has its colour, else -1, and
        ``bonus`` says the buy uses it."""
        t = self.tables
        food, time = self._cost(c, r, tile if bonus else -1)
        start = p.space
        end = start + time
        p.food -= food
        if end != start:
            p.space = end
            p.arrival = self.next_arrival
            self.next_arrival += 1
        if bonus:
            p.food += t.bonus_food[tile]
        col = self.offer[c]
        self.hand = col.pop(r)
        self.pending.append(c)
        self.can_store = tile == _STOREHOUSE
        self.start_space = -1
        self._phase = _PLACE
        if self.ptah is not None and end > start:
            self._ptah_takes(start, end, c)

    def _ptah_takes(self, start: int, end: int, bought_column: int) -> None:
        """Solo: Ptah takes matching bottom stones for each quarry left or passed (R7)."""
        t = self.tables
        assert self.ptah is not None
        for q, space in enumerate(t.quarry_spaces):
            if not start <= space < end:
                continue
            colour = t.quarry_material[q]
            for c, col in enumerate(self.offer):
                if c == bought_column or not col or not STONE_MASK[col[0]] >> colour & 1:
                    continue
                stone = col.pop(0)
                self.ptah[stone] = self.ptah[stone] + 1
                self.ptah_total += 1
                self.pending.append(c)
                if self.ptah_total >= t.ptah_target:
                    self._phase = _OVER  # Ptah wins at once; the bought stone stays in hand
                    self.pending.clear()
                    return

    def _apply_place(self, step: Place) -> None:
        phase = self._phase
        t = self.tables
        g = t.geometry
        level: int = step.level
        slot: int = step.slot
        left: int = step.left
        right: int = step.right
        if not (1 <= level <= g.levels and 1 <= slot <= g.levels + 1 - level):
            raise IllegalAction(f"place {step}: there is no slot {level}.{slot}")
        s = g.level_start[level - 1] + slot - 1
        if left == right:
            raise IllegalAction(f"place {step}: a stone's two halves are different materials")
        stone = _STONE_OF_PAIR[left * 5 + right]
        p = self.players[self.seat] if self.seat >= 0 else None
        if phase == _PLACE:
            assert p is not None
            if stone != self.hand:
                raise IllegalAction(f"place {step}: the stone bought is {Stone(self.hand).name}")
        elif phase == _START or (phase == _POST and p is not None
                                      and p.space == t.last):
            assert p is not None
            if stone not in p.store:
                held = " ".join(Stone(x).name for x in p.store) or "nothing"
                raise IllegalAction(f"place {step}: no {Stone(stone).name} in the storehouse "
                                    f"(it holds {held})")
        elif phase == _POST:
            raise IllegalAction(f"place {step}: stored stones are placed after the turn only "
                                f"once the boat is on space {t.last} (R5)")
        else:
            raise IllegalAction(self._not_now(f"place {step}"))
        assert p is not None
        if not p.pyramid.open >> s & 1:
            why = "is taken" if p.pyramid.filled >> s & 1 else "is not supported"
            raise IllegalAction(f"place {step}: slot {step.level}.{step.slot} {why}")
        if step.heba:
            if p.power is not _SAIL_BACK:
                raise IllegalAction(f"place {step}: only Heba can sail back")
            if p.ended:
                raise IllegalAction(f"place {step}: the forced end ended Heba's game (4.1), "
                                    "so no sail-back after it")
            if p.sailed:
                raise IllegalAction(f"place {step}: Heba's sail-back is used once per game")
            if p.space == 0:
                raise IllegalAction(f"place {step}: the boat is on space 0, it cannot sail back")
        self._put(p, s, left, right, step.heba, phase == _PLACE)

    def _put(self, p: Player, s: int, left: int, right: int, heba: bool,
             bought: bool) -> None:
        """``p`` places a stone of materials ``left``, ``right`` into slot ``s``, with
        Heba's sail-back if ``heba``, a placement checked: the stone in hand if
        ``bought`` (then the turn goes on), else a stored one."""
        if bought:
            self.hand = -1
        else:
            p.store.remove(_STONE_OF_PAIR[left * 5 + right])
        self._place(p, s, left, right)
        if heba:
            p.sailed = True
            assert p.builder is not None
            p.space = max(0, p.space - p.builder.amount)
            p.arrival = self.next_arrival
            self.next_arrival += 1
        if bought:
            self._finish_main()

    def _place(self, p: Player, s: int, left: int, right: int) -> None:
        """Put a stone in slot ``s`` and gain food for icons, enclosed areas and Tsekani."""
        p.food += self._gain(p, p.pyramid, s, p.pyramid.place(s, left, right))

    def _gain(self, p: Player, pyramid: Pyramid, s: int, enclosed: list[int]) -> int:
        """The food ``p`` gains for the stone just put in slot ``s`` of ``pyramid`` (its
        own, or a copy), which enclosed areas of sizes ``enclosed``."""
        t = self.tables
        gain = t.geometry.icon_food[s]
        if enclosed:
            chart = t.area_food
            single = p.builder.amount if p.power is _SINGLE_AREA and p.builder else None
            for size in enclosed:
                if size == 1 and single is not None:
                    gain += single
                else:
                    gain += chart[min(size, len(chart)) - 1]
        if p.power is _BETWEEN and p.builder:
            sides = t.geometry.sides[s]
            if sides and pyramid.filled & sides == sides:
                gain += p.builder.amount
        return gain

    def _feast(self) -> None:
        if self._phase not in (_START, _POST):
            raise IllegalAction(self._not_now("feast"))
        p = self.players[self.seat]
        if p.power is not _FEAST or p.builder is None:
            raise IllegalAction("feast: only Lateef can feast")
        if p.feasted:
            raise IllegalAction("feast: Lateef's feast is used once per game")
        p.feasted = True
        p.food += p.builder.amount * p.pyramid.highest_level()

    def _forced_end(self) -> None:
        if self._phase != _START:
            raise IllegalAction(self._not_now("end"))
        p = self.players[self.seat]
        buys = self._buys(p)
        if buys:
            raise IllegalAction(f"end: the player can buy a stone (for example {buys[0]}), "
                                "so must buy one")
        last = self.tables.last
        self.start_space = -1
        p.ended = True
        p.food += self.tables.forced_food * (last - p.space)
        if p.space != last:
            p.space = last
            p.arrival = self.next_arrival
            self.next_arrival += 1
        self._finish_main()

    def _shift(self, step: Shift) -> None:
        if self._phase != _START:
            raise IllegalAction(self._not_now(f"shift {step}"))
        cols = self.offer
        s, t = step.source - 1, step.target - 1
        n = len(cols)
        if not (0 <= s < n and 0 <= t < n) or s == t:
            raise IllegalAction(f"shift {step}: columns are 1 to {n} and must differ")
        if self.bag_total:
            raise IllegalAction(f"shift {step}: only when the bag is empty (R4)")
        if cols[t]:
            raise IllegalAction(f"shift {step}: column {step.target} is not empty (R4)")
        if len(cols[s]) < 2:
            raise IllegalAction(f"shift {step}: column {step.source} must hold at least two "
                                "stones (R4)")
        cols[t].append(cols[s].pop())

    # ----------------------------------------------------------------- turn flow

    def _finish_main(self) -> None:
        """After the main placement, storing or the forced end: after-turn steps or the end."""
        p = self.players[self.seat]
        if ((p.power is _FEAST and not p.feasted)
                or (p.store and p.space == self.tables.last)):
            self._phase = _POST
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.hand = -1
        self.can_store = False
        if self.pending and self.bag_total:
            self._phase = _DRAW
        else:
            self.pending.clear()
            self._begin_turn()

    def _begin_turn(self) -> None:
        """Whose turn: the rearmost boat not on the last space, first arrived first (3)."""
        last = self.tables.last
        best = -1
        best_space, best_arrival = last + 1, 0
        for i, p in enumerate(self.players):
            space = p.space
            if not p.retired and space < last and (
                    space < best_space or (space == best_space and p.arrival < best_arrival)):
                best, best_space, best_arrival = i, space, p.arrival
        self.hand = -1
        self.can_store = False
        if best < 0 or (self.ptah is not None and self.ptah_total >= self.tables.ptah_target):
            self._phase = _OVER
            self.seat = -1
            self.start_space = -1
            return
        self._phase = _START
        self.seat = best
        self.start_space = self.players[best].space
        self.turn += 1

    def retire(self, seat: int) -> None:
        """Take ``seat`` out of the game (an engine fault): no more turns, ranked last.

        Allowed between turns or at the start of the retiring seat's own turn.
        """
        if self._phase in (_PLACE, _POST) and seat == self.seat:
            raise IllegalAction("retire: not in the middle of the seat's own turn")
        self.players[seat].retired = True
        if self._phase == _START and seat == self.seat:
            self._begin_turn()

    # ----------------------------------------------------------------- results

    def ranking(self) -> list[Standing]:
        """Every seat's standing by R6 (retired seats below all others), seat order.

        In a solo game the player ranks 1 after beating Ptah, else 2 (Ptah first).
        """
        if self.ptah is not None:
            p = self.players[0]
            won = self.solo_result().won
            return [Standing(0, 1 if won else 2, p.pyramid.count, p.food,
                             tuple(sorted(p.pyramid.areas, reverse=True)), p.retired)]
        keys = []
        for p in self.players:
            areas = tuple(sorted(p.pyramid.areas, reverse=True))
            keys.append((not p.retired, p.pyramid.count, p.food, areas))
        out = []
        for i, p in enumerate(self.players):
            rank = 1 + sum(1 for k in keys if k > keys[i])
            out.append(Standing(i, rank, p.pyramid.count, p.food, keys[i][3], p.retired))
        return out

    def solo_result(self) -> SoloResult:
        """Solo: won or lost against Ptah, with the score and title when won (section 6)."""
        assert self.ptah is not None, "not a solo game"
        solo = self.tables.edition.solo
        p = self.players[0]
        stones = p.pyramid.count
        won = (not p.retired and self.ptah_total < solo.ptah_target
               and stones > self.ptah_total)
        if not won:
            return SoloResult(False, stones, self.ptah_total, None, None)
        score = (solo.points_per_stone * stones + p.food // solo.food_per_point
                 - solo.points_per_ptah_stone * self.ptah_total)
        title = solo.titles[0].title
        for band in solo.titles:
            if score >= band.start:
                title = band.title
        return SoloResult(True, stones, self.ptah_total, score, title)

    # ----------------------------------------------------------------- whole turns

    def turn_over_since(self, turn: int) -> bool:
        """True once the turn numbered ``turn`` has ended (for applying whole moves)."""
        return self.turn != turn or not _START <= self._phase <= _POST

    def apply_turn(self, steps: Sequence[Step]) -> None:
        """Apply one whole turn atomically: all its steps, then Done if still needed.

        On an illegal step nothing changes and IllegalAction says which step failed.
        """
        if not _START <= self._phase <= _POST:
            raise IllegalAction(self._not_now("a move"))
        # The steps work on copies of what a turn can change: the mover, the offer, the
        # refills due and Ptah's stones; on a failure the originals go back.
        players, offer, pending, ptah = self.players, self.offer, self.pending, self.ptah
        scalars = (self._phase, self.seat, self.start_space, self.hand, self.can_store,
                   self.next_arrival, self.turn, self.ptah_total)
        self.players = players[:]
        self.players[self.seat] = players[self.seat].copy()
        self.offer = [col[:] for col in offer]
        self.pending = pending[:]
        self.ptah = ptah[:] if ptah is not None else None
        try:
            self._apply_steps(steps)
        except IllegalAction:
            self.players, self.offer, self.pending, self.ptah = players, offer, pending, ptah
            (self._phase, self.seat, self.start_space, self.hand, self.can_store,
             self.next_arrival, self.turn, self.ptah_total) = scalars
            raise

    def apply_listed_turn(self, steps: Sequence[Step]) -> None:
        """:meth:`apply_turn` for a turn known to be legal: one of :meth:`legal_turns` of
        this very state. No copies are made to undo it, so it is only for such a turn (an
        arbiter applying a listed move); on any other the state is left half-changed."""
        self._apply_steps(steps)

    def apply_listed_text(self, text: str) -> bool:
        """:meth:`apply_listed_turn` of the steps a listing wrote as ``text``, read back
        by the tables (``Tables.listed_number``); False, and nothing done, for a text they
        do not write (the caller reads it) or anywhere but at a start of turn (every
        listed text begins there, and the checked steps then say what is wrong)."""
        t = self.tables
        if self._phase != _START:
            return False
        n = t.listed_number(text)
        if n < -1:
            return False
        if n < 0:
            self._forced_end()
        else:  # the steps of Tables.listed_move, applied as apply() would, unchecked
            number, then = n // t.moves_per_buy, n % t.moves_per_buy
            p = self.players[self.seat]
            c, r = t.column_of[number], t.row_of[number]
            stone = self.offer[c][r]
            q = t.quarry_at[self.start_space]
            colour = q >= 0 and STONE_MASK[stone] >> t.quarry_material[q] & 1
            self._take(p, c, r, number & 1 == 1, self.tiles[q] if colour else -1)
            if then < t.store_at:
                self._put(p, then // 50, then // 10 % 5, then // 2 % 5, then & 1 == 1, True)
            elif then == t.store_at:
                self._store_hand()
        if self._phase == _POST:  # done, implied
            self._end_turn()
        return True

    def _apply_steps(self, steps: Sequence[Step]) -> None:
        """The steps of :meth:`apply_turn`, on this state, and Done when needed."""
        turn = self.turn
        for i, step in enumerate(steps):
            if self.turn_over_since(turn):
                raise IllegalAction(f"step {i + 1} ({step}): the turn is already over")
            if type(step) is Done:
                raise IllegalAction(f"step {i + 1}: 'done' is implied at the end of a move")
            try:
                self.apply(step)
            except IllegalAction as e:
                raise IllegalAction(f"step {i + 1} ({step}): {e}") from None
        if not self.turn_over_since(turn):
            if self._phase == _POST:
                self.apply(DONE)
            else:
                raise IllegalAction("the move is incomplete: "
                                    + ("the bought stone must be placed" if self._phase ==
                                       _PLACE else "a stone must be bought (or end)"))

    def legal_turns(self) -> list[tuple[Step, ...]]:
        """The legal whole turns from here, as step sequences (Done left implicit).

        Sequences that lead to the same state (two stored stones placed in either order,
        say) are listed once, by the first found in step order; every state a legal turn
        can reach is reached by exactly one listed sequence (SPEC.md 2.7).
        """
        turns: list[tuple[Step, ...]] = []
        if not self._plain_turns(turns, None):
            self._tried_turns(turns, None)
        return turns

    def legal_turn_texts(self) -> list[str]:
        """:meth:`legal_turns` written in move notation, one string a turn, same order."""
        texts: list[str] = []
        if not self._plain_turns(None, texts):
            self._tried_turns(None, texts)
        return texts

    def _plain_turns(self, turns: list[tuple[Step, ...]] | None,
                     texts: list[str] | None) -> bool:
        """List the legal turns of a plain start of turn without trying them; False if not plain.

        Plain: no stored stone, no feast to take, a bag that is not empty (no shift). Such a
        turn is a buy, then a placement or ``store``, or the forced end alone. Buys of one
        column come together, and those of two columns differ (the column is part of the
        outcome); within a column, two buys lead to the same state when they keep the same
        stones in it (a run of stones of one kind from the one to the other) at the same
        food and space. So a plain buy is dropped when a buy of a row below it in its run
        costs the same (same column: same time), a buy with the bonus when it repeats one
        before it (:meth:`_repeats`). Distinct outcomes after the buy stay distinct after a
        placement, except Heba's sail-back to space 0 from spaces 1 and 2, which gets its
        own check. The placements of a buy, and its texts, are the tables'
        (``stone_places``, ``stone_texts_of``) at the indices of ``place_order`` of the
        open slots, the same for every buy. (Keeping each buy's texts into each mask of
        open slots saved instructions but cost time: the garbage collector ran three
        times as often for the tuples kept.) Fills ``turns`` and/or ``texts`` in the
        order of :meth:`_legal_turns_reference`.
        """
        if self._phase != _START or not self.bag_total:
            return False
        p = self.players[self.seat]
        if p.store or (p.power is _FEAST and not p.feasted):
            return False
        buys = self._buy_numbers(p)
        if not buys:
            if turns is not None:
                turns.append((END,))
            if texts is not None:
                texts.append(str(END))
            return True
        t = self.tables
        q = t.quarry_at[self.start_space]
        store_bit = 1 << t.quarry_material[q] if q >= 0 and self.tiles[q] == _STOREHOUSE else 0
        solo = self.ptah is not None
        heba = p.power is _SAIL_BACK and not p.sailed and not p.ended
        opened = p.pyramid.open
        plain_order = t.place_order(opened, False)
        offer = self.offer
        column = -1
        first = 0  # where the buys of the column at hand start in buys
        col: list[int] = []
        prices: tuple[int, ...] = ()
        sailed_to_0: set[tuple[int, int, int, bool, int]] | None = None
        column_of, row_of = t.column_of, t.row_of
        for at, number in enumerate(buys):
            c, r = column_of[number], row_of[number]
            if c != column:
                column = c
                first = at
                col = offer[c]
                prices = t.prices[c]
            stone = col[r]
            bonus = number & 1
            if bonus:
                if self._repeats(buys, first, at):
                    continue
            else:
                below = r - 1
                while below >= 0 and col[below] == stone and prices[below] != prices[r]:
                    below -= 1
                if below >= 0 and col[below] == stone:
                    continue
            if solo:
                work = self.clone()
                work.apply(t.buy_of[number])
                if work._phase == _OVER:  # Ptah's take ends the game (R7): the buy alone
                    if turns is not None:
                        turns.append((t.buy_of[number],))
                    if texts is not None:
                        texts.append(t.buy_text[c][r][bonus])
                    continue
            sail = False
            skip = 0  # placements dropped, a bit each by place in place_order
            if heba:
                food, end = self._bought(number)
                if end > 0:
                    sail = True
                    if end <= 2:  # Heba sailing back from spaces 1 and 2 lands on 0 both times
                        rest = self._rest(c, r)
                        if sailed_to_0 is None:
                            sailed_to_0 = set()
                        for j, i in enumerate(t.place_order(opened, True)):
                            if i & 2:  # with the sail-back
                                hk = (c, rest, food, end != p.space, j)
                                if hk in sailed_to_0:
                                    skip |= 1 << j
                                sailed_to_0.add(hk)
            store = store_bit != 0 and STONE_MASK[stone] & store_bit != 0
            order = t.place_order(opened, True) if sail else plain_order
            if texts is not None:
                row = t.stone_texts_of(number, stone, sail)
                if not skip:
                    for i in order:
                        texts.append(row[i])
                else:
                    texts += [row[i] for j, i in enumerate(order) if not skip >> j & 1]
                if store:
                    texts.append(t.store_texts[number])
            if turns is not None:
                buy = t.buy_of[number]
                places = t.stone_places[stone]
                turns += [(buy, places[i]) for j, i in enumerate(order) if not skip >> j & 1]
                if store:
                    turns.append((buy, STORE))
        return True

    def _bonus_tile(self, stone: int) -> int:
        """The tile of the quarry the active boat started this turn on where ``stone`` has
        the quarry's colour (its bonus can apply), else -1."""
        t = self.tables
        q = t.quarry_at[self.start_space]
        return self.tiles[q] if q >= 0 and STONE_MASK[stone] >> t.quarry_material[q] & 1 else -1

    def _bought(self, number: int) -> tuple[int, int]:
        """The active player's food and space after the buy numbered ``number``
        (``Tables.buy_of``), the bonus used for a '+' buy."""
        t = self.tables
        p = self.players[self.seat]
        c, r = t.column_of[number], t.row_of[number]
        if number & 1:
            tile = self._bonus_tile(self.offer[c][r])
            cost, time = self._cost(c, r, tile)
            return p.food - cost + t.bonus_food[tile], p.space + time
        cost, time = self._cost(c, r, -1)
        return p.food - cost, p.space + time

    def _rest(self, c: int, r: int) -> int:
        """The stones column ``c`` keeps when its row ``r`` is bought (all of them for
        ``r`` -1), as one int (a hexadecimal digit a stone, its number + 1, bottom
        first)."""
        rest = 0
        for i, kept in enumerate(self.offer[c]):
            if i != r:
                rest = rest * 16 + kept + 1
        return rest

    def _repeats(self, buys: list[int], first: int, at: int) -> bool:
        """Whether buy ``buys[at]`` (numbers, ``Tables.buy_of``) leads where one of
        ``buys[first:at]`` (earlier buys of its column from this start of turn) does: the
        same food and space, and the same stones kept in the column, so a run of stones
        of one kind from the one bought to the other. Then the whole state after them is
        the same, Ptah's take too (it depends on the column bought, the spaces sailed and
        the offer). An earlier buy that repeats another stands for it."""
        t = self.tables
        number = buys[at]
        col = self.offer[t.column_of[number]]
        r = t.row_of[number]
        stone = col[r]
        low = r
        while low > 0 and col[low - 1] == stone:
            low -= 1
        high = r
        while high + 1 < len(col) and col[high + 1] == stone:
            high += 1
        food, end = -1, -1  # where this buy leads, worked out when first needed
        for k in range(first, at):
            other = t.row_of[buys[k]]
            if low <= other <= high:
                if end < 0:
                    food, end = self._bought(number)
                other_food, other_end = self._bought(buys[k])  # ints: no tuples compared
                if other_food == food and other_end == end:
                    return True
        return False

    def _legal_turns_reference(self) -> list[tuple[Step, ...]]:
        """:meth:`legal_turns` the slow, plain way: try every step sequence on copies.

        The definition the fast enumerations are tested against
        (tests/sneferu/test_legal_turns.py).
        """
        out: list[tuple[Step, ...]] = []
        if _START <= self._phase <= _POST:
            self._walk(self, (), "", set(), out, None, -1, True)
        return out

    def _tried_turns(self, turns: list[tuple[Step, ...]] | None,
                     texts: list[str] | None) -> None:
        """The legal turns of a start of turn that is not plain, by trying step sequences
        as :meth:`_legal_turns_reference` does, and quicker where that is sure to give the
        same: outside solo, with a bag that is not empty, and no feast or sail-back to
        take, a buy whose placements (and ``store``) all end the turn is not tried
        (:meth:`_buy_outcomes`). The steps are tried on turn copies (:meth:`_turn_copy`)."""
        if _START <= self._phase <= _POST:
            p = self.players[self.seat]
            quick = (self._phase == _START and self.ptah is None and self.bag_total > 0
                     and not (p.power is _FEAST and not p.feasted)
                     and not (p.power is _SAIL_BACK and not p.sailed and not p.ended))
            stored = 0  # the kinds of stone in the storehouse, a bit each
            for stone in p.store:
                stored |= 1 << stone
            self._walk(self, (), "", set(), turns, texts, stored if quick else -1, False)

    def _walk(self, node: GameState, prefix: tuple[Step, ...], prefix_text: str,
              seen: set[object], out: list[tuple[Step, ...]] | None,
              texts: list[str] | None, stored: int, whole: bool) -> None:
        """Try every step of ``node`` (a state of this turn) on a copy, in step order:
        a step whose outcome (``_turn_key``) is in ``seen`` is dropped, one that ends the
        turn gives a turn (``prefix`` and the step to ``out``; its text to ``texts``), any
        other is walked on. With ``stored`` not -1 (the kinds of stone stored at the
        start, a bit each), buys go to :meth:`_buy_outcomes` where it can, and placing
        the one stone stored at the start of the turn is not keyed: no other step
        sequence of the turn reaches a start of turn with that stone there and none
        stored (none shifts or feasts then). The copies are whole clones if ``whole``;
        else turn copies (:meth:`_turn_copy`), and a step after which Done is the only
        step left is taken with Done at once (the state between is not keyed: any
        sequence reaching it ends in the same state after Done)."""
        turn, mover = self.turn, self.seat
        t = self.tables
        bought: set[int] = set()
        one_stored = stored >= 0 and not prefix and len(node.players[mover].store) == 1
        for step in node.legal_steps():
            if stored >= 0 and type(step) is Buy and node._buy_outcomes(
                    step, prefix, prefix_text, seen, out, texts, stored, bought):
                continue
            nxt = node.clone() if whole else node._turn_copy()
            nxt.apply(step)
            if not whole and nxt._phase == _POST and nxt._only_done():
                nxt.apply(_DONE_STEP)
            if not (one_stored and type(step) is Place) and not _added(
                    seen, nxt._turn_key(mover)):
                continue
            done = type(step) is Done  # implied at the end of a move, not written
            text = prefix_text
            if not done:
                if type(step) is Place:
                    spaced = t.spaced_place_text[t.place_number(step)]
                    text = prefix_text + spaced if prefix_text else spaced[1:]
                else:
                    text = f"{prefix_text} {step}" if prefix_text else str(step)
            if nxt.turn_over_since(turn):
                if out is not None:
                    out.append(prefix if done else (*prefix, step))
                if texts is not None:
                    texts.append(text or "done")
            else:
                self._walk(nxt, (*prefix, step), text, seen, out, texts, stored, whole)

    def _buy_outcomes(self, buy: Step, prefix: tuple[Step, ...], prefix_text: str,
                      seen: set[object], out: list[tuple[Step, ...]] | None,
                      texts: list[str] | None, stored: int, bought: set[int]) -> bool:
        """For :meth:`_walk` at a start of turn (no Ptah, no feast or sail-back to take, a
        bag that is not empty): the turns of ``buy`` and each placement (and ``store``).
        False, and nothing done, when a step after the buy does not end the turn (the
        boat reaches the last space with a stone in or going to the storehouse: after-turn
        steps).

        A turn that ends short of the last space, buying a kind of stone that was not in
        the storehouse (``stored``), reaches a state no other turn reaches but those of
        buys of the same outcome from this very state (``bought``, as in
        :meth:`_plain_turns`): another turn to the same state would place the same stones
        this turn (the stored ones cannot stand for the bought one), so start from a
        state with the same pyramid and storehouse, hence the same food or food that
        differs throughout. Any other turn is keyed by the very ``_turn_key`` of the state
        it leads to, built from the buy's cost and each placement's food on a copy of the
        pyramid alone."""
        assert type(buy) is Buy
        t = self.tables
        p = self.players[self.seat]
        c, r = buy.column - 1, buy.row - 1
        number = (c * t.rows + r) * 2 + int(buy.bonus)
        col = self.offer[c]
        stone = col[r]
        tile = self._bonus_tile(stone)
        food, end = self._bought(number)
        if end >= t.last and (p.store or tile == _STOREHOUSE):
            return False
        places, numbers = t.placements(p.pyramid.open, stone, False)
        order = t.place_order(p.pyramid.open, False)  # where those are in stone_texts_of
        row = t.stone_texts_of(number, stone, False) if texts is not None else ()
        lead = prefix_text + " " if prefix_text else ""
        if end < t.last and not stored >> stone & 1:
            outcome = ((food * (t.last + 1) + end) * t.columns + c) * t.rest_bound + self._rest(
                c, r)
            if outcome in bought:
                return True
            bought.add(outcome)
            if out is not None:
                out += [(*prefix, buy, place) for place in places]
            if texts is not None:
                texts += [lead + row[i] for i in order]
            if tile == _STOREHOUSE:
                if out is not None:
                    out.append((*prefix, buy, _STORE_STEP))
                if texts is not None:
                    texts.append(lead + t.store_texts[number])
            return True
        arrival = self.next_arrival if end != p.space else p.arrival
        offer = tuple([self._rest(i, r if i == c else -1) for i in range(len(self.offer))])
        head = (_DRAW, self.seat, self.turn, -1, False, offer, (*self.pending, c), None)
        store = tuple(sorted(p.store))
        for i, then in enumerate(numbers):
            pyramid = p.pyramid.copy()
            s = then // 50
            enclosed = pyramid.place(s, then // 10 % 5, then // 2 % 5)
            key = (*head, food + self._gain(p, pyramid, s, enclosed), end, arrival,
                   pyramid.basalt, pyramid.tura, pyramid.mokattam, pyramid.granite,
                   pyramid.gold, store, p.feasted, p.sailed, p.ended)
            if not _added(seen, key):
                continue
            if out is not None:
                out.append((*prefix, buy, places[i]))
            if texts is not None:
                texts.append(lead + row[order[i]])
        if tile == _STOREHOUSE:
            pyramid = p.pyramid
            key = (*head, food, end, arrival, pyramid.basalt, pyramid.tura, pyramid.mokattam,
                   pyramid.granite, pyramid.gold, tuple(sorted([*p.store, stone])),
                   p.feasted, p.sailed, p.ended)
            if _added(seen, key):
                if out is not None:
                    out.append((*prefix, buy, _STORE_STEP))
                if texts is not None:
                    texts.append(lead + t.store_texts[number])
        return True

    def _only_done(self) -> bool:
        """After the turn (phase POST): whether :meth:`legal_steps` lists Done alone (no
        feast to take, no stored stone to place on the last space)."""
        p = self.players[self.seat]
        return not (p.power is _FEAST and not p.feasted) and not (
            p.store and p.space == self.tables.last)

    def _turn_key(self, mover: int) -> tuple[object, ...]:
        """What a turn of seat ``mover`` can change, for telling its outcomes apart: the
        offer a column an int (``_rest``), the pyramid by its materials' cells (which
        give its stones), as few and as cheap to hash objects as can be."""
        p = self.players[mover]
        pyramid = p.pyramid
        return (self._phase, self.seat, self.turn, self.hand, self.can_store,
                tuple([self._rest(c, -1) for c in range(len(self.offer))]),
                tuple(self.pending), tuple(self.ptah) if self.ptah is not None else None,
                p.food, p.space, p.arrival, pyramid.basalt, pyramid.tura, pyramid.mokattam,
                pyramid.granite, pyramid.gold, tuple(sorted(p.store)),
                p.feasted, p.sailed, p.ended)


def _added(seen: set[object], key: object) -> bool:
    """Add ``key`` to ``seen``; True if it was not there (one hash of the key, where
    ``in`` then ``add`` would take two)."""
    size = len(seen)
    seen.add(key)
    return len(seen) > size


def new_game(players: int = 4, *, builders: Iterable[str] | str | None = None,
             edition: Edition | None = None) -> GameState:
    """A game at its first set-up chance node.

    ``players``: 1 (solo against Ptah) to 4. ``builders``: None for the standard game,
    ``"random"`` for the builders variant with builders drawn at set-up, or a list of
    builder names, one per seat.
    """
    ed = edition or standard_edition()
    t = Tables.of(ed)
    if not 1 <= players <= 4:
        raise ValueError(f"players: {players} (1 to 4)")
    chosen: list[Builder | None] = [None] * players
    variant = Variant.STANDARD if builders is None else Variant.BUILDERS
    if isinstance(builders, str):
        if builders != "random":
            builders = [b.strip() for b in builders.split(",")]
        elif players > len(ed.builders):
            raise ValueError(f"builders: {players} seats but the edition has "
                             f"{len(ed.builders)} builders")
    if builders is not None and not isinstance(builders, str):
        names = list(builders)
        if len(names) != players:
            raise ValueError(f"builders: one name per seat: {players}, not {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError("builders: each builder can be chosen once")
        chosen = [ed.builder(n) for n in names]
    start = ed.river.builders_start_space if variant == Variant.BUILDERS else ed.river.start_space
    seats = [Player(t.geometry, b.food if b else ed.player.starting_food, start, b)
             for b in chosen]
    return GameState(t, variant, seats, solo=players == 1)
