"""The Imhotep game state: decisions, chance nodes and every rule of IMHOTEP-RULES.md.

An :class:`ImhotepState` is OpenSpiel-style: either a chance node
(:meth:`~ImhotepState.chance_outcomes`, weighted) or a decision of one seat
(:meth:`~ImhotepState.current_seat`, :meth:`~ImhotepState.legal_moves`,
:meth:`~ImhotepState.apply`). The deciding seat need not be the active player: a stone's
owner decides for it during an unloading or a scoring (I9). The state does no I/O.

What is still to be done is kept as plain data, a stack of *tasks* (``todo``, the last one
runs next; see :data:`TASKS`), so that a stone is resolved completely, cards and decisions
included, before the next one (I8), and a clone copies it with the rest.

Seats are 0-based; seat ``i`` plays colour ``COLOURS[i]`` (K, W, B, G). Sites are indices
into ``"MPTCO"``; market card kinds are indices into the edition's ``market.cards``.

>>> import random
>>> from sneferu_cli.games.imhotep.state import new_game, sample_outcome
>>> state = new_game(2)
>>> rng = random.Random(1)
>>> while state.is_chance_node():
...     state.apply_outcome(sample_outcome(state, rng))
>>> state.round, state.current_seat(), state.quarries, state.sleds
(1, 0, [27, 26], [2, 3])
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Final, NamedTuple, cast

from ...game import IllegalMove
from .edition import SITES, Edition, standard_edition
from .move import (
    PASS,
    Chisel,
    ChoosePyramid,
    Hammer,
    Keep,
    Lever,
    Load,
    Move,
    Pass,
    Q,
    Sail,
    SailCard,
    TakeCard,
    TakeStones,
    TempleChoice,
    parse_move,
)

COLOURS: Final = "KWBG"
"""The stone colour of each seat: seat 1 black, 2 white, 3 brown, 4 grey."""

MARKET: Final = 0
PYRAMID: Final = 1
TEMPLE: Final = 2
CHAMBER: Final = 3
OBELISKS: Final = 4

# Task kinds (the first element of a task tuple). Decisions wait for a seat's move, the
# chance tasks for an outcome; the others run at once.
ROUND_START: Final = 0   # (k,): next round: reveal a round card, lay out the market, turns
ROUND_CARD: Final = 1    # (k,): chance: a round card
DRAW: Final = 2          # (k, seat, purpose, arg): chance: a market card (I22 reshuffle)
TURN: Final = 3          # (k,): decision: the active player's action
STONE: Final = 4         # (k, ship, slot): unload one stone to the ship's site
TAKE: Final = 5          # (k, seat, ship, slot): decision: a market card for that stone
KEEP: Final = 6          # (k, seat): decision: which card of the drawn pair to keep
PYR: Final = 7           # (k, seat, ship, slot): decision: a side-B pyramid (ship -1: quarry)
TEMPLE_PS: Final = 8     # (k, seat): decision: 1 point or 2 stones (side-B temple)
PLACE: Final = 9         # (k, seat, site): a red card's stone from the quarry (I17)
DISCARD: Final = 10      # (k, card): a card's effect is done: discard it (I33)
AFTER: Final = 11        # (k,): an action is done: end the round or the next turn
ROUND_END: Final = 12    # (k, deadlock): unsailed stones back, temple scoring (9.1)
ROUND_CLOSE: Final = 13  # (k, deadlock): discard the display, an untaken pair (9.2, I32)
ROUND_NEXT: Final = 14   # (k, deadlock): next start player (I24, I35), next round or the end

TASKS: Final = ("round-start", "round-card", "draw", "turn", "stone", "take", "keep", "pyr",
                "temple", "place", "discard", "after", "round-end", "round-close",
                "round-next")
"""The names of the task kinds, by number."""

DECISIONS: Final = frozenset((TURN, TAKE, KEEP, PYR, TEMPLE_PS))


def is_decision(kind: int) -> bool:
    """Whether tasks of ``kind`` wait for a seat's move (:data:`DECISIONS`, with no set
    lookup: the decisions other than TURN are numbered consecutively)."""
    return kind == TURN or TAKE <= kind <= TEMPLE_PS


FINAL_PARTS: Final = ("chamber", "obelisks", "decorations", "statues", "blue cards", "wrath")
"""The sources of the final scoring (:meth:`ImhotepState.final_parts`), in its order."""

# Draw purposes (the third element of a DRAW task).
TO_DISPLAY: Final = 0    # arg: display slot (I38)
TO_PAIR: Final = 1       # the side-B pair being taken (I32)
TO_SEAT: Final = 2       # a bonus card for the seat (pyramid B CARD, temple B CD)
TO_DISCARD: Final = 3    # an untaken pair at the round's end (I32)

Task = tuple[int, ...]

SITE_INDEX: Final = {code: i for i, code in enumerate(SITES)}
"""The index of each site code (``M`` 0 .. ``O`` 4)."""

FREE_SITES: Final = tuple(tuple(x for x in range(5) if not docked >> x & 1)
                          for docked in range(32))
"""The sites whose harbour is free, by the bit mask of the sites docked at (bit ``x``:
site ``x``)."""

# The actions of a turn (I3-I6, section 8), by the class of their move: one dict lookup
# where a chain of isinstance calls on msgspec classes costs a metaclass call per miss.
LOAD_ACTION: Final = 0
SAIL_ACTION: Final = 1
TAKE_ACTION: Final = 2
PASS_ACTION: Final = 3
LEVER_ACTION: Final = 4
HAMMER_ACTION: Final = 5
SAI_ACTION: Final = 6
CHISEL_ACTION: Final = 7
TURN_ACTIONS: Final[dict[type, int]] = {
    Load: LOAD_ACTION, Sail: SAIL_ACTION, TakeStones: TAKE_ACTION, Pass: PASS_ACTION,
    Lever: LEVER_ACTION, Hammer: HAMMER_ACTION, SailCard: SAI_ACTION, Chisel: CHISEL_ACTION,
}


class Tables:
    """Numbers of an edition in the shapes the rules use, shared by all its states."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        cards = edition.market.cards
        self.card_codes = tuple(c.code for c in cards)
        self.card_index = {c.code: i for i, c in enumerate(cards)}
        self.card_counts = tuple(c.count for c in cards)
        self.red_site = tuple(SITES.index(c.site) if c.colour == "red" else -1 for c in cards)
        self.green_site = tuple(SITES.index(c.site) if c.colour == "green" else -1
                                for c in cards)
        self.purple = tuple(c.colour == "purple" for c in cards)
        self.blue = tuple(c.colour == "blue" for c in cards)
        self.lev = self.card_index.get("LEV", -1)
        self.ham = self.card_index.get("HAM", -1)
        self.sai = self.card_index.get("SAI", -1)
        self.chi = self.card_index.get("CHI", -1)
        self.minimum = {t.capacity: t.minimum for t in edition.ships}
        self.pyramid_codes = tuple(p.code for p in edition.pyramids_b.pyramids)
        self.ship_moves = {name: ShipMoves(name, tile.capacity) for tile in edition.ships
                           for name in (f"{tile.capacity}{chr(65 + n)}"
                                        for n in range(tile.count))}
        """The load and sail moves of every ship name, made once."""
        self.listed: dict[str, Move] = {"Q": Q, "PASS": PASS}
        """The move of a text, made once: a turn's take, pass, loads and sails, and each
        move of a stone's owner listed so far (:meth:`move_of` reads the others)."""
        for m in self.ship_moves.values():
            self.listed.update(zip(m.load_texts, m.loads, strict=True))
            self.listed.update(zip(m.sail_texts, m.sails, strict=True))
        self.take_stones = edition.take_stones
        self.sled_capacity = edition.sled_capacity
        self.card_outcomes = tuple("~" + c for c in self.card_codes)
        """The chance outcome of drawing each card kind: ``~ENT``."""
        self.round_outcomes = {c.code: "~" + c.code for c in edition.round_cards}
        """The chance outcome of revealing each round card: ``~R2-3``."""
        self.outcomes = frozenset((*self.card_outcomes, *self.round_outcomes.values()))
        """Every chance outcome of the edition, as its text."""
        self.texts: dict[Move, str] = {}
        """The text of each move of a stone's owner listed so far (take, keep, pyr,
        temple: :meth:`ImhotepState.legal_move_texts`)."""
        self.round_ships = {c.code: tuple(ships_of(c.ships, edition, self))
                            for c in edition.round_cards}
        """The ships each round card shows, empty and unsailed (copied for a round)."""

    def move_of(self, text: str) -> Move:
        """The move of ``text``, a text :meth:`ImhotepState.legal_move_texts` writes."""
        move = self.listed.get(text)
        return move if move is not None else parse_move(text)


class ShipMoves:
    """The moves of a ship name and their texts, made once per edition: ``loads[slot -
    1]``, ``sails[site]``; the texts of the card moves on it: ``hammer_texts[slot - 1]``,
    ``sail_card_texts[slot - 1][site]``, ``lever_heads[site]`` (the lever's text up to
    its order), ``slot_names[slot - 1]`` (``3A.2``, as a chisel names it)."""

    def __init__(self, name: str, capacity: int) -> None:
        self.loads = tuple(Load(name, j + 1) for j in range(capacity))
        self.sails = tuple(Sail(name, x) for x in SITES)
        self.load_texts = tuple(str(m) for m in self.loads)
        self.sail_texts = tuple(str(m) for m in self.sails)
        self.hammer_texts = tuple(str(Hammer(name, j + 1)) for j in range(capacity))
        self.sail_card_texts = tuple(tuple(str(SailCard(name, j + 1, x)) for x in SITES)
                                     for j in range(capacity))
        self.lever_heads = tuple(str(Lever(name, x, ())) for x in SITES)
        self.slot_names = tuple(f"{name}.{j + 1}" for j in range(capacity))


@functools.cache
def tables_of(edition: Edition) -> Tables:
    """The shared :class:`Tables` of ``edition``."""
    return Tables(edition)


class Ship:
    """A ship of this round: name (``3A``), capacity, minimum load, the seat on each slot
    (-1: empty; slot 1 is the bow), and the site it sailed to (-1: not sailed)."""

    __slots__ = ("capacity", "minimum", "moves", "name", "site", "slots")

    def __init__(self, name: str, capacity: int, minimum: int,
                 slots: list[int] | None = None, site: int = -1,
                 moves: ShipMoves | None = None) -> None:
        self.name = name
        self.capacity = capacity
        self.minimum = minimum
        self.slots = slots if slots is not None else [-1] * capacity
        self.site = site
        self.moves = moves if moves is not None else ShipMoves(name, capacity)

    def copy(self) -> Ship:
        return Ship(self.name, self.capacity, self.minimum, list(self.slots), self.site,
                    self.moves)

    def load(self) -> int:
        """Stones on board, of every colour (I5)."""
        n = 0
        for seat in self.slots:  # a compiled loop: list.count would box -1 and call out
            if seat >= 0:
                n += 1
        return n

    def __repr__(self) -> str:
        return f"Ship({self.name!r}, slots={self.slots}, site={self.site})"


class Standing(NamedTuple):
    """A seat's result: 1-based ``rank`` by I27, ``points``, ``sled`` stones, retired."""

    seat: int
    rank: int
    points: int
    sled: int
    retired: bool


def ships_of(capacities: tuple[int, ...], edition: Edition,
             tables: Tables | None = None) -> list[Ship]:
    """The ships a round card shows, in round-card order: larger first, then A, B, C
    (``tables``: those of ``edition``, when the caller has them)."""
    moves = (tables or tables_of(edition)).ship_moves
    out: list[Ship] = []
    seen: dict[int, int] = {}
    for cap in sorted(capacities, reverse=True):
        n = seen.get(cap, 0)
        seen[cap] = n + 1
        name = f"{cap}{chr(65 + n)}"
        out.append(Ship(name, cap, edition.minimum_load(cap), moves=moves.get(name)))
    return out


def parse_variant(variant: str) -> tuple[str, bool]:
    """The site sides (``M P T C O``, each ``A`` or ``B``) and the Wrath flag of a variant
    string such as ``AAAAA``, ``BABAA`` or ``AAAAA+wrath``."""
    sides, plus, extra = variant.partition("+")
    if (len(sides) != 5 or any(c not in "AB" for c in sides)
            or (plus and extra != "wrath")):
        raise ValueError(f"unknown Imhotep variant {variant!r} (expected five letters A or "
                         "B for M P T C O, optionally followed by +wrath, e.g. ABAAB+wrath)")
    return sides, bool(plus)


class ImhotepState:
    """The complete state of a game of Imhotep (every field public and plain)."""

    def __init__(self, players: int, sides: str = "AAAAA", wrath: bool = False,
                 edition: Edition | None = None, *,
                 copy_of: ImhotepState | None = None) -> None:
        """The state after set-up (section 3), before the first round card (a chance node);
        with ``copy_of``, an independent copy of that state (:meth:`clone`)."""
        if copy_of is not None:
            self._copy(copy_of)
            return
        if not 2 <= players <= 4:
            raise ValueError(f"Imhotep is for 2 to 4 players, not {players}")
        ed = edition or standard_edition()
        self.tables = tables_of(ed)
        self.players = players
        self.sides = sides
        """Side of each site, ``M P T C O`` order: ``A`` or ``B`` (section 7)."""
        self.wrath = wrath
        """Whether the Wrath of the Pharaoh variant is on (section 12)."""
        self.round = 0
        """The round being played (1..6); 0 before the first round card."""
        self.round_card = ""
        """This round's card code, ``""`` between rounds."""
        self.round_cards_left = [c.code for c in ed.round_cards if c.players == players]
        """The round cards of this player count not yet revealed (I25), edition order."""
        self.ships: list[Ship] = []
        """This round's ships, in round-card order."""
        # -- sites
        self.display = [-1] * (ed.market.face_up_b if sides[0] == "B" else ed.market.face_up)
        """Market display ``M1``.. : a card kind or -1 (empty)."""
        self.mx = False
        """Side-B market: the face-down pair ``MX`` is still there, undrawn (I32)."""
        self.pyramid: list[int] = []
        """Side-A pyramid: the seat of each stone in fill order; beyond the last slot, the
        stones at the edge (I10)."""
        self.pyramids: list[list[int]] = [[] for _ in self.tables.pyramid_codes]
        """Side-B pyramids (edition order, ``PL PM PR``): seats in fill order."""
        self.pyramid_edge: list[int] = []
        """Side-B pyramids: stones put at the edge once all are full."""
        self.temple: list[int] = []
        """Temple: the seat of every stone in delivery order (I11)."""
        self.chamber: list[int] = []
        """Burial chamber: the seat of every stone in fill order (column by column)."""
        self.obelisks = [0] * players
        """Side-A obelisks: each seat's stack height."""
        self.waiting = [0] * players
        """Side-B obelisks: each seat's stones on waiting spaces."""
        self.towers: list[int] = []
        """Side-B obelisks: the seat of each tower built, tower space order (highest first)."""
        # -- players
        self.sleds = [ed.starting_sled[i] for i in range(players)]
        self.quarries = [ed.stones_per_colour - 1 - s for s in self.sleds]
        """Each seat's stones in the quarry (one more is the score marker, I2)."""
        self.scores = [0] * players
        kinds = len(self.tables.card_codes)
        self.deck = list(self.tables.card_counts)
        """Market deck: copies left of each card kind (its order is hidden, section 14)."""
        self.discard = [0] * kinds
        """Discard pile: copies of each card kind (public)."""
        self.hands = [[0] * kinds for _ in range(players)]
        """Cards kept by each seat (green, purple and unplayed blue), copies per kind."""
        self.resolving: list[int] = []
        """Cards whose effect is running: in no hand and no pile (I33)."""
        self.pair: list[int] = []
        """Side-B pair drawn after ``take MX``, waiting for ``keep`` (I32)."""
        self.start_player = 0
        """This round's start player (I1: seat 1 starts the game)."""
        self.active = 0
        """The seat whose turn it is."""
        self.passes = 0
        """Consecutive passes this round (I6, I36)."""
        self.sailer = -1
        """The seat that sailed the last ship this round (I24)."""
        self.retired = [False] * players
        self.finished = False
        """The game is over (after the final scoring, or every seat retired)."""
        self.todo: list[Task] = [(ROUND_START,)]
        """What is still to be done, the last task next (:data:`TASKS`)."""
        self._run()

    def _copy(self, other: ImhotepState) -> None:
        """Every field of ``other`` copied, nothing run (:meth:`clone`)."""
        self.tables = other.tables
        self.players = other.players
        self.sides = other.sides
        self.wrath = other.wrath
        self.round = other.round
        self.round_card = other.round_card
        self.mx = other.mx
        self.start_player = other.start_player
        self.active = other.active
        self.passes = other.passes
        self.sailer = other.sailer
        self.finished = other.finished
        self.round_cards_left = list(other.round_cards_left)
        self.ships = [s.copy() for s in other.ships]
        self.display = list(other.display)
        self.pyramid = list(other.pyramid)
        self.pyramids = [list(p) for p in other.pyramids]
        self.pyramid_edge = list(other.pyramid_edge)
        self.temple = list(other.temple)
        self.chamber = list(other.chamber)
        self.obelisks = list(other.obelisks)
        self.waiting = list(other.waiting)
        self.towers = list(other.towers)
        self.sleds = list(other.sleds)
        self.quarries = list(other.quarries)
        self.scores = list(other.scores)
        self.deck = list(other.deck)
        self.discard = list(other.discard)
        self.hands = [list(h) for h in other.hands]
        self.resolving = list(other.resolving)
        self.pair = list(other.pair)
        self.retired = list(other.retired)
        self.todo = list(other.todo)

    # ------------------------------------------------------------------ basics

    @property
    def edition(self) -> Edition:
        return self.tables.edition

    @property
    def variant(self) -> str:
        """The variant string: the sides, ``+wrath`` when Wrath is on."""
        return self.sides + ("+wrath" if self.wrath else "")

    def clone(self) -> ImhotepState:
        """An independent copy."""
        return ImhotepState(self.players, copy_of=self)

    def is_over(self) -> bool:
        return self.finished

    def is_chance_node(self) -> bool:
        return bool(self.todo) and self.todo[-1][0] in (ROUND_CARD, DRAW)

    def current_seat(self) -> int:
        """The seat deciding next (0-based): the active player, or a stone's owner (I9)."""
        task = self.todo[-1] if self.todo else (-1,)
        if task[0] == TURN:
            return self.active
        if is_decision(task[0]):
            return task[1]
        raise IllegalMove("no seat decides now (a chance node, or the game is over)")

    def side(self, site: int) -> str:
        """``A`` or ``B``: the side of ``site``."""
        return self.sides[site]

    def ship(self, name: str) -> int:
        """The index of this round's ship ``name``; IllegalMove when there is none."""
        for i, s in enumerate(self.ships):
            if s.name == name:
                return i
        raise IllegalMove(f"no ship {name} this round")

    def temple_width(self) -> int:
        return self.edition.temple.width[self.players - 2]

    def docked(self, site: int) -> bool:
        """Whether a ship has sailed to ``site`` this round."""
        return any(s.site == site for s in self.ships)

    # ------------------------------------------------------------------ chance

    def chance_weights(self) -> list[tuple[str, int]]:
        """The outcomes of this chance node as ``~CODE`` with integer weights."""
        task = self.todo[-1] if self.todo else (-1,)
        if task[0] == ROUND_CARD:
            rounds = self.tables.round_outcomes
            return [(rounds[c], 1) for c in self.round_cards_left]
        if task[0] == DRAW:
            cards = self.tables.card_outcomes
            return [(cards[k], n) for k, n in enumerate(self.deck) if n]
        raise IllegalMove("not a chance node")

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The outcomes of this chance node with their probabilities (I25, section 14)."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(o, w / total) for o, w in weights]

    def apply_outcome(self, outcome: str) -> None:
        """Apply a chance outcome ``~CODE``; IllegalMove when it cannot happen now."""
        if not self.is_chance_node():
            raise IllegalMove(f"chance outcome {outcome} but no chance event is due")
        code = outcome[1:] if outcome[:1] == "~" else outcome
        task = self.todo[-1]
        if task[0] == ROUND_CARD:
            if code not in self.round_cards_left:
                raise IllegalMove(f"round card {code} is not among the cards left "
                                  f"({' '.join(self.round_cards_left)})")
            self.todo.pop()
            self.round_cards_left.remove(code)
            self.round_card = code
            self.ships = [s.copy() for s in self.tables.round_ships[code]]
        else:
            k = self.tables.card_index.get(code, -1)
            if k < 0 or not self.deck[k]:
                raise IllegalMove(f"market card {code} is not in the deck")
            self.todo.pop()
            self.deck[k] -= 1
            _, seat, purpose, arg = task
            if purpose == TO_DISPLAY:
                self.display[arg] = k
            elif purpose == TO_PAIR:
                self.pair.append(k)
            elif purpose == TO_SEAT:
                self._gain(seat, k)
            else:
                self.discard[k] += 1
        self._run()

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """The deciding seat's legal moves, each distinct result once, in a fixed order;
        none once the game is over.

        A turn: ``Q``; ``L`` by ship (round-card order) and slot; ``S`` by ship and site
        (``M P T C O``); ``LEV`` by ship, site, then unloading orders in lexicographic
        order, keeping the first of each sequence of owners (orders with the same owners
        give the same result); ``HAM`` by slot, or ``HAM -``; ``SAI`` by ship, slot,
        site; ``CHI`` by pairs of slots in I37 order; ``PASS`` alone when nothing else
        is legal (I6). A market stone: ``take M1``.. by slot, then ``take MX``. A pair:
        ``keep`` by card kind (edition order). A side-B pyramid stone: by pyramid
        (edition order) the plain choice, then its bonus (``LOAD``: one per free slot,
        ship order). A temple-B ``PS`` column: ``temple pts``, ``temple stones``."""
        if not self.todo:
            return []
        task = self.todo[-1]
        kind = task[0]
        if kind == TURN:
            return [self.tables.move_of(text) for text in self._turn_texts(self.active)]
        if kind == TAKE:
            out: list[Move] = [TakeCard(f"M{i + 1}") for i, k in enumerate(self.display)
                               if k >= 0]
            if self._mx_open():
                out.append(TakeCard("MX"))
            return out
        if kind == KEEP:
            codes = self.tables.card_codes
            return [Keep(codes[k]) for k in sorted(set(self.pair))]
        if kind == PYR:
            return self._pyramid_moves(task[1], task[2])
        if kind == TEMPLE_PS:
            seat = task[1]
            out = [TempleChoice(False)]
            if self._take_count(seat, self.edition.temple.ps_stones):
                out.append(TempleChoice(True))
            return out
        raise IllegalMove("no seat decides now: a chance event is due")

    def legal_move_texts(self) -> list[str]:
        """:meth:`legal_moves` in move notation, same order (``str`` of each)."""
        if self.todo and self.todo[-1][0] == TURN:
            return self._turn_texts(self.active)
        texts = self.tables.texts
        out: list[str] = []
        for move in self.legal_moves():
            text = texts.get(move)
            if text is None:  # written once per edition (its moves are finitely many)
                text = texts[move] = str(move)
                self.tables.listed[text] = move
            out.append(text)
        return out

    def _mx_open(self) -> bool:
        """The side-B pair can be taken: still there, and a card to draw (I31, I32)."""
        return self.mx and (any(self.deck) or any(self.discard))

    def _take_count(self, seat: int, most: int) -> int:
        """Stones a take of up to ``most`` moves from quarry to sled (I3)."""
        n = self.tables.sled_capacity - self.sleds[seat]
        quarry = self.quarries[seat]
        return min(most if most < n else n, quarry)

    def _free_slots(self) -> list[tuple[int, int]]:
        """Empty slots of ships not yet sailed, as (ship, slot), round-card order."""
        return [(i, j) for i, s in enumerate(self.ships) if s.site < 0
                for j, x in enumerate(s.slots) if x < 0]

    def _free_sites(self) -> tuple[int, ...]:
        """Sites whose harbour is free this round (5.3)."""
        docked = 0
        for s in self.ships:
            if s.site >= 0:
                docked |= 1 << s.site
        return FREE_SITES[docked]

    def _turn_texts(self, seat: int) -> list[str]:
        """The moves of ``seat``'s turn in :meth:`legal_moves` order, as text: written from
        the texts made once per edition (:class:`ShipMoves`), no move made."""
        t = self.tables
        ships = self.ships
        out: list[str] = []
        sled = self.sleds[seat]
        take = self._take_count(seat, t.take_stones)
        if take:
            out.append("Q")
        if sled:
            for s in ships:
                if s.site < 0:
                    slots = s.slots
                    for j in range(len(slots)):
                        if slots[j] < 0:
                            out.append(s.moves.load_texts[j])
        sites = self._free_sites()
        if sites:
            for s in ships:
                if s.site < 0 and s.load() >= s.minimum:
                    for x in sites:
                        out.append(s.moves.sail_texts[x])
        hand = self.hands[seat]
        lev = t.lev >= 0 and hand[t.lev] > 0 and bool(sites)
        ham = t.ham >= 0 and hand[t.ham] > 0
        sai = t.sai >= 0 and hand[t.sai] > 0 and sled > 0 and bool(sites)
        chi = t.chi >= 0 and hand[t.chi] > 0 and sled >= 2
        if lev or ham or sai or chi:
            self._card_texts(seat, take, sites, lev, ham, sai, chi, out)
        if not out:
            out.append("PASS")
        return out

    def _card_texts(self, seat: int, take: int, sites: tuple[int, ...], lev: bool,
                    ham: bool, sai: bool, chi: bool, out: list[str]) -> None:
        """The turn's moves with the blue cards in ``seat``'s hand (those flagged), as
        text, appended to ``out``."""
        ships = self.ships
        sled = self.sleds[seat]
        free = self._free_slots()
        if lev:
            for s in ships:
                if s.site < 0 and s.load() >= s.minimum:
                    orders = [",".join(map(str, o)) for o in _lever_orders(s.slots)]
                    for x in sites:
                        head = s.moves.lever_heads[x]
                        for order in orders:
                            out.append(head + order)
        if ham and (take or (sled and free)):
            if sled + take and free:
                for i, j in free:
                    out.append(ships[i].moves.hammer_texts[j])
            else:
                out.append("HAM -")
        if sai:
            for i, j in free:
                s = ships[i]
                if s.load() + 1 >= s.minimum:
                    texts = s.moves.sail_card_texts[j]
                    for x in sites:
                        out.append(texts[x])
        if chi:
            for a in range(len(free)):
                first = "CHI " + ships[free[a][0]].moves.slot_names[free[a][1]] + " "
                for b in range(a + 1, len(free)):
                    out.append(first + ships[free[b][0]].moves.slot_names[free[b][1]])

    def _pyramid_moves(self, seat: int, ship: int) -> list[Move]:
        """A side-B pyramid stone's choices (I14, I29, I30); the stone has already left
        its source when the bonus is taken (a red card's stone: the quarry)."""
        ed = self.edition
        out: list[Move] = []
        quarry = self.quarries[seat] - (1 if ship < 0 else 0)
        for p, code in enumerate(self.tables.pyramid_codes):
            slots = ed.pyramids_b.pyramids[p].slots
            n = len(self.pyramids[p])
            if n >= len(slots):
                continue
            out.append(ChoosePyramid(code))
            bonus = slots[n].bonus
            if bonus == "CARD":
                if sum(self.deck) or sum(self.discard):
                    out.append(ChoosePyramid(code, True))
            elif bonus == "STONES":
                if min(ed.pyramids_b.stones_bonus, ed.sled_capacity - self.sleds[seat],
                       quarry) > 0:
                    out.append(ChoosePyramid(code, True))
            elif bonus == "LOAD" and self.sleds[seat]:
                out.extend(ChoosePyramid(code, True, self.ships[i].name, j + 1)
                           for i, j in self._free_slots())
        return out

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the deciding seat (a lever in any order, I20)."""
        if self.finished or not self.todo or not is_decision(self.todo[-1][0]):
            return False
        if isinstance(move, Lever):
            return self._lever_ok(move)
        return move in self.legal_moves()

    def _lever_ok(self, move: Lever) -> bool:
        t = self.tables
        if self.todo[-1][0] != TURN or t.lev < 0 or not self.hands[self.active][t.lev]:
            return False
        try:
            s = self.ships[self.ship(move.ship)]
        except IllegalMove:
            return False
        occupied = sorted(j + 1 for j, x in enumerate(s.slots) if x >= 0)
        return (s.site < 0 and s.load() >= s.minimum and sorted(move.order) == occupied
                and SITE_INDEX[move.site] in self._free_sites())

    # ------------------------------------------------------------------ applying moves

    def apply(self, move: Move) -> None:
        """Check and apply the deciding seat's move; IllegalMove leaves the state as it was."""
        if not self.is_legal(move):
            raise IllegalMove(f"illegal move {move}: {self.why_illegal(move)}")
        self.apply_unchecked(move)

    def apply_listed_text(self, text: str) -> None:
        """:meth:`apply_unchecked` of the move a text of :meth:`legal_move_texts` names
        (found among the texts written, else read)."""
        self.apply_unchecked(self.tables.move_of(text))

    def why_illegal(self, move: Move) -> str:
        """Why ``move`` is not legal for the deciding seat, in a few words (for a human
        seat and for error messages; the checks themselves are :meth:`is_legal`'s)."""
        if self.finished or not self.todo or not is_decision(self.todo[-1][0]):
            return "no seat decides now"
        kind = self.todo[-1][0]
        asked = {TURN: "an action of the turn", TAKE: "a market card (take)",
                 KEEP: "a card of the pair (keep)", PYR: "a pyramid (pyr)",
                 TEMPLE_PS: "the temple bonus (temple)"}
        wanted = {TURN: (TakeStones, Load, Sail, Lever, Hammer, SailCard, Chisel, Pass),
                  TAKE: (TakeCard,), KEEP: (Keep,), PYR: (ChoosePyramid,),
                  TEMPLE_PS: (TempleChoice,)}[kind]
        if not isinstance(move, wanted):
            return f"seat {self.current_seat() + 1} is to choose {asked[kind]} now"
        if kind != TURN:
            return "not one of the choices (type ? for them)"
        seat = self.active
        names = [s.name for s in self.ships]
        ship = getattr(move, "ship", "") or getattr(move, "ship1", "")
        if ship and ship not in names:
            return f"there is no ship {ship} this round (ships: {' '.join(names)})"
        card = {Lever: "LEV", Hammer: "HAM", SailCard: "SAI", Chisel: "CHI"}.get(type(move))
        if card is not None:
            k = self.tables.card_index.get(card, -1)
            if k < 0 or not self.hands[seat][k]:
                return f"you hold no {card} card"
        if isinstance(move, TakeStones) and not self._take_count(seat, 1):
            return ("your sled is full" if self.sleds[seat] >= self.edition.sled_capacity
                    else "you have no stones in the quarry")
        if isinstance(move, Pass):
            return "you may pass only when no other move is legal (I6)"
        if isinstance(move, (Load, SailCard, Chisel)) and not self.sleds[seat]:
            return "your sled is empty"
        for name, slot in ((ship, getattr(move, "slot", 0) or getattr(move, "slot1", 0)),
                           (getattr(move, "ship2", ""), getattr(move, "slot2", 0))):
            if not name or not slot or name not in names:
                continue
            s = self.ships[names.index(name)]
            if s.site >= 0:
                return f"ship {name} has sailed"
            if slot > s.capacity:
                return f"ship {name} has {s.capacity} slots"
            if s.slots[slot - 1] >= 0:
                return f"slot {name}.{slot} is taken"
        site = getattr(move, "site", "")
        if site and ship in names:
            s = self.ships[names.index(ship)]
            if s.site >= 0:
                return f"ship {ship} has sailed"
            if SITES.index(site) not in self._free_sites():
                return f"another ship is at site {site} already"
            load = s.load() + isinstance(move, SailCard)
            if load < s.minimum:
                return f"ship {ship} carries {load} stones, it needs {s.minimum} to sail"
        return "not a legal move here (type ? for the legal moves)"

    def apply_unchecked(self, move: Move) -> None:
        """Apply a move known to be legal (one of :meth:`legal_moves`)."""
        task = self.todo.pop()
        kind = task[0]
        if kind == TURN:
            self._action(self.active, move)
        elif kind == TAKE:
            assert isinstance(move, TakeCard)
            self._take_card(task[1], task[2], task[3], move)
        elif kind == KEEP:
            assert isinstance(move, Keep)
            k = self.tables.card_index[move.card]
            self.pair.remove(k)
            for other in self.pair:  # discarded face up before the kept card acts (I13)
                self.discard[other] += 1
            self.pair.clear()
            self._gain(task[1], k)
        elif kind == PYR:
            assert isinstance(move, ChoosePyramid)
            self._pyramid_b(task[1], task[2], task[3], move)
        else:
            assert isinstance(move, TempleChoice)
            seat = task[1]
            if move.stones:
                self._take(seat, self.edition.temple.ps_stones)
            else:
                self.scores[seat] += self.edition.temple.ps_points
        self._run()

    def _take(self, seat: int, most: int) -> None:
        n = self._take_count(seat, most)
        self.quarries[seat] -= n
        self.sleds[seat] += n

    def _load(self, seat: int, ship: str, slot: int) -> None:
        self.sleds[seat] -= 1
        self.ships[self.ship(ship)].slots[slot - 1] = seat

    def _sail(self, seat: int, ship: int, site: int, order: list[int]) -> None:
        """Sail ``ship`` to ``site``; its stones are unloaded in ``order`` (0-based slots)."""
        self.ships[ship].site = site
        self.sailer = seat
        for j in reversed(order):
            self.todo.append((STONE, ship, j))

    def _play(self, seat: int, card: int) -> None:
        """A blue card leaves the hand and is resolved (I33)."""
        self.hands[seat][card] -= 1
        self.resolving.append(card)

    def _action(self, seat: int, move: Move) -> None:
        action = TURN_ACTIONS[type(move)]
        if action == PASS_ACTION:
            self.passes += 1
            if self.passes >= self.retired.count(False):
                self.todo.append((ROUND_END, 1))  # deadlock (I6)
            else:
                self.todo.append((AFTER,))
            return
        self.passes = 0  # I36
        self.todo.append((AFTER,))
        t = self.tables
        if action == LOAD_ACTION:
            load = cast(Load, move)
            self._load(seat, load.ship, load.slot)
        elif action == SAIL_ACTION:
            sail = cast(Sail, move)
            i = self.ship(sail.ship)
            order = [j for j, x in enumerate(self.ships[i].slots) if x >= 0]
            self._sail(seat, i, SITE_INDEX[sail.site], order)
        elif action == TAKE_ACTION:
            self._take(seat, t.take_stones)
        elif action == LEVER_ACTION:
            lever = cast(Lever, move)
            self._play(seat, t.lev)
            self.todo.append((DISCARD, t.lev))
            self._sail(seat, self.ship(lever.ship), SITE_INDEX[lever.site],
                       [j - 1 for j in lever.order])
        elif action == HAMMER_ACTION:
            hammer = cast(Hammer, move)
            self._play(seat, t.ham)
            self._take(seat, t.take_stones)
            if hammer.ship:
                self._load(seat, hammer.ship, hammer.slot)
            self._discard_resolved(t.ham)
        elif action == SAI_ACTION:
            card = cast(SailCard, move)
            self._play(seat, t.sai)
            self.todo.append((DISCARD, t.sai))
            self._load(seat, card.ship, card.slot)
            i = self.ship(card.ship)
            order = [j for j, x in enumerate(self.ships[i].slots) if x >= 0]
            self._sail(seat, i, SITE_INDEX[card.site], order)
        else:
            chisel = cast(Chisel, move)
            self._play(seat, t.chi)
            self._load(seat, chisel.ship1, chisel.slot1)
            self._load(seat, chisel.ship2, chisel.slot2)
            self._discard_resolved(t.chi)

    def _discard_resolved(self, card: int) -> None:
        self.resolving.remove(card)
        self.discard[card] += 1

    def _gain(self, seat: int, card: int) -> None:
        """``seat`` receives ``card``: a red one acts at once (8.1), others are kept."""
        site = self.tables.red_site[card]
        if site < 0:
            self.hands[seat][card] += 1
            return
        self.resolving.append(card)
        self.todo.append((DISCARD, card))
        self.todo.append((PLACE, seat, site))

    def _take_card(self, seat: int, ship: int, slot: int, move: TakeCard) -> None:
        self.ships[ship].slots[slot] = -1
        self.quarries[seat] += 1  # the stone returns right after the take (I7)
        if move.slot == "MX":
            self.mx = False
            self.todo.append((KEEP, seat))
            for _ in range(self.edition.market.pair_b):
                self.todo.append((DRAW, seat, TO_PAIR, 0))
            return
        i = int(move.slot[1:]) - 1
        k = self.display[i]
        self.display[i] = -1
        self._gain(seat, k)

    def _pyramid_b(self, seat: int, ship: int, slot: int, move: ChoosePyramid) -> None:
        ed = self.edition
        if ship >= 0:
            self.ships[ship].slots[slot] = -1
        else:
            self.quarries[seat] -= 1
        p = self.tables.pyramid_codes.index(move.pyramid)
        spot = ed.pyramids_b.pyramids[p].slots[len(self.pyramids[p])]
        self.pyramids[p].append(seat)
        if not spot.bonus:
            self.scores[seat] += spot.points
            return
        self.scores[seat] += ed.pyramids_b.bonus_points
        if not move.bonus:
            return
        if spot.bonus == "STONES":
            self._take(seat, ed.pyramids_b.stones_bonus)
        elif spot.bonus == "LOAD":
            self._load(seat, move.ship, move.slot)
        else:
            self.todo.append((DRAW, seat, TO_SEAT, 0))

    # ------------------------------------------------------------------ delivering stones

    def _deliver(self, seat: int, site: int) -> None:
        """Put a stone of ``seat`` on ``site`` (not the market, not side-B pyramids) and
        score what scores at once (6.2, 7.5); the caller has taken it from its source."""
        ed = self.edition
        if site == PYRAMID:  # side A
            points = ed.pyramid.points
            n = len(self.pyramid)
            self.scores[seat] += points[n] if n < len(points) else ed.pyramid.overflow_points
            self.pyramid.append(seat)
        elif site == TEMPLE:
            self.temple.append(seat)
        elif site == CHAMBER:
            self.chamber.append(seat)
        elif self.sides[OBELISKS] == "A":
            self.obelisks[seat] += 1
        else:
            ob = ed.obelisks
            self.waiting[seat] += 1
            if self.waiting[seat] >= ob.tower_stones_b and len(self.towers) < len(ob.towers_b):
                self.waiting[seat] -= ob.tower_stones_b
                self.scores[seat] += ob.towers_b[len(self.towers)]
                self.towers.append(seat)  # I16: with no tower space left, stones wait

    def _pyramid_free(self) -> bool:
        slots = self.edition.pyramids_b.pyramids
        return any(len(p) < len(slots[i].slots) for i, p in enumerate(self.pyramids))

    def _stone(self, ship: int, slot: int) -> None:
        """Unload the stone on ``slot`` of ``ship`` at the ship's site (5.3, I8)."""
        s = self.ships[ship]
        seat = s.slots[slot]
        site = s.site
        if site == MARKET:
            if self._mx_open() or any(k >= 0 for k in self.display):
                self.todo.append((TAKE, seat, ship, slot))  # the stone waits (I34)
            else:
                s.slots[slot] = -1  # no card left: back to the quarry (I31)
                self.quarries[seat] += 1
            return
        if site == PYRAMID and self.sides[PYRAMID] == "B":
            if self._pyramid_free():
                self.todo.append((PYR, seat, ship, slot))
                return
            s.slots[slot] = -1
            self.pyramid_edge.append(seat)
            self.scores[seat] += self.edition.pyramids_b.overflow_points
            return
        s.slots[slot] = -1
        self._deliver(seat, site)

    def _place(self, seat: int, site: int) -> None:
        """A red card's stone from the quarry to ``site`` (8.1); none left: nothing (I17)."""
        if not self.quarries[seat]:
            return
        if site == PYRAMID and self.sides[PYRAMID] == "B":
            if self._pyramid_free():
                self.todo.append((PYR, seat, -1, -1))  # the stone stays in the quarry (I34)
                return
            self.quarries[seat] -= 1
            self.pyramid_edge.append(seat)
            self.scores[seat] += self.edition.pyramids_b.overflow_points
            return
        self.quarries[seat] -= 1
        self._deliver(seat, site)

    # ------------------------------------------------------------------ the task loop

    def _run(self) -> None:
        """Do the tasks that need nobody, up to the next decision or chance event."""
        todo = self.todo
        while todo:
            task = todo[-1]
            kind = task[0]
            if is_decision(kind):
                seat = self.active if kind == TURN else task[1]
                if not self.retired[seat]:
                    if kind == KEEP and not self.pair:
                        todo.pop()  # the deck ran out: no card to keep (I31, I32)
                        continue
                    return
                if kind == TURN:  # a retired seat's turn is skipped
                    todo.pop()
                    todo.append((AFTER,))
                else:  # a retired owner's decision: the first legal option
                    moves = self.legal_moves() if (kind != KEEP or self.pair) else []
                    if moves:
                        self.apply_unchecked(moves[0])
                        return
                    todo.pop()
                continue
            if kind == ROUND_CARD:
                return
            if kind == DRAW:
                if sum(self.deck):
                    return
                if any(self.discard):  # reshuffle (I22)
                    self.deck, self.discard = self.discard, [0] * len(self.deck)
                    return
                todo.pop()  # nothing to draw: the slot stays empty, a bonus is lost (I22)
                continue
            todo.pop()
            if kind == STONE:
                self._stone(task[1], task[2])
            elif kind == PLACE:
                self._place(task[1], task[2])
            elif kind == DISCARD:
                self._discard_resolved(task[1])
            elif kind == AFTER:
                self._after()
            elif kind == ROUND_START:
                self._round_start()
            elif kind == ROUND_END:
                self._round_end(task[1])
            elif kind == ROUND_CLOSE:
                self._round_close(task[1])
            else:
                self._round_next(task[1])

    def _next_seat(self, seat: int) -> int:
        """The first seat not retired from ``seat`` on, clockwise; -1 when all retired."""
        for i in range(self.players):
            s = (seat + i) % self.players
            if not self.retired[s]:
                return s
        return -1

    def _begin_turn(self, seat: int) -> None:
        s = self._next_seat(seat)
        if s < 0:
            self.finished = True
            self.todo.clear()
            return
        self.active = s
        self.todo.append((TURN,))

    def _after(self) -> None:
        if all(s.site >= 0 for s in self.ships):
            self.todo.append((ROUND_END, 0))  # the fourth ship is unloaded (4.4, I23)
        else:
            self._begin_turn((self.active + 1) % self.players)

    def _round_start(self) -> None:
        self.round += 1
        self.passes = 0
        self._begin_turn(self.start_player)
        if self.finished:
            return
        self.mx = self.sides[MARKET] == "B"
        for i in reversed(range(len(self.display))):
            self.todo.append((DRAW, -1, TO_DISPLAY, i))
        self.todo.append((ROUND_CARD,))

    def _round_end(self, deadlock: int) -> None:
        for s in self.ships:  # unsailed ships' stones go home first (I6, I35)
            for j, seat in enumerate(s.slots):
                if seat >= 0:
                    s.slots[j] = -1
                    self.quarries[seat] += 1
        self.ships = []  # returned: no LOAD after the round's end (I35)
        self.todo.append((ROUND_CLOSE, deadlock))
        w = self.temple_width()
        visible = temple_visible(len(self.temple), w)
        ed = self.edition
        if self.sides[TEMPLE] == "A":
            for k in visible:
                self.scores[self.temple[k]] += ed.temple.points_per_visible
            return
        tasks: list[Task] = []
        for k in sorted(visible, key=lambda k: k % w):  # left to right (I15)
            seat = self.temple[k]
            bonus = ed.temple.columns_b[k % w]
            if bonus == "P2":
                self.scores[seat] += ed.temple.p2_points
            elif bonus == "PS":
                tasks.append((TEMPLE_PS, seat))
            else:
                tasks.append((DRAW, seat, TO_SEAT, 0))
        self.todo.extend(reversed(tasks))

    def _round_close(self, deadlock: int) -> None:
        for i, k in enumerate(self.display):
            if k >= 0:
                self.discard[k] += 1
                self.display[i] = -1
        self.todo.append((ROUND_NEXT, deadlock))
        if self.mx:  # the untaken pair is drawn and discarded face up (I13, I32)
            self.mx = False
            for _ in range(self.edition.market.pair_b):
                self.todo.append((DRAW, -1, TO_DISCARD, 0))

    def _round_next(self, deadlock: int) -> None:
        if deadlock:
            self.start_player = (self.start_player + 1) % self.players  # I24, I35
        else:
            self.start_player = (self.sailer + 1) % self.players  # I24
        self.round_card = ""
        self.sailer = -1
        if self.round >= self.edition.rounds:
            self._final_scoring()
            self.finished = True
        else:
            self.todo.append((ROUND_START,))

    # ------------------------------------------------------------------ scoring

    def _final_scoring(self) -> None:
        """Section 11, in its order."""
        for seat, pts in enumerate(self.final_points()):
            self.scores[seat] += pts

    def final_points(self) -> list[int]:
        """What the final scoring (section 11) adds to each seat's score now."""
        return [sum(parts) for parts in self.final_parts()]

    def final_parts(self) -> list[list[int]]:
        """Each seat's final scoring (section 11) by source, in the order of
        :data:`FINAL_PARTS`: burial chamber, obelisks, green decoration cards, purple
        statues, unused blue cards, the Wrath of the Pharaoh (a penalty, negative)."""
        ed = self.edition
        n = self.players
        add = [[0] * len(FINAL_PARTS) for _ in range(n)]
        if self.sides[CHAMBER] == "A":
            for seat, size in chamber_groups(self.chamber, ed.chamber.rows):
                add[seat][0] += size_points(size, ed.chamber.group_points,
                                            ed.chamber.group_points_beyond)
        else:
            rows = ed.chamber.rows
            for r in range(rows):
                counts = [0] * n
                for k in range(r, len(self.chamber), rows):
                    counts[self.chamber[k]] += 1
                for seat, pts in enumerate(place_points(counts, ed.chamber.row_points_b)):
                    add[seat][0] += pts
        if self.sides[OBELISKS] == "A":
            for seat, pts in enumerate(place_points(self.obelisks, ed.obelisks.points[n - 2])):
                add[seat][1] += pts
        else:
            for seat in range(n):
                add[seat][1] += self.waiting[seat] * ed.obelisks.waiting_points_b
        t = self.tables
        on_site = [self.stones_on(site) for site in range(5)]
        for seat in range(n):
            hand = self.hands[seat]
            statues = 0
            for k, copies in enumerate(hand):
                if not copies:
                    continue
                if t.green_site[k] >= 0:
                    add[seat][2] += copies * (on_site[t.green_site[k]]
                                              // ed.market.decoration_divisor)
                elif t.purple[k]:
                    statues += copies
                elif t.blue[k]:
                    add[seat][4] += copies * ed.market.unused_blue_points
            if statues:
                add[seat][3] += size_points(statues, ed.market.statue_points,
                                            ed.market.statue_points_beyond)
        if self.wrath:
            for seat in range(n):
                if not all(self.delivered(seat, site) for site in range(1, 5)):
                    add[seat][5] -= ed.wrath.penalty
        return add

    def stones_on(self, site: int) -> int:
        """All stones on a site (I19): covered, edge and side-B stones included."""
        if site == PYRAMID:
            return len(self.pyramid) + sum(map(len, self.pyramids)) + len(self.pyramid_edge)
        if site == TEMPLE:
            return len(self.temple)
        if site == CHAMBER:
            return len(self.chamber)
        if site == OBELISKS:
            return (sum(self.obelisks) + sum(self.waiting)
                    + len(self.towers) * self.edition.obelisks.tower_stones_b)
        return 0

    def delivered(self, seat: int, site: int) -> bool:
        """Whether ``seat`` has a stone on monument ``site`` (12; I18: cards count)."""
        if site == PYRAMID:
            return (seat in self.pyramid or seat in self.pyramid_edge
                    or any(seat in p for p in self.pyramids))
        if site == TEMPLE:
            return seat in self.temple
        if site == CHAMBER:
            return seat in self.chamber
        if site == OBELISKS:
            return self.obelisks[seat] > 0 or self.waiting[seat] > 0 or seat in self.towers
        return False

    # ------------------------------------------------------------------ the end

    def retire(self, seat: int) -> None:
        """Seat ``seat`` takes no more decisions (its turns are skipped, its stones' choices
        take the first legal option) and ranks below every seat not retired."""
        self.retired[seat] = True
        if self.finished:
            return
        if all(self.retired):
            self.finished = True
            self.todo.clear()
            return
        self._run()

    def all_retired(self) -> bool:
        return all(self.retired)

    def ranking(self) -> list[Standing]:
        """Every seat's standing by I27 (retired seats below all others), seat order."""
        keys = [(not r, p, s) for r, p, s in zip(self.retired, self.scores, self.sleds,
                                                 strict=True)]
        return [Standing(i, 1 + sum(1 for k in keys if k > keys[i]), self.scores[i],
                         self.sleds[i], self.retired[i]) for i in range(self.players)]

    def stones_of(self, seat: int) -> int:
        """Every stone of ``seat``'s colour in play (30 with the marker, section 2)."""
        n = 1 + self.quarries[seat] + self.sleds[seat]
        n += sum(s.slots.count(seat) for s in self.ships)
        n += self.pyramid.count(seat) + sum(p.count(seat) for p in self.pyramids)
        n += self.pyramid_edge.count(seat) + self.temple.count(seat)
        n += self.chamber.count(seat) + self.obelisks[seat] + self.waiting[seat]
        n += self.towers.count(seat) * self.edition.obelisks.tower_stones_b
        return n

    def cards_in_play(self) -> int:
        """Every market card: deck, discard, display, hands, being resolved, the pair."""
        return (sum(self.deck) + sum(self.discard) + sum(1 for k in self.display if k >= 0)
                + sum(map(sum, self.hands)) + len(self.resolving) + len(self.pair))


def _lever_orders(slots: list[int]) -> list[tuple[int, ...]]:
    """Lever unloading orders of a ship, each distinct sequence of owners once: for each,
    the first order in lexicographic order of slot numbers (I20, I37)."""
    occupied = [j + 1 for j, x in enumerate(slots) if x >= 0]
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for order in itertools.permutations(occupied):
        owners = tuple(slots[j - 1] for j in order)
        if owners not in seen:
            seen.add(owners)
            out.append(order)
    return out


def temple_visible(n: int, w: int) -> range:
    """The temple stones seen from above (I11): of ``n`` stones in a temple ``w`` wide, the
    last min(n, w); stone ``k`` lies in column ``k % w + 1`` at height ``k // w + 1``."""
    return range(n - min(n, w), n)


def chamber_groups(chamber: list[int], rows: int) -> list[tuple[int, int]]:
    """The groups of orthogonally adjacent same-colour stones of a burial chamber filled
    column by column (6.4): (seat, size) each, in order of their first stone."""
    n = len(chamber)
    seen = [False] * n
    out: list[tuple[int, int]] = []
    for start in range(n):
        if seen[start]:
            continue
        seat = chamber[start]
        seen[start] = True
        stack = [start]
        size = 0
        while stack:
            k = stack.pop()
            size += 1
            col, row = divmod(k, rows)
            for c, r in ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)):
                if 0 <= r < rows and c >= 0:
                    m = c * rows + r
                    if m < n and not seen[m] and chamber[m] == seat:
                        seen[m] = True
                        stack.append(m)
        out.append((seat, size))
    return out


def size_points(size: int, table: tuple[int, ...], beyond: int) -> int:
    """Points for a group of ``size`` (or ``size`` statues): the table, then ``beyond``
    per further one."""
    if size <= len(table):
        return table[size - 1] if size > 0 else 0
    return table[-1] + beyond * (size - len(table))


def place_points(counts: list[int], places: tuple[int, ...]) -> list[int]:
    """Points by places (obelisks 6.5, burial chamber B 7.4) with the I12 ties: tied seats
    share the sum of the places they occupy, each the floor of the share; seats with 0
    take no part."""
    out = [0] * len(counts)
    ranked = sorted((c for c in set(counts) if c > 0), reverse=True)
    place = 0
    for c in ranked:
        tied = [s for s, x in enumerate(counts) if x == c]
        total = 0
        for i in range(place, min(place + len(tied), len(places))):
            total += places[i]
        for s in tied:
            out[s] = total // len(tied)
        place += len(tied)
    return out


def new_game(players: int, variant: str = "AAAAA", edition: Edition | None = None
             ) -> ImhotepState:
    """A new game after set-up (section 3), at its first chance event."""
    sides, wrath = parse_variant(variant)
    return ImhotepState(players, sides, wrath, edition)


def sample_outcome(state: ImhotepState, rng: random.Random) -> str:
    """Draw one outcome of the chance node, weighted by its counts (integer draws): the
    outcome of :meth:`~ImhotepState.chance_weights` that ``rng.randrange`` of their total
    falls on, found without building that list."""
    task = state.todo[-1] if state.todo else (-1,)
    if task[0] == ROUND_CARD:
        left = state.round_cards_left
        return state.tables.round_outcomes[left[rng.randrange(len(left))]]
    if task[0] != DRAW:
        raise IllegalMove("not a chance node")
    deck = state.deck
    pick = rng.randrange(sum(deck))
    for k, n in enumerate(deck):
        if pick < n:
            return state.tables.card_outcomes[k]
        pick -= n
    raise AssertionError("unreachable")  # pragma: no cover
