"""SPRT between two engines on pairs of duplicate games, as fastchess computes it.

Each deal is played twice at a 2-seat table, once with each engine in seat 1. The pair
score of the first engine is its two game scores added (1 above the other, ½ shared, 0
below): 0, ½, 1, 1½ or 2, counted in a pentanomial ``[LL, LD, DD, WD, WW]`` (fastchess's
WL and DD are the same pair score, 1, and are counted together). The log-likelihood
ratio is the generalized one of M. Van den Bergh ("Comments on Normalized Elo"), for the
``logistic`` or ``normalized`` Elo model exactly as fastchess's ``sprt.cpp`` defines them;
a zero count is replaced by 0.001 as there. SPEC.md 9.6 has the formulas.

>>> round(llr([2, 3, 5], 0.0, 400 * math.log10(0.65 / 0.35), "logistic"), 6)
0.664143
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import msgspec

from ..record.model import GameRecord
from .config import SprtConfig

Model = Literal["normalized", "logistic"]
NELO_SCALE = 800 / math.log(10)  # normalized Elo per unit of t = (mu - 1/2) / sigma
Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


def score_to_elo(score: float) -> float:
    """Logistic Elo of an expected score in (0, 1)."""
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    """Expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-elo / 400))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The SPRT's stopping bounds (lower, upper) on the LLR: ln(β/(1−α)), ln((1−β)/α)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _root(f: Callable[[float], float], df: Callable[[float], float], lo: float, hi: float
          ) -> float:
    """The root of a decreasing ``f`` on (lo, hi), where it goes from +inf to -inf:
    Newton's method kept inside a shrinking bracket (bisection when Newton leaves it)."""
    x = 0.0 if lo < 0 < hi else (lo + hi) / 2
    for _ in range(200):
        fx = f(x)
        if fx == 0:
            return x
        if fx > 0:
            lo = x
        else:
            hi = x
        step = fx / df(x)
        nxt = x - step
        if not lo < nxt < hi:
            nxt = (lo + hi) / 2
        if abs(nxt - x) <= 1e-15 * (1 + abs(x)):
            return nxt
        x = nxt
    return x


def _mle_mean(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``scores`` closest (maximum likelihood) to the empirical
    ``probs`` with mean ``s``: p_i = p̂_i / (1 + θ (a_i − s)), θ solving
    Σ p̂_i (a_i − s) / (1 + θ (a_i − s)) = 0 (Van den Bergh, eq. 1.2 and 1.3)."""
    d = [a - s for a in scores]

    def f(x: float) -> float:
        return sum(p * di / (1 + x * di) for p, di in zip(probs, d, strict=True))

    def df(x: float) -> float:
        return -sum(p * di * di / (1 + x * di) ** 2 for p, di in zip(probs, d, strict=True))

    if not min(d) < 0 < max(d):
        raise ValueError(f"the mean score {s} is out of the model's range (0 to 1, "
                         "exclusive)")
    theta = _root(f, df, -1 / max(d), -1 / min(d))
    return _reweighted(probs, d, theta)


def _reweighted(probs: Sequence[float], d: Sequence[float], theta: float) -> list[float]:
    """p̂_i / (1 + θ d_i); ValueError when a weight is not positive (θ at a pole: the
    estimate does not exist in floating point)."""
    weights = [1 + theta * di for di in d]
    if not all(w > 0 for w in weights):
        raise ValueError("the maximum likelihood estimate does not exist for these bounds")
    return [p / w for p, w in zip(probs, weights, strict=True)]


def _mle_normalized(scores: Sequence[float], probs: Sequence[float], t: float
                    ) -> list[float]:
    """The distribution on ``scores`` closest to ``probs`` with (mean − ½) / sd = ``t``
    (Van den Bergh, section 4.1): the fixed point of p_i = p̂_i / (1 + θ φ_i) with
    φ_i = a_i − ½ − t σ (1 + ((a_i − μ) / σ)²) / 2, μ and σ those of the current p, θ
    solving Σ p̂_i φ_i / (1 + θ φ_i) = 0; from the uniform distribution. ValueError when
    ``t`` is out of the model's range (about ±0.94 for pairs, where φ keeps one sign)."""
    p = [1 / len(scores)] * len(scores)
    for _ in range(1000):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in scores]

        def f(x: float, phi: list[float] = phi) -> float:
            return sum(q * v / (1 + x * v) for q, v in zip(probs, phi, strict=True))

        def df(x: float, phi: list[float] = phi) -> float:
            return -sum(q * v * v / (1 + x * v) ** 2 for q, v in zip(probs, phi, strict=True))

        if not min(phi) < 0 < max(phi):
            raise ValueError(f"a normalized Elo of t = {t:.4g} standard deviations is out of "
                             "the model's range")
        theta = _root(f, df, -1 / max(phi), -1 / min(phi))
        new = _reweighted(probs, phi, theta)
        diff = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if diff < 1e-12:
            break
    return p


def llr(counts: Sequence[int], elo0: float, elo1: float, model: Model = "normalized"
        ) -> float:
    """The log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``).

    ``counts`` is a trinomial ``[L, D, W]`` of games or a pentanomial
    ``[LL, LD, DD+WL, WD, WW]`` of pairs (scores 0, ½, 1 or 0, ¼, ½, ¾, 1 of a unit).
    """
    if len(counts) not in (3, 5):
        raise ValueError("counts: a trinomial (3 counts) or a pentanomial (5 counts)")
    n = len(counts)
    scores = [i / (n - 1) for i in range(n)]
    regular = [c if c else 1e-3 for c in counts]
    total = sum(regular)
    probs = [c / total for c in regular]
    if model == "normalized":
        scale = NELO_SCALE / math.sqrt(2) if n == 5 else NELO_SCALE
        p0 = _mle_normalized(scores, probs, elo0 / scale)
        p1 = _mle_normalized(scores, probs, elo1 / scale)
    else:
        p0 = _mle_mean(scores, probs, elo_to_score(elo0))
        p1 = _mle_mean(scores, probs, elo_to_score(elo1))
    return total * sum(q * (math.log(a) - math.log(b)) for q, a, b in zip(probs, p1, p0,
                                                                          strict=True))


def pair_elo(counts: Sequence[int]) -> tuple[float, float, float] | None:
    """Logistic Elo of the first engine from pentanomial counts, with its 95% interval
    (lower, upper): from the mean pair score (a unit) and its standard error
    sqrt(var / pairs); None without pairs, ±inf at a score of 0 or 1."""
    pairs = sum(counts)
    if not pairs:
        return None
    scores = [i / 4 for i in range(5)]
    mean = sum(a * c for a, c in zip(scores, counts, strict=True)) / pairs
    var = sum(c * (a - mean) ** 2 for a, c in zip(scores, counts, strict=True)) / pairs
    half = Z95 * math.sqrt(var / pairs)

    def elo(s: float) -> float:
        if s <= 0:
            return -math.inf
        if s >= 1:
            return math.inf
        return score_to_elo(s)

    return elo(mean), elo(mean - half), elo(mean + half)


class SprtResult(msgspec.Struct, frozen=True):
    """The state of an SPRT: the engines (first = the one tested for an Elo gain), the
    pentanomial of the pairs counted, the LLR and its bounds, and the verdict: ``H1``
    (elo1 accepted: the first engine is stronger by elo1), ``H0`` (elo0 accepted) or
    ``continue``. ``pairs`` is how many pairs were counted: the complete pairs of deals
    1, 2, ... up to the first gap or the first crossing of a bound."""

    engines: tuple[str, str]
    pairs: int
    penta: list[int]
    llr: float
    lower: float
    upper: float
    verdict: Literal["H0", "H1", "continue"]
    elo: float | None
    elo_lower: float | None
    elo_upper: float | None


def pair_scores(records: Iterable[GameRecord], first: str, second: str
                ) -> dict[int, list[float]]:
    """Each deal's game scores of ``first`` against ``second`` at 2-seat tables (1 above,
    ½ shared, 0 below), by deal number; a deal holds one score per game recorded."""
    out: dict[int, list[float]] = {}
    for rec in records:
        h = rec.header
        names = {s.seat: s.name for s in h.seats}
        if h.players != 2 or sorted(names.values()) != sorted((first, second)):
            continue
        if not h.result or "deal" not in h.extra:
            continue
        deal = int(h.extra["deal"])
        rank = {names[r.seat]: r.rank for r in h.result}
        a, b = rank[first], rank[second]
        out.setdefault(deal, []).append(1.0 if a < b else 0.5 if a == b else 0.0)
    return out


class SprtTally:
    """The SPRT of ``engines[0]`` against ``engines[1]`` fed records as they come:
    :meth:`result` is what :func:`sprt_result` gives for all the records added so far,
    and each :meth:`add` costs only the pairs it completes."""

    def __init__(self, test: SprtConfig, engines: tuple[str, str]) -> None:
        self.test = test
        self.engines = engines
        self.lower, self.upper = bounds(test.alpha, test.beta)
        self.by_deal: dict[int, list[float]] = {}
        self.penta = [0] * 5
        self.value = 0.0
        self.verdict: Literal["H0", "H1", "continue"] = "continue"
        self.deal = 1  # the next deal to count

    def add(self, records: Iterable[GameRecord]) -> None:
        """Count these records' games (each game once: do not add a record twice)."""
        for deal, scores in pair_scores(records, *self.engines).items():
            self.by_deal.setdefault(deal, []).extend(scores)
        test = self.test
        while self.verdict == "continue" and len(self.by_deal.get(self.deal, ())) >= 2:
            scores = self.by_deal[self.deal]
            if len(scores) > 2:
                raise ValueError(f"deal {self.deal}: {len(scores)} games between "
                                 f"{self.engines[0]} and {self.engines[1]}; a pair has 2")
            self.penta[round(2 * sum(scores))] += 1
            self.value = llr(self.penta, test.elo0, test.elo1, test.model)
            self.deal += 1
            if self.value >= self.upper:
                self.verdict = "H1"
            elif self.value <= self.lower:
                self.verdict = "H0"

    def result(self) -> SprtResult:
        """The test's state now."""
        estimate = pair_elo(self.penta)
        return SprtResult(self.engines, sum(self.penta), list(self.penta), self.value,
                          self.lower, self.upper, self.verdict,
                          *(estimate or (None, None, None)))


def sprt_result(records: Iterable[GameRecord], test: SprtConfig, engines: tuple[str, str]
         ) -> SprtResult:
    """The SPRT of ``engines[0]`` against ``engines[1]`` from the records alone.

    Deals are taken in order 1, 2, ...; counting stops at the first deal whose pair is not
    complete (so the verdict does not depend on which games happened to finish first) or
    at the first pair after which the LLR is outside its bounds.
    """
    tally = SprtTally(test, engines)
    tally.add(records)
    return tally.result()
