"""The edition sgp-recon-1 (SILVER-GOLD-RULES.md 2.1-2.5) and its check, ruling G2: a
wrong file is one EditionError line naming the file and the field."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from sneferu_cli.edition import EditionError
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.edition import group_of, load_edition, parse_edition

SHIPPED = (Path(__file__).resolve().parents[2] / "sneferu_cli" / "games" / "silver_gold"
           / "editions" / "sgp-recon-1.toml")
RAW = SHIPPED.read_text(encoding="utf-8")


def test_the_shipped_edition_is_the_rules_data():
    ed = GAME.standard_edition()
    assert ed.name == "sgp-recon-1" and len(ed.cards) == 48
    # 2.1: card n is ORA when n mod 3 = 1, GRN when 2, PUR when 0; 16 of each.
    assert all(c.colour == ("PUR", "ORA", "GRN")[c.number % 3] for c in ed.cards)
    assert ed.cards[32].rows == ("E.S..", "G....", ".##.#", "P...G", "#XR.T")  # card 33
    # 2.4: 8 cards, 6 patterns; 2.5: the skull values.
    assert [(e.code, len(e.cells), e.copies) for e in ed.expeditions] == [
        ("D2", 2, 1), ("I3", 3, 2), ("V3", 3, 2), ("T4", 4, 1), ("L4", 4, 1), ("O4", 4, 1)]
    assert ed.skull_values == (1, 2, 3, 4, 6, 8, 10, 12, 15, 20)


def test_the_totals_per_colour_of_section_2_2():
    ed = GAME.standard_edition()
    for colour, walls in [("ORA", 87), ("GRN", 86), ("PUR", 92)]:
        counts = Counter("".join("".join(c.rows) for c in ed.cards if c.colour == colour))
        assert {k: counts[k] for k in "ETRGSXFP#"} == {
            "E": 16, "T": 16, "R": 24, "G": 24, "S": 30, "X": 15, "F": 6, "P": 4, "#": walls}
    assert all(4 <= "".join(c.rows).count("#") <= 7 for c in ed.cards)


def _route_length(grid: str) -> int:
    """The cells of the shortest route of non-wall cells from E to T."""
    frontier, seen, steps = {grid.index("E")}, {grid.index("E")}, 1
    open_cells = {k for k, c in enumerate(grid) if c != "#"}
    while grid.index("T") not in frontier:
        frontier = {j for k in frontier for j in group_of(open_cells, k)
                    if abs(j // 5 - k // 5) + abs(j % 5 - k % 5) == 1} - seen
        seen |= frontier
        steps += 1
    return steps


def test_every_card_is_solvable_by_a_route_of_nine_cells():
    assert {_route_length("".join(c.rows)) for c in GAME.standard_edition().cards} == {9}


def _generate(n: int) -> tuple[str, ...]:
    """Card ``n`` by the generation rule of 2.2 (steps 1-6)."""
    s = n

    def rand(k: int) -> int:
        nonlocal s
        s = (1103515245 * s + 12345) % 2**31
        return (s // 65536) % k

    i = (n - 1) // 3
    g = ["E"] + ["."] * 23 + ["T"]
    target, walls = 4 + rand(4), 0
    for _ in range(200):
        if walls == target:
            break
        c = rand(25)
        if g[c] != ".":
            continue
        g[c] = "#"
        open_cells = {k for k in range(25) if g[k] != "#"}
        if group_of(open_cells, 0) != open_cells:
            g[c] = "."
        else:
            walls += 1
    for code, times in [("S", 1 + (i // 3) % 3), ("R", 1 + i % 2), ("G", 1 + (i // 2) % 2),
                        ("X", i % 3), ("F", int(i % 3 == 0)), ("P", int(i % 4 == 2))]:
        for _ in range(times):
            c = rand(25)
            while g[c] != ".":
                c = rand(25)
            g[c] = code
    return tuple("".join(g[r * 5:r * 5 + 5]) for r in range(5))


def test_the_grids_are_those_of_the_generation_rule():
    assert [c.rows for c in GAME.standard_edition().cards] == [
        _generate(n) for n in range(1, 49)]


def test_an_edition_file_loads_from_a_path(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(RAW.replace('name = "sgp-recon-1"', 'name = "mine"'), encoding="utf-8")
    ed = load_edition(path)
    assert ed.name == "mine"
    state = GAME.new_game(2, edition=ed)
    assert GAME.to_position(state).startswith("mine r1.0 deal:1")
    with pytest.raises(EditionError, match=r"cannot read edition"):
        load_edition(tmp_path / "missing.toml")


def _card_rows(n: int) -> str:
    m = re.search(rf"number = {n}\ncolour = \"\w+\"\nrows = (\[.*\])", RAW)
    assert m
    return m.group(1)


BAD = [
    # (what to replace, by what, the message) — each breaks one condition of G2.
    ("number = 48\n", "number = 47\n", r"cards: the numbers must be 1 to 48, each once"),
    ('number = 48\ncolour = "PUR"', 'number = 48\ncolour = "GRN"',
     r"cards: 15 PUR cards, need 16"),
    ('number = 48\ncolour = "PUR"', 'number = 48\ncolour = "RED"',
     r"cards\[47\]\.colour: 'RED' is not one of PUR, ORA, GRN"),
    (_card_rows(1), '["E##..", "...#.", "#GR#.", "#.F.S"]',
     r"cards\[0\]\.rows: a chamber is 5 rows of 5 cells"),
    (_card_rows(1), '["E##..", "...#.", "#GR#.", "#.F.S", "...T"]',
     r"cards\[0\]\.rows: a chamber is 5 rows of 5 cells"),
    (_card_rows(1), '["E##..", "...#.", "#GR#.", "#.F.Q", "....T"]',
     r"cards\[0\]\.rows: unknown cell code 'Q'"),
    (_card_rows(1), '[".##..", "...#.", "#GR#.", "E.F.S", "....T"]',
     r"cards\[0\]\.rows: need exactly one entrance E, in row 1"),
    (_card_rows(1), '["E##..", "...#.", "#GR#.", "#.F.S", "....S"]',
     r"cards\[0\]\.rows: need exactly one tomb T, in row 5"),
    (_card_rows(1), '["E##..", "...#.", "#GR#.", "#.F.#", "...#T"]',
     r"cards\[0\]\.rows: no route of non-wall cells leads from E to T"),
    ('cells = ["a1", "b1"]\ncopies = 1', 'cells = ["a1", "b1"]\ncopies = 2',
     r"expeditions: the copies must add up to 8 cards"),
    ('cells = ["a1", "b1"]\n', 'cells = ["a1", "c1"]\n',
     r"expeditions\[0\]\.cells: a pattern is 2 to 4 different cells sharing sides"),
    ('cells = ["a1", "b1"]\n', 'cells = ["a1"]\n',
     r"expeditions\[0\]\.cells: a pattern is 2 to 4 different cells"),
    ('cells = ["a1", "b1"]\n', 'cells = ["a1", "f1"]\n',
     r"expeditions\[0\]\.cells: 'f1' is not a cell a1..e5"),
    ('code = "D2"', 'code = "I3"', r"expeditions\[0\]\.code: 'I3' appears twice"),
    ("[1, 2, 3, 4, 6, 8, 10, 12, 15, 20]", "[1, 2, 3, 4, 6, 5, 10, 12, 15, 20]",
     r"skull_values: must not decrease along the track \(G2\)"),
    ("[1, 2, 3, 4, 6, 8, 10, 12, 15, 20]", "[1, 2, 3]", r"skull_values: the track has 10"),
    ('name = "sgp-recon-1"', 'name = "two words"', r"name: 'two words' must be one word"),
    ('name = "sgp-recon-1"\n', "", r"missing required field `name`"),
    ("skull_values", "skull_value", r"unknown field `skull_value`|Object contains unknown"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD)
def test_g2_a_wrong_edition_is_one_line_naming_the_file_and_field(old, new, message):
    assert old in RAW
    with pytest.raises(EditionError, match=r"^bad\.toml: .*") as caught:
        parse_edition(RAW.replace(old, new, 1), "bad.toml")
    assert "\n" not in str(caught.value)
    assert re.search(message, str(caught.value)), str(caught.value)


def test_not_toml_at_all():
    with pytest.raises(EditionError, match=r"^bad\.toml: not valid TOML"):
        parse_edition("name = ", "bad.toml")
