"""Akropolis position notation: the complete state on one line, enough to continue the game.

Fields separated by single spaces (grammar ``protocol/akropolis-position.lark``; SPEC.md,
"Akropolis", position notation)::

    edition variant seat chief site city...

``seat`` is the seat to move and ``chief`` the chief architect (1-based); ``site`` the site's
places from place 1, a tile code each, or ``?`` for a place still to be drawn (a chance
node); then one field per seat: its stones, ``:`` and its placements in the order made
(``T18@2,-1r0``, ``/``-separated, ``-`` for none), and ``:retired`` for a retired seat.
Stacks and levels follow from the placements, the undrawn tiles from the tile set.
:func:`from_position` replays every placement with the rules of 5.2 and rejects a position
no game can reach, with the reason.

>>> from sneferu_cli.games.akropolis.state import new_game
>>> text = to_position(new_game(3, "hMbtgA"))
>>> text
'standard hMbtgA 1 1 ?,?,?,?,? 1:- 2:- 3:-'
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

from lark import Token, Tree

from sneferu_cli.game import NotationError
from sneferu_cli.grammar import parse

from .edition import Edition, standard_edition
from .geometry import REACH, cell, distance, q_of, r_of
from .state import AkropolisState, City, options_of

__all__ = ["from_position", "to_position"]


def to_position(state: AkropolisState) -> str:
    """The position notation of ``state``."""
    codes = state.tables.codes
    site = [codes[t] for t in state.site] + ["?"] * state.to_draw
    fields = [state.edition.name, state.variant, str(state.seat + 1), str(state.chief + 1),
              ",".join(site)]
    for i, city in enumerate(state.cities):
        fields.append(f"{state.stones[i]}:{_city(city, codes)}"
                      + (":retired" if state.retired[i] else ""))
    return " ".join(fields)


def _city(city: City, codes: list[str]) -> str:
    placed = []
    for tile, spot in zip(city.tiles, city.spots, strict=True):
        at = spot // 6
        placed.append(f"{codes[tile]}@{q_of(at)},{r_of(at)}r{spot % 6}")
    return "/".join(placed) or "-"


def from_position(text: str, edition: Edition | None = None) -> AkropolisState:
    """Read a position. ``edition`` must be given unless the position names "standard"."""
    text = text.strip()
    tree = parse("akropolis-position", "position", text, "position")
    name, variant, seat, chief, site, *seats = tree.children
    assert isinstance(site, Tree)
    ed = edition or standard_edition()
    if ed.name != str(name):
        raise NotationError(f"position: written for edition {str(name)!r}, but edition "
                            f"{ed.name!r} is loaded (give the edition file with --edition)")
    n = len(seats)
    if not 2 <= n <= 4:
        raise NotationError(f"position: {n} seats (Akropolis is for 2 to 4 players)")
    options_of(str(variant))  # the grammar admits only option words
    state = AkropolisState(n, str(variant), ed)
    state.seat, state.chief = int(str(seat)) - 1, int(str(chief)) - 1
    if state.seat >= n or state.chief >= n:
        raise NotationError(f"position: seat {max(state.seat, state.chief) + 1} named, but "
                            f"there are {n} seats")
    tables = state.tables
    allowed = set(tables.tile_set(n, state.all_tiles))
    used: set[int] = set()

    def tile_of(token: Token | Tree[Token], where: str) -> int:
        code = str(token)
        t = tables.index.get(code)
        if t is None:
            raise NotationError(f"position: {where}: unknown tile {code} (not in edition "
                                f"{ed.name!r})")
        if t not in allowed:
            raise NotationError(f"position: {where}: tile {code} (marked "
                                f"{tables.markings[t]}) is not in play with {n} players")
        if t in used:
            raise NotationError(f"position: {where}: tile {code} appears twice")
        used.add(t)
        return t

    places = [p.children[0] for p in _trees(site.children)]
    for i, p in enumerate(places):
        if str(p) == "?":
            state.to_draw += 1
        elif state.to_draw:
            raise NotationError("position: site: places still to be drawn (?) come last")
        else:
            state.site.append(tile_of(p, f"site place {i + 1}"))
    for i, row in enumerate(_trees(seats)):
        assert isinstance(row, Tree)
        stones, city_node, *flag = row.children
        state.stones.append(int(str(stones)))
        state.retired[i] = bool(flag)
        city = City()
        city.lay_start(tables)
        state.cities.append(city)
        assert isinstance(city_node, Tree)
        for k, p in enumerate(_trees(city_node.children)):
            where = f"seat {i + 1}, placement {k + 1}"
            t = tile_of(p.children[0], where)
            q, r, rot = (int(str(x)) for x in p.children[1:])
            problem = ("too far from the city" if distance(q, r) > REACH
                       else city.spot_problem(cell(q, r), rot))
            if problem:
                raise NotationError(f"position: {where}: {p.children[0]} cannot lie at "
                                    f"{q},{r} r{rot}: {problem}")
            city.place(t, tables.hexes[t], cell(q, r), rot)
    state.undrawn = [t for t in tables.tile_set(n, state.all_tiles) if t not in used]
    _check_flow(state)
    return state


def _trees(nodes: list[Tree[Token] | Token]) -> list[Tree[Token]]:
    """The subtrees among ``nodes``."""
    return [c for c in nodes if isinstance(c, Tree)]


def _check_flow(state: AkropolisState) -> None:
    """The site, the undrawn tiles and the turn fit together (sections 4, 6, 7)."""
    n = state.players
    undrawn = len(state.undrawn)
    size = len(state.site)
    q = state.to_draw
    if size + q > n + 2:
        raise NotationError(f"position: site: {size + q} places, the site holds {n + 2}")
    if q:
        if size + q != n + 2 or q > undrawn or (undrawn - q) % (n + 1):
            raise NotationError(f"position: site: {q} places to draw with {size} tiles laid "
                                f"and {undrawn} undrawn: no set-up or refill leaves this")
        if size == 0 and any(c.tiles for c in state.cities):
            raise NotationError("position: the site is drawn at set-up, before any turn")
    elif size == 1 and undrawn == 0:
        state.over = True  # 7
    elif size < 2 or undrawn % (n + 1):
        raise NotationError(f"position: site: {size} tiles with {undrawn} undrawn: the site "
                            "is refilled when a turn leaves one tile (6)")
    if all(state.retired):
        state.over = True
    elif state.retired[state.seat]:
        raise NotationError(f"position: seat {state.seat + 1} is to move but retired")
