"""The record text format: header tags, one line per turn, several games a file.

The grammar is ``protocol/record.lark``; SPEC.md, section 8, describes it. The format is
read line by line (rule ``line`` of the grammar), so that every error names its game and
line, and a game cut off while it was being written (no ``end of game`` line) is told
apart from a malformed one.

>>> from .model import Chance, GameRecord, Header, Turn
>>> rec = GameRecord(Header(players=2), [Chance("~FOOD1"), Turn(2, "1.1 TG@1.1", ms=850),
...                                      Chance("~BT")])
>>> print(format_record(rec), end="")
[Event "?"]
[Date "?"]
[Edition standard]
[Variant standard]
[Players 2]
<BLANKLINE>
chance ~FOOD1
1. 2: 1.1 TG@1.1 ~BT {850ms}
end of game
>>> parse_records(format_record(rec)) == [rec]
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..game import MAX_DIGITS, Game, NotationError, get_game, unnamed
from ..grammar import parser
from ..words import clip
from .model import (
    Chance,
    Event,
    Fault,
    GameRecord,
    Header,
    Retire,
    Seat,
    SeatResult,
    Simultaneous,
    Turn,
    TurnEvent,
)

if TYPE_CHECKING:
    from lark import Token, Tree, UnexpectedInput

try:  # POSIX: appends are serialised with flock; elsewhere a single writer is assumed
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

END_OF_GAME = "end of game"
GAME_START = "[Event "

__all__ = ["END_OF_GAME", "GameEntry", "RecordError", "RecordFile", "append_record",
           "decode_records", "format_record", "format_records", "parse_records", "read_records",
           "result_tag"]


class RecordError(ValueError):
    """A record that cannot be read: names the source, the game (1-based), the line."""

    def __init__(self, reason: str, source: str = "<records>", game: int | None = None,
                 line: int | None = None) -> None:
        self.reason, self.source, self.game, self.line = reason, source, game, line
        where = [source] + ([f"game {game}"] if game else []) + ([f"line {line}"] if line
                                                                 else [])
        super().__init__(f"{', '.join(where)}: {reason}")


class GameEntry(NamedTuple):
    """One game read from a file, with where its parts are (for error messages).

    ``event_lines[i]`` is the line of event ``i``; ``tag_lines`` maps ``"event"``,
    ``"players"``, ``"solo"``, ``"termination"``, ... and ``"seat 2"``, ``"result 2"``,
    ``"fault 1"`` (the second Seat tag, ...) to their line; both are empty for JSON input.
    """

    record: GameRecord
    number: int = 1
    line: int = 0
    event_lines: tuple[int, ...] = ()
    tag_lines: dict[str, int] = {}  # noqa: RUF012 (a NamedTuple default is never mutated)
    end_line: int = 0


class RecordFile(NamedTuple):
    """The games of a file, and those cut off while being written (not readable)."""

    source: str
    games: list[GameEntry]
    cut_off: list[RecordError]


# --------------------------------------------------------------------------- writing


def format_record(rec: GameRecord) -> str:
    """The text of one game, ending with ``end of game`` and a newline.

    Raises ValueError when a field cannot be written (a move that is not in move notation,
    a name where one word is needed, ...): such a record could not be read back.
    """
    lines = _header_lines(rec.header)
    lines.append("")
    lines += _event_lines(rec.events, get_game(rec.header.game))
    lines.append(END_OF_GAME)
    return "\n".join(lines) + "\n"


def format_records(recs: Iterable[GameRecord]) -> str:
    """Several games, a blank line between two (what appending them one by one gives)."""
    return "\n".join(format_record(r) for r in recs)


def _string(s: str) -> str:
    """A JSON string literal on one line (lone surrogates escaped, so it encodes as UTF-8)."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(s, ensure_ascii=False))


_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_VARIANT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*")  # another game's variant
_WORD = re.compile(r"[a-z][a-z0-9-]*")
_SCORE_KEY = re.compile(r"[a-z][a-z0-9_]*")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_VALUE = re.compile(r"[A-Za-z0-9_.,:;+\-/@%#!?*]+")


def _bare(value: str, pattern: re.Pattern[str], what: str) -> str:
    if not pattern.fullmatch(value):
        raise ValueError(f"record: {what} {value!r} cannot be written (expected "
                         f"{pattern.pattern})")
    return value


def _one_of(value: object, allowed: tuple[object, ...], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"record: {what} {value!r} (expected one of "
                         f"{', '.join(str(a) for a in allowed)})")
    return str(value)


_SEAT_TEXTS = {1: "1", 2: "2", 3: "3", 4: "4"}


def _seat_no(seat: int, what: str) -> str:
    text = _SEAT_TEXTS.get(seat) if type(seat) is int else None
    return _one_of(seat, (1, 2, 3, 4), what) if text is None else text


def _score(n: int, what: str) -> str:
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"record: score {what} {n!r} (expected a whole number)")
    return str(n)


def _count(n: int, what: str) -> str:
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"record: {what} {n!r} (expected a count >= 0)")
    return str(n)


def _header_lines(h: Header) -> list[str]:
    out = [f"[Event {_string(h.event)}]", f"[Date {_string(h.date)}]"]
    if h.round is not None:
        out.append(f"[Round {_string(h.round)}]")
    named = not unnamed(h.game)
    if named:
        out.append(f"[Game {_bare(h.game, _WORD, 'game')}]")
    out.append(f"[Edition {_bare(h.edition, _NAME, 'edition')}]")
    if named:
        out.append(f"[Variant {_bare(h.variant, _VARIANT_NAME, 'variant')}]")
    else:  # the unnamed game's tags are read by its own rules: one of its variants
        out.append(f"[Variant {_one_of(h.variant, get_game(h.game).variants, 'variant')}]")
    out.append(f"[Players {_seat_no(h.players, 'players')}]")
    out += [_own_tag(name, value, "setup") for name, value in h.tags.items()]
    for s in h.seats:
        line = f"[Seat {_seat_no(s.seat, 'seat')} {_string(s.name)}"
        for key, value in s.tags.items():
            line += f" {_bare(key, _WORD, 'seat tag')}={_bare(value, _NAME, key)}"
        if s.author is not None:
            line += f" author={_string(s.author)}"
        if s.tc is not None:
            line += f" tc={_string(s.tc)}"
        out.append(_own_seat_tags(line + "]") if s.tags else line + "]")
    if h.seed is not None:
        out.append(f"[Seed {int(h.seed)}]")
    if h.time_control is not None:
        out.append(f"[TimeControl {_string(h.time_control)}]")
    if h.position is not None:
        out.append(f"[Position {_string(h.position)}]")
    out += [result_tag(r) for r in h.result]
    out += [_own_tag(name, value, "result") for name, value in h.result_tags.items()]
    if h.termination is not None:
        out.append(f"[Termination {_bare(h.termination, _WORD, 'termination')}]")
    for f in h.faults:
        out.append(f"[Fault {_seat_no(f.seat, 'fault seat')} {_bare(f.kind, _WORD, 'fault kind')}"
                   f" ply={_count(f.ply, 'fault ply')} detail={_string(f.detail)}]")
    for key, value in h.extra.items():
        out.append(f"[Extra {_string(key)} {_string(value)}]")
    return out


def result_tag(r: SeatResult) -> str:
    """The [Result] tag line of one seat."""
    scores = "".join(f" {_bare(k, _SCORE_KEY, 'score key')}={_score(v, k)}"
                     for k, v in r.score_items())
    return (f"[Result {_seat_no(r.seat, 'result seat')} rank={_count(r.rank, 'rank')}"
            + scores + (" retired]" if r.retired else "]"))


def own_tag(name: str, value: str) -> str:
    """The line of a game's own header tag (:class:`~sneferu_cli.game.RecordTags`)."""
    return f"[{name} {value}]"


def _own_tag(name: str, value: str, place: str) -> str:
    """The line of a game's own header tag, checked to read back as such a tag of the
    set-up (before the [Seat] tags) or of the result (after the [Result] tags)."""
    line = own_tag(name, value)
    kind = _own_kind(line)
    if kind is None or _OWN_PLACE[kind] != place or kind != _own_name(name):
        raise ValueError(f"record: the {place} tag {line!r} cannot be written (the record "
                         "format has no such tag there)")
    return line


def _own_kind(line: str) -> str | None:
    """The grammar's rule of the tag ``line``, when it reads as one of a game's own."""
    from lark import Tree, UnexpectedInput

    try:
        tree = parser("record", "line").parse(line)
    except UnexpectedInput:
        return None
    node = tree.children[0]
    if not isinstance(node, Tree) or node.data != "tag":
        return None
    tag = node.children[0]
    return str(tag.data) if isinstance(tag, Tree) and str(tag.data) in _OWN_PLACE else None


def _own_seat_tags(line: str) -> str:
    """A [Seat] tag line with a game's own seat tags, checked to read back."""
    from lark import UnexpectedInput

    try:
        parser("record", "line").parse(line)
    except UnexpectedInput:
        raise ValueError(f"record: the seat tag {line!r} cannot be written (the record "
                         "format has no such seat tag)") from None
    return line


def _event_lines(events: list[Event], game: Game) -> list[str]:
    out: list[str] = []
    turns = 0
    i, n = 0, len(events)
    while i < n:
        e = events[i]
        i += 1
        if isinstance(e, TurnEvent):
            turns += 1
            j = i
            while j < n and isinstance(events[j], Chance):
                j += 1
            try:  # the usual case without a call a draw; the error said by _outcome
                draws = [_canonical_text(game, c.outcome, True)  # type: ignore[union-attr]
                         for c in events[i:j]]
            except NotationError:
                draws = [_outcome(c, game) for c in events[i:j]]  # type: ignore[arg-type]
            i = j
            if isinstance(e, Turn):
                ms, info = e.ms, e.info
                line = f"{turns}. {_seat_turn(e, game)}"
                if draws:
                    line += " " + " ".join(draws)
                if info is None and type(ms) is int and ms >= 0:
                    out.append(f"{line} {{{ms}ms}}")  # what _annotation writes
                else:
                    out.append(" ".join([line, *_annotation(e)]))
                continue
            seats = [t.seat for t in e.turns]
            if len(seats) < 2 or seats != sorted(set(seats)):
                raise ValueError(f"record: a simultaneous turn of seats {seats} (two or more, "
                                 "in seat order, each once)")
            out.append(f"{turns}. " + SEALED_SEP.join(
                " ".join([_seat_turn(t, game), *_annotation(t)]) for t in e.turns)
                + "".join(f" {d}" for d in draws))
        elif isinstance(e, Retire):
            out.append(f"retire {_seat_no(e.seat, 'retire seat')} "
                       f"{_bare(e.kind, _WORD, 'retire kind')}")
        else:
            # A run of chance events following no turn: one line per kind of outcome.
            run: list[str] = []
            kind: str | None = None
            while True:
                token = _outcome(e, game)  # type: ignore[arg-type]
                k = game.outcome_kind(token)
                if run and k is not kind:
                    out.append("chance " + " ".join(run))
                    run = []
                run.append(token)
                kind = k
                if i == n or not isinstance(events[i], Chance):
                    break
                e = events[i]
                i += 1
            out.append("chance " + " ".join(run))
    return out


SEALED_SEP = " ; "
"""What separates the seats' moves on the line of a simultaneous turn."""


def _seat_turn(t: Turn, game: Game) -> str:
    return f"{_seat_no(t.seat, 'turn seat')}: {_move(t.move, game)}"


# The canonical texts met while writing, by game, text and whether it is an outcome: a
# tournament's games repeat most of their moves and all of their outcomes. Emptied when it
# grows large.
_canonical: dict[tuple[Game, str, bool], str] = {}
_CANONICAL_KEPT = 1 << 16


def _canonical_text(game: Game, text: str, outcome: bool) -> str:
    key = (game, text, outcome)
    known = _canonical.get(key)
    if known is None:
        known = game.canonical_outcome(text) if outcome else game.canonical_move(text)
        if len(_canonical) >= _CANONICAL_KEPT:
            _canonical.clear()
        _canonical[key] = known
    return known


def _outcome(c: Chance, game: Game) -> str:
    try:
        return _canonical_text(game, c.outcome, True)
    except NotationError as e:
        raise ValueError(f"record: chance outcome {c.outcome!r}: {e}") from None


def _move(move: str, game: Game) -> str:
    try:
        canonical = _canonical_text(game, move, False)
    except NotationError as e:
        raise ValueError(f"record: {e}") from None
    if canonical != move:
        raise ValueError(f"record: move {move!r} is not written canonically ({canonical!r})")
    return move


def _annotation(t: Turn) -> list[str]:
    notes = [] if t.ms is None else [f"{_count(t.ms, 'clock time')}ms"]
    for key, value in (t.info or {}).items():
        k = key if _KEY.fullmatch(key) else _string(key)
        v = value if _VALUE.fullmatch(value) else _string(value)
        notes.append(f"{k}={v}")
    return ["{" + " ".join(notes) + "}"] if notes else []


# --------------------------------------------------------------------------- appending


def append_record(path: str | os.PathLike[str], record: GameRecord) -> None:
    """Append one finished game to the record file at ``path`` durably.

    The game is formatted first, then written with one ``write`` (with a blank line before
    it when the file is not empty), flushed and fsynced; a new file's directory entry is
    fsynced too. A crash can so only cut off the game being written; readers report such
    a game (:func:`read_records`) and keep every game before it. Appends from several
    processes are serialised with ``flock``.
    """
    data = format_record(record).encode("utf-8")
    p = Path(path)
    created = not p.exists()
    fd = os.open(p, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        tail = os.pread(fd, 2, size - 2) if size >= 2 else os.pread(fd, size, 0)
        # A blank line between games; the game starts on a line of its own even after a
        # game that was cut off in the middle of a line.
        sep = (b"" if size == 0 or tail == b"\n\n" else b"\n" if tail.endswith(b"\n")
               else b"\n\n")
        view = memoryview(sep + data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)  # also releases the lock
    if created:
        dir_fd = os.open(p.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


# --------------------------------------------------------------------------- reading


def parse_records(text: str, source: str = "<records>", *,
                  skip_cut_off: bool = False) -> list[GameRecord]:
    """The games of a record text.

    Raises RecordError (naming game and line) for a malformed game, and for a game cut off
    while it was written unless ``skip_cut_off`` (then only the finished games are
    returned; :func:`read_records` tells which games were cut off).
    """
    rf = read_records(text, source)
    if rf.cut_off and not skip_cut_off:
        raise rf.cut_off[0]
    return [g.record for g in rf.games]


def decode_records(data: bytes, source: str = "<records>") -> str:
    """The text of a record file's bytes: UTF-8, where a character cut off at the very end
    (with the game being written) is not an error; other bad bytes raise RecordError."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.end >= len(data) - 1 and e.reason == "unexpected end of data":
            return data[:e.start].decode("utf-8") + "\ufffd"
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"not UTF-8 text (byte {e.start})", source, None, line) from None


def read_records(text: str, source: str = "<records>", *,
                 headers_only: bool = False) -> RecordFile:
    """Read every game of a record text; games cut off mid-write are listed, not raised.

    A game begins at a line starting with ``[Event`` and ends with its ``end of game``
    line. One without that line (the end of the file, or the next game, comes first) was
    cut off while being written: it is reported in ``cut_off``, every other game is read.
    ``headers_only``: each game's tags are read, its events are not (nor checked); its
    record has no events (a tournament's standings and resume need no more).
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    games: list[GameEntry] = []
    cut_off: list[RecordError] = []
    for number, (kind, start, chunk) in enumerate(_chunks(lines), start=1):
        if kind == "game":
            games.append(_read_game(chunk, start, number, source, headers_only))
        elif kind == "cut":
            cut_off.append(RecordError(
                f"cut off: the game has no '{END_OF_GAME}' line (it was being written when "
                "its writer stopped); the games before it are intact", source, number, start))
        else:
            raise RecordError(f"unexpected text outside a game: {clip(chunk[0])!r} (a game "
                              f"begins with a line '{GAME_START}...')", source, None, start)
    return RecordFile(source, games, cut_off)


def _chunks(lines: list[str]) -> Iterator[tuple[str, int, list[str]]]:
    """Split lines into ("game" | "cut" | "junk", first line number, lines)."""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i].rstrip()
        if not line:
            i += 1
            continue
        start = i
        if not line.startswith(GAME_START):
            i += 1
            while i < n and not lines[i].startswith(GAME_START):
                i += 1
            # A fragment of a game start that the writer did not finish.
            kind = "cut" if GAME_START.startswith(line) else "junk"
            yield kind, start + 1, lines[start:i]
            continue
        i += 1
        while i < n and not lines[i].startswith(GAME_START):
            if lines[i].rstrip() == END_OF_GAME:
                i += 1
                break
            i += 1
        else:
            yield "cut", start + 1, lines[start:i]
            continue
        yield "game", start + 1, lines[start:i]


_TAGS = ("event", "date", "round", "game", "edition", "variant", "players", "builders", "seat",
         "seed", "time_control", "position", "result", "solo", "termination", "fault",
         "extra")
"""The header's tags in the grammar's order (protocol/record.lark)."""
_COMMON = frozenset({"event", "date", "round", "game", "edition", "variant", "players",
                     "seat", "seed", "time_control", "position", "result", "termination",
                     "fault", "extra"})
"""Every game's tags; the grammar's others are a game's own (Header.tags, result_tags)."""
_OWN_PLACE = {t: "setup" if _TAGS.index(t) < _TAGS.index("result") else "result"
              for t in _TAGS if t not in _COMMON}
"""A game's own tags, each of the set-up (written before [Seat]) or of the result."""
_SEAT_COMMON = frozenset({"author", "tc"})
"""Every game's options of a [Seat] tag; the grammar's others are a game's own."""


def _own_name(name: str) -> str:
    """The grammar's rule of a game's own tag named ``name`` (``Builders``: builders)."""
    return name.lower()
_TAG_NAME = {"time_control": "TimeControl"}
_REPEATED = frozenset({"seat", "result", "fault", "extra"})
_REQUIRED = ("event", "date", "edition", "variant", "players")


_KIND = {"game_name": "game", "game_tag": "tag", "game_variant": "variant",
         "game_result": "result", "game_turn_line": "turn_line",
         "game_simultaneous_line": "simultaneous_line", "game_chance_line": "chance_line"}
"""The rules of game_line (another game's lines) under the names of their Sneferu kin."""


def _tag_name(tag: str) -> str:
    return "[" + _TAG_NAME.get(tag, tag.capitalize()) + "]"


def _read_game(chunk: list[str], first: int, number: int, source: str,
               headers_only: bool = False) -> GameEntry:
    """Parse one game's lines (the first is its [Event line, the last its end line); only
    its tags when ``headers_only``."""
    from lark import Token, Tree, UnexpectedInput

    fields: dict[str, object] = {}
    seats: list[Seat] = []
    result: list[SeatResult] = []
    faults: list[Fault] = []
    extra: dict[str, str] = {}
    own: dict[str, dict[str, str]] = {"setup": {}, "result": {}}
    tag_lines: dict[str, int] = {}
    events: list[Event] = []
    event_lines: list[int] = []
    last_tag = -1
    header: Header | None = None
    turns = 0
    line_parser = parser("record", "line")
    # Another game's lines (after its [Game] tag) go through the rule game_line.

    def fail(reason: str, at: int) -> RecordError:
        return RecordError(reason, source, number, at)

    def complete(at: int) -> Header:
        """The header, at the game's first line that is not a tag."""
        missing = [_tag_name(t) for t in _REQUIRED if t not in fields]
        if missing:
            raise fail(f"the header lacks the tag(s) {' '.join(missing)}", at)
        return Header(seats=seats, result=result, faults=faults, extra=extra,
                      tags=own["setup"], result_tags=own["result"],
                      **fields)  # type: ignore[arg-type]

    for offset, raw in enumerate(chunk):
        at = first + offset
        text = raw.rstrip()
        if not text:
            continue
        if headers_only and not text.startswith("["):  # the tags are over
            return GameEntry(GameRecord(complete(at), []), number, first, (), tag_lines,
                             first + len(chunk) - 1)
        try:
            tree = line_parser.parse(text)
        except UnexpectedInput as e:
            raise fail(_syntax(text, e), at) from None
        node = tree.children[0]
        kind = "end" if isinstance(node, Token) else _KIND.get(node.data, str(node.data))
        if header is None and kind != "tag":
            header = complete(at)
        if isinstance(node, Token):  # end of game
            assert header is not None
            return GameEntry(GameRecord(header, events), number, first, tuple(event_lines),
                             tag_lines, at)
        if kind == "tag":
            tag = node.children[0]
            assert isinstance(tag, Tree)
            name = _KIND.get(tag.data, str(tag.data))
            if header is not None:
                raise fail(f"the tag {_tag_name(name)} comes after the events; tags come "
                           "first", at)
            index = _TAGS.index(name)
            if index < last_tag or (index == last_tag and name not in _REPEATED):
                order = " ".join(_tag_name(t) for t in _TAGS)
                raise fail(f"the tag {_tag_name(name)} is "
                           f"{'repeated' if index == last_tag else 'out of order'}; tags come "
                           f"in this order (each at most once, Seat, Result, Fault and Extra "
                           f"once per seat or item): {order}", at)
            last_tag = index
            try:
                value = _tag_value(name, tag)
            except ValueError as e:
                raise fail(str(e), at) from None
            if isinstance(value, Seat):
                seats.append(value)
                tag_lines[f"seat {len(seats)}"] = at
            elif isinstance(value, SeatResult):
                result.append(value)
                tag_lines[f"result {len(result)}"] = at
            elif isinstance(value, Fault):
                faults.append(value)
                tag_lines[f"fault {len(faults)}"] = at
            elif name == "extra":
                assert isinstance(value, tuple)
                if value[0] in extra:
                    raise fail(f"the Extra tag {value[0]!r} is repeated", at)
                extra[value[0]] = value[1]
            elif name in _OWN_PLACE:  # a game's own tag: its text after the name
                tag_name = _tag_name(name)[1:-1]
                own[_OWN_PLACE[name]][tag_name] = text[len(tag_name) + 2:-1]
                tag_lines[name] = at
            else:
                fields[name] = value
                tag_lines[name] = at
                if name == "game" and not unnamed(str(value)):
                    line_parser = parser("record", "game_line")
            continue
        if kind in ("turn_line", "simultaneous_line"):
            turns += 1
            try:
                turn, draws = _turn(node) if kind == "turn_line" else _simultaneous(node)
                numbered = _int(str(node.children[0])[:-1])
            except ValueError as e:
                raise fail(str(e), at) from None
            if numbered != turns:
                raise fail(f"turn {clip(str(node.children[0])[:-1], 16)}, but this is turn "
                           f"{turns} of the game (turn lines are numbered 1, 2, ... with none "
                           "left out)", at)
            events.append(turn)
            events.extend(draws)
            event_lines.extend([at] * (1 + len(draws)))
        elif kind == "retire_line":
            seat, why = node.children
            events.append(Retire(_int(str(seat)), str(why)))
            event_lines.append(at)
        else:  # chance_line
            events.extend(Chance(str(t)) for t in node.children)
            event_lines.extend([at] * len(node.children))
    raise AssertionError("unreachable: a game chunk ends with its end line")  # pragma: no cover


def _tag_value(name: str, tag: Tree[Token]) -> object:
    from lark import Tree

    c = tag.children
    if name in ("event", "date", "round", "time_control", "position"):
        return _unquote(c[0])
    if name in ("game", "edition", "variant", "termination") or name in _OWN_PLACE:
        return str(c[0])
    if name in ("players", "seed"):
        return _int(str(c[0]))
    if name == "seat":
        opt = {str(t.data): _unquote(t.children[0]) for t in c[2:]
               if isinstance(t, Tree) and t.data in _SEAT_COMMON}
        own = {str(t.data): str(t.children[0]) for t in c[2:]
               if isinstance(t, Tree) and t.data not in _SEAT_COMMON}
        return Seat(_int(str(c[0])), _unquote(c[1]), tags=own, **opt)
    if name == "result" and tag.data == "result":  # the unnamed game's: its score keys
        seat, rank, *values = (_int(str(x)) for x in c[:4])
        keys = get_game().score_keys
        return SeatResult(seat, rank, retired=len(c) == 5, scores=dict(zip(keys, values,
                                                                           strict=True)))
    if name == "result":  # another game's: rank=, then its scores
        scores: dict[str, int] = {}
        for t in c[2:]:
            if t.type == "SCORE":  # type: ignore[union-attr]
                key, _, value = str(t).partition("=")
                if key in scores:
                    raise ValueError(f"the score {key!r} is repeated")
                scores[key] = _int(value)
        return SeatResult(_int(str(c[0])), _int(str(c[1])),
                          retired=str(c[-1]) == "retired", scores=scores)
    if name == "fault":
        return Fault(_int(str(c[0])), str(c[1]), _unquote(c[3]), _int(str(c[2])))
    # extra
    return _unquote(c[0]), _unquote(c[1])


def _int(text: str) -> int:
    """A whole number of the record; ValueError (one line) when it has too many digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _unquote(node: object) -> str:
    """The text of a JSON string token."""
    value = json.loads(str(node))
    assert isinstance(value, str)
    return value


def _turn(node: Tree[Token]) -> tuple[Turn, list[Chance]]:
    return _seat_turn_of(node.children[1:])


def _simultaneous(node: Tree[Token]) -> tuple[Simultaneous, list[Chance]]:
    """The moves of a simultaneous turn line (the last seat's is written out in the rule,
    with the draws after it), seat order checked."""
    from lark import Token, Tree

    children = node.children[1:]
    last = max(i for i, c in enumerate(children)
               if isinstance(c, Token) and c.type == "SEALED_SEP")
    turns = [_seat_turn_of(c.children)[0] for c in children[:last] if isinstance(c, Tree)]
    turn, draws = _seat_turn_of(children[last + 1:])
    turns.append(turn)
    seats = [t.seat for t in turns]
    if seats != sorted(set(seats)):
        raise ValueError(f"a simultaneous turn of seats {' '.join(map(str, seats))}: the "
                         "seats come in seat order, each once")
    return Simultaneous(turns), draws


def _seat_turn_of(children: list[Token | Tree[Token]]) -> tuple[Turn, list[Chance]]:
    """One seat's move from its parts (``S:``, the steps, draws, annotation)."""
    from lark import Token, Tree

    seat = _int(str(children[0])[:-1])
    steps: list[str] = []
    draws: list[Chance] = []
    ms: int | None = None
    info: dict[str, str] | None = None
    for c in children[1:]:
        if isinstance(c, Token):
            if c.type == "GAME_WORD":  # another game's move word
                steps.append(str(c))
            else:
                draws.append(Chance(str(c)))
        elif c.data == "step":
            steps.append(str(c.children[0]))
        else:  # annotation
            for note in c.children:
                assert isinstance(note, Tree)
                item = note.children[0]
                if isinstance(item, Token):
                    ms = _int(str(item)[:-2])
                    continue
                key, value = (_unquote(t) if t.type == "STRING" else str(t)
                              for t in item.children if isinstance(t, Token))
                info = info or {}
                info[key] = value
    return Turn(seat, " ".join(steps), ms, info), draws


def _syntax(text: str, e: UnexpectedInput) -> str:
    col = getattr(e, "column", 0)
    tok = getattr(e, "token", None)
    rest = text[col - 1:] if isinstance(col, int) and col >= 1 else ""
    if not rest or (tok is not None and tok.type == "$END"):
        return f"line ends too early: {clip(text)!r}"
    return f"unexpected {clip(rest, 16)!r} at column {col}: {clip(text)!r}"
