"""Standings from records: every statistic against values computed by hand."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import tracemalloc
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from tournament_support import play, record

from sneferu_cli.game import SoloResult
from sneferu_cli.record.model import Fault, GameRecord, Header
from sneferu_cli.tournament import (
    Schedule,
    compute_standings,
    format_standings,
    load_config,
    to_csv,
    to_json,
)
from sneferu_cli.tournament.standings import (
    GameResult,
    Results,
    RunningStandings,
    mean_ci,
    plackett_luce,
)

Z = 1.959963984540054


def four_games() -> list[GameRecord]:
    """Three engines at 3 seats, deals 1 and 2, two games each (seat order, ranks):

    g1 deal 1  A B C  1 2 3   stones 10 9 8    food 5 4 3
    g2 deal 1  B C A  1 1 3   stones 11 11 7   food 2 2 1   A times out
    g3 deal 2  C A B  2 1 2   stones 9 12 9    food 0 3 0   C plays an illegal move
    g4 deal 2  A B C  1 1 1   stones 10 10 10  food 1 1 1
    """
    return [
        record(["A", "B", "C"], [1, 2, 3], deal=1, stones=[10, 9, 8], food=[5, 4, 3]),
        record(["B", "C", "A"], [1, 1, 3], deal=1, stones=[11, 11, 7], food=[2, 2, 1],
               faults=[Fault(3, "timeout", "no move in 10s", 4)]),
        record(["C", "A", "B"], [2, 1, 2], deal=2, stones=[9, 12, 9], food=[0, 3, 0],
               faults=[Fault(1, "illegal", "9.9", 0)]),
        record(["A", "B", "C"], [1, 1, 1], deal=2, stones=[10, 10, 10], food=[1, 1, 1]),
    ]


def test_engine_rows_by_hand():
    st = compute_standings(four_games())
    assert (st.games, st.unfinished) == (4, 0)
    rows = {e.name: e for e in st.engines}
    a, b, c = rows["A"], rows["B"], rows["C"]
    # A's ranks 1 3 | 1 1: mean 1.5; deal sums 4 and 2 against 2 · 1.5 = 3 each:
    # SE = sqrt(G/(G−1) · Σ (S_g − n_g mean)²) / N = sqrt(2 · (1 + 1)) / 4 = 0.5
    assert a.games == 4 and a.mean_rank == 1.5 and a.rank_ci == pytest.approx(Z * 0.5)
    # B's ranks 2 1 | 2 1: sums 3 and 3, no spread between deals
    assert b.mean_rank == 1.5 and b.rank_ci == pytest.approx(0.0)
    assert c.mean_rank == 1.75  # 3 1 | 2 1
    # firsts: a first shared by k seats counts 1/k. A: 1 + 1 + 1/3; B, C: 1/2 + 1/3
    assert a.firsts == pytest.approx((2 + 1 / 3) / 4)
    assert b.firsts == pytest.approx((1 / 2 + 1 / 3) / 4) == c.firsts
    assert a.firsts + b.firsts + c.firsts == pytest.approx(1.0)
    assert (a.mean_stones, a.mean_food) == ((10 + 7 + 12 + 10) / 4, (5 + 1 + 3 + 1) / 4)
    assert (c.mean_stones, c.mean_food) == ((8 + 11 + 9 + 10) / 4, (3 + 2 + 0 + 1) / 4)
    assert (a.faults, b.faults, c.faults) == ({"timeout": 1}, {}, {"illegal": 1})
    assert [e.name for e in st.engines][-1] == "C"  # best (lowest) mean rank first


def test_head_to_head_by_hand():
    h2h = {(h.engine, h.opponent): (h.score, h.games)
           for h in compute_standings(four_games()).head_to_head}
    # A over B: g1 1, g2 0 (B first, A third), g3 1, g4 ½ (all share first)
    assert h2h["A", "B"] == (2.5, 4) and h2h["B", "A"] == (1.5, 4)
    assert h2h["A", "C"] == (2.5, 4)  # 1, 0, 1, ½
    assert h2h["B", "C"] == (2.5, 4)  # 1, ½ (shared first), ½ (shared second), ½
    assert h2h["C", "B"] == (1.5, 4)
    assert len(h2h) == 6


def test_seat_rows_by_hand():
    seats = {(s.players, s.seat): (s.games, s.mean_rank)
             for s in compute_standings(four_games()).seats}
    assert seats == {(3, 1): (4, 1.25), (3, 2): (4, 1.25), (3, 3): (4, 2.25)}


def test_rating_by_hand_for_one_game():
    """Weng-Lin Plackett-Luce, prior mu 25, sigma 25/3, beta 25/6, tau 0, A above B:
    c = sqrt(2 (sigma² + beta²)) = sqrt(2 (69.4444 + 17.3611)) = 13.176157;
    p = ½ for equal means; mu_A = 25 + sigma²/c · (1 − ½) = 25 + 2.635231 = 27.635231,
    mu_B = 22.364769; delta = (sigma/c) · sigma²/c² · p(1 − p) = .6324555 · .4 · .25
    = .0632456 for both; sigma' = 8.333333 · sqrt(1 − .0632456) = 8.065506."""
    st = compute_standings([record(["A", "B"], [1, 2])])
    rows = {e.name: e for e in st.engines}
    assert rows["A"].rating == pytest.approx(27.635231, abs=1e-6)
    assert rows["B"].rating == pytest.approx(22.364769, abs=1e-6)
    assert rows["A"].rating_sigma == pytest.approx(8.065506, abs=1e-6)
    assert rows["A"].rank_ci is None  # one deal: no interval


# Shared places (SPEC.md 9.5): Weng & Lin's Plackett-Luce update with Efron's rule, written
# out by hand at equal ratings (prior mu 25, sigma 25/3, beta 25/6, gamma = sigma/c, tau 0):
# every seat has the same strength, so each choice's probability p is the seat's weight over
# the pool's weights. A place shared by m seats is m choices, the j-th (j = 0 .. m-1) out of
# the seats below (weight 1) and the tied seats (weight 1 - j/m); g = (choices made) - sum p,
# h = sum p(1 - p); mu' = 25 + sigma²/c · g, sigma' = sigma · sqrt(1 - (sigma/c) sigma²/c² h).
TIES = [
    # ranks, g per seat, h per seat
    # 1,1,3,4: pools {abcd} p 1/4, {cd + ½ab} p_ab 1/6 p_cd 1/3, {cd} p 1/2, {d} p 1
    ([1, 1, 3, 4], [F(7, 12), F(7, 12), F(-1, 12), F(-13, 12)],
     [F(3, 16) + F(5, 36)] * 2 + [F(3, 16) + F(2, 9) + F(1, 4)] * 2),
    # 1,2,2,4: {abcd} 1/4, {bcd} 1/3, {d + ½bc} p_bc 1/4 p_d 1/2, {d} 1
    ([1, 2, 2, 4], [F(3, 4), F(1, 6), F(1, 6), F(-13, 12)],
     [F(3, 16), F(3, 16) + F(2, 9) + F(3, 16), F(3, 16) + F(2, 9) + F(3, 16),
      F(3, 16) + F(2, 9) + F(1, 4)]),
    # all four tied: pools of weight 4, 3, 2, 1, each seat p = 1/4 in each
    ([1, 1, 1, 1], [F(0)] * 4, [4 * F(3, 16)] * 4),
    # 1,1,3: {abc} 1/3, {c + ½ab} p_ab 1/4 p_c 1/2, {c} 1
    ([1, 1, 3], [F(5, 12), F(5, 12), F(-5, 6)], [F(2, 9) + F(3, 16)] * 2 + [F(2, 9) + F(1, 4)]),
    # 1,2,2: {abc} 1/3, {bc} 1/2, {½bc} 1/2
    ([1, 2, 2], [F(2, 3), F(-1, 3), F(-1, 3)], [F(2, 9), F(2, 9) + F(1, 2), F(2, 9) + F(1, 2)]),
    # all three tied: pools of weight 3, 2, 1, p = 1/3 in each
    ([1, 1, 1], [F(0)] * 3, [3 * F(2, 9)] * 3),
]


@pytest.mark.parametrize(("ranks", "g", "h"), TIES, ids=lambda v: str(v))
def test_shared_places_are_ties(ranks: list[int], g: list[F], h: list[F]) -> None:
    """Tied seats move alike, the seat below a tie moves less than the tied ones, and each
    rating is the hand-written update to 1e-9 (SPEC.md 9.5)."""
    assert sum(g) == 0
    names = "abcd"[:len(ranks)]
    rows = {e.name: e for e in compute_standings([record(list(names), ranks)]).engines}
    sigma, beta = 25 / 3, 25 / 6
    c = math.sqrt(len(ranks) * (sigma ** 2 + beta ** 2))
    for name, gi, hi in zip(names, g, h, strict=True):
        assert rows[name].rating == pytest.approx(25 + sigma ** 2 / c * float(gi), abs=1e-9)
        assert rows[name].rating_sigma == pytest.approx(
            sigma * math.sqrt(1 - sigma / c * sigma ** 2 / c ** 2 * float(hi)), abs=1e-9)
    for a, ra in zip(names, ranks, strict=True):
        for b, rb in zip(names, ranks, strict=True):
            if ra < rb:
                assert rows[a].rating > rows[b].rating
            elif ra == rb:
                assert rows[a].rating == rows[b].rating


def test_a_tie_moves_the_tied_means_by_the_mean_over_the_hidden_orders() -> None:
    """At equal ratings, a shared place moves each tied seat's mean by the mean of its moves
    over the orders the tie hides, each order rated without a tie (openskill's update)."""
    for ranks in ([1, 1, 3, 4], [1, 2, 2, 4], [1, 1, 1, 1], [1, 1, 3], [1, 2, 2], [1, 1, 1]):
        names = "abcd"[:len(ranks)]
        tied = compute_standings([record(list(names), ranks)]).engines
        orders = [p for p in itertools.permutations(range(len(ranks)))
                  if all(ranks[i] <= ranks[j] for i, j in itertools.pairwise(p))]
        mean = {n: 0.0 for n in names}
        for order in orders:
            place = {names[seat]: k + 1 for k, seat in enumerate(order)}
            strict = compute_standings([record(list(names), [place[n] for n in names])])
            for e in strict.engines:
                mean[e.name] += e.rating / len(orders)
        assert {e.name: round(e.rating, 9) for e in tied} == {
            n: round(m, 9) for n, m in mean.items()}


def test_without_a_shared_place_the_update_is_openskills() -> None:
    """plackett_luce, the update of a game with a shared place, is openskill's Plackett-Luce
    without one, at unequal ratings too: one model for every game."""
    model = PlackettLuce(tau=0.0)
    ratings = [(31.5, 6.2), (22.0, 8.1), (25.0, 3.3), (12.4, 7.7)]
    for ranks in ([2, 1], [3, 1, 2], [4, 2, 1, 3], [1, 2, 3, 4]):
        rs = ratings[:len(ranks)]
        lib = model.rate([[model.rating(mu=mu, sigma=s)] for mu, s in rs],
                         ranks=[float(r) for r in ranks])
        ours = plackett_luce(rs, ranks, model.beta, model.kappa)
        assert [(round(mu, 9), round(s, 9)) for mu, s in ours] == [
            (round(t[0].mu, 9), round(t[0].sigma, 9)) for t in lib]


def test_the_bug_report_tie() -> None:
    """Two of four seats share first: they rate alike (27.174), the third below (24.689),
    the fourth 20.963; openskill 6.2 alone gave 25.93, 25.93, 25.93, 22.20."""
    rows = {e.name: e for e in compute_standings([record(list("abcd"), [1, 1, 3, 4])]).engines}
    assert [round(rows[n].rating, 3) for n in "abcd"] == [27.174, 27.174, 24.689, 20.963]


def test_ratings_follow_results():
    recs = [record(["A", "B", "C"], [1, 2, 3], deal=d) for d in range(1, 6)]
    rows = compute_standings(recs).engines
    assert [r.name for r in rows] == ["A", "B", "C"]
    assert rows[0].rating > rows[1].rating > rows[2].rating
    assert all(r.rating_sigma < 25 / 3 for r in rows)


def test_mean_ci_needs_two_clusters():
    assert mean_ci([1, 2, 3], ["x", "x", "x"]) == (2.0, None)
    # three independent games 1, 2, 3: SE = sqrt(3/2 · (1 + 0 + 1)) / 3 = 1/√3 = sample sd/√n
    mean, half = mean_ci([1, 2, 3], [1, 2, 3])
    assert mean == 2 and half == pytest.approx(Z / 3 ** 0.5)


def test_unfinished_games_are_left_out():
    unfinished = GameRecord(header=Header(players=2))
    st = compute_standings([*four_games(), unfinished])
    assert (st.games, st.unfinished) == (4, 1)
    assert "(1 unfinished game left out)" in format_standings(st)


def solo_games() -> list[GameRecord]:
    """S wins with 40 and 30, then loses; T loses twice."""
    return [
        record(["S"], [1], deal=1, stones=[15], solo=SoloResult(True, 10, 40, "x")),
        record(["S"], [1], deal=2, stones=[14], solo=SoloResult(True, 12, 30, "y")),
        record(["S"], [2], deal=3, stones=[10], solo=SoloResult(False, 21)),
        record(["T"], [2], deal=1, stones=[8], solo=SoloResult(False, 21),
               faults=[Fault(1, "crash", "exit 1", 3)]),
        record(["T"], [2], deal=2, stones=[9], solo=SoloResult(False, 20)),
    ]


def test_solo_rows_by_hand():
    st = compute_standings(solo_games())
    assert st.engines == [] and st.head_to_head == []
    s, t = st.solo
    assert (s.name, s.games, s.wins, s.win_rate) == ("S", 3, 2, pytest.approx(2 / 3))
    # wins 1 1 0, three deals: SE = sqrt(3/2 · (1/9 + 1/9 + 4/9)) / 3 = 1/3
    assert s.win_ci == pytest.approx(Z / 3)
    assert (s.mean_score, s.mean_stones, s.mean_ptah) == (35.0, 13.0, pytest.approx(43 / 3))
    assert (t.name, t.wins, t.win_rate, t.mean_score, t.faults) == ("T", 0, 0.0, None,
                                                                     {"crash": 1})


def test_standings_of_real_games():
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b",
                                        "name=c command=c"], "seats": 3, "deals": 2,
                             "seed": 9})
    recs = [play(cfg, g, moves_seed=g.number) for g in Schedule.of(cfg).games]
    st = compute_standings(recs)
    assert st.games == 6 and sorted(e.name for e in st.engines) == ["a", "b", "c"]
    assert all(e.games == 6 and 1 <= e.mean_rank <= 3 for e in st.engines)
    assert sum(e.firsts for e in st.engines) == pytest.approx(1.0)
    assert sum(h.games for h in st.head_to_head) == 6 * 6


def test_json_export_round_trips():
    st = compute_standings([*four_games(), *solo_games()])
    data = json.loads(to_json(st))
    assert data["games"] == 9
    assert [e["name"] for e in data["engines"]] == [e.name for e in st.engines]
    a = next(e for e in data["engines"] if e["name"] == "A")
    assert a["mean_rank"] == 1.5 and a["faults"] == {"timeout": 1}
    assert {(h["engine"], h["opponent"]) for h in data["head_to_head"]} >= {("A", "B")}
    assert [s["name"] for s in data["solo"]] == ["S", "T"]
    assert data["solo"][1]["mean_score"] is None


def test_csv_export():
    rows = list(csv.DictReader(io.StringIO(to_csv(compute_standings(four_games())))))
    assert list(rows[0]) == ["engine", "games", "mean_rank", "rank_ci", "firsts",
                             "mean_stones", "mean_food", "rating", "rating_sigma", "faults"]
    a = next(r for r in rows if r["engine"] == "A")
    assert (a["games"], a["mean_rank"], a["faults"]) == ("4", "1.5", "timeout:1")
    assert float(a["rank_ci"]) == pytest.approx(Z * 0.5, rel=1e-5)
    solo = list(csv.DictReader(io.StringIO(to_csv(compute_standings(solo_games())))))
    assert solo[0]["engine"] == "S" and solo[0]["wins"] == "2"
    assert solo[1]["mean_score"] == "" and solo[1]["faults"] == "crash:1"


def test_text_table():
    text = format_standings(compute_standings([*four_games(), *solo_games()]))
    lines = text.splitlines()
    assert lines[0].split()[:6] == ["#", "engine", "games", "rank", "±95%", "first"]
    assert any(line.split()[1:5] == ["A", "4", "1.50", "0.98"] for line in lines)
    assert "head to head" in text and "62.5" in text  # A over B: 2.5 of 4
    assert any(line.split()[:5] == ["1", "S", "3", "2", "66.7%"] for line in lines)
    assert format_standings(compute_standings([])) == "no finished games\n"


def test_results_kept_small_give_the_same_standings():
    """A long run keeps a Results list, not records: the same standings, exactly (the
    floats too), from some 90 bytes a game."""
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b",
                                        "name=c command=c"], "seats": 3, "deals": 2,
                             "seed": 9})
    recs = [play(cfg, g, moves_seed=g.number) for g in Schedule.of(cfg).games]
    games = [*recs, *four_games(), *solo_games(),
             record(["A", "B"], [1, 2], deal=3)]
    games[-1].header.result = []  # an unfinished game
    results = Results()
    for g in games:
        results.append(g)
    assert len(results) == len(games)
    assert list(results) == [GameResult.of(g) for g in games]
    assert to_json(compute_standings(results)) == to_json(compute_standings(games))
    assert compute_standings(results).unfinished == 1
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    many = Results()
    for _ in range(2000):
        for g in recs:
            many.append(g)
    per_game = (tracemalloc.get_traced_memory()[0] - before) / len(many)
    tracemalloc.stop()
    assert per_game < 150, per_game  # a record: tens of kilobytes


def test_clusters_folded_in_game_order_give_the_same_intervals():
    """A tournament's games in number order fold each cluster when the next begins
    (flat memory); the intervals are those of clusters kept apart, and of the formula."""
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b",
                                        "name=c command=c", "name=d command=d"],
                             "seats": 3, "deals": 3, "seed": 2})
    recs = [play(cfg, g, moves_seed=g.number) for g in Schedule.of(cfg).games]
    numbered = compute_standings(reversed(recs))  # taken in game-number order
    for r in recs:
        r.header.round = None
    loose = compute_standings(recs)
    assert {e.name: (e.mean_rank, e.rank_ci) for e in numbered.engines} == {
        e.name: (e.mean_rank, e.rank_ci) for e in loose.engines}
    for e in numbered.engines:
        values, clusters = [], []
        for r in recs:
            for res in r.header.result:
                if r.header.seats[res.seat - 1].name == e.name:
                    values.append(res.rank)
                    clusters.append((r.header.extra["deal"],
                                     tuple(sorted(s.name for s in r.header.seats))))
        mean = sum(values) / len(values)
        sums: dict[object, list[float]] = {}
        for v, c in zip(values, clusters, strict=True):
            sums.setdefault(c, [0, 0])
            sums[c][0] += v
            sums[c][1] += 1
        g = len(sums)
        ss = sum((s - k * mean) ** 2 for s, k in sums.values())
        assert e.rank_ci == pytest.approx(Z * (g / (g - 1) * ss) ** 0.5 / len(values),
                                          rel=1e-12)


@pytest.fixture(scope="module")
def schedule_games() -> list[GameRecord]:
    """A tournament's games, numbered: 4 engines at 3 seats, 2 deals (24 games)."""
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b",
                                        "name=c command=c", "name=d command=d"],
                             "seats": 3, "deals": 2, "seed": 4})
    return [play(cfg, g, moves_seed=g.number) for g in Schedule.of(cfg).games]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(at_once=st.integers(1, 4), picks=st.lists(st.integers(0, 3), min_size=24,
                                                  max_size=24))
def test_running_standings_equal_the_standings_of_all_games(schedule_games, at_once, picks):
    """Games finishing in any order, ``at_once`` played at a time (each step the
    ``picks``-th of those being played finishes): after each, the standings kept up to
    date equal those of all the games finished, to the last float."""
    todo = list(range(1, len(schedule_games) + 1))
    running: list[int] = []
    rs = RunningStandings()
    for pick in picks:
        while todo and len(running) < at_once:
            running.append(todo.pop(0))
        number = running.pop(pick % len(running))
        rs.append(schedule_games[number - 1])
        rs.settle(min([*running, *todo[:1]], default=None))
        assert to_json(rs.standings()) == to_json(compute_standings(rs.results))
    assert rs.standings().games == len(schedule_games)


def test_running_standings_out_of_order_or_unnumbered_count_all_again(schedule_games):
    """A game numbered below one counted already (or without a number) is no harm: the
    standings are those of all the games."""
    rs = RunningStandings()
    for g in schedule_games[3:6]:
        rs.append(g)
    rs.settle(None)
    for g in [schedule_games[0], record(["a", "b", "c"], [1, 2, 3], deal=9)]:
        rs.append(g)
        assert to_json(rs.standings()) == to_json(compute_standings(rs.results))
