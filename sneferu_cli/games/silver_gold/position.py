"""Silver & Gold Pyramids position notation and views: the whole state on one line.

Grammar ``protocol/silver-gold-position.lark``; SPEC.md 14.4 and 14.5::

    sgp-recon-1 r2.5 mark exp:I3,V3,O4,D2,V3 offer:7,12,30,41 deck:31
    | 1: 17[a1,a2,b2] 23[] R3 G2 F:x--- S2 done:5,14 pts:GRN10 | 2: ...

(one line: the break before the first ``|`` is only for this page)

:func:`view` writes what one seat may know (G21, G22): another seat's dealt cards become
``dealt:?`` and its sealed move is left out. :func:`from_position` reads both, and rejects
a position no game can reach with a NotationError giving the reason.

>>> from sneferu_cli.games.silver_gold.state import new_game
>>> text = to_position(new_game(2))
>>> print(text.replace(" | ", chr(10) + "| "))
sgp-recon-1 r1.0 deal:1 exp:- offer:- deck:48
| 1: R0 G0 F:---- S0 done:- pts:-
| 2: R0 G0 F:---- S0 done:- pts:-
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

import re
from typing import Final

from sneferu_cli.game import NotationError
from sneferu_cli.grammar import parse

from .edition import COLOURS, Edition, standard_edition
from .move import CELL_NAMES, Keep, Mark, Move, mark_text, parse_move
from .state import (
    BOXES,
    DEALING,
    DEALT,
    DRAWING,
    GEMS,
    KEEPING,
    MARKING,
    OFFER_SIZE,
    OFFERING,
    OVER,
    PHASES,
    REFILL,
    REVEAL,
    ROUNDS,
    TAKING,
    TURNS,
    SilverGoldIllegal,
    SilverGoldState,
    cells_of,
    spread,
)

__all__ = ["from_position", "to_position", "view"]

_SEATED = (DEALING, TAKING, DRAWING)
"""Phases written with a seat (``deal:2``, ``take:3``, ``draw:3``)."""

_CARD = r"[1-9][0-9]?"
_CELL = r"[a-e][1-5]"
_CARDS = rf"(?:{_CARD}(?:,{_CARD})*|-)"
_COUNT = r"(?:0|[1-9][0-9]?)"
_BOX = r"(?:PUR|ORA|GRN)(?:10|6|3)"
_SEAT = (rf"[1-4]:(?: {_CARD}\[(?:{_CELL}(?:,{_CELL})*)?\])* R{_COUNT} G{_COUNT} "
         rf"F:[x-]{{4}} S{_COUNT} done:{_CARDS} pts:(?:{_BOX}(?:,{_BOX})*|-)"
         rf"(?: dealt:(?:{_CARDS}|\?))?"
         rf"(?: sealed:(?:{_CARD},{_CARD}"
         rf"|{_CARD}:{_CELL}(?:,{_CELL})*(?:\+{_CARD}:{_CELL})*))?"
         rf"(?: now:{_CARDS})?(?: owed:{_COUNT})?(?: retired)?")
POSITION = re.compile(
    r"[A-Za-z0-9][A-Za-z0-9_.+-]* r[0-9]\.[0-9] "
    r"(?:deal|keep|offer|exp|mark|take|draw|refill|over)(?::[1-4])? "
    rf"exp:(?:[A-Za-z0-9]{{1,12}}(?:,[A-Za-z0-9]{{1,12}})*|-) offer:{_CARDS} "
    rf"deck:{_COUNT}(?: \| {_SEAT})+")
"""Exactly the language of ``protocol/silver-gold-position.lark`` (a test proves it), so
that a position is read without building a parse tree; a line it refuses goes to the
grammar for the error message."""


# --------------------------------------------------------------------------- writing


def to_position(state: SilverGoldState) -> str:
    """The position notation of ``state`` (everything, pending sealed moves included)."""
    return _write(state, -1)


def view(state: SilverGoldState, seat: int) -> str:
    """The position as ``seat`` may know it: other seats' dealt cards ``dealt:?``, their
    sealed moves left out (G21, G22). A view that every seat shares (no dealt card, no
    sealed move: a step-2 node as its seats are asked) is written once (:data:`_SHARED`)."""
    state_then, version, text = _SHARED[0]
    if state_then is state and version == state.version:
        return text
    text = _write(state, seat)
    if not any(state.dealt) and not any(state.hidden) and all(
            move is None for move in state.sealed):
        _SHARED[0] = (state, state.version, text)
    return text


def public_view(state: SilverGoldState) -> str:
    """The position as a spectator may know it: every seat's dealt cards ``dealt:?``,
    every sealed move left out (G21, G22)."""
    return _write(state, SPECTATOR)


SPECTATOR: Final = -2
"""The viewer of :func:`_write` that is no seat (-1: everyone, the whole position)."""

_SHARED: Final[list[tuple[SilverGoldState | None, int, str]]] = [(None, -1, "")]
"""The last view written that every seat shares, with its state and the state's
``version`` then (one tuple, replaced whole): the seats of a step 2 are asked one after
the other, each sent its view of the same state."""


def _cards(cards: list[int]) -> str:
    return ",".join([_NUMBER[k] for k in cards]) if cards else "-"


_NUMBER: Final = tuple(str(k) for k in range(100))
"""The text of each card number and count (all below 100): no number written anew."""
_SEAT_START: Final = tuple(f" | {s + 1}:" for s in range(4))
"""The start of each seat's part."""
_IN_PLAY: Final = tuple(f" {k}[" for k in range(100))
"""The start of a card in play's part (`` 17[``), by card number."""
_TORCHES: Final = tuple("".join("x" if torches >> r & 1 else "-" for r in range(ROUNDS))
                 for torches in range(1 << ROUNDS))
"""The torch boxes' text (``F:x---``) of each bit set of marked torches."""
_MARKED: Final[dict[int, str]] = {}
"""The text of each set of marked cells met (``a1,a2,b2``), made once: a seat's part of a
position is written for every view of every request."""


def _marked(mask: int) -> str:
    text = _MARKED.get(mask)
    if text is None:
        text = _MARKED[mask] = ",".join([CELL_NAMES[k] for k in cells_of(mask)])
    return text


def _write(state: SilverGoldState, seat: int) -> str:
    phase = PHASES[state.phase]
    if state.phase in _SEATED:
        phase += ":" + _NUMBER[state.phase_seat + 1]
    codes = state.tables.codes
    revealed = ",".join([codes[p] for p in state.revealed]) if state.revealed else "-"
    text = (f"{state.edition.name} r{state.round}.{state.turn} {phase} exp:{revealed} "
            f"offer:{_cards(state.offer)} deck:{_NUMBER[state.deck_size()]}")
    for s in range(state.players):
        text += _seat(state, s, seat)
    return text


def _seat(state: SilverGoldState, s: int, viewer: int) -> str:
    """The part of seat ``s`` (from `` | ``) as ``viewer`` (-1: everyone, the whole
    position; :data:`SPECTATOR`: no seat) may know it."""
    marks = state.marks
    text = _SEAT_START[s]
    for card in state.play[s]:
        text += _IN_PLAY[card] + _marked(marks[card]) + "]"
    boxes = state.boxes[s]
    text += (f" R{_NUMBER[state.red[s]]} G{_NUMBER[state.green[s]]} "
             f"F:{_TORCHES[state.torches[s]]} S{_NUMBER[state.skulls[s]]} "
             f"done:{_cards(state.done[s])} pts:")
    text += ",".join([f"{COLOURS[c]}{v}" for c, v in sorted(boxes, key=_box_order)]
                     ) if boxes else "-"
    other = viewer != -1 and viewer != s
    if state.hidden[s] or (other and state.dealt[s]):
        text += " dealt:?"
    elif state.dealt[s]:
        text += f" dealt:{_cards(state.dealt[s])}"
    move = state.sealed[s]
    if move is not None and not other:
        if isinstance(move, Keep):
            text += f" sealed:{move.a},{move.b}"
        elif isinstance(move, Mark):
            text += " sealed:" + mark_text(move.card, move.cells, move.bonus).replace(" ", "")
    if state.now[s] and state.phase in (TAKING, DRAWING, REFILL):
        text += f" now:{_cards(state.now[s])} owed:{state.owed[s]}"
    if state.retired[s]:
        text += " retired"
    return text


def _box_order(box: tuple[int, int]) -> tuple[int, int]:
    """Boxes by colour, best first."""
    return box[0], -box[1]


# --------------------------------------------------------------------------- reading


def from_position(text: str, edition: Edition | None = None) -> SilverGoldState:
    """The state of a position (or a seat's view); NotationError when it is malformed or
    no game can reach it."""
    if POSITION.fullmatch(text) is None:
        parse("silver-gold-position", "position", text, "position")
        raise NotationError(f"position: not a position: {text[:60]!r}")  # pragma: no cover
    ed = edition or standard_edition()
    try:
        return _read(text, ed)
    except (SilverGoldIllegal, ValueError) as e:
        if isinstance(e, NotationError):
            raise
        raise NotationError(f"position: {e}") from None


def _numbers(word: str) -> list[int]:
    return [] if word == "-" else [int(w) for w in word.split(",")]


def _read(text: str, ed: Edition) -> SilverGoldState:
    head, *seats = text.split(" | ")
    name, rt, phase_word, exp, offer, deck = head.split(" ")
    if name != ed.name:
        raise NotationError(f"position: edition {name!r}, not {ed.name!r}")
    if not 2 <= len(seats) <= 4:
        raise NotationError(f"position: {len(seats)} seats (2 to 4 play)")
    state = SilverGoldState(len(seats), ed)
    t = state.tables
    state.round, state.turn = int(rt[1]), int(rt[3])
    if not 1 <= state.round <= ROUNDS or not 0 <= state.turn <= TURNS:
        raise ValueError(f"round {state.round} turn {state.turn} (rounds 1-{ROUNDS}, "
                         f"turns 0-{TURNS})")
    word, _, seat_no = phase_word.partition(":")
    state.phase = PHASES.index(word)
    if (state.phase in _SEATED) != bool(seat_no):
        raise ValueError(f"phase {phase_word!r}: deal, take and draw name a seat, no other")
    state.phase_seat = int(seat_no) - 1 if seat_no else 0
    if state.phase_seat >= state.players:
        raise ValueError(f"phase {phase_word!r}: no seat {seat_no}")
    codes = [] if exp == "exp:-" else exp[4:].split(",")
    left = list(t.copies)
    for code in codes:
        p = t.pattern(code)
        if p < 0:
            raise ValueError(f"unknown expedition pattern {code!r}")
        left[p] -= 1
        if left[p] < 0:
            raise ValueError(f"pattern {code} revealed more often than its copies")
        state.revealed.append(p)
    if len(codes) != state.turn:
        raise ValueError(f"{len(codes)} expedition cards revealed in turn {state.turn}")
    state.offer = _numbers(offer[6:])
    if len(state.offer) > OFFER_SIZE or state.offer != sorted(set(state.offer)):
        raise ValueError("the offer holds at most 4 cards, ascending")
    for s, seat_text in enumerate(seats):
        _read_seat(state, s, seat_text)
    # Cards: each at most once; the rest is the deck (and any hidden deals).
    seen = state.visible_cards()
    if len(set(seen)) != len(seen) or any(not 1 <= k <= t.cards for k in seen):
        raise ValueError("a card is shown twice, or is not one of the edition's")
    state.pool = 0
    for k in range(1, t.cards + 1):
        if k not in seen:
            state.pool |= 1 << k
    if int(deck[5:]) != state.deck_size():
        raise ValueError(f"deck:{deck[5:]} but {state.deck_size()} cards are not shown")
    taken = [[v for s in range(state.players) for c, v in state.boxes[s] if c == colour]
             for colour in range(len(COLOURS))]
    for colour, values in enumerate(taken):
        if sorted(values, reverse=True) != list(BOXES[:len(values)]):
            raise ValueError(f"{COLOURS[colour]} boxes {values}: each of 10, 6, 3 is "
                             "claimed once, best first")
        state.taken[colour] = len(values)
    _check_phase(state)
    return state


def _read_seat(state: SilverGoldState, s: int, text: str) -> None:
    t = state.tables
    words = text.split(" ")
    if words[0] != f"{s + 1}:":
        raise ValueError(f"seat {s + 1} is written as {words[0]!r}")
    i = 1
    while "[" in words[i]:
        card_word, _, cells = words[i].partition("[")
        card = int(card_word)
        if not 1 <= card <= t.cards or len(state.play[s]) == 2:
            raise ValueError(f"seat {s + 1}: card {card} in play")
        mask = 0
        for name in cells[:-1].split(",") if cells != "]" else []:
            mask |= 1 << CELL_NAMES.index(name)
        _check_marks(state, card, mask)
        state.play[s].append(card)
        state.marks[card] = mask
        i += 1
    if state.play[s] != sorted(set(state.play[s])):
        raise ValueError(f"seat {s + 1}: cards in play ascending")
    red, green, torches, skulls, done, pts = words[i:i + 6]
    state.red[s], state.green[s], state.skulls[s] = int(red[1:]), int(green[1:]), int(skulls[1:])
    if state.red[s] > GEMS or state.green[s] > GEMS or state.skulls[s] > t.skull_cap:
        raise ValueError(f"seat {s + 1}: gems at most {GEMS}, skulls at most {t.skull_cap}")
    state.torches[s] = sum(1 << r for r, c in enumerate(torches[2:]) if c == "x")
    if state.torches[s] >> state.round:
        raise ValueError(f"seat {s + 1}: a torch of a round not yet played")
    state.done[s] = _numbers(done[5:])
    if state.done[s] != sorted(set(state.done[s])):
        raise ValueError(f"seat {s + 1}: completed cards ascending")
    if pts != "pts:-":
        for box in pts[4:].split(","):
            state.boxes[s].append((COLOURS.index(box[:3]), int(box[3:])))
        written = [f"{COLOURS[c]}{v}" for c, v in sorted(state.boxes[s],
                                                         key=lambda b: (b[0], -b[1]))]
        if written != pts[4:].split(","):
            raise ValueError(f"seat {s + 1}: boxes by colour (PUR ORA GRN), best first")
        for colour in range(len(COLOURS)):
            done_n = sum(1 for k in state.done[s] if t.colour[k] == colour)
            if 2 * sum(1 for c, _ in state.boxes[s] if c == colour) > done_n:
                raise ValueError(f"seat {s + 1}: more {COLOURS[colour]} boxes than "
                                 "completed cards allow")
    for word in words[i + 6:]:
        key, _, value = word.partition(":")
        if key == "dealt":
            if value == "?":
                state.hidden[s] = DEALT
            else:
                state.dealt[s] = _numbers(value)
                if len(state.dealt[s]) != DEALT or state.dealt[s] != sorted(set(
                        state.dealt[s])):
                    raise ValueError(f"seat {s + 1}: a deal is 4 cards, ascending")
        elif key == "sealed":
            state.sealed[s] = _sealed(value)
        elif key == "now":
            state.now[s] = _numbers(value)
            if not state.now[s] or any(k not in state.done[s] for k in state.now[s]) \
                    or state.now[s] != sorted(set(state.now[s])):
                raise ValueError(f"seat {s + 1}: now: names cards it has not completed, "
                                 "or not ascending")
        elif key == "owed":
            state.owed[s] = int(value)
            if state.owed[s] > len(state.now[s]):
                raise ValueError(f"seat {s + 1}: owes more cards than it completed")
        else:
            state.retired[s] = True
            if state.sealed[s] is not None:
                raise ValueError(f"seat {s + 1}: a retired seat has no sealed move")


def _sealed(value: str) -> Move:
    if ":" not in value:
        a, b = value.split(",")
        return Keep(int(a), int(b))
    move = parse_move(value.replace("+", " +"))
    assert isinstance(move, Mark)
    return move


def _check_marks(state: SilverGoldState, card: int, mask: int) -> None:
    """A card in play's marks: free cells, one group holding the entrance, no tomb (5.2)."""
    t = state.tables
    if not mask:
        return
    if mask & t.walls[card] or mask >> t.tomb[card] & 1:
        raise ValueError(f"card {card}: a wall or the tomb of a card in play is marked")
    group = 1 << t.entrance[card]
    if not mask & group:
        raise ValueError(f"card {card}: marks without its entrance")
    while True:
        more = group | (spread(group) & mask)
        if more == group:
            break
        group = more
    if group != mask:
        raise ValueError(f"card {card}: marks not connected to the entrance (G4)")


def _check_phase(state: SilverGoldState) -> None:
    """What each phase requires of the seats (3, 4, 6, 11)."""
    n = state.players
    setup = state.phase in (DEALING, KEEPING, OFFERING)
    if setup and (state.round, state.turn) != (1, 0):
        raise ValueError(f"set-up phase {PHASES[state.phase]} in r{state.round}.{state.turn} "
                         "(set-up is r1.0)")
    for s in range(n):
        dealt = bool(state.dealt[s] or state.hidden[s])
        should = (state.phase == KEEPING
                  or (state.phase == DEALING and s < state.phase_seat))
        if dealt != should:
            raise ValueError(f"seat {s + 1}: dealt cards {'missing' if should else 'now'}")
        if state.sealed[s] is not None and state.phase not in (KEEPING, MARKING):
            raise ValueError(f"seat {s + 1}: a sealed move outside keep and mark")
        if (state.now[s] or state.owed[s]) and state.phase not in (TAKING, DRAWING, REFILL):
            raise ValueError(f"seat {s + 1}: now:/owed: outside step 3")
        if state.phase in (DEALING, KEEPING) and (state.play[s] or state.done[s]):
            raise ValueError(f"seat {s + 1}: cards in play during set-up")
    if state.phase == OFFERING and state.offer and len(state.offer) >= OFFER_SIZE:
        raise ValueError("offer phase with a full offer")
    if state.phase == REVEAL and state.turn >= TURNS:
        raise ValueError("exp phase after the round's last turn")
    if state.phase in (MARKING, TAKING, DRAWING, REFILL) and state.turn == 0:
        raise ValueError(f"{PHASES[state.phase]} before the round's first expedition card")
    if state.phase == OVER and (state.round, state.turn) != (ROUNDS, TURNS) \
            and not state.all_retired():
        raise ValueError("over before the last turn")
    if state.phase in (TAKING, DRAWING):
        s = state.phase_seat
        if state.retired[s] or state.owed[s] <= 0:
            raise ValueError(f"seat {s + 1} takes no card now")
    if state.phase in (KEEPING, MARKING):
        if not state.deciding_seats():
            raise ValueError(f"{PHASES[state.phase]}: no seat decides (it would be resolved)")
        for s in range(n):
            move = state.sealed[s]
            if move is not None:
                state.sealed[s] = None
                text = state.check_move(s, move)
                if text != str(move):
                    raise ValueError(f"seat {s + 1}: sealed move {str(move)!r} is listed as "
                                     f"{text!r} (G26)")
                state.sealed[s] = move
    if state.phase == TAKING and not state.legal_moves():
        raise ValueError("take: no card to take (G14)")
