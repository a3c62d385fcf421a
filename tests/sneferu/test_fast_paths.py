"""Sneferu's fast paths through the game interface give what the plain ones give (SPEC 7.9).

- ``legal_moves`` (``GameState.legal_turn_texts``: a plain start of turn written from the
  move texts made once per buy, a start with stored stones walked with the buys whose
  outcomes need no trying left untried) is ``str`` of each turn of the reference
  enumeration, ``_legal_turns_reference``, which tries every step sequence on copies;
- ``apply_listed_move`` (the move looked up by its text and applied unchecked, from the
  numbers of its buy and placement) leaves the state ``apply_move`` leaves, for listed
  moves of every start of turn: Heba's sail-back, the storehouse, the forced end, Lateef's
  feast left untaken, the buy that ends a solo game;
- ``sample_outcome`` draws the outcome that ``randrange`` over the total of
  ``chance_weights()``, walked in order, falls on, taking the same draws from the generator
  (a bag draw by ``getrandbits`` as ``random.Random.randrange`` takes it);
- every move text the tables keep reads back, through the grammar, as the steps kept, and
  every chance outcome's text (``apply_outcome`` looks it up) as the outcome kept;
- ``chance_outcomes`` lists the outcomes written with the texts kept.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import Seat, build, edition_with
from support import decisions_of, drawn_as_walked

from sneferu_cli.games.sneferu import GAME
from sneferu_cli.games.sneferu.chance import randrange
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.fast import read_move, read_outcome
from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.state import GameState, IllegalAction, Tables, new_game
from sneferu_cli.games.sneferu.steps import DONE

EDITIONS = {
    "standard": standard_edition(),
    "small bag": edition_with(("per_type = 10", "per_type = 3")),  # the bag runs out: R4
    "flat rows": edition_with(("row_extra_food = [0, 1, 1, 2, 2, 3, 3]",
                               "row_extra_food = [0, 0, 0, 0, 1, 1, 1]")),
}


def reference_texts(state: GameState) -> list[str]:
    """The legal moves written from the reference enumeration, one by one."""
    return [str(Move(turn)) for turn in state._legal_turns_reference()]


def same_after(state: GameState, text: str) -> None:
    """``apply_listed_move`` of ``text`` leaves the state ``apply_move`` leaves."""
    fast, plain = state.clone(), state.clone()
    GAME.apply_move(fast, text, listed=True)
    assert GAME.apply_move(plain, text) == text
    assert GAME.to_position(fast) == GAME.to_position(plain), (GAME.to_position(state), text)
    assert fast._turn_key(state.seat) == plain._turn_key(state.seat)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), variant=st.sampled_from(GAME.variants),
       edition=st.sampled_from(sorted(EDITIONS)), seed=st.integers(0, 2**32 - 1))
def test_the_fast_paths_equal_the_plain_ones(players: int, variant: str, edition: str,
                                             seed: int) -> None:
    """Random games through the interface: at every chance node the draw, at every start of
    turn the listing (against the reference where it is not plain, and every fifth plain
    one) and the listed moves applied."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant, edition=EDITIONS[edition])
    decisions = 0
    while not state.is_over():
        if state.is_chance_node():
            fast = drawn_as_walked(GAME, state, rng)
            GAME.apply_outcome(state, fast)
            continue
        texts = GAME.legal_moves(state)
        decisions += 1
        if not state._plain_turns(None, None) or decisions % 5 == 0:
            assert texts == reference_texts(state), GAME.to_position(state)
        for text in texts if decisions % 7 == 0 else [rng.choice(texts)]:
            same_after(state, text)
        GAME.apply_move(state, rng.choice(texts), listed=True)
    assert GAME.legal_moves(state) == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), variant=st.sampled_from(GAME.variants),
       seed=st.integers(0, 2**32 - 1))
def test_a_turn_copy_takes_a_turn_as_a_clone_does(players: int, variant: str,
                                                  seed: int) -> None:
    """The walk tries steps on turn copies (``_turn_copy``, which shares the other seats,
    the tiles and the bag): every step of a listed turn changes a turn copy as it changes a
    clone, and leaves the state copied as it was."""
    rng = random.Random(seed)
    for state in decisions_of(GAME, GAME.new_game(players, variant=variant), rng):
        before = GAME.to_position(state)
        turns = state.legal_turns()
        for turn in rng.sample(turns, min(3, len(turns))):
            copy, clone = state._turn_copy(), state.clone()
            for step in (*turn, DONE):
                if copy.turn_over_since(state.turn):
                    break
                copy.apply(step)
                clone.apply(step)
                assert GAME.to_position(copy) == GAME.to_position(clone), (before, turn)
                assert copy._turn_key(state.seat) == clone._turn_key(state.seat)
            assert GAME.to_position(state) == before, turn
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)


def kinds_of(state: GameState, text: str) -> set[str]:
    """What is special about a listed move that the tables write (else nothing)."""
    if state.tables.listed_number(text) < -1:
        return set()
    p = state.players[state.seat]
    return {kind for kind, there in (
        ("sail-back", text.endswith("h")), ("store", text.endswith("store")),
        ("end", text == "end"), ("buy alone", " " not in text and text != "end"),
        ("feast left", p.builder is not None and p.builder.name == "Lateef"
         and not p.feasted)) if there}


@pytest.mark.parametrize(("players", "setup", "seed"), [
    (1, None, 1), (1, None, 2), (4, "Lateef,Heba,Tsekani,Aya", 3),
    (2, "Heba,Lateef", 4), (3, "Aya,Heba,Lateef", 5)])
def test_listed_moves_of_whole_games_apply_as_checked(players: int, setup: str | None,
                                                      seed: int) -> None:
    """At every decision of a random game, every listed move of a special kind (and one
    other) applied from the tables leaves the state the checked move leaves."""
    rng = random.Random(seed)
    start = GAME.new_game(players) if setup is None else GAME.record_tags().new_game(players, setup)
    met: set[str] = set()
    for state in decisions_of(GAME, start, rng):
        texts = GAME.legal_moves(state)
        special = [t for t in texts if kinds_of(state, t)]
        for text in [*special, rng.choice(texts)]:
            met |= kinds_of(state, text)
            same_after(state, text)
        GAME.apply_move(state, rng.choice(texts), listed=True)
    assert start.is_over()
    assert met >= ({"buy alone"} if players == 1 else {"sail-back", "feast left"})


def test_a_kept_text_away_from_a_start_of_turn_is_refused_as_the_checked_move() -> None:
    """A move text the tables write, given at a chance node: ``apply_listed_move`` does not
    apply it unchecked, it says what the checked move says."""
    rng = random.Random(1)
    state = GAME.new_game(2)
    while state.is_chance_node():
        GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
    text = GAME.legal_moves(state)[0]
    GAME.apply_move(state, text, listed=True)
    assert state.is_chance_node() and state.tables.listed_number(text) >= 0  # the refill
    with pytest.raises(IllegalAction, match="the turn is already over"):
        GAME.apply_move(state, text, listed=True)


def test_every_stored_start_of_random_games_lists_the_reference() -> None:
    """Starts of turn with a stored stone are rare (about one a 4-player game): every one
    of 40 random games' is listed as the reference lists it, moves and texts."""
    rng = random.Random(2)
    met = 0
    for _ in range(40):
        state = GAME.new_game(4)
        while not state.is_over():
            if state.is_chance_node():
                GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
                continue
            if state.players[state.seat].store:
                met += 1
                assert state.legal_turns() == state._legal_turns_reference()
                assert GAME.legal_moves(state) == reference_texts(state)
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
    assert met >= 5


# Seat 1 to move with a stored stone; the offer holds stones of its kind (a stored stone
# and a bought one placed in either order, or the bought one stored instead, reach the
# same state), and the tiles give the STOREHOUSE bonus on the quarry it starts on.
OFFER = ["BTMGBT", "TMBTGA", "BTBTMA", "BMTGBT"]


@pytest.mark.parametrize("seat", [
    Seat(store="BT", pyramid="MG@1.1 TA@1.2", food=12, space=14),
    Seat(store="BTBT", pyramid="MG@1.1", food=12, space=14),  # two of a kind
    Seat(store="BTMG", pyramid="GA@1.2", food=9, space=14),
    Seat(store="BT", pyramid="MG@1.1 TA@1.2", food=12, space=37),  # buys reach the last space
    Seat(store="BTGA", food=20, space=39),
    Seat(store="TM", pyramid="BT@1.1 TB@1.2 BT@1.3 TB@1.4 GA@2.2", food=4, space=30),
], ids=["one", "two-alike", "two", "to-the-end", "two-to-the-end", "enclosing"])
def test_stored_stones_list_the_reference(seat: Seat) -> None:
    """Hand-built starts of turn with stored stones: the quick walk lists what the
    reference lists, and every listed move applies as the checked move does."""
    state = build([seat, Seat(space=40)], offer=OFFER,
                  tiles={14: "STOREHOUSE", 37: "STOREHOUSE"})
    assert not state._plain_turns(None, None)
    texts = GAME.legal_moves(state)
    assert texts == reference_texts(state)
    assert len(set(texts)) == len(texts) > 20
    for text in texts:
        same_after(state, text)


def test_every_written_move_text_reads_back_as_its_steps() -> None:
    """The tables' move texts (``turn_texts_of``, ``sail_texts_of``, the buys alone, the
    forced end): each is read back (``listed_number``) as the move it was written for, and
    the grammar reads it as the steps ``listed_move`` gives; any other text is not read."""
    tables = Tables(standard_edition())
    written = {"end": -1}
    for number in range(4 * 7 * 2):
        c, r, bonus = tables.column_of[number], tables.row_of[number], number & 1
        first = number * tables.moves_per_buy
        plain, sail = tables.turn_texts_of(c, r, bonus), tables.sail_texts_of(number)
        assert plain[:tables.store_at:2] == sail[:tables.store_at:2]
        assert not any(plain[1::2]) and plain[tables.store_at] == sail[tables.store_at]
        written |= {text: first + n for n, text in enumerate(sail) if text}
        written[tables.buy_text[c][r][bonus]] = first + tables.store_at + 1
    # Each of 4 x 7 x 2 buys: alone, then 21 slots x 20 two-material stones, with and
    # without Heba's sail-back, then store; and the forced end.
    assert len(written) == 4 * 7 * 2 * (1 + 21 * 20 * 2 + 1) + 1 == 47_153
    for text, n in written.items():
        assert tables.listed_number(text) == n, text
        assert tables.listed_move(text) == read_move(text).steps, text
    for text in ("1.1  BT@1.1", "1.1 BT@1.1 ", " 1.1", "1.1 BB@1.1", "5.1", "1.8", "0.1",
                 "1,1", "1.1++", "1.1 ", "1.1x BT@1.1", "1.1 BT@7.1", "1.1+ store done",
                 "BT@1.1 1.1", "done", "END", "en", ""):  # not written so
        assert tables.listed_number(text) == -2 and tables.listed_move(text) is None, text


def test_the_placement_texts_are_those_of_the_placements() -> None:
    """``Tables.spaced_place_text``, written without ``str()``: a space and ``str`` of each
    placement by its number, none where the number names no placement (equal materials)."""
    tables = new_game(4).tables
    texts = tables.spaced_place_text
    assert len(texts) == tables.store_at == 21 * 50
    for n, text in enumerate(texts):
        place = tables.place_of[n]
        assert text == (f" {place}" if place is not None else ""), n
    assert sum(1 for text in texts if text) == 21 * 20 * 2
    assert texts[((0 * 5 + 1) * 5 + 0) * 2 + 1] == " TB@1.1h"
    for n, place in enumerate(tables.place_of[:tables.store_at]):
        if place is not None:
            assert tables.place_number(place) == n  # what the walk writes a placement by


def test_every_kept_outcome_text_reads_back_as_its_outcome() -> None:
    """The tables' chance outcomes (``Tables.outcome_of``, ``outcome_text``): the grammar
    reads each text as the outcome kept, and each outcome is written as its text."""
    tables = new_game(4, builders="random").tables
    assert len(tables.outcome_of) == 10 + 6 + 4  # stones, tiles, seats
    for text, outcome in tables.outcome_of.items():
        assert read_outcome(text) == outcome
        assert tables.outcome_text[outcome] == str(outcome) == text


@pytest.mark.parametrize(("players", "variant"), [(1, "standard"), (2, "builders"),
                                                  (4, "standard")])
def test_the_chance_outcomes_listed_are_the_outcomes_written(players: int,
                                                             variant: str) -> None:
    """``chance_outcomes`` (compiled, the texts kept) lists at every chance node of
    random games each outcome of ``GameState.chance_outcomes`` written, with its
    probability, in the same order."""
    rng = random.Random(players)
    state = GAME.new_game(players, variant=variant)
    nodes = 0
    while not state.is_over():
        if state.is_chance_node():
            assert GAME.chance_outcomes(state) == [(str(o), p)
                                                   for o, p in state.chance_outcomes()]
            nodes += 1
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
    assert nodes > 20


def test_an_outcome_looked_up_is_checked_as_one_read() -> None:
    """A draw of a stone the bag no longer holds, at a refill, and a draw where a tile is
    laid: ``apply_outcome`` refuses them with the words ``apply`` has for them."""
    rng = random.Random(1)
    state = GAME.new_game(2)
    while not state.draws_from_bag() or state.is_drawing_offer():  # to the first refill
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, GAME.legal_moves(state)[0], listed=True)
    state.bag_total -= state.bag[0]
    state.bag[0] = 0  # no BT left
    with pytest.raises(IllegalAction) as looked_up:
        GAME.apply_outcome(state.clone(), "~BT")
    with pytest.raises(IllegalAction) as read:
        state.clone().apply(read_outcome("~BT"))
    assert str(looked_up.value) == str(read.value)
    assert str(read.value).startswith("~BT: the bag holds BM:")
    setup = new_game(2)
    with pytest.raises(IllegalAction, match="lays a tile on the quarry at space"):
        GAME.apply_outcome(setup, "~BT")


class Recorded(random.Random):
    """A generator with its own ``randrange``: :func:`randrange` must call it."""

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return 0


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 99, 100, 128, 129, 2**40 + 3])
def test_randrange_draws_as_random_does(n: int) -> None:
    ours, theirs = random.Random(n), random.Random(n)
    for _ in range(200):
        assert randrange(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
    assert randrange(Recorded(1), n) == 0


# Row extras out of order (a dearer row below a cheaper one): a plain buy is dropped only
# for a buy of a row below it in its run of one kind of stone that costs the same.
UNORDERED_ROWS = edition_with(("row_extra_food = [0, 1, 1, 2, 2, 3, 3]",
                               "row_extra_food = [1, 0, 1, 0, 2, 2, 0]"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(1, 4), variant=st.sampled_from(GAME.variants),
       edition=st.sampled_from([*sorted(EDITIONS), "unordered rows"]),
       seed=st.integers(0, 2**32 - 1))
def test_every_listing_is_its_turns_written(players: int, variant: str, edition: str,
                                            seed: int) -> None:
    """Random games: at every decision the listing (move texts from the tables) is each
    turn of ``legal_turns`` (the same buys, placements from the step tables) written, and
    every third one lists what the reference lists."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant,
                          edition=EDITIONS.get(edition, UNORDERED_ROWS))
    for n, at in enumerate(decisions_of(GAME, state, rng)):
        texts = GAME.legal_moves(at)
        assert texts == [str(Move(turn)) for turn in at.legal_turns()], GAME.to_position(at)
        if n % 3 == 0:
            assert texts == reference_texts(at), GAME.to_position(at)
        GAME.apply_move(at, rng.choice(texts), listed=True)


@settings(max_examples=200, deadline=None)
@given(open_slots=st.integers(0, 2**21 - 1), stone=st.integers(0, 9),
       number=st.integers(0, 4 * 7 * 2 - 1), sail=st.booleans())
def test_a_buy_and_its_placements_are_written_from_the_tables(open_slots: int, stone: int,
                                                              number: int, sail: bool) -> None:
    """``Tables.stone_texts_of`` at the indices of ``place_order``: the buy's text, a space
    and each placement of ``placements`` (the same open slots, stone and sail-back), as the
    grammar writes them; and the same indices pick those placements out of
    ``stone_places``."""
    tables = new_game(4).tables
    places, _ = tables.placements(open_slots, stone, sail)
    buy = tables.buy_of[number]
    order = tables.place_order(open_slots, sail)
    row = tables.stone_texts_of(number, stone, sail)
    assert tuple(row[i] for i in order) == tuple(str(Move((buy, place))) for place in places)
    assert tuple(tables.stone_places[stone][i] for i in order) == places
    assert len(places) == bin(open_slots).count("1") * (4 if sail else 2)
    if not sail:  # the sail-back's places are left empty
        assert all(text == "" for i, text in enumerate(row) if i & 2)
