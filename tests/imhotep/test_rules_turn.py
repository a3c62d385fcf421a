"""Imhotep set-up, turns and the end of a round (sections 3, 4, 5, 9; I1-I6, I22-I25,
I35, I36, I38)."""

from __future__ import annotations

import random

import pytest
from imhotep.helpers import B, K, W, card, dock_others, fill, give, moves, play, put, start

from sneferu_cli.games.imhotep.state import (
    IllegalMove,
    new_game,
    sample_outcome,
)


def test_setup_quarries_sleds_and_markers():
    """3.6, I2: sleds 2, 3, 4, 5 by seat; quarries 30 - 1 (marker) - sled = 27, 26, 25, 24."""
    state = new_game(4)
    assert state.sleds == [2, 3, 4, 5]
    assert state.quarries == [27, 26, 25, 24]
    assert state.scores == [0, 0, 0, 0]
    assert all(state.stones_of(s) == 30 for s in range(4))
    assert new_game(2).quarries == [27, 26] and new_game(3).sleds == [2, 3, 4]


def test_first_chance_event_is_a_round_card_uniform_over_seven():
    """I25: the round card is drawn uniformly from the unrevealed cards of the count."""
    state = new_game(3)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [f"~R3-{i}" for i in range(1, 8)]
    assert all(p == pytest.approx(1 / 7) for _, p in outcomes)
    with pytest.raises(IllegalMove, match="not among the cards left"):
        state.apply_outcome("~R2-1")


def test_display_drawn_left_to_right_weighted_by_copies():
    """4.2, I38: after the round card, one chance event per display slot, M1 first, each
    card kind weighted by its copies left in the deck."""
    state = new_game(2)
    state.apply_outcome("~R2-4")
    assert [s.name for s in state.ships] == ["4A", "3A", "2A", "1A"]
    weights = dict(state.chance_weights())
    assert weights["~STA"] == 10 and weights["~SAI"] == 3 and sum(weights.values()) == 34
    play(state, "~STA", "~ENT")
    assert state.display == [card(state, "STA"), card(state, "ENT"), -1, -1]
    assert dict(state.chance_weights())["~STA"] == 9
    play(state, "~STA", "~CHI")
    assert not state.is_chance_node() and state.current_seat() == 0  # I1: seat 1 starts


def test_reshuffle_when_the_deck_runs_out():
    """I22: a draw that finds the deck empty shuffles the discard pile into a new deck."""
    state = new_game(2)
    state.apply_outcome("~R2-1")
    sta = card(state, "STA")
    state.discard = list(state.deck)
    state.discard[sta] -= 1
    state.deck = [0] * len(state.deck)
    state.deck[sta] = 1
    play(state, "~STA")
    assert sum(state.discard) == 0 and sum(state.deck) == 33
    assert dict(state.chance_weights())["~STA"] == 9


def test_nothing_drawn_when_deck_and_discard_are_empty():
    """I22: with deck and discard both empty the display slots stay empty."""
    state = new_game(2)
    state.hands[0] = list(state.deck)
    state.deck = [0] * len(state.deck)
    state.apply_outcome("~R2-1")
    assert not state.is_chance_node() and state.display == [-1, -1, -1, -1]
    assert state.cards_in_play() == 34


@pytest.mark.parametrize("sled,quarry,taken", [(2, 27, 3), (3, 26, 2), (4, 10, 1),
                                                (0, 2, 2), (1, 1, 1), (5, 20, 0),
                                                (2, 0, 0)])
def test_take_stones_exact_count(sled, quarry, taken):
    """5.1, I3: exactly min(3, 5 - sled, quarry); not legal when that is 0."""
    state = start()
    state.sleds[0], state.quarries[0] = sled, quarry
    if not taken:
        assert "Q" not in moves(state)
        return
    play(state, "Q")
    assert (state.sleds[0], state.quarries[0]) == (sled + taken, quarry - taken)


def test_load_any_empty_slot_of_any_unsailed_ship():
    """5.2: any empty slot, not necessarily from the bow; needs a stone on the sled."""
    state = start()
    assert moves(state)[:12] == ["Q", "L 4A.1", "L 4A.2", "L 4A.3", "L 4A.4", "L 3A.1",
                                 "L 3A.2", "L 3A.3", "L 2A.1", "L 2A.2", "L 2B.1", "L 2B.2"]
    play(state, "L 4A.3")
    assert state.ships[0].slots == [-1, -1, K, -1] and state.sleds[K] == 1
    assert "L 4A.3" not in moves(state) and state.current_seat() == W
    state.sleds[W] = 0
    assert not any(m.startswith("L ") for m in moves(state))


def test_sail_needs_minimum_load_of_any_colour():
    """5.3, I5: the minimum counts stones of every colour; I4: none of the sailor's needed."""
    state = start()
    put(state, "4A", W, W)
    assert not any(m.startswith("S 4A") for m in moves(state))
    put(state, "4A", W, W, K)
    assert "S 4A P" in moves(state)
    put(state, "4A", W, W, W)
    assert [m for m in moves(state) if m.startswith("S 4A")] == [
        "S 4A M", "S 4A P", "S 4A T", "S 4A C", "S 4A O"]
    play(state, "S 4A P")  # seat K sails white's stones
    assert state.scores == [0, 2 + 1 + 3] and state.pyramid == [W, W, W]


def test_one_ship_per_harbour():
    """5.3: a site's harbour takes one ship per round."""
    state = start()
    put(state, "4A", K, K, K)
    put(state, "2A", W)
    play(state, "S 4A O")
    assert "S 2A O" not in moves(state) and "S 2A T" in moves(state)
    with pytest.raises(IllegalMove):
        play(state, "S 2A O")


def test_pass_only_without_any_action():
    """I6: PASS is the only move exactly when no action is legal."""
    state = start()
    assert "PASS" not in moves(state)
    state.quarries[K] += state.sleds[K]
    state.sleds[K] = 0
    fill(state, state.chamber, *[K] * state.quarries[K])
    assert moves(state) == ["PASS"]
    play(state, "PASS")
    assert state.current_seat() == W and state.passes == 1


def empty_handed(state, *seats):
    """Seats with an empty sled and an empty quarry (their stones to the chamber)."""
    for seat in seats:
        state.quarries[seat] += state.sleds[seat]
        state.sleds[seat] = 0
        fill(state, state.chamber, *[seat] * state.quarries[seat])


def test_deadlock_ends_the_round():
    """I6, I35: every player passes in succession: the round ends; unsailed stones go back
    to their quarries; the temple scores; the next start player is left of this round's."""
    state = start(3, card="R3-7")
    fill(state, state.temple, B)
    empty_handed(state, K, W, B)
    put_back = state.quarries[:]
    assert moves(state) == ["PASS"]
    play(state, "PASS", "PASS")
    assert state.passes == 2 and state.current_seat() == B
    play(state, "PASS")
    assert state.round == 2 and state.is_chance_node() and state.start_player == 1
    assert state.scores == [0, 0, 1] and state.quarries == put_back
    assert state.ships == [] and state.passes == 0


def test_deadlock_returns_unsailed_stones():
    """I6: stones on ships that did not sail go back to their owners' quarries."""
    state = start(2, card="R2-1")
    put(state, "4A", K, W)  # below the minimum of 3
    empty_handed(state, K, W)
    assert moves(state) == ["PASS"]
    play(state, "PASS", "PASS")
    assert state.quarries == [1, 1] and state.round == 2
    assert all(state.stones_of(s) == 30 for s in range(2))


def test_passes_restart_at_any_other_action():
    """I36: the count of consecutive passes restarts at any action other than PASS."""
    state = start(3, card="R3-7")
    empty_handed(state, K, B)
    play(state, "PASS")
    assert state.passes == 1
    play(state, "L 3A.1")  # white acts
    assert state.passes == 0
    play(state, "PASS")  # brown
    play(state, "PASS")  # black
    assert state.passes == 2 and state.round == 1 and state.current_seat() == W


def test_fourth_ship_ends_round_after_all_effects():
    """4.4, I23: a red card from the fourth ship's stones acts in this round, before the
    temple is scored; I24: the next start player is left of the sailor; I4: a ship with
    none of the sailor's stones."""
    state = start(2, display=("ENT", "STA", "STA", "STA"))
    dock_others(state, "2A", "OCT")
    put(state, "2A", K)
    fill(state, state.temple, W)
    play(state, "Q")  # black; white sails
    play(state, "S 2A M")
    assert state.current_seat() == K and moves(state) == ["take M1", "take M2", "take M3",
                                                          "take M4"]
    play(state, "take M1")
    assert state.pyramid == [K] and state.scores == [2, 1]  # ENT: pyramid 2; temple: white 1
    assert state.round == 2 and state.start_player == 0  # left of white (seat 2) is seat 1
    assert state.discard[card(state, "ENT")] == 1 and state.discard[card(state, "STA")] == 3


def test_start_player_left_of_who_sailed_the_fourth_ship():
    """I24: whoever sailed the fourth ship, by a sail card too."""
    state = start(3, card="R3-6")
    dock_others(state, "1A", "OCT")
    give(state, W, "SAI")  # from the deck
    play(state, "Q")
    play(state, "SAI 1A.1 P")
    assert state.round == 2 and state.start_player == B
    assert state.scores[W] == 2


def test_game_ends_after_six_rounds():
    """10, I25: six rounds, six distinct round cards, one never revealed."""
    rng = random.Random(5)
    state = new_game(4)
    seen = []
    while not state.is_over():
        if state.is_chance_node():
            o = sample_outcome(state, rng)
            if o.startswith("~R"):
                seen.append(o)
            state.apply_outcome(o)
        else:
            state.apply(rng.choice(state.legal_moves()))
    assert state.round == 6 and len(set(seen)) == 6 and len(state.round_cards_left) == 1
    assert state.legal_moves() == [] and not state.todo
    with pytest.raises(IllegalMove):
        state.current_seat()
