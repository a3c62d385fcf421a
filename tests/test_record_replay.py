"""Replaying and verifying records: plies, and tampered records rejected at the right line."""

from __future__ import annotations

import re

import msgspec
import pytest
from recgen import cheap_edition_toml, many_games, random_game
from support import solo_of

from sneferu_cli.games.sneferu.edition import parse_edition, standard_edition
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.record.jsonl import read_json_records, records_to_json
from sneferu_cli.record.model import GameRecord, Turn
from sneferu_cli.record.replay import ReplayError, final_result, plies, position_at, verify
from sneferu_cli.record.text import (
    GameEntry,
    RecordError,
    format_record,
    format_records,
    read_records,
)

STANDARD = standard_edition()


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    return many_games(40, base_seed=1000)


def test_every_generated_game_verifies_from_text_and_from_json(games):
    for entry in read_records(format_records(games)).games:
        v = verify(entry, STANDARD)
        assert v.turns == sum(isinstance(e, Turn) for e in entry.record.events)
        h = entry.record.header
        assert final_result(v.state) == (h.result, h.result_tags, h.termination)
    for entry in read_json_records(records_to_json(games)).games:
        verify(entry, STANDARD)


def test_the_position_at_each_ply_is_the_one_before_that_turn():
    """SPEC 8.6: ply K = after K turns and what follows them, before turn K + 1."""
    for players, builders, seed in ((1, None, 1), (2, "random", 2), (4, None, 3), (3, None, 4)):
        positions: list[str] = []
        rec = random_game(players, seed, builders=builders, retire=0.05, positions=positions)
        entry = GameEntry(rec)
        assert [to_position(s) for s in plies(entry, STANDARD)] == positions
        assert to_position(position_at(entry, 0, STANDARD)) == positions[0]
        k = len(positions) // 2
        assert to_position(position_at(entry, k, STANDARD)) == positions[k]
        assert to_position(position_at(entry, -1, STANDARD)) == positions[-1]
        with pytest.raises(ValueError, match=f"has plies 0 to {len(positions) - 1}"):
            position_at(entry, len(positions), STANDARD)


def test_a_record_may_start_from_a_position():
    positions: list[str] = []
    full = random_game(2, 8, positions=positions)
    turns = [i for i, e in enumerate(full.events) if isinstance(e, Turn)]
    rest = full.events[turns[5]:]  # from turn 6 on
    rec = GameRecord(full.header, rest)
    rec.header.position = positions[5]
    text = format_record(rec)
    assert f'[Position "{positions[5]}"]' in text
    entry = read_records(text).games[0]
    assert verify(entry, STANDARD).turns == len(turns) - 5
    assert to_position(position_at(entry, 0, STANDARD)) == positions[5]


# ------------------------------------------------------------------- tampering


def three_games() -> tuple[list[GameRecord], str]:
    recs = [random_game(2, 21), random_game(3, 22, retire=0.04), random_game(2, 23)]
    return recs, format_records(recs)


def line_of(text: str, pattern: str, start: int = 0) -> int:
    """The 1-based number of the first line at or after line ``start`` matching pattern."""
    rows = text.split("\n")
    for i in range(start, len(rows)):
        if re.match(pattern, rows[i]):
            return i + 1
    raise AssertionError(pattern)


def game2_start(text: str) -> int:
    return [i for i, r in enumerate(text.split("\n"), 1) if r.startswith("[Event ")][1]


def edit(text: str, line: int, new: str | None) -> str:
    rows = text.split("\n")
    if new is None:
        del rows[line - 1]
    else:
        rows[line - 1] = new
    return "\n".join(rows)


def failure(text: str) -> RecordError:
    """The error verifying a file raises; every other game verifies."""
    rf = read_records(text, "t.rec")
    errors = []
    for entry in rf.games:
        try:
            verify(entry, STANDARD, rf.source)
        except RecordError as e:
            errors.append(e)
    assert len(errors) == 1, errors
    return errors[0]


def check(e: RecordError, line: int, *fragments: str, replay: bool = True) -> None:
    assert (e.game, e.line) == (2, line), str(e)
    assert str(e).startswith(f"t.rec, game 2, line {line}: ")
    assert isinstance(e, ReplayError) == replay
    for f in fragments:
        assert f in str(e)


def test_an_illegal_move_is_rejected_at_its_line():
    _, text = three_games()
    at = line_of(text, r"5\. ", game2_start(text))
    row = text.split("\n")[at - 1]
    # Level 6 is never supported this early in the game.
    bad = re.sub(r"@\d\.\d", "@6.1", row, count=1)
    check(failure(edit(text, at, bad)), at, "turn 5 (seat ", "slot 6.1 is not supported")


def test_a_changed_set_up_draw_is_rejected_where_it_first_fails():
    _, text = three_games()
    at = line_of(text, r"chance ~(FOOD|NOEXTRA|SAVETIME|TIMEFOOD|STOREHOUSE)",
                 game2_start(text))
    tiles = text.split("\n")[at - 1].split()
    # The four eye quarries draw one tile each from four different kinds: a repeat is
    # impossible.
    tiles[2] = tiles[1]
    check(failure(edit(text, at, " ".join(tiles))), at,
          f"chance outcome {tiles[1]}: the next chance event lays a tile on the quarry at "
          "space 5")


def test_a_changed_offer_draw_shows_in_the_first_turn_that_takes_that_stone():
    recs, text = three_games()
    first = next(e for e in recs[1].events if isinstance(e, Turn))
    column, row = (int(x) for x in re.match(r"(\d)\.(\d)", first.move).groups())
    at = line_of(text, r"chance ~[BTMGA]{2} ", game2_start(text))
    stones = text.split("\n")[at - 1].split()
    k = 1 + (column - 1) * 7 + (row - 1)
    stones[k] = "~BT" if stones[k] != "~BT" else "~GA"
    e = failure(edit(text, at, " ".join(stones)))
    check(e, line_of(text, r"1\. ", game2_start(text)), "turn 1 (seat ")


def test_a_removed_set_up_line_is_rejected_at_the_first_turn():
    _, text = three_games()
    at = line_of(text, r"chance ~\d", game2_start(text))  # the boats' arrival
    check(failure(edit(text, at, None)), at, "turn 1 (seat ", "chance events are due first",
          "the next boat to arrive")


def test_a_removed_turn_line_breaks_the_numbering():
    _, text = three_games()
    at = line_of(text, r"7\. ", game2_start(text))
    with pytest.raises(RecordError) as e:
        read_records(edit(text, at, None), "t.rec")
    check(e.value, at, "turn 8, but this is turn 7", replay=False)


def last_turn_line(text: str) -> int:
    end = line_of(text, r"end of game", game2_start(text))
    return max(i for i in range(game2_start(text), end)
               if re.match(r"\d+\. ", text.split("\n")[i - 1]))


def test_a_removed_last_turn_is_found_at_the_end():
    _, text = three_games()
    cut = edit(text, last_turn_line(text), None)
    check(failure(cut), line_of(cut, "end of game", game2_start(cut)),
          "the record ends before the game is over", "[Termination normal]")


def test_a_turn_by_the_wrong_seat_is_rejected_at_its_line():
    _, text = three_games()
    at = line_of(text, r"4\. ", game2_start(text))
    row = text.split("\n")[at - 1]
    seat = int(row.split()[1][0])
    bad = row.replace(f" {seat}: ", f" {seat % 3 + 1}: ", 1)
    check(failure(edit(text, at, bad)), at,
          f"turn 4 (seat {seat % 3 + 1}): seat {seat} is to move, not seat {seat % 3 + 1}")


def test_a_wrong_result_is_rejected_at_its_tag():
    recs, text = three_games()
    r = recs[1].header.result[1]
    at = line_of(text, r"\[Result 2 ", game2_start(text))
    food = r.scores["food"]
    bad = text.split("\n")[at - 1].replace(f"food={food}", f"food={food + 1}")
    check(failure(edit(text, at, bad)), at, f"food={food + 1}", "but the replay gives",
          f"food={food}")


def test_a_wrong_termination_or_fault_is_rejected_at_its_tag():
    recs, text = three_games()
    assert recs[1].header.faults, "game 2 has a retired seat"
    at = line_of(text, r"\[Termination ", game2_start(text))
    check(failure(edit(text, at, "[Termination ptah]")), at, "[Termination ptah]",
          "'normal'")
    at = line_of(text, r"\[Fault ", game2_start(text))
    fault = recs[1].header.faults[0]
    bad = text.split("\n")[at - 1].replace(f"ply={fault.ply}", f"ply={fault.ply + 1}")
    check(failure(edit(text, at, bad)), at, f"ply={fault.ply + 1}]", f"after {fault.ply} turn")


def test_a_turn_after_the_end_is_rejected():
    _, text = three_games()
    end = line_of(text, r"end of game", game2_start(text))
    turns = int(text.split("\n")[last_turn_line(text) - 1].split(".")[0])
    check(failure(edit(text, end, f"{turns + 1}. 1: end\nend of game")), end,
          f"turn {turns + 1} (seat 1): the game is already over")


def test_solo_scores_are_checked():
    rec = next(g for g in many_games(24) if solo_of(g.header) and solo_of(g.header).won)
    text = format_record(rec).replace(f"score={solo_of(rec.header).score}",
                                      f"score={solo_of(rec.header).score + 1}")
    entry = read_records(text).games[0]
    line = 1 + next(i for i, ln in enumerate(text.splitlines()) if ln.startswith("[Solo"))
    with pytest.raises(ReplayError, match=rf"line {line}: \[Solo won .* but the replay gives"):
        verify(entry, STANDARD)


def test_json_records_name_the_event_that_fails():
    recs, _ = three_games()
    bad = recs[1]
    i = [k for k, e in enumerate(bad.events) if isinstance(e, Turn)][3]
    turn = bad.events[i]
    assert isinstance(turn, Turn)
    bad.events[i] = Turn(turn.seat % 3 + 1, turn.move)
    entry = read_json_records(records_to_json(recs), "t.jsonl").games[1]
    with pytest.raises(ReplayError, match=rf"t.jsonl, game 2, line 2: event {i + 1}: turn 4 "):
        verify(entry, STANDARD, "t.jsonl")


def test_a_header_that_does_not_fit_the_game_is_rejected():
    rec = random_game(2, 30, builders="random")
    text = format_record(rec)
    entry = read_records(text.replace("[Builders random]\n", "")).games[0]
    with pytest.raises(ReplayError, match=r"line 4: \[Variant builders\] needs"):
        verify(entry, STANDARD)
    seat2 = next(r for r in text.split("\n") if r.startswith("[Seat 2 "))
    entry = read_records(text.replace(seat2 + "\n", "")).games[0]
    with pytest.raises(ReplayError, match=r"line 7: 1 \[Seat\] tags numbered 1 for 2 seats"):
        verify(entry, STANDARD)
    drawn = rec.header.seats[1].tags.get("builder")
    assert drawn, "seat 2's drawn builder is in its Seat tag"
    other = "Aya" if drawn != "Aya" else "Heba"
    entry = read_records(text.replace(f"builder={drawn}", f"builder={other}")).games[0]
    with pytest.raises(ReplayError, match=rf"line 8: \[Seat 2\] says builder={other}, but "
                                          rf"the replay gives {drawn}"):
        verify(entry, STANDARD)


def test_a_non_standard_edition_replays_with_that_edition():
    cheap = parse_edition(cheap_edition_toml(), "cheap.toml")
    assert cheap.offer.columns[3].food == 1
    rec = random_game(2, 31, edition=cheap)
    assert "[Edition cheap]" in format_record(rec)
    entry = read_records(format_record(rec)).games[0]
    verify(entry, cheap)


def test_a_json_record_of_the_form_before_the_generic_model_still_reads_and_replays():
    """Sneferu's JSON records once held builders, builder, stones and food, and solo as
    fields of their own (SPEC 8.7): they read as the present form and replay."""
    for rec in [g for g in many_games(24) if g.header.result_tags or g.header.tags][:6]:
        h = rec.header
        old = msgspec.to_builtins(rec)
        head = old["header"]
        if "Builders" in h.tags:
            head["builders"] = head.pop("tags")["Builders"]
        for seat in head.get("seats", []):
            if "tags" in seat:
                seat["builder"] = seat.pop("tags")["builder"]
        for r in head["result"]:
            r.update(r.pop("scores"))
        solo = solo_of(h)
        if solo is not None:
            del head["result_tags"]
            head["solo"] = {"won": solo.won, "ptah": solo.against,
                            **({"score": solo.score, "title": solo.title} if solo.won else {})}
        line = msgspec.json.encode(old).decode()
        assert '"stones":' in line and "scores" not in line
        entry = read_json_records(line + "\n").games[0]
        assert entry.record == rec
        verify(entry, STANDARD)
