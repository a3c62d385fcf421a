"""Standings from game records alone: ranks, firsts, stones, food, faults, ratings,
head-to-head; win rates against Ptah for solo games. SPEC.md 9.5 has every formula.

Only finished games count (records with a result); the rest are counted as unfinished.
Games are taken in the order given (the record file's order) for the rating.
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from ..notation.picture import plural
from ..record.model import GameRecord
from .sprt import Z95


class EngineRow(msgspec.Struct, frozen=True):
    """One engine's line in a table of 2-4 seats. ``rank_ci`` is the half-width of the 95%
    interval of ``mean_rank`` (None with fewer than two deals); ``firsts`` the share of
    games won (a first place shared by k seats counts 1/k); ``rating`` and
    ``rating_sigma`` the openskill Plackett-Luce mu and sigma."""

    name: str
    games: int
    mean_rank: float
    rank_ci: float | None
    firsts: float
    mean_stones: float
    mean_food: float
    rating: float
    rating_sigma: float
    faults: dict[str, int]


class HeadToHead(msgspec.Struct, frozen=True):
    """How ``engine`` did against ``opponent`` at the same table: 1 per game it finished
    above, ½ per shared place, out of ``games``."""

    engine: str
    opponent: str
    score: float
    games: int


class SeatRow(msgspec.Struct, frozen=True):
    """The mean rank of seat ``seat`` at tables of ``players`` seats (the seat's luck)."""

    players: int
    seat: int
    games: int
    mean_rank: float


class SoloRow(msgspec.Struct, frozen=True):
    """One engine against Ptah: wins, win rate with the half-width of its 95% interval,
    the mean solo score of the games won (None without a win), mean stones and mean
    stones of Ptah."""

    name: str
    games: int
    wins: int
    win_rate: float
    win_ci: float | None
    mean_score: float | None
    mean_stones: float
    mean_ptah: float
    faults: dict[str, int]


class Standings(msgspec.Struct, frozen=True):
    """Everything :func:`standings` computes; ``engines`` best first (lowest mean rank)."""

    games: int
    unfinished: int
    engines: list[EngineRow]
    head_to_head: list[HeadToHead]
    seats: list[SeatRow]
    solo: list[SoloRow]


def mean_ci(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[float, float | None]:
    """The mean of ``values`` and the half-width of its 95% interval, with the games of
    one cluster (one deal at one table) taken as one observation: the standard error is
    the cluster-robust sqrt(G / (G − 1) · Σ_g (S_g − n_g · mean)²) / N for G clusters of
    n_g values summing to S_g, N values in all. None when G < 2."""
    n = len(values)
    mean = sum(values) / n
    sums: dict[Hashable, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for v, c in zip(values, clusters, strict=True):
        sums[c][0] += v
        sums[c][1] += 1
    g = len(sums)
    if g < 2:
        return mean, None
    ss = sum((s - k * mean) ** 2 for s, k in sums.values())
    return mean, Z95 * math.sqrt(g / (g - 1) * ss) / n


def _deal_key(index: int, rec: GameRecord) -> Hashable:
    """The cluster of a game: its deal (or seed) with its engines; else the game alone."""
    h = rec.header
    deal = h.extra.get("deal") or (str(h.seed) if h.seed is not None else None)
    if deal is None:
        return index
    return deal, tuple(sorted(s.name for s in h.seats))


def compute_standings(records: Iterable[GameRecord]) -> Standings:
    """The standings of these games, taken in the order given, or in game-number order
    when every game has one (its ``round`` tag is a number)."""
    finished: list[tuple[int, GameRecord]] = []
    unfinished = 0
    for i, rec in enumerate(records):
        if rec.header.result:
            finished.append((i, rec))
        else:
            unfinished += 1
    if all((r.header.round or "").isdigit() for _, r in finished):
        # Tournament games in game-number order: the same standings (the rating, the
        # sums) whichever games of a concurrent run finished first.
        finished.sort(key=lambda g: int(g[1].header.round or 0))
    multi = [(i, r) for i, r in finished if r.header.players >= 2]
    solo = [(i, r) for i, r in finished if r.header.players == 1]
    return Standings(len(finished), unfinished, _engine_rows(multi), _head_to_head(multi),
                     _seat_rows(multi), _solo_rows(solo))


def _names(rec: GameRecord) -> dict[int, str]:
    return {s.seat: s.name for s in rec.header.seats}


def _faults(games: list[tuple[int, GameRecord]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for _, rec in games:
        names = _names(rec)
        for f in rec.header.faults:
            kinds = out[names.get(f.seat, f"seat {f.seat}")]
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
    return out


def _engine_rows(games: list[tuple[int, GameRecord]]) -> list[EngineRow]:
    ranks: dict[str, list[float]] = defaultdict(list)
    clusters: dict[str, list[Hashable]] = defaultdict(list)
    firsts: dict[str, float] = defaultdict(float)
    stones: dict[str, int] = defaultdict(int)
    food: dict[str, int] = defaultdict(int)
    for i, rec in games:
        names = _names(rec)
        key = _deal_key(i, rec)
        shared = sum(1 for r in rec.header.result if r.rank == 1)
        for r in rec.header.result:
            name = names[r.seat]
            ranks[name].append(r.rank)
            clusters[name].append(key)
            stones[name] += r.stones
            food[name] += r.food
            if r.rank == 1:
                firsts[name] += 1 / shared
    ratings = _ratings(games)
    faults = _faults(games)
    rows = []
    for name, rs in ranks.items():
        n = len(rs)
        mean, ci = mean_ci(rs, clusters[name])
        mu, sigma = ratings.get(name, (math.nan, math.nan))
        rows.append(EngineRow(name, n, mean, ci, firsts[name] / n, stones[name] / n,
                              food[name] / n, mu, sigma, dict(sorted(faults[name].items()))))
    rows.sort(key=lambda r: (r.mean_rank, -r.rating, r.name))
    return rows


def _ratings(games: list[tuple[int, GameRecord]]) -> dict[str, tuple[float, float]]:
    """openskill Plackett-Luce, default prior, tau = 0, one update per game in order.
    Games with the same engine in two seats are left out (no one to compare with)."""
    model = PlackettLuce(tau=0.0)
    current: dict[str, PlackettLuceRating] = {}
    for _, rec in games:
        names = _names(rec)
        seats = [(names[r.seat], r.rank) for r in rec.header.result]
        if len({n for n, _ in seats}) != len(seats):
            continue
        teams = [[current.setdefault(n, model.rating(name=n))] for n, _ in seats]
        new = model.rate(teams, ranks=[float(rank) for _, rank in seats])
        for (n, _), team in zip(seats, new, strict=True):
            current[n] = team[0]
    return {n: (r.mu, r.sigma) for n, r in current.items()}


def _head_to_head(games: list[tuple[int, GameRecord]]) -> list[HeadToHead]:
    score: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for _, rec in games:
        names = _names(rec)
        res = [(names[r.seat], r.rank) for r in rec.header.result]
        for a, ra in res:
            for b, rb in res:
                if a == b:
                    continue
                count[a, b] += 1
                score[a, b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return [HeadToHead(a, b, score[a, b], n) for (a, b), n in sorted(count.items())]


def _seat_rows(games: list[tuple[int, GameRecord]]) -> list[SeatRow]:
    ranks: dict[tuple[int, int], list[int]] = defaultdict(list)
    for _, rec in games:
        for r in rec.header.result:
            ranks[rec.header.players, r.seat].append(r.rank)
    return [SeatRow(p, s, len(v), sum(v) / len(v)) for (p, s), v in sorted(ranks.items())]


def _solo_rows(games: list[tuple[int, GameRecord]]) -> list[SoloRow]:
    won: dict[str, list[float]] = defaultdict(list)
    clusters: dict[str, list[Hashable]] = defaultdict(list)
    scores: dict[str, list[int]] = defaultdict(list)
    stones: dict[str, int] = defaultdict(int)
    ptah: dict[str, int] = defaultdict(int)
    for i, rec in games:
        h = rec.header
        name = _names(rec)[h.result[0].seat]
        win = h.solo.won if h.solo is not None else h.result[0].rank == 1
        won[name].append(1.0 if win else 0.0)
        clusters[name].append(i)
        stones[name] += h.result[0].stones
        if h.solo is not None:
            ptah[name] += h.solo.ptah
            if win and h.solo.score is not None:
                scores[name].append(h.solo.score)
    faults = _faults(games)
    rows = []
    for name, w in won.items():
        n = len(w)
        rate, ci = mean_ci(w, clusters[name])
        s = scores[name]
        rows.append(SoloRow(name, n, int(sum(w)), rate, ci, sum(s) / len(s) if s else None,
                            stones[name] / n, ptah[name] / n,
                            dict(sorted(faults[name].items()))))
    rows.sort(key=lambda r: (-r.win_rate, -(r.mean_score or 0), r.name))
    return rows


# ----------------------------------------------------------------- output


def to_json(st: Standings) -> str:
    """The standings as indented JSON (the structs' fields, in order)."""
    return msgspec.json.format(msgspec.json.encode(st), indent=2).decode() + "\n"


ENGINE_COLUMNS = ["engine", "games", "mean_rank", "rank_ci", "firsts", "mean_stones",
                  "mean_food", "rating", "rating_sigma", "faults"]
SOLO_COLUMNS = ["engine", "games", "wins", "win_rate", "win_ci", "mean_score",
                "mean_stones", "mean_ptah", "faults"]


def to_csv(st: Standings) -> str:
    """The standings table as CSV with a header line: the table of 2-4 seats when there
    are such games, else the solo table. Empty cell for none; faults as ``kind:n`` joined
    by ``;``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if st.engines or not st.solo:
        w.writerow(ENGINE_COLUMNS)
        for e in st.engines:
            w.writerow([e.name, e.games, _num(e.mean_rank), _num(e.rank_ci), _num(e.firsts),
                        _num(e.mean_stones), _num(e.mean_food), _num(e.rating),
                        _num(e.rating_sigma), _faults_text(e.faults)])
    else:
        w.writerow(SOLO_COLUMNS)
        for s in st.solo:
            w.writerow([s.name, s.games, s.wins, _num(s.win_rate), _num(s.win_ci),
                        _num(s.mean_score), _num(s.mean_stones), _num(s.mean_ptah),
                        _faults_text(s.faults)])
    return out.getvalue()


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.6g}"


def _faults_text(faults: dict[str, int]) -> str:
    return ";".join(f"{k}:{n}" for k, n in faults.items())


def format_standings(st: Standings) -> str:
    """The standings as a text table (and the head-to-head matrix) for a terminal."""
    lines: list[str] = []
    if st.engines:
        rows = [["#", "engine", "games", "rank", "±95%", "first", "stones", "food",
                 "rating", "faults"]]
        for k, e in enumerate(st.engines, start=1):
            rows.append([str(k), e.name, str(e.games), f"{e.mean_rank:.2f}",
                         "-" if e.rank_ci is None else f"{e.rank_ci:.2f}",
                         f"{100 * e.firsts:.1f}%", f"{e.mean_stones:.1f}",
                         f"{e.mean_food:.1f}", f"{e.rating:.1f} ± {2 * e.rating_sigma:.1f}",
                         " ".join(f"{k}:{n}" for k, n in e.faults.items()) or "-"])
        lines += _table(rows, left={1, 9})
        lines += ["", "head to head (row's score against column, % of games at one table):"]
        names = [e.name for e in st.engines]
        cell = {(h.engine, h.opponent): h for h in st.head_to_head}
        matrix = [["", *names]]
        for a in names:
            matrix.append([a] + [f"{100 * cell[a, b].score / cell[a, b].games:.1f}"
                                 if (a, b) in cell else "-" for b in names])
        lines += _table(matrix, left={0})
    if st.solo:
        if lines:
            lines.append("")
        rows = [["#", "engine", "games", "wins", "win rate", "±95%", "score", "stones",
                 "Ptah"]]
        for k, s in enumerate(st.solo, start=1):
            rows.append([str(k), s.name, str(s.games), str(s.wins),
                         f"{100 * s.win_rate:.1f}%",
                         "-" if s.win_ci is None else f"{100 * s.win_ci:.1f}%",
                         "-" if s.mean_score is None else f"{s.mean_score:.1f}",
                         f"{s.mean_stones:.1f}", f"{s.mean_ptah:.1f}"])
        lines += _table(rows, left={1})
    if not lines:
        lines.append("no finished games")
    if st.unfinished:
        lines.append(f"({plural(st.unfinished, 'unfinished game')} left out)")
    return "\n".join(lines) + "\n"


def _table(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i in left else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]
