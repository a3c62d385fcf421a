"""Side B of the sites (IMHOTEP-RULES.md section 7; I9, I13-I16, I29-I32, I34)."""

from __future__ import annotations

from imhotep.helpers import B, G, K, W, card, dock_others, fill, moves, play, put, start

from sneferu_cli.games.imhotep.state import DRAW, TO_DISCARD


def test_market_b_display_and_pair():
    """7.1, I32: three face-up cards and the face-down pair MX, not drawn yet."""
    state = start(2, variant="BAAAA", display=("STA", "DEP", "LEV"))
    assert state.display == [card(state, "STA"), card(state, "DEP"), card(state, "LEV")]
    assert state.mx and sum(state.deck) == 31 and not state.is_chance_node()


def test_taking_the_pair_draws_two_then_keep_one():
    """I13, I32: taking MX draws two cards (chance), the owner keeps one, the other is
    discarded face up before the kept card acts; the stone went home at the take (I7)."""
    state = start(2, variant="BAAAA", display=("STA", "STA", "STA"))
    put(state, "2A", W)
    quarry = state.quarries[W]
    play(state, "S 2A M")
    assert state.current_seat() == W and moves(state) == [
        "take M1", "take M2", "take M3", "take MX"]
    play(state, "take MX")
    assert state.quarries[W] == quarry + 1 and not state.mx and state.is_chance_node()
    play(state, "~LEV", "~ENT")
    assert state.current_seat() == W and moves(state) == ["keep ENT", "keep LEV"]
    play(state, "keep ENT")
    assert state.discard[card(state, "LEV")] == 1 and state.discard[card(state, "ENT")] == 1
    assert state.pyramid == [W] and state.scores == [0, 2]
    assert state.cards_in_play() == 34 and state.current_seat() == W  # white's turn now


def test_pair_of_one_kind_offers_one_keep():
    """I31: a decision with one option is still asked."""
    state = start(2, variant="BAAAA", display=("STA", "STA", "STA"))
    put(state, "2A", W)
    play(state, "S 2A M", "take MX", "~STA", "~STA")
    assert moves(state) == ["keep STA"]
    play(state, "keep STA")
    assert state.hands[W][card(state, "STA")] == 1 and state.discard[card(state, "STA")] == 1


def test_untaken_pair_is_drawn_and_discarded_at_the_round_end():
    """I13, I32: two chance events after the temple scoring, both cards face up."""
    state = start(2, variant="BAAAA", display=("STA", "STA", "STA"))
    dock_others(state, "2A", "OCM")
    put(state, "2A", W)
    play(state, "S 2A T")
    assert state.is_chance_node() and state.todo[-1][:3] == (DRAW, -1, TO_DISCARD)
    play(state, "~HAM", "~PAV")
    assert state.discard[card(state, "HAM")] == 1 and state.discard[card(state, "PAV")] == 1
    assert state.discard[card(state, "STA")] == 3 and state.round == 2


def test_pyramids_b_owner_chooses_pyramid_and_bonus():
    """7.2, I9, I14, I29, I30: per stone, bow to stern, its owner chooses a pyramid and
    whether to use the slot's bonus."""
    state = start(2, variant="ABAAA")
    put(state, "4A", K, W, K, K)
    play(state, "S 4A P")
    assert state.current_seat() == K
    assert moves(state) == ["pyr PL", "pyr PL bonus", "pyr PM", "pyr PR", "pyr PR bonus"]
    play(state, "pyr PM")
    assert state.scores == [2, 0] and state.current_seat() == W
    play(state, "pyr PR bonus")  # STONES: 1 point, min(3, 5 - 3, quarry) = 2 stones
    assert state.scores == [2, 1] and state.sleds[W] == 5
    assert state.current_seat() == K
    pr = [m for m in moves(state) if m.startswith("pyr PR")]
    assert pr == ["pyr PR", "pyr PR bonus 3A.1", "pyr PR bonus 3A.2", "pyr PR bonus 3A.3",
                  "pyr PR bonus 2A.1", "pyr PR bonus 2A.2", "pyr PR bonus 2B.1",
                  "pyr PR bonus 2B.2"]  # LOAD: any ship not yet sailed (I29)
    play(state, "pyr PR bonus 3A.2")
    assert state.ships[1].slots == [-1, K, -1] and state.sleds[K] == 1
    play(state, "pyr PL bonus")  # CARD: drawn at once
    assert state.is_chance_node()
    play(state, "~STA")
    assert state.hands[K][card(state, "STA")] == 1 and state.scores == [2 + 1 + 1, 1]
    assert state.pyramids == [[K], [K], [W, K]] and state.current_seat() == W


def test_pyramid_b_bonus_only_with_an_effect():
    """I30: STONES needs room and a quarry stone; LOAD a sled stone and a free slot."""
    state = start(2, variant="ABAAA")
    fill(state, state.pyramids[2], W)  # next PR slot: LOAD
    state.sleds[K] = 0
    put(state, "2A", K)
    play(state, "S 2A P")
    assert moves(state) == ["pyr PL", "pyr PL bonus", "pyr PM", "pyr PR"]
    state = start(2, variant="ABAAA")
    state.sleds[K] = 5
    state.quarries[K] -= 3
    put(state, "2A", K)
    play(state, "S 2A P")
    assert "pyr PR bonus" not in moves(state)  # STONES: the sled is full


def test_pyramid_b_level_two_scores_four_and_full_pyramids_send_stones_to_the_edge():
    """7.2: level 2 scores 4; with all pyramids full a stone scores 1 at the edge, no
    decision asked (I31)."""
    state = start(2, variant="ABAAA")
    fill(state, state.pyramids[1], W, W, W, W)
    put(state, "2A", K)
    play(state, "S 2A P")
    assert [m for m in moves(state) if m.startswith("pyr PM")] == ["pyr PM"]
    play(state, "pyr PM")
    assert state.scores[K] == 4
    state = start(2, variant="ABAAA")
    for p in state.pyramids:
        fill(state, p, *[W] * 5)
    put(state, "2A", K, K)
    play(state, "S 2A P")
    assert state.pyramid_edge == [K, K] and state.scores[K] == 2
    assert state.current_seat() == W


def test_entrance_on_side_b_lets_the_owner_choose():
    """I9, I34: a red ENT on side-B pyramids: its owner chooses as for a shipped stone;
    the stone stays in the quarry until placed."""
    state = start(2, variant="ABAAA", display=("ENT", "STA", "STA", "STA"))
    put(state, "2A", W)
    quarry = state.quarries[W]
    play(state, "S 2A M", "take M1")
    assert state.current_seat() == W and state.quarries[W] == quarry + 1
    assert moves(state)[:3] == ["pyr PL", "pyr PL bonus", "pyr PM"]
    play(state, "pyr PM")
    assert state.quarries[W] == quarry and state.pyramids[1] == [W] and state.scores[W] == 2


def test_temple_b_rulebook_example():
    """7.3, I15: five visible stones, bonuses left to right: grey chooses 1 point or 2
    stones, brown 2 points, white chooses and takes a card, black chooses."""
    state = start(4, variant="AABAA", card="R4-2")
    fill(state, state.temple, G, B, W, W, K)
    dock_others(state, "2A", "OCM")
    put(state, "2A", B)
    state.sleds[G] -= 3
    state.quarries[G] += 3
    play(state, "S 2A P")
    assert state.current_seat() == G and moves(state) == ["temple pts", "temple stones"]
    play(state, "temple stones")
    assert state.sleds[G] == 4 and state.scores[G] == 0
    assert state.current_seat() == W
    play(state, "temple pts")
    assert state.is_chance_node()  # white's card: mandatory
    play(state, "~DET")
    assert state.hands[W][card(state, "DET")] == 1
    assert state.current_seat() == K
    play(state, "temple pts")
    assert state.scores[B] == 2 + 2 and state.scores[W] == 1 and state.scores[K] == 1
    assert state.round == 2


def test_temple_b_two_stones_only_when_possible():
    """I15: 2 stones = min(2, room, quarry), offered only when at least 1; I31: asked even
    with one option."""
    state = start(2, variant="AABAA")
    fill(state, state.temple, K)
    state.quarries[K] -= 3
    state.sleds[K] = 5
    dock_others(state, "2B", "OCM")
    put(state, "2B", W)
    play(state, "S 2B P")
    assert state.current_seat() == K and moves(state) == ["temple pts"]
    play(state, "temple pts")
    assert state.scores[K] == 1


def test_temple_b_higher_stone_takes_its_column_bonus():
    """I15: a stone on level 2 takes the bonus of its column (2 players: w = 4)."""
    state = start(2, variant="AABAA")
    fill(state, state.temple, K, K, K, K, W)  # W: column 1, level 2 (PS)
    dock_others(state, "2B", "OCM")
    put(state, "2B", W)
    play(state, "Q", "S 2B P")  # white: 2 points on the side-A pyramid
    # visible: K (column 2, P2), K (3, PS), K (4, CD), W (column 1, level 2, PS)
    assert state.current_seat() == W and state.scores == [2, 2]  # column 1 first
    play(state, "temple pts")
    assert state.current_seat() == K and moves(state) == ["temple pts"]  # the sled is full
    play(state, "temple pts")
    assert state.is_chance_node()  # column 4: black's card
    play(state, "~STA")
    assert state.scores == [3, 3] and state.hands[K][card(state, "STA")] == 1


def test_chamber_b_rulebook_example():
    """7.4, I12: each row scored apart: top W 8, G and B tied 2nd-3rd (4 + 2) / 2 = 3;
    middle K 8, W 4; bottom G 8."""
    state = start(4, variant="AAABA", card="R4-2")
    fill(state, state.chamber, W, K, G, W, K, G, W, K, G, G, W, G, B)
    assert state.final_points() == [8, 8 + 4, 3, 3 + 8]


def test_obelisks_b_rulebook_example():
    """7.5, I16: the third waiting stone of a colour makes a tower on the highest free
    space, scored at once (here 9, the 10 being built); waiting stones 1 each at the end."""
    state = start(4, variant="AAAAB", card="R4-2")
    fill(state, state.towers, B)
    state.quarries[B] -= 2
    state.waiting[W] = 2
    state.quarries[W] -= 2
    put(state, "3A", K, W, G)
    play(state, "S 3A O")
    assert state.towers == [B, W] and state.waiting == [1, 0, 0, 1]
    assert state.scores == [0, 9, 0, 0]
    assert state.final_points() == [1, 0, 0, 1]
    assert all(state.stones_of(s) == 30 for s in range(4))


def test_obelisks_b_without_a_free_tower_space_the_stones_wait():
    """I16: with no tower space left no tower is built; the stones wait (1 point each)."""
    state = start(4, variant="AAAAB", card="R4-2")
    fill(state, state.towers, *[K, B, G, K, B, G, K, B, G, G])
    for seat in (K, B, G):
        state.quarries[seat] -= 2 * state.towers.count(seat)
    state.waiting[W] = 2
    state.quarries[W] -= 2
    put(state, "2A", W)
    play(state, "S 2A O")
    assert state.waiting[W] == 3 and len(state.towers) == 10 and state.scores[W] == 0
    assert state.final_points()[W] == 3
    assert all(state.stones_of(s) == 30 for s in range(4))


def test_pyramid_b_card_bonus_needs_a_card_to_draw():
    """I30: CARD only with a card in the deck or the discard pile."""
    state = start(2, variant="ABAAA")
    for k, n in enumerate(state.deck):
        state.hands[W][k] += n
        state.deck[k] = 0
    put(state, "2A", K)
    play(state, "S 2A P")
    assert "pyr PL bonus" not in moves(state) and "pyr PL" in moves(state)


def test_card_being_resolved_is_not_reshuffled():
    """I33: a red card is in no hand and no pile while it acts; a reshuffle during its
    effect (a side-B pyramid CARD bonus) leaves it out."""
    state = start(2, variant="ABAAA", display=("ENT", "STA", "STA", "STA"))
    ent = card(state, "ENT")
    state.discard = list(state.deck)
    state.deck = [0] * len(state.deck)
    put(state, "2A", W)
    play(state, "S 2A M", "take M1")
    assert state.resolving == [ent] and state.current_seat() == W
    play(state, "pyr PL bonus")
    assert state.is_chance_node() and sum(state.discard) == 0
    assert dict(state.chance_weights())["~ENT"] == 1  # the other copy; this one acts
    play(state, "~STA")
    assert state.resolving == [] and state.discard[ent] == 1


def test_no_load_bonus_after_the_round_has_ended():
    """I35: at the temple scoring the ships are gone: a red ENT from a temple-B card on
    side-B pyramids offers no LOAD bonus."""
    state = start(2, variant="ABBAA")
    fill(state, state.temple, W, W, W, K)  # K in column 4: CD
    fill(state, state.pyramids[2], W)  # next PR slot: LOAD
    for p in state.pyramids[:2]:
        fill(state, p, *[W] * 5)
    dock_others(state, "2B", "OCM")
    put(state, "2B", W)
    play(state, "S 2B T")
    play(state, "temple pts", "temple pts")  # white's columns 1 and 3
    assert state.is_chance_node()
    play(state, "~ENT")
    assert state.current_seat() == K and moves(state) == ["pyr PR"]
    play(state, "pyr PR")
    assert state.pyramids[2] == [W, K] and state.scores[K] == 1
