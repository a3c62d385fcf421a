"""The fast paths for frequent lines accept exactly what the grammar accepts, with the same value.

Lines are generated from the grammar's shapes (moves, every engine line, the short
arbiter lines), then mutated (a character inserted, deleted or replaced, blanks added);
the fast path and Lark must agree on accept or reject and on the value read. Where Lark
accepts a line of a kind the fast path covers, the fast path must take it itself.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import mutate, random_engine_run

from sneferu_cli.game import NotationError
from sneferu_cli.games.sneferu.fast import (
    fast_move,
    read_canonical_move,
    read_event,
    read_listed_steps,
    read_move,
    read_outcome,
)
from sneferu_cli.games.sneferu.move import Move, parse_outcome
from sneferu_cli.protocol import messages
from sneferu_cli.protocol.messages import (
    SEP,
    GameOver,
    IsReady,
    NewGame,
    Quit,
    SetOption,
    Sneferu,
    is_listed_in,
    parse_arbiter_line,
    parse_engine_line,
)

DIGIT = st.sampled_from("0123456789")
NZ = st.sampled_from("123456789")
MAT = st.sampled_from("BTMGA")
SPACES = st.sampled_from([" ", " ", " ", "  ", "   "])


def _cat(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map("".join)


def _joined(item: st.SearchStrategy[str], sep: st.SearchStrategy[str],
            max_size: int = 5) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw: st.DrawFn) -> str:
        items = draw(st.lists(item, min_size=1, max_size=max_size))
        out = items[0]
        for x in items[1:]:
            out += draw(sep) + x
        return out
    return build()


STEP = st.one_of(
    _cat(NZ, st.just("."), NZ, st.sampled_from(["", "+"])),
    _cat(MAT, MAT, st.just("@"), NZ, st.just("."), NZ, st.sampled_from(["", "h"])),
    _cat(NZ, st.just(">"), NZ),
    st.sampled_from(["store", "feast", "end"]),
)
MOVE = st.one_of(st.just("done"), _joined(STEP, SPACES))
MOVE_SEP = st.sampled_from([" ; ", ";", " ;", "; ", "  ;  "])
KEY = st.one_of(st.sampled_from(["depth", "nodes", "score", "pvx", "strings", "pv_1", "x"]),
                st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True))
VALUE = st.text(alphabet="0123456789.-;~éx+@", min_size=1, max_size=6)
REST = st.text(alphabet="ab ;\tx1é", min_size=1, max_size=10).filter(
    lambda t: t[0] not in " \t" and t[-1] not in " \t")
INFO = _cat(
    st.just("info"),
    st.lists(_cat(SPACES, KEY, SPACES, VALUE), max_size=3).map("".join),
    st.one_of(st.just(""), _cat(SPACES, st.just("pv"), SPACES, _joined(MOVE, MOVE_SEP, 3)),
              _cat(SPACES, st.just("string"), SPACES, REST)))
INT = st.one_of(st.integers(-3, 6).map(str), st.just("007"), st.just("-0"))
WORD = st.sampled_from(["safe", "bold", "var", "a.b+c-1", "_x", "9"])
OPTION = _cat(
    st.just("option"), SPACES, st.just("name"), SPACES,
    st.sampled_from(["Seed", "Book_2", "x", "9x", "Depth"]), SPACES, st.just("type"), SPACES,
    st.one_of(
        _cat(st.just("check"), SPACES, st.just("default"), SPACES,
             st.sampled_from(["true", "false", "yes"])),
        _cat(st.just("spin"), SPACES, st.just("default"), SPACES, INT, SPACES, st.just("min"),
             SPACES, INT, SPACES, st.just("max"), SPACES, INT),
        _cat(st.just("combo"), SPACES, st.just("default"), SPACES, WORD,
             st.lists(_cat(SPACES, st.just("var"), SPACES, WORD), min_size=1, max_size=3)
             .map("".join)),
        _cat(st.just("string"), st.one_of(st.just(""),
                                          _cat(SPACES, st.just("default"), SPACES, REST))),
        st.just("button")))
ENGINE_LINE = st.one_of(
    _cat(st.just("move"), SPACES, MOVE), st.just("readyok"), INFO, OPTION,
    _cat(st.just("id"), SPACES, st.sampled_from(["name", "author", "nom"]), SPACES, REST),
    _cat(st.just("feature"), SPACES, st.sampled_from(["legalmoves", "ponder"])),
    _cat(st.just("feature"), SPACES, st.just("games"),
         st.lists(_cat(SPACES, st.sampled_from(["sneferu", "imhotep", "a_b-2", "9x", "Nim"])),
                  max_size=3).map("".join)),
    st.just("sneferuok"))
ARBITER_LINE = st.one_of(
    st.sampled_from(["isready", "quit"]),
    _cat(st.just("sneferu"), SPACES, INT),
    _cat(st.just("newgame players"), SPACES, INT, st.just(" seat"), SPACES, INT,
         st.just(" variant "), st.sampled_from(["standard", "builders", "solo"]),
         st.just(" edition"), SPACES, st.sampled_from(["standard", "my-ed.2", "_x"]),
         st.one_of(st.just(""), _cat(st.just(" game"), SPACES,
                                     st.sampled_from(["imhotep", "nim_2", "Nim", "-x"])))),
    _cat(st.just("setoption name"), SPACES, st.sampled_from(["Seed", "Book_2", "x", "9x"]),
         st.one_of(st.just(""), _cat(st.just(" value"), SPACES, REST))),
    _cat(st.just("gameover ranks"), st.lists(_cat(SPACES, INT), min_size=1, max_size=4)
         .map("".join)),
)
NOISE = "  \t;+.@h~0123456789BTMGAmoveinfpsrtdyk\ré-_x>"


@st.composite
def mutated(draw: st.DrawFn, lines: st.SearchStrategy[str]) -> str:
    """A line of the grammar, often with one or two characters changed."""
    return mutate(draw, draw(lines), NOISE)


def _outcome(read: Callable[[str], object], text: str) -> object:
    try:
        return read(text)
    except NotationError:
        return "rejected"
    except ValueError as e:  # an integer too long for int(): the same on both paths
        return f"ValueError {e}"


@settings(max_examples=2000, deadline=None)
@given(mutated(MOVE))
@example("BB@1.1")
@example("1.1 TG@1.1 ")
@example("done store")
def test_a_move_is_read_fast_exactly_as_move_from_str(text: str) -> None:
    slow = _outcome(Move.from_str, text)
    fast = fast_move(text)
    if slow == "rejected":
        assert fast is None
    else:
        assert fast == slow
    assert _outcome(read_move, text) == slow
    if slow != "rejected" and not isinstance(slow, str):
        assert read_canonical_move(text) == (slow, str(slow))
        # the kept steps of a listed move (apply_listed_move), read then found again
        assert read_listed_steps(text) == read_listed_steps(text) == slow.steps


@settings(max_examples=2000, deadline=None)
@given(mutated(ENGINE_LINE))
@example("info nodes pv")
@example("info pvé 3")
@example("info a b string")
@example("info pv 1.1 TG@1.1;end")
@example("move 1.1+TG@1.1")
@example("option name X type combo default var var var var b")
@example("option name X type spin default 5 min 6 max 9")
def test_an_engine_line_is_read_fast_exactly_as_the_grammar_reads_it(line: str) -> None:
    text = line.strip(" \t\r\n")
    slow = _outcome(messages._lark_engine_line, text)
    fast = _outcome(messages._fast_engine_line, text)
    if slow == "rejected":
        assert fast is None
    else:
        assert fast == slow  # the fast path takes every line an engine may send
    assert _outcome(parse_engine_line, line) == slow


GAME_WORD = st.one_of(st.sampled_from(["take", "M2", "L", "4A.1", "PASS", "17:a1,a2", "+7:c2",
                                         "3,1,4,2", "é", "x~", "a{"]),
                      st.text(alphabet="az09.,:+-~{;\u00a0\x0b\x85é", min_size=1, max_size=5))
GAME_MOVE = _joined(GAME_WORD, SPACES, 4)
GAME_LINE = st.one_of(
    _cat(st.just("move"), SPACES, GAME_MOVE), st.just("readyok"),
    _cat(st.just("info"), st.lists(_cat(SPACES, KEY, SPACES, VALUE), max_size=3).map("".join),
         st.one_of(st.just(""),
                   _cat(SPACES, st.just("pv"), SPACES, _joined(GAME_MOVE, MOVE_SEP, 3)),
                   _cat(SPACES, st.just("string"), SPACES, REST))),
    ENGINE_LINE)
GAME_NOISE = NOISE + "{~\u00a0\x0b\x85\x1c:,"


@st.composite
def game_lines(draw: st.DrawFn) -> str:
    """A line an engine may send in another game than Sneferu, often mutated."""
    return mutate(draw, draw(GAME_LINE), GAME_NOISE)


@settings(max_examples=2000, deadline=None)
@given(game_lines())
@example("move take  M2")
@example("move ~x")
@example("move pv")
@example("info pv take M1;PASS ; L 4A.1 string x")
@example("info depth 2 pv {x")
@example("move a\u00a0b")
def test_another_games_engine_line_is_read_fast_exactly_as_the_grammar_reads_it(
        line: str) -> None:
    """In another game (``game_engine_line``: moves are words), the same agreement."""
    text = line.strip(" \t\r\n")
    slow = _outcome(lambda t: messages._lark_engine_line(t, "game_engine_line"), text)
    fast = _outcome(lambda t: messages._fast_engine_line(t, messages._GAME_ANSWER_RE,
                                                         messages._GAME_INFO_RE), text)
    if slow == "rejected":
        assert fast is None
    else:
        assert fast == slow
    assert _outcome(lambda t: parse_engine_line(t, "imhotep"), line) == slow


@settings(max_examples=2000, deadline=None)
@given(mutated(ARBITER_LINE))
@example("newgame players 2 seat 3 variant standard edition standard")
@example("setoption name Seed value 7 ")
@example("gameover ranks 1" + "0" * 5000)
def test_a_short_arbiter_line_is_read_fast_exactly_as_the_grammar_reads_it(line: str) -> None:
    text = line.rstrip("\r\n")
    slow = _outcome(messages._lark_arbiter_line, text)
    fast = _outcome(messages._fast_arbiter_line, text)
    if slow == "rejected":
        assert fast is None
    elif isinstance(slow, Sneferu | SetOption | IsReady | NewGame | GameOver | Quit | str):
        assert fast == slow  # (str: a ValueError, raised the same on both paths)
    else:
        assert fast is None
    assert _outcome(parse_arbiter_line, line) == slow


OUTCOME = _cat(st.just("~"), st.one_of(
    st.sampled_from(["BT", "TB", "GA", "BB", "FOOD1", "STOREHOUSE", "Heba", "Lateef", "1",
                     "4", "5", "0", "01", "food1"]),
    st.text(alphabet="BTMGAFOD12345Hebaxy", min_size=1, max_size=6)))


@settings(max_examples=1000, deadline=None)
@given(mutated(OUTCOME))
def test_an_outcome_is_read_exactly_as_parse_outcome_reads_it(text: str) -> None:
    assert _outcome(read_outcome, text) == _outcome(parse_outcome, text)


def test_events_read_as_the_grammar_reads_them() -> None:
    for text in ("~BT", "~FOOD1", "~3", "~Heba", "4.1 MG@2.3h feast", "done"):
        slow = parse_outcome(text) if text.startswith("~") else Move.from_str(text)
        assert read_event(text) == slow
    for bad in ("~BB", "~5", "4.1 MG@2.3x", "~"):
        with pytest.raises(NotationError):
            read_event(bad)


def test_a_bundled_engine_starts_and_joins_a_game_without_building_a_grammar() -> None:
    """The handshake, options, newgame and isready go through the fast paths: no Lark
    parser is built before the first position."""
    lines = ("sneferu 1\nsetoption name Seed value 3\n"
             "newgame players 4 seat 2 variant standard edition standard\nisready\n"
             "gameover ranks 1 2 3 4\nquit\n")
    built, answers = random_engine_run(lines)
    assert (built, answers[-1]) == (0, "readyok")


def test_the_arbiter_plays_and_records_a_game_without_building_a_grammar() -> None:
    """Handshakes, answers and the record go through the fast paths: an arbiter process
    (a tournament worker, sneferu play) builds no Lark parser for a game between the
    bundled engines."""
    script = (
        "from sneferu_cli.arbiter.bundled import engine_command\n"
        "from sneferu_cli.arbiter.engine import Engine\n"
        "from sneferu_cli.arbiter.game import TimeControl, play_game\n"
        "from sneferu_cli.grammar import parser\n"
        "from sneferu_cli.record.text import format_record\n"
        "engines = Engine.start_all([Engine(engine_command('random')) for _ in range(2)])\n"
        "record = play_game(engines, seed=3, time_control=TimeControl(movetime=2000))\n"
        "text = format_record(record)\n"
        "Engine.quit_all(engines)\n"
        "h = record.header\n"
        "print(parser.cache_info().currsize, h.termination, len(h.faults))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "normal", "0"]


# Listed texts as the games write them: words of letters, digits and signs, no ';'.
_LISTED_WORD = st.text("ab1,-.:+", min_size=1, max_size=3)
_LISTED = st.lists(_LISTED_WORD, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LISTED, min_size=1, max_size=8), _LISTED | st.text("ab1 ;", max_size=9))
@example(["a", "b"], "a ; b")
@example(["a b", "c"], "b")
@example(["a", "b"], "a ;")
@example(["a"], "a")
def test_a_move_is_listed_in_the_go_line_exactly_when_it_is_one_of_its_texts(
        listed: list[str], move: str) -> None:
    line = SEP.join(listed)
    assert is_listed_in(line, move) == (move in listed)
