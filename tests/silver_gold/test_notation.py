"""Move, outcome and position notation (SPEC 14.2-14.5): the hand-written move reader
accepts exactly what ``protocol/silver-gold-move.lark`` accepts (hypothesis), numbers are
bounded, positions are checked by their grammar and by what a game can reach."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from silver_gold.helpers import Seat, build
from support import mutate

from sneferu_cli.game import NotationError, seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.move import parse_move, parse_outcome
from sneferu_cli.games.silver_gold.position import POSITION
from sneferu_cli.games.silver_gold.state import DEALING, KEEPING
from sneferu_cli.grammar import parse

PIECES = ["keep", "take", "deck", " ", " ", "1", "17", "48", "99", "100", "0", "05", ":",
          ",", "+", "a1", "e5", "b3", "f1", "a6", "7", "~", "x", "deal:", "offer:", "draw:",
          "exp:", "T4", "I3"]


def grammar_accepts(text: str, start: str) -> bool:
    try:
        parse("silver-gold-move", start, text, "move")
    except NotationError:
        return False
    return True


def reader_accepts(read, text: str) -> bool:
    try:
        read(text)
    except NotationError:
        return False
    return True


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=9).map("".join))
def test_the_move_reader_accepts_exactly_the_grammar(text):
    assert reader_accepts(parse_move, text) == grammar_accepts(text, "move"), text
    assert reader_accepts(parse_outcome, text) == grammar_accepts(text, "outcome"), text


@pytest.mark.parametrize("text", ["keep 12 40", "17:a1,a2,b2", "17:b3", "take 31",
                                  "take deck", "7:c1,d1,e1 +7:c2 +23:a1", "17:b2,a1,a2"])
def test_documented_moves_read_by_both(text):
    assert grammar_accepts(text, "move") and reader_accepts(parse_move, text)


def test_huge_numbers_are_notation_errors_not_crashes():
    for text in ["keep " + "1" * 5000 + " 2", "take " + "4" * 5000, "1" * 5000 + ":a1",
                 "7:a1 +" + "7" * 5000 + ":a2"]:
        with pytest.raises(NotationError):
            parse_move(text)
    with pytest.raises(NotationError):
        GAME.canonical_outcome("~offer:" + "9" * 5000)
    with pytest.raises(NotationError):
        GAME.from_position("sgp-recon-1 r1.0 deal:1 exp:- offer:- deck:" + "4" * 5000
                           + " | 1: R0 G0 F:---- S0 done:- pts:- | 2: R0 G0 F:---- S0 "
                           "done:- pts:-")


def test_outcomes_canonical_and_grouped_by_kind():
    assert GAME.canonical_outcome("~deal:47,5,22,18") == "~deal:5,18,22,47"
    assert [GAME.outcome_kind(t) for t in ["~deal:1,2,3,4", "~offer:9", "~draw:33",
                                           "~exp:T4"]] == ["deal", "offer", "draw", "exp"]
    for bad in ["~deal:1,2,3", "~offer:1,2", "~exp:", "~pick:3", "deal:1,2,3,4", "~draw:0"]:
        with pytest.raises(NotationError):
            GAME.canonical_outcome(bad)


GOOD = build(Seat(play={7: "a1 b1"}), Seat(play={9: "a1"}), exp=("I3",), offer=(3, 4))
GOOD_TEXT = GAME.to_position(GOOD)


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("sgp-recon-1", "other", "edition 'other'"),
    ("r1.1", "r5.1", "round 5"),
    ("r1.1", "r1.2", "1 expedition cards revealed in turn 2"),
    ("exp:I3", "exp:Q9", "unknown expedition pattern 'Q9'"),
    ("offer:3,4", "offer:4,3", "ascending"),
    ("offer:3,4", "offer:3,7", "shown twice"),
    ("deck:44", "deck:43", "deck:43 but 44"),
    ("7[a1,b1]", "7[a1,c1]", "not connected to the entrance"),
    ("7[a1,b1]", "7[b1]", "without its entrance"),
    ("7[a1,b1]", "7[a1,a2,b2]", "a wall"),
    ("R0", "R11", "gems at most 10"),
    ("F:----", "F:-x--", "a torch of a round not yet played"),
    ("pts:-", "pts:PUR6", "more PUR boxes than completed cards allow"),
    ("| 2:", "| 3:", "seat 2 is written as '3:'"),
    ("mark", "take:1", "seat 1 takes no card now"),
    ("mark", "keep", "set-up phase keep in r1.1 (set-up is r1.0)"),
])
def test_a_position_no_game_can_reach_is_refused_with_the_reason(old, new, reason):
    assert old in GOOD_TEXT
    with pytest.raises(NotationError, match=reason.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[")):
        GAME.from_position(GOOD_TEXT.replace(old, new, 1))


def test_a_sealed_move_in_a_position_must_be_legal():
    GOOD_SEALED = GOOD_TEXT.replace("| 2:", "sealed:7:c1,d1,e1+7:c2+7:d2 | 2:")
    assert GAME.to_position(GAME.from_position(GOOD_SEALED)) == GOOD_SEALED
    with pytest.raises(NotationError, match="owed"):
        GAME.from_position(GOOD_TEXT.replace("| 2:", "sealed:7:c1,d1,e1 | 2:"))


def test_garbage_positions():
    for text in ["", "sgp-recon-1", GOOD_TEXT + " |", GOOD_TEXT.replace(" ", "  ", 1),
                 GOOD_TEXT.split(" | ")[0] + " | 1: R0 G0 F:---- S0 done:- pts:-"]:
        with pytest.raises(NotationError):
            GAME.from_position(text)


def _game_positions() -> list[str]:
    """Positions and views of real games of 2-4 seats, at every kind of phase."""
    out = []
    phases: set[int] = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3)
        k = 0
        while not state.is_over():
            if k % 9 == 0 or state.phase in (KEEPING, DEALING) or state.phase not in phases:
                phases.add(state.phase)
                out += [GAME.to_position(state), seat_view(GAME, state, k % state.players)]
            if state.is_chance_node():
                GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            else:
                GAME.apply_move(state, rng.choice(GAME.legal_moves(state)), listed=True)
            k += 1
        out.append(GAME.to_position(state))
    retired = GAME.from_position(out[-1])
    retired.retired[0] = True
    return [*out, GAME.to_position(retired)]


POSITIONS = _game_positions()
NOISE = " |,:.-?[]+0123456789abcdefxRGSFPOAURNdealtsdonwrikpm"


@st.composite
def mutated(draw: st.DrawFn) -> str:
    return mutate(draw, draw(st.sampled_from(POSITIONS)), NOISE)


def _lark_accepts(text: str) -> bool:
    try:
        parse("silver-gold-position", "position", text, "position")
    except NotationError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(mutated())
def test_the_position_pattern_is_exactly_the_grammar(text):
    assert (POSITION.fullmatch(text) is not None) == _lark_accepts(text), text


def test_every_kind_of_seat_field_is_met():
    joined = " ".join(POSITIONS)
    for word in ("dealt:?", "dealt:", "sealed:", "now:", "owed:", "retired", "take:",
                 "draw:", "refill", "keep", "deal:", "offer ", "over", "[]", "pts:"):
        assert word in joined, word
