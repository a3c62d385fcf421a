"""Step 2, marking (SILVER-GOLD-RULES.md section 5): patterns, single cells, symbols, bonus
marks, completing a card; rulings G3-G12, G26, G29, G30, with hand-built positions."""

from __future__ import annotations

import pytest
from silver_gold.helpers import Seat, build, marked, submit

from sneferu_cli.game import IllegalMove, NotationError, seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.state import MARKING, TAKING, tables_of

# Card 1: E##.. / ...#. / #GR#. / #.F.S / ....T     Card 7: E.X.X / G#..# / S..R. / #.P#. / ..G.T
# Card 20: E##.# / G...# / S.SF. / R##.G / P.S.T    Card 23: E...# / #.#.R / .#... / SGSR# / S.GXT


def moves(state, seat=0):
    return GAME.legal_moves(state, seat)


def test_g3_every_pattern_in_all_its_orientations_on_the_grid():
    t = tables_of(GAME.standard_edition())
    # D2 2 orientations x 20 places, I3 2 x 15, V3 4 x 16, T4 4 x 12, L4 8 x 12, O4 16.
    assert dict(zip(t.codes, map(len, t.placements), strict=True)) == {
        "D2": 40, "I3": 30, "V3": 64, "T4": 48, "L4": 96, "O4": 16}


def test_rulebook_example_card_1_with_i3_and_v3():
    # 5.2 examples: unmarked card 1 with I3: every straight three through a1 meets a wall.
    state = build(Seat(play={1: ""}), Seat(play={2: ""}), exp=("I3",))
    assert moves(state) == ["1:a1"]
    state = build(Seat(play={1: ""}), Seat(play={2: ""}), exp=("V3",))
    assert moves(state) == ["1:a1,a2,b2", "1:a1"]


def test_rulebook_example_card_1_o4_gives_gems_and_torch():
    state = build(Seat(play={1: "a1 a2 b2"}), Seat(play={2: ""}), exp=("V3", "O4"))
    assert "1:b3,c3,b4,c4" in moves(state)
    submit(state, "1:b3,c3,b4,c4", "2:a1")
    assert (state.red[0], state.green[0], state.torches[0]) == (1, 1, 0b1)
    assert marked(state, 1) == "a1 a2 b2 b3 c3 b4 c4"


def test_rulebook_example_card_7_straight_three_over_two_crosses():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("I3",))
    assert "7:c1,d1,e1 +7:c2 +7:d2" in moves(state)
    assert GAME.apply_move(state, "7:e1,c1,d1 +7:d2 +7:c2", 0) == "7:c1,d1,e1 +7:c2 +7:d2"
    GAME.apply_move(state, "2:a1", 1)
    assert marked(state, 7) == "a1 b1 c1 d1 e1 c2 d2"


def test_g4_diagonal_contact_or_the_other_card_does_not_connect():
    state = build(Seat(play={7: "a1 b1", 20: "a1 a2"}), Seat(play={2: ""}), exp=("D2",))
    for text in ("7:c2,d2", "7:a3,b3"):  # c2 touches b1 only diagonally; a3 is card 20's
        with pytest.raises(IllegalMove, match="G4"):
            GAME.apply_move(state, text, 0)
    assert "7:a2,a3" in moves(state) and "20:a3,b3" in moves(state)


def test_first_marking_must_include_the_entrance():
    state = build(Seat(play={7: "", 20: ""}), Seat(play={2: ""}), exp=("D2",))
    with pytest.raises(IllegalMove, match="entrance"):
        GAME.apply_move(state, "7:b1,c1", 0)
    assert moves(state) == ["7:a1,b1", "7:a1,a2", "7:a1", "20:a1,a2", "20:a1"]


def test_g5_the_tomb_by_a_single_cell_completes_the_card():
    state = build(Seat(play={23: "a1 b1 c1 d1 d2 d3 e3 d4"}), Seat(play={2: ""}),
                  exp=("O4",), offer=(3, 4, 5, 6))
    assert "23:e5" not in moves(state)  # e4 is a wall; d5 not marked
    submit(state, "23:d5 +23:e5", "2:a1")
    assert state.done[0] == [23] and state.play[0] == []


def test_g6_skulls_are_added_before_potions_erase():
    # Card 20 row 5: P . S . T. The three a5 b5 c5 hold a potion and a skull.
    state = build(Seat(play={20: "a1 a2 a3 a4"}, skulls=0), Seat(play={2: ""}), exp=("I3",))
    submit(state, "20:a5,b5,c5", "2:a1")
    # a3 gave a skull earlier (not counted: built); now +1 then -2: max(0, 1 - 2) = 0.
    assert state.skulls[0] == 0


def test_g7_a_potion_erases_two_skulls_and_never_below_zero():
    for before, after in [(5, 3), (1, 0), (0, 0)]:
        state = build(Seat(play={20: "a1 a2 a3 a4"}, skulls=before), Seat(play={2: ""}))
        submit(state, "20:a5", "2:a1")
        assert state.skulls[0] == after


def test_skulls_stop_at_ten():
    state = build(Seat(play={20: "a1 a2"}, skulls=10), Seat(play={2: ""}))
    submit(state, "20:a3", "2:a1")
    assert state.skulls[0] == 10


def test_g8_one_torch_box_per_round_only_that_round():
    state = build(Seat(play={20: "a1 a2 b2 c2 c3", 2: "a1 a2 a3"}, torches="x---"),
                  Seat(play={3: ""}), exp=("D2", "I3", "V3"), round=2)
    submit(state, "20:d3", "3:a1")  # round 2: the second box
    assert state.torches[0] == 0b11
    # A second torch in the same round does nothing.
    state = build(Seat(play={20: "a1 a2 b2 c2 c3"}, torches="-x--"), Seat(play={3: ""}),
                  round=2)
    submit(state, "20:d3", "3:a1")
    assert state.torches[0] == 0b10


def test_g9_gems_stop_at_ten():
    state = build(Seat(play={1: "a1 a2 b2", 20: "a1"}, red=10, green=9), Seat(play={3: ""}),
                  exp=("O4",))
    submit(state, "1:b3,c3,b4,c4", "3:a1")
    assert (state.red[0], state.green[0]) == (10, 10)


def test_g10_bonus_marks_are_compulsory_and_follow_the_single_cell_rule():
    state = build(Seat(play={7: "a1 b1", 20: ""}), Seat(play={2: ""}), exp=("I3",))
    with pytest.raises(IllegalMove, match="owed"):
        GAME.apply_move(state, "7:c1,d1,e1", 0)
    with pytest.raises(IllegalMove, match="owed"):
        GAME.apply_move(state, "7:c1,d1,e1 +7:c2", 0)
    with pytest.raises(IllegalMove, match="entrance"):  # on an unmarked card: its entrance
        GAME.apply_move(state, "7:c1,d1,e1 +20:b2 +7:c2", 0)
    with pytest.raises(IllegalMove, match="more bonus"):
        GAME.apply_move(state, "7:c1,d1,e1 +7:c2 +7:d2 +20:a1", 0)
    # Either card; the bonus list of this main marking: c2 d2 on 7, or 20's entrance.
    bonus = [m.split(" ", 1)[1] for m in moves(state) if m.startswith("7:c1,d1,e1 ")]
    assert bonus == ["+7:a2 +7:c2", "+7:a2 +7:d2", "+7:a2 +7:a3", "+7:a2 +20:a1",
                     "+7:c2 +7:d2", "+7:c2 +7:c3", "+7:c2 +20:a1", "+7:d2 +7:d3",
                     "+7:d2 +20:a1", "+20:a1 +20:a2"]


def test_g10_an_x_on_a_bonus_mark_owes_one_more():
    state = build(Seat(play={7: "a1 b1 c1 d1"}), Seat(play={2: ""}), exp=("D2",))
    # e1 (X) by a single cell owes one bonus mark; c1's cross was used when it was marked.
    assert moves(state) == ["7:a2,a3", "7:c2,d2", "7:c2,c3", "7:d2,d3", "7:e1 +7:a2",
                            "7:e1 +7:c2", "7:e1 +7:d2", "7:a2", "7:c2", "7:d2"]
    # A chain: c1 by a single cell owes a mark, made on e1, another cross: one more.
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("O4",))
    assert "7:c1 +7:d1" in moves(state)
    GAME.apply_move(state, "7:c1 +7:d1", 0)
    state = build(Seat(play={7: "a1 b1 c1"}), Seat(play={2: ""}), exp=("O4",))
    assert [m for m in moves(state) if m.startswith("7:d1 ")] == []
    assert "7:d1" in moves(state)


def test_g11_no_mark_on_a_card_completed_in_the_same_move():
    route = "a1 b1 c1 d1 d2 d3 d4"
    state = build(Seat(play={23: route, 1: ""}), Seat(play={2: ""}), exp=("D2",))
    assert [m for m in moves(state) if m.startswith("23:d5,e5")] == ["23:d5,e5 +1:a1"]
    with pytest.raises(IllegalMove, match="G11"):
        GAME.apply_move(state, "23:d5,e5 +23:c5", 0)
    # G12: with no other card in play the owed mark lapses.
    state = build(Seat(play={23: route}), Seat(play={2: ""}), exp=("D2",), offer=(3, 4, 5, 6))
    assert "23:d5,e5" in moves(state)
    submit(state, "23:d5,e5", "2:a1")
    assert state.done[0] == [23] and state.phase == TAKING


def test_g12_a_seat_without_a_card_in_play_is_not_asked():
    state = build(Seat(play={}), Seat(play={2: ""}), Seat(play={3: "a1"}), exp=("D2",))
    assert GAME.deciding_seats(state) == (1, 2) and state.current_seat() == 1
    assert moves(state, 0) == []
    with pytest.raises(IllegalMove, match="no decision"):
        GAME.apply_move(state, "2:a1", 0)


def test_g26_canonical_forms_and_the_first_legal_order_of_bonus_marks():
    assert GAME.canonical_move("17:b3,a3,a2") == "17:a2,a3,b3"
    assert GAME.canonical_move("keep 40 12") == "keep 12 40"
    assert GAME.canonical_move("7:c1,d1,e1 +7:d2 +7:c2") == "7:c1,d1,e1 +7:d2 +7:c2"
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("I3",))
    other = state.clone()
    assert GAME.apply_move(state, "7:c1,d1,e1 +7:d2 +7:c2", 0) == \
        "7:c1,d1,e1 +7:c2 +7:d2"
    GAME.apply_move(other, "7:c1,d1,e1 +7:c2 +7:d2", 0)
    assert GAME.to_position(state) == GAME.to_position(other)


def test_g27_a_move_names_its_card_and_a_card_not_in_play_is_refused():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("I3",))
    with pytest.raises(IllegalMove, match="not one of your cards"):
        GAME.apply_move(state, "2:a1", 0)


def test_g29_one_cell_or_the_pattern_size_nothing_else():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("I3",))
    with pytest.raises(IllegalMove, match="G29"):
        GAME.apply_move(state, "7:c1,c2", 0)
    with pytest.raises(IllegalMove, match="not the I3 pattern"):
        GAME.apply_move(state, "7:c1,c2,d2 +7:d1", 0)
    with pytest.raises(IllegalMove, match="twice"):
        GAME.apply_move(state, "7:c1,c1,d1", 0)


def test_g30_both_cards_may_be_worked_on():
    state = build(Seat(play={7: "a1 b1", 20: "a1 a2"}), Seat(play={2: ""}), exp=("D2",))
    cards = {m.split(":")[0] for m in moves(state)}
    assert cards == {"7", "20"}


def test_every_marking_is_listed_once_in_the_documented_order():
    state = build(Seat(play={1: "a1", 20: ""}), Seat(play={2: ""}), exp=("D2",))
    # Card 1 first: its patterns by their sorted cells, then its single cells; then card 20.
    assert moves(state) == ["1:a2,b2", "1:a2", "20:a1,a2", "20:a1"]


def test_garbage_and_huge_numbers_are_notation_errors():
    for text in ["", "keep", "keep 1", "17:", "17:f1", "17:a1 7:c2", "take", "take 0",
                 "take " + "9" * 5000, "9" * 5000 + ":a1", "keep 1  2", "+7:c2"]:
        with pytest.raises(NotationError):
            GAME.canonical_move(text)


def test_a_sealed_move_changes_nothing_visible_until_all_are_in():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={2: ""}), exp=("I3",))
    before = seat_view(GAME, state, 1)
    GAME.apply_move(state, "7:c1,d1,e1 +7:c2 +7:d2", 0)
    assert seat_view(GAME, state, 1) == before and state.phase == MARKING
    # G1: the lowest seat still to decide is the current one; seat order only orders that.
    assert GAME.deciding_seats(state) == (1,) and state.current_seat() == 1
    assert GAME.legal_moves(state) == GAME.legal_moves(state, 1)
    assert "sealed:7:c1,d1,e1+7:c2+7:d2" in GAME.to_position(state)
    with pytest.raises(IllegalMove, match="no decision"):
        GAME.apply_move(state, "7:c1,d1,e1 +7:c2 +7:d2", 0)


def test_g26_each_set_of_marked_cells_is_listed_once_whatever_the_main_marking():
    # Card 17: E S # S . / . X # # R ...; V3 a1 b1 b2 or a1 a2 b2 covers the cross b2, and
    # the bonus mark (a2, or b1) ends with the same four cells: one move, listed first.
    state = build(Seat(play={17: ""}), Seat(play={2: ""}), exp=("V3",))
    assert moves(state) == ["17:a1,b1,a2", "17:a1,b1,b2 +17:a2", "17:a1,b1,b2 +17:b3",
                            "17:a1,a2,b2 +17:a3", "17:a1,a2,b2 +17:b3", "17:a1"]
    other = state.clone()
    assert GAME.apply_move(state, "17:a1,a2,b2 +17:b1", 0) == "17:a1,b1,b2 +17:a2"
    GAME.apply_move(other, "17:a1,b1,b2 +17:a2", 0)
    assert GAME.to_position(state) == GAME.to_position(other)
    # A sealed move in a position is written as listed.
    text = GAME.to_position(other)
    assert "sealed:17:a1,b1,b2+17:a2" in text
    with pytest.raises(NotationError, match="listed as"):
        GAME.from_position(text.replace("sealed:17:a1,b1,b2+17:a2", "sealed:17:a1,a2,b2+17:b1"))
