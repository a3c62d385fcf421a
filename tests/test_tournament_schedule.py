"""The tournament schedule: counts, seats, seeds, numbering, and duplicate deals."""

from __future__ import annotations

import doctest
import itertools
import math
import random
from collections import Counter

import pytest
from tournament_support import play

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import parse_outcome
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.games.sneferu.steps import Draw
from sneferu_cli.record.model import GameRecord, Header
from sneferu_cli.tournament import (
    Schedule,
    deal_seed,
    done_games,
    game_number,
    load_config,
    pending_games,
)
from sneferu_cli.tournament import config as config_module
from sneferu_cli.tournament import schedule as schedule_module
from sneferu_cli.tournament import sprt as sprt_module


def cfg_of(n: int, **flags: object):
    names = [chr(ord("a") + i) for i in range(n)]
    return load_config(None, {"engine": [f"name={x} command=./{x}" for x in names],
                              "seed": 1, **flags})


def test_module_examples_hold():
    for mod in (config_module, schedule_module, sprt_module):
        assert doctest.testmod(mod).failed == 0


@pytest.mark.parametrize(("engines", "seats", "seating", "per_table"), [
    (5, 3, "rotate", 3), (5, 3, "permute", 6), (4, 2, "rotate", 2), (4, 4, "rotate", 4),
    (6, 4, "permute", 24), (3, 2, "permute", 2)])
def test_round_robin_counts(engines, seats, seating, per_table):
    s = Schedule.of(cfg_of(engines, seats=seats, deals=3, seating=seating))
    tables = math.comb(engines, seats)
    assert len(s.tables) == tables and s.seatings_per_table == per_table
    assert len(s.games) == tables * per_table * 3
    # 5 engines at 3 seats: C(5,3) = 10 tables x 3 rotations x 3 deals = 90 games
    assert [g.number for g in s.games] == list(range(1, len(s.games) + 1))


@pytest.mark.parametrize(("engines", "seats", "seating"), [
    (5, 3, "rotate"), (5, 3, "permute"), (4, 4, "rotate"), (4, 2, "rotate")])
def test_every_engine_in_every_seat_equally_often(engines, seats, seating):
    s = Schedule.of(cfg_of(engines, seats=seats, deals=2, seating=seating))
    count = Counter((name, seat) for g in s.games for seat, name in enumerate(g.seats))
    assert len(count) == engines * seats
    assert len(set(count.values())) == 1


def test_every_table_plays_each_deal_in_every_seating_with_one_seed():
    s = Schedule.of(cfg_of(5, seats=3, deals=4))
    for deal in range(1, 5):
        games = [g for g in s.games if g.deal == deal]
        assert {g.seed for g in games} == {deal_seed(1, deal)}
        for t, table in enumerate(s.tables, start=1):
            seatings = [g.seats for g in games if g.table == t]
            # each engine of the table once in each seat: the rotations
            assert sorted(seatings) == sorted(table[r:] + table[:r] for r in range(3))


def test_permute_gives_every_order():
    s = Schedule.of(cfg_of(3, seats=3, deals=1, seating="permute"))
    assert sorted(g.seats for g in s.games) == sorted(itertools.permutations("abc"))


def test_games_are_deal_major():
    s = Schedule.of(cfg_of(4, seats=2, deals=3))
    per_deal = len(s.games) // 3
    assert [g.deal for g in s.games] == [d for d in (1, 2, 3) for _ in range(per_deal)]


def test_gauntlet_plays_the_challenger_against_the_field():
    s = Schedule.of(cfg_of(5, seats=3, format="gauntlet", challenger="c", deals=2))
    # the challenger with each pair of the 4 others: C(4, 2) = 6 tables x 3 x 2 deals
    assert len(s.tables) == 6 and len(s.games) == 36
    assert all("c" in g.seats for g in s.games)
    seats = Counter(g.seats.index("c") for g in s.games)
    assert seats == {0: 12, 1: 12, 2: 12}
    field = Counter(n for g in s.games for n in g.seats if n != "c")
    assert field == {"a": 18, "b": 18, "d": 18, "e": 18}


def test_gauntlet_challenger_defaults_to_the_first_engine():
    s = Schedule.of(cfg_of(3, seats=2, format="gauntlet", deals=1))
    assert s.tables == [("a", "b"), ("a", "c")]


def test_solo_plays_every_engine_alone_on_the_same_deals():
    s = Schedule.of(cfg_of(3, seats=1, deals=4))
    assert len(s.games) == 12 and s.seatings_per_table == 1
    for name in "abc":
        assert [g.seed for g in s.games if g.seats == (name,)] == [deal_seed(1, d)
                                                                    for d in range(1, 5)]


def test_seeds_are_stable_and_differ():
    # fixed numbers: changing the derivation would silently change every tournament
    assert deal_seed(1, 1) == 399606935025818711
    assert deal_seed(1, 2) == deal_seed(1, 2) != deal_seed(1, 1) != deal_seed(2, 1)
    assert Schedule.of(cfg_of(4, seats=3)) == Schedule.of(cfg_of(4, seats=3))
    assert all(0 <= deal_seed(s, d) < 2 ** 63 for s in range(20) for d in range(1, 20))


def test_schedule_needs_a_seed():
    cfg = load_config(None, {"engine": ["name=a command=a", "name=b command=b"]})
    assert cfg.seed is None
    with pytest.raises(ValueError, match="seed"):
        Schedule.of(cfg)
    assert Schedule.of(cfg.resolved()).games


def test_pending_games_are_the_rest_in_order():
    s = Schedule.of(cfg_of(3, seats=2, deals=2))
    assert [g.number for g in pending_games(s, {1, 3, 4})] == [2, 5, 6, 7, 8, 9, 10, 11, 12]
    assert pending_games(s, range(1, 13)) == []


def test_done_games_reads_the_numbers_and_checks_them():
    cfg = cfg_of(2, seats=2, deals=2)
    s = Schedule.of(cfg)
    records = [play(cfg, s.game(n)) for n in (1, 3)]
    assert [game_number(r) for r in records] == [1, 3]
    assert done_games(records, s) == {1, 3}
    with pytest.raises(ValueError, match="game 3 is recorded twice"):
        done_games([*records, records[1]], s)
    wrong = play(cfg, s.game(2))
    wrong.header.round = "1"
    with pytest.raises(ValueError, match="game 1: the record's seats"):
        done_games([wrong], s)
    with pytest.raises(ValueError, match="without a game number"):
        game_number(GameRecord(header=Header(players=2)))


def test_game_header_tags():
    cfg = cfg_of(3, seats=2, builders="Heba,Aya", time_control="10+0.1", event="cup")
    g = Schedule.of(cfg).game(2)
    h = play(cfg, g).header
    assert (h.round, h.extra, h.seed, h.event) == ("2", {"deal": "1"}, g.seed, "cup")
    assert [(s.seat, s.name, s.tags.get("builder")) for s in h.seats] == [(1, "b", "Heba"),
                                                                          (2, "a", "Aya")]
    assert (h.variant, h.tags.get("Builders"), h.time_control) == ("builders", "chosen", "10+0.1")


# ------------------------------------------------------------ duplicate deals


def chance_sequence(players: int, seed: int, moves_seed: int, builders: str | None = None
                    ) -> tuple[list[str], list[str]]:
    """The set-up outcomes and then the stones drawn, of a game where chance comes from one
    Random(seed) through sample_outcome and moves from another generator."""
    state = new_game(players, builders=builders)
    chance, moves = random.Random(seed), random.Random(moves_seed)
    setup: list[str] = []
    draws: list[str] = []
    while not state.is_over():
        if state.is_chance_node():
            o = sample_outcome(state, chance)
            if state.turn == 0:
                setup.append(str(o))
            else:
                assert isinstance(o, Draw)  # after set-up only the bag is drawn from
                draws.append(str(o))
            state.apply(o)
        else:
            state.apply_turn(moves.choice(state.legal_turns()))
    return setup, draws


@pytest.mark.parametrize(("players", "builders"), [(2, None), (3, "random"), (4, None),
                                                  (1, None)])
def test_a_deal_fixes_the_setup_and_the_order_of_the_bag(players, builders):
    """SPEC 9.3: same seed, different moves -> the same set-up and the same sequence of
    drawn stones (the games only differ in how many they draw before ending)."""
    seed = deal_seed(5, 1)
    runs = [chance_sequence(players, seed, m, builders) for m in range(4)]
    setups = {tuple(s) for s, _ in runs}
    assert len(setups) == 1
    setup = runs[0][0]
    kinds = Counter(type(parse_outcome(o)).__name__ for o in setup)
    assert kinds["LayTile"] == 15 and kinds["Draw"] == 28 and kinds["Arrive"] == players
    draws = [d for _, d in runs]
    assert len({len(d) for d in draws}) > 1, "the moves should change how much is drawn"
    longest = max(draws, key=len)
    for d in draws:
        assert d == longest[:len(d)]


def test_moves_drawing_from_the_chance_generator_would_break_duplicate_deals():
    """The counter-check: when the moves are chosen with the chance generator too, the
    draws are not those of the same deal played with a separate move generator."""
    def draws(shared: bool) -> list[str]:
        state = new_game(2)
        rng = random.Random(7)
        chooser = rng if shared else random.Random(99)
        out: list[str] = []
        while not state.is_over():
            if state.is_chance_node():
                o = sample_outcome(state, rng)
                if state.turn:
                    out.append(str(o))
                state.apply(o)
            else:
                state.apply_turn(chooser.choice(state.legal_turns()))
        return out
    a, b = draws(False), draws(True)
    n = min(len(a), len(b))
    assert a[:n] != b[:n]


def test_game_header_with_random_builders_and_standard():
    cfg = cfg_of(2, builders="random")
    h = play(cfg, Schedule.of(cfg).game(1)).header
    assert (h.variant, h.tags, [s.tags for s in h.seats]) == ("builders", {"Builders": "random"},
                                                              [{}, {}])
    assert h.result and h.edition == "standard"
    cfg = cfg_of(2)
    h = play(cfg, Schedule.of(cfg).game(1)).header
    assert (h.variant, h.tags, h.time_control) == ("standard", {}, "60+1")  # default clock
