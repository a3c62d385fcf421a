"""Silver & Gold Pyramids for people: the terminal picture and the web viewer's data.

``picture(state)`` draws the title (edition, seats), the expedition (round and turn, the
patterns revealed this round, the current one drawn while it is to be marked), the offer and
deck, every seat's scoring card and chambers, a legend and one line saying who decides,
which chance event comes next, or the final ranking. A chamber is five rows of
three-character cells under the column letters ``a``-``e``, each row numbered: `` R `` a
cell with its code (``.`` floor, ``#`` wall, ``E`` entrance, ``T`` tomb, ``R G F S P X``
symbols), ``[R]`` a marked cell, ``<R>`` one marked in the last step 2.
``page_data(state)`` is the same as JSON-ready data (SPEC 14.6).

Pictures and page data show the state given: for a seat, draw the state read from its view
(hidden deals are then counted, not shown).

>>> from sneferu_cli.games.silver_gold.state import new_game
>>> print(picture(new_game(2)).splitlines()[0])
Silver & Gold Pyramids, edition sgp-recon-1, 2 players
"""

from __future__ import annotations

from typing import Any

from sneferu_cli.words import plural

from .edition import COLOURS, SIZE
from .move import CELL_NAMES
from .position import to_position
from .state import (
    BOXES,
    CARD_POINTS,
    DEALING,
    DRAWING,
    KEEPING,
    MARKING,
    OFFERING,
    PAIR_POINTS,
    PHASES,
    REFILL,
    REVEAL,
    ROUNDS,
    TAKING,
    TORCH_POINTS,
    TURNS,
    SilverGoldState,
    cells_of,
)

__all__ = ["LEGEND", "decision_hint", "focus", "page_data", "picture", "score_items",
           "sections"]

COLOUR_NAMES = {"PUR": "purple", "ORA": "orange", "GRN": "green"}

COLUMNS = "   a  b  c  d  e"
"""The column letters over a chamber (its rows are numbered on the left)."""


# --------------------------------------------------------------------------- terminal


def picture(state: SilverGoldState) -> str:
    """The whole picture, its parts separated by blank lines."""
    return "\n\n".join(text for _, text in sections(state))


def sections(state: SilverGoldState) -> list[tuple[str, str]]:
    """The picture in named parts: ``title``, ``expedition``, ``offer``, one ``seat N``
    each, ``legend``, ``turn``."""
    parts = [("title", _title(state)), ("expedition", _expedition(state)),
             ("offer", _offer(state))]
    for seat in range(state.players):
        parts.append((f"seat {seat + 1}", _seat(state, seat)))
    parts += [("legend", LEGEND), ("turn", turn_line(state))]
    return parts


LEGEND = """\
Chambers: columns a-e, rows 1-5; the entrance E is a1, the golden tomb T e5.
  . floor  # wall  R red gem  G green gem  S skull  F torch  P potion (erases 2 skulls)
  X red cross (a bonus mark);  [R] a marked cell,  <R> one marked in the last step 2"""
"""The key to the chambers' letters and marks (the edition's cards have their entrance at
a1 and their tomb at e5)."""


def focus(state: SilverGoldState) -> tuple[str, ...]:
    """The parts a seat sees at each of its decisions even when unchanged: the deciding
    seats' chambers, the legend, and the expedition card to mark (step 2) or the offer to
    take from (step 3)."""
    seats = tuple(f"seat {s + 1}" for s in state.deciding_seats())
    if state.phase == MARKING:
        return ("expedition", *seats, "legend")
    if state.phase == TAKING:
        return ("offer", *seats, "legend")
    return (*seats, "legend")


def decision_hint(state: SilverGoldState) -> str:
    """What the decision at ``state`` is, in one line for a person."""
    t = state.tables
    if state.phase == KEEPING:
        return "Keep two of your four dealt cards: keep A B."
    if state.phase == MARKING:
        return (f"Mark expedition card {t.codes[state.pattern()]} on one card in play, "
                "turned or mirrored as you like (CARD:CELL,CELL,...), or one single cell "
                "(CARD:CELL); then +CARD:CELL for each red cross marked.")
    if state.phase == TAKING:
        return (f"Take a new card ({state.owed[state.phase_seat]} owed): take N from the "
                "offer, or take deck.")
    return "Type your move."


def _pattern_rows(state: SilverGoldState, p: int) -> list[str]:
    cells = state.tables.placements[p][0][1]  # the first placement: in the top left corner
    rows = max(k // SIZE for k in cells) + 1
    cols = max(k % SIZE for k in cells) + 1
    return ["".join("#" if SIZE * r + c in cells else "." for c in range(cols))
            for r in range(rows)]


def _title(state: SilverGoldState) -> str:
    return f"Silver & Gold Pyramids, edition {state.edition.name}, {state.players} players"


def _expedition(state: SilverGoldState) -> str:
    """The round and turn, the patterns revealed this round and the current one: drawn
    while it is to be marked (step 2), named once it has been."""
    t = state.tables
    lines = [f"Round {state.round} of {ROUNDS}, turn {state.turn} of {TURNS}; revealed this "
             f"round: {' '.join(t.codes[p] for p in state.revealed) or '-'}"]
    p = state.pattern()
    if p >= 0 and state.phase == MARKING:
        lines.append(f"Expedition card {t.codes[p]} to mark now (turn and mirror it as you "
                     "like):")
        lines += ["  " + row for row in _pattern_rows(state, p)]
    elif p >= 0:
        lines.append(f"Expedition card {t.codes[p]}: marked in step 2 of this turn.")
    return "\n".join(lines)


def _card_name(state: SilverGoldState, card: int) -> str:
    return f"{card} {COLOURS[state.tables.colour[card]]}"


def _offer(state: SilverGoldState) -> str:
    offer = ", ".join(_card_name(state, k) for k in state.offer) or "empty"
    boxes = []
    for c, colour in enumerate(COLOURS):
        free = [str(v) for v in BOXES[state.taken[c]:]]
        boxes.append(f"{colour} {' '.join(free) or '-'}")
    return (f"Offer: {offer}; deck {state.deck_size()} cards\n"
            f"Pyramid boxes still free: {'; '.join(boxes)}")


def chamber_rows(state: SilverGoldState, card: int, seat: int) -> list[str]:
    """The five rows of a chamber, three characters a cell (see the module's text)."""
    grid = state.tables.grid[card]
    marks = state.marks[card]
    last = 0
    for c, cells in state.last[seat]:
        if c == card:
            last |= cells
    rows = []
    for r in range(SIZE):
        row = ""
        for c in range(SIZE):
            k = SIZE * r + c
            code = grid[k]
            if last >> k & 1:
                row += f"<{code}>"
            elif marks >> k & 1:
                row += f"[{code}]"
            else:
                row += f" {code} "
        rows.append(row)
    return rows


def _seat(state: SilverGoldState, seat: int) -> str:
    t = state.tables
    torches = "".join("x" if state.torches[seat] >> r & 1 else "-" for r in range(ROUNDS))
    boxes = " ".join(f"{COLOURS[c]} {v}" for c, v in state.boxes[seat]) or "-"
    done = ", ".join(_card_name(state, k) for k in state.done[seat]) or "-"
    flags = " (retired)" if state.retired[seat] else ""
    lines = [f"Seat {seat + 1}{flags}: {plural(state.points(seat), 'point')} now; red "
             f"{state.red[seat]}, "
             f"green {state.green[seat]}, torches {torches}, skulls {state.skulls[seat]} "
             f"(-{t.penalty(state.skulls[seat])}), boxes {boxes}",
             f"  completed: {done}"]
    shown = state.play[seat] or state.dealt[seat]
    if state.hidden[seat]:
        lines.append(f"  dealt: {state.hidden[seat]} cards, hidden")
    if shown:
        what = "dealt" if state.dealt[seat] else "in play"
        lines.append(("  " + "   ".join(f"{_card_name(state, k) + ' ' + what:<17}"
                                         for k in shown)).rstrip())
        grids = [chamber_rows(state, k, seat) for k in shown]
        lines.append(("  " + "   ".join(COLUMNS for _ in grids)).rstrip())
        for r in range(SIZE):
            lines.append(("  " + "   ".join(f"{r + 1} {g[r]}" for g in grids)).rstrip())
    elif not state.hidden[seat]:
        lines.append("  no card in play")
    return "\n".join(lines)


def turn_line(state: SilverGoldState) -> str:
    """Who decides now, which chance event comes next, or the final ranking."""
    if state.is_over():
        ranking = sorted(state.ranking(), key=lambda r: (r[1], r[0]))
        return "Game over: " + ", ".join(f"{rank}. seat {seat + 1} ({points})"
                                         for seat, rank, points, _, _ in ranking)
    seat = state.phase_seat + 1
    if state.phase == DEALING:
        return f"Next: the deal of seat {seat}"
    if state.phase == DRAWING:
        return f"Next: the card seat {seat} draws from the deck"
    if state.phase == REFILL:
        return "Next: a card to refill the offer"
    if state.phase == TAKING:
        return f"Seat {seat} takes a new card (step 3)"
    if state.phase in (KEEPING, MARKING):
        what = "keep two cards" if state.phase == KEEPING else "mark (step 2)"
        seats = ", ".join(str(s + 1) for s in state.deciding_seats())
        return f"Sealed: seats {seats} {what}"
    if state.phase == OFFERING:
        return "Next: a card of the offer"
    return f"Next: the expedition card of turn {state.turn + 1}"


# --------------------------------------------------------------------------- web viewer


def _chamber(state: SilverGoldState, card: int, seat: int) -> dict[str, Any]:
    last = 0
    for c, cells in state.last[seat]:
        if c == card:
            last |= cells
    grid = state.tables.grid[card]
    return {"number": card, "colour": COLOURS[state.tables.colour[card]],
            "rows": [grid[SIZE * r:SIZE * r + SIZE] for r in range(SIZE)],
            "marked": [CELL_NAMES[k] for k in cells_of(state.marks[card])],
            "last": [CELL_NAMES[k] for k in cells_of(last)]}


def score_items(state: SilverGoldState, seat: int) -> dict[str, int]:
    """``seat``'s points item by item (section 9 of the rules), summing to its points:
    completed cards, torches, pyramid boxes, gems (each red and green pair, then each
    unpaired gem) and the skull penalty (negative)."""
    r, g = state.red[seat], state.green[seat]
    return {"cards": CARD_POINTS * len(state.done[seat]),
            "torches": TORCH_POINTS * state.torches[seat].bit_count(),
            "boxes": sum(v for _, v in state.boxes[seat]),
            "gems": PAIR_POINTS * min(r, g) + abs(r - g),
            "skulls": -state.tables.penalty(state.skulls[seat])}


def page_data(state: SilverGoldState) -> dict[str, Any]:
    """What the web viewer draws for ``state`` (SPEC 14.6)."""
    t = state.tables
    p = state.pattern()
    deciding = [s + 1 for s in state.deciding_seats()]
    seats = []
    for s in range(state.players):
        seats.append({
            "seat": s + 1,
            "cards": [_chamber(state, k, s) for k in state.play[s]],
            "dealt": [_chamber(state, k, s) for k in state.dealt[s]],
            "hidden": state.hidden[s],
            "red": state.red[s], "green": state.green[s],
            "torches": [bool(state.torches[s] >> r & 1) for r in range(ROUNDS)],
            "skulls": state.skulls[s], "penalty": t.penalty(state.skulls[s]),
            "done": [{"number": k, "colour": COLOURS[t.colour[k]]} for k in state.done[s]],
            "boxes": [{"colour": COLOURS[c], "points": v} for c, v in state.boxes[s]],
            "points": state.points(s),
            "score": score_items(state, s),
            "retired": state.retired[s],
            "deciding": s + 1 in deciding,
            "sealed": state.sealed[s] is not None,
            "completed_now": state.now[s], "owed": state.owed[s],
            "last": [{"card": c, "cells": [CELL_NAMES[k] for k in cells_of(m)]}
                     for c, m in state.last[s]],
        })
    boxes = {}
    for c, colour in enumerate(COLOURS):
        owners = {v: s + 1 for s in range(state.players) for cc, v in state.boxes[s] if cc == c}
        boxes[colour] = [{"points": v, "seat": owners.get(v)} for v in BOXES]
    chance = {DEALING: "deal", OFFERING: "offer", REFILL: "offer", DRAWING: "draw",
              REVEAL: "exp"}.get(state.phase)
    return {
        "game": "silver-gold", "edition": state.edition.name, "players": state.players,
        "position": to_position(state),
        "round": state.round, "rounds": ROUNDS, "turn": state.turn, "turns": TURNS,
        "phase": PHASES[state.phase],
        "expedition": None if p < 0 else {"code": t.codes[p],
                                          "rows": _pattern_rows(state, p)},
        "revealed": [t.codes[x] for x in state.revealed],
        "offer": [{"number": k, "colour": COLOURS[t.colour[k]]} for k in state.offer],
        "deck": state.deck_size(),
        "boxes": boxes,
        "seats": seats,
        "turn_state": {"over": state.is_over(), "chance": chance,
                       "simultaneous": state.is_simultaneous(), "deciding": deciding,
                       "taking": state.phase_seat + 1 if state.phase == TAKING else None,
                       "text": turn_line(state)},
        "board": {"name": state.edition.name, "colour_names": COLOUR_NAMES,
                  "patterns": {e.code: list(e.cells) for e in state.edition.expeditions}},
    }
