"""The action encodings and the learning-library bindings (issue 18, SPEC 16), for every
registered game with an action encoding, the test-only ``sealed-rl`` (Sealed Goofspiel
with an encoding: simultaneous nodes, a private deal, views), ``sealed-parts`` (the same
with a factored encoding: a move in two parts, a deal in three) and every test-only game of
tests/games/ with one (:data:`games.TEST_GAMES`):

- the encoding: over random games, every legal move of every deciding seat has a distinct
  id (or sequence of ids of its parts, none beginning another) in range that maps back to
  it, every chance outcome has ids for its parts (at a small node: none beginning another,
  and the product of the parts' probabilities is the outcome's), the observation has the
  declared shape and depends only on the seat's view;
- OpenSpiel: ``pyspiel.random_sim_test`` (with serialization), OpenSpiel's ``MCTSBot``
  playing a game, observation strings that are the seat's view;
- PettingZoo: ``api_test`` and ``seed_test``, rewards from the ranking;
- a game without an encoding is skipped with a message; without the ``rl`` extra the import
  says which extra to install.
"""

from __future__ import annotations

import collections
import math
import random
import re
import subprocess
import sys
from array import array
from typing import Any

import nim_game
import numpy as np
import pytest
import sealed_rl_game
from games import register_all
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ROOT, play_with_mcts

sealed_rl_game.register()
TEST_NAMES = register_all()

import pyspiel  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import sneferu_cli.rl.openspiel as spiel  # noqa: E402
from sneferu_cli.bench import play_random_moves  # noqa: E402
from sneferu_cli.game import Encoding, Game, get_game, seat_view  # noqa: E402
from sneferu_cli.rl import encoded_games, observation, returns, unencoded_games  # noqa: E402
from sneferu_cli.rl.core import legal_ids  # noqa: E402
from sneferu_cli.rl.pettingzoo import env  # noqa: E402

TEST_GAMES = [name for name in TEST_NAMES if get_game(name).learning() is not None]
spiel.register()
ENCODED = [g.name for g in encoded_games()]
SET_UPS = [(name, n) for name in ENCODED for n in get_game(name).players]
SPIEL_SET_UPS = [(name, n) for name in ENCODED for n in spiel.spiel_players(get_game(name))]
RANDOM = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_encoded_games() -> None:
    # The package's games first; the test-only ones in the order this process registered
    # them (another test module may have registered some first).
    assert ENCODED[:4] == ["sneferu", "imhotep", "silver-gold", "akropolis"]
    assert sorted(ENCODED[4:]) == sorted(["sealed-rl", "sealed-parts", *TEST_GAMES])
    assert [f"sneferu_{n.replace('-', '_')}" for n in ENCODED] == spiel.SHORT_NAMES
    assert spiel.register() == spiel.SHORT_NAMES  # once each
    nim_game.register()  # a test-only game with no encoding: every registered game has one
    assert "nim: no action encoding (Game.learning), not bound" in unencoded_games()
    with pytest.raises(ValueError, match=r"^Nim has no action encoding yet "
                                         r"\(Game.learning\)$"):
        env(game="nim", players=2)


@pytest.mark.parametrize(("name", "players"), SET_UPS)
@settings(RANDOM, max_examples=3)  # every step of a whole game, each seat's observation twice
@given(seed=st.integers(0, 2**32))
def test_round_trip(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    variant = rng.choice(game.variants)
    encoding = game.learning().encoding(players, variant)
    assert encoding is not None
    shape = game.learning().observation_shape(players, variant)
    state = game.new_game(players, variant=variant)
    while not state.is_over():
        if state.is_chance_node():
            check_outcome_parts(game, encoding, state)
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        for seat in range(players):
            observation = game.learning().observation(state, seat)
            assert len(observation) == shape[0]
            seen = game.from_position(seat_view(game, state, seat))
            assert game.learning().observation(seen, seat) == observation
        seat = rng.choice(game.deciding_seats(state))
        moves = game.legal_moves(state, seat)
        ids = [encoding.action_ids(m) for m in moves]
        assert len(set(ids)) == len(ids)
        assert all(1 <= len(i) <= encoding.max_parts for i in ids)
        assert all(0 <= a < encoding.actions for i in ids for a in i)
        assert [tuple(encoding.moves[a] for a in i) for i in ids] \
            == [game.learning().action_parts(m) for m in moves]
        whole = set(ids)
        assert not any(i[:k] in whole for i in ids for k in range(1, len(i)))  # prefix-free
        game.apply_move(state, rng.choice(moves), seat)
    assert encoding.actions == len(set(encoding.moves))


SMALL_NODE = 300
"""A chance node with at most this many outcomes has every outcome's parts walked."""


def check_outcome_parts(game: Game, encoding: Encoding, state: Any) -> None:
    """Every outcome of the chance node ``state`` has ids for its parts that map back to
    them; at a small node no outcome's parts begin another's, and each outcome's
    probability is the product of its parts' (``chance_part_outcomes``, conditional, each
    step's summing to 1), which complete it at the last part only (``outcome_of_parts``)."""
    outcomes = game.chance_outcomes(state)
    parts_of = [game.learning().outcome_parts(o) for o, _ in outcomes]
    for (outcome, _), parts in zip(outcomes, parts_of, strict=True):
        assert 1 <= len(parts) <= encoding.max_outcome_parts
        assert tuple(encoding.outcomes[i] for i in encoding.outcome_ids(outcome)) == parts
    if len(outcomes) > SMALL_NODE:
        return
    whole = set(parts_of)
    assert len(whole) == len(parts_of)
    assert not any(p[:k] in whole for p in parts_of for k in range(1, len(p)))
    steps: dict[tuple[str, ...], dict[str, float]] = {}
    for (outcome, probability), parts in zip(outcomes, parts_of, strict=True):
        product = 1.0
        for k in range(len(parts)):
            if parts[:k] not in steps:
                steps[parts[:k]] = dict(game.learning().chance_part_outcomes(state, parts[:k]))
                assert sum(steps[parts[:k]].values()) == pytest.approx(1.0)
            product *= steps[parts[:k]][parts[k]]
            complete = outcome if k == len(parts) - 1 else None
            assert game.learning().outcome_of_parts(state, parts[:k + 1]) == complete
        assert product == pytest.approx(probability)


def random_events(game: Game, players: int, variant: str, seed: int) -> int:
    """The events (moves and chance outcomes) of a random game through the game
    interface."""
    return play_random_moves(game, game.new_game(players, variant=variant),
                             random.Random(seed))


LOOSE = 6
"""How far above the longest of 20 random games a bound on a game's length may be. The
loosest is Imhotep with 4 players (about 5.5 times): its bound lets up to 3 seats pass
after each other move (**I6**), which random games hardly do."""


@pytest.mark.parametrize(("name", "players"), SET_UPS)
def test_max_game_length_is_a_close_bound(name: str, players: int) -> None:
    """SPEC 16.1: ``max_game_length`` (derived from the rules next to each game's) bounds
    the events of a game, and closely: 20 random games of the first and the last variant
    stay within it, and it is under LOOSE times the longest of them (Imhotep's used to be
    a flat 2000, 15 times its longest); OpenSpiel's bound holds an OpenSpiel game's
    history (its parts too)."""
    game = get_game(name)
    learning = game.learning()
    assert learning is not None
    for variant in dict.fromkeys([game.variants[0], game.variants[-1]]):
        longest = max(random_events(game, players, variant, seed) for seed in range(20))
        bound = learning.max_game_length(players, variant)
        assert longest <= bound <= LOOSE * longest, (variant, longest, bound)
    if players in spiel.spiel_players(game):
        spiel_game = pyspiel.load_game(spiel.short_name(game), {"players": players})
        state = spiel_game.new_initial_state()
        rng = random.Random(players)
        while not state.is_terminal():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]
                                          if state.is_chance_node() else state.legal_actions()))
        assert len(state.history()) <= spiel_game.max_game_length()


def test_imhotep_encoding_numbers() -> None:
    """SPEC 16.1: the standard edition's ship tiles 4 4 3 3 3 2 2 1 have 22 slots."""
    encoding = get_game("imhotep").learning().encoding(3, "BBBBB+wrath")
    assert encoding is not None
    kinds = collections.Counter(m.split()[0] for m in encoding.moves)
    assert kinds == {
        "Q": 1, "PASS": 1, "L": 22, "S": 8 * 5,
        # orders of distinct slots: 64 on a 4-ship, 15 on a 3-ship, 4 on a 2-ship, 1
        "LEV": 5 * (2 * 64 + 3 * 15 + 2 * 4 + 1),
        "HAM": 1 + 22, "SAI": 22 * 5, "CHI": 22 * 21 // 2,
        "take": 4 + 1, "keep": 12, "pyr": 3 * (2 + 22), "temple": 2}
    assert encoding.actions == 1429
    assert encoding.outcomes == ("~R3-1", "~R3-2", "~R3-3", "~R3-4", "~R3-5", "~R3-6",
                                 "~R3-7", "~ENT", "~SAR", "~PAV", "~DEP", "~DET", "~DEC",
                                 "~DEO", "~STA", "~LEV", "~HAM", "~SAI", "~CHI")
    # max_game_length, 2 players, side A (S = 6 x 11 slots, R2-1): chance 1 + 6 + 6 x 4;
    # 66 loads, 24 sails, 66 + 3 + 2 takes; passes 1 x 161 + 2 x 6; 24 market cards
    learning = get_game("imhotep").learning()
    assert learning.max_game_length(2, "AAAAA") == 31 + 161 + 173 + 24
    # side B everywhere: 6 more display cards, 4 CARD and 6 CD draws; 6 kept cards; 24 + 24
    # + 4 + 6 pyramid choices; 2 temple PS columns of the 4 used with 2 players
    assert learning.max_game_length(2, "BBBBB+wrath") == 389 + 6 + 10 + 6 + 58 + 12
    assert [learning.max_game_length(n, "AAAAA") for n in (3, 4)] == [595, 823]


@pytest.mark.parametrize("name", ["sneferu", "imhotep", "silver-gold", "akropolis"])
def test_observation_is_an_array_the_bindings_copy_whole(name: str) -> None:
    """SPEC 16.1: every game of the arbiter gives its observation as an ``array('d')`` of
    its shape's size, which the bindings copy into their numpy array whole (through the
    buffer); PettingZoo's observation is that array then the parts chosen, all 0 before
    any part (with a factored encoding, one slot per part but the last)."""
    game = get_game(name)
    e = env(game=name, players=2)
    e.reset(seed=3)
    seat = e.state.current_seat()
    tensor = game.learning().observation(e.state, seat)
    assert isinstance(tensor, array) and tensor.typecode == "d"
    assert (len(tensor),) == game.learning().observation_shape(2, game.variants[0])
    seen = e.observe(e.agent_selection)["observation"].ravel()
    encoding = e.encoding
    chosen = (encoding.max_parts - 1) * (1 + (encoding.actions - 1).bit_length())
    assert len(seen) == len(tensor) + chosen
    assert seen.tolist()[:len(tensor)] == np.asarray(tensor, np.float32).tolist()
    assert not seen[len(tensor):].any()


IDS_LISTED = {"sneferu", "akropolis"}
"""The games that list their legal moves' action ids themselves (Learning.legal_ids)."""


@pytest.mark.parametrize(("name", "players"), SET_UPS)
def test_legal_ids_are_those_of_the_texts(name: str, players: int) -> None:
    """At every decision of random games, the ids a game lists itself (compiled code)
    are those of its legal moves' texts, in the same order, and so are the ids the
    bindings take (the game's or the texts'); the games that offer it answer at
    every decision, the others never (the texts are mapped)."""
    game = get_game(name)
    learning = game.learning()
    for seed in range(2):
        rng = random.Random(seed)
        variant = game.variants[seed % len(game.variants)]
        encoding = learning.encoding(players, variant)
        state = game.new_game(players, variant=variant)
        while not state.is_over():
            if state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, rng))
                continue
            seat = rng.choice(game.deciding_seats(state))
            moves = game.legal_moves(state, seat)
            listed = encoding.learning.legal_ids(state, seat, list(moves))
            assert (listed is not None) == (name in IDS_LISTED)
            if listed is not None:
                assert listed == [encoding.action_ids(m) for m in moves]
            assert legal_ids(encoding, state, seat, moves) \
                == [encoding.action_ids(m) for m in moves]
            other = (seat + 1) % players
            if other not in game.deciding_seats(state):
                assert encoding.learning.legal_ids(state, other, []) in ([], None)
            game.apply_move(state, rng.choice(moves), seat, listed=True)


@pytest.mark.parametrize("name", ["sneferu", "silver-gold", "akropolis"])
def test_tensors_between_parts_are_made_anew(name: str) -> None:
    """The bindings keep a seat's game tensor from one part of its move to the next and
    write only the parts chosen: at every step of a random game, through PettingZoo and
    OpenSpiel, every seat's observation is the one made from scratch, and OpenSpiel's
    binding asks the game for none at a part."""
    e = env(game=name, players=2)
    e.reset(seed=3)
    rng = random.Random(3)
    parts = 0
    for agent in e.agent_iter():
        if e.terminations[agent]:
            e.step(None)
            continue
        decision = e.decision
        for seat, other in enumerate(e.possible_agents):
            chosen = decision.chosen if decision.seat == seat else ()
            fresh = np.asarray(observation(e.encoding, e.state, seat, chosen), np.float32)
            assert np.array_equal(e.observe(other)["observation"].ravel(), fresh)
        parts += bool(decision.chosen)
        e.step(rng.choice(decision.legal_actions()))
    assert parts
    spiel_game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    state = spiel_game.new_initial_state()
    learning = state.encoding.learning
    made = learning.observation
    calls = []

    def counted(game_state: Any, seat: int) -> Any:
        calls.append(seat)
        return made(game_state, seat)

    learning.observation = counted  # this instance only, for the count
    asked = parts = 0
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            for seat in (state.current_player(), 1 - state.current_player()):
                fresh = np.asarray(observation(state.encoding, state.state, seat,
                                               spiel._chosen(state, seat)), np.float32)
                tensor = state.observation_tensor(seat)
                asked += 1
                assert np.array_equal(np.asarray(tensor, np.float32), fresh)
            parts += bool(state.decision is not None and state.decision.chosen)
            state.apply_action(rng.choice(state.legal_actions()))
    finally:
        del learning.observation
    # the binding's own (calls beyond the fresh ones above): none at a part for either
    # seat, but for the initial state's, once a seat
    assert parts and len(calls) - asked <= asked - 2 * parts + 2


def test_openspiel_new_states_share_the_start_until_changed() -> None:
    """A new initial state shares the game's start (OpenSpiel makes one at every
    observation tensor) but never changes it: its first event, and a caller's hand on
    ``state``, work on a copy."""
    spiel_game = pyspiel.load_game("sneferu_imhotep", {"players": 2})
    start = spiel_game.start
    text = spiel_game.rules.to_position(start)
    first = spiel_game.new_initial_state()
    assert first.position.state is start
    first.apply_action(first.chance_outcomes()[0][0])
    assert first.position.state is not start
    assert spiel_game.rules.to_position(start) == text
    second = spiel_game.new_initial_state()
    assert second.state is not start  # handed out: a copy first
    assert spiel_game.rules.to_position(second.state) == text


def test_decision_lists_its_legal_ids_anew() -> None:
    """The decision keeps its legal ids until a part is chosen, and hands out a copy: a
    caller that changes the list changes nothing of the decision's."""
    e = env(game="akropolis", players=2)
    e.reset(seed=1)
    decision = e.decision
    assert decision is not None
    first = decision.legal_actions()
    first.clear()
    again = decision.legal_actions()
    assert again and again == sorted(set(again))
    e.step(again[0])  # a place of the site: the positions come next
    assert e.decision is decision and decision.legal_actions() != again


def test_imhotep_observation() -> None:
    """Round 1 of 6 with card R2-2 (ships 4A 3A 3B 1A), seat 1 to play, seen by seat 2."""
    game = get_game("imhotep")
    state = game.from_position(
        "standard AAAAA 1:R2-2:0 R2-1,R2-3,R2-4,R2-5,R2-6,R2-7 4A:..../3A:.../3B:.../1A:. "
        "ENT,ENT,SAR,SAR - - - 0,0 0,0,2,2,2,2,2,10,2,2,3,3/0,0,0,0,0,0,0,0,0,0,0,0 "
        "2,27,0,-,as;3,26,0,-,- turn")
    observation = list(game.learning().observation(state, 1))
    assert len(observation) == 1 + 2 * 2 + 2 * (4 + 12 + 6) + 22 * 3 + 8 * 6 + 4 * 13 + 1
    assert observation[:5] == [1 / 6, 0.0, 1.0, 1.0, 0.0]  # round; seat 2 sees; seat 1 plays
    assert observation[5:9] == [2 / 5, 27 / 30, 0.0, 0.0]  # seat 1: sled, quarry, score
    ship_4a = observation[49:49 + 4 * 3 + 6]  # each slot: empty, seat 1, seat 2; then site
    assert ship_4a == [1.0, 0.0, 0.0] * 4 + [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    ship_4b = observation[67:67 + 4 * 3 + 6]  # not in this round
    assert ship_4b == [0.0] * 18
    display = observation[-53:-1]  # M1..M4: empty, then the 12 kinds
    assert [display[k * 13:(k + 1) * 13].index(1.0) - 1 for k in range(4)] == [0, 0, 1, 1]


def test_action_ids_unknown() -> None:
    encoding = get_game("imhotep").learning().encoding(2)
    assert encoding is not None
    assert encoding.actions == 1429
    assert encoding.moves[:3] == ("Q", "PASS", "L 4A.1")
    assert encoding.action_id("CHI 3A.1 2B.2") == encoding.moves.index("CHI 3A.1 2B.2")
    with pytest.raises(ValueError, match=r"^Imhotep: move 'CHI 2B.2 3A.1' has no action id$"):
        encoding.action_id("CHI 2B.2 3A.1")  # not canonical (I37)


@pytest.mark.parametrize(("name", "players"), SPIEL_SET_UPS)
def test_openspiel_random_sim(name: str, players: int) -> None:
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ENCODED)
def test_openspiel_answers_no_information_state_tensor(name: str) -> None:
    """The game type provides no information state tensor, so none is answered (it used
    to be the observation tensor under that name); the observation tensor and the
    information state string (what the seat saw) are there."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)))
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(NotImplementedError, match="no information state tensor"):
        state.information_state_tensor(0)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert state.information_state_string(0).startswith("seat 1")


@pytest.mark.parametrize("name", ["imhotep", "akropolis"])
def test_openspiel_observes_once_a_tensor(name: str) -> None:
    """OpenSpiel asks the tensor of a new initial state (for the shape) at every
    ``observation_tensor``: that one is kept, so the game's observation is made at most
    once a call, and the tensors are the game's (a factored encoding's parts chosen after it)."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(12):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]
                                      if state.is_chance_node() else state.legal_actions()))
    learning = state.encoding.learning
    calls = []
    made = learning.observation

    def counted(game_state: Any, seat: int) -> Any:
        calls.append(seat)
        return made(game_state, seat)

    learning.observation = counted  # this instance only, for the count
    try:
        game.new_initial_state().observation_tensor(0)  # the initial one, once
        calls.clear()
        for seat in (0, 1, 0):
            tensor = np.asarray(state.observation_tensor(seat))
            assert np.array_equal(tensor[:len(made(state.state, seat))],
                                  np.asarray(made(state.state, seat), np.float32))
    finally:
        del learning.observation
    # a factored encoding's seat tensor is kept while the state stands: seat 0's again
    assert calls == ([0, 1] if state.encoding.max_parts > 1 else [0, 1, 0])


def test_openspiel_clone() -> None:
    """A clone (the game's own ``clone`` inside) is independent, with the same history."""
    game = pyspiel.load_game("sneferu_imhotep", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert (str(clone), clone.history()) == (str(state), state.history())
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before
    assert len(clone.history()) == len(state.history()) + 1
    assert clone.information_state_string(0) != state.information_state_string(0)


def test_openspiel_load_errors() -> None:
    with pytest.raises(ValueError, match=r"^Imhotep is for 2 to 4 players in OpenSpiel, "
                                         r"not 5$"):
        pyspiel.load_game("sneferu_imhotep", {"players": 5})


def test_openspiel_views() -> None:
    """A seat's observation string is its view: the other hands and bids hidden."""
    game = pyspiel.load_game("sneferu_sealed_rl", {"players": 2})
    state = game.new_initial_state()
    deals = game.get_type()  # the deal ids are the 3-card sets in lexicographic order
    assert deals.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state.apply_action(0)  # ~D1.2.3
    state.apply_action(285)  # ~D11.12.13
    assert state.chance_outcomes()[:1] == [(286, pytest.approx(1 / 3))]
    state.apply_action(287)  # ~P2
    assert state.current_player() == 0
    state.apply_action(0)  # bid 1, sealed
    assert state.observation_string(1) == ("sealed prizes=1.3 prize=2 scores=0,0 "
                                           "hands=?.?/11.12.13 bids=?,- played=- "
                                           "retired=0,0")
    assert state.information_state_string(1) == "\n".join([
        "seat 2",
        "sealed prizes=1.2.3 prize=- scores=0,0 hands=?.?.?/* bids=-,- played=- "
        "retired=0,0",
        "sealed prizes=1.2.3 prize=- scores=0,0 hands=?.?.?/11.12.13 bids=-,- played=- "
        "retired=0,0",
        "sealed prizes=1.3 prize=2 scores=0,0 hands=?.?.?/11.12.13 bids=-,- played=- "
        "retired=0,0",
        "sealed prizes=1.3 prize=2 scores=0,0 hands=?.?/11.12.13 bids=?,- played=- "
        "retired=0,0"])
    assert np.asarray(state.observation_tensor(1)).shape == (3 * 13 + 6 + 4,)


def test_openspiel_parts() -> None:
    """A factored encoding: a bid of 12 is ``tens 1`` then ``units 2``, two decisions of its
    seat; the part chosen shows in that seat's observation only, and in no other seat's
    (the bid is sealed)."""
    game = pyspiel.load_game("sneferu_sealed_parts", {"players": 2})
    assert game.num_distinct_actions() == 12
    assert game.max_game_length() == 3 * (2 + 3 * 3)  # a deal in three parts
    state = game.new_initial_state()
    for action in (0, 1, 2, 10, 11, 12, 14):  # ~D1 ~D2 ~D3, ~D11 ~D12 ~D13, ~P2
        state.apply_action(action)
    assert state.current_player() == 0
    assert state.legal_actions() == [0]  # tens 0: 1, 2 or 3
    state.apply_action(0)
    assert state.current_player() == 0
    assert state.legal_actions() == [3, 4, 5]  # units 1, 2, 3
    assert [state.action_to_string(0, a) for a in (0, 3)] == ["tens 0", "units 1"]
    own = np.asarray(state.observation_tensor(0))
    other = np.asarray(state.observation_tensor(1))
    assert own.shape == other.shape == (3 * 13 + 6 + 4 + 5,)  # a part chosen: 1, 4 bits
    assert list(own[-5:]) == [1.0, 0.0, 0.0, 0.0, 0.0]  # tens 0, id 0
    assert list(other[-5:]) == [0.0] * 5
    assert state.observation_string(0).endswith("\nchosen: tens 0")
    assert "chosen" not in state.observation_string(1)
    clone = state.clone()
    state.apply_action(4)  # units 2: seat 1 bids 2, sealed
    assert state.current_player() == 1
    assert state.legal_actions() == [1]  # tens 1: 11, 12 or 13
    assert list(np.asarray(state.observation_tensor(0))[-5:]) == [0.0] * 5
    assert clone.current_player() == 0 and clone.legal_actions() == [3, 4, 5]
    with pytest.raises(ValueError, match=r"^seat 2: action 0 \(tens 0\) is not legal now$"):
        state.apply_action(0)  # no bid below 10 in seat 2's hand


def test_openspiel_outcome_parts() -> None:
    """A deal in parts (``sealed-parts``: ``~D1.5.9`` is ``~D1``, ``~D5``, ``~D9``): each
    chance step lists the next cards with their probabilities given those chosen; the deal
    is applied at its third card; a partial deal is no event, in no seat's information
    state, observation or tensor; a clone and a serialized state keep the cards chosen; a
    chance id that does not continue a deal is refused."""
    game = pyspiel.load_game("sneferu_sealed_parts", {"players": 2})
    assert game.max_chance_outcomes() == 13 + 3
    state = game.new_initial_state()
    # the lowest card of 3 of 13: C(12, 2) / C(13, 3) = 66/286 for 1, ..., 1/286 for 11
    assert state.chance_outcomes() == [(c - 1, pytest.approx(math.comb(13 - c, 2) / 286))
                                       for c in range(1, 12)]
    state.apply_action(0)  # ~D1
    with pytest.raises(ValueError, match=r"^chance id 0 is not a next part of an outcome "
                                         r"here$"):
        state.apply_action(0)  # ~D1 again
    for action in (1, 2):  # ~D2 ~D3: seat 1's hand is 1, 2, 3
        state.apply_action(action)
    seen = [(state.information_state_string(s), state.observation_string(s),
             state.observation_tensor(s)) for s in (0, 1)]
    state.apply_action(4)  # ~D5: the lowest of the 10 cards 4..13 left
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    # given ~D5, two of the 8 cards above 5: C(13 - c, 1) / C(8, 2) for 6, ..., 12
    assert state.chance_outcomes() == [(c - 1, pytest.approx((13 - c) / 28))
                                       for c in range(6, 13)]
    assert [(state.information_state_string(s), state.observation_string(s),
             state.observation_tensor(s)) for s in (0, 1)] == seen
    clone = state.clone()
    copy = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1]
    for s in (state, clone, copy):
        s.apply_action(8)  # ~D9
        assert s.chance_outcomes() == [(c - 1, 1 / 4) for c in range(10, 14)]
        s.apply_action(12)  # ~D13: seat 2's hand is 5, 9, 13
        assert s.current_player() == pyspiel.PlayerId.CHANCE  # the prize
    assert str(state) == str(clone) == str(copy)
    assert state.information_state_string(0).splitlines()[-1] == (
        "sealed prizes=1.2.3 prize=- scores=0,0 hands=1.2.3/?.?.? bids=-,- played=- "
        "retired=0,0")
    assert "5.9.13" in state.information_state_string(1)


@pytest.mark.parametrize("name", ["sneferu", "imhotep", "silver-gold"])
def test_openspiel_mcts_plays(name: str) -> None:
    """OpenSpiel's MCTSBot plays a whole 2-player game through the binding: Sneferu (a
    turn's steps in parts), Imhotep and Silver & Gold (a marking with bonus marks in parts;
    Akropolis's is in tests/akropolis/test_actions.py)."""
    state, _ = play_with_mcts(spiel.short_name(get_game(name)), 2, simulations=4, seed=7)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


# The observation is a dict with the action mask, as PettingZoo's classic games give it,
# which api_test warns about.
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("name", "players"), SET_UPS)
def test_pettingzoo_api(name: str, players: int) -> None:
    api_test(env(game=name, players=players), num_cycles=60)
    seed_test(lambda: env(game=name, players=players), num_cycles=30)


def first_action_game(e: Any) -> str:
    """Play the environment's game to its end, each agent taking its first legal action;
    the final position."""
    for agent in e.agent_iter():
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    return e.encoding.game.to_position(e.state)


@pytest.mark.parametrize("name", ["imhotep", "silver-gold"])
def test_reset_without_a_seed_goes_on_from_the_seeded_generator(name: str) -> None:
    """Gymnasium's convention: reset(seed=s) then reset() twice plays the same three
    games in two environments; the games after the first are not the first again."""
    games = []
    for _ in range(2):
        e = env(game=name, players=2)
        e.reset(seed=3)
        played = [first_action_game(e)]
        for _ in range(2):
            e.reset()
            played.append(first_action_game(e))
        games.append(played)
    assert games[0] == games[1]
    assert len(set(games[0])) == 3


@pytest.mark.parametrize("name", ENCODED)
def test_pettingzoo_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own render test, over both render modes ('human' prints the
    picture), for every game with an encoding."""
    render_test(lambda render_mode=None: env(game=name, players=2, render_mode=render_mode))
    assert capsys.readouterr().out  # 'human' printed pictures


def test_pettingzoo_rewards_and_render() -> None:
    """Bidding highest each round wins: seat 1 holds 11 12 13 against 1 2 3."""
    e = env(game="sealed-rl", players=2, render_mode="ansi")
    e.reset(seed=5)
    e.state = get_game("sealed-rl").from_position(
        "sealed prizes=1.3 prize=2 scores=0,0 hands=11.12.13/1.2.3 bids=-,- played=- "
        "retired=0,0")
    e._advance()  # select the deciding seat of the state put in
    assert e.agent_selection == "seat_1"
    assert "11.12.13" in str(e.render())
    for _ in range(3):
        assert list(np.flatnonzero(e.observe("seat_1")["action_mask"])) \
            == [c - 1 for c in e.state.hands[0]]
        e.step(int(np.flatnonzero(e.observe("seat_1")["action_mask"])[0]))
        assert e.agent_selection == "seat_2"
        e.step(int(np.flatnonzero(e.observe("seat_2")["action_mask"])[0]))
    assert e.terminations == {"seat_1": True, "seat_2": True}
    assert e.rewards == {"seat_1": 1.0, "seat_2": -1.0}
    assert e.state.scores == [6, 0]


def test_pettingzoo_parts() -> None:
    """A factored encoding: two steps of the same agent make one bid."""
    e = env(game="sealed-parts", players=2)
    e.reset(seed=5)
    e.state = get_game("sealed-parts").from_position(
        "sealed prizes=1.3 prize=2 scores=0,0 hands=11.12.13/1.2.3 bids=-,- played=- "
        "retired=0,0")
    e._advance()
    assert e.agent_selection == "seat_1"
    assert list(np.flatnonzero(e.observe("seat_1")["action_mask"])) == [1]  # tens 1
    e.step(1)
    assert e.agent_selection == "seat_1"
    seen = e.observe("seat_1")
    assert list(np.flatnonzero(seen["action_mask"])) == [3, 4, 5]  # units 1, 2, 3
    assert list(seen["observation"][-5:]) == [1.0, 1.0, 0.0, 0.0, 0.0]  # chosen: id 1
    assert list(e.observe("seat_2")["observation"][-5:]) == [0.0] * 5
    with pytest.raises(ValueError, match=r"^seat_1: action 2 \(units 0\) is not legal now$"):
        e.step(2)
    e.step(5)  # 13
    assert e.agent_selection == "seat_2"
    assert e.state.bids == [13, None]


def test_pettingzoo_errors() -> None:
    with pytest.raises(ValueError, match=r"^Imhotep is for 2 to 4 players, not 1$"):
        env(game="imhotep", players=1)
    with pytest.raises(ValueError, match=r"^Imhotep has no variant 'CCCCC'$"):
        env(game="imhotep", players=2, variant="CCCCC")
    e = env(game="imhotep", players=2)
    e.reset(seed=2)
    pass_id = e.encoding.action_id("PASS")  # only when no other move is legal (I6)
    with pytest.raises(ValueError, match=rf"^seat_1: action {pass_id} \(PASS\) is not legal "
                                         "now$"):
        e.step(pass_id)
    with pytest.raises(ValueError, match=r"^seat_1: action 1429 is not an action id$"):
        e.step(1429)


@pytest.mark.parametrize("name", ENCODED)
def test_an_action_id_is_an_integer(name: str) -> None:
    """SPEC 16.3, every game: PettingZoo's step takes an integer action id (an int or a numpy
    integer); a float, even a whole one, a string or a bool is a ValueError like any id
    that is not legal, and changes nothing (it played the truncated id before). OpenSpiel's
    apply_action refuses a float or a string itself (pyspiel's TypeError), before the
    binding sees it."""
    players = get_game(name).players[0]
    e = env(game=name, players=players)
    e.reset(seed=1)
    agent = e.agent_selection
    before = e.observe(agent)
    a = int(before["action_mask"].nonzero()[0][0])
    for bad in (a + 0.5, float(a), np.float64(a), np.float32(a + 0.5), np.float64(a - 0.5),
                str(a), True, False, np.True_, np.array(float(a))):
        with pytest.raises(ValueError, match=rf"^{agent}: action .* is not an action id$"):
            e.step(bad)
        assert e.agent_selection == agent
        after = e.observe(agent)
        assert (after["observation"] == before["observation"]).all()
        assert (after["action_mask"] == before["action_mask"]).all()
    e.step(np.int64(a))  # a numpy integer is an action id
    assert e.agent_selection != agent or not (e.observe(agent)["action_mask"]
                                              == before["action_mask"]).all()
    e.reset(seed=1)
    e.step(np.int32(a))
    game = pyspiel.load_game(spiel.short_name(get_game(name)),
                             {"players": spiel.spiel_players(get_game(name))[0]})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    a = state.legal_actions()[0]
    history = state.history()
    for bad in (a + 0.5, np.float64(a + 0.5), np.float64(a), str(a)):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            state.apply_action(bad)
        assert state.history() == history
    state.apply_action(np.int64(a))
    assert state.history() == [*history, a]


def test_returns_from_ranking() -> None:
    """Ranked below minus ranked above, over players - 1: ranks 1, 2, 2 (a shared rank)."""
    game = get_game("sealed-rl")
    state = game.from_position("sealed prizes=- prize=- scores=4,1,1 hands=-/-/- bids=-,-,- "
                               "played=1.2.3.4.5.6.7.8.9 retired=0,0,0")
    encoding = game.learning().encoding(3)
    assert encoding is not None
    assert returns(encoding, state) == [1.0, -0.5, -0.5]


def test_missing_extra() -> None:
    """Without the rl extra the import says, in one line, which extra to install."""
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import sneferu_cli.rl.openspiel\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == ("the learning-library bindings need the rl extra: pip install "
                   "'sneferu[rl]' (no module 'pyspiel')\n")


def test_readme_example() -> None:
    """The Learning libraries page's example (docs/learning.md) runs as written (a real
    subprocess)."""
    page = (ROOT / "docs" / "learning.md").read_text()
    code = re.search(r"```python\n(.*?)```", page, re.S)
    assert code is not None
    out = subprocess.run([sys.executable, "-c", code.group(1)], capture_output=True,
                         text=True, check=True).stdout
    assert out in ("{'seat_1': 1.0, 'seat_2': -1.0}\n", "{'seat_1': -1.0, 'seat_2': 1.0}\n",
                   "{'seat_1': 0.0, 'seat_2': 0.0}\n")
