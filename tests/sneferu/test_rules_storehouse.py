"""The storehouse (rules 4.6, 4.0, R3, R5) and the room in the pyramid (4.1)."""

from __future__ import annotations

import pytest
from positions import Seat, build, legal, levels_below, moves, placements, play

from sneferu_cli.games.sneferu.components import Stone
from sneferu_cli.games.sneferu.move import parse_action
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import END


def test_a_stored_stone_is_placed_at_the_start_of_a_later_turn():
    """4.6, 4.0: placed for free before the buy, gaining food as in 4.5 (icon under 1.2)."""
    state = build([Seat(space=10, store="BT"), Seat(space=40)], offer=["MG", "", "", ""])
    assert {"BT@1.2 1.1 MG@1.1", "1.1 MG@1.1"} <= moves(state)
    play(state, "BT@1.2 1.1 MG@1.1")
    p = state.players[0]
    assert p.store == [] and p.pyramid.count == 2 and p.food == 6 + 1


def test_only_stones_in_the_storehouse_can_be_placed_before_the_buy():
    """4.0: a placement before the buy must be of a stored stone."""
    state = build([Seat(space=10, store="BT"), Seat(space=40)], offer=["MG", "", "", ""])
    with pytest.raises(IllegalAction, match="no MG in the storehouse"):
        play(state, "MG@1.1 1.1 BT@1.2")


def test_a_stone_stored_this_turn_waits_for_a_later_turn():
    """4.6: the stone set aside is not placed in the turn it was bought."""
    state = build([Seat(space=14), Seat(space=40)], offer=["BT", "", "", ""],
                  tiles={14: "STOREHOUSE"})
    before = to_position(state)
    with pytest.raises(IllegalAction, match="the turn is already over"):
        play(state, "1.1 store BT@1.1")
    assert to_position(state) == before
    play(state, "1.1 store", "~GA")
    assert state.seat == 0 and state.start_space == 18
    play(state, "BT@1.2 1.1 GA@1.1")
    assert state.players[0].pyramid.count == 2 and state.players[0].food == 6 + 1


def test_stored_stones_may_be_placed_after_the_turn_that_reaches_40():
    """R5, 4.6: after the turn that brings the boat to space 40, stored stones are placed."""
    state = build([Seat(space=39, store="MG"), Seat(space=40)], offer=["", "", "", "TA"])
    assert legal(state, "4.1 TA@1.1") and legal(state, "4.1 TA@1.1 MG@1.2")
    play(state, "4.1 TA@1.1 MG@1.2")
    p = state.players[0]
    assert p.space == 40 and p.pyramid.count == 2 and p.food == 6 - 3 + 1


def test_a_stone_stored_in_the_turn_that_reaches_40_may_be_placed_after_it():
    """R5, 4.6 ("after your turn that brings your boat to space 40"): this applies to a
    stone stored in that very turn too: the turn is over when it is placed."""
    state = build([Seat(space=37), Seat(space=40)], offer=["", "BA", "", ""],
                  tiles={37: "STOREHOUSE"})
    assert all(legal(state, m) for m in ("2.1 store", "2.1 store BA@1.1", "2.1 BA@1.1"))
    assert "2.1 store" in moves(state)  # storing and placing after = placing (SPEC 2.7)
    play(state, "2.1 store BA@1.2")
    p = state.players[0]
    assert (p.space, p.food, p.pyramid.count, p.store) == (40, 6 - 1 + 1, 1, [])


def test_a_stone_still_stored_at_the_end_does_not_count():
    """4.6, R6: stones still stored at the end are not in the pyramid."""
    state = build([Seat(space=39, store="MG"), Seat(space=40, food=3, pyramid="BT@1.1")],
                  offer=["", "", "", "TA"])
    play(state, "4.1 TA@1.1", "~BT")
    assert state.is_over()
    assert [(s.rank, s.stones) for s in state.ranking()] == [(1, 1), (1, 1)]
    assert state.players[0].store == [Stone.MG]


def test_stored_stones_may_be_placed_after_the_forced_end():
    """R5, 4.1: after the forced end the stored stone may still be placed."""
    state = build([Seat(space=30, food=0, store="MG"), Seat(space=40)],
                  offer=["", "TA", "", ""])
    legal = moves(state)
    assert {"end", "end MG@1.2", "MG@1.1 end", "MG@1.2 2.1 TA@1.1"} <= legal
    assert "MG@1.2 end" not in legal  # the icon's food makes 2.1 affordable (R3)
    play(state, "end MG@1.2")
    p = state.players[0]
    assert (p.space, p.food, p.pyramid.count) == (40, 5 * 10 + 1, 1)
    assert state.is_over()


def test_a_placement_before_the_buy_can_avoid_the_forced_end():
    """R3: the stored stone's food makes a stone affordable, so the player must buy."""
    state = build([Seat(space=30, food=0, store="MG"), Seat(space=40)],
                  offer=["", "TA", "", ""])
    assert END in state.legal_steps() and parse_action("MG@1.2") in state.legal_steps()
    state.apply(parse_action("MG@1.2"))
    assert state.players[0].food == 1
    assert END not in state.legal_steps()
    with pytest.raises(IllegalAction, match="must buy"):
        state.apply(END)


def test_stored_stones_are_placed_after_a_turn_only_on_space_40():
    """R5, 4.6: away from space 40 a stored stone waits for the start of a turn."""
    state = build([Seat(space=10, builder="Lateef", store="MG"), Seat(space=40, builder="Aya")],
                  offer=["TA", "", "", ""])
    for step in ("1.1", "TA@1.1"):
        state.apply(parse_action(step))
    assert state.phase == Phase.POST  # Lateef's feast is still unused
    assert {str(s) for s in state.legal_steps()} == {"feast", "done"}
    with pytest.raises(IllegalAction, match="R5"):
        play(state, "MG@1.2")


def test_placed_and_stored_stones_share_the_21_slots():
    """4.1: placed + stored = 21 means no room: the forced end, even with food to spare."""
    full = placements(levels_below(6))  # 20 stones: levels 1-5
    state = build([Seat(space=10, food=30, pyramid=full, store="MG"), Seat(space=40)])
    listed = moves(state)
    assert listed == {"end", "GM@6.1 end", "MG@6.1 end"}  # one per outcome (SPEC 2.7)
    assert all(legal(state, m) for m in ("end MG@6.1", "end GM@6.1"))
    play(state, "MG@6.1 end")
    p = state.players[0]
    assert (p.space, p.food, p.pyramid.count) == (40, 30 + 5 * 30 + 3, 21)
