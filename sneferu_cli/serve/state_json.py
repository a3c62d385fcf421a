"""The state of a game as JSON (SPEC.md, section 10.5): for clients that would rather not
read the position notation.

Sneferu's state is spelled out field by field (:class:`StateDoc`); another game's is a
:class:`GameDoc`: its position, whose decision or which chance event, and the game's
``page_data`` (what the web viewer draws, SPEC 13.5 for Imhotep).

:func:`state_doc` builds a :class:`StateDoc` (msgspec structs); ``msgspec.json.encode``
writes it. Seats, offer columns, levels and slots are 1-based as in every notation;
stones and materials use their codes. The document is derived from the state and holds
its position notation too, which is what to store: the JSON is not read back.

>>> import msgspec
>>> from sneferu_cli.games.sneferu.rules import new_game
>>> doc = state_doc(new_game(players=2))
>>> doc.turn.phase, doc.turn.chance, doc.seats[1].boat, len(doc.quarries)
('setup', 'tile', Boat(space=0, order=None), 15)
>>> msgspec.json.encode(doc.bag)[:24]
b'{"BT":10,"BM":10,"BG":10'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import msgspec

from ..game import Game
from ..games.sneferu.notation.move import legal_moves
from ..games.sneferu.notation.position import to_position
from ..games.sneferu.rules.components import Material, Stone, Tile
from ..games.sneferu.rules.state import GameState, Phase


class Boat(msgspec.Struct, frozen=True):
    """A boat on the river: its space and its order of arrival there (1 = arrived first,
    so it moves first); ``order`` is null during set-up until the boat has arrived."""

    space: int
    order: int | None


class SeatDoc(msgspec.Struct, frozen=True):
    """One seat: builder, food, boat, pyramid (levels bottom-up, slots left to right, each
    a stone written left half then right half, or null), storehouse and powers used."""

    seat: int
    builder: str | None
    food: int
    boat: Boat
    pyramid: list[list[str | None]]
    stones: int
    areas: list[int]
    store: list[str]
    feasted: bool
    sailed: bool
    retired: bool


class QuarryDoc(msgspec.Struct, frozen=True):
    """A quarry on the river: space, colour, eye of Horus, bonus tile (null until laid)."""

    space: int
    material: str
    eye: bool
    tile: str | None


class TurnDoc(msgspec.Struct, frozen=True):
    """Where the game stands (the turn field of the position notation, spelled out)."""

    phase: str
    seat: int | None
    start_space: int | None
    hand: str | None
    can_store: bool
    refills: list[int]
    chance: str | None
    number: int


class OutcomeOdds(msgspec.Struct, frozen=True):
    """A chance outcome with its weight (a count) and probability (weight / total)."""

    outcome: str
    weight: int
    probability: float


class LegalDoc(msgspec.Struct, frozen=True):
    """What may happen next: whole moves and single steps of the seat to decide, or the
    outcomes of the chance node (the other lists empty)."""

    moves: list[str]
    steps: list[str]
    outcomes: list[OutcomeOdds]


class StateDoc(msgspec.Struct, frozen=True, omit_defaults=True):
    """A whole game state; ``legal`` only when asked for."""

    edition: str
    variant: str
    players: int
    solo: bool
    position: str
    turn: TurnDoc
    seats: list[SeatDoc]
    offer: list[list[str]]
    bag: dict[str, int]
    quarries: list[QuarryDoc]
    ptah: dict[str, int] | None
    legal: LegalDoc | None = None


class DecisionDoc(msgspec.Struct, frozen=True):
    """Where another game stands: over, a chance node, or the seat to decide (1-based)."""

    over: bool
    chance: bool
    seat: int | None


class GameDoc(msgspec.Struct, frozen=True, omit_defaults=True):
    """A state of a game other than Sneferu; ``legal`` only when asked for."""

    game: str
    edition: str
    variant: str
    players: int
    position: str
    turn: DecisionDoc
    data: dict[str, Any]
    legal: LegalDoc | None = None


def game_doc(game: Game, state: Any, legal: bool = False) -> GameDoc:
    """The JSON document of ``state`` of ``game``; ``legal`` adds its legal moves or the
    chance node's outcomes."""
    over, chance = state.is_over(), state.is_chance_node()
    doc = GameDoc(
        game=game.name, edition=game.edition_of(state).name, variant=game.variant_of(state),
        players=game.players_of(state), position=game.to_position(state),
        turn=DecisionDoc(over, chance, None if over or chance else state.current_seat() + 1),
        data=game.page_data(state))
    if legal:
        moves = [] if over or chance else game.legal_moves(state)
        doc = msgspec.structs.replace(doc, legal=LegalDoc(
            moves=moves, steps=[], outcomes=game_odds(game, state)))
    return doc


def game_odds(game: Game, state: Any) -> list[OutcomeOdds]:
    """The outcomes of another game's chance node with their probabilities, and weights:
    the smallest whole numbers in those proportions (empty if not a chance node)."""
    if not state.is_chance_node():
        return []
    odds = game.chance_outcomes(state)
    shares = [Fraction(p).limit_denominator(1 << 20) for _, p in odds]
    scale = math.lcm(*(f.denominator for f in shares))
    weights = [int(f * scale) for f in shares]
    unit = math.gcd(*weights)
    return [OutcomeOdds(o, w // unit, p) for (o, p), w in zip(odds, weights, strict=True)]


_PHASES = {Phase.SETUP: "setup", Phase.START: "start", Phase.PLACE: "place",
           Phase.POST: "post", Phase.DRAW: "draw", Phase.OVER: "over"}


def outcome_odds(state: GameState) -> list[OutcomeOdds]:
    """The outcomes of the chance node with weights and probabilities (empty if none)."""
    weighted = state.chance_weights()
    total = sum(w for _, w in weighted)
    return [OutcomeOdds(str(o), w, w / total) for o, w in weighted]


def state_doc(state: GameState, legal: bool = False) -> StateDoc:
    """The JSON document of ``state``; ``legal`` adds the legal moves, steps and outcomes."""
    t = state.tables
    ph = state.phase
    deciding = Phase.START <= ph <= Phase.POST
    chance = None
    if ph == Phase.SETUP:
        chance = state.setup_next[0]
    elif ph == Phase.DRAW:
        chance = "refill"
    turn = TurnDoc(
        phase=_PHASES[ph],
        seat=state.seat + 1 if deciding else None,
        start_space=state.start_space if ph == Phase.START else None,
        hand=Stone(state.hand).name if state.hand >= 0 else None,
        can_store=state.can_store,
        refills=[c + 1 for c in state.pending] if ph == Phase.DRAW else [],
        chance=chance,
        number=state.turn,
    )
    quarries = [QuarryDoc(space, Material(t.quarry_material[q]).name, t.quarry_eye[q],
                          Tile(state.tiles[q]).name if state.tiles[q] >= 0 else None)
                for q, space in enumerate(t.quarry_spaces)]
    doc = StateDoc(
        edition=t.edition.name,
        variant=state.variant.value,
        players=len(state.players),
        solo=state.solo,
        position=to_position(state),
        turn=turn,
        seats=[_seat(state, i) for i in range(len(state.players))],
        offer=[[Stone(s).name for s in col] for col in state.offer],
        bag={Stone(s).name: n for s, n in enumerate(state.bag)},
        quarries=quarries,
        ptah=({Stone(s).name: n for s, n in enumerate(state.ptah)}
              if state.ptah is not None else None),
    )
    if legal:
        doc = msgspec.structs.replace(doc, legal=LegalDoc(
            moves=[str(m) for m in legal_moves(state)],
            steps=[str(s) for s in state.legal_steps()],
            outcomes=outcome_odds(state)))
    return doc


def _seat(state: GameState, i: int) -> SeatDoc:
    p = state.players[i]
    g = p.pyramid.geometry
    levels: list[list[str | None]] = [[] for _ in range(g.levels)]
    for s, n in enumerate(g.level_of):  # slot indices run bottom-up, left to right
        halves = p.pyramid.material_at(s)
        levels[n - 1].append(None if halves is None else halves[0].name + halves[1].name)
    order = None
    if p.arrival >= 0:  # the position notation's order: 1 + earlier arrivals on the space
        order = 1 + sum(1 for q in state.players
                        if q.space == p.space and 0 <= q.arrival < p.arrival)
    return SeatDoc(
        seat=i + 1,
        builder=p.builder.name if p.builder else None,
        food=p.food,
        boat=Boat(p.space, order),
        pyramid=levels,
        stones=p.pyramid.count,
        areas=sorted(p.pyramid.areas, reverse=True),
        store=[Stone(s).name for s in p.store],
        feasted=p.feasted,
        sailed=p.sailed,
        retired=p.retired,
    )
