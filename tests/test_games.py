"""One test suite for every game the package registers, and every test-only game of
tests/games/ (:data:`games.TEST_GAMES`), through the game interface only.

Each test is parametrized over those names, and everything it checks is written against
:class:`sneferu_cli.game.Game`: a game added to ``GAMES`` (or to ``TEST_GAMES``) gets all
of it for free, with no line of test of its own. Hypothesis draws the
player count (every one the game has), the variant (every one), a seed and maybe a seat
that retires; random games are then played to their end, checking at every step:

- every legal move is listed once, in canonical form (``canonical_move(m) == m``), and
  applies (all of them on clones, every few decisions; the checked and the listed fast
  path give the same position); a move text that is not listed is rejected and leaves the
  state unchanged (or, for a game that lists each distinct result once, gives the result
  of a listed move); garbage is a NotationError; the game's own listed-move check
  (``is_listed_move``), where it has one, says the same as the listing;
- clones are independent; chance outcomes have positive probabilities summing to 1, and
  each applies (at a node with very many, a sample of them and the drawn one); the drawn
  one is among them;
- the position notation reads back to the same position, at every step;
- the game's own invariants hold (``Game.check``: stones and cards conserved);
- the game ends; the standings have every seat once, ranks from 1, shared only by equal
  keys, ordered by the game's ``score_keys`` (retired seats last);
- a game played by the arbiter between real subprocess ``random`` engines gives a record
  that verifies (``sneferu replay``) and whose text and JSON forms read back equal;
- ``sneferu tournament`` on the command line between ``random`` engine processes gives
  standings with the game's scores and records that ``sneferu replay`` verifies and draws
  as a web page (the game's ``page.html``).
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest
from games import register_all
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import WITH_TEST_GAMES, run_cli

from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.game import (
    DEFAULT_GAME,
    GAMES,
    Game,
    NotationError,
    Standing,
    UnknownGame,
    game_names,
    get_game,
)
from sneferu_cli.protocol.messages import SEP
from sneferu_cli.record.jsonl import read_json_records, records_to_json
from sneferu_cli.record.replay import verify
from sneferu_cli.record.text import format_record, read_records

NAMES = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.")] + register_all()
"""The games the package registers and the test-only games of tests/games/ (a test-only
game another test module registers in this process, tests/nim_game.py, is left out: it is
tested in test_game_core.py)."""
assert NAMES[0] == DEFAULT_GAME and len(NAMES) >= 2

ALL_EVERY = 10
"""Every this many decisions, every legal move (at most ALL_MOST of them) is applied."""
ALL_MOST = 40
POOL = 300
"""Moves met earlier in the game (at most this many), tried where they are not listed."""
MAX_STEPS = 20_000
"""A game that has not ended after this many events is a failure."""
OUTCOMES_MOST = 100
"""At a chance node with more outcomes (a deal of 4 cards of 48 has 194 580), this many
drawn at random, and the one drawn for play, are applied; all are listed and summed."""
GARBAGE = ["", "xyzzy", "~", "move", "1.1.1.1.1", "take -1", "Q Q", "{}", ";"]

GAMES_SETTINGS = settings(max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.function_scoped_fixture])


def snapshot(game: Game, state: Any) -> tuple[str, bool, bool]:
    """What must not change when a move is rejected: the position, and where play is."""
    return game.to_position(state), state.is_over(), state.is_chance_node()


def check_standings(game: Game, state: Any, players: int) -> list[Standing]:
    """Every seat once; competition ranks from 1; better keys (not retired, then the
    scores in ``score_keys`` order) never rank worse."""
    standings = game.standings(state)
    assert [s.seat for s in standings] == list(range(1, players + 1))
    assert all(list(s.scores) == list(game.score_keys) for s in standings)
    ranks = [s.rank for s in standings]
    if players == 1:  # solo: first when the seat beats the game itself (Sneferu: Ptah)
        assert ranks in ([1], [2])
        return standings
    assert min(ranks) == 1 and max(ranks) <= players
    for s in standings:
        assert s.rank == 1 + sum(1 for t in standings if t.rank < s.rank)

    def key(s: Standing) -> tuple[int, ...]:
        return (not s.retired, *(s.scores[k] for k in game.score_keys))

    for a in standings:
        for b in standings:
            if key(a) > key(b):
                assert a.rank < b.rank, (a, b)
    return standings


def check_decision(game: Game, state: Any, moves: list[str], pool: list[str], every: bool,
                   rng: random.Random) -> None:
    """The listed moves: canonical, distinct, applying; unlisted texts are rejected."""
    assert moves and len(set(moves)) == len(moves)
    assert game.simultaneous or not game.is_simultaneous(state)  # declared
    before = snapshot(game, state)
    tried = rng.sample(moves, min(len(moves), ALL_MOST)) if every else [rng.choice(moves)]
    for text in moves if every else tried:
        assert game.canonical_move(text) == text
    for text in tried:
        child = state.clone()
        assert game.apply_move(child, text) == text
        game.check(child)
    assert snapshot(game, state) == before  # clones are independent
    listed = set(moves)
    unlisted = [t for t in rng.sample(pool, min(12, len(pool))) if t not in listed][:4]
    for text in unlisted + rng.sample(GARBAGE, 2):
        child = state.clone()
        try:
            game.apply_move(child, text)
        except ValueError:  # NotationError or the game's illegal move
            assert snapshot(game, child) == before, f"rejected {text!r} changed the state"
            continue
        # Accepted though not listed: only a game listing each distinct result once may,
        # and the result must then be a listed move's.
        after = game.to_position(child)
        assert any(after == _after(game, state, m) for m in moves), f"unlisted {text!r}"
    for text in GARBAGE[:2]:
        with pytest.raises(NotationError):
            game.canonical_move(text)
    # The game's own answer to "is this text listed?", where it has one, is membership.
    fast = game.fast_paths()
    for text in (moves if every else tried) + unlisted + GARBAGE + [t + " " for t in tried]:
        known = None if fast is None else fast.is_listed_move(state, text)
        assert known is None or known == (text in listed), text
    # The game's own go-line listing, where it has one, is the listing joined.
    if fast is not None and not game.is_simultaneous(state):
        for sep in (SEP, "|"):
            line = fast.legal_line(state, state.current_seat(), sep)
            assert line is None or line == sep.join(moves), sep


def _after(game: Game, state: Any, move: str) -> str:
    child = state.clone()
    game.apply_move(child, move, listed=True)
    return game.to_position(child)


def check_chance(game: Game, state: Any, drawn: str) -> None:
    outcomes = game.chance_outcomes(state)
    assert outcomes and all(p > 0 for _, p in outcomes)
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert drawn in {o for o, _ in outcomes}
    before = snapshot(game, state)
    if len(outcomes) > OUTCOMES_MOST:
        outcomes = [*random.Random(drawn).sample(outcomes, OUTCOMES_MOST), (drawn, 0.0)]
    for text, _ in outcomes:
        assert game.canonical_outcome(text) == text
        child = state.clone()
        game.apply_outcome(child, text)
        game.check(child)
    assert snapshot(game, state) == before


def play_random(game: Game, players: int, variant: str, seed: int, retire: int | None) -> Any:
    """A random game to its end, checked at every step (see the module's docstring); the
    seat to decide at the first decision from event ``retire`` on retires there, as the
    arbiter retires a seat whose engine fails."""
    rng, probe = random.Random(seed), random.Random(~seed)
    state = game.new_game(players, variant=variant)
    edition = game.edition_of(state)
    pool: list[str] = []
    decisions = 0
    for step in range(MAX_STEPS):
        game.check(state)
        position = game.to_position(state)
        again = game.from_position(position, edition)
        assert game.to_position(again) == position
        assert game.players_of(again) == players and game.variant_of(again) == variant
        values = game.evaluate(state)
        assert values is None or len(values) == players
        if state.is_over():
            return state
        if state.is_chance_node():
            drawn = game.sample_outcome(state, rng)
            check_chance(game, state, drawn)
            game.apply_outcome(state, drawn)
            continue
        seat = state.current_seat()
        assert 0 <= seat < players and not game.standings(state)[seat].retired
        if retire is not None and step >= retire:
            state.retire(seat)
            assert game.standings(state)[seat].retired
            retire = None
            continue
        moves = game.legal_moves(state)
        if len(pool) < POOL:
            pool.extend(m for m in moves[:POOL] if m not in pool)
        decisions += 1
        check_decision(game, state, moves, pool, decisions % ALL_EVERY == 0, probe)
        text = rng.choice(moves)
        checked = state.clone()
        game.apply_move(checked, text)
        game.apply_move(state, text, listed=True)
        assert game.to_position(checked) == game.to_position(state)
    raise AssertionError(f"no end after {MAX_STEPS} events")


@pytest.mark.parametrize("name", NAMES)
@GAMES_SETTINGS
@given(data=st.data())
def test_random_games_keep_the_interface_promises(name, data):
    game = get_game(name)
    players = data.draw(st.sampled_from(list(game.players)), label="players")
    variant = data.draw(st.sampled_from(game.variants), label="variant")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    retire = data.draw(st.one_of(st.none(), st.integers(0, 300)), label="retire")
    state = play_random(game, players, variant, seed, retire)
    assert game.legal_moves(state) == [] and not state.is_chance_node()
    game.check(state)
    standings = check_standings(game, state, players)
    if all(s.retired for s in standings):
        assert game.termination(state) == "all-retired"
    else:
        assert game.termination(state) not in ("aborted", "all-retired")
    assert game.picture(state) and game.page_data(state)


def _outcome(call: Any) -> tuple[str, Any]:
    """What a call gives: its value, or its exception's type and message."""
    try:
        return "value", call()
    except ValueError as e:
        return "error", (type(e).__name__, str(e))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_games_own_legal_moves_and_apply_move_equal_the_derived_ones(name, seed):
    """A game may give ``legal_moves`` and ``apply_move`` itself (compiled, say) instead of
    the base class's derivation from ``_legal_moves`` / ``_apply_move``: at every step of
    random games, for no seat and each seat, both list the same moves, apply a move alike
    (checked or listed) and refuse a seat that owes no decision with the same error."""
    game = get_game(name)
    players = max(game.players)
    rng = random.Random(seed)
    state = game.new_game(players)
    for _ in range(MAX_STEPS):
        for seat in (None, *range(players)):
            assert _outcome(lambda s=seat: game.legal_moves(state, s)) == \
                _outcome(lambda s=seat: Game.legal_moves(game, state, s)), seat
        if state.is_over():
            return
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        seats = game.deciding_seats(state)
        for seat in (None, *range(players)):
            moves = game.legal_moves(state, seat)
            text = rng.choice(moves) if moves else game.legal_moves(state)[0]
            for listed in ((False, True) if moves else (False,)):
                own, derived = state.clone(), state.clone()
                got = _outcome(lambda o=own, s=seat, t=text, k=listed:
                               game.apply_move(o, t, s, listed=k))
                assert got == _outcome(lambda d=derived, s=seat, t=text, k=listed:
                                       Game.apply_move(game, d, t, s, listed=k)), seat
                assert game.to_position(own) == game.to_position(derived)
        seat = rng.choice(seats)
        game.apply_move(state, rng.choice(game.legal_moves(state, seat)), seat, listed=True)
    raise AssertionError(f"no end after {MAX_STEPS} events")


@pytest.mark.parametrize("name", NAMES)
def test_every_player_count_and_variant_starts_and_reads_back(name):
    game = get_game(name)
    rng = random.Random(5)
    for players in game.players:
        for variant in game.variants:
            state = game.new_game(players, variant=variant)
            assert game.termination(state) == "aborted"
            while state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, rng))
            game.check(state)
            text = game.to_position(state)
            assert game.to_position(game.from_position(text)) == text
            assert game.variant_of(state) == variant and game.players_of(state) == players


# ------------------------------------------------------------------ through the arbiter

@pytest.fixture(scope="module")
def randoms():
    """The bundled random engine, four times, with the test-only games registered in its
    process too (tests/engines/with_test_games.py runs it as its own main)."""
    started = Engine.start_all([Engine([*WITH_TEST_GAMES, "random"], name=f"random-{i}")
                                for i in range(1, 5)])
    yield started
    Engine.quit_all(started)


@pytest.mark.parametrize("name", NAMES)
def test_a_game_by_the_arbiter_replays_and_round_trips(name, randoms, tmp_path):
    game = get_game(name)
    for players, seed in [(max(2, min(game.players)), 3), (max(game.players), 4)]:
        variant = game.variants[-1]
        record = play_game(randoms[:players], seed=seed, time_control=TimeControl(movetime=2000),
                           game=game, variant=variant)
        h = record.header
        assert (h.game, h.termination, h.faults) == (name, "normal", [])
        assert sorted(r.rank for r in h.result)[0] == 1
        text = format_record(record)
        entry = read_records(text).games[0]
        assert entry.record == record
        assert verify(entry, game.standard_edition()).state.is_over()
        back = read_json_records(records_to_json([record])).games[0]
        assert back.record == record
        path = tmp_path / f"{name}-{players}.rec"
        path.write_text(text, encoding="utf-8")
        r = run_cli("replay", str(path), test_games=True)
        assert r.returncode == 0, r.stderr
        assert "Traceback" not in r.stderr


# ------------------------------------------------------------------ the registry

def test_clone_is_independent_and_retire_ranks_last():
    game = get_game("sneferu")
    fresh = game.new_game(3)
    copy = fresh.clone()
    game.apply_outcome(copy, game.sample_outcome(copy, random.Random(1)))
    assert game.to_position(fresh) == game.to_position(game.new_game(3))
    assert game.termination(fresh) == "aborted"
    # R6: a retired seat ranks below every seat not retired.
    mid = game.new_game(2)
    mid.retire(0)
    assert [s.retired for s in game.standings(mid)] == [True, False]
    assert game.standings(mid)[0].rank == 2


def test_sneferu_standings_carry_stones_and_food_and_bad_text_is_a_notation_error():
    game = get_game("sneferu")
    assert game.score_keys == ("stones", "food")
    with pytest.raises(NotationError):
        game.canonical_move("9.9.9")
    with pytest.raises(NotationError):
        game.from_position("not a position")


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(UnknownGame, match=r"unknown game 'chess' \(known: sneferu, imhotep"):
        get_game("chess")


@pytest.mark.parametrize("name", NAMES)
def test_a_tournament_on_the_command_line_replays_and_draws(name, tmp_path):
    """``sneferu tournament`` (the test-only games registered in its process, as in the
    engines') at the game's smallest table of two or more seats, one deal."""
    game = get_game(name)
    seats = max(2, min(game.players))
    random_engine = " ".join([*WITH_TEST_GAMES, "random"])
    engines = [a for n in "ab" for a in ("--engine", f"name={n} command='{random_engine}'")]
    done = run_cli("tournament", "--game", name, *engines, "--seats", str(seats),
                   "--deals", "1", "--seed", "4", "--movetime", "2000", "--records",
                   str(tmp_path / "t.rec"), "-j", "1", test_games=True, timeout=300)
    assert done.returncode == 0, done.stderr
    table = re.search(r"^#\s+engine\s+games\s+rank.*$", done.stdout, re.M)
    assert table is not None and all(k in table.group() for k in game.score_keys)
    played = read_records((tmp_path / "t.rec").read_text(encoding="utf-8")).games
    assert played and all(g.record.header.game == name and not g.record.header.faults
                          for g in played)
    replay = run_cli("replay", str(tmp_path / "t.rec"), test_games=True)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.count(": verified, ") == len(played)
    page = tmp_path / "t.html"
    drawn = run_cli("replay", str(tmp_path / "t.rec"), "--game", "1", "--html", str(page),
                    test_games=True)
    assert drawn.returncode == 0, drawn.stderr
    assert game.title in page.read_text(encoding="utf-8")
