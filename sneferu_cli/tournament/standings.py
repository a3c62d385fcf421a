"""Standings from game records alone: ranks, firsts, the means of the game's scores
(Sneferu: stones, food; Imhotep: points, sled), faults, ratings, head-to-head; win rates
against Ptah for solo games. SPEC.md 9.5 has every formula.

Only finished games count (records with a result); the rest are counted as unfinished.
Games are taken in the order given (the record file's order) for the rating. A record or
its :class:`GameResult` (what the standings read of it, a few dozen bytes in a
:class:`Results` list) give the same standings: a long tournament keeps only those.
"""

from __future__ import annotations

import array
import copy
import csv
import io
import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from fractions import Fraction
from importlib.metadata import version
from typing import TypeVar

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

from ..game import DEFAULT_GAME, SoloResult, UnknownGame, get_game
from ..record.model import USAGE, GameRecord, Header, Seat, SeatResult, usage_of
from ..words import plural
from .fit import FIT_MODEL, Fit, fit_ratings
from .sprt import Z95


class GameResult(msgspec.Struct, frozen=True, array_like=True):
    """What the standings read of one game record: its ``round`` tag, number of seats,
    cluster (its ``extra["deal"]``, else its seed as text, else None), the engine name of
    each seat (by seat number), the result and solo score, the faults as (seat, kind), and
    the game's name.
    """

    round: str | None
    players: int
    deal: str | None
    names: dict[int, str]
    result: list[SeatResult]
    solo: SoloResult | None
    faults: list[tuple[int, str]]
    game: str = DEFAULT_GAME
    usage: list[tuple[int, float, int]] = []
    """The resource usage of the seats measured (SPEC.md 7.10): (seat, CPU seconds, peak
    memory KiB)."""

    @classmethod
    def of(cls, rec: GameRecord) -> GameResult:
        """The result of a record."""
        h = rec.header
        deal = h.extra.get("deal") or (str(h.seed) if h.seed is not None else None)
        usage = []
        for key, value in h.extra.items():
            seat, used = key.removeprefix(USAGE), usage_of(value)
            if key.startswith(USAGE) and seat.isdigit() and used is not None:
                usage.append((int(seat), *used))
        return cls(h.round, h.players, deal, {s.seat: s.name for s in sorted(h.seats, key=_seat)},
                   list(h.result), _solo(h), [(f.seat, f.kind) for f in h.faults], h.game,
                   usage)


def _solo(h: Header) -> SoloResult | None:
    """The solo result a header's own result tags hold (its game's ``RecordTags``)."""
    if not h.result_tags:
        return None
    try:
        tags = get_game(h.game).record_tags()
    except UnknownGame:
        return None
    return None if tags is None else tags.solo_of(h.result_tags)


class Results:
    """A list of :class:`GameResult` kept small: all in one buffer, each as a MessagePack
    array with the engine names, game names and score names as numbers (some 90 bytes a
    game with its number, where its record takes tens of kilobytes): a tournament of
    100,000 games keeps about 9 MB."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._ends = array.array("Q")
        self._rounds = array.array("q")  # the game number, or -1 (no number)
        self._finished = bytearray()  # 1 for a game with a result
        self._names: list[str] = []
        self._index: dict[str, int] = {}
        self._games: list[str] = []
        self._game_index: dict[str, int] = {}
        self._keys: list[tuple[str, ...]] = []
        self._keys_index: dict[tuple[str, ...], int] = {}

    @classmethod
    def of(cls, games: Iterable[GameRecord | GameResult]) -> Results:
        """These games' results."""
        out = cls()
        for g in games:
            out.append(g)
        return out

    def append(self, game: GameRecord | GameResult) -> None:
        """Add a game at the end."""
        r = game if isinstance(game, GameResult) else GameResult.of(game)
        seats = [(s.seat, self._number(r.names[s.seat]) if s.seat in r.names else -1,
                  s.rank, s.retired, *self._scores(s)) for s in r.result]
        others = [(seat, self._number(name)) for seat, name in r.names.items()
                  if all(s.seat != seat for s in r.result)]
        solo = None if r.solo is None else tuple(r.solo)
        game_no = _intern(self._games, self._game_index, r.game)
        _encoder.encode_into((r.round, r.players, r.deal, seats, others, solo, r.faults,
                              game_no, r.usage), self._buffer, -1)
        self._ends.append(len(self._buffer))
        number = r.round or ""
        numbered = number.isascii() and number.isdigit() and len(number) < 19
        self._rounds.append(int(number) if numbered else -1)
        self._finished.append(1 if r.result else 0)

    def _number(self, name: str) -> int:
        return _intern(self._names, self._index, name)

    def _scores(self, s: SeatResult) -> tuple[int, ...]:
        """A seat's ``scores`` (another game's than Sneferu) as the number of its names
        and its values; nothing when it has none."""
        if not s.scores:
            return ()
        return (_intern(self._keys, self._keys_index, tuple(s.scores)), *s.scores.values())

    def order(self) -> tuple[list[int], bool]:
        """The finished games (their indexes) in the order the standings take them: by
        game number when every one has a number (then True), else as added."""
        finished = [i for i, done in enumerate(self._finished) if done]
        rounds = self._rounds
        if all(rounds[i] >= 0 for i in finished):
            finished.sort(key=rounds.__getitem__)
            return finished, True
        return finished, False

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, index: int) -> GameResult:
        start = self._ends[index - 1] if index else 0
        rnd, players, deal, seats, others, solo, faults, game_no, usage = _decoder.decode(
            self._buffer[start:self._ends[index]])
        names = self._names
        by_seat = {seat: names[n] for seat, n, *_ in seats if n >= 0}
        by_seat.update((seat, names[n]) for seat, n in others)
        return GameResult(rnd, players, deal, dict(sorted(by_seat.items())),
                          [SeatResult(seat, rank, retired, self._scores_of(scores))
                           for seat, _, rank, retired, *scores in seats],
                          None if solo is None else SoloResult(*solo),
                          [(seat, kind) for seat, kind in faults], self._games[game_no],
                          [(seat, cpu, peak) for seat, cpu, peak in usage])

    def _scores_of(self, packed: list[int]) -> dict[str, int]:
        """The ``scores`` :meth:`_scores` packed."""
        if not packed:
            return {}
        return dict(zip(self._keys[packed[0]], packed[1:], strict=True))

    def __iter__(self) -> Iterator[GameResult]:
        return (self[i] for i in range(len(self)))


def _seat(s: Seat) -> int:
    return s.seat


_T = TypeVar("_T", bound=Hashable)


def _intern(table: list[_T], index: dict[_T, int], value: _T) -> int:
    """The number of ``value`` in ``table`` (added at its end when new)."""
    n = index.get(value)
    if n is None:
        n = index[value] = len(table)
        table.append(value)
    return n


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder()


class EngineRow(msgspec.Struct, frozen=True, omit_defaults=True):
    """One engine's line in a table of 2-4 seats. ``rank_ci`` is the half-width of the 95%
    interval of ``mean_rank`` (None with fewer than two deals); ``firsts`` the share of
    games won (a first place shared by k seats counts 1/k); ``means`` the mean of each of
    the game's scores by name (:attr:`Standings.score_keys`, in order); ``rating`` and
    ``rating_sigma`` the Plackett-Luce mu and sigma (:data:`RATING_MODEL`)."""

    name: str
    games: int
    mean_rank: float
    rank_ci: float | None
    firsts: float
    means: dict[str, float]
    rating: float
    rating_sigma: float
    faults: dict[str, int]
    measured: int = 0
    """The games whose resource usage was recorded (an engine in a sandbox, SPEC.md 7.10);
    ``cpu``: the mean CPU seconds of those games, ``peak``: the largest peak memory (KiB)."""
    cpu: float | None = None
    peak: int | None = None

    @property
    def mean_stones(self) -> float:
        """Sneferu's mean stones."""
        return self.means["stones"]

    @property
    def mean_food(self) -> float:
        """Sneferu's mean food."""
        return self.means["food"]


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
    """Everything :func:`standings` computes; ``engines`` best first (lowest mean rank).
    ``score_keys``: the names of the scores the engines' ``means`` hold, the game's
    :attr:`~sneferu_cli.game.Game.score_keys` (Sneferu's without games)."""

    games: int
    unfinished: int
    engines: list[EngineRow]
    head_to_head: list[HeadToHead]
    seats: list[SeatRow]
    solo: list[SoloRow]
    score_keys: tuple[str, ...] = ()
    fit: Fit | None = None
    """The batch fit (:func:`with_fit`), when asked for."""


class ClusterMean:
    """The mean of values added one at a time, and the half-width of its 95% interval
    with the values of one cluster (one deal at one table) taken as one observation: the
    cluster-robust SE = sqrt(G / (G − 1) · Σ_g (S_g − n_g · mean)²) / N for G clusters of
    n_g values summing to S_g, N values in all (None when G < 2). The sums are exact
    (ranks and wins are integers; a float is taken exactly).

    With ``consecutive``, the values of a cluster are added one after another (a
    tournament's games in number order, SPEC.md 9.4): a cluster is folded into three
    sums when the next begins, so the memory does not grow with the games."""

    def __init__(self, consecutive: bool = False) -> None:
        self.consecutive = consecutive
        self.n = 0
        self.total: Fraction | int = 0
        self._open: dict[Hashable, list[Fraction | int]] = {}
        self._last: Hashable = None
        self._g = 0
        self._s2: Fraction | int = 0  # Σ S_g²
        self._sn: Fraction | int = 0  # Σ S_g n_g
        self._n2 = 0  # Σ n_g²

    def add(self, value: float, cluster: Hashable) -> None:
        """One value of ``cluster``."""
        v = Fraction(value) if isinstance(value, float) else value
        self.n += 1
        self.total += v
        if self.consecutive and self._open and cluster != self._last:
            self._fold(*self._open.pop(self._last))
        self._last = cluster
        sums = self._open.setdefault(cluster, [0, 0])
        sums[0] += v
        sums[1] += 1

    def _fold(self, s: Fraction | int, k: Fraction | int) -> None:
        self._g += 1
        self._s2 += s * s
        self._sn += s * k
        self._n2 += int(k * k)

    def result(self) -> tuple[float, float | None]:
        """The mean and the half-width of its 95% interval (None with fewer than two
        clusters). More values may be added after."""
        g, s2, sn, n2 = self._g, self._s2, self._sn, self._n2
        for s, k in self._open.values():  # the clusters still open, folded here only
            g += 1
            s2 += s * s
            sn += s * k
            n2 += int(k * k)
        n, t = self.n, self.total
        mean = float(Fraction(t) / n)
        if g < 2:
            return mean, None
        ss = Fraction(n * n * s2 - 2 * n * t * sn + t * t * n2, n * n)
        return mean, Z95 * math.sqrt(g / (g - 1) * float(ss)) / n


def mean_ci(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[float, float | None]:
    """The mean of ``values`` and the half-width of its 95% interval, each value in its
    cluster (see :class:`ClusterMean`)."""
    acc = ClusterMean()
    for v, c in zip(values, clusters, strict=True):
        acc.add(v, c)
    return acc.result()


def compute_standings(records: Iterable[GameRecord | GameResult]) -> Standings:
    """The standings of these games (records, or their results), taken in the order
    given, or in game-number order when every game has one (its ``round`` is a number):
    so the standings of a tournament do not depend on which of its concurrent games
    finished first. Reads one game at a time from a :class:`Results`."""
    games = records if isinstance(records, Results) else Results.of(records)
    order, numbered = games.order()
    tally = _Tally(numbered)
    for i in order:
        tally.add(i, games[i])
    return tally.standings(len(order), len(games) - len(order),
                           games[0].game if len(games) else DEFAULT_GAME)


class RunningStandings:
    """The standings of games that keep coming (a tournament's, as they finish), each game
    counted once rather than all of them again whenever the standings are asked for;
    always equal to :func:`compute_standings` of :attr:`results`.

    A tournament's games count in number order. A finished game waits until no game
    numbered below it can come any more (:meth:`settle`); the games waiting (with several
    games played at once, a few) are counted again, on a copy, each time the standings are
    asked for. A game without a number, or numbered below one counted already, makes it
    count every game again, as :func:`compute_standings` does.
    """

    def __init__(self) -> None:
        self.results = Results()
        self._tally = _Tally(True)
        self._counted = 0
        self._last = -1  # the number of the last game counted
        self._waiting: dict[int, int] = {}  # a game's number: its index in results
        self._unfinished = 0
        self._in_order = True

    def append(self, game: GameRecord | GameResult) -> None:
        """Add a game at the end of :attr:`results`."""
        index = len(self.results)
        self.results.append(game)
        r = self.results[index]
        if not r.result:
            self._unfinished += 1
            return
        number = r.round or ""
        if not (number.isascii() and number.isdigit() and len(number) < 19):
            self._in_order = False
            return
        n = int(number)
        if n <= self._last or n in self._waiting:
            self._in_order = False
        self._waiting[n] = index

    def settle(self, below: int | None) -> None:
        """Count the games waiting that are numbered below ``below`` (None: all of them):
        no game numbered below it will be added."""
        if not self._in_order:
            return
        for n in sorted(n for n in self._waiting if below is None or n < below):
            index = self._waiting.pop(n)
            self._tally.add(index, self.results[index])
            self._counted += 1
            self._last = n

    def standings(self) -> Standings:
        """The standings of :attr:`results`."""
        results = self.results
        if not self._in_order:
            return compute_standings(results)
        tally = self._tally
        if self._waiting:
            tally.rate_pending()  # the games counted, not again on each copy
            tally = copy.deepcopy(tally)
            for n in sorted(self._waiting):
                tally.add(self._waiting[n], results[self._waiting[n]])
        return tally.standings(self._counted + len(self._waiting), self._unfinished,
                               results[0].game if len(results) else DEFAULT_GAME)


def with_fit(st: Standings, games: Iterable[GameRecord | GameResult],
             anchors: dict[str, float] | None = None, provisional: int | None = None
             ) -> Standings:
    """``st`` with the batch fit (:func:`~sneferu_cli.tournament.fit.fit_ratings`) of
    ``games``' tables of 2-4 seats, in any order, ``anchors`` held at their ratings."""
    seats = []
    for g in games:
        r = g if isinstance(g, GameResult) else GameResult.of(g)
        if r.players >= 2 and r.result:
            seats.append([(r.names[s.seat], s.rank) for s in r.result])
    options = {} if provisional is None else {"provisional": provisional}
    return msgspec.structs.replace(st, fit=fit_ratings(seats, anchors, **options))


class _Engine:
    """What the standings add up for one engine."""

    def __init__(self, consecutive: bool) -> None:
        self.ranks = ClusterMean(consecutive)
        self.firsts = 0.0
        self.totals: dict[str, int] = {}  # the sum of each score over its games
        self.faults: dict[str, int] = {}
        self.wins = ClusterMean(True)  # solo: each game its own cluster
        self.scores = [0, 0]  # solo: sum and number of the scores of the games won
        self.ptah = 0
        self.usage = [0, 0.0, 0]  # games measured, CPU seconds, largest peak KiB


class _Tally:
    """The standings of games added one at a time (in the order they count)."""

    def __init__(self, consecutive: bool) -> None:
        self.consecutive = consecutive
        self.multi: dict[str, _Engine] = {}
        self.solo: dict[str, _Engine] = {}
        self.model = PlackettLuce(tau=0.0)
        self.ratings: dict[str, PlackettLuceRating] = {}
        self._unrated: list[list[tuple[str, int]]] = []
        """The games whose rating updates are still to make, in order (:meth:`_rate`)."""
        self.score: dict[tuple[str, str], float] = defaultdict(float)
        self.met: dict[tuple[str, str], int] = defaultdict(int)
        self.seats: dict[tuple[int, int], list[int]] = {}
        self._tables: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.keys: dict[str, None] = {}  # the score names met, in order
        self._game_keys: dict[str, tuple[str, ...]] = {}

    def _engine(self, table: dict[str, _Engine], name: str) -> _Engine:
        e = table.get(name)
        if e is None:
            e = table[name] = _Engine(self.consecutive)
        return e

    def add(self, index: int, rec: GameResult) -> None:
        """Count one finished game (``index``: its place in the input)."""
        names = rec.names
        table = self.solo if rec.players == 1 else self.multi
        for seat, kind in rec.faults:
            faults = self._engine(table, names.get(seat, f"seat {seat}")).faults
            faults[kind] = faults.get(kind, 0) + 1
        for seat, cpu, peak in rec.usage:
            used = self._engine(table, names.get(seat, f"seat {seat}")).usage
            used[0] += 1
            used[1] += cpu
            used[2] = max(used[2], peak)
        self._keys(rec)
        if rec.players == 1:
            self._solo(index, rec)
            return
        key = self._cluster(index, rec)
        shared = sum(1 for r in rec.result if r.rank == 1)
        for r in rec.result:
            e = self._engine(table, names[r.seat])
            e.ranks.add(r.rank, key)
            _add_scores(e.totals, r)
            if r.rank == 1:
                e.firsts += 1 / shared
            place = self.seats.setdefault((rec.players, r.seat), [0, 0])
            place[0] += r.rank
            place[1] += 1
        res = [(names[r.seat], r.rank) for r in rec.result]
        for a, ra in res:
            for b, rb in res:
                if a != b:
                    self.met[a, b] += 1
                    self.score[a, b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
        if len({n for n, _ in res}) == len(res):  # else no one to compare with
            self._rate(res)

    def _keys(self, rec: GameResult) -> None:
        """Add the names of the scores of ``rec``'s game to the names met."""
        if rec.game not in self._game_keys:
            keys = self._game_keys[rec.game] = _score_keys(rec.game, rec.result)
            self.keys.update(dict.fromkeys(keys))

    def _cluster(self, index: int, rec: GameResult) -> Hashable:
        """The cluster of a game: its deal (or seed) with its engines; else the game
        alone."""
        if rec.deal is None:
            return index
        engines = tuple(sorted(rec.names.values()))
        return rec.deal, self._tables.setdefault(engines, engines)

    def _rate(self, res: list[tuple[str, int]]) -> None:
        """Note a game's rating update (:meth:`rate_pending` makes it when the standings are
        asked: the same updates in the same order, not one per game as games finish: a
        tournament's coordinator asks for standings a few times a minute)."""
        self._unrated.append(res)

    def rate_pending(self) -> None:
        """Plackett-Luce, default prior, tau = 0, one update per game, in order: openskill's
        for a game without a shared place, :func:`plackett_luce` (Efron's rule) for one
        with (SPEC.md 9.5)."""
        model, current = self.model, self.ratings
        for res in self._unrated:
            before = [current.setdefault(n, model.rating(name=n)) for n, _ in res]
            ranks = [rank for _, rank in res]
            if len(set(ranks)) == len(ranks):
                new = [team[0] for team in model.rate([[r] for r in before],
                                                      ranks=[float(r) for r in ranks])]
            else:
                new = [model.rating(mu=mu, sigma=sigma, name=n) for (n, _), (mu, sigma)
                       in zip(res, plackett_luce([(r.mu, r.sigma) for r in before], ranks,
                                                 model.beta, model.kappa), strict=True)]
            for (n, _), rating in zip(res, new, strict=True):
                current[n] = rating
        self._unrated.clear()

    def _solo(self, index: int, h: GameResult) -> None:
        e = self._engine(self.solo, h.names[h.result[0].seat])
        win = h.solo.won if h.solo is not None else h.result[0].rank == 1
        e.wins.add(1 if win else 0, index)
        _add_scores(e.totals, h.result[0])
        if h.solo is not None:
            e.ptah += h.solo.against
            if win and h.solo.score is not None:
                e.scores[0] += h.solo.score
                e.scores[1] += 1

    def standings(self, finished: int, unfinished: int, game: str) -> Standings:
        """The standings of the games added (``finished`` of them; ``unfinished`` left
        out); without any, the score names are those of ``game``."""
        self.rate_pending()
        rows = [self._row(name, e) for name, e in self.multi.items() if e.ranks.n]
        rows.sort(key=lambda r: (r.mean_rank, -r.rating, r.name))
        h2h = [HeadToHead(a, b, self.score[a, b], n) for (a, b), n in sorted(self.met.items())]
        seats = [SeatRow(p, s, k, total / k) for (p, s), (total, k) in sorted(self.seats.items())]
        solo = [self._solo_row(name, e) for name, e in self.solo.items() if e.wins.n]
        solo.sort(key=lambda r: (-r.win_rate, -(r.mean_score or 0), r.name))
        return Standings(finished, unfinished, rows, h2h, seats, solo,
                         tuple(self.keys) or _score_keys(game, []))

    def _row(self, name: str, e: _Engine) -> EngineRow:
        n = e.ranks.n
        mean, ci = e.ranks.result()
        rating = self.ratings.get(name)
        mu, sigma = (rating.mu, rating.sigma) if rating else (math.nan, math.nan)
        means = {k: e.totals.get(k, 0) / n for k in self.keys}
        measured, cpu, peak = e.usage
        return EngineRow(name, n, mean, ci, e.firsts / n, means, mu, sigma,
                         dict(sorted(e.faults.items())), int(measured),
                         cpu / measured if measured else None,
                         int(peak) if measured else None)

    @staticmethod
    def _solo_row(name: str, e: _Engine) -> SoloRow:
        n = e.wins.n
        rate, ci = e.wins.result()
        total, k = e.scores
        return SoloRow(name, n, int(e.wins.total), rate, ci, total / k if k else None,
                       e.totals.get("stones", 0) / n, e.ptah / n, dict(sorted(e.faults.items())))


RATING_LIBRARY = f"openskill {version('openskill')}"
"""The rating library and its version (pyproject.toml pins it: the same records give the
same ratings on every install)."""

RATING_MODEL = "Plackett-Luce (Weng-Lin), shared places by Efron's rule"
"""The rating model, as the standings name it."""


def plackett_luce(ratings: Sequence[tuple[float, float]], ranks: Sequence[int], beta: float,
                  kappa: float) -> list[tuple[float, float]]:
    """The (mu, sigma) of each seat after one game: Weng & Lin's (2011, Algorithm 4)
    Plackett-Luce update, each seat its own team, gamma = sigma / c, tau = 0, with shared
    places by Efron's rule (SPEC.md 9.5). Without a shared place this is openskill's
    update. openskill 6.2 counts a shared place as the paper does (each of the m tied
    seats' choice to the power 1/m, all out of the same pool), which drops the tied seats'
    wins over the seats below: at equal ratings the seat below a tie for first moves as
    much as the winners; openskill 6.0-6.1 ignore shared places altogether.

    Efron's rule: the m seats sharing a place leave the pool one after the other, the j-th
    (j = 0 .. m - 1) chosen out of the seats below plus the tied seats weighted 1 - j/m.
    At equal ratings a tied seat's mean moves by the mean of its moves over the orders the
    tie hides."""
    c = math.sqrt(sum(sigma * sigma + beta * beta for _, sigma in ratings))
    strength = [math.exp(mu / c) for mu, _ in ratings]
    grad = [0.0] * len(ratings)  # d log-likelihood / d (mu/c)
    curve = [0.0] * len(ratings)  # - d² log-likelihood / d (mu/c)²
    for place in sorted(set(ranks)):
        tied = [i for i, r in enumerate(ranks) if r == place]
        below = [i for i, r in enumerate(ranks) if r > place]
        tied_sum = sum(strength[i] for i in tied)
        below_sum = sum(strength[i] for i in below)
        for j in range(len(tied)):
            w = 1 - j / len(tied)
            pool = below_sum + w * tied_sum
            for i in tied + below:
                p = (w if i in tied else 1.0) * strength[i] / pool
                grad[i] -= p
                curve[i] += p * (1 - p)
        for i in tied:
            grad[i] += 1
    out = []
    for (mu, sigma), g, h in zip(ratings, grad, curve, strict=True):
        var = sigma * sigma
        delta = (sigma / c) * var / (c * c) * h
        out.append((mu + var / c * g, sigma * math.sqrt(max(1 - delta, kappa))))
    return out


def _score_keys(game: str, result: Sequence[SeatResult]) -> tuple[str, ...]:
    """The names of the scores of ``game``: its ``score_keys``; for a game not registered,
    those of its first result (none without one)."""
    try:
        return get_game(game).score_keys
    except UnknownGame:
        return tuple(k for k, _ in result[0].score_items()) if result else ()


def _add_scores(totals: dict[str, int], r: SeatResult) -> None:
    """Add a seat's scores to ``totals`` (a score it lacks counts 0 in the means)."""
    for k, v in r.score_items():
        totals[k] = totals.get(k, 0) + v


# ----------------------------------------------------------------- output


def to_json(st: Standings) -> str:
    """The standings as indented JSON: the structs' fields in order (after ``games`` and
    ``unfinished``, the rating's model and library), but for
    ``score_keys`` (left out) and an engine's ``means``, written as one field
    ``mean_KEY`` a score in their place (Sneferu: ``mean_stones``, ``mean_food``). With a
    batch fit, ``fit_model``, ``fit_anchors``, ``fit_provisional`` after the rating's
    library, and each engine's ``fit``, ``fit_ci``, ``provisional``, ``anchored`` after its
    ``rating_sigma`` (null for an engine the fit left out)."""
    data: dict[str, object] = {"games": st.games, "unfinished": st.unfinished,
                               "rating_model": RATING_MODEL, "rating_library": RATING_LIBRARY}
    if st.fit is not None:
        data.update(fit_model=FIT_MODEL, fit_anchors=st.fit.anchors,
                    fit_provisional=st.fit.provisional)
    data.update(engines=[_engine_json(e, st.fit) for e in st.engines],
                head_to_head=st.head_to_head, seats=st.seats, solo=st.solo)
    return msgspec.json.format(msgspec.json.encode(data), indent=2).decode() + "\n"


def _engine_json(e: EngineRow, fit: Fit | None) -> dict[str, object]:
    out: dict[str, object] = {
        "name": e.name, "games": e.games, "mean_rank": e.mean_rank, "rank_ci": e.rank_ci,
        "firsts": e.firsts, **{f"mean_{k}": v for k, v in e.means.items()},
        "rating": e.rating, "rating_sigma": e.rating_sigma}
    if fit is not None:
        row = fit.engines.get(e.name)
        if row is None:
            out.update(fit=None, fit_ci=None, provisional=None, anchored=None)
        else:
            out.update(fit=row.rating, fit_ci=row.ci, provisional=row.provisional,
                       anchored=row.anchored)
    out["faults"] = e.faults
    if e.measured:
        out.update(measured=e.measured, cpu=e.cpu, peak_kib=e.peak)
    return out


FIT_COLUMNS = ["fit", "fit_ci", "provisional", "anchored"]
"""The CSV columns a batch fit adds after ``rating_sigma``."""


def engine_columns(score_keys: Sequence[str], fit: bool = False) -> list[str]:
    """The CSV columns of a table of 2-4 seats, with a ``mean_KEY`` column a score (and
    :data:`FIT_COLUMNS` with a batch fit)."""
    return ["engine", "games", "mean_rank", "rank_ci", "firsts",
            *(f"mean_{k}" for k in score_keys), "rating", "rating_sigma",
            *(FIT_COLUMNS if fit else []), "faults"]


SOLO_COLUMNS = ["engine", "games", "wins", "win_rate", "win_ci", "mean_score",
                "mean_stones", "mean_ptah", "faults"]


def to_csv(st: Standings) -> str:
    """The standings table as CSV with a header line: the table of 2-4 seats when there
    are such games, else the solo table. Empty cell for none; faults as ``kind:n`` joined
    by ``;``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if st.engines or not st.solo:
        w.writerow(engine_columns(st.score_keys, st.fit is not None))
        for e in st.engines:
            w.writerow([e.name, e.games, _num(e.mean_rank), _num(e.rank_ci), _num(e.firsts),
                        *(_num(e.means[k]) for k in st.score_keys), _num(e.rating),
                        _num(e.rating_sigma), *_fit_cells(st.fit, e.name),
                        _faults_text(e.faults)])
    else:
        w.writerow(SOLO_COLUMNS)
        for s in st.solo:
            w.writerow([s.name, s.games, s.wins, _num(s.win_rate), _num(s.win_ci),
                        _num(s.mean_score), _num(s.mean_stones), _num(s.mean_ptah),
                        _faults_text(s.faults)])
    return out.getvalue()


def _fit_cells(fit: Fit | None, name: str) -> list[str]:
    """An engine's :data:`FIT_COLUMNS` cells (none without a fit; empty cells for an
    engine the fit left out)."""
    if fit is None:
        return []
    row = fit.engines.get(name)
    if row is None:
        return ["", "", "", ""]
    return [_num(row.rating), _num(row.ci), str(row.provisional).lower(),
            str(row.anchored).lower()]


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.6g}"


def _faults_text(faults: dict[str, int]) -> str:
    return ";".join(f"{k}:{n}" for k, n in faults.items())


RATING_NOTE = ("(rank ±95%: the mean rank's 95% interval; rating: mu ± 2 sigma, from 25 ± "
               f"16.7 before any game, {RATING_MODEL}, {RATING_LIBRARY})")
"""The line under the table that says what its ± are."""


def fit_note(fit: Fit) -> str:
    """The line under a table with a batch fit that says what its fit column is."""
    if fit.anchors:
        placed = "placed against " + ", ".join(f"{n} = {r:g}" for n, r in fit.anchors.items())
    else:
        placed = "the mean of those not provisional 0"
    return (f"(fit: all {plural(fit.games, 'game')} at once, {FIT_MODEL}, {placed}; "
            f"± its 95% interval from the Hessian; ? fewer than {fit.provisional} games; "
            "= an anchor. rating: the online update, game by game)")


def format_standings(st: Standings) -> str:
    """The standings as a text table (and the head-to-head matrix) for a terminal."""
    lines: list[str] = []
    if st.engines:
        keys = st.score_keys
        fit = st.fit
        rows = [["#", "engine", "games", "rank", "±95%", "first", *keys, "rating",
                 *(["fit"] if fit else []), "faults"]]
        for place, e in enumerate(st.engines, start=1):
            rows.append([str(place), e.name, str(e.games), f"{e.mean_rank:.2f}",
                         "-" if e.rank_ci is None else f"{e.rank_ci:.2f}",
                         f"{100 * e.firsts:.1f}%", *(f"{e.means[k]:.1f}" for k in keys),
                         f"{e.rating:.1f} ± {2 * e.rating_sigma:.1f}",
                         *([_fit_text(fit, e.name)] if fit else []),
                         " ".join(f"{k}:{n}" for k, n in e.faults.items()) or "-"])
        lines += _table(rows, left={1, len(rows[0]) - 1})
        lines += [RATING_NOTE]
        if fit:
            lines += [fit_note(fit)]
        lines += ["", "head to head (row's score against column, % of games at one table):"]
        names = [e.name for e in st.engines]
        cell = {(h.engine, h.opponent): h for h in st.head_to_head}
        matrix = [["", *names]]
        for a in names:
            matrix.append([a] + [f"{100 * cell[a, b].score / cell[a, b].games:.1f}"
                                 if (a, b) in cell else "-" for b in names])
        lines += _table(matrix, left={0})
        used = [e for e in st.engines if e.measured]
        if used:
            lines += ["", "resources (engines in a sandbox: games measured, mean CPU seconds "
                      "a game, largest peak memory):"]
            lines += _table([["engine", "games", "cpu s", "peak MiB"],
                             *([e.name, str(e.measured), f"{e.cpu or 0:.3f}",
                                f"{(e.peak or 0) / 1024:.1f}"] for e in used)], left={0})
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


def _fit_text(fit: Fit, name: str) -> str:
    """An engine's fit cell: rating ± the 95% half-width, ``?`` when provisional, ``=`` for
    an anchor, ``-`` when the fit left it out."""
    row = fit.engines.get(name)
    if row is None:
        return "-"
    if row.anchored:
        return f"{row.rating:.1f} ="
    return f"{row.rating:.1f} ± {row.ci:.1f}" + (" ?" if row.provisional else "")


def _table(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) if i in left else c.rjust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]
