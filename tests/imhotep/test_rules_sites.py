"""The sites, side A (IMHOTEP-RULES.md section 6; I7, I8, I10, I11, I12)."""

from __future__ import annotations

import pytest
from imhotep.helpers import B, G, K, W, card, dock_others, fill, moves, play, put, start

from sneferu_cli.games.imhotep.edition import standard_edition
from sneferu_cli.games.imhotep.state import (
    chamber_groups,
    place_points,
    size_points,
    temple_visible,
)

PYRAMID_A = [2, 1, 3, 2, 4, 3, 2, 1, 3, 2, 3, 1, 3, 4] + [1] * 6


def test_pyramid_points_in_fill_order_then_one_each():
    """6.2, I10: 2,1,3,2,4,3,2,1,3,2,3,1,3,4, then 1 point per further stone, no limit."""
    state = start()
    gained = []
    for _ in range(5):
        state.ships[0].site = -1  # 4A sails again (a test shortcut)
        put(state, "4A", K, K, K, K)
        before = state.scores[K]
        seat = state.current_seat()
        state.sleds[seat] = 0  # keep the test to sailing
        play(state, "S 4A P")
        gained.append(state.scores[K] - before)
    assert gained == [sum(PYRAMID_A[i:i + 4]) for i in range(0, 20, 4)]
    assert len(state.pyramid) == 20 and state.stones_on(1) == 20


def test_pyramid_bow_to_stern_each_stone_to_its_owner():
    """5.3, I8: unloaded from the bow, empty slots skipped; points to each stone's owner."""
    state = start()
    put(state, "4A", W, -1, K, W)
    play(state, "S 4A P")
    assert state.pyramid == [W, K, W]
    assert state.scores == [1, 2 + 3]


@pytest.mark.parametrize("w,n,visible,columns", [
    (5, 7, [2, 3, 4, 5, 6], [3, 4, 5, 1, 2]),
    (4, 7, [3, 4, 5, 6], [4, 1, 2, 3]),
    (5, 3, [0, 1, 2], [1, 2, 3]),
    (4, 0, [], []),
])
def test_temple_geometry(w, n, visible, columns):
    """I11: stone k in column (k mod w) + 1, height k // w + 1; visible: the last min(n, w)."""
    assert list(temple_visible(n, w)) == visible
    assert [k % w + 1 for k in visible] == columns


def test_temple_rulebook_example_and_scoring():
    """6.3, I11: with 4 players (w = 5), a ship of brown, brown, white: the first brown
    completes level 1 (column 5), the next two start level 2 from the left (columns 1, 2);
    at the round's end each visible stone scores 1 for its owner."""
    state = start(4, card="R4-2")
    fill(state, state.temple, G, K, K, G)
    dock_others(state, "3A", "OCM")
    put(state, "3A", B, B, W)
    play(state, "S 3A T")
    assert state.temple == [G, K, K, G, B, B, W] and state.temple_width() == 5
    assert [(k % 5 + 1, k // 5 + 1) for k in (4, 5, 6)] == [(5, 1), (1, 2), (2, 2)]
    assert state.round == 2  # the fourth ship: the temple has been scored
    assert state.scores == [1, 1, 2, 1]  # visible: K G B | B W on level 2


def test_temple_rulebook_scoring_example():
    """6.3: the rulebook's scoring: grey 2 (two visible stones), white, brown, black 1 each;
    stones from earlier rounds still visible score again."""
    state = start(4, card="R4-2")
    fill(state, state.temple, W, W, W, G, W, B, K, G)
    dock_others(state, "2A", "OCT")
    put(state, "2A", -1, -1)
    state.ships[-1].site = -1
    put(state, "2A", W)
    play(state, "S 2A M", "take M1")
    assert state.scores == [1, 1, 1, 2] and state.round == 2


def test_temple_two_players_is_four_wide():
    """6.3: width 4 with 2 players."""
    state = start(2)
    assert state.temple_width() == 4
    fill(state, state.temple, K, K, W, W, K)  # visible: W W K (k=1..4 -> K W W K)
    dock_others(state, "2B", "OTM")
    put(state, "2B", W)
    play(state, "Q", "S 2B C")
    assert state.scores == [2, 2]


def test_burial_chamber_groups_rulebook_example():
    """6.4: groups of orthogonally adjacent stones score 1, 3, 6, 10, 15, +2 each beyond;
    rulebook 4-player example: white 3 (2 stones), black 1, brown 6 + 1, grey 17 (6)."""
    # Columns of three from the top left: G G G | G G B | G B B | W W K | B
    chamber = [G, G, G, G, G, B, G, B, B, W, W, K, B]
    groups = sorted(chamber_groups(chamber, 3))
    assert groups == [(K, 1), (W, 2), (B, 1), (B, 3), (G, 6)]
    state = start(4, card="R4-2")
    state.chamber = chamber
    assert state.final_points() == [1, 3, 7, 17]


def test_chamber_groups_do_not_join_diagonally_or_across_columns_ends():
    """6.4: diagonal contact does not count; the bottom of a column does not touch the top
    of the next."""
    # K W K / W K . / W K .  (rows): K at column 1 top touches K at column 2 diagonally only;
    # W at column 1 bottom does not touch W at column 2 top.
    assert sorted(chamber_groups([K, W, W, W, K, K, K], 3)) == [(K, 1), (K, 1), (K, 2),
                                                               (W, 1), (W, 2)]


@pytest.mark.parametrize("size,points", [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 17),
                                         (9, 23)])
def test_group_points(size, points):
    ed = standard_edition()
    assert size_points(size, ed.chamber.group_points, ed.chamber.group_points_beyond) == points


@pytest.mark.parametrize("heights,points", [
    ([3, 4, 0, 3], [7, 15, 0, 7]),  # rulebook: floor((10 + 5) / 2) = 7
    ([5, 2], [10, 1]),
    ([2, 2], [5, 5]),  # floor((10 + 1) / 2)
    ([0, 0, 1], [0, 0, 12]),
    ([1, 1, 1], [6, 6, 6]),  # floor((12 + 6 + 1) / 3)
    ([2, 1, 1, 1], [15, 5, 5, 5]),  # floor((10 + 5 + 1) / 3)
    ([1, 1, 0, 0], [12, 12, 0, 0]),  # floor((15 + 10) / 2); no stone, no part
])
def test_obelisk_places_and_ties(heights, points):
    """6.5, I12: tied players share the sum of their places, each the floor; a player with
    no stone takes no part."""
    table = standard_edition().obelisks.points[len(heights) - 2]
    assert place_points(heights, table) == points


def test_obelisks_score_at_the_end():
    state = start(4, card="R4-2")
    put(state, "3A", K, W, K)
    play(state, "S 3A O")
    assert state.obelisks == [2, 1, 0, 0] and state.scores == [0, 0, 0, 0]
    assert state.final_points() == [15, 10, 0, 0]


def test_market_owners_choose_in_ship_order():
    """6.1, I8, I9: the rulebook's example: white, brown, grey choose in ship order, each
    stone going back to its quarry right after its card (I7); the active player is black."""
    state = start(4, card="R4-2", display=("LEV", "SAI", "STA", "DEO"))
    put(state, "4A", W, -1, B, G)
    quarries = state.quarries[:]
    play(state, "S 4A M")
    assert state.current_seat() == W and state.active == K
    play(state, "take M2")
    assert state.quarries[W] == quarries[W] + 1 and state.ships[0].slots[0] == -1
    assert state.current_seat() == B and moves(state) == ["take M1", "take M3", "take M4"]
    play(state, "take M3")
    assert state.current_seat() == G
    play(state, "take M1")
    assert state.current_seat() == W and state.active == W  # next turn
    assert state.hands[W][card(state, "SAI")] == 1
    assert state.hands[B][card(state, "STA")] == 1
    assert state.hands[G][card(state, "LEV")] == 1
    assert state.display == [-1, -1, -1, card(state, "DEO")]
    assert state.quarries == [quarries[0], quarries[1] + 1, quarries[2] + 1, quarries[3] + 1]


def test_market_stone_finds_no_card():
    """6.1, I31: with no card left at the market the stone just returns, nothing asked."""
    state = start(2)
    for i, k in enumerate(state.display):
        state.hands[K][k] += 1
        state.display[i] = -1
    put(state, "2A", W)
    play(state, "S 2A M")
    assert state.current_seat() == W and state.ships[2].slots == [-1, -1]
    assert state.quarries[W] == 26 and state.cards_in_play() == 34
