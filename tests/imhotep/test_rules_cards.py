"""Market cards (IMHOTEP-RULES.md section 8; I7, I17-I21, I33, I37)."""

from __future__ import annotations

import pytest
from imhotep.helpers import K, W, card, fill, give, moves, play, put, start

from sneferu_cli.game import IllegalMove
from sneferu_cli.games.imhotep.edition import standard_edition
from sneferu_cli.games.imhotep.state import size_points


@pytest.mark.parametrize("code,site", [("ENT", "pyramid"), ("SAR", "chamber"),
                                       ("PAV", "obelisks")])
def test_red_card_places_a_stone_from_the_quarry(code, site):
    """8.1: the stone comes from the quarry to the card's site; the card is discarded."""
    state = start(2, display=(code, "STA", "STA", "STA"))
    put(state, "2A", W)
    quarry = state.quarries[W]
    play(state, "S 2A M", "take M1")
    assert state.quarries[W] == quarry  # the ship's stone back (I7), one placed
    if site == "obelisks":
        assert state.obelisks == [0, 1]
    else:
        assert getattr(state, site) == [W]
    assert state.scores[W] == (2 if site == "pyramid" else 0)
    assert state.discard[card(state, code)] == 1 and not state.resolving
    assert state.hands[W] == [0] * 12


def test_red_card_uses_the_stone_that_brought_it():
    """I7: the stone returns right after its card is taken, before the red card acts."""
    state = start(2, display=("ENT", "STA", "STA", "STA"))
    fill(state, state.temple, *[W] * 25)
    put(state, "2A", W)  # the last one
    assert state.quarries[W] == 0
    play(state, "S 2A M", "take M1")
    assert state.pyramid == [W] and state.quarries[W] == 0


def test_red_card_with_an_empty_quarry_does_nothing():
    """I17: no stone of the colour in the quarry: discarded with no effect, never from the
    sled (here the card comes from a side-B pyramid's CARD bonus, I14)."""
    state = start(2, variant="ABAAA")
    fill(state, state.temple, *[W] * (state.quarries[W] - 1))
    put(state, "2A", W)  # the last one
    sled = state.sleds[W]
    play(state, "S 2A P", "pyr PL bonus")
    assert state.is_chance_node()
    play(state, "~SAR")
    assert state.chamber == [] and state.sleds[W] == sled and state.quarries[W] == 0
    assert state.discard[card(state, "SAR")] == 1 and state.hands[W] == [0] * 12
    assert state.scores[W] == 1 and state.pyramids[0] == [W]


def test_decoration_rulebook_example():
    """8.2: 13 stones in the burial chamber: the chamber decoration scores 4 (I19: all
    stones count, every colour)."""
    state = start(2)
    fill(state, state.chamber, *[K, W] * 6, K)
    base = state.final_points()
    give(state, W, "DEC")
    assert [a - b for a, b in zip(state.final_points(), base, strict=True)] == [0, 4]


def test_decorations_count_every_stone_of_their_site():
    """I19: covered temple stones, pyramid stones at the edge, whole obelisk stacks."""
    state = start(2)
    fill(state, state.temple, *[K] * 11)
    fill(state, state.pyramid, *[W] * 16)
    state.obelisks = [4, 2]
    state.quarries[K] -= 4
    state.quarries[W] -= 2
    base = state.final_points()
    give(state, K, "DET")
    give(state, K, "DEP")
    give(state, K, "DEO")
    assert state.final_points()[K] - base[K] == 3 + 5 + 2


@pytest.mark.parametrize("statues,points", [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15),
                                            (6, 17), (10, 25)])
def test_statue_table(statues, points):
    """8.3: 1, 3, 6, 10, 15, then 2 per further statue (rulebook: 3 statues = 6)."""
    state = start(2)
    base = state.final_points()
    give(state, K, "STA", statues)
    assert state.final_points()[K] - base[K] == points
    m = standard_edition().market
    assert size_points(statues, m.statue_points, m.statue_points_beyond) == points


def test_unplayed_blue_cards_score_one_each():
    """8.4: each unplayed blue card scores 1 point at the end."""
    state = start(2)
    base = state.final_points()
    for code in ("LEV", "HAM", "SAI", "CHI", "CHI"):
        give(state, W, code)
    assert state.final_points()[W] - base[W] == 5


def test_lever_order_is_part_of_the_move():
    """8.4, I20: any order of all the ship's stones; the card is discarded after."""
    state = start(2)
    give(state, K, "LEV")
    put(state, "4A", K, W, K, W)
    play(state, "LEV 4A P 2,4,1,3")
    assert state.pyramid == [W, W, K, K]
    assert state.scores == [3 + 2, 2 + 1]
    assert state.hands[K][card(state, "LEV")] == 0
    assert state.discard[card(state, "LEV")] == 1


def test_lever_lists_each_distinct_result_once():
    """I20, I37: every occupied slot once; listed once per sequence of owners (first order
    in slot-number order); any other order is legal too."""
    state = start(2)
    give(state, K, "LEV")
    put(state, "4A", K, W, -1, W)
    levers = [m for m in moves(state) if m.startswith("LEV 4A P")]
    assert levers == ["LEV 4A P 1,2,4", "LEV 4A P 2,1,4", "LEV 4A P 2,4,1"]
    assert len([m for m in moves(state) if m.startswith("LEV")]) == 3 * 5
    play(state, "LEV 4A P 4,1,2")  # same owners as 2,1,4
    assert state.pyramid == [W, K, W]
    for bad in ("LEV 4A P 1,2", "LEV 4A P 1,2,3", "LEV 4A P 1,1,2,4"):
        state2 = start(2)
        give(state2, K, "LEV")
        put(state2, "4A", K, W, -1, W)
        with pytest.raises(IllegalMove):
            play(state2, bad)


def test_lever_at_the_market_orders_the_choices():
    """I20: at the market the lever's order is also the order of card choice."""
    state = start(2, display=("SAI", "STA", "STA", "STA"))
    give(state, K, "LEV")
    put(state, "2A", K, W)
    play(state, "LEV 2A M 2,1")
    assert state.current_seat() == W
    play(state, "take M1")
    assert state.current_seat() == K


def test_lever_needs_a_sailable_ship():
    state = start(2)
    give(state, K, "LEV")
    put(state, "4A", K, W)
    assert not any(m.startswith("LEV") for m in moves(state))


def test_hammer_takes_then_loads():
    """8.4, I21: take min(3, room, quarry), then load a stone (maybe one just taken)."""
    state = start(2)
    give(state, K, "HAM")
    state.sleds[K] = 0
    state.quarries[K] += 2
    hams = [m for m in moves(state) if m.startswith("HAM")]
    assert hams[:2] == ["HAM 4A.1", "HAM 4A.2"] and len(hams) == 11 and "HAM -" not in hams
    play(state, "HAM 2B.2")
    assert state.sleds[K] == 2 and state.ships[3].slots == [-1, K]
    assert state.discard[card(state, "HAM")] == 1 and not state.resolving


def test_hammer_without_a_free_slot_only_takes():
    """I21: each part when possible: no free slot: ``HAM -`` takes only."""
    state = start(2)
    give(state, K, "HAM")
    for name in ("4A", "3A", "2A", "2B"):
        s = state.ships[state.ship(name)]
        put(state, name, *[W] * s.capacity)
    assert [m for m in moves(state) if m.startswith("HAM")] == ["HAM -"]
    play(state, "HAM -")
    assert state.sleds[K] == 5


def test_hammer_with_a_full_sled_only_loads_and_not_at_all_when_nothing_is_possible():
    """I21: playable when at least one part is possible."""
    state = start(2)
    give(state, K, "HAM")
    state.sleds[K], state.quarries[K] = 5, 24
    play(state, "HAM 3A.1")
    assert state.sleds[K] == 4 and state.quarries[K] == 24
    state = start(2)
    give(state, K, "HAM")
    for name in ("4A", "3A", "2A", "2B"):
        s = state.ships[state.ship(name)]
        put(state, name, *[W] * s.capacity)
    state.sleds[K], state.quarries[K] = 5, 24
    assert not any(m.startswith("HAM") for m in moves(state))


def test_sail_card_loads_then_sails_that_ship():
    """8.4, I21: both parts required; the minimum is checked after loading."""
    state = start(2)
    give(state, K, "SAI")
    put(state, "4A", W)
    assert not any(m.startswith("SAI 4A") for m in moves(state))  # 2 < 3 after loading
    put(state, "4A", W, W)
    sais = [m for m in moves(state) if m.startswith("SAI 4A")]
    assert sais == [f"SAI 4A.{j} {x}" for j in (3, 4) for x in "MPTCO"]
    play(state, "SAI 4A.4 P")
    assert state.pyramid == [W, W, K] and state.scores == [3, 3]
    assert state.discard[card(state, "SAI")] == 1 and state.sleds[K] == 1
    state.sleds[W] = 0
    give(state, W, "SAI")
    assert not any(m.startswith("SAI") and " P" in m for m in moves(state))  # P is taken
    assert not any(m.startswith("SAI") for m in moves(state))  # empty sled


def test_chisel_two_stones_canonical_order():
    """8.4, I21: exactly two stones, on one ship or two; I37: round-card ship order."""
    state = start(2, card="R2-5")  # ships 3A 2A 2B 1A
    give(state, W, "CHI")
    play(state, "Q")
    chis = [m for m in moves(state) if m.startswith("CHI")]
    assert len(chis) == 28 and chis[0] == "CHI 3A.1 3A.2" and chis[-1] == "CHI 2B.2 1A.1"
    play(state, "CHI 1A.1 3A.3")  # the other order is accepted
    assert state.ships[0].slots == [-1, -1, W] and state.ships[3].slots == [W]
    assert state.sleds[W] == 1 and state.discard[card(state, "CHI")] == 1
    give(state, K, "CHI")
    state.sleds[K] = 1
    assert not any(m.startswith("CHI") for m in moves(state))


def test_one_blue_card_is_the_whole_turn():
    """5.4: playing a blue card is the turn's action."""
    state = start(2)
    give(state, K, "CHI")
    play(state, "CHI 4A.1 4A.2")
    assert state.current_seat() == W
