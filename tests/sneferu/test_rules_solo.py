"""Solo mode against Ptah (rules section 6, R7, R8, R10; SPEC 2.5, 2.6)."""

from __future__ import annotations

import pytest
from positions import Seat, build, moves, placements, play

from sneferu_cli.games.sneferu.components import Stone
from sneferu_cli.games.sneferu.position import to_position

SLOTS = [(n, k) for n in range(1, 7) for k in range(1, 8 - n)]


def ptah_field(state) -> str:
    return to_position(state).split()[5]


def test_ptah_takes_matching_bottom_stones_for_each_quarry_left_or_passed():
    """6, R7: from 3 to 7 the boat leaves basalt 3 and passes Tura 5 (not Mokattam 7, where
    it ends). Ptah takes the bottom stones of those colours, column 1 (bought) excepted; a
    column slides at once, so Tura 5 sees column 2's new bottom stone."""
    state = build([Seat(space=3)], offer=["GABT", "BMTGMA", "TAMG", "MGBT"])
    play(state, "1.1 GA@1.1")
    assert ptah_field(state) == "BMTGTA"
    assert state.offer == [[Stone.BT], [Stone.MA], [Stone.MG], [Stone.MG, Stone.BT]]
    assert to_position(state).endswith(" draw:1,2,2,3")  # yours first, then Ptah's in order
    play(state, "~BA", "~BA", "~BA", "~BA")
    assert state.offer[1] == [Stone.MA, Stone.BA, Stone.BA]


def test_the_quarry_where_the_boat_ends_does_not_count():
    """R7: quarries q with start <= q < end: arriving on a quarry is not leaving it."""
    state = build([Seat(space=4)], offer=["TM", "TG", "TA", "MG"])
    play(state, "4.1 MG@1.1")  # 4 -> 5 (Tura)
    assert ptah_field(state) == "-" and state.ptah_total == 0


def test_timefood_extra_space_counts_for_ptah():
    """6, R8: Ptah looks after the pay step and TIMEFOOD's extra space: 12 -> 15 passes 14."""
    offer = ["BT", "MA", "TA", "TG"]
    plain = build([Seat(space=12)], offer=offer, tiles={12: "TIMEFOOD"})
    play(plain, "3.1 TA@1.1")  # 12 -> 14: gold 12 only
    assert ptah_field(plain) == "MA"
    bonus = build([Seat(space=12)], offer=offer, tiles={12: "TIMEFOOD"})
    play(bonus, "3.1+ TA@1.1")  # 12 -> 15: gold 12, then basalt 14
    assert ptah_field(bonus) == "BTMA"
    assert bonus.players[0].food == 6 - 2 + 3


def test_the_forced_end_does_not_trigger_ptah():
    """R8: the forced end's movement to space 40 takes no stones for Ptah."""
    state = build([Seat(space=20, food=0, pyramid="TM@1.1")], offer=["", "GA", "MA", "TG"])
    assert moves(state) == {"end"}
    play(state, "end")  # passes gold 22 ... 37 with GA, MA, TG at the bottoms
    assert state.is_over() and ptah_field(state) == "-"
    assert state.players[0].food == 5 * 20
    assert state.solo_result() == (True, 1, 0, 3 + 100 // 3, "A cleo-pat on the back")


def test_a_boat_that_does_not_move_leaves_no_quarry():
    """6, R8: with SAVETIME to 0 time the boat stays on granite 9: Ptah takes nothing."""
    state = build([Seat(space=9)], offer=["GT", "MG", "BG", "GA"], tiles={9: "SAVETIME"})
    play(state, "4.1+ GA@1.1")
    assert state.players[0].space == 9 and ptah_field(state) == "-"


def test_hebas_sail_back_does_not_trigger_ptah():
    """R8: only the pay step's movement counts; Heba sailing back over Tura 5 does not."""
    state = build([Seat(space=6, builder="Heba")], offer=["TG", "TM", "BT", "GA"])
    play(state, "4.1 GA@1.1h")  # 6 -> 7 -> 5
    assert state.players[0].space == 5 and ptah_field(state) == "-"


def test_after_hebas_sail_back_the_pay_step_counts_from_where_the_boat_is():
    """R7, R8: Heba sails 5 -> 3 before the buy (no Ptah); the pay step 3 -> 4 leaves
    basalt 3, so Ptah takes BM; Tura 5, left by sailing back, does not count."""
    state = build([Seat(space=5, builder="Heba", store="TM")], offer=["TG", "BM", "", "GA"])
    play(state, "TM@1.1h 4.1 GA@1.2")
    assert state.players[0].space == 4 and ptah_field(state) == "BM"


def test_ptah_completing_its_pyramid_wins_at_once():
    """6, SPEC 2.5: Ptah's 21st stone ends the game at once; the bought stone stays unplaced."""
    ptah = "".join(["BG", "BA", "TM", "TG", "TA", "MG", "MA"] * 2 + ["GA"] * 6)
    state = build([Seat(space=3, pyramid="TM@1.1")], offer=["BT", "", "", "GA"], ptah=ptah)
    assert state.ptah_total == 20
    legal = moves(state)
    assert "4.1" in legal and "4.1 GA@1.2" not in legal  # the turn ends with the buy
    play(state, "4.1")
    assert state.is_over() and state.ptah_total == 21
    assert to_position(state).endswith(" over:GA")
    result = state.solo_result()
    assert (result.won, result.stones, result.ptah, result.score) == (False, 1, 21, None)
    assert [s.rank for s in state.ranking()] == [2]


def test_more_stones_than_ptah_wins_at_space_40():
    """6: reaching space 40 with more stones than Ptah wins; score 3 x stones + food // 3 -
    Ptah's stones."""
    state = build([Seat(space=39, food=10, pyramid=placements(SLOTS[:5]))],
                  offer=["", "", "", "BT"], ptah="BMBMBMBMBM")
    play(state, "4.1 BT@1.6", "~BA")
    assert state.is_over()
    result = state.solo_result()
    assert (result.won, result.stones, result.ptah) == (True, 6, 5)
    assert result.score == 3 * 6 + (10 - 3) // 3 - 5
    assert [s.rank for s in state.ranking()] == [1]


def test_a_tie_with_ptah_is_ptahs_win():
    """6: "you win if your pyramid has more stones than Ptah's; a tie is Ptah's win"."""
    state = build([Seat(space=39, food=10, pyramid=placements(SLOTS[:5]))],
                  offer=["", "", "", "BT"], ptah="BMBMBMBMBMBM")
    play(state, "4.1 BT@1.6", "~BA")
    result = state.solo_result()
    assert (result.won, result.stones, result.ptah, result.score) == (False, 6, 6, None)
    assert [s.rank for s in state.ranking()] == [2]


@pytest.mark.parametrize(("stones", "food", "ptah", "score", "title"), [
    (10, 0, 0, 30, "A-noob-is"),  # R10: "up to 30" for the rulebook's "<30"
    (10, 3, 0, 31, "A cleo-pat on the back"),
    (13, 3, 0, 40, "A cleo-pat on the back"),
    (13, 6, 0, 41, "Good, quarry on!"),
    (15, 2, 0, 45, "Good, quarry on!"),
    (15, 3, 0, 46, "Phara-oh yeah!"),
    (16, 6, 0, 50, "Phara-oh yeah!"),
    (17, 0, 0, 51, "Top of the pyramid!"),
    (20, 8, 12, 50, "Phara-oh yeah!"),
    (3, 0, 2, 7, "A-noob-is"),
])
def test_score_and_title_bands(stones, food, ptah, score, title):
    """6, R10: score = 3 x stones + food // 3 - Ptah's stones; every band boundary."""
    ptah_stones = "".join(["BT", "BM", "BG", "BA"] * 5)[:2 * ptah]
    state = build([Seat(space=40, food=food, pyramid=placements(SLOTS[:stones]))],
                  ptah=ptah_stones, turn="over")
    assert state.solo_result() == (True, stones, ptah, score, title)
