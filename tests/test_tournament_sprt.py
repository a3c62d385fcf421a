"""SPRT on pairs of duplicate games: the maths by hand, fastchess's own numbers, records."""

from __future__ import annotations

import math

import pytest
from tournament_support import record

from sneferu_cli.tournament import SprtConfig, llr, sprt_result
from sneferu_cli.tournament.sprt import (
    NELO_SCALE,
    SprtTally,
    bounds,
    elo_to_score,
    pair_elo,
    pair_scores,
    score_to_elo,
)


def test_bounds_by_hand():
    # alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944439, ln(0.95 / 0.05) = ln 19
    lo, hi = bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944439, abs=1e-6) and hi == pytest.approx(2.944439, abs=1e-6)
    # alpha = 0.05, beta = 0.1: ln(0.1 / 0.95) = -2.251292, ln(0.9 / 0.05) = 2.890372
    assert bounds(0.05, 0.1) == pytest.approx((-2.251292, 2.890372), abs=1e-6)


def test_elo_and_score():
    assert elo_to_score(0) == 0.5
    # 400 * log10(3) = 190.848501: the Elo of a 75% score
    assert score_to_elo(0.75) == pytest.approx(190.848501, abs=1e-6)
    assert elo_to_score(score_to_elo(0.3)) == pytest.approx(0.3)


def test_trinomial_logistic_by_hand():
    """L, D, W = 2, 3, 5 (N = 10, p̂ = .2 .3 .5, mean .65); elo0 = 0 (s0 = .5), elo1 the
    Elo of .65 = 400 log10(.65/.35) so that p1 = p̂.

    H0: p0_i = p̂_i / (1 + θ(a_i − .5)) with Σ p̂_i (a_i − .5) / (1 + θ(a_i − .5)) = 0:
    −.1/(1 − θ/2) + .25/(1 + θ/2) = 0  →  θ = 2 (.5 − .2)/(.5 + .2) = 6/7;
    p0 = (.2 / (4/7), .3, .5 / (10/7)) = (.35, .3, .35).
    LLR = N Σ p̂ ln(p1/p0) = 10 (.2 ln(.2/.35) + .3 ln 1 + .5 ln(.5/.35))
        = 10 (.2 · −.5596158 + .5 · .3566749) = 0.664143.
    """
    elo1 = 400 * math.log10(0.65 / 0.35)
    assert llr([2, 3, 5], 0.0, elo1, "logistic") == pytest.approx(0.664143, abs=1e-6)
    # the ratio is antisymmetric in the hypotheses
    assert llr([2, 3, 5], elo1, 0.0, "logistic") == pytest.approx(-0.664143, abs=1e-6)


def test_pentanomial_by_hand_both_models():
    """Built backwards from H0's solution: p0 = (.1 .2 .4 .2 .1) has mean ½; with θ = 0.8
    and d = a − ½ = (−½ −¼ 0 ¼ ½), p̂_i = p0_i (1 + θ d_i) = (.06 .16 .40 .24 .14), which
    makes p0 the maximum-likelihood distribution of mean ½ (Σ p̂ d/(1 + θd) = Σ p0 d = 0).
    Counts ×50: LL LD DD WD WW = 3 8 20 12 7. p̂'s mean is .56; elo1 is chosen so that
    p1 = p̂, hence LLR = 50 Σ p̂ ln(1 + θ d):
    50 (.06 ln .6 + .16 ln .8 + .24 ln 1.2 + .14 ln 1.4)
    = 50 (−.0306495 − .0357030 + .0437572 + .0471061) = 1.225539.
    Logistic: elo0 = 0 is s0 = ½ and elo1 = 400 log10(.56/.44).
    Normalized: t0 = 0 is again mean ½; p̂'s sd is sqrt(.385 − .56²) = .2672078 so
    t̂ = .06/.2672078 = .2245443 and elo1 = t̂ · (800/ln 10)/√2 (fastchess's pair scale).
    """
    counts = [3, 8, 20, 12, 7]
    expected = 1.225539
    assert llr(counts, 0.0, 400 * math.log10(0.56 / 0.44), "logistic") == pytest.approx(
        expected, abs=1e-6)
    t_hat = 0.06 / math.sqrt(0.385 - 0.56 ** 2)
    assert t_hat == pytest.approx(0.2245443, abs=1e-7)
    assert llr(counts, 0.0, t_hat * NELO_SCALE / math.sqrt(2), "normalized") == pytest.approx(
        expected, abs=1e-6)


# fastchess app/tests/sprt_test.cpp: Stats(wins, losses, draws) for games,
# Stats(LL, LD, WL, DD, WD, WW) for pairs; its values are given to 2 decimals, compared
# with doctest::Approx(...).epsilon(0.01) (1% relative).
FASTCHESS_TRINOMIAL = [
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    ((4250, 0, 0), 0, 10, "normalized", 120.56),
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),
]
FASTCHESS_PENTANOMIAL = [
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize(("stats", "elo0", "elo1", "model", "expected"), FASTCHESS_TRINOMIAL)
def test_fastchess_trinomial_numbers(stats, elo0, elo1, model, expected):
    w, lose, d = stats
    assert llr([lose, d, w], elo0, elo1, model) == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize(("stats", "elo0", "elo1", "model", "expected"),
                         FASTCHESS_PENTANOMIAL)
def test_fastchess_pentanomial_numbers(stats, elo0, elo1, model, expected):
    ll, ld, wl, dd, wd, ww = stats
    value = llr([ll, ld, wl + dd, wd, ww], elo0, elo1, model)
    assert value == pytest.approx(expected, rel=0.01)
    if abs(expected) < 10:  # not the one-sided extremes: equal to the two decimals given
        assert value == pytest.approx(expected, abs=0.006)


def test_llr_needs_three_or_five_counts():
    with pytest.raises(ValueError, match="trinomial"):
        llr([1, 2, 3, 4], 0, 5)


def test_pair_elo_by_hand():
    # pairs 0, ½, 1, 1½, 2 → unit scores 0, ¼, ½, ¾, 1; counts 1 1 1 1 4: mean =
    # (0 + .25 + .5 + .75 + 4)/8 = .6875; var = Σ c (a − .6875)²/8
    # = (.4726563 + .1914063 + .0351563 + .0039063 + 4 · .0976563)/8 = .1367188;
    # half-width 1.959964 sqrt(.1367188/8) = .2562231.
    elo, lo, hi = pair_elo([1, 1, 1, 1, 4])  # type: ignore[misc]
    assert elo == pytest.approx(400 * math.log10(0.6875 / 0.3125))
    assert lo == pytest.approx(score_to_elo(0.6875 - 0.2562231), abs=0.01)
    assert hi == pytest.approx(score_to_elo(0.6875 + 0.2562231), abs=0.01)
    assert pair_elo([0, 0, 0, 0, 3]) == (math.inf, math.inf, math.inf)
    assert pair_elo([0] * 5) is None


def pair(deal: int, a_first: tuple[int, int], a_second: tuple[int, int]) -> list:
    """The two games of a deal: A in seat 1 with ranks (A, B), then A in seat 2."""
    return [record(["A", "B"], list(a_first), deal=deal),
            record(["B", "A"], [a_second[1], a_second[0]], deal=deal)]


def test_pair_scores_from_records():
    recs = [*pair(1, (1, 2), (1, 1)), *pair(2, (2, 1), (2, 1)), *pair(3, (1, 1), (1, 2)),
            record(["A", "C"], [1, 2], deal=1), record(["A", "B", "C"], [1, 2, 3], deal=1)]
    assert pair_scores(recs, "A", "B") == {1: [1.0, 0.5], 2: [0.0, 0.0], 3: [0.5, 1.0]}
    assert pair_scores(recs, "B", "A") == {1: [0.0, 0.5], 2: [1.0, 1.0], 3: [0.5, 0.0]}


def test_sprt_counts_the_pentanomial_of_complete_pairs_in_deal_order():
    test = SprtConfig(elo0=0, elo1=10)
    recs = [*pair(1, (1, 2), (1, 2)),   # A wins both: pair score 2  (WW)
            *pair(2, (1, 2), (2, 1)),   # one each: 1 (WL, counted with DD)
            *pair(3, (1, 1), (2, 1)),   # ½ + 0 (LD)
            *pair(5, (1, 2), (1, 2)),   # after the gap: not counted yet
            pair(4, (1, 2), (1, 2))[0]]  # deal 4 is half played
    r = sprt_result(recs, test, ("A", "B"))
    assert (r.pairs, r.penta, r.verdict) == (3, [0, 1, 1, 0, 1], "continue")
    assert r.llr == pytest.approx(llr([0, 1, 1, 0, 1], 0, 10))
    assert (r.lower, r.upper) == bounds(0.05, 0.05)
    # the missing game arrives: deals 4 and 5 count now
    r = sprt_result([*recs, pair(4, (1, 2), (1, 2))[1]], test, ("A", "B"))
    assert (r.pairs, r.penta) == (5, [0, 1, 1, 0, 3])
    # seen from B
    assert sprt_result(recs, test, ("B", "A")).penta == [1, 0, 1, 1, 0]


def test_sprt_stops_at_the_first_crossing():
    test = SprtConfig(elo0=0, elo1=50, alpha=0.1, beta=0.1, model="logistic")
    upper = bounds(0.1, 0.1)[1]
    first = next(k for k in range(1, 100) if llr([0, 0, 0, 0, k], 0, 50, "logistic") >= upper)
    recs = [g for d in range(1, first + 6) for g in pair(d, (1, 2), (1, 2))]
    r = sprt_result(recs, test, ("A", "B"))
    assert (r.verdict, r.pairs, r.penta) == ("H1", first, [0, 0, 0, 0, first])
    assert r.llr >= upper
    r = sprt_result(recs, test, ("B", "A"))
    assert r.verdict == "H0" and r.llr <= -upper


def test_a_deal_played_three_times_is_an_error():
    recs = [*pair(1, (1, 2), (1, 2)), record(["A", "B"], [1, 2], deal=1)]
    with pytest.raises(ValueError, match="deal 1: 3 games between A and B"):
        sprt_result(recs, SprtConfig(elo0=0, elo1=5), ("A", "B"))


def test_the_tally_fed_one_game_at_a_time_agrees_with_the_whole_records():
    """The runner's incremental SPRT gives sprt_result's answer after every game, in any
    order of arrival (here: deals out of order, the second game of a pair first)."""
    test = SprtConfig(elo0=-20, elo1=20, model="logistic")
    outcomes = [((1, 2), (1, 2)), ((2, 1), (1, 2)), ((1, 1), (2, 1)), ((2, 1), (2, 1))]
    games = [g for d in range(1, 41) for g in pair(d, *outcomes[d * 7 % 4])]
    order = sorted(range(len(games)), key=lambda i: (i * 37) % len(games))
    tally = SprtTally(test, ("A", "B"))
    seen = []
    for i in order:
        tally.add([games[i]])
        seen.append(games[i])
        assert tally.result() == sprt_result(seen, test, ("A", "B"))


@pytest.mark.parametrize(("elo1", "model"), [(400, "normalized"), (1e300, "normalized"),
                                             (7000, "logistic"), (math.inf, "logistic")])
def test_bounds_out_of_the_models_range_are_a_value_error_not_a_crash(elo1, model):
    for counts in ([0, 0, 0, 0, 1], [0, 0, 0, 1, 0], [1, 2, 3, 4, 5], [0, 0, 1, 0, 0]):
        with pytest.raises(ValueError, match=r"out of the model's range|does not exist"):
            llr(counts, 0, elo1, model)


@pytest.mark.parametrize(("limit", "model"), [(200, "normalized"), (4000, "logistic")])
def test_every_bound_the_config_accepts_gives_a_finite_llr(limit, model):
    SprtConfig(elo0=-limit, elo1=limit, model=model)  # accepted: the range is closed
    sizes = (0, 1, 10**6)  # the extremes: empty, one and very many pairs of a score
    for counts in ([a, 0, c, 0, e] for a in sizes for c in sizes for e in sizes):
        if sum(counts):
            for lo, hi in ((0, limit), (-limit, 0)):
                assert math.isfinite(llr(counts, lo, hi, model))
