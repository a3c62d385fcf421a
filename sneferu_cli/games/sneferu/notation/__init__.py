"""Notations: moves (one whole turn a line), positions (the whole state a line), pictures."""

from .move import (
    Move,
    legal_move_strings,
    legal_moves,
    parse_action,
    parse_actions,
    parse_outcome,
)
from .position import from_position, to_position

__all__ = ["Move", "from_position", "legal_move_strings", "legal_moves", "parse_action",
           "parse_actions", "parse_outcome", "to_position"]
