"""Variable builder powers (rules section 7, R3, R9; SPEC 2.2 sail-back)."""

from __future__ import annotations

import pytest
from positions import Seat, build, legal, levels_below, moves, placements, play

from sneferu_cli.games.sneferu.move import Move, legal_moves, parse_action
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import FEAST

LEVELS_1_2 = placements([(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)])  # filler, two levels


def seats(first: Seat, other: str = "Tsekani") -> list[Seat]:
    """``first`` to move and a second builder already on space 40."""
    return [first, Seat(space=40, builder=other)]


def boats(state) -> list[str]:
    return [r.split(",")[2] for r in to_position(state).split()[6].split(";")]


# ------------------------------------------------------------------ Lateef


def test_lateef_feast_before_the_buy():
    """7 Lateef: 2 food for each level holding a stone; before the buy it counts 2 levels."""
    state = build(seats(Seat(space=10, builder="Lateef", pyramid=LEVELS_1_2)),
                  offer=["TM", "", "", ""])
    play(state, "feast 1.1 TM@3.1")
    assert state.players[0].food == 4 + 2 * 2 + 2  # the feast, then the 2-food icon of 3.1
    assert to_position(state).split()[6].split(";")[0].endswith(",f")


def test_lateef_feast_after_the_buy_counts_the_new_level():
    """7 Lateef: "before or after the buy": after placing on level 3, 3 levels count."""
    state = build(seats(Seat(space=10, builder="Lateef", pyramid=LEVELS_1_2)),
                  offer=["TM", "", "", ""])
    assert {"feast 1.1 TM@3.1", "1.1 TM@3.1 feast", "1.1 TM@3.1"} <= moves(state)
    play(state, "1.1 TM@3.1 feast")
    assert state.players[0].food == 4 + 2 + 2 * 3


def test_lateef_feasts_once_per_game():
    """7 Lateef: once per game (flag f)."""
    state = build(seats(Seat(space=10, builder="Lateef", pyramid=LEVELS_1_2, flags="f")),
                  offer=["TM", "", "", ""])
    assert FEAST not in state.legal_steps()
    with pytest.raises(IllegalAction, match="once per game"):
        state.apply(FEAST)
    play(state, "1.1 TM@3.1")
    assert state.phase != Phase.POST  # no after-turn step is left


def test_only_lateef_feasts():
    """7: the feast is Lateef's power."""
    state = build(seats(Seat(space=10, builder="Aya")), offer=["TM", "", "", ""])
    with pytest.raises(IllegalAction, match="only Lateef"):
        state.apply(FEAST)
    state = build([Seat(space=10), Seat(space=40)])
    with pytest.raises(IllegalAction, match="only Lateef"):
        state.apply(FEAST)


def test_the_feast_can_avoid_the_forced_end():
    """R3, 4.1: the feast comes before the forced-end check and can make a stone affordable."""
    state = build(seats(Seat(space=10, food=0, builder="Lateef", pyramid="TM@1.1")),
                  offer=["", "GA", "", ""])
    legal = moves(state)
    assert {"end", "end feast", "feast 2.1 GA@1.2"} <= legal
    assert "feast end" not in legal
    play(state, "feast 2.1 GA@1.2")
    assert state.players[0].food == 0 + 2 - 1 + 1  # feast, price, icon of 1.2


# ------------------------------------------------------------------ Heba


def test_heba_sails_two_back_and_arrives_last():
    """7 Heba: 2 spaces back when placing; she arrives last on that space."""
    state = build([Seat(space=8, order=1, builder="Heba"), Seat(space=8, builder="Aya")],
                  offer=["", "", "GA", ""])
    play(state, "3.1 GA@1.1h", "~BT")  # 8 -> 10, back to 8: now behind Aya
    assert boats(state) == ["8.2", "8.1"] and state.seat == 1
    assert to_position(state).split()[6].split(";")[0].endswith(",h")
    state = build([Seat(space=6, builder="Heba"), Seat(space=9, builder="Aya")],
                  offer=["", "", "", "GA"])
    play(state, "4.1 GA@1.1h", "~BT")  # 6 -> 7, back to 5
    assert boats(state) == ["5.1", "9.1"] and state.seat == 0


def test_heba_does_not_sail_below_space_0():
    """7 Heba: back 2 spaces but not below space 0."""
    state = build(seats(Seat(space=0, builder="Heba")), offer=["", "", "", "GA"])
    play(state, "4.1 GA@1.1h")
    assert state.players[0].space == 0


def test_heba_cannot_sail_from_space_0():
    """SPEC 2.2 (ruling of this implementation): the sail-back needs the boat beyond 0."""
    state = build(seats(Seat(space=0, builder="Heba", store="GA")), offer=["", "", "", "TM"])
    assert "GA@1.1h 4.1 TM@1.2" not in moves(state)
    with pytest.raises(IllegalAction, match="space 0"):
        state.apply(parse_action("GA@1.1h"))


def test_heba_sails_once_and_only_heba_sails():
    """7 Heba: once per game (flag h); the power is hers alone."""
    state = build(seats(Seat(space=10, builder="Heba", flags="h")), offer=["", "", "", "GA"])
    state.apply(parse_action("4.1"))
    assert not [s for s in state.legal_steps() if str(s).endswith("h")]
    with pytest.raises(IllegalAction, match="once per game"):
        state.apply(parse_action("GA@1.1h"))
    state = build(seats(Seat(space=10, builder="Aya")), offer=["", "", "", "GA"])
    state.apply(parse_action("4.1"))
    with pytest.raises(IllegalAction, match="only Heba"):
        state.apply(parse_action("GA@1.1h"))


def test_heba_sailing_off_space_40_has_turns_again():
    """R9: sailing back off space 40 gives Heba turns again; the game is not over."""
    state = build(seats(Seat(space=39, builder="Heba")), offer=["", "", "", "GAMG"])
    play(state, "4.1 GA@1.1h", "~BT")
    assert state.players[0].space == 38 and not state.is_over()
    assert state.seat == 0 and state.start_space == 38


def test_heba_may_sail_back_with_a_stored_stone_after_reaching_40():
    """R5, R9: the stored stone placed after the turn that reaches 40 may carry the sail."""
    state = build(seats(Seat(space=39, builder="Heba", store="MG")), offer=["", "", "", "GA"])
    assert legal(state, "4.1 GA@1.1 MG@1.2h")
    play(state, "4.1 GA@1.1 MG@1.2h", "~BT")
    assert state.players[0].space == 38 and state.seat == 0 and not state.is_over()


def test_sailing_back_before_the_buy_can_avoid_the_forced_end():
    """R3, 4.1: from 38 column 1 (4 time) passes 40; after sailing back to 36 it lands on 40."""
    state = build(seats(Seat(space=38, builder="Heba", store="MG")), offer=["TA", "", "", ""])
    assert parse_action("end") in state.legal_steps()
    play(state, "MG@1.1h 1.1 TA@1.2")
    assert state.players[0].space == 40


def test_heba_may_not_sail_back_after_the_forced_end():
    """4.1 over R9 (SPEC 2.2, ruling of this implementation): the forced end "ends your
    game", so a stored stone placed after it (R5) may not carry the sail-back; R9 applies
    when the boat reached space 40 by a buy."""
    state = build(seats(Seat(space=10, food=0, builder="Heba", store="MG")),
                  offer=["", "TA", "", ""])
    before = to_position(state)
    with pytest.raises(IllegalAction, match="forced end"):
        state.apply_turn(Move.from_str("end MG@1.1h").steps)
    assert to_position(state) == before
    assert "MG@1.1h" not in [str(m) for m in legal_moves(state)]
    play(state, "end MG@1.1")
    p = state.players[0]
    assert (p.space, p.food, p.ended) == (40, 5 * 30, True) and state.is_over()
    assert to_position(state).split()[6].split(";")[0].endswith(",e")


# ------------------------------------------------------------------ Tsekani


def test_tsekani_gains_1_between_two_stones_on_the_same_level():
    """7 Tsekani: +1 for a stone whose left and right neighbours on its level are filled."""
    state = build(seats(Seat(space=10, builder="Tsekani", pyramid="TM@1.2 GA@1.4"), "Aya"),
                  offer=["MG", "", "", ""])
    play(state, "1.1 MG@1.3")
    assert state.players[0].food == 6 + 1
    between = placements([*levels_below(2), (2, 1), (2, 3)])
    state = build(seats(Seat(space=10, builder="Tsekani", pyramid=between), "Aya"),
                  offer=["TA", "", "", ""])
    play(state, "1.1 AT@2.2")
    assert state.players[0].food == 6 + 1 + 1  # Tsekani, and the icon of 2.2 right


def test_tsekani_gains_nothing_at_the_edge_or_beside_one_stone():
    """7 Tsekani: an edge slot has no neighbour on one side; one neighbour is not enough."""
    for pyramid, slot in (("TM@1.2", "1.1"), ("TM@1.5", "1.6"), ("TM@1.2", "1.3"),
                          ("TM@1.4", "1.3")):
        state = build(seats(Seat(space=10, builder="Tsekani", pyramid=pyramid), "Lateef"),
                      offer=["GA", "", "", ""])
        play(state, f"1.1 AG@{slot}")
        assert state.players[0].food == 6, slot


def test_only_tsekani_gains_between_stones():
    """7: the power is Tsekani's alone."""
    state = build([Seat(space=10, pyramid="TM@1.2 GA@1.4"), Seat(space=40)],
                  offer=["MG", "", "", ""])
    play(state, "1.1 MG@1.3")
    assert state.players[0].food == 6


# ------------------------------------------------------------------ Aya


def test_aya_gains_1_for_an_area_of_1():
    """7 Aya: an enclosed area of size 1 gives her 1 food instead of 0."""
    state = build(seats(Seat(space=10, builder="Aya")), offer=["BT", "", "", ""])
    play(state, "1.1 TB@1.1")
    assert state.players[0].food == 4 + 1  # the white half at the left edge
    state = build(seats(Seat(space=10, builder="Aya", pyramid=placements(levels_below(6)))),
                  offer=["MG", "", "", ""])
    play(state, "1.1 MG@6.1")
    assert state.players[0].food == 4 + 3 + 4  # the top icon; 4 areas of 1 close


def test_aya_gains_the_chart_for_larger_areas():
    """7 Aya: only areas of 1 change; the rulebook example's green 4 still gives 7."""
    state = build(seats(Seat(space=10, builder="Aya", pyramid="TB@1.1 BM@1.2 AG@1.3 AB@2.1 "
                                                               "BG@2.2")),
                  offer=["TM", "", "", ""])
    play(state, "1.1 TM@3.1")
    assert state.players[0].food == 4 + 2 + 7 + 1
