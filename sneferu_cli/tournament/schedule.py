"""The schedule: every game of a tournament, numbered, derived from the configuration alone.

Tables are the combinations of engines for the table size (round-robin), or the challenger
with each combination of the others (gauntlet), or each engine alone (solo), or those the
configuration lists (``tables``: a ladder round's). Each deal is
played at every table once for every seating of its engines (cyclic rotations, or all
permutations), so every engine meets the same chance from every seat. Games are numbered
from 1, deal-major: all of deal 1 (table by table, seating by seating), then deal 2, ...

>>> from .config import load_config
>>> cfg = load_config(None, {"engine": [f"name={n} command=./{n}" for n in "abcde"],
...                          "seats": 3, "deals": 4, "seed": 1})
>>> s = Schedule.of(cfg)
>>> len(s.tables), s.seatings_per_table, len(s.games)
(10, 3, 120)
>>> g = s.games[3]
>>> g.number, g.deal, g.table, g.seats
(4, 1, 2, ('a', 'b', 'd'))
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable

import msgspec

from ..record.model import GameRecord, Header, Seat
from .config import TournamentConfig
from .positions import position_for_deal


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` (from 1) of a tournament seeded ``seed``: the first
    8 bytes of SHA-256 of ``"sneferu-deal SEED DEAL"`` (ASCII), big-endian, shifted right by
    one bit (so it fits a signed 64-bit integer).

    >>> deal_seed(1, 1)
    399606935025818711
    """
    digest = hashlib.sha256(f"sneferu-deal {seed} {deal}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Game(msgspec.Struct, frozen=True):
    """One scheduled game: its number (from 1), deal (from 1) and deal seed, its table
    (index into :attr:`Schedule.tables`, from 1), the seating's index at that table (from 0),
    the engine name in each seat (seat 1 first), and the position it starts from (None: a
    new game)."""

    number: int
    deal: int
    seed: int
    table: int
    seating: int
    seats: tuple[str, ...]
    position: str | None = None


class Schedule(msgspec.Struct, frozen=True):
    """Every game of a tournament, in number order (``games[n - 1].number == n``)."""

    tables: list[tuple[str, ...]]
    seatings_per_table: int
    deals: int
    games: list[Game]

    @classmethod
    def of(cls, cfg: TournamentConfig) -> Schedule:
        """The schedule of a configuration (which must have a seed: see ``resolved``)."""
        if cfg.seed is None:
            raise ValueError("the configuration has no seed yet (use cfg.resolved())")
        tables = ([tuple(t) for t in cfg.tables] if cfg.tables is not None
                  else make_tables([e.name for e in cfg.engines], cfg.seats,
                                   cfg.challenger_name))
        orders = seatings(cfg.seats, cfg.seating)
        positions = cfg.start_positions()
        games: list[Game] = []
        for deal in range(1, cfg.deals + 1):
            seed = deal_seed(cfg.seed, deal)
            start = position_for_deal(positions, deal)
            for t, table in enumerate(tables, start=1):
                for s, order in enumerate(orders):
                    games.append(Game(len(games) + 1, deal, seed, t, s,
                                      tuple(table[i] for i in order), start))
        return cls(tables, len(orders), cfg.deals, games)

    def game(self, number: int) -> Game:
        """The game numbered ``number``."""
        if not 1 <= number <= len(self.games):
            raise KeyError(f"game {number}: the schedule has games 1 to {len(self.games)}")
        return self.games[number - 1]


def make_tables(names: list[str], seats: int, challenger: str | None = None
                ) -> list[tuple[str, ...]]:
    """The tables: each engine alone (1 seat), the challenger with every combination of
    ``seats - 1`` others (gauntlet), or every combination of ``seats`` engines, in the
    order of ``itertools.combinations`` over the engines' order."""
    if challenger is not None:
        field = [n for n in names if n != challenger]
        return [(challenger, *rest) for rest in itertools.combinations(field, seats - 1)]
    return list(itertools.combinations(names, seats))


def seatings(seats: int, how: str) -> list[tuple[int, ...]]:
    """The seatings of a table of ``seats`` engines, each as the index into the table of
    the engine in seat 1, 2, ...: ``rotate`` gives rotation r (from 0) seat i (from 0)
    the engine (i + r) mod seats; ``permute`` gives every permutation, in lexicographic
    order."""
    if how == "permute":
        return list(itertools.permutations(range(seats)))
    return [tuple((i + r) % seats for i in range(seats)) for r in range(seats)]


def pending_games(schedule: Schedule, done: Iterable[int]) -> list[Game]:
    """The games not yet done, in number order."""
    finished = set(done)
    return [g for g in schedule.games if g.number not in finished]


def game_header(cfg: TournamentConfig, game: Game) -> Header:
    """The header tags a game of this tournament is recorded with (results still empty):
    ``round`` is the game number and ``extra["deal"]`` the deal number (SPEC.md 9.3); a
    seat whose engine has its own time control has it in ``tc`` (when it differs)."""
    edition = cfg.load_edition()
    n = len(game.seats)
    own: dict[str, str] = {}
    chosen: list[dict[str, str]] = [{}] * n
    rules = cfg.the_game()
    tags = rules.record_tags()
    variant = cfg.variant or rules.variants[0]
    state = None
    if game.position is not None:
        state = rules.from_position(game.position, edition)
    elif cfg.setup is not None and tags is not None:
        state = tags.new_game(n, cfg.setup, edition=edition)
    if state is not None:
        variant = rules.variant_of(state)
        if tags is not None:
            own, chosen = tags.tags(state, drawn=False)
    timing = str(cfg.timing())
    own_tc = [cfg.own_timing(name) for name in game.seats]
    seats = [Seat(i, name, tags=chosen[i - 1],
                  tc=str(own_tc[i - 1]) if own_tc[i - 1] and str(own_tc[i - 1]) != timing
                  else None)
             for i, name in enumerate(game.seats, start=1)]
    return Header(players=n, event=cfg.event, round=str(game.number), game=rules.name,
                  edition=edition.name,
                  variant=variant, tags=own, seats=seats, seed=game.seed,
                  time_control=timing, position=game.position,
                  extra={"deal": str(game.deal)})


def game_number(record: GameRecord) -> int:
    """The schedule number of a tournament game (its ``round`` tag)."""
    r = record.header.round
    if r is None or not r.isdigit() or int(r) < 1:
        raise ValueError(f"record without a game number (round tag {r!r})")
    return int(r)


def done_games(records: Iterable[GameRecord], schedule: Schedule) -> set[int]:
    """The numbers of the games these records hold, each checked against the schedule
    (same seats and deal seed); a game recorded twice is an error."""
    done: set[int] = set()
    for rec in records:
        n = game_number(rec)
        game = schedule.game(n)
        names = tuple(s.name for s in sorted(rec.header.seats, key=lambda s: s.seat))
        if names != game.seats or rec.header.seed != game.seed:
            raise ValueError(f"game {n}: the record's seats {names} or seed "
                             f"{rec.header.seed} are not the schedule's ({game.seats}, "
                             f"{game.seed})")
        if rec.header.position != game.position:
            raise ValueError(f"game {n}: the record's start position is not the schedule's "
                             "(was the positions file changed?)")
        if n in done:
            raise ValueError(f"game {n} is recorded twice")
        done.add(n)
    return done
