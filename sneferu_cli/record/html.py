"""One self-contained HTML page that steps through a recorded game.

Every ply's position is computed here and embedded as JSON; the page (the template
``viewer.html`` beside this module, inline CSS and JavaScript, nothing fetched) only draws
them: the river with quarries and boats, the offer with prices, each seat's pyramid,
food and storehouse, Ptah, and the move list.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..games.sneferu.notation.picture import describe_turn
from ..games.sneferu.notation.position import to_position
from ..games.sneferu.rules.components import Material, Stone, Tile
from ..games.sneferu.rules.edition import Edition
from ..games.sneferu.rules.state import GameState
from .model import Chance, Turn
from .replay import plies
from .text import GameEntry

__all__ = ["game_page"]


def game_page(entry: GameEntry, edition: Edition, source: str = "<records>") -> str:
    """The page for one game; raises ReplayError (as ``plies``) if the game does not replay."""
    steps = [_snapshot(state) for state in plies(entry, edition, source)]
    data = {"title": _title(entry, source), "edition": _edition(edition),
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


def _edition(ed: Edition) -> dict[str, Any]:
    rows = len(ed.offer.row_extra_food)
    return {
        "name": ed.name,
        "last": ed.river.last_space,
        "quarries": [{"space": q.space, "material": q.material, "eye": q.eye}
                     for q in ed.river.quarries],
        "columns": [{"food": [c.food + x for x in ed.offer.row_extra_food], "time": c.time}
                    for c in ed.offer.columns],
        "rows": rows,
        "levels": ed.pyramid.levels,
        "icons": [[i.level, i.slot, i.half, i.food] for i in ed.pyramid.icons],
        "ptahTarget": ed.solo.ptah_target,
    }


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


def _snapshot(state: GameState) -> dict[str, Any]:
    t = state.tables
    g = t.geometry
    players = []
    for p in state.players:
        order = 1 + sum(1 for q in state.players
                        if q.space == p.space and 0 <= q.arrival < p.arrival)
        levels = []
        for n in range(1, g.levels + 1):
            row = []
            for k in range(1, g.levels + 2 - n):
                v = p.pyramid.stones[g.index(n, k)]
                row.append(None if v < 0 else Material(v // 5).name + Material(v % 5).name)
            levels.append(row)
        players.append({
            "builder": p.builder.name if p.builder else None,
            "food": p.food, "space": p.space, "order": order if p.arrival >= 0 else None,
            "stones": p.pyramid.count, "pyramid": levels,
            "store": [Stone(s).name for s in p.store],
            "areas": sorted(p.pyramid.areas, reverse=True),
            "feasted": p.feasted, "sailed": p.sailed, "retired": p.retired,
        })
    ptah = None
    if state.ptah is not None:
        ptah = {"count": state.ptah_total,
                "stones": [f"{Stone(s).name}x{n}" for s, n in enumerate(state.ptah) if n]}
    return {
        "tiles": [Tile(k).name if k >= 0 else None for k in state.tiles],
        "offer": [[Stone(s).name for s in col] for col in state.offer],
        "bag": state.bag_total,
        "active": state.current_seat() + 1,
        "players": players,
        "ptah": ptah,
        "turn": describe_turn(state),
        "position": to_position(state),
    }
