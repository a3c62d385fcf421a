"""The ladder (SPEC.md 9.12): a rating list that lasts across tournaments and record files.

A ladder is one database: by default a SQLite file (the standard library's ``sqlite3``),
or a PostgreSQL database given by its URL (``postgresql://...``, through ``psycopg``) for
a ladder several hosts or Dask workers share. It holds every game added once (known by a
digest of its header, so adding a file twice, or two files that share games, counts each
game once), the anchors, and after each addition the batch fit
(:func:`~sneferu_cli.tournament.fit.fit_ratings`) of every pool it touched. A pool is one
game at one number of seats: ratings of Akropolis at 4 seats and at 2 are not one scale.
An addition is one transaction that holds the ladder's write lock from its start (SQLite's
``BEGIN IMMEDIATE``, PostgreSQL's transaction-level advisory lock), so concurrent
additions lose nothing.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

from .fit import PROVISIONAL, Fit, fit_ratings
from .standings import GameResult

BUSY_SECONDS = 60.0
"""How long a writer waits for another writer's addition to end."""

DEFAULT_ANCHOR = ("random", 0.0)
"""A pool with no anchor of its own that has games of an engine named ``random`` (the
bundled engine that plays a legal move at random) holds it at this rating."""

SCHEMA = 1
"""The schema version this module writes (table ``meta``)."""

_LOCK = 0x736E6566  # PostgreSQL's advisory lock of a ladder ("snef")

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (schema INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS additions (
    id {id}, source TEXT NOT NULL, games INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id {id}, digest TEXT NOT NULL UNIQUE, game TEXT NOT NULL,
    players INTEGER NOT NULL, addition BIGINT NOT NULL REFERENCES additions(id));
CREATE TABLE IF NOT EXISTS seats (
    game BIGINT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
    engine TEXT NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (game, seat));
CREATE INDEX IF NOT EXISTS games_pool ON games (game, players);
CREATE TABLE IF NOT EXISTS anchors (
    game TEXT NOT NULL, players INTEGER NOT NULL, engine TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL, PRIMARY KEY (game, players, engine));
CREATE TABLE IF NOT EXISTS ratings (
    addition BIGINT NOT NULL REFERENCES additions(id), game TEXT NOT NULL,
    players INTEGER NOT NULL, engine TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
    ci DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, provisional INTEGER NOT NULL,
    anchored INTEGER NOT NULL, PRIMARY KEY (addition, game, players, engine));
"""


def is_url(where: str) -> bool:
    """Whether a ladder's place is a PostgreSQL URL (else a SQLite file)."""
    return where.startswith(("postgresql://", "postgres://"))


def shown(where: str) -> str:
    """A ladder's place as messages show it: a URL without its password."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", where) if is_url(where) else where


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


class _Database:
    """One connection, SQLite or PostgreSQL; SQL is written with ``?`` placeholders."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.postgres = is_url(where)
        self._con: Any
        if self.postgres:
            try:
                import psycopg
            except ImportError:
                raise LadderError(f"{shown(where)}: a PostgreSQL ladder needs psycopg: pip "
                                  'install "sneferu[postgres]"') from None
            self._errors: tuple[type[Exception], ...] = (psycopg.Error,)
            try:
                self._con = psycopg.connect(where, autocommit=True,
                                            connect_timeout=int(BUSY_SECONDS))
            except psycopg.Error as e:
                raise LadderError(f"{shown(where)}: cannot connect: "
                                  f"{_first_line(e)}") from None
        else:
            self._errors = (sqlite3.Error,)
            try:
                self._con = sqlite3.connect(where, timeout=BUSY_SECONDS,
                                            isolation_level=None)
            except sqlite3.Error as e:
                raise LadderError(f"{where}: cannot open: {e}") from None

    def close(self) -> None:
        self._con.close()

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._con.execute(self._sql(sql), params).fetchall()
        return rows

    def run(self, sql: str, params: Sequence[object] = ()) -> None:
        self._con.execute(self._sql(sql), params)

    def many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if rows:
            self._con.cursor().executemany(self._sql(sql), rows)

    def insert(self, sql: str, params: Sequence[object]) -> int | None:
        """Run an INSERT into a table with an ``id``: the new row's id, None when
        ``ON CONFLICT DO NOTHING`` left it out."""
        if self.postgres:
            row = self._con.execute(self._sql(sql) + " RETURNING id", params).fetchone()
            return None if row is None else int(row[0])
        cur = self._con.execute(sql, params)
        return cur.lastrowid if cur.rowcount else None

    @contextmanager
    def writing(self) -> Iterator[None]:
        """A transaction that holds the ladder's write lock from its start."""
        try:
            if self.postgres:
                with self._con.transaction():
                    self.run("SELECT pg_advisory_xact_lock(?)", (_LOCK,))
                    yield
                return
            self.run("BEGIN IMMEDIATE")
        except self._errors as e:
            raise LadderError(f"{shown(self.where)}: cannot write: {_first_line(e)}") from None
        try:
            yield
        except BaseException:
            self.run("ROLLBACK")
            raise
        self.run("COMMIT")

    def create(self) -> None:
        """Make the tables when they are not there; LadderError for a database that holds
        something else or a later schema."""
        try:
            if not self.postgres:
                self.run("PRAGMA journal_mode=WAL")  # (outside a transaction)
            with self.writing():
                ddl = _TABLES.format(id="BIGSERIAL PRIMARY KEY" if self.postgres
                                     else "INTEGER PRIMARY KEY")
                for statement in ddl.split(";"):
                    if statement.strip():
                        self.run(statement)
                found = self.query("SELECT schema FROM meta")
                if not found:
                    self.run("INSERT INTO meta VALUES (?)", (SCHEMA,))
                elif found[0][0] > SCHEMA:
                    raise LadderError(f"{shown(self.where)}: a ladder of a later sneferu "
                                      f"(schema {found[0][0]}, this one reads {SCHEMA})")
        except self._errors as e:
            raise LadderError(f"{shown(self.where)}: not a ladder: {_first_line(e)}") from None


def _first_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class Ladder:
    """A ladder at ``where``: a SQLite file (made when it does not exist) or a PostgreSQL
    URL (its tables made when they are not there)."""

    def __init__(self, where: str | Path, *, provisional: int = PROVISIONAL) -> None:
        self.where = str(where)
        self.provisional = provisional
        self._db = _Database(self.where)
        try:
            self._db.create()
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Ladder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writing

    def add(self, games: Iterable[tuple[GameResult, bytes]], source: str) -> Added:
        """Add games (each its result and the header bytes that, with it, tell it from
        every other game: :func:`digest`), those new to the ladder, and refit the pools
        they fall in. ``source`` names where they came from (the history shows it)."""
        new = known = left_out = 0
        pools: set[Pool] = set()
        db = self._db
        with db.writing():
            addition = db.insert("INSERT INTO additions (source, games) VALUES (?, 0)",
                                 (source,))
            for result, key in games:
                seats = seats_of(result)
                if seats is None:
                    left_out += 1
                    continue
                game_id = db.insert("INSERT INTO games (digest, game, players, addition) "
                                    "VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING",
                                    (digest(result, key), result.game, result.players,
                                     addition))
                if game_id is None:
                    known += 1
                    continue
                new += 1
                db.many("INSERT INTO seats VALUES (?, ?, ?, ?)",
                        [(game_id, i, name, rank) for i, (name, rank) in enumerate(seats)])
                pools.add(Pool(result.game, result.players))
            db.run("UPDATE additions SET games = ? WHERE id = ?", (new, addition))
            for pool in sorted(pools):
                self._store(addition, pool, self.fit(pool))
        return Added(new, known, left_out, sorted(pools))

    def set_anchor(self, pool: Pool, engine: str, rating: float | None) -> None:
        """Hold ``engine``'s rating in ``pool`` at ``rating`` (None: no longer), and
        refit the pool when it has games."""
        db = self._db
        with db.writing():
            if rating is None:
                db.run("DELETE FROM anchors WHERE game = ? AND players = ? AND engine = ?",
                       (pool.game, pool.players, engine))
            else:
                db.run("INSERT INTO anchors VALUES (?, ?, ?, ?) ON CONFLICT (game, players, "
                       "engine) DO UPDATE SET rating = excluded.rating",
                       (pool.game, pool.players, engine, rating))
            if self.games(pool):
                setting = "none" if rating is None else f"{rating:g}"
                addition = db.insert("INSERT INTO additions (source, games) VALUES (?, 0)",
                                     (f"anchor {engine}={setting}",))
                self._store(addition, pool, self.fit(pool))

    # ------------------------------------------------------------------ reading

    def pools(self) -> list[Pool]:
        """The pools with games, sorted."""
        return [Pool(g, p) for g, p in self._db.query(
            "SELECT DISTINCT game, players FROM games ORDER BY game, players")]

    def anchors(self, pool: Pool) -> dict[str, float]:
        return dict(self._db.query(
            "SELECT engine, rating FROM anchors WHERE game = ? AND players = ? "
            "ORDER BY engine", (pool.game, pool.players)))

    def fit(self, pool: Pool) -> Fit:
        """The batch fit of every game of ``pool`` with its anchors, made now."""
        tables: dict[int, list[tuple[str, int]]] = {}
        for game_id, engine, rank in self._db.query(
                "SELECT s.game, s.engine, s.rank FROM seats s JOIN games g ON g.id = s.game "
                "WHERE g.game = ? AND g.players = ? ORDER BY s.game, s.seat",
                (pool.game, pool.players)):
            tables.setdefault(game_id, []).append((engine, rank))
        played = {name for seats in tables.values() for name, _ in seats}
        anchors = {name: r for name, r in self.anchors(pool).items() if name in played}
        if not anchors and DEFAULT_ANCHOR[0] in played:
            anchors = dict([DEFAULT_ANCHOR])
        return fit_ratings(tables.values(), anchors, provisional=self.provisional)

    def history(self, engine: str) -> list[HistoryRow]:
        """``engine``'s rating after each addition that refitted a pool it plays in."""
        return [HistoryRow(a, source, Pool(g, p), r, ci, n, bool(prov), bool(anch))
                for a, source, g, p, r, ci, n, prov, anch in self._db.query(
                    "SELECT r.addition, a.source, r.game, r.players, r.rating, r.ci, "
                    "r.games, r.provisional, r.anchored FROM ratings r JOIN additions a "
                    "ON a.id = r.addition WHERE r.engine = ? ORDER BY r.addition, "
                    "r.game, r.players", (engine,))]

    def sources(self) -> set[str]:
        """Where the additions came from (the record files given, or an anchor set)."""
        return {source for (source,) in self._db.query("SELECT source FROM additions")}

    def games(self, pool: Pool) -> int:
        """How many games of ``pool`` the ladder holds."""
        ((count,),) = self._db.query("SELECT COUNT(*) FROM games WHERE game = ? AND "
                                     "players = ?", (pool.game, pool.players))
        return int(count)

    # ------------------------------------------------------------------ inside

    def _store(self, addition: int | None, pool: Pool, fit: Fit) -> None:
        self._db.many("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      [(addition, pool.game, pool.players, row.name, row.rating, row.ci,
                        row.games, int(row.provisional), int(row.anchored))
                       for row in fit.engines.values()])


def open_ladder(where: str, *, provisional: int = PROVISIONAL) -> Ladder:
    """:class:`Ladder` at ``where`` (a file or a PostgreSQL URL); LadderError when a
    file's folder does not exist."""
    if not is_url(where):
        folder = Path(where).parent
        if not folder.is_dir():
            raise LadderError(f"{where}: no folder {folder}")
    return Ladder(where, provisional=provisional)


def ranked(fit: Fit) -> list[tuple[int, str, float, float, int, bool, bool]]:
    """The fit's engines best first: (place, name, rating, interval half-width, games,
    provisional, anchored)."""
    rows = sorted(fit.engines.values(), key=lambda r: (-r.rating, r.name))
    return [(i + 1, r.name, r.rating, r.ci, r.games, r.provisional, r.anchored)
            for i, r in enumerate(rows)]


__all__: Sequence[str] = ["DEFAULT_ANCHOR", "Added", "HistoryRow", "Ladder", "LadderError",
                          "Pool", "digest", "is_url", "open_ladder", "ranked", "seats_of",
                          "shown"]
