"""The ladder (SPEC.md 9.12): a rating list that lasts across tournaments and record files.

A ladder is one SQLite file (the standard library's ``sqlite3``): every game added once
(known by a digest of its header, so adding a file twice, or two files that share games,
counts each game once), the anchors, and after each addition the batch fit
(:func:`~sneferu_cli.tournament.fit.fit_ratings`) of every pool it touched. A pool is one
game at one number of seats: ratings of Akropolis at 4 seats and at 2 are not one scale.
Writers take the database's write lock for a whole addition (``BEGIN IMMEDIATE``, waiting
up to :data:`BUSY_SECONDS` for another writer), so concurrent additions lose nothing.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import msgspec

from .fit import PROVISIONAL, Fit, fit_ratings
from .standings import GameResult

BUSY_SECONDS = 60.0
"""How long a writer waits for another writer's addition to end."""

DEFAULT_ANCHOR = ("random", 0.0)
"""A pool with no anchor of its own that has games of an engine named ``random`` (the
bundled engine that plays a legal move at random) holds it at this rating."""

SCHEMA = 1
"""The schema version this module writes (``PRAGMA user_version``)."""

_TABLES = """
CREATE TABLE IF NOT EXISTS additions (
    id INTEGER PRIMARY KEY, source TEXT NOT NULL, games INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, game TEXT NOT NULL,
    players INTEGER NOT NULL, addition INTEGER NOT NULL REFERENCES additions(id));
CREATE TABLE IF NOT EXISTS seats (
    game INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    engine TEXT NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (game, seat));
CREATE INDEX IF NOT EXISTS games_pool ON games (game, players);
CREATE TABLE IF NOT EXISTS anchors (
    game TEXT NOT NULL, players INTEGER NOT NULL, engine TEXT NOT NULL,
    rating REAL NOT NULL, PRIMARY KEY (game, players, engine));
CREATE TABLE IF NOT EXISTS ratings (
    addition INTEGER NOT NULL REFERENCES additions(id), game TEXT NOT NULL,
    players INTEGER NOT NULL, engine TEXT NOT NULL, rating REAL NOT NULL, ci REAL NOT NULL,
    games INTEGER NOT NULL, provisional INTEGER NOT NULL, anchored INTEGER NOT NULL,
    PRIMARY KEY (addition, game, players, engine));
"""


class LadderError(ValueError):
    """A ladder that cannot be opened or used: the message names the file and why."""


class Pool(msgspec.Struct, frozen=True, order=True):
    """A rating pool: one game at one number of seats."""

    game: str
    players: int

    def __str__(self) -> str:
        return f"{self.game} at {self.players} seats"


class Added(msgspec.Struct, frozen=True):
    """What an addition did: games new to the ladder, games it held already, games left
    out (fewer than two seats, no result, or one engine in two seats), and the pools
    refitted."""

    added: int
    known: int
    left_out: int
    pools: list[Pool]


class HistoryRow(msgspec.Struct, frozen=True):
    """An engine's rating in one pool after one addition."""

    addition: int
    source: str
    pool: Pool
    rating: float
    ci: float
    games: int
    provisional: bool
    anchored: bool


def digest(result: GameResult, key: bytes = b"") -> str:
    """A game's identity in a ladder: the SHA-256 of its result as the standings read it
    (round, deal or seed, seats, result, faults, game) and ``key`` (the rest of its header
    the caller adds)."""
    return hashlib.sha256(msgspec.msgpack.encode(result) + key).hexdigest()


def seats_of(result: GameResult) -> list[tuple[str, int]] | None:
    """The (engine, rank) of each seat of a game the fit can use, else None."""
    if result.players < 2 or not result.result:
        return None
    seats = [(result.names.get(s.seat, f"seat {s.seat}"), s.rank) for s in result.result]
    if len({name for name, _ in seats}) != len(seats):
        return None
    return seats


class Ladder:
    """A ladder in the SQLite file ``path`` (made when it does not exist)."""

    def __init__(self, path: str | Path, *, provisional: int = PROVISIONAL) -> None:
        self.path = str(path)
        self.provisional = provisional
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS,
                                       isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA:
                raise LadderError(f"{self.path}: a ladder of a later sneferu (schema "
                                  f"{version}, this one reads {SCHEMA})")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_TABLES)
            self._db.execute(f"PRAGMA user_version={SCHEMA}")
        except sqlite3.DatabaseError as e:
            raise LadderError(f"{self.path}: not a ladder: {e}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Ladder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction holding the database's write lock from its start."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            raise LadderError(f"{self.path}: cannot write: {e}") from None
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ------------------------------------------------------------------ writing

    def add(self, games: Iterable[tuple[GameResult, bytes]], source: str) -> Added:
        """Add games (each its result and the header bytes that, with it, tell it from
        every other game: :func:`digest`), those new to the ladder, and refit the pools
        they fall in. ``source`` names where they came from (the history shows it)."""
        new = known = left_out = 0
        pools: set[Pool] = set()
        with self._writing() as db:
            addition = db.execute("INSERT INTO additions (source, games) VALUES (?, 0)",
                                  (source,)).lastrowid
            for result, key in games:
                seats = seats_of(result)
                if seats is None:
                    left_out += 1
                    continue
                cur = db.execute("INSERT OR IGNORE INTO games (digest, game, players, "
                                 "addition) VALUES (?, ?, ?, ?)",
                                 (digest(result, key), result.game, result.players,
                                  addition))
                if not cur.rowcount:
                    known += 1
                    continue
                new += 1
                db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                               [(cur.lastrowid, i, name, rank)
                                for i, (name, rank) in enumerate(seats)])
                pools.add(Pool(result.game, result.players))
            db.execute("UPDATE additions SET games = ? WHERE id = ?", (new, addition))
            for pool in sorted(pools):
                self._store(db, addition, pool, self._fit(db, pool))
        return Added(new, known, left_out, sorted(pools))

    def set_anchor(self, pool: Pool, engine: str, rating: float | None) -> None:
        """Hold ``engine``'s rating in ``pool`` at ``rating`` (None: no longer), and
        refit the pool when it has games."""
        with self._writing() as db:
            if rating is None:
                db.execute("DELETE FROM anchors WHERE game = ? AND players = ? AND "
                           "engine = ?", (pool.game, pool.players, engine))
            else:
                db.execute("INSERT OR REPLACE INTO anchors VALUES (?, ?, ?, ?)",
                           (pool.game, pool.players, engine, rating))
            if self._count(db, pool):
                addition = db.execute(
                    "INSERT INTO additions (source, games) VALUES (?, 0)",
                    (f"anchor {engine}={'none' if rating is None else f'{rating:g}'}",)
                ).lastrowid
                self._store(db, addition, pool, self._fit(db, pool))

    # ------------------------------------------------------------------ reading

    def pools(self) -> list[Pool]:
        """The pools with games, sorted."""
        return [Pool(g, p) for g, p in self._db.execute(
            "SELECT DISTINCT game, players FROM games ORDER BY game, players")]

    def anchors(self, pool: Pool) -> dict[str, float]:
        return dict(self._db.execute(
            "SELECT engine, rating FROM anchors WHERE game = ? AND players = ? "
            "ORDER BY engine", (pool.game, pool.players)))

    def fit(self, pool: Pool) -> Fit:
        """The batch fit of every game of ``pool`` with its anchors, made now."""
        return self._fit(self._db, pool)

    def history(self, engine: str) -> list[HistoryRow]:
        """``engine``'s rating after each addition that refitted a pool it plays in."""
        return [HistoryRow(a, source, Pool(g, p), r, ci, n, bool(prov), bool(anch))
                for a, source, g, p, r, ci, n, prov, anch in self._db.execute(
                    "SELECT r.addition, a.source, r.game, r.players, r.rating, r.ci, "
                    "r.games, r.provisional, r.anchored FROM ratings r JOIN additions a "
                    "ON a.id = r.addition WHERE r.engine = ? ORDER BY r.addition, "
                    "r.game, r.players", (engine,))]

    def games(self, pool: Pool) -> int:
        return self._count(self._db, pool)

    # ------------------------------------------------------------------ inside

    @staticmethod
    def _count(db: sqlite3.Connection, pool: Pool) -> int:
        count: int = db.execute("SELECT COUNT(*) FROM games WHERE game = ? AND players = ?",
                                (pool.game, pool.players)).fetchone()[0]
        return count

    def _fit(self, db: sqlite3.Connection, pool: Pool) -> Fit:
        tables: dict[int, list[tuple[str, int]]] = {}
        for game_id, engine, rank in db.execute(
                "SELECT s.game, s.engine, s.rank FROM seats s JOIN games g ON g.id = s.game "
                "WHERE g.game = ? AND g.players = ? ORDER BY s.game, s.seat",
                (pool.game, pool.players)):
            tables.setdefault(game_id, []).append((engine, rank))
        anchors = dict(db.execute("SELECT engine, rating FROM anchors WHERE game = ? AND "
                                  "players = ?", (pool.game, pool.players)))
        played = {name for seats in tables.values() for name, _ in seats}
        anchors = {name: r for name, r in anchors.items() if name in played}
        if not anchors and DEFAULT_ANCHOR[0] in played:
            anchors = dict([DEFAULT_ANCHOR])
        return fit_ratings(tables.values(), anchors, provisional=self.provisional)

    @staticmethod
    def _store(db: sqlite3.Connection, addition: int | None, pool: Pool, fit: Fit) -> None:
        db.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(addition, pool.game, pool.players, row.name, row.rating, row.ci,
                         row.games, int(row.provisional), int(row.anchored))
                        for row in fit.engines.values()])


def open_ladder(path: str | Path, *, provisional: int = PROVISIONAL) -> Ladder:
    """:class:`Ladder` at ``path``; LadderError when its folder does not exist."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise LadderError(f"{path}: no folder {folder}")
    return Ladder(path, provisional=provisional)


def ranked(fit: Fit) -> list[tuple[int, str, float, float, int, bool, bool]]:
    """The fit's engines best first: (place, name, rating, interval half-width, games,
    provisional, anchored)."""
    rows = sorted(fit.engines.values(), key=lambda r: (-r.rating, r.name))
    return [(i + 1, r.name, r.rating, r.ci, r.games, r.provisional, r.anchored)
            for i, r in enumerate(rows)]


__all__: Sequence[str] = ["DEFAULT_ANCHOR", "Added", "HistoryRow", "Ladder", "LadderError",
                          "Pool", "digest", "open_ladder", "ranked", "seats_of"]
