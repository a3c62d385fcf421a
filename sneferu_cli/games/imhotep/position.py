"""Imhotep position notation: the complete state on one line, enough to continue the game.

Thirteen fields separated by single spaces (grammar ``protocol/imhotep-position.lark``;
SPEC.md, "Imhotep", position notation)::

    edition variant round left ships market pyramid temple chamber obelisks cards seats todo

Stones are written as their colours (``K W B G``, seats 1 to 4); the last field is the
state's list of pending work (:data:`.state.TASKS`), next first, so that every reachable
state is written, also in the middle of an unloading, a scoring or a card's effect.
:func:`from_position` rejects a position no game can reach (stones of a colour not 30,
cards not the edition's, a decision for a retired seat, ...) with a NotationError giving
the reason.

>>> from sneferu_cli.games.imhotep.state import new_game
>>> text = to_position(new_game(2))
>>> print(text.replace(" ", "\\n"))
standard
AAAAA
1:-:0
R2-1,R2-2,R2-3,R2-4,R2-5,R2-6,R2-7
-
-,-,-,-
-
-
-
0,0
2,2,2,2,2,2,2,10,2,2,3,3/0,0,0,0,0,0,0,0,0,0,0,0
2,27,0,-,as;3,26,0,-,-
round-card,draw:M1,draw:M2,draw:M3,draw:M4,turn
>>> to_position(from_position(text)) == text
True
"""

from __future__ import annotations

from lark import Token, Tree

from sneferu_cli.game import NotationError
from sneferu_cli.grammar import parse

from .edition import SITES, Edition, standard_edition
from .state import (
    AFTER,
    COLOURS,
    DECISIONS,
    DISCARD,
    DRAW,
    KEEP,
    MARKET,
    OBELISKS,
    PLACE,
    PYR,
    PYRAMID,
    ROUND_CARD,
    ROUND_CLOSE,
    ROUND_END,
    ROUND_NEXT,
    ROUND_START,
    STONE,
    TAKE,
    TASKS,
    TEMPLE,
    TEMPLE_PS,
    TO_DISCARD,
    TO_DISPLAY,
    TO_PAIR,
    TO_SEAT,
    TURN,
    ImhotepState,
    Ship,
    Task,
    ships_of,
)

__all__ = ["from_position", "to_position"]

Node = Tree[Token] | Token

_SIMPLE: dict[int, str] = {ROUND_START: "round-start", ROUND_CARD: "round-card", TURN: "turn",
                           AFTER: "after"}
_ROUND: dict[int, str] = {ROUND_END: "round-end", ROUND_CLOSE: "round-close",
                          ROUND_NEXT: "round-next"}


# --------------------------------------------------------------------------- writing


def to_position(state: ImhotepState) -> str:
    """The position notation of ``state``."""
    ed = state.edition
    codes = state.tables.card_codes
    ships = "/".join(_ship(s) for s in state.ships) or "-"
    market = [codes[k] if k >= 0 else "-" for k in state.display]
    if state.sides[MARKET] == "B":
        market.append("?" if state.mx else "-")
    if state.sides[PYRAMID] == "A":
        pyramid = _stones(state.pyramid)
    else:
        pyramid = "/".join(_stones(p) for p in [*state.pyramids, state.pyramid_edge])
    if state.sides[OBELISKS] == "A":
        obelisks = _counts(state.obelisks)
    else:
        obelisks = f"{_counts(state.waiting)}/{_stones(state.towers)}"
    seats = ";".join(_seat(state, i) for i in range(state.players))
    todo = ",".join(_task(state, t) for t in reversed(state.todo)) or "over"
    fields = [ed.name, state.variant, f"{state.round}:{state.round_card or '-'}:{state.passes}",
              ",".join(state.round_cards_left) or "-", ships, ",".join(market), pyramid,
              _stones(state.temple), _stones(state.chamber), obelisks,
              f"{_counts(state.deck)}/{_counts(state.discard)}", seats, todo]
    return " ".join(fields)


def _stones(seats: list[int]) -> str:
    return "".join(COLOURS[s] for s in seats) or "-"


def _counts(counts: list[int]) -> str:
    return ",".join(map(str, counts))


def _ship(ship: Ship) -> str:
    slots = "".join(COLOURS[s] if s >= 0 else "." for s in ship.slots)
    return f"{ship.name}:{slots}" + (f"@{SITES[ship.site]}" if ship.site >= 0 else "")


def _seat(state: ImhotepState, i: int) -> str:
    codes = state.tables.card_codes
    hand = "+".join(code for code, n in zip(codes, state.hands[i], strict=True)
                    for _ in range(n)) or "-"
    flags = "".join(c for c, on in (("a", state.active == i), ("s", state.start_player == i),
                                     ("l", state.sailer == i), ("r", state.retired[i])) if on)
    return f"{state.sleds[i]},{state.quarries[i]},{state.scores[i]},{hand},{flags or '-'}"


def _task(state: ImhotepState, task: Task) -> str:
    kind = task[0]
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind in _ROUND:
        return _ROUND[kind] + (":deadlock" if task[1] else "")
    if kind == DRAW:
        _, seat, purpose, arg = task
        if purpose == TO_DISPLAY:
            return f"draw:M{arg + 1}"
        if purpose == TO_PAIR:
            return f"draw:pair:{seat + 1}"
        if purpose == TO_SEAT:
            return f"draw:bonus:{seat + 1}"
        return "draw:discard"
    if kind in (STONE, TAKE):
        return f"{'stone' if kind == STONE else 'take'}:{_slot(state, task[-2], task[-1])}"
    if kind == KEEP:
        pair = "+".join(state.tables.card_codes[k] for k in state.pair)
        return f"keep:{task[1] + 1}" + (f":{pair}" if pair else "")
    if kind == PYR:
        return "pyr:" + (_slot(state, task[2], task[3]) if task[2] >= 0 else str(task[1] + 1))
    if kind == TEMPLE_PS:
        return f"temple:{task[1] + 1}"
    if kind == PLACE:
        return f"place:{task[1] + 1}:{SITES[task[2]]}"
    assert kind == DISCARD
    return f"discard:{state.tables.card_codes[task[1]]}"


def _slot(state: ImhotepState, ship: int, slot: int) -> str:
    return f"{state.ships[ship].name}.{slot + 1}"


# --------------------------------------------------------------------------- reading


def from_position(text: str, edition: Edition | None = None) -> ImhotepState:
    """Read a position. ``edition`` must be given unless the position names "standard"."""
    text = text.strip()
    tree = parse("imhotep-position", "position", text, "position")
    name, variant, rnd, left, ships, sites, cards, seats, todo = tree.children
    ed = edition or standard_edition()
    if ed.name != str(name):
        raise NotationError(f"position: written for edition {str(name)!r}, but edition "
                            f"{ed.name!r} is loaded (give the edition file with --edition)")
    rows = _children(seats)
    if not 2 <= len(rows) <= 4:
        raise NotationError(f"position: {len(rows)} seats (Imhotep is for 2 to 4 players)")
    sides, _, wrath = str(variant).partition("+")
    state = ImhotepState(len(rows), sides, bool(wrath), ed)
    _read_round(state, rnd, left)
    _read_ships(state, ships)
    market, pyramid, temple, chamber, obelisks = _children(sites)
    _read_market(state, market)
    _read_pyramid(state, pyramid)
    state.temple = _colours(state, _only(temple), "temple")
    state.chamber = _colours(state, _only(chamber), "burial chamber")
    _read_obelisks(state, obelisks)
    deck, discard = (_numbers(c) for c in _children(cards))
    kinds = len(state.tables.card_codes)
    if len(deck) != kinds or len(discard) != kinds:
        raise NotationError(f"position: the cards field needs {kinds} counts for the deck and "
                            f"{kinds} for the discard pile (one per card kind, edition order)")
    state.deck, state.discard = deck, discard
    flags = [_read_seat(state, i, row) for i, row in enumerate(rows)]
    state.active, state.start_player, state.sailer = (_flagged(flags, c) for c in "asl")
    _read_todo(state, todo)
    _check(state)
    return state


def _children(node: Node) -> list[Node]:
    assert isinstance(node, Tree)
    return list(node.children)


def _only(node: Node) -> str:
    """The text of a node with one token (a rule like ``stones``), or of a token."""
    while isinstance(node, Tree):
        node = node.children[0]
    return str(node)


def _numbers(node: Node) -> list[int]:
    return [int(str(c)) for c in _children(node)]


def _seat_of(state: ImhotepState, text: str, where: str) -> int:
    seat = int(text) - 1
    if seat >= state.players:
        raise NotationError(f"position: {where} names seat {text}, but there are "
                            f"{state.players} seats")
    return seat


def _colours(state: ImhotepState, text: str, where: str) -> list[int]:
    if text == "-":
        return []
    out = [COLOURS.index(c) for c in text]
    if max(out) >= state.players:
        raise NotationError(f"position: {where}: a {COLOURS[max(out)]} stone, but with "
                            f"{state.players} players the colours are {COLOURS[:state.players]}")
    return out


def _card(state: ImhotepState, code: str, where: str) -> int:
    k = state.tables.card_index.get(code, -1)
    if k < 0:
        raise NotationError(f"position: {where}: unknown market card {code!r} (the edition "
                            f"has {' '.join(state.tables.card_codes)})")
    return k


def _read_round(state: ImhotepState, rnd: Node, left: Node) -> None:
    ed = state.edition
    number, card, passes = (str(c) for c in _children(rnd))
    state.round = int(number)
    state.passes = int(passes)
    if state.passes > state.players:
        raise NotationError(f"position: {state.passes} passes in a row with "
                            f"{state.players} seats")
    if state.round > ed.rounds:
        raise NotationError(f"position: round {state.round}, but the game has {ed.rounds}")
    ours = [c.code for c in ed.round_cards if c.players == state.players]
    codes = [str(c) for c in _children(left) if str(c) != "-"]
    if any(c not in ours for c in codes) or codes != [c for c in ours if c in codes]:
        raise NotationError(f"position: the round cards left must be cards for "
                            f"{state.players} players, each once, in the edition's order "
                            f"({','.join(ours)})")
    state.round_cards_left = codes
    revealed = len(ours) - len(codes)
    if card != "-":
        if card not in ours or card in codes:
            raise NotationError(f"position: round card {card} is not a revealed card for "
                                f"{state.players} players")
        state.round_card = card
    if revealed not in (state.round, state.round - 1) or (card != "-"
                                                          and revealed != state.round):
        raise NotationError(f"position: round {state.round} with {revealed} round cards "
                            "revealed")


def _read_ships(state: ImhotepState, node: Node) -> None:
    ships = [c for c in _children(node) if isinstance(c, Tree)]
    if not state.round_card:
        if ships:
            raise NotationError("position: ships but no round card")
        return
    if not ships:  # returned at the round's end (I35); _check sees that the round ended
        return
    expected = ships_of(state.edition.round_card(state.round_card).ships, state.edition)
    names = [str(_children(s)[0]) for s in ships]
    if names != [s.name for s in expected]:
        raise NotationError(f"position: round card {state.round_card} shows the ships "
                            f"{' '.join(s.name for s in expected)}, not {' '.join(names)}")
    docked: set[int] = set()
    for ship, node_ in zip(expected, ships, strict=True):
        parts = [str(c) for c in _children(node_)]
        slots = parts[1]
        if len(slots) != ship.capacity:
            raise NotationError(f"position: ship {ship.name} has {ship.capacity} slots, "
                                f"not {len(slots)}")
        ship.slots = [-1 if c == "." else _colours(state, c, f"ship {ship.name}")[0]
                      for c in slots]
        if len(parts) > 2:
            ship.site = SITES.index(parts[2])
            if ship.site in docked:
                raise NotationError(f"position: two ships docked at site {parts[2]}")
            docked.add(ship.site)
    state.ships = expected


def _read_market(state: ImhotepState, node: Node) -> None:
    entries = [_only(c) for c in _children(node)]
    side_b = state.sides[MARKET] == "B"
    n = len(state.display) + side_b
    if len(entries) != n:
        raise NotationError(f"position: the market has {len(entries)} entries, need {n}"
                            + (" (the face-up cards, then ? or - for the pair MX)"
                               if side_b else ""))
    if side_b:
        state.mx = entries.pop() == "?"
    for i, code in enumerate(entries):
        if code == "?":
            raise NotationError(f"position: market M{i + 1} is ?, but only side B's last "
                                "entry (MX) may be")
        state.display[i] = -1 if code == "-" else _card(state, code, f"market M{i + 1}")


def _read_pyramid(state: ImhotepState, node: Node) -> None:
    parts = [_only(c) for c in _children(node)]
    if state.sides[PYRAMID] == "A":
        if len(parts) != 1:
            raise NotationError("position: side A has one pyramid (its stones in fill order)")
        state.pyramid = _colours(state, parts[0], "pyramid")
        return
    codes = state.tables.pyramid_codes
    if len(parts) != len(codes) + 1:
        raise NotationError(f"position: side B pyramids: need {len(codes) + 1} parts "
                            f"({'/'.join(codes)}/edge)")
    for p, code in enumerate(codes):
        stones = _colours(state, parts[p], f"pyramid {code}")
        room = len(state.edition.pyramids_b.pyramids[p].slots)
        if len(stones) > room:
            raise NotationError(f"position: pyramid {code} holds {len(stones)} stones, "
                                f"it has {room} slots")
        state.pyramids[p] = stones
    state.pyramid_edge = _colours(state, parts[-1], "pyramid edge")
    if state.pyramid_edge and state._pyramid_free():
        raise NotationError("position: stones at the pyramids' edge while a pyramid has a "
                            "free slot")


def _read_obelisks(state: ImhotepState, node: Node) -> None:
    parts = _children(node)
    counts = _numbers(parts[0])
    if len(counts) != state.players:
        raise NotationError(f"position: obelisks: {len(counts)} counts for {state.players} "
                            "seats")
    if state.sides[OBELISKS] == "A":
        if len(parts) > 1:
            raise NotationError("position: side A obelisks are heights only (no towers)")
        state.obelisks = counts
        return
    if len(parts) < 2:
        raise NotationError("position: side B obelisks need waiting stones/towers")
    ob = state.edition.obelisks
    state.waiting = counts
    state.towers = _colours(state, _only(parts[1]), "obelisk towers")
    if len(state.towers) > len(ob.towers_b):
        raise NotationError(f"position: {len(state.towers)} obelisk towers, there are "
                            f"{len(ob.towers_b)} tower spaces")
    if len(state.towers) < len(ob.towers_b) and max(counts) >= ob.tower_stones_b:
        raise NotationError(f"position: {max(counts)} stones waiting at the obelisks make a "
                            "tower while a tower space is free")


def _read_seat(state: ImhotepState, i: int, row: Node) -> str:
    """Read seat ``i``'s record; return its flags."""
    sled, quarry, score, hand, flags = _children(row)
    who = f"position: seat {i + 1}"
    state.sleds[i] = int(str(sled))
    state.quarries[i] = int(str(quarry))
    state.scores[i] = int(str(score))
    if state.sleds[i] > state.edition.sled_capacity:
        raise NotationError(f"{who}: {state.sleds[i]} stones on the sled, it holds "
                            f"{state.edition.sled_capacity}")
    kinds = [_card(state, str(c), f"seat {i + 1}'s cards") for c in _children(hand)
             if str(c) != "-"]
    if kinds != sorted(kinds):
        raise NotationError(f"{who}: cards must be listed in the edition's order")
    held = [kinds.count(k) for k in range(len(state.tables.card_codes))]
    red = [state.tables.card_codes[k] for k, n in enumerate(held)
           if n and state.tables.red_site[k] >= 0]
    if red:
        raise NotationError(f"{who}: holds red card {red[0]}, but red cards act at once")
    state.hands[i] = held
    fl = _only(flags)
    if fl != "-" and fl != "".join(c for c in "aslr" if c in fl):
        raise NotationError(f"{who}: flags {fl!r} must be written once each, in the order "
                            "a s l r")
    state.retired[i] = "r" in fl
    return fl


def _flagged(flags: list[str], flag: str) -> int:
    """The seat whose flags hold ``flag`` (``l``: or -1 when none)."""
    seats = [i for i, fl in enumerate(flags) if flag in fl]
    if len(seats) > 1 or (not seats and flag != "l"):
        what = {"a": "the active player", "s": "the start player", "l": "the last sailer"}
        raise NotationError(f"position: {len(seats)} seats have flag {flag} ({what[flag]}); "
                            f"need {'at most one' if flag == 'l' else 'exactly one'}")
    return seats[0] if seats else -1


def _read_todo(state: ImhotepState, node: Node) -> None:
    tasks = _children(node)
    if isinstance(tasks[0], Token) and tasks[0].type == "OVER":
        state.todo = []
        state.finished = True
        return
    state.todo = [_read_task(state, t) for t in reversed(tasks)]
    state.finished = False


def _read_task(state: ImhotepState, node: Node) -> Task:
    assert isinstance(node, Tree)
    args = [str(c) for c in node.children]
    kind = node.data
    if kind == "task":
        return ({v: k for k, v in _SIMPLE.items()}[args[0]],)
    if kind in ("round_end", "round_close", "round_next"):
        return ({v: k for k, v in _ROUND.items()}[args[0]], int(len(args) > 1))
    if kind == "draw":
        if args[0] == "discard":
            return (DRAW, -1, TO_DISCARD, 0)
        if args[0].startswith("M"):
            slot = int(args[0][1:]) - 1
            if slot >= len(state.display):
                raise NotationError(f"position: todo: draw into {args[0]}, the display has "
                                    f"{len(state.display)} face-up slots")
            return (DRAW, -1, TO_DISPLAY, slot)
        seat = _seat_of(state, args[1], "todo")
        return (DRAW, seat, TO_PAIR if args[0] == "pair:" else TO_SEAT, 0)
    if kind in ("stone", "take") or (kind == "pyr" and "." in args[0]):
        ship, slot = _ship_slot(state, args[0])
        site = state.ships[ship].site
        if kind == "stone":
            return (STONE, ship, slot)
        seat = state.ships[ship].slots[slot]
        want = MARKET if kind == "take" else PYRAMID
        if site != want:
            raise NotationError(f"position: todo: {kind}:{args[0]} but ship "
                                f"{state.ships[ship].name} is not at site {SITES[want]}")
        return (TAKE if kind == "take" else PYR, seat, ship, slot)
    if kind == "keep":
        seat = _seat_of(state, args[0], "todo")
        state.pair = [_card(state, c, "the side-B pair") for c in args[1:]]
        return (KEEP, seat)
    if kind == "discard":
        return (DISCARD, _card(state, args[0], "todo"))
    seat = _seat_of(state, args[0], "todo")
    if kind == "pyr":
        return (PYR, seat, -1, -1)
    if kind == "temple":
        return (TEMPLE_PS, seat)
    return (PLACE, seat, SITES.index(args[1]))


def _ship_slot(state: ImhotepState, text: str) -> tuple[int, int]:
    name, _, n = text.partition(".")
    for i, ship in enumerate(state.ships):
        if ship.name == name:
            slot = int(n) - 1
            if slot >= ship.capacity or ship.slots[slot] < 0:
                raise NotationError(f"position: todo names {text}, an empty or missing slot")
            if ship.site < 0:
                raise NotationError(f"position: todo names {text}, but ship {name} has "
                                    "not sailed")
            return i, slot
    raise NotationError(f"position: todo names ship {name}, which is not a ship of this "
                        "round")


def _check(state: ImhotepState) -> None:
    """Reject what no game can reach: stones and cards not conserved, an impossible task."""
    ed = state.edition
    t = state.tables
    discards = [task[1] for task in state.todo if task[0] == DISCARD]
    state.resolving = discards
    for seat in range(state.players):
        n = state.stones_of(seat)
        if n != ed.stones_per_colour:
            raise NotationError(f"position: {n} stones of colour {COLOURS[seat]} accounted "
                                "for (quarry, sled, ships, sites and the score marker); need "
                                f"{ed.stones_per_colour}")
    for k, code in enumerate(t.card_codes):
        n = (state.deck[k] + state.discard[k] + state.display.count(k)
             + sum(h[k] for h in state.hands) + state.resolving.count(k) + state.pair.count(k))
        if n != t.card_counts[k]:
            raise NotationError(f"position: {n} {code} cards accounted for (deck, discard, "
                                f"display, hands, pair, being resolved); the edition has "
                                f"{t.card_counts[k]}")
    if state.mx and state.sides[MARKET] != "B":
        raise NotationError("position: the pair MX is only on side B of the market")
    keeps = sum(1 for task in state.todo if task[0] == KEEP)
    if keeps > 1 or len(state.pair) > ed.market.pair_b:
        raise NotationError("position: more than one side-B pair being kept")
    for task in state.todo:
        if task[0] == PYR and state.sides[PYRAMID] != "B":
            raise NotationError("position: a pyramid choice (pyr) but the pyramid is side A")
        if task[0] == TEMPLE_PS and state.sides[TEMPLE] != "B":
            raise NotationError("position: a temple choice but the temple is side A")
        if task[0] == PLACE and task[2] == MARKET:
            raise NotationError("position: a red card's stone cannot go to the market")
    if state.round_card and not state.ships and not any(
            task[0] in (ROUND_CLOSE, ROUND_NEXT) for task in state.todo):
        raise NotationError(f"position: round card {state.round_card} but no ships, and the "
                            "round has not ended")
    if not state.todo:
        return
    top = state.todo[-1]
    if top[0] in DECISIONS:
        seat = state.active if top[0] == TURN else top[1]
        if state.retired[seat]:
            raise NotationError(f"position: seat {seat + 1} decides next but is retired")
        if top[0] == KEEP and not state.pair:
            raise NotationError("position: a pair to keep, but no card drawn")
    elif top[0] == ROUND_CARD:
        if not state.round_cards_left or state.round_card:
            raise NotationError("position: a round card is due, but none is left or this "
                                "round's card is already revealed")
    elif top[0] == DRAW:
        if not sum(state.deck):
            raise NotationError("position: a card is to be drawn, but the deck is empty")
    else:
        raise NotationError("position: the next task must be a decision or a chance event "
                            f"(it is {TASKS[top[0]]})")
