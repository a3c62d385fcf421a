"""What a player sees of an Akropolis position: data for the web page and a terminal picture.

:func:`page_data` describes the state as JSON-ready data (SPEC.md, "Akropolis", the picture
and page data): the construction site with its costs, every city's top hexes with their
levels, its lakes and newest tile, each seat's stones and scores by district type, and
whose turn it is. :func:`picture` draws that same data as text for people; machines read
the position notation.

>>> from sneferu_cli.games.akropolis.state import new_game
>>> print(city_map(page_data(new_game(2))["seats"][0]))
    q=-1    q=0     q=1
             q1
           (0,-1)
             H1
     q1    (0,0)     q1
   (-1,1)          (1,0)
"""

from __future__ import annotations

from typing import Any

from sneferu_cli.words import plural

from .edition import HEXES
from .geometry import q_of, r_of
from .position import to_position
from .scoring import TYPES, breakdown, lakes, ranking
from .state import AkropolisState, spot_cells

__all__ = ["HEX_NAMES", "LEGEND", "city_map", "decision_hint", "describe_turn", "focus",
           "page_data", "picture", "sections"]

HEX_NAMES = {"h": "house", "m": "market", "b": "barracks", "t": "temple", "g": "garden",
             "H": "house plaza", "M": "market plaza", "B": "barracks plaza",
             "T": "temple plaza", "G": "garden plaza", "q": "quarry"}
"""The hex codes of section 2."""
COLOURS = {"h": "blue", "m": "yellow", "b": "red", "t": "purple", "g": "green", "q": "grey"}
"""The colour of each district type and its plazas, and of quarries (display only)."""
OPTION_NAMES = ("houses bonus", "markets bonus", "barracks bonus", "temples bonus",
                "gardens bonus")


def last_seat(state: AkropolisState) -> int | None:
    """The seat (0-based) that played the last turn, or None before the first: the seat to
    move's predecessor clockwise, retired seats skipped (turns are plainly clockwise, A12);
    the seat to move itself once the game is over (the last turn does not pass it on)."""
    n = state.players
    if state.over and not state.all_retired():
        seat: int | None = state.seat
    else:
        seat = None
        for k in range(1, n + 1):
            s = (state.seat - k) % n
            if not state.retired[s]:
                seat = s
                break
    if seat is None or not state.cities[seat].tiles:
        return None
    return seat


def page_data(state: AkropolisState) -> dict[str, Any]:
    """The web viewer's data for ``state`` (JSON-ready; seats 1-based)."""

    t = state.tables
    codes = t.codes
    site: list[dict[str, Any]] = [
        {"place": i + 1, "tile": codes[tile], "hexes": [HEXES[h] for h in t.hexes[tile]],
         "cost": i} for i, tile in enumerate(state.site)]
    site += [{"place": len(site) + k + 1, "tile": None, "hexes": None, "cost": len(site) + k}
             for k in range(state.to_draw)]
    ranks = ranking(state)
    seats = []
    for i, city in enumerate(state.cities):
        b = breakdown(city, t.stars, state.bonus)
        newest = None
        if city.tiles:
            spot = city.spots[-1]
            newest = [[q_of(c), r_of(c)] for c in spot_cells(spot // 6, spot % 6)]
        seats.append({
            "seat": i + 1, "stones": state.stones[i], "retired": state.retired[i],
            "points": ranks[i][2], "rank": ranks[i][1],
            "scores": {name: b[k] * b[k + 5] for k, name in enumerate(TYPES)},
            "values": {name: b[k] for k, name in enumerate(TYPES)},
            "stars": {name: b[k + 5] for k, name in enumerate(TYPES)},
            "hexes": [{"q": q_of(c), "r": r_of(c), "hex": HEXES[city.top[c]],
                       "level": city.height[c], "tile": _tile_name(state, city.tile[c])}
                      for c in sorted(city.cells)],
            "lakes": [[q_of(c), r_of(c)] for c in lakes(city)],
            "newest": newest, "tiles": len(city.tiles)})
    last = last_seat(state)
    return {
        "game": "akropolis", "edition": state.edition.name, "variant": state.variant,
        "players": state.players, "position": to_position(state),
        "options": {name: on for name, on in zip(OPTION_NAMES, state.bonus, strict=True)}
        | {"all tiles": state.all_tiles},
        "site": site, "stacks_left": state.stacks_left(), "undrawn": len(state.undrawn),
        "chief": state.chief + 1, "seats": seats,
        "turn": {"over": state.is_over(), "chance": state.is_chance_node(),
                 "seat": None if state.is_over() else state.seat + 1,
                 "last": None if last is None else last + 1, "text": describe_turn(state)},
        "board": {"name": state.edition.name, "hex_names": HEX_NAMES, "colours": COLOURS,
                  "stars": {p: state.edition.stars.of(p) for p in "HMBTG"}},
    }


def _tile_name(state: AkropolisState, tile: int) -> str:
    return "S" if tile == 1 else state.tables.codes[tile - 2]


def picture(state: AkropolisState) -> str:
    """The terminal picture: every part of :func:`sections`, a blank line between."""
    return "\n\n".join(text for _, text in sections(state))


def sections(state: AkropolisState) -> list[tuple[str, str]]:
    """The picture in parts: ``title``, ``site``, ``city 1`` …, ``legend`` and ``turn``."""
    d = page_data(state)
    parts = [("title", _title(d)), ("site", _site(d))]
    parts += [(f"city {s['seat']}", _city(d, s)) for s in d["seats"]]
    parts += [("legend", LEGEND), ("turn", d["turn"]["text"])]
    return parts


def _title(d: dict[str, Any]) -> str:
    options = [name for name, on in d["options"].items() if on]
    return (f"Akropolis, {d['players']} players, edition {d['edition']}; variant "
            f"{d['variant']}" + (f" ({', '.join(options)})" if options else ""))


def _site(d: dict[str, Any]) -> str:
    lines = [f"Construction site (chief architect: seat {d['chief']}; "
             f"{plural(d['stacks_left'], 'stack')} left):"]
    for p in d["site"]:
        cost = "free" if p["cost"] == 0 else plural(p["cost"], "stone")
        if p["tile"] is None:
            lines.append(f"  {p['place']}  ?    to be drawn")
        else:
            lines.append(f"  {p['place']}  {p['tile']:<4} {' '.join(p['hexes'])}   {cost}")
    return "\n".join(lines)


def _city(d: dict[str, Any], s: dict[str, Any]) -> str:
    flags = (", retired" if s["retired"] else "") + (
        ", played last" if d["turn"]["last"] == s["seat"] else "")
    scores = ", ".join(f"{name} {s['values'][name]}x{s['stars'][name]}={s['scores'][name]}"
                       for name in TYPES)
    head = (f"Seat {s['seat']}: {plural(s['points'], 'point')} ({scores}; "
            f"{plural(s['stones'], 'stone')}){flags}")
    return head + "\n" + city_map(s)


CELL = 8
"""The width of a column of hexes in :func:`city_map`."""


def city_map(seat: dict[str, Any]) -> str:
    """A city as text, hexes in columns of equal q (labelled at the top), flat-topped as in
    the rules (north up): each top hex two lines, its code and level (``h2``, ``~~`` a lake)
    over its coordinates ``(q,r)``; a step down a column is r + 1, the next column to the
    right is half a hex lower (north-east of a hex is q + 1, r - 1; south-east q + 1, r)."""
    cells = {(h["q"], h["r"]): f"{h['hex']}{h['level']}" for h in seat["hexes"]}
    cells |= {(q, r): "~~" for q, r in seat["lakes"]}
    qs = [q for q, _ in cells]
    qlo, qhi = min(qs), max(qs)
    ys = [2 * r + q for q, r in cells]
    ylo, yhi = min(ys), max(ys) + 1
    lines = [[" "] * (CELL * (qhi - qlo + 1)) for _ in range(ylo, yhi + 1)]
    for (q, r), text in cells.items():
        x, y = CELL * (q - qlo), 2 * r + q - ylo
        lines[y][x:x + CELL] = text.center(CELL)
        lines[y + 1][x:x + CELL] = f"({q},{r})".center(CELL)
    header = "".join(f"q={q}".center(CELL) for q in range(qlo, qhi + 1))
    return "\n".join(("  " + "".join(line)).rstrip() for line in [list(header), *lines])


LEGEND = """\
Cities: h house, m market, b barracks, t temple, g garden (upper case: its plaza), q quarry,
  ~~ a lake; the digit is the level, (q,r) the hex's coordinates. Directions: north (0,-1),
  north-east (1,-1), south-east (1,0), south (0,1), south-west (-1,1), north-west (-1,0)."""
"""The key to the cities' hex codes and coordinates (section 3 of the rules)."""


def focus(state: AkropolisState) -> tuple[str, ...]:
    """The parts a seat sees at each of its decisions even when unchanged: the site it takes
    a tile from, its city and the legend."""
    return ("site", f"city {state.seat + 1}", "legend")


def decision_hint(state: AkropolisState) -> str:
    """What the decision at ``state`` is, in one line for a person."""
    stones = state.stones[state.seat]
    return (f"Take a site tile and lay it in your city: PLACE @Q,R rK (place p costs p - 1 "
            f"stones; you have {stones}).")


def describe_turn(state: AkropolisState) -> str:
    """One line: whose turn it is, the chance event that comes next, or the final ranking."""

    if state.is_over():
        order = sorted(ranking(state), key=lambda x: (x[1], x[0]))
        return "Game over: " + ", ".join(
            f"{rank}. seat {seat + 1} ({points} points, {plural(stones, 'stone')})"
            + (" retired" if retired else "")
            for seat, rank, points, stones, retired in order)
    if state.is_chance_node():
        return f"Chance: a tile is drawn for site place {len(state.site) + 1}."
    return (f"Seat {state.seat + 1} to move: take a site tile (place p costs p - 1 stones) "
            "and lay it in the city.")
