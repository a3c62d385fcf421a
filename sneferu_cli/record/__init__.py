"""Game records: the data model (this module) and its text and JSON encodings."""

from .model import (
           Chance,
           Event,
           Fault,
           GameRecord,
           Header,
           Retire,
           Seat,
           SeatResult,
           SoloScore,
           Turn,
)

__all__ = ["Chance", "Event", "Fault", "GameRecord", "Header", "Retire", "Seat", "SeatResult",
           "SoloScore", "Turn"]
