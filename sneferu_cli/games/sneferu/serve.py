"""What ``sneferu serve`` does for Sneferu alone (SPEC.md 10.10), reached through
``Game.turn_steps`` (:data:`STEPS`); serve itself speaks to every game through
:mod:`sneferu_cli.game`.

Sneferu's own are: its turns of several steps (the ``steps`` and ``step`` requests, and the
turn number that tells where a turn begins), the turn field of its position notation
(``turn``), its chance weights as the counts of the components drawn (``outcomes``), and
its state document (:class:`StateDoc`, SPEC 10.5) built from the state field by field.
Seats, offer columns, levels and slots are 1-based as in every notation; stones and
materials use their codes.

>>> import msgspec
>>> from sneferu_cli.games.sneferu.state import new_game
>>> doc = state_doc(new_game(players=2))
>>> doc.turn.phase, doc.turn.chance, doc.seats[1].boat, len(doc.quarries)
('setup', 'tile', Boat(space=0, order=None), 15)
>>> msgspec.json.encode(doc.bag)[:24]
b'{"BT":10,"BM":10,"BG":10'
>>> str(read_step("1.1")), turn_field(new_game(players=2))
('1.1', 'setup')
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...serve.state_json import LegalDoc, OutcomeOdds, weighted_odds
from .components import Material, Stone, Tile
from .move import legal_moves, parse_action
from .position import to_position
from .state import GameState, Phase
from .steps import Action, Outcome

__all__ = ["STEPS", "Boat", "QuarryDoc", "SeatDoc", "SneferuSteps", "StateDoc", "TurnDoc",
           "apply_step", "chance_weights", "legal_steps", "outcome_odds", "read_step", "state_doc",
           "turn_field", "turn_number"]


def read_step(text: str) -> Action:
    """The step a ``step`` request names (NotationError when it is not one; a chance
    outcome is a ValueError: those are applied with ``chance``)."""
    step = parse_action(text)
    if isinstance(step, Outcome):
        raise ValueError(f"{text}: a chance outcome (use chance)")
    return step


def apply_step(state: Any, step: object) -> None:
    """Apply one step of the seat to decide (``done`` included); the rules' ValueError
    leaves ``state`` unchanged."""
    state.apply(step)


def legal_steps(state: Any) -> list[str]:
    """The legal single steps, ``done`` included; none at a chance node or at the end."""
    return [str(s) for s in state.legal_steps()]


def turn_number(state: Any) -> int:
    """How many turns have begun: a new turn begins when this grows."""
    return int(state.turn)


def turn_field(state: Any) -> str:
    """The turn field of the position notation (SPEC 4): ``start:1:0``, ``draw:1`` ..."""
    return to_position(state).rsplit(" ", 1)[1]


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


_PHASES = {Phase.SETUP: "setup", Phase.START: "start", Phase.PLACE: "place",
           Phase.POST: "post", Phase.DRAW: "draw", Phase.OVER: "over"}


def outcome_odds(state: GameState) -> list[OutcomeOdds]:
    """The outcomes of the chance node with weights and probabilities (empty if none)."""
    return weighted_odds(chance_weights(state))


def chance_weights(state: GameState) -> list[tuple[str, int]]:
    """The outcomes of the chance node with the counts of the components drawn."""
    return [(str(o), w) for o, w in state.chance_weights()]


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


class SneferuSteps:
    """Sneferu's :class:`~sneferu_cli.game.TurnSteps`: this module's functions."""

    def read_step(self, text: str) -> Action:
        return read_step(text)

    def apply_step(self, state: Any, step: object) -> None:
        apply_step(state, step)

    def legal_steps(self, state: Any) -> list[str]:
        return legal_steps(state)

    def turn_number(self, state: Any) -> int:
        return turn_number(state)

    def turn_field(self, state: Any) -> str:
        return turn_field(state)

    def chance_weights(self, state: Any) -> list[tuple[str, int]]:
        return chance_weights(state)

    def state_doc(self, state: Any, legal: bool) -> StateDoc:
        return state_doc(state, legal)


STEPS = SneferuSteps()
"""What ``Game.turn_steps`` gives for Sneferu."""
