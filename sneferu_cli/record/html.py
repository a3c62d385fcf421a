"""One self-contained HTML page that steps through a recorded game.

Every ply's position is computed here and embedded as JSON (the game's
:meth:`~sneferu_cli.game.Game.page_data`; its ``board``, the same at every ply, once); the
page (the template ``viewer.html`` beside this module, inline CSS and JavaScript, nothing
fetched) only draws them: the river with quarries and boats, the offer with prices, each
seat's pyramid, food and storehouse, Ptah, and the move list.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..game import get_game
from .model import Chance, Turn
from .replay import plies
from .text import GameEntry

__all__ = ["game_page"]


def game_page(entry: GameEntry, edition: Any, source: str = "<records>") -> str:
    """The page for one game; raises ReplayError (as ``plies``) if the game does not replay."""
    game = get_game(entry.record.header.game)
    steps = [game.page_data(state) for state in plies(entry, edition, source)]
    board = steps[0]["board"] if steps else {}
    for step in steps:
        del step["board"]
    data = {"title": _title(entry, source), "edition": board,
            "seats": _seats(entry), "moves": _moves(entry), "steps": steps}
    page = resources.files(__package__).joinpath("viewer.html").read_text(encoding="utf-8")
    # "</" inside the embedded JSON must not close the script element.
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return page.replace("/*GAME-DATA*/null", blob, 1)


def _title(entry: GameEntry, source: str) -> str:
    h = entry.record.header
    parts = [h.event if h.event != "?" else source, f"game {entry.number}"]
    if h.round:
        parts.append(f"round {h.round}")
    if h.date != "?":
        parts.append(h.date)
    return " · ".join(parts)


def _seats(entry: GameEntry) -> list[dict[str, Any]]:
    h = entry.record.header
    names = {s.seat: s.name for s in h.seats}
    return [{"seat": i, "name": names.get(i, "")} for i in range(1, h.players + 1)]


def _moves(entry: GameEntry) -> list[dict[str, Any]]:
    """Each turn: its seat and move, the draws after it, its clock time and line."""
    out: list[dict[str, Any]] = []
    for i, e in enumerate(entry.record.events):
        if isinstance(e, Turn):
            out.append({"seat": e.seat, "move": e.move, "draws": [], "ms": e.ms,
                        "line": entry.event_lines[i] if entry.event_lines else None})
        elif isinstance(e, Chance) and out:
            out[-1]["draws"].append(e.outcome)
        elif not isinstance(e, Chance) and out:
            out[-1]["draws"].append(f"(seat {e.seat} retired: {e.kind})")
    return out
