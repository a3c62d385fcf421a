"""The Imhotep move grammar (protocol/imhotep-move.lark) and the hand-written move parser
(sneferu_cli/games/imhotep/move.py) accept exactly the same lines, with the same value.

Lines are generated from the grammar's shapes (every move form, chance outcomes), then
mutated (a character inserted, deleted or replaced, blanks added), as
tests/test_protocol_fast.py does for Sneferu; every move listed in random games is also
read by both.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import mutate

from sneferu_cli.game import NotationError
from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.move import (
    PASS,
    ChoosePyramid,
    Hammer,
    Keep,
    Lever,
    Load,
    Move,
    Q,
    Sail,
    SailCard,
    TakeCard,
    TempleChoice,
    chisel,
    parse_move,
    parse_outcome,
)
from sneferu_cli.grammar import Token, Tree, parse

SHIP = st.tuples(st.sampled_from("1234"), st.sampled_from("ABC")).map("".join)
SLOT = st.tuples(SHIP, st.just("."), st.sampled_from(["1", "2", "3", "4", "10"])).map("".join)
SITE = st.sampled_from("MPTCO")
CODE = st.sampled_from(["ENT", "STA", "HAM", "PL", "PM", "PR", "X1", "Lev"])
ORDER = st.lists(st.sampled_from("1234"), min_size=1, max_size=4).map(",".join)


def _words(*parts: st.SearchStrategy[str] | str) -> st.SearchStrategy[str]:
    return st.tuples(*(st.just(p) if isinstance(p, str) else p for p in parts)).map(" ".join)


MOVE = st.one_of(
    st.sampled_from(["Q", "PASS", "HAM -", "take MX", "temple pts", "temple stones"]),
    _words("L", SLOT), _words("S", SHIP, SITE), _words("LEV", SHIP, SITE, ORDER),
    _words("HAM", SLOT), _words("SAI", SLOT, SITE), _words("CHI", SLOT, SLOT),
    _words("take", st.sampled_from(["M1", "M2", "M3", "M4", "M9"])), _words("keep", CODE),
    _words("pyr", CODE), _words("pyr", CODE, "bonus"), _words("pyr", CODE, "bonus", SLOT))
OUTCOME = st.tuples(st.just("~"), st.sampled_from(["R2-3", "R4-7", "ENT", "STA", "x", "1"])
                    ).map("".join)
NOISE = " \t~-.,0123456789ABCLMPQSTXOabcdehklmnoprstux"


@st.composite
def mutated(draw: st.DrawFn, lines: st.SearchStrategy[str]) -> str:
    """A line of the grammar, often with one or two characters changed."""
    return mutate(draw, draw(lines), NOISE)


def _slot(tok: Token) -> tuple[str, int]:
    ship, _, n = str(tok).partition(".")
    return ship, int(n)


def grammar_move(text: str) -> Move:
    """The move value of ``text`` as the Lark grammar reads it."""
    tree = parse("imhotep-move", "move", text, "move")
    node = tree.children[0]
    assert isinstance(node, Tree)
    a = [c for c in node.children if isinstance(c, Token)]
    kind = node.data
    if kind == "take_stones":
        return Q
    if kind == "pass":
        return PASS
    if kind == "load":
        return Load(*_slot(a[0]))
    if kind == "sail":
        return Sail(str(a[0]), str(a[1]))
    if kind == "lever":
        return Lever(str(a[0]), str(a[1]), tuple(int(x) for x in a[2:]))
    if kind == "hammer":
        return Hammer() if a[0].type == "NOLOAD" else Hammer(*_slot(a[0]))
    if kind == "sail_card":
        return SailCard(*_slot(a[0]), str(a[1]))
    if kind == "chisel":
        return chisel(_slot(a[0]), _slot(a[1]))
    if kind == "take_card":
        return TakeCard(str(a[0]))
    if kind == "keep":
        return Keep(str(a[0]))
    if kind == "pyr":
        if len(a) == 1:
            return ChoosePyramid(str(a[0]))
        return ChoosePyramid(str(a[0]), True, *(_slot(a[2]) if len(a) > 2 else ()))
    assert kind == "temple"
    return TempleChoice(str(a[0]) == "stones")


def _read(reader, text: str) -> object:
    try:
        return reader(text)
    except ValueError:  # both parsers' NotationError (the Lark loader's is a ValueError)
        return "rejected"


@settings(max_examples=3000, deadline=None)
@given(mutated(MOVE))
@example("CHI 2B.2 3A.1")
@example("LEV 4A P 1,,2")
@example("L 3A.01")
@example("pyr PL bonus 3A.1 ")
@example("keep bonus")
@example("HAM 2A")
@example("S 10A P")
def test_the_grammar_and_the_move_parser_agree(text):
    by_hand = _read(parse_move, text)
    assert _read(grammar_move, text) == by_hand
    if by_hand != "rejected":
        assert parse_move(str(by_hand)) == by_hand  # the canonical text reads back


@settings(max_examples=1000, deadline=None)
@given(mutated(OUTCOME))
@example("~")
@example("~R2_3")
def test_the_grammar_and_the_outcome_parser_agree(text):
    def grammar(t: str) -> str:
        return str(parse("imhotep-move", "outcome", t, "outcome").children[0])[1:]

    assert _read(grammar, text) == _read(parse_outcome, text)


def test_every_listed_move_and_outcome_of_random_games_is_in_the_grammar():
    rng = random.Random(11)
    for players, variant in ((2, "AAAAA"), (3, "BBBBB"), (4, "BABAB+wrath")):
        state = GAME.new_game(players, variant=variant)
        while not state.is_over():
            if state.is_chance_node():
                outcomes = [o for o, _ in GAME.chance_outcomes(state)]
                for o in outcomes:
                    parse("imhotep-move", "outcome", o, "outcome")
                GAME.apply_outcome(state, rng.choice(outcomes))
                continue
            moves = GAME.legal_moves(state)
            for text in moves:
                assert grammar_move(text) == parse_move(text)
                assert not text.startswith(("~", "{")) and ";" not in text
            GAME.apply_move(state, rng.choice(moves))


def test_a_malformed_move_names_the_column():
    with pytest.raises(ValueError, match="column 6"):
        grammar_move("S 4A Z")
    with pytest.raises(NotationError, match="bad site 'Z'"):
        parse_move("S 4A Z")
