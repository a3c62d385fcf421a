"""Sneferu's editions (SPEC 5): the standard edition holds every [data] number of
docs/RULES.md, a malformed edition is rejected naming the field, a corrected one changes
the game."""

from __future__ import annotations

import re

import pytest
from positions import Seat, build, edition_text, moves, play, position

from sneferu_cli.edition import EditionError
from sneferu_cli.game import NotationError
from sneferu_cli.games.sneferu.edition import load_edition, parse_edition, standard_edition
from sneferu_cli.games.sneferu.position import from_position
from sneferu_cli.games.sneferu.state import new_game


def test_the_standard_edition_holds_the_rules_numbers():
    """1 [data]: offer prices, river, tiles, icons, area chart, food, builders, solo."""
    ed = standard_edition()
    assert ed.name == "standard" and ed.stones.per_type == 10
    assert [(c.food, c.time) for c in ed.offer.columns] == [(0, 4), (1, 3), (2, 2), (3, 1)]
    assert ed.offer.row_extra_food == (0, 1, 1, 2, 2, 3, 3)
    r = ed.river
    assert (r.start_space, r.builders_start_space, r.last_space) == (0, 2, 40)
    assert [(q.space, q.material) for q in r.quarries] == list(zip(
        [3, 5, 7, 9, 12, 14, 17, 19, 22, 24, 27, 29, 32, 34, 37], "BTMGABTMGABTMGA", strict=True))
    assert [q.space for q in r.quarries if q.eye] == [3, 5, 7, 9]
    assert [(t.kind, t.count, t.eye) for t in ed.tiles] == [
        ("FOOD1", 3, 1), ("FOOD2", 3, 1), ("NOEXTRA", 3, 1), ("SAVETIME", 2, 1),
        ("TIMEFOOD", 2, 0), ("STOREHOUSE", 2, 0)]
    assert {t.kind: t.amount for t in ed.tiles if t.amount} == {
        "FOOD1": 1, "FOOD2": 2, "SAVETIME": 1, "TIMEFOOD": 3}
    assert ed.pyramid.levels == 6
    assert [(i.level, i.slot, i.half, i.food) for i in ed.pyramid.icons] == [
        (1, 2, "left", 1), (1, 5, "right", 1), (2, 2, "right", 1), (2, 4, "left", 1),
        (3, 1, "left", 2), (3, 4, "right", 2), (4, 1, "right", 1), (4, 3, "left", 1),
        (6, 1, "left", 3)]
    assert ed.pyramid.area_food == (0, 2, 4, 7, 9, 12, 14, 17, 19, 22, 24)
    assert (ed.player.starting_food, ed.player.forced_end_food_per_space) == (6, 5)
    assert [(b.name, b.food, b.power, b.amount) for b in ed.builders] == [
        ("Lateef", 4, "feast", 2), ("Heba", 5, "sail-back", 2), ("Tsekani", 6, "between", 1),
        ("Aya", 4, "single-area", 1)]
    s = ed.solo
    assert (s.ptah_target, s.points_per_stone, s.food_per_point, s.points_per_ptah_stone) == (
        21, 3, 3, 1)
    assert [(t.start, t.title) for t in s.titles][1:] == [
        (31, "A cleo-pat on the back"), (41, "Good, quarry on!"), (46, "Phara-oh yeah!"),
        (51, "Top of the pyramid!")]
    assert s.titles[0].title == "A-noob-is" and s.titles[0].start <= 0


BROKEN = [
    # (what, old text, new text, the error names ...)
    ("bad TOML", 'name = "standard"', "name = ", "not valid TOML"),
    ("missing field", "last_space = 40\n", "", "`last_space` - at `$.river`"),
    ("wrong type", "per_type = 10", 'per_type = "ten"', "`$.stones.per_type`"),
    ("unknown field", 'name = "standard"', 'name = "standard"\ncolour = 1', "`colour`"),
    ("name", 'name = "standard"', 'name = "my edition"', "name: must be one word"),
    ("no stones", "per_type = 10", "per_type = 0", "stones.per_type"),
    ("column food", "{ food = 0, time = 4 }", "{ food = -1, time = 4 }",
     "offer.columns[0]: food must be >= 0 and time >= 1"),
    ("column time", "{ food = 3, time = 1 }", "{ food = 3, time = 0 }", "offer.columns[3]"),
    ("row extra", "row_extra_food = [0, 1,", "row_extra_food = [-1, 1,",
     "offer.row_extra_food"),
    ("too many cells", "per_type = 10", "per_type = 2", "offer: more cells than stones"),
    ("start space", "start_space = 0", "start_space = 40", "river.start_space"),
    ("quarry space", "{ space = 37,", "{ space = 41,", "river.quarries[14].space"),
    ("quarry material", '{ space = 3, material = "B"', '{ space = 3, material = "X"',
     "river.quarries[0].material"),
    ("quarry order", "{ space = 5,", "{ space = 2,", "river.quarries: spaces must be"),
    ("unknown tile kind", 'kind = "FOOD1"', 'kind = "FOOD3"', "tiles[0].kind"),
    ("tile counts", 'kind = "FOOD1"\ncount = 3', 'kind = "FOOD1"\ncount = 4',
     "tiles: 16 tiles for 15 quarries"),
    ("eye tiles", 'kind = "FOOD1"\ncount = 3\neye = 1', 'kind = "FOOD1"\ncount = 3\neye = 0',
     "tiles: the number of eye tiles"),
    ("eye over count", 'kind = "TIMEFOOD"\ncount = 2\neye = 0',
     'kind = "TIMEFOOD"\ncount = 2\neye = 3', "tiles[4]"),
    ("duplicate tile kind", 'kind = "FOOD2"', 'kind = "FOOD1"', "tiles: each kind"),
    ("icon slot", "{ level = 1, slot = 2,", "{ level = 1, slot = 7,",
     "pyramid.icons[0]: no slot 7 on level 1"),
    ("icon level", "{ level = 6, slot = 1,", "{ level = 7, slot = 1,", "pyramid.icons[8]"),
    ("icon half", 'half = "left", food = 1 },', 'half = "middle", food = 1 },',
     "`$.pyramid.icons[0].half`"),
    ("icon twice", "{ level = 1, slot = 5, half = \"right\"",
     "{ level = 1, slot = 2, half = \"left\"", "pyramid.icons[1]: a cell holds one icon"),
    ("area chart", "area_food = [0, 2,", "area_food = [-1, 2,", "pyramid.area_food"),
    ("pyramid levels", "levels = 6", "levels = 0", "pyramid.levels"),
    ("starting food", "starting_food = 6", "starting_food = -6", "player:"),
    ("unknown power", 'power = "feast"', 'power = "magic"', "builders[0].power"),
    ("builder name twice", 'name = "Heba"', 'name = "Lateef"', "'Lateef' appears twice"),
    ("power twice", 'power = "sail-back"', 'power = "feast"', "builders: each power"),
    ("ptah target", "ptah_target = 21", "ptah_target = 0", "solo:"),
    ("title bands", "{ from = 31,", "{ from = 55,", "solo.titles"),
]


@pytest.mark.parametrize(("what", "old", "new", "names"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_malformed_edition_is_rejected_naming_the_field(what, old, new, names):
    """SPEC 5: a bad edition raises EditionError naming the source and the field."""
    text = edition_text()
    assert old in text
    with pytest.raises(EditionError) as info:
        parse_edition(text.replace(old, new, 1), "mine.toml")
    message = str(info.value)
    assert message.startswith("mine.toml: ") and names in message
    assert "\n" not in message


def test_an_edition_file_that_cannot_be_read(tmp_path):
    """SPEC 5: a missing file is an EditionError naming the file."""
    with pytest.raises(EditionError, match=re.escape(str(tmp_path / "none.toml"))):
        load_edition(tmp_path / "none.toml")


def corrected_file(tmp_path):
    """A corrected edition on disk: dearer column 1, 3 food a space at the forced end."""
    text = edition_text()
    for old, new in (('name = "standard"', 'name = "corrected"'),
                     ("{ food = 0, time = 4 }", "{ food = 2, time = 4 }"),
                     ("forced_end_food_per_space = 5", "forced_end_food_per_space = 3"),
                     ("starting_food = 6", "starting_food = 9")):
        text = text.replace(old, new, 1)
    path = tmp_path / "corrected.toml"
    path.write_text(text)
    return path


def test_a_corrected_edition_changes_the_game(tmp_path):
    """SPEC 5, rules [data]: a corrected edition loaded from a file changes prices, food."""
    ed = load_edition(corrected_file(tmp_path))
    assert ed.name == "corrected"
    state = new_game(2, edition=ed)
    assert [p.food for p in state.players] == [9, 9]
    state = build([Seat(space=10, food=2), Seat(space=20)], offer=["BT", "", "", ""],
                  edition=ed)
    assert state.price(1, 1) == (2, 4)
    play(state, "1.1 BT@1.1")
    assert state.players[0].food == 0
    state = build([Seat(space=30, food=1), Seat(space=40)], offer=["BT", "", "", ""],
                  edition=ed)
    assert moves(state) == {"end"}  # the 2-food stone is out of reach
    play(state, "end")
    assert state.players[0].food == 1 + 3 * 10


def test_a_position_names_its_edition(tmp_path):
    """SPEC 5: a position written for one edition is not read with another."""
    ed = load_edition(corrected_file(tmp_path))
    text = position([Seat(), Seat()], edition=ed)
    assert text.startswith("corrected standard ")
    with pytest.raises(NotationError, match="written for edition 'corrected'"):
        from_position(text)
    with pytest.raises(NotationError, match="written for edition 'standard'"):
        from_position(position([Seat(), Seat()]), ed)
