"""Position notation: the complete state of a game on one line, enough to continue it.

Eight fields separated by single spaces (grammar ``protocol/sneferu-position.lark``; SPEC.md,
"Position notation")::

    edition variant tiles offer bag ptah players turn

:func:`to_position` writes one; :func:`from_position` reads one back and rejects an
impossible position (too many stones of a type, an unsupported stone, a boat past the last
space, ...) with a NotationError that gives the reason.

>>> from sneferu_cli.games.sneferu.state import new_game
>>> text = to_position(new_game(2))
>>> text.split()[:2], text.split()[-1]
(['standard', 'standard'], 'setup')
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game import NotationError, bound_numbers
from ...grammar import parse
from ...words import plural
from .components import Material, Power, Stone, Tile
from .edition import Edition, standard_edition
from .fast import fast_position_tree
from .pyramid import Pyramid
from .state import GameState, Phase, Player, Tables, Variant

if TYPE_CHECKING:
    from lark import Token, Tree

    Node = Tree[Token] | Token


def to_position(state: GameState) -> str:
    """The position notation of ``state``."""
    t = state.tables
    tiles = ",".join(Tile(k).name if k >= 0 else "?" for k in state.tiles)
    offer = "/".join(_stones(col) or "-" for col in state.offer)
    bag = ",".join(str(n) for n in state.bag)
    if state.ptah is None:
        ptah = "-"
    else:
        ptah = "".join(Stone(s).name * n for s, n in enumerate(state.ptah)) or "-"
    players = ";".join(_player(state, i) for i in range(len(state.players)))
    fields = [t.edition.name, state.variant.value, tiles, offer, bag, ptah, players,
              _turn(state)]
    return " ".join(fields)


def from_position(text: str, edition: Edition | None = None) -> GameState:
    """Read a position. ``edition`` must be given unless the position names "standard"."""
    text = text.strip()
    bound_numbers(text, "position")
    tree = fast_position_tree(text) or parse("sneferu-position", "position", text, "position")
    f = tree.children
    name = str(f[0])
    ed = edition or standard_edition()
    if ed.name != name:
        raise NotationError(f"position: written for edition {name!r}, but edition {ed.name!r} "
                            "is loaded (give the edition file with --edition)")
    t = Tables.of(ed)
    variant = Variant(str(f[1]))
    rows = _children(f[6])
    if not 1 <= len(rows) <= 4:
        raise NotationError(f"position: {len(rows)} players (1 to 4)")
    state = GameState(t, variant, [], solo=len(rows) == 1)
    _read_tiles(state, _children(f[2]))
    _read_offer(state, _children(f[3]))
    bag = [int(_text(x)) for x in _children(f[4])]
    if len(bag) != len(Stone):
        raise NotationError(f"position: the bag field has {len(bag)} counts, need {len(Stone)}")
    state.bag = bag
    state.bag_total = sum(bag)
    ptah = _run(_only(f[5]))
    if state.ptah is None and ptah:
        raise NotationError("position: Ptah only plays in a solo game (1 player)")
    if state.ptah is not None:
        for s in ptah:
            state.ptah[s] += 1
        state.ptah_total = len(ptah)
    for i, row in enumerate(rows):
        state.players.append(_read_player(state, i, row))
    _read_boats(state, rows)
    _read_turn(state, _only(f[7]))
    _check(state)
    state.setup_next = state._find_setup_next() if state.phase == Phase.SETUP else ("", -1)
    if state.phase == Phase.SETUP and not state.setup_next[0]:
        raise NotationError("position: 'setup' but the set-up is complete")
    return state


# --------------------------------------------------------------------------- writing


def _stones(stones: list[int]) -> str:
    return "".join(Stone(s).name for s in stones)


def _player(state: GameState, i: int) -> str:
    p = state.players[i]
    builder = "-" if state.variant == Variant.STANDARD else (
        p.builder.name if p.builder else "?")
    if p.arrival < 0:
        order = "?"
    else:
        order = str(1 + sum(1 for q in state.players
                            if q.space == p.space and 0 <= q.arrival < p.arrival))
    g = p.pyramid.geometry
    levels = []
    for n in range(1, g.levels + 1):
        cells = []
        for k in range(1, g.levels + 2 - n):
            v = p.pyramid.stones[g.index(n, k)]
            cells.append("-" if v < 0 else Material(v // 5).name + Material(v % 5).name)
        levels.append("".join(cells))
    flags = "".join(c for c, on in (("f", p.feasted), ("h", p.sailed), ("e", p.ended),
                                     ("r", p.retired)) if on)
    return ",".join([builder, str(p.food), f"{p.space}.{order}", "/".join(levels),
                     _stones(p.store) or "-", flags or "-"])


def _turn(state: GameState) -> str:
    ph = state.phase
    seat = state.seat + 1
    if ph == Phase.SETUP:
        return "setup"
    if ph == Phase.START:
        return f"start:{seat}:{state.start_space}"
    if ph == Phase.PLACE:
        return f"place:{seat}:{Stone(state.hand).name}" + (":store" if state.can_store else "")
    if ph == Phase.POST:
        return f"post:{seat}"
    if ph == Phase.DRAW:
        return "draw:" + ",".join(str(c + 1) for c in state.pending)
    return "over" + (f":{Stone(state.hand).name}" if state.hand >= 0 else "")


# --------------------------------------------------------------------------- reading


def _children(tree: Node) -> list[Node]:
    from lark import Token, Tree

    assert isinstance(tree, Tree)
    return [c for c in tree.children if isinstance(c, Tree | Token)]


def _only(tree: Node) -> Node:
    from lark import Tree

    return tree.children[0] if isinstance(tree, Tree) and len(tree.children) == 1 else tree


def _text(node: Node) -> str:
    from lark import Tree

    while isinstance(node, Tree):
        node = node.children[0]
    return str(node)


def _run(node: Node) -> list[int]:
    """Stones of a run like BTMG, or none for -."""
    s = _text(node)
    if s == "-":
        return []
    return [Stone.from_str(s[i:i + 2]) for i in range(0, len(s), 2)]


def _read_tiles(state: GameState, tiles: list[Node]) -> None:
    t = state.tables
    if len(tiles) != len(t.quarry_spaces):
        raise NotationError(f"position: {len(tiles)} tiles for {len(t.quarry_spaces)} quarries")
    for q, node in enumerate(tiles):
        s = _text(node)
        state.tiles[q] = -1 if s == "?" else Tile.from_str(s)
    for q in range(len(state.tiles)):
        if state.tiles[q] >= 0 and min(state._tile_pool(q)) < 0:
            where = "eye spaces" if t.quarry_eye[q] else "other quarries"
            raise NotationError(f"position: too many {Tile(state.tiles[q]).name} tiles on the "
                                f"{where} (the edition has {t.tile_count[state.tiles[q]]}, "
                                f"{t.tile_eye[state.tiles[q]]} with the eye)")
    if -1 in state.tiles and any(k >= 0 for k in state.tiles[state.tiles.index(-1):]):
        raise NotationError("position: tiles are laid in track order; a later quarry has a "
                            "tile while an earlier one has none")


def _read_offer(state: GameState, cols: list[Node]) -> None:
    t = state.tables
    if len(cols) != t.columns:
        raise NotationError(f"position: the offer has {len(cols)} columns, need {t.columns}")
    for c, node in enumerate(cols):
        col = _run(node)
        if len(col) > t.rows:
            raise NotationError(f"position: offer column {c + 1} holds {len(col)} stones "
                                f"(at most {t.rows})")
        state.offer[c] = col


def _read_player(state: GameState, i: int, row: Node) -> Player:
    t = state.tables
    ed = t.edition
    builder_s, food_s, _boat, pyr, store, flags = (_children(row)[k] for k in range(6))
    name = _text(builder_s)
    who = f"position: seat {i + 1}"
    builder = None
    if state.variant == Variant.STANDARD:
        if name != "-":
            raise NotationError(f"{who}: a builder ({name}) in the standard variant")
    elif name == "-":
        raise NotationError(f"{who}: the builders variant needs a builder or ?")
    elif name != "?":
        builder = ed.builder(name)
    start = (ed.river.builders_start_space if state.variant == Variant.BUILDERS
             else ed.river.start_space)
    p = Player(t.geometry, int(_text(food_s)), start, builder)
    p.pyramid = _read_pyramid(t, _children(pyr), who)
    p.store = _run(store)
    fl = _text(flags)
    if fl != "-" and fl != "".join(c for c in "fher" if c in fl):
        raise NotationError(f"{who}: flags {fl!r} must be written once each, in the order f h e r")
    p.feasted, p.sailed, p.ended, p.retired = ("f" in fl, "h" in fl, "e" in fl, "r" in fl)
    if p.feasted and p.power is not Power.FEAST:
        raise NotationError(f"{who}: flag f (feast used) but the builder is not Lateef")
    if p.sailed and p.power is not Power.SAIL_BACK:
        raise NotationError(f"{who}: flag h (sail-back used) but the builder is not Heba")
    if p.pyramid.count + len(p.store) > t.slots:
        raise NotationError(f"{who}: {plural(p.pyramid.count, 'stone')} placed and {len(p.store)} "
                            f"stored is more than the pyramid's {t.slots} slots")
    return p


def _read_pyramid(t: Tables, levels: list[Node], who: str) -> Pyramid:
    g = t.geometry
    if len(levels) != g.levels:
        raise NotationError(f"{who}: the pyramid has {len(levels)} levels, need {g.levels}")
    stones: list[tuple[int, int] | None] = []
    for n, node in enumerate(levels, start=1):
        s = _text(node)
        slots: list[tuple[int, int] | None] = []
        i = 0
        while i < len(s):
            if s[i] == "-":
                slots.append(None)
                i += 1
            else:
                a, b = Material[s[i]], Material[s[i + 1]]
                if a == b:
                    raise NotationError(f"{who}: level {n} slot {len(slots) + 1} holds "
                                        f"{s[i:i + 2]}, but a stone's halves differ")
                slots.append((a, b))
                i += 2
        if len(slots) != g.levels + 1 - n:
            raise NotationError(f"{who}: level {n} has {len(slots)} slots, need "
                                f"{g.levels + 1 - n}")
        stones.extend(slots)
    try:
        return Pyramid.from_stones(g, stones)
    except NotationError as e:
        raise NotationError(f"{who}: {e}") from None


def _read_boats(state: GameState, rows: list[Node]) -> None:
    t = state.tables
    boats: list[tuple[int, int]] = []
    unplaced = 0
    for i, row in enumerate(rows):
        boat = _children(row)[2]
        space_s, order_s = (_text(c) for c in _children(boat))
        space = int(space_s)
        if space > t.last:
            raise NotationError(f"position: seat {i + 1}'s boat is on space {space}, past the "
                                f"last space {t.last}")
        state.players[i].space = space
        if order_s == "?":
            unplaced += 1
            boats.append((space, 0))
        else:
            boats.append((space, int(order_s)))
    by_space: dict[int, list[int]] = {}
    for space, order in boats:
        if order:
            by_space.setdefault(space, []).append(order)
    for space, orders in by_space.items():
        if sorted(orders) != list(range(1, len(orders) + 1)):
            raise NotationError(f"position: the arrival orders on space {space} are "
                                f"{sorted(orders)}; they must be 1 to {len(orders)}, each once")
    ranked = sorted((space, order, i) for i, (space, order) in enumerate(boats) if order)
    for n, (_space, _order, i) in enumerate(ranked):
        state.players[i].arrival = n
    state.next_arrival = len(ranked)
    if unplaced:
        ed = t.edition
        start = (ed.river.builders_start_space if state.variant == Variant.BUILDERS
                 else ed.river.start_space)
        for i, (space, _order) in enumerate(boats):
            if space != start:
                raise NotationError(f"position: during set-up every boat is on the start "
                                    f"space {start} (seat {i + 1} is on {space})")


def _read_turn(state: GameState, node: Node) -> None:
    from lark import Token

    n = len(state.players)
    if isinstance(node, Token):  # "setup"
        state.phase = Phase.SETUP
        return
    kind = node.data
    args = [str(c) for c in node.children]

    def seat_of(s: str) -> int:
        if not 1 <= int(s) <= n:
            raise NotationError(f"position: turn names seat {s}, but there are {n} seats")
        return int(s) - 1

    if kind == "start":
        state.phase = Phase.START
        state.seat = seat_of(args[0])
        state.start_space = int(args[1])
        if state.start_space > state.tables.last:
            raise NotationError("position: the turn's start space is past the last space")
    elif kind == "place":
        state.phase = Phase.PLACE
        state.seat = seat_of(args[0])
        state.hand = Stone.from_str(args[1])
        state.can_store = len(args) > 2
        state.start_space = -1
    elif kind == "post":
        state.phase = Phase.POST
        state.seat = seat_of(args[0])
    elif kind == "draw":
        state.phase = Phase.DRAW
        state.pending = [int(a) - 1 for a in args]
        for c in state.pending:
            if not 0 <= c < state.tables.columns:
                raise NotationError(f"position: draw into column {c + 1}, which does not exist")
    else:
        state.phase = Phase.OVER
        if args:
            state.hand = Stone.from_str(args[0])
    if Phase.START <= state.phase <= Phase.POST:
        state.turn = 1


def _check(state: GameState) -> None:
    """Reject positions that no game can reach."""
    t = state.tables
    counts = state.bag[:]
    for col in state.offer:
        for s in col:
            counts[s] += 1
    for p in state.players:
        for v in p.pyramid.stones:
            if v >= 0:
                counts[Stone.of(v // 5, v % 5)] += 1
        for s in p.store:
            counts[s] += 1
    if state.ptah is not None:
        for s, k in enumerate(state.ptah):
            counts[s] += k
    if state.hand >= 0:
        counts[state.hand] += 1
    for s, k in enumerate(counts):
        if k > t.per_type:
            raise NotationError(f"position: {plural(k, 'stone')} of type {Stone(s).name}; "
                                f"there are only {t.per_type}")
        if k < t.per_type:
            raise NotationError(f"position: {plural(k, 'stone')} of type {Stone(s).name} "
                                f"accounted for (bag, offer, pyramids, storehouses, Ptah); need "
                                f"{t.per_type}")
    for i, p in enumerate(state.players):
        if p.food < 0:
            raise NotationError("position: negative food")
        if p.ended and p.space != t.last:
            raise NotationError(f"position: seat {i + 1}: flag e (forced end taken) but the "
                                "boat is not on the last space")
    ph = state.phase
    if ph == Phase.SETUP:
        for i, p in enumerate(state.players):
            if p.pyramid.count or p.store or p.food != (p.builder.food if p.builder else
                                                        t.edition.player.starting_food):
                raise NotationError(f"position: during set-up seat {i + 1} must have an empty "
                                    "pyramid and storehouse and the starting food")
        return
    if state.variant == Variant.BUILDERS and any(p.builder is None for p in state.players):
        raise NotationError("position: a builder is still unknown (?) after set-up")
    if any(p.arrival < 0 for p in state.players):
        raise NotationError("position: a boat's arrival order is unknown (?) after set-up")
    if ph in (Phase.START, Phase.PLACE, Phase.POST):
        p = state.players[state.seat]
        if p.retired:
            raise NotationError(f"position: seat {state.seat + 1} is retired but has the turn")
    if ph == Phase.START:
        p = state.players[state.seat]
        if p.space >= t.last:
            raise NotationError(f"position: seat {state.seat + 1} has the turn, but its boat is "
                                f"on the last space")
        if p.space == state.start_space:
            active = min((q.space, q.arrival, i) for i, q in enumerate(state.players)
                         if not q.retired and q.space < t.last)[2]
            if active != state.seat:
                raise NotationError(f"position: seat {state.seat + 1} has the turn, but seat "
                                    f"{active + 1}'s boat is further back (or arrived first)")
    if ph == Phase.PLACE:
        p = state.players[state.seat]
        if p.pyramid.count + len(p.store) >= t.slots:
            raise NotationError("position: a stone in hand but no room in the pyramid")
    if ph == Phase.DRAW and not state.bag_total:
        raise NotationError("position: refills pending but the bag is empty")
    if ph == Phase.OVER and state.ptah is None and any(
            not p.retired and p.space < t.last for p in state.players):
        raise NotationError("position: 'over' but a boat is not on the last space")
    if state.ptah is not None and state.ptah_total >= t.ptah_target and ph != Phase.OVER:
        raise NotationError(f"position: Ptah has {state.ptah_total} stones, so the game is over")
    if state.hand >= 0 and ph == Phase.OVER and (state.ptah is None
                                                  or state.ptah_total < t.ptah_target):
        raise NotationError("position: a stone in hand at the end only when Ptah has won")
