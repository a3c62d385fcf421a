"""What a player sees of an Imhotep position: data for the web page and a terminal picture.

:func:`page_data` describes the state as JSON-ready data (SPEC.md, "Imhotep", the picture
and page data): the round and its card, the ships, the five sites on their sides, the
market cards, each seat's sled, quarry, score and cards, and whose decision it is.
:func:`picture` draws that same data as text for people; machines read the position
notation.
"""

from __future__ import annotations

from typing import Any

from sneferu_cli.words import plural

from .edition import SITES
from .position import to_position
from .state import (
    COLOURS,
    DRAW,
    FINAL_PARTS,
    KEEP,
    MARKET,
    OBELISKS,
    PYR,
    PYRAMID,
    ROUND_CARD,
    TAKE,
    TEMPLE,
    TEMPLE_PS,
    TO_DISPLAY,
    TO_PAIR,
    TO_SEAT,
    TURN,
    ImhotepState,
)

__all__ = ["describe_turn", "page_data", "picture", "sections"]

COLOUR_NAMES = {"K": "black", "W": "white", "B": "brown", "G": "grey"}
SITE_NAMES = {"M": "market", "P": "pyramid", "T": "temple", "C": "burial chamber",
              "O": "obelisks"}
CARD_NAMES = {"ENT": "entrance", "SAR": "sarcophagus", "PAV": "paved path",
              "DEP": "pyramid decoration", "DET": "temple decoration",
              "DEC": "burial chamber decoration", "DEO": "obelisk decoration",
              "STA": "statue", "LEV": "lever", "HAM": "hammer", "SAI": "sail", "CHI": "chisel"}
"""The rulebook's market cards (IMHOTEP-RULES.md section 2); an edition's other codes are
shown as they are."""


def _colours(seats: list[int]) -> list[str]:
    return [COLOURS[s] for s in seats]


def _cards(codes: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {code: n for code, n in zip(codes, counts, strict=True) if n}


def levels(slots: int) -> list[int]:
    """The side lengths of a pyramid's square levels, bottom first: 14 slots are 3 x 3,
    2 x 2 and 1; a count that is no sum of squares 1..n is one level of side 1 each."""
    n = 0
    while sum(k * k for k in range(1, n + 2)) <= slots:
        n += 1
    if sum(k * k for k in range(1, n + 1)) != slots:
        return [1] * slots
    return list(range(n, 0, -1))


def page_data(state: ImhotepState) -> dict[str, Any]:
    """The state as JSON-ready data (seats 1-based, stones as colour letters); ``board``
    (the edition's name, the names of the sites and cards) is the same at every ply."""
    ed = state.edition
    t = state.tables
    codes = t.card_codes
    sites: dict[str, Any] = {}
    display: list[str | None] = [codes[k] if k >= 0 else None for k in state.display]
    sites["M"] = {"side": state.sides[MARKET], "display": display,
                  "pair": state.mx if state.sides[MARKET] == "B" else None}
    if state.sides[PYRAMID] == "A":
        sites["P"] = {"side": "A", "stones": _colours(state.pyramid),
                      "points": list(ed.pyramid.points),
                      "edge_points": ed.pyramid.overflow_points}
    else:
        pb = ed.pyramids_b
        sites["P"] = {"side": "B", "pyramids": [
            {"code": p.code, "stones": _colours(stones),
             "slots": [s.bonus or s.points for s in p.slots]}
            for p, stones in zip(pb.pyramids, state.pyramids, strict=True)],
            "edge": _colours(state.pyramid_edge), "edge_points": pb.overflow_points}
    w = state.temple_width()
    sites["T"] = {"side": state.sides[TEMPLE], "width": w,
                  "columns": [_colours(state.temple[c::w]) for c in range(w)],
                  "bonuses": list(ed.temple.columns_b[:w]) if state.sides[TEMPLE] == "B"
                  else None}
    rows = ed.chamber.rows
    sites["C"] = {"side": state.sides[3], "rows": [_colours(state.chamber[r::rows])
                                                  for r in range(rows)]}
    if state.sides[OBELISKS] == "A":
        sites["O"] = {"side": "A", "heights": list(state.obelisks)}
    else:
        sites["O"] = {"side": "B", "waiting": list(state.waiting),
                      "towers": _colours(state.towers),
                      "tower_values": list(ed.obelisks.towers_b)}
    return {
        "game": "imhotep", "edition": ed.name, "variant": state.variant,
        "sides": state.sides, "wrath": state.wrath, "players": state.players,
        "position": to_position(state),
        "round": state.round, "rounds": ed.rounds, "round_card": state.round_card or None,
        "round_cards_left": list(state.round_cards_left),
        "ships": [{"name": s.name, "capacity": s.capacity, "minimum": s.minimum,
                   "slots": [COLOURS[x] if x >= 0 else None for x in s.slots],
                   "site": SITES[s.site] if s.site >= 0 else None} for s in state.ships],
        "sites": sites,
        "cards": {"deck": _cards(codes, state.deck), "discard": _cards(codes, state.discard),
                  "resolving": [codes[k] for k in state.resolving],
                  "pair": [codes[k] for k in state.pair],
                  "colours": {c.code: c.colour for c in ed.market.cards}},
        "seats": [{"seat": i + 1, "colour": COLOURS[i], "sled": state.sleds[i],
                   "quarry": state.quarries[i], "score": state.scores[i],
                   "cards": _cards(codes, state.hands[i]), "active": state.active == i,
                   "start": state.start_player == i, "retired": state.retired[i]}
                  for i in range(state.players)],
        "turn": _turn(state),
        "final": _final(state),
        "board": {"name": ed.name, "site_names": SITE_NAMES,
                  "card_names": {c.code: CARD_NAMES.get(c.code, c.code)
                                 for c in ed.market.cards}},
    }


def _final(state: ImhotepState) -> list[dict[str, Any]] | None:
    """Once the game is over (and scored): each seat's final scoring by source, its score
    before it and its total; else None."""
    if not state.finished or state.all_retired():
        return None
    return [{"seat": i + 1, "before": state.scores[i] - sum(parts),
             "parts": dict(zip(FINAL_PARTS, parts, strict=True)), "total": state.scores[i]}
            for i, parts in enumerate(state.final_parts())]


def _final_lines(d: dict[str, Any]) -> list[str]:
    """The final scoring, a line a seat: ``Seat 1 (K): 31 + chamber 5 + ... = 55``."""
    out = ["Final scoring (rules, section 11):"]
    for f in d["final"]:
        parts = " ".join(f"{'-' if v < 0 else '+'} {k} {abs(v)}" for k, v in f["parts"].items()
                         if v)
        out.append(f"  Seat {f['seat']} ({COLOURS[f['seat'] - 1]}): {f['before']} "
                   f"{parts or '+ 0'} = {f['total']}")
    return out


def _turn(state: ImhotepState) -> dict[str, Any]:
    task = state.todo[-1] if state.todo else (-1,)
    decision = {TURN: "turn", TAKE: "take", KEEP: "keep", PYR: "pyr",
                TEMPLE_PS: "temple"}.get(task[0])
    chance = None
    if task[0] == ROUND_CARD:
        chance = "round-card"
    elif task[0] == DRAW:
        chance = ("display", "pair", "bonus", "discard")[task[2]]
    return {"over": state.is_over(), "chance": chance, "decision": decision,
            "seat": state.current_seat() + 1 if decision else None,
            "active": state.active + 1, "passes": state.passes,
            "text": describe_turn(state)}


# --------------------------------------------------------------------------- the picture


def picture(state: ImhotepState) -> str:
    """The whole position as lines of text, a blank line between its parts."""
    return "\n\n".join(text for _, text in sections(state))


def sections(state: ImhotepState) -> list[tuple[str, str]]:
    """The picture in parts, in order, each ``(name, text)``: ``round`` (the game and the
    round), ``ships``, ``market``, ``sites`` (the other four), ``seats``, ``final`` (the
    final scoring, once the game is over) and ``turn``."""
    d = page_data(state)
    final = [("final", "\n".join(_final_lines(d)))] if d["final"] else []
    return [("round", _title(d)), ("ships", "\n".join(_ships(d))),
            ("market", "\n".join(_market(d))), ("sites", "\n".join(_sites(d))),
            ("seats", "\n".join(_seats(d))), *final, ("turn", d["turn"]["text"])]


def focus(state: ImhotepState) -> tuple[str, ...]:
    """The parts a seat sees at its decision even when unchanged: the market when it is to
    take a card from it (6.1), the ships and the seats (its sled and cards) at an action."""
    kind = state.todo[-1][0] if state.todo else -1
    if kind == TAKE:
        return ("market",)
    return ("ships", "seats") if kind == TURN else ()


def decision_hint(state: ImhotepState) -> str:
    """What the decision at ``state`` is, in one line for a person."""
    kind = state.todo[-1][0] if state.todo else -1
    if kind == TAKE:
        return ("Take a market card for your stone: take and the card's place in the "
                "market (take M2), or take MX for the side-B pair.")
    if kind == KEEP:
        return "Keep one card of the pair: keep CARD."
    if kind == PYR:
        return "Choose a side-B pyramid: pyr PL (with its bonus: pyr PR bonus 3A.1)."
    if kind == TEMPLE_PS:
        return "The side-B temple's choice: temple pts or temple stones."
    return ("Your action: Q (take stones), L SHIP.SLOT (load), S SHIP SITE (sail), a card "
            "(LEV, HAM, SAI, CHI), or PASS when nothing else is legal.")


def _who(seat: int) -> str:
    """``seat 2 (W)``, 0-based ``seat``."""
    return f"seat {seat + 1} ({COLOURS[seat]})"


def _title(d: dict[str, Any]) -> str:
    sides = " ".join(f"{s}:{side}" for s, side in zip(SITES, d["sides"], strict=True))
    wrath = ", Wrath of the Pharaoh" if d["wrath"] else ""
    head = f"Imhotep: edition {d['edition']}, {d['players']} players, sides {sides}{wrath}"
    if not d["round"]:
        return head
    card = d["round_card"]
    ships = " ".join(str(s["capacity"]) for s in d["ships"])
    shown = f", card {card} (ships {ships})" if card else ""
    left = " ".join(d["round_cards_left"]) or "none"
    return f"{head}\nRound {d['round']} of {d['rounds']}{shown}; round cards left: {left}"


def _cells(stones: list[str | None], width: int = 0) -> str:
    return " ".join(s or "." for s in stones) + "  " * (width - len(stones))


def _ships(d: dict[str, Any]) -> list[str]:
    if not d["ships"]:
        return ["Ships: none (the round has ended)" if d["round_card"] else
                "Ships: none (between rounds)"]
    out = ["Ships (slots from the bow, . empty; minimum load)"]
    widest = max(s["capacity"] for s in d["ships"])
    for s in d["ships"]:
        where = (f"docked at {s['site']} {SITE_NAMES[s['site']]}" if s["site"]
                 else "in the harbour")
        out.append(f"  {s['name']} [{_cells(s['slots'], widest)}]  min {s['minimum']}  "
                   f"{where}")
    return out


def _market(d: dict[str, Any]) -> list[str]:
    cards = d["cards"]
    m = d["sites"]["M"]
    deck = sum(cards["deck"].values())
    discard = _counted(cards["discard"]) or "empty"
    out = [f"M market (side {m['side']}): deck {plural(deck, 'card')}; discard pile: {discard}"]
    out += [f"  M{i + 1} {_card(c)}" for i, c in enumerate(m["display"])]
    if m["pair"] is not None:
        out.append("  MX " + ("the face-down pair" if m["pair"] else "- (taken)"))
    if cards["resolving"]:
        out.append(f"  being resolved: {' '.join(cards['resolving'])}")
    if cards["pair"]:
        out.append(f"  pair drawn, one to keep: {' '.join(cards['pair'])}")
    return out


def _sites(d: dict[str, Any]) -> list[str]:
    sites = d["sites"]
    out = _pyramid(sites["P"])
    out += _temple(sites["T"])
    c = sites["C"]
    n = sum(map(len, c["rows"]))
    out.append(f"C burial chamber (side {c['side']}): {plural(n, 'stone')}, columns from "
               "the left, each from the top")
    width = max(map(len, c["rows"]))
    out += [f"  row {r + 1}: {_cells(row, width)}".rstrip() for r, row in enumerate(c["rows"])]
    o = sites["O"]
    seats = [COLOURS[i] for i in range(d["players"])]
    if o["side"] == "A":
        heights = "  ".join(f"{c} {h}" for c, h in zip(seats, o["heights"], strict=True))
        out.append(f"O obelisks (side A): heights {heights}")
    else:
        waiting = "  ".join(f"{c} {h}" for c, h in zip(seats, o["waiting"], strict=True))
        towers = " ".join(f"{v}:{c}" for v, c in zip(o["tower_values"], o["towers"],
                                                     strict=False)) or "none"
        rest = o["tower_values"][len(o["towers"]):]
        nxt = f"; next tower {rest[0]}" if rest else ""
        out.append(f"O obelisks (side B): waiting {waiting}; towers {towers}{nxt}")
    return out


def _counted(cards: dict[str, int]) -> str:
    """``STAx2 HAM``: cards and their copies."""
    return " ".join(f"{c}x{n}" if n > 1 else c for c, n in cards.items())


def _card(code: str | None) -> str:
    if code is None:
        return "-"
    name = CARD_NAMES.get(code)
    return f"{code} {name}" if name else code


def _pyramid(p: dict[str, Any]) -> list[str]:
    if p["side"] == "A":
        stones = p["stones"]
        slots = len(p["points"])
        out = [f"P pyramid (side A): {min(len(stones), slots)} of {slots} slots, edge "
               f"{len(stones[slots:])} ({p['edge_points']} point each); empty slots show "
               "their points"]
        out += _levels(stones, [str(x) for x in p["points"]])
        if stones[slots:]:
            out.append(f"  edge: {' '.join(stones[slots:])}")
        return out
    out = ["P pyramids (side B): empty slots show their points or bonus"]
    for q in p["pyramids"]:
        out.append(f"  {q['code']}:")
        out += ["  " + line for line in _levels(q["stones"], [str(x) for x in q["slots"]])]
    out.append(f"  edge: {' '.join(p['edge']) or 'none'} ({p['edge_points']} point each)")
    return out


def _levels(stones: list[str], labels: list[str]) -> list[str]:
    """A pyramid's levels bottom first, each a square filled column by column from the top."""
    out = []
    start = 0
    width = max(len(x) for x in [*labels, "."]) + 2
    for n, side in enumerate(levels(len(labels)), start=1):
        for row in range(side):
            cells = []
            for col in range(side):
                k = start + col * side + row
                cells.append(f"[{stones[k]}]" if k < len(stones) else f"({labels[k]})")
            label = f"level {n}" if row == 0 else ""
            out.append(f"  {label:<8} " + " ".join(f"{c:<{width}}" for c in cells).rstrip())
        start += side * side
    return out


def _temple(t: dict[str, Any]) -> list[str]:
    cols = t["columns"]
    n = sum(map(len, cols))
    height = max(map(len, cols))
    w = t["width"]
    out = [f"T temple (side {t['side']}, {w} columns): {plural(n, 'stone')}; the top stones "
           "score at each round's end"]
    for h in reversed(range(height)):
        out.append(f"  height {h + 1}: " + " ".join(c[h] if h < len(c) else "." for c in cols))
    out.append("  top:      " + " ".join(c[-1] if c else "." for c in cols))
    if t["bonuses"]:
        out.append("  bonus:    " + " ".join(t["bonuses"]))
    return out


def _seats(d: dict[str, Any]) -> list[str]:
    out = []
    for s in d["seats"]:
        marks = [w for w, on in (("its turn", s["active"] and not d["turn"]["over"]),
                                 ("start player", s["start"]), ("RETIRED", s["retired"]))
                 if on]
        cards = _counted(s["cards"]) or "none"
        out.append(f"Seat {s['seat']} ({s['colour']} {COLOUR_NAMES[s['colour']]}): score "
                   f"{s['score']}, sled {s['sled']}, quarry {s['quarry']}, cards {cards}"
                   + (f"  [{', '.join(marks)}]" if marks else ""))
    return out


def describe_turn(state: ImhotepState) -> str:
    """One line: whose decision, which chance event comes next, or the result."""
    if state.is_over():
        ranks = sorted(state.ranking(), key=lambda s: (s.rank, s.seat))
        text = "; ".join(f"{s.rank}. {_who(s.seat)} {plural(s.points, 'point')}, "
                         f"{s.sled} on the sled" + (", retired" if s.retired else "")
                         for s in ranks)
        return f"Game over: {text}."
    task = state.todo[-1]
    kind = task[0]
    if kind == ROUND_CARD:
        return f"Chance: the round card of round {state.round}."
    if kind == DRAW:
        seat, purpose, arg = task[1:]
        if purpose == TO_DISPLAY:
            return f"Chance: a market card for display slot M{arg + 1}."
        if purpose == TO_PAIR:
            return f"Chance: a card of the pair MX taken by {_who(seat)}."
        if purpose == TO_SEAT:
            return f"Chance: the top card of the market deck for {_who(seat)}."
        return "Chance: a card of the untaken pair MX, to the discard pile."
    who = "S" + _who(state.current_seat())[1:]
    if kind == TURN:
        passes = f" ({state.passes} passed in a row)" if state.passes else ""
        return f"{who} to move{passes}."
    if kind == TAKE:  # the choices with their cards (a human seat sees the market too)
        codes = state.tables.card_codes
        choices = [f"take M{i + 1} ({_card(codes[k])})" for i, k in enumerate(state.display)
                   if k >= 0]
        if state.mx and (any(state.deck) or any(state.discard)):
            choices.append("take MX (the face-down pair)")
        return (f"{who} takes a market card for its stone from ship "
                f"{state.ships[task[2]].name} slot {task[3] + 1}: {'; '.join(choices)}.")
    if kind == KEEP:
        codes = state.tables.card_codes
        return f"{who} keeps one card of the pair: {' or '.join(codes[k] for k in state.pair)}."
    if kind == PYR:
        source = (f"from ship {state.ships[task[2]].name} slot {task[3] + 1}"
                  if task[2] >= 0 else "placed by a red card")
        return f"{who} chooses a pyramid for its stone {source}."
    assert kind == TEMPLE_PS
    return f"{who} chooses 1 point or 2 stones for its temple stone (bonus PS)."
