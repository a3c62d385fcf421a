"""``sneferu replay``: verify files, print positions, convert, with one-line errors."""

from __future__ import annotations

import pytest
from recgen import cheap_edition_toml, random_game
from support import run_cli

from sneferu_cli.games.sneferu.edition import parse_edition, standard_edition
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.record.jsonl import records_to_json
from sneferu_cli.record.model import GameRecord
from sneferu_cli.record.replay import position_at
from sneferu_cli.record.text import GameEntry, format_records


@pytest.fixture(scope="module")
def recs() -> list[GameRecord]:
    return [random_game(2, 41), random_game(1, 42, greedy=True),
            random_game(4, 43, builders="random", retire=0.02)]


@pytest.fixture
def path(tmp_path, recs):
    p = tmp_path / "games.rec"
    p.write_text(format_records(recs), encoding="utf-8")
    return p


def one_line_error(r, code: int, *fragments: str) -> None:
    assert r.returncode == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("sneferu: ")
    for f in fragments:
        assert f in r.stderr


def test_every_game_verifies_with_its_ranking(path, recs):
    r = run_cli("replay", str(path))
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert len(rows) == 3
    assert rows[0].startswith("game 1 (") and "verified" in rows[0]
    assert "Game over: 1. seat" in rows[0]
    assert "Ptah" in rows[1] or "beats Ptah" in rows[1]
    assert r.stderr == ""


def test_a_game_that_does_not_verify_exits_1_naming_game_and_line(path):
    text = path.read_text()
    rows = text.split("\n")
    starts = [i for i, row in enumerate(rows) if row.startswith("[Event ")]
    at = next(i for i in range(starts[2], len(rows)) if rows[i].startswith("[Result 1 "))
    rows[at] = rows[at].replace("rank=", "rank=9")
    path.write_text("\n".join(rows))
    r = run_cli("replay", str(path))
    one_line_error(r, 1, f"{path}, game 3, line {at + 1}: [Result 1 rank=9")
    assert len(r.stdout.splitlines()) == 2  # games 1 and 2 still verified


def test_a_malformed_file_exits_2_with_one_line(path):
    path.write_text(path.read_text().replace("[Players 2]", "[Players two]"))
    one_line_error(run_cli("replay", str(path)), 2, "game 1, line 6: unexpected 'two]'")
    one_line_error(run_cli("replay", str(path.parent / "missing.rec")), 2, "missing.rec")


def test_a_cut_off_last_game_is_reported_and_the_others_verified(path):
    data = path.read_bytes()
    path.write_bytes(data[:-200])
    r = run_cli("replay", str(path))
    one_line_error(r, 1, "game 3, line ", "cut off")
    assert len(r.stdout.splitlines()) == 2


def test_ply_prints_the_position_to_continue_with_sneferu_position(path, recs):
    entry = GameEntry(recs[0])
    want = to_position(position_at(entry, 7, standard_edition()))
    r = run_cli("replay", str(path), "--game", "1", "--ply", "7")
    assert (r.returncode, r.stdout) == (0, want + "\n"), r.stderr
    moves = run_cli("position", "moves", want, "--count")
    assert moves.returncode == 0 and int(moves.stdout) > 0
    show = run_cli("replay", str(path), "-g", "2", "--show")
    assert show.returncode == 0 and "Ptah:" in show.stdout and "Game over" in show.stdout


def test_ply_out_of_range_or_no_game_chosen_is_a_usage_error(path):
    one_line_error(run_cli("replay", str(path), "--ply", "3"), 2, "choose one with --game N")
    one_line_error(run_cli("replay", str(path), "-g", "1", "--ply", "999"), 2,
                   "game 1 has plies 0 to ")
    one_line_error(run_cli("replay", str(path), "-g", "7"), 2, "there is no game 7")
    one_line_error(run_cli("replay", str(path), "--json", "--text"), 2, "cannot be combined")


def test_json_conversion_both_ways_and_json_input(tmp_path, path, recs):
    r = run_cli("replay", str(path), "--json")
    assert r.returncode == 0 and r.stdout == records_to_json(recs)
    js = tmp_path / "games.jsonl"
    js.write_text(r.stdout)
    verified = run_cli("replay", str(js))
    assert verified.returncode == 0 and len(verified.stdout.splitlines()) == 3
    back = run_cli("replay", str(js), "--text")
    assert back.returncode == 0 and back.stdout == path.read_text()
    one = run_cli("replay", "-", "--game", "2", "--json", stdin=r.stdout)
    assert one.stdout == records_to_json(recs[1:2])


def test_a_non_standard_edition_is_given_with_edition(tmp_path):
    toml = tmp_path / "cheap.toml"
    toml.write_text(cheap_edition_toml())
    rec = random_game(2, 44, edition=parse_edition(toml.read_text()))
    path = tmp_path / "cheap.rec"
    path.write_text(format_records([rec]))
    one_line_error(run_cli("replay", str(path)), 1, "game 1, line 3: the game was played "
                   "with edition 'cheap', which is not loaded (give its file with --edition")
    r = run_cli("replay", str(path), "--edition", str(toml))
    assert r.returncode == 0 and "verified" in r.stdout


@pytest.mark.parametrize("where", ["clock", "turn number", "seed"])
def test_a_number_of_too_many_digits_is_one_line_in_every_mode(path, where):
    rows = path.read_text().split("\n")
    at = next(i for i, row in enumerate(rows) if row.startswith("1. "))
    huge = "9" * 5000
    if where == "clock":
        rows[at] = rows[at].split(" {")[0] + " {" + huge + "ms}"
    elif where == "turn number":
        rows[at] = huge + rows[at][1:]
    else:
        at = next(i for i, row in enumerate(rows) if row.startswith("[Players "))
        rows.insert(at + 1, f"[Seed {huge}]")
    path.write_text("\n".join(rows))
    for mode in ([], ["--text"], ["--json"], ["-g", "1", "--ply", "1"]):
        one_line_error(run_cli("replay", str(path), *mode), 2,
                       "game 1, line ", "a number of 5", "digits (at most 4300)")


@pytest.mark.parametrize("mode", ["--text", "--json"])
def test_conversion_verifies_first_like_plain_replay(path, mode):
    rows = path.read_text().split("\n")
    at = next(i for i, row in enumerate(rows) if row.startswith("1. "))
    bad_token = rows[:]
    bad_token[at] = bad_token[at].split(" {")[0] + " ~ZZ"
    path.write_text("\n".join(bad_token))
    r = run_cli("replay", str(path), mode)
    one_line_error(r, 2, f"game 1, line {at + 1}: unknown")
    assert r.stdout == ""
    bad_move = rows[:]
    seat_move = bad_move[at].split(": ", 1)
    bad_move[at] = seat_move[0] + ": 9.9 BT@1.1"
    path.write_text("\n".join(bad_move))
    r = run_cli("replay", str(path), mode)
    one_line_error(r, 1, f"game 1, line {at + 1}: turn 1 ", "9.9 BT@1.1")
    assert r.stdout == ""


def test_a_web_page_that_cannot_be_written_is_one_line(path, tmp_path):
    r = run_cli("replay", str(path), "-g", "1", "--html", str(tmp_path / "no" / "x.html"))
    one_line_error(r, 1, "x.html", "No such file or directory")
