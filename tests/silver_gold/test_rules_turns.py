"""Set-up, new cards, pyramid points, scoring and ranking (SILVER-GOLD-RULES.md sections
3, 6-10, 12): rulings G1, G12-G25, G31, and the rulebook's worked example (111 points)."""

from __future__ import annotations

import math
import random

import pytest
from silver_gold.helpers import Seat, build, submit

from sneferu_cli.game import IllegalMove, seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.state import (
    DRAWING,
    KEEPING,
    MARKING,
    OFFERING,
    OVER,
    REFILL,
    REVEAL,
    TAKING,
)

ROUTE_9 = "a1 b1 b2 c2 d2 d3 d4 d5"     # card 9: e5 (the tomb) completes it
ROUTE_15 = "a1 b1 c1 c2 c3 d3 e3 e4"    # card 15
ROUTE_23 = "a1 b1 c1 d1 d2 d3 d4"       # card 23: d5 (a cross) and e5 by D2
ROUTE_33 = "a1 b1 c1 d1 d2 d3 d4 d5"    # card 33
LAST_ROUND = ("D2", "I3", "I3", "V3", "V3", "T4", "L4")


def outcome(state, text):
    GAME.apply_outcome(state, text)


def dealt_game(players, seed=1):
    state = GAME.new_game(players)
    rng = random.Random(seed)
    while state.is_chance_node():
        outcome(state, GAME.sample_outcome(state, rng))
    return state


# ------------------------------------------------------------------ set-up (3, G22)

def test_the_deal_is_one_event_per_seat_uniform_over_4_card_sets():
    state = GAME.new_game(3)
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == math.comb(48, 4) == 194_580
    assert outcomes[0] == ("~deal:1,2,3,4", 1 / 194_580)
    assert GAME.outcome_kind("~deal:9,1,4,7") == "deal"
    assert GAME.canonical_outcome("~deal:9,1,4,7") == "~deal:1,4,7,9"
    outcome(state, "~deal:1,4,7,9")
    assert len(GAME.chance_outcomes(state)) == math.comb(44, 4)
    with pytest.raises(IllegalMove, match="not in the deck"):
        outcome(state, "~deal:1,2,3,5")
    with pytest.raises(IllegalMove, match="expected ~deal"):
        outcome(state, "~offer:2")


@pytest.mark.parametrize(("players", "deck"), [(2, 40), (3, 38), (4, 36)])
def test_set_up_keeps_two_and_lays_out_an_offer_of_four(players, deck):
    state = dealt_game(players)
    assert state.phase == KEEPING and GAME.deciding_seats(state) == tuple(range(players))
    for seat in range(players):
        dealt = state.dealt[seat]
        a, b, c, d = dealt
        # G26 / 3.3: every pair of the four, ascending.
        assert GAME.legal_moves(state, seat) == [
            f"keep {a} {b}", f"keep {a} {c}", f"keep {a} {d}", f"keep {b} {c}",
            f"keep {b} {d}", f"keep {c} {d}"]
    returned = []
    for seat in range(players):
        dealt = state.dealt[seat]
        GAME.apply_move(state, f"keep {dealt[3]} {dealt[0]}", seat)
        returned += dealt[1:3]
    assert state.phase == OFFERING and state.deck_size() == deck + 4
    assert all(state.pool >> k & 1 for k in returned)  # returned cards back in the deck
    # G22: returned cards are never shown: no position names them, nor who returned them.
    back = GAME.from_position(GAME.to_position(state))
    assert "dealt:" not in GAME.to_position(state)
    assert set(returned).isdisjoint(back.visible_cards())
    rng = random.Random(2)
    while state.is_chance_node() and state.phase == OFFERING:
        outcome(state, GAME.sample_outcome(state, rng))
    assert len(state.offer) == 4 and state.deck_size() == deck and state.phase == REVEAL


def test_g22_each_seat_sees_only_its_own_deal_and_not_the_others_keeps():
    state = dealt_game(3)
    mine = state.dealt[1]
    GAME.apply_move(state, f"keep {state.dealt[0][0]} {state.dealt[0][1]}", 0)
    view = seat_view(GAME, state, 1)
    seats = view.split(" | ")[1:]
    assert seats[0].endswith("dealt:?") and seats[2].endswith("dealt:?")
    assert seats[1].endswith("dealt:" + ",".join(map(str, mine)))
    assert "sealed" not in view  # seat 1 has answered; seat 2 is not told (G21, G22)
    assert "sealed:" in seat_view(GAME, state, 0)
    # From the view, seat 2 decides exactly as in the full state.
    back = GAME.from_position(view)
    assert GAME.legal_moves(back, 1) == GAME.legal_moves(state, 1)
    assert GAME.to_position(back) == view


def test_determinize_draws_the_hidden_deals_from_the_unseen_cards():
    state = dealt_game(3)
    back = GAME.from_position(seat_view(GAME, state, 2))
    full = GAME.hidden().determinize(back, 2, random.Random(5))
    GAME.check(full)
    assert full.dealt[2] == state.dealt[2] and all(len(full.dealt[s]) == 4 for s in range(3))
    shown = {k for s in range(3) for k in full.dealt[s]}
    assert len(shown) == 12 and full.deck_size() == 36


# ------------------------------------------------------------------ step 3 (6, G13-G15)

def test_g13_g15_new_cards_in_order_of_the_completed_card_refilled_after_each():
    state = build(Seat(play={23: ROUTE_23}), Seat(play={9: ROUTE_9}), exp=("D2",),
                  offer=(3, 4, 5, 6))
    submit(state, "23:d5,e5", "9:e5")
    # Seat 2 completed card 9, seat 1 card 23: seat 2 chooses first.
    assert (state.phase, state.phase_seat, state.owed) == (TAKING, 1, [1, 1])
    assert GAME.legal_moves(state) == ["take 3", "take 4", "take 5", "take 6", "take deck"]
    GAME.apply_move(state, "take 3")
    assert state.phase == REFILL and state.play[1] == [3]
    assert GAME.chance_outcomes(state)[0] == ("~offer:1", 1 / 42)
    outcome(state, "~offer:10")
    assert (state.phase, state.phase_seat, state.offer) == (TAKING, 0, [4, 5, 6, 10])
    GAME.apply_move(state, "take deck")
    assert state.phase == DRAWING
    assert GAME.chance_outcomes(state)[0] == ("~draw:1", 1 / 41)
    outcome(state, "~draw:11")
    # A take deck leaves no gap: no refill; step 4, then the next turn's reveal.
    assert state.phase == REVEAL and state.play == [[11], [3]]
    assert state.offer == [4, 5, 6, 10] and state.deck_size() == 40


def test_g14_nothing_to_take_means_no_new_card_now_or_later():
    others = [k for k in range(1, 49) if k not in (9, 23)]
    state = build(Seat(play={23: ROUTE_23}, done=tuple(others)), Seat(play={9: ROUTE_9}),
                  exp=("D2",))
    assert state.deck_size() == 0
    submit(state, "23:d5,e5", "9:e5")
    assert state.phase == REVEAL and state.play == [[], []] and state.owed == [0, 0]
    # G12: with no card in play nobody is asked; the turns go on to the end.
    rng = random.Random(1)
    while not state.is_over():
        assert state.is_chance_node()
        outcome(state, GAME.sample_outcome(state, rng))
    assert (state.round, state.turn) == (4, 7)


def test_g31_a_single_legal_move_is_still_asked():
    others = [k for k in range(1, 49) if k not in (9, 23, 30)]
    state = build(Seat(play={23: ROUTE_23}, done=tuple(others)), Seat(play={9: ROUTE_9}),
                  exp=("D2",), offer=(30,))
    submit(state, "23:d5,e5", "9:e5")
    assert state.phase == TAKING and state.phase_seat == 1
    assert GAME.legal_moves(state) == ["take 30"]
    GAME.apply_move(state, "take 30")
    assert state.phase == REVEAL and state.play == [[], [30]]  # G14 for seat 1


def test_g16_no_new_cards_after_the_last_turn():
    state = build(Seat(play={23: ROUTE_23}), Seat(play={9: ROUTE_9}), exp=LAST_ROUND,
                  round=4, offer=(3, 4, 5, 6))
    submit(state, "23:d5 +23:e5", "9:e5")
    assert state.phase == OVER and state.offer == [3, 4, 5, 6] and state.done == [[23], [9]]
    assert GAME.termination(state) == "normal"


def test_g13_a_seat_with_two_new_cards_takes_both_before_the_refill():
    # Seat 1: D2 over 23's cross and tomb, the bonus mark on 7's tomb: two cards, key 7.
    state = build(Seat(play={23: ROUTE_23, 7: "a1 b1 c1 d1 d2 d3 e3 e4"}),
                  Seat(play={9: ROUTE_9}), exp=("D2",), offer=(3, 4, 5, 6))
    submit(state, "23:d5,e5 +7:e5", "9:e5")
    assert state.done == [[7, 23], [9]] and state.owed == [2, 1]
    assert (state.phase, state.phase_seat) == (TAKING, 0)
    GAME.apply_move(state, "take 3")
    assert (state.phase, state.phase_seat, state.offer) == (TAKING, 0, [4, 5, 6])
    GAME.apply_move(state, "take 6")
    assert state.phase == REFILL and state.play[0] == [3, 6]
    outcome(state, "~offer:10")
    outcome(state, "~offer:11")
    assert (state.phase, state.phase_seat, state.offer) == (TAKING, 1, [4, 5, 10, 11])


# ------------------------------------------------------------------ step 4 (7, G17)

def test_g17_claims_of_a_colour_served_by_the_threshold_card():
    # Rulebook: Tomas's 4th purple (card 15) before Sofie's 2nd purple (card 33).
    state = build(Seat(play={15: ROUTE_15}, done=(3, 6, 9), pts=("PUR10",)),
                  Seat(play={33: ROUTE_33}, done=(12,)), exp=("D2",), offer=(1, 2, 4, 5))
    submit(state, "15:e5", "33:e5")
    assert (state.phase, state.phase_seat) == (TAKING, 0)
    GAME.apply_move(state, "take 1")
    outcome(state, "~offer:7")
    GAME.apply_move(state, "take 2")
    outcome(state, "~offer:8")
    assert state.boxes == [[(0, 10), (0, 6)], [(0, 3)]]
    assert state.phase == REVEAL
    assert GAME.to_position(state).count("pts:PUR10,PUR6") == 1


def test_claims_stop_when_the_three_boxes_are_gone_and_the_8th_card_gives_nothing():
    state = build(Seat(play={15: ROUTE_15}, done=(3, 6, 9, 12, 18, 21, 24),
                       pts=("PUR10", "PUR6", "PUR3")),
                  Seat(play={33: ROUTE_33}, done=(27,)), exp=("D2",), offer=(1, 2, 4, 5))
    submit(state, "15:e5", "33:e5")
    GAME.apply_move(state, "take 1")
    outcome(state, "~offer:7")
    GAME.apply_move(state, "take 2")
    outcome(state, "~offer:8")
    assert state.boxes == [[(0, 10), (0, 6), (0, 3)], []]


# ------------------------------------------------------------------ scoring (9, G18-G20)

def test_the_rulebooks_worked_example_totals_111():
    # 7 cards (70) + torches in rounds 1 and 4 (10) + 19 pyramid points (ORA 10, GRN 6 + 3)
    # + 3 pairs and 3 unpaired red gems (18) - 6 for 5 skulls.
    state = build(Seat(done=(1, 4, 2, 5, 8, 11, 3), pts=("ORA10", "GRN6", "GRN3"), red=6,
                       green=3, skulls=5, torches="x--x"),
                  Seat(done=(14, 17), pts=("GRN10",)), exp=LAST_ROUND, round=4,
                  phase="over")
    assert state.points(0) == 111 and state.points(1) == 30
    standings = GAME.standings(state)
    assert [(s.rank, s.scores["points"]) for s in standings] == [(1, 111), (2, 30)]


def test_g18_symbols_of_unfinished_cards_count_g19_scores_may_be_negative():
    state = build(Seat(play={7: "a1 b1 c1"}, red=2, green=1), Seat(skulls=10),
                  exp=LAST_ROUND, round=4, phase="over")
    assert state.points(0) == 5 + 1  # the card's 10 points are lost, its gems are not
    assert state.points(1) == -20


def test_g20_ties_broken_by_the_lowest_completed_card_none_last_then_shared():
    state = build(Seat(done=(5,)), Seat(done=(3,)), Seat(red=10), Seat(green=10),
                  exp=LAST_ROUND, round=4, phase="over")
    assert [s.scores["points"] for s in GAME.standings(state)] == [10, 10, 10, 10]
    assert [s.rank for s in GAME.standings(state)] == [2, 1, 3, 3]


# ------------------------------------------------------------------ chance (12, G23-G25)

def test_g24_expedition_cards_weighted_by_the_copies_left_this_round():
    state = build(Seat(play={7: ""}), Seat(play={9: ""}), exp=("I3",), phase="exp")
    assert GAME.chance_outcomes(state) == [
        ("~exp:D2", 1 / 7), ("~exp:I3", 1 / 7), ("~exp:V3", 2 / 7), ("~exp:T4", 1 / 7),
        ("~exp:L4", 1 / 7), ("~exp:O4", 1 / 7)]
    outcome(state, "~exp:I3")
    assert state.phase == MARKING and state.turn == 2
    state = build(Seat(play={7: ""}), Seat(play={9: ""}), exp=("I3", "I3"), phase="exp")
    with pytest.raises(IllegalMove, match="not left"):
        outcome(state, "~exp:I3")
    state = build(Seat(play={7: ""}), Seat(play={9: ""}), exp=(), phase="exp")
    assert [p for _, p in GAME.chance_outcomes(state)] == [1 / 8, 2 / 8, 2 / 8, 1 / 8,
                                                             1 / 8, 1 / 8]


def test_g24_a_round_reveals_seven_and_the_next_starts_afresh():
    state = build(Seat(play={7: "a1"}), Seat(play={9: "a1"}), exp=LAST_ROUND[:6])
    submit(state, "7:a2", "9:b1")
    assert (state.turn, state.phase) == (6, REVEAL)
    outcome(state, "~exp:L4")
    submit(state, "7:a3", "9:b2")
    assert (state.round, state.turn, state.phase, state.revealed) == (2, 0, REVEAL, [])
    assert len(GAME.chance_outcomes(state)) == 6
    assert "r2.0 exp exp:-" in GAME.to_position(state)


# ------------------------------------------------------------------ retiring (G21)

def test_a_retired_seat_leaves_the_sealed_node_and_the_others_moves_apply():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={9: "a1"}), Seat(play={2: ""}),
                  exp=("I3",))
    GAME.apply_move(state, "2:a1", 2)
    GAME.apply_move(state, "9:b1", 1)
    state.retire(1)  # its pending move is dropped
    assert GAME.deciding_seats(state) == (0,)
    GAME.apply_move(state, "7:c1,d1,e1 +7:c2 +7:d2", 0)
    assert state.phase == REVEAL and state.marks[9] == 1 and state.marks[2] == 1
    assert GAME.standings(state)[1].retired and GAME.standings(state)[1].rank == 3
    state.retire(0)
    state.retire(2)
    assert state.is_over() and GAME.termination(state) == "all-retired"


def test_a_seat_retired_while_taking_new_cards_is_skipped_and_the_offer_refilled():
    state = build(Seat(play={23: ROUTE_23, 7: "a1 b1 c1 d1 d2 d3 e3 e4"}),
                  Seat(play={9: ROUTE_9}), exp=("D2",), offer=(3, 4, 5, 6))
    submit(state, "23:d5,e5 +7:e5", "9:e5")
    GAME.apply_move(state, "take 3")
    state.retire(0)  # owed one more: skipped; the offer is refilled before seat 2
    assert state.phase == REFILL and state.play[0] == [3]
    outcome(state, "~offer:10")
    assert (state.phase, state.phase_seat) == (TAKING, 1)
    # Retired while its card is drawn: it takes no more after it.
    state = build(Seat(play={23: ROUTE_23, 7: "a1 b1 c1 d1 d2 d3 e3 e4"}),
                  Seat(play={9: ROUTE_9}), exp=("D2",), offer=(3, 4, 5, 6))
    submit(state, "23:d5,e5 +7:e5", "9:e5")
    GAME.apply_move(state, "take deck")
    state.retire(0)
    outcome(state, "~draw:10")
    assert (state.phase, state.play[0], state.owed[0]) == (TAKING, [10], 0)
    assert state.phase_seat == 1


def test_a_seat_retired_at_the_keep_returns_its_four_cards():
    state = dealt_game(2)
    lost = state.dealt[1]
    state.retire(1)
    GAME.apply_move(state, GAME.legal_moves(state)[0], 0)
    assert state.phase == OFFERING and state.play[1] == []
    assert all(state.pool >> k & 1 for k in lost)
    GAME.check(state)
