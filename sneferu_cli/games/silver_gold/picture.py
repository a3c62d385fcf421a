"""Pictures."""

from __future__ import annotations

from typing import Any

from .position import to_position
from .state import SilverGoldState


def picture(state: SilverGoldState) -> str:
    return to_position(state)


def sections(state: SilverGoldState) -> list[tuple[str, str]]:
    return [("position", picture(state))]


def page_data(state: SilverGoldState) -> dict[str, Any]:
    return {"game": "silver-gold", "position": to_position(state)}
