"""G26 as revised: two step-2 texts are the same move only when they leave the same state.

Through G6 and G7 the order of skulls and potions decides the skull counter, so two texts
that mark the same cells can leave different counters: a skull and a potion swapped between
the main marking and a bonus mark, or two bonus marks in the other order. Such texts are
different moves, both listed; the one typed is the one whose result is applied, recorded as
the listed text of that result. Texts with the same result are one move, listed once by the
first text in G26's order (main marking: card number, a placement before a single cell
(G29), its cells by row then column; then its bonus marks by card, row, column in the order
made).

The two positions are the outside testers' (cards 43 and 45 of ``sgp-recon-1``); the
property test compares every legal text's resulting state with the listed move it is
recorded as, at every step 2 of seeded random games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from silver_gold.helpers import random_games
from support import decisions_of

from sneferu_cli.game import IllegalMove
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.move import CELL_NAMES, Mark, mark_text, parse_move
from sneferu_cli.games.silver_gold.state import MARKING, SilverGoldState, cells_of, spread

# Seat 2's card 43 reads E G S # S / # . X . . / # # . R P: c2 is a cross, e1 a skull, e3 a
# potion; the current pattern is L4.
FIRST = ("sgp-recon-1 r1.2 mark exp:T4,L4 offer:6,11,16,20 deck:38 "
         "| 1: 28[a1] 45[] R0 G0 F:---- S0 done:- pts:- "
         "| 2: 43[a1,b1,c1,b2] 47[] R0 G1 F:---- S1 done:- pts:- "
         "| 3: 14[] 40[a1] R0 G0 F:---- S0 done:- pts:-")
# Seat 2's card 45 reads E P # S # / # R # . G / # G S X . / . . . . X: the L4 d2 d3 d4 e4
# marks two crosses; its d1 is a skull, card 43's e3 a potion.
SECOND = ("sgp-recon-1 r1.5 mark exp:I3,T4,D2,V3,L4 offer:5,10,16,18 deck:36 "
          "| 1: 8[a1,b1,a2,c2,a3,b3,c3,a4,c4,a5] 19[a1,a2,a3,b3] R1 G1 F:---- S1 done:- pts:- "
          "| 2: 43[a1,b1,c1,e1,c2,d2,e2,d3] 45[a1,b1,b2,b3,c3] R2 G2 F:---- S1 done:- pts:- "
          "| 3: 11[a1,a2,b2,a3,a4,b4,a5] 48[a1,b1,c1,a2,a3] R1 G3 F:---- S2 done:- pts:- "
          "| 4: 20[a1,a2,c2,a3,b3,c3,d3,a4,d4,a5,c5,d5] 47[] R1 G1 F:x--- S1 done:- pts:-")


def _seat_part(state: SilverGoldState, seat: int) -> str:
    return GAME.to_position(state).split(" | ")[seat + 1]


def _play_out(state: SilverGoldState, seat: int, text: str) -> tuple[str, str]:
    """``text`` typed by ``seat``, then every other seat's first listed move: the text
    recorded and the seat's part of the position once all moves took effect."""
    recorded = GAME.apply_move(state, text, seat)
    for other in GAME.deciding_seats(state):
        GAME.apply_move(state, GAME.legal_moves(state, other)[0], other)
    assert state.phase != MARKING
    return recorded, _seat_part(state, seat)


def test_g26_a_potion_in_the_main_marking_then_a_skull_by_bonus_mark_is_its_own_move():
    state = GAME.from_position(FIRST)
    moves = GAME.legal_moves(state, 1)
    # Both main markings cover c2, d2, e2 and the cross c2; one takes the potion e3 first
    # (G6, G7: S1 - 2 = 0, then the skull e1: S1), the other the skull e1 first (S2, then
    # the potion: S0). Same cells, different counters: two moves, both listed, the one
    # with the main marking e1,c2,d2,e2 first (G26: its cells come first by row).
    assert "43:e1,c2,d2,e2 +43:e3" in moves and "43:c2,d2,e2,e3 +43:e1" in moves
    assert moves.index("43:e1,c2,d2,e2 +43:e3") < moves.index("43:c2,d2,e2,e3 +43:e1")
    typed = _play_out(state, 1, "43:c2,d2,e2,e3 +43:e1")
    assert typed == ("43:c2,d2,e2,e3 +43:e1",
                     "2: 43[a1,b1,c1,e1,b2,c2,d2,e2,e3] 47[] R0 G1 F:---- S1 done:- pts:-")
    other = _play_out(GAME.from_position(FIRST), 1, "43:e1,c2,d2,e2 +43:e3")
    assert other == ("43:e1,c2,d2,e2 +43:e3",
                     "2: 43[a1,b1,c1,e1,b2,c2,d2,e2,e3] 47[] R0 G1 F:---- S0 done:- pts:-")


def test_g26_the_order_of_two_bonus_marks_is_kept_when_it_changes_the_skulls():
    state = GAME.from_position(SECOND)
    moves = GAME.legal_moves(state, 1)
    # The skull 45:d1 then the potion 43:e3 ends with S0; the other order with S1. Both
    # are listed; by G26's order the bonus marks on card 43 come first.
    assert moves.index("45:d2,d3,d4,e4 +43:e3 +45:d1") \
        < moves.index("45:d2,d3,d4,e4 +45:d1 +43:e3")
    typed = _play_out(state, 1, "45:d2,d3,d4,e4 +45:d1 +43:e3")
    assert typed == ("45:d2,d3,d4,e4 +45:d1 +43:e3",
                     "2: 43[a1,b1,c1,e1,c2,d2,e2,d3,e3] 45[a1,b1,d1,b2,d2,b3,c3,d3,d4,e4] "
                     "R2 G2 F:---- S0 done:- pts:-")
    other = _play_out(GAME.from_position(SECOND), 1, "45:d2,d3,d4,e4 +43:e3 +45:d1")
    assert other == ("45:d2,d3,d4,e4 +43:e3 +45:d1",
                     "2: 43[a1,b1,c1,e1,c2,d2,e2,d3,e3] 45[a1,b1,d1,b2,d2,b3,c3,d3,d4,e4] "
                     "R2 G2 F:---- S1 done:- pts:-")


def test_g26_texts_with_the_same_result_are_still_one_move():
    # Card 17: E S # S . / . X # # R: V3 a1 b1 b2 then a2, or a1 a2 b2 then b1: one skull
    # either way, the same cells: one move, recorded as the first text of G26's order.
    state = GAME.from_position(FIRST.replace("28[a1] 45[]", "17[] 45[]").replace(
        "exp:T4,L4", "exp:T4,V3"))
    moves = GAME.legal_moves(state, 0)
    assert "17:a1,b1,b2 +17:a2" in moves and "17:a1,a2,b2 +17:b1" not in moves
    assert GAME.apply_move(state, "17:a1,a2,b2 +17:b1", 0) == "17:a1,b1,b2 +17:a2"


def test_g26_markings_that_complete_a_card_with_the_same_counters_are_one_move():
    # Card 4 ends . # R . . / . # . . T: from e3, V3 d4 e4 e5 and e4 d5 e5 both complete
    # it and mark no symbol. The card leaves play with its marks (5.6), so both leave the
    # same state: one move, listed by its first text (G26).
    position = FIRST.replace("28[a1] 45[]", "4[a1,b1,c1,d1,e1,e2,e3] 45[]").replace(
        "exp:T4,L4", "exp:T4,V3").replace("R0 G0 F:---- S0 done:- pts:- | 2", "R0 G1 F:---- "
                                          "S0 done:- pts:- | 2")
    state = GAME.from_position(position)
    moves = GAME.legal_moves(state, 0)
    assert "4:d4,e4,e5" in moves and "4:e4,d5,e5" not in moves
    assert _play_out(state, 0, "4:e4,d5,e5") == (
        "4:d4,e4,e5", "1: 45[] R0 G1 F:---- S0 done:4 pts:- now:4 owed:1")


def _result(state: SilverGoldState, seat: int) -> tuple[Any, ...]:
    """Everything a step-2 move can change for ``seat`` (G26: every counter, mark, torch
    box and completed card)."""
    return (tuple(state.play[seat]), tuple(state.marks[k] for k in state.play[seat]),
            state.red[seat], state.green[seat], state.skulls[seat], state.torches[seat],
            tuple(state.done[seat]), tuple(state.now[seat]))


def _typed_result(state: SilverGoldState, seat: int, text: str) -> tuple[Any, ...]:
    """The rules applied to ``text`` exactly as written, each marking in its place (5.4,
    5.5, G6, G7)."""
    other = state.clone()
    move = parse_move(text)
    assert isinstance(move, Mark)
    other._apply_mark(seat, move)
    return _result(other, seat)


def _every_text(state: SilverGoldState, seat: int) -> list[str]:
    """Every legal step-2 text of ``seat``, each order of bonus marks apart (5.2-5.5,
    G10-G12, G29), written with the main cells sorted: no two prefixes merged."""
    t = state.tables
    cards = state.play[seat]
    texts: list[str] = []

    def bonus(ms: list[int], owed: int, path: list[tuple[int, int]], head: str) -> None:
        open_ = [j for j, c in enumerate(cards) if not ms[j] >> t.tomb[c] & 1]
        if owed == 0 or not open_:
            texts.append(head + "".join(f" +{c}:{CELL_NAMES[k]}" for c, k in path))
            return
        for j in open_:
            c, m = cards[j], ms[j]
            front = (spread(m) if m else 1 << t.entrance[c]) & ~(t.walls[c] | m)
            for k in cells_of(front):
                ms[j] = m | 1 << k
                bonus(ms, owed - 1 + (t.cross[c] >> k & 1), [*path, (c, k)], head)
            ms[j] = m

    for j, card in enumerate(cards):
        m = state.marks[card]
        need = spread(m) if m else 1 << t.entrance[card]
        free = ~(t.walls[card] | m)
        mains = [cells for mask, cells in t.placements[state.pattern()]
                 if mask & free == mask and mask & need]
        mains += [(k,) for k in cells_of(need & free)]
        for cells in mains:
            ms = [state.marks[c] for c in cards]
            mask = sum(1 << k for k in cells)
            ms[j] |= mask
            bonus(ms, (mask & t.cross[card]).bit_count(), [], mark_text(card, cells, ()))
    return texts


def _g26_order(text: str) -> tuple[Any, ...]:
    """G26's order of texts: the main marking by card, a placement before a single cell,
    its cells by row then column; then the bonus marks by card, row, column, in order."""
    move = parse_move(text)
    assert isinstance(move, Mark)
    return (move.card, len(move.cells) == 1, move.cells, move.bonus)


def _check_node(state: SilverGoldState, seat: int) -> int:
    """At a step 2: the listing gives each result once in G26's order, and every legal text
    is recorded as the listed move with its result (the first text of G26's order that
    leads to it), whose state is the one taking effect; the number of texts checked."""
    listed = GAME.legal_moves(state, seat)
    results = {text: _typed_result(state, seat, text) for text in listed}
    assert len(set(results.values())) == len(listed)
    assert listed == sorted(listed, key=_g26_order)
    first: dict[tuple[Any, ...], str] = {}
    texts = sorted(_every_text(state, seat), key=_g26_order)
    for text in texts:
        result = _typed_result(state, seat, text)
        first.setdefault(result, text)
        other = state.clone()
        recorded = GAME.apply_move(other, text, seat)  # legal: no IllegalMove
        assert recorded in results and results[recorded] == result
        assert recorded == first[result]
        assert _result(other.sealed_applied(), seat) == result
    return len(texts)


def test_g26_every_legal_text_of_the_testers_positions_has_its_own_result():
    for position in (FIRST, SECOND):
        assert _check_node(GAME.from_position(position), 1) > 0


@random_games(6)
def test_g26_every_legal_text_is_the_listed_move_with_its_own_result(players, seed):
    rng = random.Random(seed)
    checked = 0
    for state in decisions_of(GAME, GAME.new_game(players), rng):
        seats = GAME.deciding_seats(state)
        if state.phase == MARKING and len(seats) > 1 and state.round % 2:  # bounded
            checked += _check_node(state, seats[0])
        seat = rng.choice(seats)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat, listed=True)
    assert checked > 0


def test_an_illegal_order_of_bonus_marks_is_still_refused():
    state = GAME.from_position(SECOND)
    with pytest.raises(IllegalMove, match="marked already"):
        GAME.apply_move(state, "45:d2,d3,d4,e4 +43:e3 +43:e3", 1)
