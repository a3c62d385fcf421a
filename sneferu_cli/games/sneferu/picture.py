"""A readable text picture of a position: river, offer with prices, pyramids, food, turn.

The picture is for people (``sneferu position show``, human seats, ``replay --show``);
machines read the position notation. :func:`sections` gives it in named parts, so that a
terminal can show only the parts that changed.
"""

from __future__ import annotations

from ...words import plural
from .components import Material, Stone, Tile
from .state import GameState, Phase, Variant

LEGEND = ("Pyramids: level 1 at the bottom, slots numbered from the left (BT@2.3: level 2, "
          "slot 3).\n"
          "  [BT] a stone (left, right material), [..] an empty slot, [2.] an empty slot with "
          "2 food\n  printed on its left half, [.1] with 1 food printed on its right half.")
"""The key to the pyramid drawings, printed once after the seats."""


def sections(state: GameState) -> list[tuple[str, str]]:
    """The picture in parts, in order, each ``(name, text)``: ``title``, ``river``,
    ``offer``, ``seat 1`` ... ``seat N``, ``legend``, ``ptah`` (solo only) and ``turn``."""
    t = state.tables
    n = len(state.players)
    mode = "solo against Ptah" if state.solo else f"{n} players"
    parts = [("title", f"Sneferu: edition {t.edition.name}, {state.variant.value} variant, "
                       f"{mode}"),
             ("river", "\n".join(_river(state))), ("offer", "\n".join(_offer(state)))]
    parts += [(f"seat {i + 1}", "\n".join(_seat(state, i))) for i in range(n)]
    parts.append(("legend", LEGEND))
    if state.ptah is not None:
        held = " ".join(f"{Stone(s).name}x{k}" for s, k in enumerate(state.ptah) if k)
        parts.append(("ptah", f"Ptah: {state.ptah_total} of {t.ptah_target} stones"
                              + (f" ({held})" if held else "")))
    parts.append(("turn", describe_turn(state)))
    return parts


def picture(state: GameState) -> str:
    """The whole position as lines of text: the sections, a blank line between them."""
    return "\n\n".join(text for _, text in sections(state))


def _river(state: GameState) -> list[str]:
    t = state.tables
    out = [f"River (spaces 0 to {t.last}; quarry: colour and bonus tile, * = eye of Horus)"]
    quarries = []
    for q, space in enumerate(t.quarry_spaces):
        tile = Tile(state.tiles[q]).name if state.tiles[q] >= 0 else "?"
        eye = "*" if t.quarry_eye[q] else ""
        quarries.append(f"{space}:{Material(t.quarry_material[q]).name}:{tile}{eye}")
    for k in range(0, len(quarries), 5):
        out.append("  " + "  ".join(quarries[k:k + 5]))
    spaces: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(state.players):
        spaces.setdefault(p.space, []).append((p.arrival, i))
    boats = []
    for space in sorted(spaces):
        seats = [f"seat {i + 1}" for _, i in sorted(spaces[space])]
        boats.append(f"space {space}: " + ", ".join(seats))
    out.append("  boats (first arrived first): " + "; ".join(boats))
    return out


def _offer(state: GameState) -> list[str]:
    t = state.tables
    out = [f"Offer (stone food/time; bag holds {state.bag_total})"]
    out.append("         " + "".join(f"column {c + 1:<4}" for c in range(t.columns)))
    for r in reversed(range(t.rows)):
        cells = []
        for c in range(t.columns):
            col = state.offer[c]
            stone = Stone(col[r]).name if r < len(col) else "--"
            cells.append(f"{stone} {t.prices[c][r]}/{t.col_time[c]}".ljust(11))
        out.append(f"  row {r + 1}  " + "".join(cells).rstrip())
    return out


def _seat(state: GameState, i: int) -> list[str]:
    p = state.players[i]
    g = p.pyramid.geometry
    name = f" ({p.builder.name})" if p.builder else (
        " (builder ?)" if state.variant == Variant.BUILDERS else "")
    used = [w for w, flag in (("feast used", p.feasted), ("sail-back used", p.sailed)) if flag]
    extra = (f"  stored: {' '.join(Stone(s).name for s in p.store)}" if p.store else "")
    status = "  RETIRED" if p.retired else ""
    # The order of arrival is on the river's boats line: a seat's part shows only its own.
    head = (f"Seat {i + 1}{name}: food {p.food}, boat on space {p.space}, "
            f"{plural(p.pyramid.count, 'stone')}"
            f"{extra}{'  ' + ', '.join(used) if used else ''}{status}")
    out = [head]
    icons = {(lv, sl, half): food for lv, sl, half, food in g.icons}
    for n in reversed(range(1, g.levels + 1)):
        cells = []
        for k in range(1, g.levels + 2 - n):
            v = p.pyramid.stones[g.index(n, k)]
            if v >= 0:
                cells.append(f"{k}[{Material(v // 5).name}{Material(v % 5).name}]")
            else:
                left = icons.get((n, k, "left"))
                right = icons.get((n, k, "right"))
                cells.append(f"{k}[{left if left else '.'}{right if right else '.'}]")
        out.append("  " + "   " * (n - 1) + " ".join(cells) + "   " * (n - 1)
                   + f"   level {n}")
    areas = sorted(p.pyramid.areas, reverse=True)
    if areas:
        out.append("  enclosed areas: " + " ".join(str(a) for a in areas))
    return out


def describe_turn(state: GameState) -> str:
    """One line: whose decision, or which chance event comes next, or the result."""
    ph = state.phase
    seat = state.seat + 1
    if ph == Phase.SETUP:
        kind, index = state.setup_next
        what = {"tile": f"the tile for the quarry at space {state.tables.quarry_spaces[index]}"
                if kind == "tile" else "",
                "offer": f"a stone for offer column {index + 1}",
                "builder": f"seat {index + 1}'s builder",
                "boat": "the next boat to arrive at the start"}.get(kind, "")
        return f"Set-up: chance draws {what}."
    if ph == Phase.START:
        tile = state.start_tile()
        q = state.tables.quarry_at[state.start_space]
        bonus = (f", quarry {Material(state.tables.quarry_material[q]).name} with "
                 f"{tile.name}" if tile is not None and q >= 0 else "")
        return f"Seat {seat} to move (boat started the turn on space {state.start_space}{bonus})."
    if ph == Phase.PLACE:
        store = " or store it" if state.can_store else ""
        return f"Seat {seat} places the {Stone(state.hand).name} just bought{store}."
    if ph == Phase.POST:
        return f"Seat {seat} may take after-turn steps, then done."
    if ph == Phase.DRAW:
        cols = ", ".join(str(c + 1) for c in state.pending)
        return f"Refill: chance draws stones for offer column(s) {cols}."
    if state.ptah is not None:
        r = state.solo_result()
        if r.won:
            return (f"Game over: seat 1 beats Ptah {r.stones} to {r.ptah}; score {r.score}, "
                    f"\"{r.title}\".")
        return f"Game over: Ptah wins ({r.ptah} stones against {r.stones})."
    ranks = sorted(state.ranking(), key=lambda s: (s.rank, s.seat))
    text = ", ".join(f"{s.rank}. seat {s.seat + 1} ({plural(s.stones, 'stone')}, {s.food} food"
                     f"{', retired' if s.retired else ''})" for s in ranks)
    return f"Game over: {text}."
