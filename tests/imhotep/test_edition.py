"""Imhotep editions: the [data] tables of IMHOTEP-RULES.md and the loader's checks."""

from __future__ import annotations

from importlib import resources

import pytest
from support import run_cli

from sneferu_cli.edition import EditionError
from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.edition import (
    load_edition,
    parse_edition,
    standard_edition,
)
from sneferu_cli.games.imhotep.state import ships_of

STANDARD = (resources.files("sneferu_cli.games.imhotep").joinpath("editions/standard.toml")
            .read_text(encoding="utf-8"))


def test_standard_numbers():
    ed = standard_edition()
    assert [(t.capacity, t.count, t.minimum) for t in ed.ships] == [
        (4, 2, 3), (3, 3, 2), (2, 2, 1), (1, 1, 1)]
    assert ed.pyramid.points == (2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4)
    assert ed.temple.width == (4, 5, 5)
    assert ed.obelisks.points == ((10, 1), (12, 6, 1), (15, 10, 5, 1))
    assert ed.chamber.group_points == (1, 3, 6, 10, 15)
    assert ed.chamber.row_points_b == (8, 4, 2, 0)
    assert ed.obelisks.towers_b == (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert ed.temple.columns_b == ("PS", "P2", "PS", "CD", "PS")
    assert ed.market.statue_points == (1, 3, 6, 10, 15)
    assert {c.code: c.site for c in ed.market.cards if c.colour == "red"} == {
        "ENT": "P", "SAR": "C", "PAV": "O"}


def test_market_cards_add_up_to_34():
    """Section 2: 34 market cards of 12 kinds."""
    cards = standard_edition().market.cards
    assert sum(c.count for c in cards) == 34
    assert [c.code for c in cards] == ["ENT", "SAR", "PAV", "DEP", "DET", "DEC", "DEO",
                                       "STA", "LEV", "HAM", "SAI", "CHI"]


def test_round_cards_seven_per_player_count():
    cards = standard_edition().round_cards
    for players in (2, 3, 4):
        assert [c.code for c in cards if c.players == players] == [
            f"R{players}-{i}" for i in range(1, 8)]
    assert standard_edition().round_card("R4-3").ships == (4, 3, 3, 3)


def test_ships_named_in_round_card_order():
    """Section 2: two ships of one capacity are A and B, three A B C; larger ships first."""
    ed = standard_edition()
    assert [s.name for s in ships_of((2, 4, 2, 1), ed)] == ["4A", "2A", "2B", "1A"]
    assert [s.name for s in ships_of((3, 3, 3, 2), ed)] == ["3A", "3B", "3C", "2A"]
    assert [s.minimum for s in ships_of((4, 3, 2, 1), ed)] == [3, 2, 1, 1]


def test_loader_rejects_a_round_card_that_does_not_fit_the_tiles(tmp_path):
    """Section 2: every card must fit the 8 tiles (two 4s, three 3s, two 2s, one 1)."""
    bad = STANDARD.replace("ships = [4, 4, 2, 1]", "ships = [4, 4, 4, 1]", 1)
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(EditionError) as e:
        load_edition(path)
    msg = str(e.value)
    assert "\n" not in msg and str(path) in msg and "round_cards[10].ships" in msg  # R3-4
    assert "3 ship(s) of capacity 4 but only 2 tile(s)" in msg


@pytest.mark.parametrize("old,new,field", [
    ('points = [2, 1, 3', 'points = ["x", 1, 3', "pyramid.points"),
    ('site = "P" }', 'site = "M" }', "market.cards[0].site"),
    ('columns_b = ["PS"', 'columns_b = ["XX"', "temple.columns_b[0]"),
    ('minimum = 3', 'minimum = 5', "ships[0].minimum"),
    ('{ bonus = "LOAD" }, { points = 4 }', '{ bonus = "FLY" }, { points = 4 }',
     "pyramids_b.pyramids[2].slots[3].bonus"),
    ('towers_b = [10, 9', 'towers_b = [9, 10', "obelisks.towers_b"),
    ('penalty = 5', 'penalty = 5\ncolour = 1', "colour"),
])
def test_loader_names_the_field(old, new, field):
    assert old in STANDARD
    with pytest.raises(EditionError) as e:
        parse_edition(STANDARD.replace(old, new, 1), "x.toml")
    assert field in str(e.value) and str(e.value).startswith("x.toml: ")
    assert "\n" not in str(e.value)


def test_loader_errors_for_missing_file_and_bad_toml(tmp_path):
    with pytest.raises(EditionError, match="cannot read edition"):
        GAME.load_edition(tmp_path / "none.toml")
    with pytest.raises(EditionError, match="not valid TOML"):
        parse_edition("name = ", "y.toml")


def test_a_loaded_edition_plays():
    ed = parse_edition(STANDARD.replace('name = "standard"', 'name = "mine"'))
    state = GAME.new_game(2, edition=ed)
    assert GAME.edition_of(state).name == "mine"


def test_a_wrong_edition_file_is_one_line_on_the_command_line(tmp_path):
    """An Imhotep edition error reaches the user as Sneferu's do: one line, exit 2."""
    bad = tmp_path / "bad.toml"
    bad.write_text("x = 1\n")
    r = run_cli("position", "new", "--game", "imhotep", "--edition", str(bad))
    assert r.returncode == 2, r.stderr
    assert r.stderr.splitlines() == [f"sneferu: {bad}: Object contains unknown field `x`"]
    r = run_cli("position", "new", "--game", "imhotep", "--edition", str(tmp_path / "no.toml"))
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "cannot read edition" in r.stderr


def test_an_edition_file_plays_and_replays_as_imhotep_s(tmp_path):
    """--edition FILE with --game imhotep is read as an Imhotep edition by the arbiter, the
    bundled engines (option EditionFile, read at newgame as the named game's) and replay."""
    standard = resources.files("sneferu_cli.games.imhotep").joinpath("editions/standard.toml")
    mine = tmp_path / "mine.toml"
    mine.write_text(standard.read_text().replace('name = "standard"', 'name = "mine"', 1))
    rec = tmp_path / "g.rec"
    r = run_cli("play", "random", "random", "--game", "imhotep", "--edition", str(mine),
                "--seed", "3", "--record", str(rec), timeout=120)
    assert r.returncode == 0, r.stderr
    assert "retired" not in r.stdout and "[Edition mine]" in rec.read_text()
    r = run_cli("replay", str(rec), "--edition", str(mine))
    assert r.returncode == 0 and "verified" in r.stdout, r.stderr
    r = run_cli("replay", str(rec))
    assert r.returncode == 1 and "edition 'mine', which is not loaded" in r.stderr
