"""The Akropolis edition file: the standard edition holds the [data] tables of
AKROPOLIS-RULES.md section 2; a wrong file is one EditionError line naming file and field."""

from __future__ import annotations

from collections import Counter

import pytest
from akropolis.helpers import hand_city
from support import run_cli

from sneferu_cli.edition import EditionError
from sneferu_cli.game import NotationError
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.edition import HEXES, load_edition, standard_edition
from sneferu_cli.games.akropolis.scoring import city_scores


def test_the_standard_edition_matches_the_rules_tables():
    """Section 2: 37 / 12 / 12 tiles by marking; the derived hex counts; stars; stones."""
    ed = standard_edition()
    assert Counter(t.marking for t in ed.tiles) == {"2+": 37, "3+": 12, "4": 12}
    counts = Counter(c for t in ed.tiles for c in t.hexes)
    assert [counts[c] for c in HEXES] == [36, 20, 16, 12, 8, 7, 6, 6, 6, 5, 61]
    two = Counter(c for t in ed.tiles if t.marking == "2+" for c in t.hexes)
    assert [two[c] for c in HEXES] == [18, 12, 10, 8, 6, 5, 4, 4, 4, 3, 37]
    assert [ed.stars.of(p) for p in "HMBTG"] == [1, 2, 2, 2, 3]
    assert ed.starting_stones == (1, 2, 3, 4)
    assert [(h.hex, h.q, h.r) for h in ed.start] == [("H", 0, 0), ("q", 0, -1), ("q", 1, 0),
                                                     ("q", -1, 1)]
    assert sum(1 for t in ed.tiles if any(c in "HMBTG" for c in t.hexes)) == 30


def _standard_text() -> str:
    from importlib import resources

    return (resources.files("sneferu_cli.games.akropolis") / "editions/standard.toml"
            ).read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new", "field"), [
    ('hexes = "hbt"', 'hexes = "hbx"', "tiles[0].hexes"),
    ('hexes = "hbt"', 'hexes = "hhh"', "three equal hexes"),
    ('code = "T02"', 'code = "T01"', "tiles[1].code: 'T01' appears twice"),
    ('marking = "4"\nhexes = "qhm"', 'marking = "3+"\nhexes = "qhm"', "13 tiles marked 3+"),
    ("G = 3", "G = 0", "stars.G"),
    ("starting_stones = [1, 2, 3, 4]", "starting_stones = [1, 2]", "starting_stones"),
    ('hex = "q"\nq = 1\nr = 0', 'hex = "q"\nq = 3\nr = 0', "start[2]"),
    ('name = "standard"', 'name = "two words"', "name"),
    ("[stars]", "colour = 1\n[stars]", "colour"),
])
def test_a_wrong_edition_is_one_line_naming_the_field(tmp_path, old, new, field):
    text = _standard_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(EditionError) as info:
        load_edition(path)
    message = str(info.value)
    assert message.startswith(str(path)) and field in message and "\n" not in message


def test_the_command_line_reports_a_wrong_edition_without_a_traceback(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(_standard_text().replace("G = 3", "G = 0"), encoding="utf-8")
    r = run_cli("position", "new", "--game", "akropolis", "--edition", str(path))
    assert r.returncode != 0 and "stars.G" in r.stderr and "Traceback" not in r.stderr


def test_a_corrected_edition_changes_the_game(tmp_path):
    """An edition file with other stars and starting stones plays by its numbers; a position
    names its edition and is read only with it."""
    text = (_standard_text().replace('name = "standard"', 'name = "mine"')
            .replace("G = 3", "G = 4").replace("[1, 2, 3, 4]", "[0, 5, 3, 4]"))
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    ed = GAME.load_edition(path)
    state = GAME.new_game(2, edition=ed)
    assert state.stones == [0, 5]
    city = hand_city({(0, 0): "g2", (3, 3): "G"})
    assert city_scores(city, state.tables.stars, state.bonus)[4] == 8
    while state.is_chance_node():
        GAME.apply_outcome(state, GAME.chance_outcomes(state)[0][0])
    position = GAME.to_position(state)
    assert position.startswith("mine hmbtga 1 1 T01,T02,T03,T04 0:- 5:-")
    assert GAME.to_position(GAME.from_position(position, ed)) == position
    with pytest.raises(NotationError, match="written for edition 'mine'"):
        GAME.from_position(position)
