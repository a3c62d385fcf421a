"""A ladder run (``sneferu ladder run``, SPEC.md 9.12): rounds of games between many
engines, each round's tables chosen from the ladder's ratings
(:func:`~.matchmaking.round_tables`), played as a tournament of its own (one deal at each
table in every seating: duplicate deals kept), then added to the ladder.

A round is a tournament with its own record and state files in the run's folder
(``round-001.records``, ...): a round whose records the ladder holds is done; a round
stopped or killed is resumed from its state as a tournament is; so the same command goes
on after any stop. Nothing here prints: the command line does.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import msgspec

from ..record.jsonl import read_any
from ..record.text import decode_records
from ..words import plural
from .config import TournamentConfig, check
from .ladder import DEFAULT_ANCHOR, Ladder, Pool
from .matchmaking import ANCHOR_SHARE, round_tables
from .schedule import deal_seed
from .standings import GameResult

DEFAULT_GAMES = 60
"""Rounds go on until every engine has this many games in the pool (by default)."""


@dataclass(frozen=True)
class Goal:
    """When a ladder run stops: every engine with at least ``games`` games in the pool
    (None: no such goal), or every engine's interval at most ``width`` Elo points each
    side (None: none), or ``rounds`` rounds in the folder (None: no limit); the first
    met ends it."""

    games: int | None = DEFAULT_GAMES
    width: float | None = None
    rounds: int | None = None


@dataclass(frozen=True)
class Round:
    """A round to play: its number (from 1) and its tournament (None: a round started
    before, resumed from its state file, which holds its tables)."""

    number: int
    config: TournamentConfig | None
    state: Path


class LadderRun:
    """The rounds of ``base``'s engines (its game, seats, time control...; its tables and
    deals are each round's) in ``folder``, rated in ``ladder``."""

    def __init__(self, ladder: Ladder, base: TournamentConfig, folder: Path, goal: Goal, *,
                 anchor_share: float = ANCHOR_SHARE) -> None:
        self.ladder = ladder
        self.base = base.resolved()
        self.folder = folder
        self.goal = goal
        self.anchor_share = anchor_share
        self.pool = Pool(self.base.the_game().name, self.base.seats)
        self.engines = [e.name for e in self.base.engines]

    def records(self, number: int) -> Path:
        return self.folder / f"round-{number:03}.records"

    def added(self) -> set[str]:
        """The record files of the rounds the ladder holds."""
        return self.ladder.sources()

    def rounds(self) -> int:
        """The rounds started in the folder (done or not)."""
        return sum(1 for _ in self.folder.glob("round-*.records.state"))

    def reached(self) -> str | None:
        """Which goal the ladder has reached for these engines (None: none yet)."""
        fit = self.ladder.fit(self.pool) if self.ladder.games(self.pool) else None
        rows = [fit.engines.get(e) for e in self.engines] if fit else []
        games = [r.games if r else 0 for r in rows] or [0] * len(self.engines)
        if self.goal.games is not None and min(games) >= self.goal.games:
            return f"every engine has {self.goal.games} games or more"
        if (self.goal.width is not None and fit is not None and all(rows)
                and all(r is not None and (r.anchored or r.ci <= self.goal.width)
                        for r in rows)):
            return f"every interval is ± {self.goal.width:g} or narrower"
        if self.goal.rounds is not None and self.rounds() >= self.goal.rounds \
                and self._last_done():
            return f"{plural(self.goal.rounds, 'round')} played"
        return None

    def _last_done(self) -> bool:
        n = self.rounds()
        return n == 0 or str(self.records(n)) in self.added()

    def next_round(self) -> Round:
        """The round to play now: the last one started, when the ladder does not hold it
        yet (resumed), else a new one with tables from the ratings now."""
        n = self.rounds()
        if n and str(self.records(n)) not in self.added():
            return Round(n, None, self._state(n))
        n += 1
        fit = self.ladder.fit(self.pool) if self.ladder.games(self.pool) else None
        ratings = {name: row.rating for name, row in fit.engines.items()} if fit else {}
        games = {name: row.games for name, row in fit.engines.items()} if fit else {}
        anchors = set(self.ladder.anchors(self.pool)) or {DEFAULT_ANCHOR[0]}
        rng = random.Random(deal_seed(self.base.seed or 0, 1_000_000 + n))
        tables = round_tables(self.engines, self.base.seats,
                              {k: v for k, v in ratings.items() if math.isfinite(v)},
                              games, anchors, rng, anchor_share=self.anchor_share)
        cfg = msgspec.structs.replace(
            self.base, event=f"{self.base.event} round {n}", deals=1,
            seed=deal_seed(self.base.seed or 0, n), records=str(self.records(n)),
            state=None, format="round-robin", challenger=None, sprt=None,
            tables=[list(t) for t in tables])
        check(cfg)
        return Round(n, cfg, self._state(n))

    def _state(self, number: int) -> Path:
        return Path(f"{self.records(number)}.state")

    def add(self, number: int) -> None:
        """Add round ``number``'s games to the ladder (once the round is over)."""
        path = self.records(number)
        rf = read_any(decode_records(path.read_bytes(), str(path)), str(path),
                      headers_only=True)
        self.ladder.add([(GameResult.of(g.record), msgspec.msgpack.encode(g.record.header))
                         for g in rf.games], str(path))
