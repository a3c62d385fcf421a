"""Hand-built positions for the rule tests: say what matters, the bookkeeping is filled in.

A position (SPEC.md section 4) must account for every one of the 100 stones, which is error
prone to write by hand. :func:`position` takes the interesting parts (seats, offer, tiles,
turn) and writes the whole line, putting every stone not named elsewhere into the bag;
:func:`build` reads that line back with ``from_position``, so every hand-built test also
exercises the position notation.

>>> state = build([Seat(food=3, pyramid="BT@1.1"), Seat(space=4)], offer=["BM", "", "", ""])
>>> state.players[0].food, [str(s) for s in state.offer[0]], state.seat
(3, ['BM'], 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from sneferu_cli.games.sneferu.components import Stone, Tile
from sneferu_cli.games.sneferu.edition import Edition, parse_edition, standard_edition
from sneferu_cli.games.sneferu.move import Move, parse_action
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import GameState, IllegalAction, Tables

# A fixed, varied offer used when a test does not care which stones are offered.
DEFAULT_OFFER = ("BTBMBGBATMTGTA", "MGMAGABTBMBGBA", "TMTGTAMGMAGABT", "BMBGBATMTGTAMG")


@dataclass
class Seat:
    """One seat of a hand-built position (fields as in the position notation).

    ``pyramid`` is either placements in move notation (``"BT@1.1 MG@1.2"``) or the
    notation's own ``/``-separated levels. ``order`` is the arrival order on the boat's
    space (default: seat order among the seats on the same space). ``food`` defaults to
    the builder's starting food, or the edition's.
    """

    food: int | None = None
    space: int | None = None
    order: int | None = None
    pyramid: str = ""
    store: str = ""
    builder: str | None = None
    flags: str = ""


def position(seats: Sequence[Seat] | int = 2, *, offer: Sequence[str] | str | None = None,
             tiles: Mapping[int, str] | Sequence[str] | None = None, ptah: str = "",
             turn: str | None = None, bag: Mapping[str, int] | None = None,
             rest: Sequence[int] = (), edition: Edition | None = None) -> str:
    """The position line for these parts.

    Stones may be written either way round (``GT``), and Ptah's stones and storehouses in
    any order: the position is written in the notation's canonical spelling.
    ``offer``: four columns bottom row first (``"BTMG"``, ``""`` or ``"-"`` for empty), or
    the notation's ``/``-separated field. ``tiles``: a full layout in track order, or
    ``{space: kind}`` for the quarries that matter, the others laid from what is left of
    their pool. ``turn``: the turn field; by default the start of the turn of the rearmost seat
    not retired.
    The bag holds every stone not placed elsewhere; ``bag`` states the counts a test
    expects for some types (``{"BT": 0}``) and is checked against that. ``rest``: seats
    (0-based, with no pyramid given) whose pyramids take every stone not placed elsewhere,
    21 at most each, filled bottom-up in stone order: the way to empty the bag (when
    they can hold every stone left).
    """
    ed = edition or standard_edition()
    t = Tables.of(ed)
    seat_list = [Seat() for _ in range(seats)] if isinstance(seats, int) else list(seats)
    variant = "builders" if any(s.builder for s in seat_list) else "standard"
    start = ed.river.builders_start_space if variant == "builders" else ed.river.start_space
    spaces = [start if s.space is None else s.space for s in seat_list]
    orders = []
    for i, s in enumerate(seat_list):
        orders.append(s.order if s.order is not None
                      else 1 + sum(1 for j in range(i) if spaces[j] == spaces[i]))
    columns = _columns(offer, t.columns)
    ptah = _names(ptah, sort=True)
    seat_list = [replace(s, store=_names(s.store, sort=True)) for s in seat_list]
    used = [0] * len(Stone)
    for run in [*columns, ptah, *(s.store for s in seat_list),
                *(_levels(s.pyramid, t.geometry.levels) for s in seat_list)]:
        for stone in _pairs(run.replace("-", "").replace("/", "")):
            used[stone] += 1
    if turn is None:
        active = min(range(len(seat_list)),
                     key=lambda i: ("r" in seat_list[i].flags, spaces[i] >= t.last,
                                    spaces[i], orders[i]))
        turn = f"start:{active + 1}:{spaces[active]}"
    parts = turn.split(":")
    if parts[0] in ("place", "over") and len(parts) > 1 + (parts[0] == "place"):
        used[Stone.from_str(parts[1 + (parts[0] == "place")])] += 1
    spare = [stone.name for stone in Stone for _ in range(t.per_type - used[stone])]
    for i in rest:
        if seat_list[i].pyramid:
            raise ValueError(f"seat {i + 1} takes the rest of the stones: give it no pyramid")
        take, spare = spare[:t.slots], spare[t.slots:]
        seat_list[i] = replace(seat_list[i], pyramid=pyramid_of(take, t.geometry.levels))
        for stone in _pairs("".join(take)):
            used[stone] += 1
    records = []
    for i, s in enumerate(seat_list):
        levels = _levels(s.pyramid, t.geometry.levels)
        food = s.food if s.food is not None else (
            ed.builder(s.builder).food if s.builder else ed.player.starting_food)
        builder = s.builder or "-"
        records.append(f"{builder},{food},{spaces[i]}.{orders[i]},{levels},"
                       f"{s.store or '-'},{s.flags or '-'}")
    counts = []
    for stone in Stone:
        left = t.per_type - used[stone]
        n = left if bag is None or stone.name not in bag else bag[stone.name]
        if n != left:
            raise ValueError(f"{stone.name}: the bag holds {n} but {left} are not placed "
                             "elsewhere")
        if n < 0:
            raise ValueError(f"{stone.name}: {used[stone]} used, only {t.per_type} exist")
        counts.append(n)
    fields = [ed.name, variant, ",".join(_tiles(tiles, t)),
              "/".join(c or "-" for c in columns), ",".join(map(str, counts)),
              ptah or "-", ";".join(records), turn]
    return " ".join(fields)


def build(seats: Sequence[Seat] | int = 2, *, edition: Edition | None = None,
          **parts: Any) -> GameState:
    """The state of :func:`position` (same arguments), read with ``from_position``."""
    text = position(seats, edition=edition, **parts)
    state = from_position(text, edition)
    again = to_position(state)
    assert again == text, f"not canonical notation:\n{text}\nis written\n{again}"
    return state


def edition_text() -> str:
    """The standard edition's TOML text, to write corrected editions from."""
    return (resources.files("sneferu_cli.games.sneferu")
            .joinpath("editions/standard.toml").read_text())


def edition_with(*changes: tuple[str, str]) -> Edition:
    """The standard edition with each ``(old, new)`` text change made (``old`` must occur)."""
    text = edition_text()
    for old, new in changes:
        assert old in text, f"{old!r} is not in the standard edition"
        text = text.replace(old, new, 1)
    return parse_edition(text, "test edition")


def play(state: GameState, *moves: str) -> GameState:
    """Apply whole moves (``"1.1 BT@1.1"``) and chance outcomes (``"~BT"``) in place."""
    for text in moves:
        if text.startswith("~"):
            state.apply(parse_action(text))
        else:
            state.apply_turn(Move.from_str(text).steps)
    return state


def moves(state: GameState) -> set[str]:
    """The legal whole moves of ``state`` as strings, one per distinct outcome (SPEC 2.7)."""
    return {str(Move(turn)) for turn in state.legal_turns()}


def legal(state: GameState, move: str) -> bool:
    """Whether the whole move ``move`` may be played in ``state`` (tried on a copy)."""
    try:
        state.clone().apply_turn(Move.from_str(move).steps)
    except IllegalAction:
        return False
    return True


def pyramid_of(stones: Sequence[str], levels: int = 6) -> str:
    """A pyramid holding ``stones`` (as written, left half first) slot by slot, bottom-up."""
    slots = [(n, k) for n in range(1, levels + 1) for k in range(1, levels + 2 - n)]
    return " ".join(f"{st}@{n}.{k}" for st, (n, k) in zip(stones, slots, strict=False))


FILLER = "TMGA"  # no basalt, so tests can mark an area with basalt (B)


def filler_colour(level: int, x: int) -> str:
    """A material for cell ``x`` of ``level`` such that no two adjacent cells share one.

    A pyramid of filler has only areas of one cell, which enclose for 0 food.
    """
    return FILLER[(x + 2 * level) % 4]


def placements(slots: Sequence[tuple[int, int]],
               material: Callable[[int, int], str] = filler_colour) -> str:
    """Placements (move notation) of ``slots`` (level, slot), each cell's material given.

    Slot k of level n covers the cells x = (n-1) + 2(k-1) and x + 1 (docs/RULES.md 1).
    """
    out = []
    for n, k in slots:
        x = n - 1 + 2 * (k - 1)
        out.append(f"{material(n, x)}{material(n, x + 1)}@{n}.{k}")
    return " ".join(out)


def levels_below(level: int, levels: int = 6) -> list[tuple[int, int]]:
    """Every slot (level, slot) of the levels under ``level``."""
    return [(n, k) for n in range(1, level) for k in range(1, levels + 2 - n)]


def _pairs(run: str) -> list[Stone]:
    run = "" if run == "-" else run
    return [Stone.from_str(run[i:i + 2]) for i in range(0, len(run), 2)]


def _columns(offer: Sequence[str] | str | None, n: int) -> list[str]:
    if offer is None:
        return list(DEFAULT_OFFER)
    cols = offer.split("/") if isinstance(offer, str) else list(offer)
    if len(cols) != n:
        raise ValueError(f"the offer needs {n} columns, got {len(cols)}")
    return [_names(c) for c in cols]


def _names(run: str, *, sort: bool = False) -> str:
    """A run of stones in the notation's spelling (``GT`` is written ``TG``), sorted into
    stone order when ``sort`` (Ptah's stones and storehouses are written that way)."""
    stones = _pairs(run)
    return "".join(s.name for s in (sorted(stones) if sort else stones))


def _levels(pyramid: str, levels: int) -> str:
    """The notation's pyramid field for placements ``BT@1.1 ...`` (or the field itself)."""
    if "/" in pyramid:
        return pyramid
    grid = [["-"] * (levels + 1 - n) for n in range(1, levels + 1)]
    for item in pyramid.split():
        stone, _, slot = item.partition("@")
        level, _, k = slot.partition(".")
        grid[int(level) - 1][int(k) - 1] = stone
    return "/".join("".join(row) for row in grid)


def _tiles(tiles: Mapping[int, str] | Sequence[str] | None, t: Tables) -> list[str]:
    """A tile layout that respects the eye and other pools of the edition."""
    if tiles is not None and not isinstance(tiles, Mapping):
        return list(tiles)
    wanted = dict(tiles or {})
    eye, other = list(t.eye_pool), list(t.other_pool)
    layout = ["?"] * len(t.quarry_spaces)
    for q, space in enumerate(t.quarry_spaces):
        if space in wanted:
            kind = Tile[wanted.pop(space)]
            pool = eye if t.quarry_eye[q] else other
            if pool[kind] <= 0:
                raise ValueError(f"no {kind.name} tile left for the quarry at space {space}")
            pool[kind] -= 1
            layout[q] = kind.name
    if wanted:
        raise ValueError(f"no quarry at space(s) {sorted(wanted)}")
    for q in range(len(layout)):
        if layout[q] == "?":
            pool = eye if t.quarry_eye[q] else other
            kind = next(k for k in Tile if pool[k] > 0)
            pool[kind] -= 1
            layout[q] = kind.name
    return layout
