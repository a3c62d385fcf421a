"""An estimate of what each seat's Silver & Gold position is worth, in points (no I/O).

``values(state)`` is every seat's score if the game ended now (section 9: completed cards,
torches, boxes, gems, the skull penalty) plus what its cards in play promise, a sum of
:data:`FEATURES` weighted by :data:`WEIGHTS` (fitted by least squares on the final scores
of played games, ``scripts/fit_silver_gold.py``), with one set of weights per stage of the
game (:func:`stage`). The features of a seat (:func:`features`) look along the shortest
routes to the tomb of each of its cards in play (:func:`route`):

- ``share``: per card, a share of its 10 points, the share of its shortest route already
  marked, when the turns left suffice to mark the rest (about :data:`CELLS_PER_TURN` cells
  a turn);
- ``gems``: the gem points (pairs of 5, single gems 1, G9's cap of 10) that the red and
  green gems on those routes would add;
- ``skulls``: the skull penalty their skulls and potions would add (G7; negative or 0);
- ``torch``: its 5 points when the torch box of the round is empty, a torch lies on such a route and
  the round has markings left (G8);
- ``claims``: per card whose completion would reach 2, 4 or 6 of its colour while a box of
  the colour is free, the points of that box times the card's marked share; and the
  points of the box a card completed this turn claims in step 4, still to come (7);
- ``crosses``: the red crosses on those routes (each a free cell, 5.5);
- ``bias``: 1 (the points still to come to every seat alike).

The greedy engine plays the move whose result it values best; a search may cut its
playouts short with it (``GAME.evaluate``). At a sealed node the moves already submitted
count as made (:meth:`~.state.SilverGoldState.sealed_applied`), so that a seat's move
changes its value before the others have answered. :func:`route_values` is the simpler
estimate of points now and ``share`` alone.

>>> from sneferu_cli.games.silver_gold.state import new_game
>>> values(new_game(2)) == [WEIGHTS[0][-1]] * 2
True
"""

from __future__ import annotations

from typing import Final

from .edition import COLOURS
from .move import Mark
from .state import (
    BOXES,
    CARD_POINTS,
    GEMS,
    MARKING,
    PAIR_POINTS,
    ROUNDS,
    THRESHOLDS,
    TURNS,
    SilverGoldState,
    Tables,
    spread,
)

__all__ = ["CELLS_PER_TURN", "FEATURES", "WEIGHTS", "features", "mark_gains", "route",
           "route_values", "stage", "to_tomb", "turns_left", "values"]

CELLS_PER_TURN: Final = 2.5
"""Cells a seat marks on one card in a turn, about (patterns of 2-4 or a single cell)."""

FEATURES: Final = ("share", "gems", "skulls", "torch", "claims", "crosses", "bias")
"""The names of the features of :func:`features`, in order."""

WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (
    (1.0, 0.5, 1.0, 0.5, 1.0, 0.0, 86.284),
    (1.0, 0.5, 1.0, 0.5, 1.0, 0.0, 58.368),
    (1.0, 0.5, 1.0, 0.5, 1.0, 0.0, 27.738),
    (1.0, 0.5, 1.0, 0.5, 1.0, 0.0, -0.157),
)
"""Per stage of the game (:func:`stage`), the weight of each of :data:`FEATURES`."""


def to_tomb(state: SilverGoldState, card: int) -> int:
    """How many more cells ``card`` needs marked, at least, before its tomb is (G4)."""
    return route(state, card)[0]


def route(state: SilverGoldState, card: int) -> tuple[int, int]:
    """How many more cells ``card`` needs marked, at least, before its tomb is (G4), and
    the mask of the unmarked cells that lie on some route of that length (the tomb
    included); (25, 0) when the tomb cannot be reached (only in a broken edition, G2)."""
    t = state.tables
    m = state.marks[card]
    known = _ROUTES.get(t)
    if known is None or len(known) > _ROUTES_KEPT:
        known = _ROUTES[t] = {}
    key = card << 25 | m
    found = known.get(key)
    if found is None:
        found = known[key] = _route(t, card, m)
    return found


_ROUTES: dict[Tables, dict[int, tuple[int, int]]] = {}
"""Per edition's tables, the routes already found, by card and marks (``card << 25 |
marks``): a search values the same cards many times."""
_ROUTES_KEPT: Final = 100_000


def _route(t: Tables, card: int, m: int) -> tuple[int, int]:
    free = ~(t.walls[card] | m)
    tomb = 1 << t.tomb[card]
    if m:
        layers = [m]
        reached = m
    else:
        reached = 1 << t.entrance[card]
        layers = [0, reached]
    while not reached & tomb:
        more = reached | (spread(reached) & free)
        if more == reached:
            return 25, 0
        layers.append(more & ~reached)
        reached = more
    need = len(layers) - 1
    on = tomb
    back = tomb
    for i in range(need - 1, 0, -1):
        back = spread(back) & layers[i]
        on |= back
    return need, on


def turns_left(state: SilverGoldState) -> int:
    """Markings still to come: the turns not yet revealed, and this one's if it is open."""
    return ((ROUNDS - state.round) * TURNS + TURNS - state.turn
            + (state.phase == MARKING))


def stage(state: SilverGoldState) -> int:
    """Which of :data:`WEIGHTS` values ``state``: 0 to 3 as the game's 28 turns go by."""
    return min(len(WEIGHTS) - 1, (ROUNDS * TURNS - turns_left(state)) // TURNS)


def _gem_points(red: int, green: int) -> int:
    return PAIR_POINTS * min(red, green) + abs(red - green)


def features(state: SilverGoldState, seat: int) -> list[float]:
    """The features of ``seat`` in ``state`` (:data:`FEATURES`, module docstring)."""
    t = state.tables
    left = turns_left(state)
    in_round = TURNS - state.turn + (state.phase == MARKING)
    share = claims = 0.0
    red = green = skulls = potions = crosses = 0
    torch = False
    colours = [0] * len(COLOURS)
    for k in state.done[seat]:
        colours[t.colour[k]] += 1
    for colour in range(len(COLOURS)):  # a claim of this turn's step 4, still to come
        new = sum(1 for k in state.now[seat] if t.colour[k] == colour)
        if (new and state.taken[colour] < len(BOXES)
                and any(colours[colour] - new < x <= colours[colour] for x in THRESHOLDS)):
            claims += BOXES[state.taken[colour]]
    for card in state.play[seat]:
        need, on = route(state, card)
        done = state.marks[card].bit_count()
        red += (on & t.red[card]).bit_count()
        green += (on & t.green[card]).bit_count()
        skulls += (on & t.skull[card]).bit_count()
        potions += (on & t.potion[card]).bit_count()
        crosses += (on & t.cross[card]).bit_count()
        torch = torch or bool(on & t.torch[card])
        if need <= CELLS_PER_TURN * left:
            part = done / (done + need)
            share += CARD_POINTS * part
            colour = t.colour[card]
            if colours[colour] + 1 in THRESHOLDS and state.taken[colour] < len(BOXES):
                claims += BOXES[state.taken[colour]] * part
    r, g, s = state.red[seat], state.green[seat], state.skulls[seat]
    gems = (_gem_points(min(GEMS, r + red), min(GEMS, g + green)) - _gem_points(r, g))
    after = max(0, min(t.skull_cap, s + skulls) - 2 * potions)
    lit = (torch and in_round > 0 and not state.torches[seat] >> (state.round - 1) & 1)
    return [share, float(gems), float(t.penalty(s) - t.penalty(after)), 5.0 * lit, claims,
            float(crosses), 1.0]


def _points_now(state: SilverGoldState) -> tuple[SilverGoldState, list[float]]:
    """``state`` with its sealed moves made, and every seat's points in it."""
    if any(move is not None for move in state.sealed):
        state = state.sealed_applied()
    return state, [float(state.points(s)) for s in range(state.players)]


def values(state: SilverGoldState) -> list[float]:
    """Every seat's estimated worth of ``state``, in points (higher is better)."""
    state, out = _points_now(state)
    if state.is_over():
        return out
    weights = WEIGHTS[stage(state)]
    for seat in range(state.players):
        out[seat] = _value(state, seat, weights, out[seat])
    return out


def _value(state: SilverGoldState, seat: int, weights: tuple[float, ...],
           points: float) -> float:
    """``seat``'s estimate in ``state`` (no sealed move pending), ``points`` its points."""
    f = features(state, seat)
    return points + sum(w * x for w, x in zip(weights, f, strict=True))


def mark_gains(state: SilverGoldState, seat: int, marks: list[Mark]) -> list[float] | None:
    """What each of ``marks``, markings of ``seat`` at a sealed step 2, is worth as the
    search's ``gain`` values it (``seat``'s :func:`values` after the marking submitted,
    less the mean of the others'), without a copy of the state per marking; None where
    that shortcut does not hold: outside step 2, or when ``seat``'s marking would close
    the node (the last seat to decide), when the plain way must be taken."""
    deciding = state.deciding_seats()
    if state.phase != MARKING or seat not in deciding or len(deciding) < 2:
        return None
    base = state.sealed_applied()
    weights = WEIGHTS[stage(base)]
    n = base.players
    out = [float(base.points(s)) for s in range(n)]
    for s in range(n):
        if s != seat:
            out[s] = _value(base, s, weights, out[s])
    gains = []
    for move in marks:
        saved = base.mark_alone(seat, move)
        out[seat] = _value(base, seat, weights, float(base.points(seat)))
        base.undo_mark(seat, saved)
        gains.append(out[seat] - (sum(out) - out[seat]) / (n - 1))
    return gains


def route_values(state: SilverGoldState) -> list[float]:
    """Every seat's points now plus its ``share`` alone: the simpler estimate."""
    state, out = _points_now(state)
    if state.is_over():
        return out
    left = turns_left(state)
    for seat in range(state.players):
        for card in state.play[seat]:
            need = to_tomb(state, card)
            done = state.marks[card].bit_count()
            if need <= CELLS_PER_TURN * left:
                out[seat] += CARD_POINTS * done / (done + need)
    return out
