"""A cheap estimate of what each seat's Akropolis city is worth, in points (no I/O).

``values(state)`` is every seat's final score if the game ended now (section 8: the five
district types with their plazas, and the stones), plus the points its city is expected to
gain in the rest of the game: a weighted sum of its :func:`features` (``WEIGHTS``, fitted
by least squares on the final scores of played games, ``scripts/fit_akropolis_value.py``).
The features read what the scoring does not count yet: each type's district value times
the share of the game left, its stars times that share (plazas to be fed), a type's value
without a plaza (one may still come), temples with five of six neighbours, houses outside
the largest group, quarries still to cover, the stones. When the game is over the
estimate is the final score. The greedy engine plays the move whose result it values best;
a search may cut its playouts short with it (``GAME.evaluate``). ``plain_values`` is the
simpler estimate of the score now plus ``PROMISE`` of the value of types with no plaza.

>>> from sneferu_cli.game import get_game
>>> state = get_game("akropolis").new_game(2)
>>> plain_values(state)  # the stones of each seat (4.6)
[1.0, 2.0]
>>> [round(v, 1) for v in values(state)]  # the stones and what a whole game adds
[85.7, 90.2]
"""

from __future__ import annotations

from typing import Final

from .geometry import OFF, QUARRY
from .scoring import HOUSE, TEMPLE, breakdown, points
from .state import AkropolisState, City

__all__ = ["FEATURES", "PROMISE", "WEIGHTS", "features", "left_share", "plain_values", "values"]

PROMISE: Final = 0.5
"""Points per value of districts of a type without a plaza yet, in :func:`plain_values`."""

FEATURES: Final = (
    "left", "left^2",
    "value_h*left", "value_m*left", "value_b*left", "value_t*left", "value_g*left",
    "stars_h*left", "stars_m*left", "stars_b*left", "stars_t*left", "stars_g*left",
    "unstarred_value*left", "unstarred_value",
    "temples_5of6*stars_t", "temples_5of6*left", "temples_open*left",
    "houses_apart*stars_h", "houses_apart*left",
    "quarries*left", "stones*left",
)
"""The names of :func:`features`, in order (``left``: the share of the game's tiles still
to be placed, 1 to 0)."""

WEIGHTS: tuple[float, ...] = (
    -50.3, 115.8,
    2.50, 4.64, 4.00, 4.93, 4.33,
    8.00, 5.40, 5.29, 3.16, 2.45,
    0.77, 0.0,
    0.0, 4.82, 2.81,
    0.0, 0.94,
    2.58, 3.46,
)
"""Points each feature adds to the score now (fitted: ``scripts/fit_akropolis_value.py``)."""


def left_share(state: AkropolisState) -> float:
    """The share of the game's tiles not yet placed (on the site or undrawn): 1 at the
    start, 0 at the end."""
    placed = 0
    for city in state.cities:
        placed += len(city.tiles)
    waiting = len(state.undrawn) + len(state.site)
    return waiting / max(1, placed + waiting)


def _city_features(city: City, bonus: list[bool], stars: list[int]) -> list[float]:
    """What :func:`features` reads of one city, before the share of the game left:
    the five values, the five stars, the value of types with no plaza, temples with five
    of six neighbours (sum of levels), other open temples, houses outside the largest
    group (sum of levels), quarries on top; kept on the city until it changes."""
    if city.prospects is not None:
        return city.prospects
    b = breakdown(city, stars, bonus)
    base, height, top = city.window()  # cell c at c - base
    near5 = 0
    open_ = 0
    houses = 0
    quarries = 0
    for c in city.cells:
        kind = top[c - base]
        if kind == TEMPLE:
            filled = 0
            for off in OFF:
                if height[c + off - base]:
                    filled += 1
            if filled == 5:
                near5 += height[c - base]
            elif filled < 5:
                open_ += height[c - base]
        elif kind == HOUSE:
            houses += height[c - base]
        elif kind == QUARRY:
            quarries += 1
    unstarred = 0
    for k in range(5):
        if not b[k + 5]:
            unstarred += b[k]
    apart = houses - b[HOUSE] if houses > b[HOUSE] else 0
    found = [float(b[0]), float(b[1]), float(b[2]), float(b[3]), float(b[4]),
             float(b[5]), float(b[6]), float(b[7]), float(b[8]), float(b[9]),
             float(unstarred), float(near5), float(open_), float(apart), float(quarries)]
    city.prospects = found
    return found


def features(state: AkropolisState, seat: int) -> list[float]:
    """The features of ``seat``'s city (:data:`FEATURES`) in ``state``; all 0 once the game
    is over."""
    if state.is_over():
        return [0.0] * len(FEATURES)
    return _features(state, seat, left_share(state))


def _features(state: AkropolisState, seat: int, left: float) -> list[float]:
    f = _city_features(state.cities[seat], state.bonus, state.tables.stars)
    stones = float(state.stones[seat])
    out = [left, left * left]
    for k in range(5):
        out.append(f[k] * left)
    for k in range(5):
        out.append(f[5 + k] * left)
    out.append(f[10] * left)
    out.append(f[10])
    out.append(f[11] * f[8])
    out.append(f[11] * left)
    out.append(f[12] * left)
    out.append(f[13] * f[5])
    out.append(f[13] * left)
    out.append(f[14] * left)
    out.append(stones * left)
    return out


def plain_values(state: AkropolisState) -> list[float]:
    """Every seat's score if the game ended now, plus ``PROMISE`` of the value of its types
    with no plaza yet (while the game goes on)."""
    out = []
    for seat, city in enumerate(state.cities):
        worth = float(points(state, seat))
        if not state.is_over():
            b = breakdown(city, state.tables.stars, state.bonus)
            worth += PROMISE * sum(b[k] for k in range(5) if not b[k + 5])
        out.append(worth)
    return out


def values(state: AkropolisState) -> list[float]:
    """Every seat's estimated final score from ``state``, in points (higher is better)."""
    over = state.is_over()
    left = 0.0 if over else left_share(state)
    weights = WEIGHTS  # read once (not Final: compiled, a Final tuple is made at each use)
    out = []
    for seat in range(len(state.cities)):
        worth = float(points(state, seat))
        if not over:
            phi = _features(state, seat, left)
            for k in range(len(weights)):
                worth += weights[k] * phi[k]
        out.append(worth)
    return out
