"""Imhotep's fast paths give what the plain ones give, at every step of random games.

- ``legal_move_texts`` (the interface's ``legal_moves``: a turn's moves written from the
  texts made once per edition, no move objects) is ``str`` of each of ``legal_moves()``,
  and at a turn ``str`` of each move :func:`plain_turn_moves` makes (the turn's moves
  built as move values straight from the rules, I3-I6 and section 8);
- ``apply_listed_text`` (``apply_listed_move``: the move looked up by its text) leaves
  the state ``apply`` of the parsed move leaves, for every listed move;
- ``sample_outcome`` (no list of weights built) draws the outcome that ``randrange`` over
  the total of ``chance_weights()``, walked in order, falls on, with the same generator;
- the task loop's tables (decisions by number, free harbours by bit mask, a round card's
  ships, a turn's action by move class) equal what they stand for;
- ``clone`` copies every field: the clone's position is the original's, and playing on
  either leaves the other as it was.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import drawn_as_walked

from sneferu_cli.games.imhotep import GAME, VARIANTS
from sneferu_cli.games.imhotep import move as mv
from sneferu_cli.games.imhotep.edition import SITES
from sneferu_cli.games.imhotep.state import (
    DECISIONS,
    FREE_SITES,
    TASKS,
    TURN,
    TURN_ACTIONS,
    ImhotepState,
    is_decision,
    ships_of,
    tables_of,
)


def plain_turn_moves(state: ImhotepState) -> list[mv.Move]:
    """The moves of the active seat's turn, in the order of ``legal_moves``, as move
    values: take (I3), load, sail (5.3, the minimum load), then the blue cards (lever
    orders I20, hammer I21, sail card, chisel pairs I37), or PASS alone (I6)."""
    seat, ships, t = state.active, state.ships, state.tables
    sled, hand = state.sleds[seat], state.hands[seat]
    take = min(t.take_stones, t.sled_capacity - sled, state.quarries[seat])
    free = [(i, j) for i, s in enumerate(ships) if s.site < 0
            for j, x in enumerate(s.slots) if x < 0]
    sites = [x for x in range(5) if all(s.site != x for s in ships)]
    ready = [s for s in ships if s.site < 0 and s.load() >= s.minimum]
    out: list[mv.Move] = [mv.Q] if take else []
    if sled:
        out += [mv.Load(ships[i].name, j + 1) for i, j in free]
    out += [mv.Sail(s.name, SITES[x]) for s in ready for x in sites]
    if t.lev >= 0 and hand[t.lev] and sites:
        for s in ready:
            occupied = [j + 1 for j, x in enumerate(s.slots) if x >= 0]
            orders: dict[tuple[int, ...], tuple[int, ...]] = {}  # the first order of each
            for order in itertools.permutations(occupied):         # sequence of owners
                orders.setdefault(tuple(s.slots[j - 1] for j in order), order)
            out += [mv.Lever(s.name, SITES[x], o) for x in sites for o in orders.values()]
    if t.ham >= 0 and hand[t.ham] and (take or (sled and free)):
        out += ([mv.Hammer(ships[i].name, j + 1) for i, j in free] if (sled + take and free)
                else [mv.Hammer()])
    if t.sai >= 0 and hand[t.sai] and sled and sites:
        out += [mv.SailCard(ships[i].name, j + 1, SITES[x]) for i, j in free
                if ships[i].load() + 1 >= ships[i].minimum for x in sites]
    if t.chi >= 0 and hand[t.chi] and sled >= 2:
        out += [mv.Chisel(ships[a[0]].name, a[1] + 1, ships[b[0]].name, b[1] + 1)
                for a, b in itertools.combinations(free, 2)]
    return out or [mv.PASS]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), variant=st.sampled_from(VARIANTS),
       seed=st.integers(0, 2**32 - 1))
def test_the_fast_paths_equal_the_plain_ones(players: int, variant: str, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    decisions = turns = 0
    while not state.is_over():
        if state.is_chance_node():
            fast = drawn_as_walked(GAME, state, rng)
            GAME.apply_outcome(state, fast)
            continue
        texts = GAME.legal_moves(state)
        assert texts == [str(m) for m in state.legal_moves()]
        if state.todo[-1] == (TURN,):
            assert texts == [str(m) for m in plain_turn_moves(state)]
            turns += 1
        decisions += 1
        for text in texts if decisions % 7 == 0 else [rng.choice(texts)]:
            fast_state, plain_state = state.clone(), state.clone()
            GAME.apply_move(fast_state, text, listed=True)
            plain_state.apply(mv.parse_move(text))
            assert GAME.to_position(fast_state) == GAME.to_position(plain_state), text
            assert GAME.to_position(state) == GAME.to_position(state.clone())
        GAME.apply_move(state, rng.choice(texts), listed=True)
    assert GAME.legal_moves(state) == [] and turns > 0


def test_a_clone_shares_nothing_that_play_changes() -> None:
    rng = random.Random(5)
    state = GAME.new_game(4)
    while not state.is_over():
        before = GAME.to_position(state)
        twin = state.clone()
        if state.is_chance_node():
            GAME.apply_outcome(twin, GAME.sample_outcome(twin, rng))
        else:
            GAME.apply_move(twin, rng.choice(GAME.legal_moves(twin)), listed=True)
        assert GAME.to_position(state) == before
        state = twin


def test_the_rules_tables_equal_what_they_stand_for() -> None:
    """The shortcuts of the task loop: ``is_decision`` is membership of DECISIONS,
    ``FREE_SITES`` the sites no docked ship holds, a round card's ships those ``ships_of``
    makes, and every move a turn lists has its action."""
    assert [is_decision(k) for k in range(len(TASKS))] == [k in DECISIONS
                                                          for k in range(len(TASKS))]
    for docked in range(32):
        assert list(FREE_SITES[docked]) == [x for x in range(5) if not docked & (1 << x)]
    ed = GAME.new_game(2).edition
    tables = tables_of(ed)
    assert set(tables.round_ships) == {c.code for c in ed.round_cards}
    for card in ed.round_cards:
        made = ships_of(card.ships, ed)
        assert [repr(s) for s in tables.round_ships[card.code]] == [repr(s) for s in made]
        assert [(s.capacity, s.minimum) for s in tables.round_ships[card.code]] == [
            (s.capacity, s.minimum) for s in made]
    turn_moves = {mv.Load, mv.Sail, mv.TakeStones, mv.Pass, mv.Lever, mv.Hammer, mv.SailCard,
                  mv.Chisel}
    assert set(TURN_ACTIONS) == turn_moves
    assert sorted(TURN_ACTIONS.values()) == list(range(len(turn_moves)))
