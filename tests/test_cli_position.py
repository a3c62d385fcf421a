"""``sneferu position new/show/moves/play`` as a user runs it (real subprocesses)."""

from __future__ import annotations

import random

import pytest
from positions import Seat, edition_text, position
from support import run_cli

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.components import Stone
from sneferu_cli.games.sneferu.edition import load_edition
from sneferu_cli.games.sneferu.move import Move, legal_moves, parse_outcome
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import new_game

NEW = ("position", "new", "--players", "2", "--seed", "3")


def ok(*args: str, stdin: str | None = None) -> str:
    """Run a command that must succeed; its standard output."""
    done = run_cli(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


@pytest.fixture(scope="module")
def start() -> str:
    """A two-seat game after its set-up, seed 3."""
    return ok(*NEW).strip()


def test_new_plays_the_set_up_draws_with_the_seed(start):
    """`new`: one position line after the set-up draws; the seed decides the draws."""
    state = from_position(start)
    assert start.startswith("standard standard ") and start.endswith(f"start:{state.seat + 1}:0")
    assert "?" not in start and state.bag_total == 72
    assert ok(*NEW).strip() == start
    assert ok("position", "new", "--players", "2", "--seed", "4").strip() != start
    game, rng = new_game(2), random.Random(3)  # SPEC 2.1: random.Random(seed), in order
    while game.is_chance_node():
        game.apply(sample_outcome(game, rng))
    assert to_position(game) == start


def test_new_without_set_up_stops_at_the_first_chance_node():
    """`new --no-setup`: the position before any draw."""
    text = ok("position", "new", "--players", "3", "--no-setup").strip()
    assert text.endswith(" setup") and text.split()[2] == ",".join(["?"] * 15)
    assert from_position(text).chance_weights()


def test_new_with_builders_and_solo():
    """`new --builders`, `--players 1`: the builders variant, named or drawn; the solo game."""
    named = ok("position", "new", "-p", "2", "--builders", "Lateef,Heba", "--seed", "1").split()
    assert named[1] == "builders"
    seats = [r.split(",") for r in named[6].split(";")]
    assert [(r[0], r[1], r[2][:2]) for r in seats] == [("Lateef", "4", "2."), ("Heba", "5", "2.")]
    drawn = from_position(ok("position", "new", "-p", "3", "--builders", "random", "--seed", "2"))
    assert len({p.builder.name for p in drawn.players}) == 3
    solo = from_position(ok("position", "new", "--players", "1", "--seed", "5"))
    assert solo.solo and len(solo.players) == 1


def test_show_draws_a_picture(start):
    """`show`: a picture for people; `-` reads the position from standard input."""
    picture = ok("position", "show", start)
    assert picture.startswith("Sneferu: edition standard, standard variant, 2 players")
    for text in ("Offer (stone food/time; bag holds 72)", "Seat 1: food 6", "Seat 2: food 6",
                 "level 6", "to move (boat started the turn on space 0)."):
        assert text in picture
    assert ok("position", "show", "-", stdin=start + "\n") == picture


def test_moves_lists_the_legal_moves(start):
    """`moves`: every legal move, one a line; `--count` their number; `--steps` the steps."""
    state = from_position(start)
    listed = ok("position", "moves", start).splitlines()
    assert listed == [str(m) for m in legal_moves(state)]
    assert ok("position", "moves", start, "--count").strip() == str(len(listed))
    assert ok("position", "moves", start, "--steps").splitlines() == [
        str(s) for s in state.legal_steps()]


def test_moves_at_a_chance_node_lists_outcomes_with_probabilities():
    """`moves` at a refill: each stone type in the bag with its probability (count / total)."""
    text = position([Seat(space=40), Seat(space=40)], turn="draw:1",
                    offer=["BTBMBGBATMTG", "", "", ""])
    bag = from_position(text).bag
    rows = ok("position", "moves", text).splitlines()
    assert rows == [f"~{name} {n / sum(bag):.6f}" for name, n in
                    zip([s.name for s in Stone], bag, strict=True) if n]
    assert ok("position", "moves", text, "--count").strip() == "10"
    setup = ok("position", "new", "--no-setup", "-p", "2")
    assert ok("position", "moves", setup).splitlines() == [
        "~FOOD1 0.250000", "~FOOD2 0.250000", "~NOEXTRA 0.250000", "~SAVETIME 0.250000"]


def test_play_applies_moves_and_given_outcomes(start):
    """`play`: whole moves as arguments, each chance outcome given as `~XY`."""
    state = from_position(start)
    move = str(legal_moves(state)[0])
    after = ok("position", "play", start, move).strip()
    state.apply_turn(Move.from_str(move).steps)
    assert after == to_position(state) and after.split()[-1] == "draw:1"
    drawn = ok("position", "play", start, move, "~GA").strip()
    state.apply(parse_outcome("~GA"))
    assert drawn == to_position(state) and state.offer[0][-1] == Stone.GA


def test_play_with_a_seed_draws_the_chance_events(start):
    """`play --seed`: every chance event reached is drawn with random.Random(seed)."""
    state = from_position(start)
    move = str(legal_moves(state)[0])
    played = ok("position", "play", start, move, "--seed", "9").strip()
    state.apply_turn(Move.from_str(move).steps)
    rng = random.Random(9)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    assert played == to_position(state) and state.phase.name == "START"
    assert ok("position", "play", start, move, "--seed", "9").strip() == played


def test_edition_option(tmp_path):
    """`--edition PATH`: new games, pictures, moves and plays with a corrected edition."""
    path = tmp_path / "corrected.toml"
    path.write_text(edition_text().replace('name = "standard"', 'name = "corrected"', 1)
                    .replace("{ food = 0, time = 4 }", "{ food = 2, time = 4 }", 1))
    text = ok("position", "new", "-p", "2", "--seed", "1", "--edition", str(path)).strip()
    assert text.startswith("corrected standard ")
    picture = ok("position", "show", text, "--edition", str(path)).splitlines()
    row_1 = next(line for line in picture if line.startswith("  row 1 "))
    assert row_1.split()[3] == "2/4"  # column 1 row 1 now costs 2 food, 4 time
    state = from_position(text, load_edition(path))
    assert state.price(1, 1) == (2, 4)
    assert ok("position", "moves", text, "--edition", str(path)).splitlines() == [
        str(m) for m in legal_moves(state)]
    refused = run_cli("position", "show", text)
    assert refused.returncode == 2 and "written for edition 'corrected'" in refused.stderr


def with_field(text: str, index: int, value: str) -> str:
    """``text`` with its position field number ``index`` (0-based) replaced."""
    fields = text.split()
    fields[index] = value
    return " ".join(fields)


BAD = [
    ("malformed position", ("position", "show", "garbage"), "position: ends too early"),
    ("bad field", ("position", "moves", "standard standard x"), "position: unexpected"),
    ("impossible position", ("position", "show", with_field(position(2), 4, "11" + ",10" * 9)),
     "stones of type BT; there are only 10"),
    ("illegal move", ("position", "play", position(2), "1.1 TB@2.1"),
     "argument 1 ('1.1 TB@2.1'): step 2 (TB@2.1)"),
    ("malformed move", ("position", "play", position(2), "1.1 XX@2.1"), "argument 1"),
    ("outcome at a decision", ("position", "play", position(2), "~BT"),
     "a chance outcome, but a player is to move"),
    ("move at a chance node", ("position", "play", position(2, turn="draw:1"), "1.1 BT@1.1"),
     "give the outcome"),
    ("unknown outcome", ("position", "play", position(2, turn="draw:1"), "~XX"), "~XX"),
    ("wrong edition name", ("position", "show", position(2).replace("standard", "other", 1)),
     "written for edition 'other'"),
    ("unknown builder", ("position", "new", "-p", "2", "--builders", "Heba,Bob"),
     "unknown builder 'Bob'"),
    ("builder count", ("position", "new", "-p", "2", "--builders", "Heba"),
     "one name per seat: 2, not 1"),
    ("players 0", ("position", "new", "--players", "0"), "--players"),
    ("players 5", ("position", "new", "--players", "5"), "--players"),
    ("players x", ("position", "new", "--players", "x"), "--players"),
    ("missing edition", ("position", "new", "--edition", "/nonexistent/e.toml"),
     "/nonexistent/e.toml: cannot read edition"),
    ("unknown command", ("position", "frobnicate"), "No such command"),
]


@pytest.mark.parametrize(("what", "args", "says"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_gives_one_line_and_exit_2(what, args, says):
    """CLI: each bad input: exactly one line on stderr, exit code 2, no traceback."""
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sneferu: ")
    assert says in lines[0] and "Traceback" not in done.stderr


def test_a_malformed_edition_file_gives_one_line(tmp_path):
    """CLI: a bad edition file is one line naming the file and the field, exit 2."""
    path = tmp_path / "bad.toml"
    path.write_text(edition_text().replace('kind = "FOOD1"', 'kind = "FOOD3"', 1))
    for args in (("position", "new"), ("position", "show", position(2))):
        done = run_cli(*args, "--edition", str(path))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == f"sneferu: {path}: tiles[0].kind: unknown tile kind 'FOOD3'\n"


def test_position_play_gives_sealed_moves_in_seat_order_or_one_seat_s_with_seat():
    """Silver & Gold's keep is a simultaneous node (G22, SPEC 14.1): each MOVE is the lowest
    deciding seat's, so the seats' moves come in seat order and the step takes effect with
    the last; --seat N gives seat N's first, and the position holds it sealed."""
    sg = ("--game", "silver-gold")
    start = ok("position", "new", "--players", "2", "--seed", "3", *sg).strip()
    one = ok("position", "moves", start, "--seat", "1", *sg).split("\n")[0]
    two = ok("position", "moves", start, "--seat", "2", *sg).split("\n")[0]
    sealed = ok("position", "play", start, "--seat", "2", two, *sg).strip()
    assert sealed.endswith(" sealed:" + ",".join(two.split()[1:]))
    both = ok("position", "play", start, one, two, *sg).strip()
    assert both == ok("position", "play", sealed, one, *sg).strip()
    assert " keep " not in both and " offer " in both
    refused = run_cli("position", "play", start, "--seat", "3", two, *sg)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "seat 3 has no decision to take now" in refused.stderr
