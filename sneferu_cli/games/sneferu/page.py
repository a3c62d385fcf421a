"""What the web viewer draws for a Sneferu position (:meth:`SneferuGame.page_data`): the
river with quarries and boats, the offer, each seat's pyramid, food and storehouse, Ptah,
and the board's fixed numbers from the edition (``board``).

>>> from sneferu_cli.games.sneferu.state import new_game
>>> data = page_data(new_game(players=2))
>>> data["board"]["name"], len(data["players"]), data["bag"]
('standard', 2, 100)
"""

from __future__ import annotations

from typing import Any

from .components import Material, Stone, Tile
from .edition import Edition
from .picture import describe_turn
from .position import to_position
from .state import GameState

__all__ = ["page_data"]


def page_data(state: GameState) -> dict[str, Any]:
    """The position as the viewer's JSON-ready data; ``board`` is the same at every ply."""
    return {**_snapshot(state), "board": _board(state.edition)}


def _board(ed: Edition) -> dict[str, Any]:
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
