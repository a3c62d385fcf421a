"""Imhotep move notation (IMHOTEP-RULES.md section 2, "Moves"): round trips, I37 forms."""

from __future__ import annotations

import pytest

from sneferu_cli.game import NotationError
from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.move import (
    Chisel,
    ChoosePyramid,
    Hammer,
    Lever,
    Load,
    MoveValue,
    TakeStones,
    parse_move,
    parse_outcome,
)

TEXTS = ["Q", "L 3A.2", "S 4A P", "LEV 4A P 3,1,4,2", "HAM 2A.1", "HAM -", "SAI 3A.3 T",
         "CHI 3A.1 2B.2", "PASS", "take M2", "take MX", "keep ENT", "pyr PL", "pyr PL bonus",
         "pyr PR bonus 3A.1", "temple pts", "temple stones", "CHI 4A.1 4A.3"]


@pytest.mark.parametrize("text", TEXTS)
def test_round_trip(text):
    move = parse_move(text)
    assert str(move) == text
    assert type(move).from_str(text) == move
    assert MoveValue.from_str(text) == move


def test_values():
    assert parse_move("Q") == TakeStones()
    assert parse_move("L 3A.2") == Load("3A", 2)
    assert parse_move("LEV 4A P 3,1,4,2") == Lever("4A", "P", (3, 1, 4, 2))
    assert parse_move("HAM -") == Hammer()
    assert parse_move("pyr PR bonus 3A.1") == ChoosePyramid("PR", True, "3A", 1)


def test_chisel_canonical_order():
    """I37: the chisel's slots in round-card ship order (larger first, then letter, slot);
    the other order is accepted and printed canonically."""
    assert parse_move("CHI 2B.2 3A.1") == Chisel("3A", 1, "2B", 2)
    assert GAME.canonical_move("CHI 2B.2 3A.1") == "CHI 3A.1 2B.2"
    assert GAME.canonical_move("CHI 3B.1 3A.2") == "CHI 3A.2 3B.1"
    assert GAME.canonical_move("CHI 4A.3 4A.1") == "CHI 4A.1 4A.3"


@pytest.mark.parametrize("text", [
    "", "q", "Q ", " Q", "Q  x", "L 3A", "L 3a.2", "L 3A.0", "L 3A.02", "S 4A X", "S 4A",
    "LEV 4A P", "LEV 4A P 1,,2", "HAM", "HAM 2A", "SAI 3A.3", "CHI 3A.1", "take M", "take M0",
    "take XX", "keep", "keep ent", "pyr", "pyr PL bonu", "pyr PL bonus 3A", "temple",
    "temple both", "PASS PASS", "~ENT", "{x}", "L 3A.2;", "S 10A P"])
def test_bad_text_is_a_notation_error(text):
    with pytest.raises(NotationError) as e:
        parse_move(text)
    assert "\n" not in str(e.value)


def test_outcomes():
    assert parse_outcome("~R2-3") == "R2-3" and parse_outcome("~ENT") == "ENT"
    for bad in ("ENT", "~", "~E NT", "~E;"):
        with pytest.raises(NotationError):
            parse_outcome(bad)


def test_no_word_starts_with_tilde_or_brace():
    for text in TEXTS:
        assert all(w[0] not in "~{" for w in text.split(" ")) and ";" not in text
