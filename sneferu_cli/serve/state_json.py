"""The state of a game as JSON (SPEC.md, sections 10.5 and 10.10): for clients that would
rather not read the position notation.

A game's state is a :class:`GameDoc`: its position, whose decision or which chance event,
and the game's ``page_data`` (what the web viewer draws, SPEC 13.5 for Imhotep), built
through the game interface only. Sneferu's own document, spelled out field by field, is
``Game.turn_steps().state_doc`` (SPEC 10.10). Both hold the position notation, which is what to
store: the JSON is not read back.

>>> from sneferu_cli.game import get_game
>>> game = get_game("imhotep")
>>> doc = game_doc(game, game.new_game(2), legal=True)
>>> doc.turn, doc.legal.moves, doc.legal.outcomes[0].weight
(DecisionDoc(over=False, chance=True, seat=None, seats=None), [], 1)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import msgspec

from ..game import Game, get_game, seat_view


class OutcomeOdds(msgspec.Struct, frozen=True, omit_defaults=True):
    """A chance outcome with its weight (a count) and probability (weight / total); or,
    ``part`` true, the next part of the outcomes of a node the game gives in parts
    (``Learning.outcome_parts``), its probability given the parts before it."""

    outcome: str
    weight: int
    probability: float
    part: bool = False


class LegalDoc(msgspec.Struct, frozen=True):
    """What may happen next: whole moves and single steps of the seat to decide, or the
    outcomes of the chance node (the other lists empty)."""

    moves: list[str]
    steps: list[str]
    outcomes: list[OutcomeOdds]


class DecisionDoc(msgspec.Struct, frozen=True, omit_defaults=True):
    """Where another game stands: over, a chance node, or the seat to decide (1-based);
    at a simultaneous node also ``seats``, every seat whose sealed move is still to come
    (``seat`` is then the lowest)."""

    over: bool
    chance: bool
    seat: int | None
    seats: list[int] | None = None


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


def game_doc(game: Game, state: Any, legal: bool = False, seat: int | None = None
             ) -> GameDoc:
    """The JSON document of ``state`` of ``game``; ``legal`` adds its legal moves (of
    ``seat``, 0-based, when given: the document of a seat's view) or the chance node's
    outcomes."""
    over, chance = state.is_over(), state.is_chance_node()
    sealed = game.is_simultaneous(state)
    doc = GameDoc(
        game=game.name, edition=game.edition_of(state).name, variant=game.variant_of(state),
        players=game.players_of(state),
        position=game.to_position(state) if seat is None else seat_view(game, state, seat),
        turn=DecisionDoc(over, chance, None if over or chance else state.current_seat() + 1,
                         [s + 1 for s in game.deciding_seats(state)] if sealed else None),
        data=game.page_data(state))
    if legal:
        moves = ([] if over or chance else game.legal_moves(state) if seat is None
                 else game.legal_moves(state, seat))
        doc = msgspec.structs.replace(doc, legal=LegalDoc(
            moves=moves, steps=[], outcomes=game_odds(game, state)))
    return doc


def game_odds(game: Game, state: Any, after: tuple[str, ...] = ()) -> list[OutcomeOdds]:
    """The outcomes of a chance node of ``game`` with their probabilities, and weights:
    the smallest whole numbers in those proportions (empty if not a chance node). Where
    the game gives the node's outcomes in parts (``Learning.outcome_parts``, as a deal
    of several cards), the parts that may follow the parts ``after`` instead, with their
    probabilities given those: a part that completes an outcome as that whole outcome, any
    other ``part`` true. So a node of very many outcomes answers in a few lines. A part
    given that no outcome of the node begins with is a ValueError."""
    if not state.is_chance_node():
        if after:
            raise ValueError(f"outcomes: {' '.join(after)}: no chance event is due")
        return []
    learning = game.learning()
    if learning is None or learning.max_outcome_parts(game.players_of(state),
                                                      game.variant_of(state)) == 1:
        if after:
            raise ValueError(f"outcomes: {game.title} gives its chance outcomes whole, "
                             "not in parts")
        return _weighed([(o, p, False) for o, p in game.chance_outcomes(state)])
    for i, part in enumerate(after):
        begun = after[:i + 1]
        if (part not in dict(learning.chance_part_outcomes(state, after[:i]))
                or learning.outcome_of_parts(state, begun) is not None):
            raise ValueError(f"outcomes: {' '.join(begun)}: not the first parts of an "
                             "outcome of this chance node")
    odds: list[tuple[str, float, bool]] = []
    for part, p in learning.chance_part_outcomes(state, after):
        whole = learning.outcome_of_parts(state, (*after, part))
        odds.append((part, p, True) if whole is None else (whole, p, False))
    return _weighed(odds)


def _weighed(odds: list[tuple[str, float, bool]]) -> list[OutcomeOdds]:
    """Outcomes (or parts) and their probabilities, given the smallest whole weights in
    those proportions."""
    if not odds:
        return []
    shares = [Fraction(p).limit_denominator(1 << 20) for _, p, _ in odds]
    scale = math.lcm(*(f.denominator for f in shares))
    weights = [int(f * scale) for f in shares]
    unit = math.gcd(*weights)
    return [OutcomeOdds(o, w // unit, p, part)
            for (o, p, part), w in zip(odds, weights, strict=True)]


def outcome_odds(game: Game, state: Any, after: tuple[str, ...] = ()) -> list[OutcomeOdds]:
    """What the ``outcomes`` request answers (SPEC 10.4): the weights of a game whose
    turns are several steps (``TurnSteps.chance_weights``, Sneferu's), else
    :func:`game_odds`."""
    steps = game.turn_steps()
    if steps is None or after:
        return game_odds(game, state, after)
    return weighted_odds(steps.chance_weights(state))


def weighted_odds(weighted: list[tuple[str, int]]) -> list[OutcomeOdds]:
    """Outcomes with whole-number weights (a game's own, ``TurnSteps.chance_weights``)
    and the probabilities they give."""
    total = sum(w for _, w in weighted)
    return [OutcomeOdds(o, w, w / total) for o, w in weighted]


def state_doc(state: Any, legal: bool = False, game: Game | None = None,
              seat: int | None = None) -> Any:
    """The JSON document of ``state`` of ``game`` (Sneferu when not given): the game's own
    when its turns are several steps (``Game.turn_steps``: Sneferu's, SPEC 10.10), else a
    :class:`GameDoc` (``seat`` as :func:`game_doc`). ``legal`` adds the legal moves (and
    steps) and the outcomes."""
    game = game or get_game()
    steps = game.turn_steps()
    if steps is not None:
        return steps.state_doc(state, legal)
    return game_doc(game, state, legal, seat)
