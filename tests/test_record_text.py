"""The record text format and JSON Lines: exact round trips, the grammar, clear errors."""

from __future__ import annotations

import doctest
import re

import msgspec
import pytest
from recgen import many_games, random_game
from support import ROOT, solo_of

import sneferu_cli.record
from sneferu_cli.grammar import parser
from sneferu_cli.record import jsonl, model, replay, text
from sneferu_cli.record.jsonl import read_any, read_json_records, record_to_json, records_to_json
from sneferu_cli.record.model import Chance, GameRecord, Header, Retire, Seat, Turn
from sneferu_cli.record.text import (
    RecordError,
    format_record,
    format_records,
    parse_records,
    read_records,
)


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    return many_games(60)


def test_the_generated_games_cover_what_records_hold(games):
    """Every variant, 1-4 seats, retires, annotations, aborted games, extra tags."""
    heads = [g.header for g in games]
    assert {(h.players, h.variant, h.tags.get("Builders")) for h in heads} >= {
        (n, "standard", None) for n in (1, 2, 3, 4)} | {(2, "builders", "random"),
                                                        (3, "builders", "chosen")}
    assert any(isinstance(e, Retire) for g in games for e in g.events)
    assert any(isinstance(e, Turn) and e.info for g in games for e in g.events)
    assert {h.termination for h in heads} >= {"normal", "ptah", "aborted"}
    assert any(h.extra for h in heads) and any(solo_of(h) and solo_of(h).won for h in heads)
    assert any(s.tc for h in heads for s in h.seats)  # a seat's own time control


def test_text_round_trip_is_exact(games):
    for g in games:
        t = format_record(g)
        assert parse_records(t) == [g]
        assert format_record(parse_records(t)[0]) == t
    assert parse_records(format_records(games)) == games


def test_json_round_trip_is_exact_and_agrees_with_text(games):
    lines = records_to_json(games)
    assert len(lines.splitlines()) == len(games)
    back = [g.record for g in read_json_records(lines).games]
    assert back == games
    assert format_records(back) == format_records(games)
    for g in games:
        assert msgspec.json.decode(record_to_json(g), type=GameRecord) == g
    assert [g.record for g in read_any(lines).games] == games
    assert [g.record for g in read_any(format_records(games)).games] == games


def test_the_whole_file_grammar_accepts_every_file_written(games):
    """protocol/record.lark, rule records, describes the files the writer produces."""
    tree = parser("record", "records").parse(format_records(games))
    assert len(tree.children) == len(games)


def test_every_written_line_is_a_line_of_the_grammar(games):
    line = parser("record", "line")
    for row in format_record(games[3]).splitlines():
        if row:
            line.parse(row)


def test_set_up_lines_are_grouped_by_kind_and_turn_lines_carry_their_draws():
    rec = random_game(2, 5, builders="random")
    rows = format_record(rec).splitlines()
    chance = [r for r in rows if r.startswith("chance ")]
    assert len(chance) == 4  # tiles, offer stones, builders, boats
    assert len(chance[0].split()) == 16 and len(chance[1].split()) == 29
    assert re.fullmatch(r"chance ~(Lateef|Heba|Tsekani|Aya) ~\w+", chance[2])
    assert re.fullmatch(r"chance ~[12] ~[12]", chance[3])
    assert re.fullmatch(r"1\. [12]: \S.* ~[BTMGA]{2}", rows[rows.index(chance[3]) + 1])


def test_strings_escape_quotes_newlines_and_odd_characters():
    odd = 'a "quoted" \\ name\nwith\ttab \u2028 and \udc80 surrogate ☥'
    rec = GameRecord(Header(players=1, event=odd, seats=[Seat(1, odd, author=odd)],
                            extra={odd: odd}),
                     [Chance("~FOOD1"), Turn(1, "end", 5, {odd: odd, "k": ""})])
    t = format_record(rec)
    assert t.count("\n") == 11  # 7 tags, a blank line, 2 events, the end: nothing split
    t.encode("utf-8")
    assert parse_records(t) == [rec]


def test_several_games_a_file_separated_by_one_blank_line(games):
    t = format_records(games[:3])
    assert t.count("end of game\n\n[Event ") == 2
    assert t.endswith("end of game\n")


def test_a_game_without_events_round_trips():
    rec = GameRecord(Header(players=3))
    assert parse_records(format_record(rec)) == [rec]


def test_writing_refuses_what_could_not_be_read_back():
    def fails(rec: GameRecord, what: str) -> None:
        with pytest.raises(ValueError, match=what):
            format_record(rec)

    fails(GameRecord(Header(players=5)), "players")
    fails(GameRecord(Header(players=2, variant="odd")), "variant")
    fails(GameRecord(Header(players=2, edition="two words")), "edition")
    fails(GameRecord(Header(players=2), [Turn(1, "1.1  TG@1.1")]), "canonical")
    fails(GameRecord(Header(players=2), [Turn(1, "1.1 TG@1.1\n")]), "move")
    fails(GameRecord(Header(players=2), [Chance("BT")]), "chance outcome")
    fails(GameRecord(Header(players=2), [Retire(1, "Crash!")]), "retire kind")
    # the canonical texts are remembered between games, the refusals too
    for _ in range(2):
        fails(GameRecord(Header(players=2), [Turn(1, "1.1  TG@1.1")]), "canonical")
        fails(GameRecord(Header(players=2), [Chance("BT")]), "chance outcome")
        fails(GameRecord(Header(players=2), [Turn(1, "1.1 TG@1.1"), Turn(2, "1.1  TG@1.1")]),
              "canonical")


# ----------------------------------------------------------------------- errors


HEAD = '[Event "e"]\n[Date "?"]\n[Edition standard]\n[Variant standard]\n[Players 2]\n'


@pytest.mark.parametrize(("body", "line", "message"), [
    (HEAD + '[Foo "x"]\n\nend of game\n', 6, "unexpected '[Foo \"x\"]' at column 1"),
    (HEAD.replace("[Date", "[Round \"1\"]\n[Date") + "\nend of game\n", 3,
     "the tag [Date] is out of order"),
    (HEAD + "[Players 2]\n\nend of game\n", 6, "the tag [Players] is repeated"),
    (HEAD.replace("[Players 2]\n", "") + "\nchance ~BT\nend of game\n", 6,
     "lacks the tag(s) [Players]"),
    (HEAD + "\nchance ~BT\n[Seed 3]\nend of game\n", 8, "[Seed] comes after the events"),
    (HEAD + "\nchance ~BT\n1. 1: end\n3. 2: end\nend of game\n", 9,
     "turn 3, but this is turn 2"),
    (HEAD + "\n1. 1: 1.1 TG@1.1 {ms}\nend of game\n", 7, "unexpected '}' at column 21"),
    (HEAD + "\n1. 1: 1.1 TG@1.1 ~BT extra\nend of game\n", 7, "unexpected 'extra'"),
    (HEAD + '[Seat 1 "a\\q"]\n\nend of game\n', 6, "unexpected"),
    (HEAD + "\n1. 5: end\nend of game\n", 7, "unexpected '5: end'"),
    (HEAD + "\nretire 2\nend of game\n", 7, "line ends too early"),
])
def test_a_malformed_game_is_rejected_naming_game_line_and_what(body, line, message):
    good = format_record(GameRecord(Header(players=2)))
    lines_before = good.count("\n") + 1
    with pytest.raises(RecordError) as e:
        parse_records(good + "\n" + body, source="t.rec")
    assert e.value.game == 2 and e.value.line == lines_before + line
    assert str(e.value).startswith(f"t.rec, game 2, line {lines_before + line}: ")
    assert message in str(e.value)


def test_text_outside_a_game_is_an_error():
    with pytest.raises(RecordError, match=r"line 1: unexpected text outside a game"):
        read_records("hello\n" + format_record(GameRecord(Header(players=2))))


def test_bad_json_records_name_the_line():
    good = record_to_json(GameRecord(Header(players=2)))
    with pytest.raises(RecordError, match=r"t.jsonl, game 2, line 3: not a game record: "
                                          r"Expected `int`, got `str` - at `\$.header.players`"):
        read_json_records(good + "\n\n" + good.replace("2", '"2"') + "\n", "t.jsonl")


def test_the_examples_in_the_docstrings_hold():
    for module in (sneferu_cli.record, model, text, jsonl, replay):
        assert doctest.testmod(module).failed == 0


def test_the_spec_example_record_reads_and_verifies():
    spec = (ROOT / "SPEC.md").read_text()
    section = spec.split("## 8. The record format", 1)[1].split("\n## 9.", 1)[0]
    example = re.search(r"```record\n(.*?)```", section, re.S)
    assert example, "SPEC.md section 8 shows an example record"
    rf = read_records(example.group(1), "SPEC.md")
    assert len(rf.games) == 1 and not rf.cut_off
    v = sneferu_cli.record.verify(rf.games[0], sneferu_cli.games.sneferu.edition.standard_edition())
    assert v.turns >= 3
