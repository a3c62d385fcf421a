"""The batch rating fit (SPEC.md 9.11): a Plackett-Luce maximum likelihood fit of all the
games at once, so the order of the games does not matter, with shared places by Efron's
rule as in the online rating (:func:`~sneferu_cli.tournament.standings.plackett_luce`).

Strengths θ are fitted in logits and shown on an Elo scale, 400·log10(e)·θ: at two seats
an engine rated D above another finishes first with probability 1 / (1 + 10^(-D/400)).
Without anchors the mean rating of the engines not provisional (of every engine when all
are) is 0; anchors (engines given fixed ratings) place the
others against them. The 95% intervals are the fit's own, from the inverse Hessian of
the negative log-likelihood (the observed information) at its minimum.

numpy and scipy are imported when a fit is made, not with this module: the base install
runs without them (``pip install "sneferu[rating]"`` brings them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import msgspec

from .sprt import Z95

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

ELO = 400 / math.log(10)
"""Elo points per logit (400·log10(e) ≈ 173.72)."""

RIDGE = 1e-3
"""The default ridge: a penalty RIDGE/2 · Σ (θ_i − mean θ)² in logits, so an engine that
won (or lost) every game still has a finite rating; it moves a rating of an engine with
100 games by about 0.01% of its distance from the mean."""

PROVISIONAL = 20
"""Fewer games than this and a fitted rating is provisional."""

FIT_MODEL = ("Plackett-Luce maximum likelihood, shared places by Efron's rule, "
             "Elo scale (400 log10)")
"""The batch fit's model, as the standings name it."""


class FitUnavailable(Exception):
    """numpy or scipy is not installed: the message says how to install them."""


class FitError(ValueError):
    """Anchors that cannot be used (an engine without games): the message names it."""


class FitRow(msgspec.Struct, frozen=True):
    """One engine's fitted rating (Elo scale), the half-width of its 95% interval (0 for
    an anchor), its games in the fit, whether it has fewer than the provisional number,
    and whether its rating was given (an anchor)."""

    name: str
    games: int
    rating: float
    ci: float
    provisional: bool
    anchored: bool


class Fit(msgspec.Struct, frozen=True):
    """A batch fit: the engines (by name, in the order first met), the games fitted, the
    anchors given, the provisional threshold and the ridge."""

    engines: dict[str, FitRow]
    games: int
    anchors: dict[str, float]
    provisional: int
    ridge: float


def fit_ratings(games: Iterable[Sequence[tuple[str, int]]],
                anchors: Mapping[str, float] | None = None, *,
                provisional: int = PROVISIONAL, ridge: float = RIDGE) -> Fit:
    """Fit every game at once. A game is its seats' (engine name, rank), rank 1 first,
    equal ranks a shared place; a game with fewer than two seats, or one engine in two
    seats, is left out (as the online rating does). ``anchors``: engine name → Elo rating
    held fixed; without any, the mean rating of the engines with at least ``provisional``
    games (of all when none has) is 0. Raises :class:`FitUnavailable`
    without numpy and scipy, :class:`FitError` for an anchor without games."""
    try:
        import numpy as np
        from scipy import linalg, optimize
    except ImportError:
        raise FitUnavailable('the batch fit needs numpy and scipy: pip install '
                             '"sneferu[rating]"') from None
    anchors = dict(anchors or {})
    index: dict[str, int] = {}
    patterns: dict[tuple[int, ...], list[list[int]]] = {}
    fitted = 0
    for game in games:
        if len(game) < 2 or len({n for n, _ in game}) != len(game):
            continue
        fitted += 1
        seats = sorted(game, key=_rank)
        ranks = tuple(r for _, r in seats)
        patterns.setdefault(ranks, []).append(
            [index.setdefault(n, len(index)) for n, _ in seats])
    for name in anchors:
        if name not in index:
            raise FitError(f"anchor {name}: no game of that engine")
    names = list(index)
    n = len(names)
    played = np.zeros(n)
    count = np.zeros(n)
    pools: list[tuple[NDArray[np.intp], NDArray[np.float64]]] = []
    for ranks, rows in patterns.items():
        table = np.array(rows, dtype=np.intp)
        count += np.bincount(table.ravel(), minlength=n)
        chosen = table[:, :-1] if ranks.count(ranks[-1]) == 1 else table
        played += np.bincount(chosen.ravel(), minlength=n)  # each seat chosen, once
        for weights in _stages(ranks):
            pools.append((table, np.broadcast_to(np.array(weights), table.shape)))
    width = max((t.shape[1] for t, _ in pools), default=2)
    who = np.concatenate([np.pad(t, ((0, 0), (0, width - t.shape[1]))) for t, _ in pools]) \
        if pools else np.zeros((0, width), dtype=np.intp)
    weight = np.concatenate([np.pad(w, ((0, 0), (0, width - w.shape[1]))) for _, w in pools]) \
        if pools else np.zeros((0, width))
    fixed = np.array([i for i, nm in enumerate(names) if nm in anchors], dtype=np.intp)
    theta0 = np.zeros(n)
    for nm, r in anchors.items():
        theta0[index[nm]] = r / ELO
    if len(fixed) == 0 and n:
        fixed = np.array([0], dtype=np.intp)  # the mean is set to 0 after
    free = np.setdiff1d(np.arange(n), fixed)
    positive = weight > 0
    center = np.eye(n) - 1.0 / n if n else np.zeros((0, 0))

    def full(x: NDArray[np.float64]) -> NDArray[np.float64]:
        theta = theta0.copy()
        theta[free] = x
        return theta

    def probabilities(theta: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        """Σ log P over the pools, and each seat's share of its pool."""
        t = np.where(positive, theta[who], -np.inf)
        top = t.max(axis=1, keepdims=True)
        e = weight * np.exp(t - top)
        total = e.sum(axis=1, keepdims=True)
        return float((np.log(total) + top).sum()), e / total

    def objective(x: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        theta = full(x)
        log_pools, p = probabilities(theta)
        dev = theta - theta.mean()
        value = log_pools - float(played @ theta) + ridge / 2 * float(dev @ dev)
        grad = np.bincount(who.ravel(), p.ravel(), minlength=n) - played + ridge * dev
        return value, grad[free]

    def hessian_full(theta: NDArray[np.float64]) -> NDArray[np.float64]:
        _, p = probabilities(theta)
        h = np.bincount(who.ravel(), p.ravel(), minlength=n)
        outer = np.einsum("sk,sl->skl", p, p)
        pairs = who[:, :, None] * n + who[:, None, :]
        hess = np.diag(h) - np.bincount(pairs.ravel(), outer.ravel(),
                                        minlength=n * n).reshape(n, n)
        return hess + ridge * center

    def hessian(x: NDArray[np.float64]) -> NDArray[np.float64]:
        return hessian_full(full(x))[np.ix_(free, free)]

    theta = theta0
    cov = np.zeros((n, n))
    if len(free):
        result = optimize.minimize(objective, np.zeros(len(free)), jac=True, hess=hessian,
                                   method="trust-exact", options={"gtol": 1e-9})
        theta = full(result.x)
        sub = hessian(result.x)
        try:
            inverse = linalg.inv(sub)
        except linalg.LinAlgError:
            inverse = np.full(sub.shape, np.inf)
        cov[np.ix_(free, free)] = inverse
    if not anchors and n:  # the mean of the engines not provisional (else of all) is 0
        settled = count >= provisional
        share = np.where(settled, 1.0, 0.0) if settled.any() else np.ones(n)
        to_mean = np.eye(n) - np.outer(np.ones(n), share / share.sum())
        theta = to_mean @ theta
        cov = to_mean @ cov @ to_mean.T
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    fitted_rows = {nm: FitRow(nm, int(count[i]), float(theta[i] * ELO),
                              float(Z95 * se[i] * ELO), bool(count[i] < provisional),
                              nm in anchors) for i, nm in enumerate(names)}
    return Fit(fitted_rows, fitted, anchors, provisional, ridge)


def _rank(seat: tuple[str, int]) -> int:
    return seat[1]


def _stages(ranks: Sequence[int]) -> list[list[float]]:
    """The pools of a game whose seats, sorted, have ``ranks``: each the weight of every
    seat in one choice. At a place shared by m seats, m choices j = 0 … m − 1, the tied
    seats weighted 1 − j/m and the seats below 1 (Efron's rule, SPEC.md 9.5); a last
    place held alone is no choice and left out."""
    out = []
    k = len(ranks)
    for place in sorted(set(ranks)):
        tied = [i for i in range(k) if ranks[i] == place]
        below = [i for i in range(k) if ranks[i] > place]
        if len(tied) == 1 and not below:
            continue
        for j in range(len(tied)):
            w = 1 - j / len(tied)
            out.append([w if i in tied else 1.0 if i in below else 0.0 for i in range(k)])
    return out

