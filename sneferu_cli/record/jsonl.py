"""Records as JSON: the msgspec encoding of :class:`GameRecord`, one game a line.

A file of JSON records is JSON Lines: each line one game object (SPEC.md, 8.7). The text
format and JSON hold the same content and convert both ways.

>>> from .model import Chance, GameRecord, Header
>>> rec = GameRecord(Header(players=2), [Chance("~FOOD1")])
>>> record_to_json(rec)
'{"header":{"players":2},"events":[{"type":"chance","outcome":"~FOOD1"}]}'
>>> read_json_records(record_to_json(rec) + "\\n").games[0].record == rec
True
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

import msgspec

from ..game import UnknownGame, get_game
from .model import GameRecord
from .text import GameEntry, RecordError, RecordFile, read_records

__all__ = ["decode_record", "is_json", "read_any", "read_json_records", "record_to_json",
           "records_to_json", "upgrade"]

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def record_to_json(rec: GameRecord) -> str:
    """One game as one line of JSON (no newline); fields with their default left out."""
    h = rec.header
    # msgspec leaves a default out only when it is the very object: intern the strings.
    h = msgspec.structs.replace(h, event=sys.intern(h.event), date=sys.intern(h.date),
                                edition=sys.intern(h.edition), variant=sys.intern(h.variant))
    return _encoder.encode(GameRecord(h, rec.events)).decode("utf-8")


def upgrade(raw: Any) -> Any:
    """A record's JSON object (decoded, not yet typed) with a header of an older form
    rewritten into the present one by its game (``RecordTags.old_json``: Sneferu's
    records before the record model was generic held builders, solo and stones and food
    as fields of their own). ValueError when the old fields are malformed."""
    header = raw.get("header") if isinstance(raw, dict) else None
    if not isinstance(header, dict):
        return raw
    try:
        game = get_game(*([header["game"]] if isinstance(header.get("game"), str) else []))
    except UnknownGame:
        return raw
    tags = game.record_tags()
    if tags is not None:
        try:
            tags.old_json(header)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"a header of the old form with a malformed field: {e!r}") from None
    return raw


def decode_record(text: str | bytes) -> GameRecord:
    """One record from its JSON text (an older form too, :func:`upgrade`):
    msgspec's DecodeError or ValidationError, or ValueError, when it is not one."""
    return msgspec.convert(upgrade(_decoder.decode(text)), type=GameRecord)


def records_to_json(recs: Iterable[GameRecord]) -> str:
    """Games as JSON Lines: one game a line, each ending with a newline."""
    return "".join(record_to_json(r) + "\n" for r in recs)


def read_json_records(text: str, source: str = "<records>") -> RecordFile:
    """Read JSON Lines records. A last line that is cut off (no newline, not valid JSON)
    is reported in ``cut_off``; any other bad line raises RecordError."""
    games: list[GameEntry] = []
    cut_off: list[RecordError] = []
    lines = text.split("\n")
    number = 0
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        number += 1
        try:
            rec = decode_record(line)
        except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as e:
            if i == len(lines):  # the file does not end with a newline after this game
                cut_off.append(RecordError(f"cut off: the game's line is incomplete ({e})",
                                           source, number, i))
                continue
            raise RecordError(f"not a game record: {e}", source, number, i) from None
        games.append(GameEntry(rec, number, i))
    return RecordFile(source, games, cut_off)


def is_json(text: str) -> bool:
    """True when ``text`` holds JSON records (it begins with ``{``), not the text format."""
    return text.lstrip().startswith("{")


def read_any(text: str, source: str = "<records>", *, headers_only: bool = False
             ) -> RecordFile:
    """Read records in either format, told apart by :func:`is_json` (``headers_only``: a
    text record's events are not read, :func:`.text.read_records`)."""
    if is_json(text):
        return read_json_records(text, source)
    return read_records(text, source, headers_only=headers_only)
