"""Game records: the data model, the text format, JSON Lines, replay and verification.

>>> from sneferu_cli.record import GameRecord, Header, format_record, parse_records
>>> rec = GameRecord(Header(players=2))
>>> parse_records(format_record(rec)) == [rec]
True
"""

from .jsonl import read_any, read_json_records, record_to_json, records_to_json
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
           seat_turns,
)
from .replay import ReplayError, Verified, final_result, plies, position_at, verify
from .text import (
           GameEntry,
           RecordError,
           RecordFile,
           append_record,
           decode_records,
           format_record,
           format_records,
           parse_records,
           read_records,
)

__all__ = ["Chance", "Event", "Fault", "GameEntry", "GameRecord", "Header", "RecordError",
           "RecordFile", "ReplayError", "Retire", "Seat", "SeatResult", "Simultaneous",
           "Turn",
           "Verified", "append_record", "decode_records", "final_result", "format_record",
           "format_records", "parse_records", "plies", "position_at", "read_any",
           "read_json_records", "read_records", "record_to_json", "records_to_json", "seat_turns",
           "verify"]
