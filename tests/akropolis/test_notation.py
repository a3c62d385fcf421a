"""The Akropolis move and position notations (SPEC.md "Akropolis"; A23): the grammars and
the hand-written readers accept the same lines, every number read is bounded, positions
read back, and a position no game reaches is rejected with its reason."""

from __future__ import annotations

import random

import pytest
from akropolis.helpers import play, play_to_end, start
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import mutate

from sneferu_cli.game import NotationError
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.move import parse_move, parse_outcome
from sneferu_cli.games.akropolis.position import fields, grammar_fields
from sneferu_cli.grammar import parse

NUMBER = st.sampled_from(["0", "1", "-1", "12", "-12", "99", "-99", "7"])
MOVE = st.tuples(st.sampled_from("123456789"), NUMBER, NUMBER, st.sampled_from("012345")
                 ).map(lambda t: f"{t[0]} @{t[1]},{t[2]} r{t[3]}")
NOISE = " \t@,-+0123456789rT~"


@st.composite
def mutated(draw: st.DrawFn, lines: st.SearchStrategy[str]) -> str:
    return mutate(draw, draw(lines), NOISE)


def grammar_move(text: str) -> tuple[int, int, int, int]:
    tree = parse("akropolis-move", "move", text, "move")
    place, q, r, rot = (int(str(t)) for t in tree.children)
    return place, q, r, rot


def _read(reader, text: str) -> object:
    try:
        return reader(text)
    except ValueError:
        return "rejected"


@settings(max_examples=2000, deadline=None)
@given(mutated(MOVE))
@example("1 @-0,0 r0")
@example("1 @01,0 r0")
@example("1 @+1,0 r0")
@example("10 @1,0 r0")
@example("1 @100,0 r0")
@example("1 @1,0 r6")
def test_the_grammar_and_the_move_parser_agree(text):
    by_hand = _read(parse_move, text)
    assert _read(grammar_move, text) == by_hand
    if by_hand != "rejected":
        assert GAME.canonical_move(text) == text  # one spelling per move (A23)


@settings(max_examples=500, deadline=None)
@given(mutated(st.sampled_from(["~T17", "~T01", "~T5", "~Tx1"])))
def test_the_grammar_and_the_outcome_parser_agree(text):
    def grammar(t: str) -> str:
        return str(parse("akropolis-move", "outcome", t, "outcome").children[0])[1:]

    assert _read(grammar, text) == _read(parse_outcome, text)


def test_huge_numbers_are_notation_errors():
    """Every number a notation reads is bounded: no traceback, no slow conversion."""
    big = "9" * 5000
    for text in [f"1 @{big},0 r0", f"{big} @0,0 r0", f"1 @0,0 r{big}"]:
        with pytest.raises(NotationError, match="bad move"):
            GAME.apply_move(start(), text)
    position = GAME.to_position(start())
    for bad in [position.replace(" 1:-", f" {big}:-"),
                position.replace("standard hmbtga 1", f"standard hmbtga {big}")]:
        with pytest.raises(NotationError):
            GAME.from_position(bad)
    with pytest.raises(NotationError):
        GAME.from_position(position.replace(" 1:-", " 1:T10@" + big + ",0r0"))


def test_a_move_far_outside_any_city_is_illegal_not_a_crash():
    """A position beyond the reach of any city (two digits are read) is an illegal move."""
    state = start()
    with pytest.raises(ValueError, match="too far from the city"):
        GAME.apply_move(state, "1 @99,-99 r0")
    with pytest.raises(ValueError, match="touches no tile"):
        GAME.apply_move(state, "1 @40,-20 r0")


GOLDEN = [
    # The start of a 2-player game, before the site is drawn.
    (2, "hmbtga", [], "standard hmbtga 1 1 ?,?,?,? 1:- 2:-"),
    # The rules' placement examples (5.2): T05, then T22 over two tiles; the refill waits.
    (2, "HMBTGa", ["~T05", "~T22", "~T01", "~T02", "1 @1,-1 r0", "2 @1,-1 r0", "1 @0,0 r0"],
     "standard HMBTGa 2 2 T02,?,?,? 2:T05@1,-1r0/T22@0,0r0 1:T01@1,-1r0"),
    # Three players, all tiles, after the refill's draws.
    (3, "hmbtgA", ["~T40", "~T50", "~T60", "~T10", "~T20", "2 @-1,0 r5", "1 @1,-1 r0",
                   "1 @2,0 r1", "1 @-1,2 r3", "~T61", "~T01", "~T02", "~T03"],
     "standard hmbtgA 2 2 T20,T61,T01,T02,T03 0:T50@-1,0r5/T10@-1,2r3 2:T40@1,-1r0 "
     "3:T60@2,0r1"),
]


@pytest.mark.parametrize(("players", "variant", "events", "text"), GOLDEN)
def test_golden_positions(players, variant, events, text):
    state = GAME.new_game(players, variant=variant)
    play(state, *events)
    assert GAME.to_position(state) == text
    again = GAME.from_position(text)
    assert GAME.to_position(again) == text
    assert again.stones == state.stones and again.undrawn == state.undrawn
    assert GAME.legal_moves(again) == GAME.legal_moves(state)


def test_a_retired_seat_and_the_end_read_back():
    state = start(3)
    state.retire(1)
    text = GAME.to_position(state)
    assert text == "standard hmbtga 1 1 T01,T02,T03,T04,T05 1:- 2:-:retired 3:-"
    assert GAME.from_position(text).retired == [False, True, False]
    play_to_end(state, random.Random(2))
    text = GAME.to_position(state)
    assert GAME.from_position(text).is_over() and GAME.to_position(GAME.from_position(text)) \
        == text


START = "standard hmbtga 1 1 T01,T02,T03,T04 1:- 2:-"


@pytest.mark.parametrize(("text", "why"), [
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:-", "1 seats"),
    ("standard hmbtga 3 1 T01,T02,T03,T04 1:- 2:-", "seat 3 named"),
    ("standard hmbtga 1 1 T01,T02,T03,T99 1:- 2:-", "unknown tile T99"),
    ("standard hmbtga 1 1 T01,T02,T03,T50 1:- 2:-", "T50 .marked 4. is not in play"),
    ("standard hmbtga 1 1 T01,T02,T03,T01 1:- 2:-", "T01 appears twice"),
    ("standard hmbtga 1 1 T01,?,T03,T04 1:- 2:-", r"\(\?\) come last"),
    ("standard hmbtga 1 1 T01,T02,T03,T04,T05 1:- 2:-", "5 places, the site holds 4"),
    ("standard hmbtga 1 1 T01,T02,T03 1:- 2:-", "3 tiles with 34 undrawn"),
    ("standard hmbtga 1 1 T01,?,?,? 1:T05@1,-1r0 2:-", "no set-up or refill"),
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:T05@5,5r0 2:-", "touches no tile"),
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:T05@0,0r0 2:-", "not of one height"),
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:- 2:-:retired".replace("1 1", "2 1"),
     "seat 2 is to move but retired"),
    ("other hmbtga 1 1 T01,T02,T03,T04 1:- 2:-", "edition 'other'"),
    ("standard hmbtgx 1 1 T01,T02,T03,T04 1:- 2:-", "unexpected"),
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:T05@1,-1r7 2:-", "unexpected"),
    ("standard hmbtga 1 1 T01,T02,T03,T04 1:T05@1,-01r0 2:-", "unexpected"),
])
def test_impossible_positions_are_rejected_with_the_reason(text, why):
    assert GAME.to_position(GAME.from_position(START)) == START
    with pytest.raises(NotationError, match=why):
        GAME.from_position(text)


def test_every_listed_move_and_outcome_of_random_games_is_in_the_grammar():
    rng = random.Random(11)
    for players, variant in ((2, "hmbtgA"), (4, "HMBTGa")):
        state = GAME.new_game(players, variant=variant)
        while not state.is_over():
            if state.is_chance_node():
                outcomes = [o for o, _ in GAME.chance_outcomes(state)]
                for o in outcomes:
                    assert str(parse("akropolis-move", "outcome", o, "o").children[0]) == o
                GAME.apply_outcome(state, rng.choice(outcomes))
                continue
            moves = GAME.legal_moves(state)
            for text in moves[::7]:
                assert grammar_move(text) == parse_move(text)
            GAME.apply_move(state, rng.choice(moves))


POSITIONS = st.sampled_from([
    "standard hmbtga 1 1 ?,?,?,? 1:- 2:-",
    "standard HMBTGa 2 2 T02,?,?,? 2:T05@1,-1r0/T22@0,0r0 1:T01@1,-1r0",
    "standard hmbtgA 2 2 T20,T61,T01,T02,T03 0:T50@-1,0r5/T10@-1,2r3 2:T40@1,-1r0 "
    "3:T60@2,0r1",
    "my.ed-1 hmbtga 4 3 T01,T02 12:T10@-12,0r5:retired 0:- 3:-:retired 999:T33@0,10r0",
])


@st.composite
def mutated_position(draw: st.DrawFn) -> str:
    return mutate(draw, draw(POSITIONS), NOISE + "?:/;,.Tr-abcdefghmHM")


@settings(max_examples=1500, deadline=None)
@given(mutated_position())
@example("standard hmbtga 1 1 T123456789 1:- 2:-")
@example("standard hmbtga 1 1 T01 1:T01@0,0r0:retired:retired 2:-")
@example("standard hmbtga 1 1 T01 1:T01@0,0r0/ 2:-")
@example("standard hmbtga 1 1 T01 1:T01@0,0r0//T02@1,0r0 2:-")
@example("standard hmbtga 1 1 T01 1:T01@0,0r0/T02@1,0r0T03@2,0r0 2:-")
@example("standard hmbtga 1 1 ?? 1:- 2:-")
def test_the_position_grammar_and_the_fast_reader_agree(text):
    """position.fields reads the fields with regular expressions; the Lark grammar must
    accept exactly the same lines, with the same fields (and it gives the error)."""
    assert _read(fields, text) == _read(grammar_fields, text)


def test_a_malformed_position_names_the_column():
    with pytest.raises(NotationError, match=r"position: unexpected ',' at column 25"):
        GAME.from_position("standard hmbtga 1 1 T01,,T02 1:- 2:-")
