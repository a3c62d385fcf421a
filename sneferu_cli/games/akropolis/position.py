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
no game can reach, with the reason. The fields are cut with regular expressions
(:func:`fields`, six times faster than the Lark parser); the tests hold them to the
grammar, which gives the message (with its column) for a line they reject.

>>> from sneferu_cli.games.akropolis.state import new_game
>>> text = to_position(new_game(3, "hMbtgA"))
>>> text
'standard hMbtgA 1 1 ?,?,?,?,? 1:- 2:- 3:-'
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lark import Token, Tree

from sneferu_cli.game import NotationError
from sneferu_cli.grammar import parse

from .edition import Edition, standard_edition
from .geometry import REACH, cell, distance, q_of, r_of
from .state import AkropolisState, City, options_of

__all__ = ["Fields", "fields", "from_position", "grammar_fields", "to_position"]


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


Placement = tuple[str, int, int, int]
"""A placement as written: tile code, q, r, rotation."""


class Fields(NamedTuple):
    """A position line cut into its fields (nothing checked but the grammar)."""

    name: str
    variant: str
    seat: int
    chief: int
    site: list[str]
    seats: list[tuple[int, list[Placement], bool]]


_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_VARIANT = re.compile(r"[hH][mM][bB][tT][gG][aA]")
_PLACE = re.compile(r"T[A-Za-z0-9]{1,8}|\?")
_COORD = r"(0|-?[1-9][0-9]?)"
_PLACEMENT = re.compile(rf"(T[A-Za-z0-9]{{1,8}})@{_COORD},{_COORD}r([0-5])")
_ONE = r"T[A-Za-z0-9]{1,8}@(?:0|-?[1-9][0-9]?),(?:0|-?[1-9][0-9]?)r[0-5]"
_CITY = re.compile(rf"{_ONE}(?:/{_ONE})*")
"""A city's placements, ``/``-separated: each is a :data:`_PLACEMENT`."""
_SEAT = re.compile(r"(0|[1-9][0-9]{0,2}):([^:]+)(:retired)?")


def fields(text: str) -> Fields:
    """The fields of a position line (stripped), as the grammar
    ``protocol/akropolis-position.lark`` reads them; a line the grammar rejects raises its
    NotationError (naming the column). Read with regular expressions: the grammar is
    asked only for the message."""
    got = _fields(text)
    if got is None:
        grammar_fields(text)  # raises the grammar's error
        raise NotationError(f"position: not read: {text[:40]!r}")  # the grammar accepted it
    return got


def _fields(text: str) -> Fields | None:
    words = text.split(" ")
    if len(words) < 6 or _NAME.fullmatch(words[0]) is None \
            or _VARIANT.fullmatch(words[1]) is None or words[2] not in _SEATS \
            or words[3] not in _SEATS:
        return None
    site = words[4].split(",")
    if any(_PLACE.fullmatch(p) is None for p in site):
        return None
    seats = []
    for word in words[5:]:
        m = _SEAT.fullmatch(word)
        if m is None:
            return None
        placements: list[Placement] = []
        if m[2] != "-":
            if _CITY.fullmatch(m[2]) is None:
                return None
            placements = [(code, int(q), int(r), int(rot))
                          for code, q, r, rot in _PLACEMENT.findall(m[2])]
        seats.append((int(m[1]), placements, m[3] is not None))
    return Fields(words[0], words[1], int(words[2]), int(words[3]), site, seats)


_SEATS = ("1", "2", "3", "4")


def grammar_fields(text: str) -> Fields:
    """:func:`fields` by the Lark grammar (slow; for the error messages and the tests)."""
    tree = parse("akropolis-position", "position", text, "position")
    name, variant, seat, chief, site, *rows = tree.children
    assert isinstance(site, Tree)
    seats = []
    for row in _trees(rows):
        stones, city, *flag = row.children
        assert isinstance(city, Tree)
        placements: list[Placement] = []
        for p in _trees(city.children):
            code, q, r, rot = (str(x) for x in p.children)
            placements.append((code, int(q), int(r), int(rot)))
        seats.append((int(str(stones)), placements, bool(flag)))
    return Fields(str(name), str(variant), int(str(seat)), int(str(chief)),
                  [str(p.children[0]) for p in _trees(site.children)], seats)


def from_position(text: str, edition: Edition | None = None) -> AkropolisState:
    """Read a position. ``edition`` must be given unless the position names "standard"."""
    f = fields(text.strip())
    ed = edition or standard_edition()
    if ed.name != f.name:
        raise NotationError(f"position: written for edition {f.name!r}, but edition "
                            f"{ed.name!r} is loaded (give the edition file with --edition)")
    n = len(f.seats)
    if not 2 <= n <= 4:
        raise NotationError(f"position: {n} seats (Akropolis is for 2 to 4 players)")
    options_of(f.variant)  # the grammar admits only option words
    state = AkropolisState(n, f.variant, ed)
    state.seat, state.chief = f.seat - 1, f.chief - 1
    if state.seat >= n or state.chief >= n:
        raise NotationError(f"position: seat {max(state.seat, state.chief) + 1} named, but "
                            f"there are {n} seats")
    tables = state.tables
    allowed = set(tables.tile_set(n, state.all_tiles))
    used: set[int] = set()

    def tile_of(code: str, seat: int, k: int) -> int:
        """The tile of ``code``, placement ``k`` (0-based) of ``seat``'s city or (``seat``
        -1) site place ``k + 1``."""
        t = tables.index.get(code)
        if t is not None and t in allowed and t not in used:
            used.add(t)
            return t
        where = (f"site place {k + 1}" if seat < 0
                 else f"seat {seat + 1}, placement {k + 1}")
        if t is None:
            raise NotationError(f"position: {where}: unknown tile {code} (not in edition "
                                f"{ed.name!r})")
        if t not in allowed:
            raise NotationError(f"position: {where}: tile {code} (marked "
                                f"{tables.markings[t]}) is not in play with {n} players")
        raise NotationError(f"position: {where}: tile {code} appears twice")

    for i, p in enumerate(f.site):
        if p == "?":
            state.to_draw += 1
        elif state.to_draw:
            raise NotationError("position: site: places still to be drawn (?) come last")
        else:
            state.site.append(tile_of(p, -1, i))
    for i, (stones, placements, retired) in enumerate(f.seats):
        state.stones.append(stones)
        state.retired[i] = retired
        tiles: list[int] = []
        spots: list[int] = []
        error: NotationError | None = None  # the first placement wrong in itself
        for k, (code, q, r, rot) in enumerate(placements):
            try:
                tiles.append(tile_of(code, i, k))
            except NotationError as e:
                error = e
                break
            if distance(q, r) > REACH:
                error = _cannot_lie(i, k, placements, "too far from the city")
                break
            spots.append(cell(q, r) * 6 + rot)
        city = City()  # its legal spots are found when first listed
        laid = city.replay(tables, tiles[:len(spots)], spots)
        if laid < len(spots):
            at = spots[laid] // 6
            raise _cannot_lie(i, laid, placements, city.spot_problem(at, spots[laid] - 6 * at))
        if error is not None:
            raise error
        state.cities.append(city)
    state.undrawn = [t for t in tables.tile_set(n, state.all_tiles) if t not in used]
    _check_flow(state)
    return state


def _cannot_lie(seat: int, k: int, placements: list[Placement], problem: str
               ) -> NotationError:
    """The error of placement ``k`` (0-based) of ``seat``'s city: ``problem``."""
    code, q, r, rot = placements[k]
    return NotationError(f"position: seat {seat + 1}, placement {k + 1}: {code} cannot lie at "
                         f"{q},{r} r{rot}: {problem}")


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
    _check_turns(state, [len(c.tiles) for c in state.cities])


def _check_turns(state: AkropolisState, counts: list[int]) -> None:
    """The chief architect, the seat to move and each city's placements fit the turns taken
    (4.5, 6; A1, A12): seat 1 is the first chief architect and the token passes at each
    refill; turns go clockwise from seat 1, a retired seat's skipped. ``counts``: the
    placements of each seat."""
    n = state.players
    turns = sum(counts)
    # Every set-up or refill draw made or to come: n + 2, then n + 1 per refill.
    refills = (len(state.tables.tile_set(n, state.all_tiles)) - len(state.undrawn)
               + state.to_draw - n - 2) // (n + 1)
    if state.chief != refills % n:
        raise NotationError(f"position: chief architect {state.chief + 1}, but after "
                            f"{refills} refill(s) it is seat {refills % n + 1} (A1, A12)")
    if all(state.retired):
        return
    seat = state.seat
    if state.over:  # the seat named is the one that played the last turn
        if any(state.retired):
            return  # a seat retired once the game was over may have moved it on
        if turns and seat != (turns - 1) % n:
            raise NotationError(f"position: seat {seat + 1} named as the last to move, but "
                                f"the last of {turns} turns was seat {(turns - 1) % n + 1}'s "
                                "(turns go clockwise from seat 1, A12)")
        return
    if not any(state.retired):
        if seat != turns % n:
            raise NotationError(f"position: seat {seat + 1} is to move, but after {turns} "
                                f"turn(s) it is seat {turns % n + 1}'s turn (turns go "
                                "clockwise from seat 1, A1, A12)")
        for s in range(n):
            if counts[s] != (turns - s + n - 1) // n:
                raise NotationError(f"position: seat {s + 1} has {counts[s]} placements, but "
                                    f"after {turns} turn(s) it has had "
                                    f"{(turns - s + n - 1) // n} (turns go clockwise from "
                                    "seat 1, A12)")
        return
    # Turns go round the seats still playing in seat order: those before the seat to move
    # have had one more turn than it, those after it as many (A12).
    low = counts[seat]
    for s in range(n):
        want = low + 1 if s < seat else low
        if not state.retired[s] and counts[s] != want:
            raise NotationError(f"position: seat {s + 1} has {counts[s]} placements, but seat "
                                f"{seat + 1}, to move, has had {low} turn(s), so seat {s + 1} "
                                f"has had {want} (turns go clockwise among the seats still "
                                "playing, A12)")
    for s in range(n):
        if state.retired[s] and counts[s] > low + 1:
            raise NotationError(f"position: retired seat {s + 1} has {counts[s]} placements, "
                                f"more than the {low + 1} turns any seat has had (A12)")
