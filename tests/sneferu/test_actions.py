"""Sneferu's action encoding and observation (SPEC 16.1, issue 18): moves in parts, one
step each, the last with the closing ``done``; the parts of a set-up are every step the
rules can produce (completeness: derived counts, hand-built positions for the rare steps,
and every legal move of random games of every player count and variant); the chance
outcomes; the observation's layout on a hand-built position."""

from __future__ import annotations

import collections
import random

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test
from positions import Seat, build, levels_below, placements, play

import sneferu_cli.rl.openspiel  # noqa: F401  (registers sneferu_sneferu)
from sneferu_cli.game import get_game, seat_view
from sneferu_cli.games.sneferu.actions import action_parts
from sneferu_cli.games.sneferu.observe import FOOD_SCALE
from sneferu_cli.rl.pettingzoo import env

GAME = get_game("sneferu")
SET_UPS = [(n, v) for n in GAME.players for v in GAME.variants]


def kind(part: str) -> str:
    """A part's step kind, and ``$`` when it ends the move."""
    step = part.removesuffix(" done")
    ends = "$" if part.endswith(" done") or part == "done" else ""
    if step[0].isdigit():
        name = "shift" if ">" in step else "buy+" if step.endswith("+") else "buy"
    elif "@" in step:
        name = "place h" if step.endswith("h") else "place"
    else:
        name = step
    return name + ends


# Buys: 4 columns x 7 rows, plain and with the bonus. Placements: 20 oriented stones x 21
# slots. A shift's target is one of the 4 columns, its source one of the 3 others.
STEPS = {"buy": 28, "buy+": 28, "place": 420, "place$": 420, "store": 1, "store$": 1,
         "end": 1, "end$": 1, "done$": 1}
BUILDERS = {"place h": 420, "place h$": 420, "feast": 1, "feast$": 1}
SOLO = {"buy$": 28, "buy+$": 28}
SHIFTS = {"shift": 12}


@pytest.mark.parametrize(("players", "variant", "actions", "extra"), [
    (1, "standard", 957, SOLO), (1, "builders", 1799, SOLO | BUILDERS),
    (2, "standard", 901, {}), (2, "builders", 1743, BUILDERS),
    (3, "standard", 901, {}), (3, "builders", 1743, BUILDERS),
    (4, "standard", 913, SHIFTS), (4, "builders", 1755, SHIFTS | BUILDERS)])
def test_action_counts(players: int, variant: str, actions: int, extra: dict[str, int]) -> None:
    """The steps of SPEC 3, each as a part that continues the move and one that ends it:
    Heba's ``h`` and Lateef's feast only with builders, the bare buy only in a solo game
    (SPEC 2.5), shifts only where the bag can run empty (R4): 4 x 21 stones can leave the
    bag, which holds 72 after set-up; 3 x 21 = 63 cannot, nor 21 + 20 in a solo game
    (Ptah's 21st stone ends it unrefilled)."""
    encoding = GAME.learning().encoding(players, variant)
    assert encoding is not None
    assert encoding.actions == actions
    assert collections.Counter(map(kind, encoding.moves)) == STEPS | extra


def test_named_ids() -> None:
    encoding = GAME.learning().encoding(2, "standard")
    assert encoding is not None
    assert encoding.moves[:4] == ("1.1", "1.1+", "1.2", "1.2+")
    assert encoding.moves[56:59] == ("BT@1.1", "BM@1.1", "BG@1.1")
    assert encoding.moves[56 + 420:56 + 423] == ("store", "end", "BT@1.1 done")
    assert encoding.moves[-3:] == ("store done", "end done", "done")
    # slot 6.1 is the 21st slot; its stones left material first: BT BM BG BA TB .. AG
    assert encoding.action_id("AG@6.1 done") == 56 + 420 + 2 + 20 * 20 + 19
    assert encoding.action_id("GA@6.1 done") == 56 + 420 + 2 + 20 * 20 + 15
    builders = GAME.learning().encoding(4, "builders")
    assert builders is not None
    assert builders.moves[56:60] == ("BT@1.1", "BT@1.1h", "BM@1.1", "BM@1.1h")
    assert builders.moves[56 + 840:56 + 855] == ("store", "end", "feast", "1>2", "1>3",
                                                 "1>4", "2>1", "2>3", "2>4", "3>1", "3>2",
                                                 "3>4", "4>1", "4>2", "4>3")
    with pytest.raises(ValueError, match=r"^Sneferu: move '1.1 done' has no action id$"):
        builders.action_id("1.1 done")  # a bare buy: solo only


@pytest.mark.parametrize(("move", "parts"), [
    ("1.1 BT@1.1", ("1.1", "BT@1.1 done")),
    ("3.2+ BT@1.4", ("3.2+", "BT@1.4 done")),
    ("MG@1.2 4.1 store", ("MG@1.2", "4.1", "store done")),
    ("feast 2.3 BA@1.6h", ("feast", "2.3", "BA@1.6h done")),
    ("1.1 TM@3.1 feast", ("1.1", "TM@3.1", "feast done")),
    ("2>1 1.1 BA@1.4", ("2>1", "1.1", "BA@1.4 done")),
    ("end", ("end done",)), ("end MG@1.2", ("end", "MG@1.2 done")),
    ("1.1", ("1.1 done",)), ("done", ("done",))])
def test_parts(move: str, parts: tuple[str, ...]) -> None:
    """SPEC 16.1: a move's steps, the last with the closing ``done`` of SPEC 3."""
    assert GAME.learning().action_parts(move) == parts
    assert action_parts(move) == parts


def ids_of(state, players: int, variant: str) -> list[tuple[int, ...]]:
    """The action ids of the parts of every legal move of ``state``, checking that no
    move's parts begin another's."""
    encoding = GAME.learning().encoding(players, variant)
    assert encoding is not None
    parts = [encoding.action_ids(m) for m in GAME.legal_moves(state)]
    assert len(set(parts)) == len(parts)
    every = set(parts)
    assert not [p for p in parts for k in range(1, len(p)) if p[:k] in every]
    assert max(map(len, parts)) <= GAME.learning().max_action_parts(players, variant)
    return parts


# The rarest steps, each in a position of the rule tests that allows it.
def test_rare_parts() -> None:
    # R4: an empty column with the bag empty (4 seats; the other three hold the rest).
    others = [Seat(space=40) for _ in range(3)]
    state = build([Seat(space=10, pyramid=placements(levels_below(6))), *others],
                  offer=["", "BTBMBGBATMTGTA", "BTBMBGBATMTGTA", "TGBAMG"],
                  rest=range(1, 4), bag={"BT": 0})
    assert "4>1 1.1 MG@6.1" in GAME.legal_moves(state)
    ids_of(state, 4, "standard")
    # SPEC 2.5: the bare buy that completes Ptah's pyramid.
    ptah = "".join(["BG", "BA", "TM", "TG", "TA", "MG", "MA"] * 2 + ["GA"] * 6)
    state = build([Seat(space=3, pyramid="TM@1.1")], offer=["BT", "", "", "GA"], ptah=ptah)
    assert "4.1" in GAME.legal_moves(state)
    ids_of(state, 1, "standard")
    # R5: storing in the turn that reaches 40, then placing; the forced end, then placing.
    state = build([Seat(space=37), Seat(space=40)], offer=["", "BA", "", ""],
                  tiles={37: "STOREHOUSE"})
    assert {"2.1 store", "2.1 BA@1.1"} <= set(GAME.legal_moves(state))
    ids_of(state, 2, "standard")
    state = build([Seat(space=30, food=0, store="MG"), Seat(space=40)],
                  offer=["", "TA", "", ""])
    assert {"end", "end MG@1.2", "MG@1.1 end"} <= set(GAME.legal_moves(state))
    ids_of(state, 2, "standard")
    # Lateef's feast before and after; Heba's sail-back; after the turn, done alone.
    lateef = Seat(space=10, builder="Lateef",
                  pyramid=placements([(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]))
    state = build([lateef, Seat(space=40, builder="Heba")], offer=["TM", "", "", ""])
    assert {"feast 1.1 TM@3.1", "1.1 TM@3.1 feast", "1.1 TM@3.1"} <= set(
        GAME.legal_moves(state))
    ids_of(state, 2, "builders")
    state = build([Seat(space=10, builder="Heba"), Seat(space=40, builder="Lateef")],
                  offer=["TM", "", "", ""])
    assert "1.1 TM@1.1h" in GAME.legal_moves(state)
    ids_of(state, 2, "builders")
    state = build([Seat(space=40, builder="Lateef", pyramid="BT@1.1"),
                   Seat(space=40, builder="Heba")], turn="post:1")
    assert GAME.legal_moves(state) == ["feast", "done"]
    ids_of(state, 2, "builders")


@pytest.mark.parametrize(("players", "variant"), SET_UPS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_move_has_parts(players: int, variant: str, seed: int) -> None:
    """Completeness over random games: every legal move of every decision is parts with
    ids, none begins another, none is longer than ``max_action_parts``; a game has at
    most ``max_game_length`` events (moves and chance); no seat stores more stones than
    the bound of ``max_action_parts`` allows (STOREHOUSE tiles, and Heba's sail-back);
    every chance outcome has an id. The observation, made from the state's attributes, is
    that of the position read back, at chance nodes too (refills due)."""
    encoding = GAME.learning().encoding(players, variant)
    assert encoding is not None
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    most_stored = 2 + (variant == "builders")
    events = 0
    while not state.is_over():
        seat = rng.randrange(players)
        again = GAME.from_position(seat_view(GAME, state, seat))
        assert GAME.learning().observation(again, seat) == GAME.learning().observation(state, seat)
        if state.is_chance_node():
            for outcome, _ in GAME.chance_outcomes(state):
                encoding.outcome_id(outcome)
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            events += 1
            continue
        ids_of(state, players, variant)
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
        events += 1
        assert all(len(p.store) <= most_stored for p in state.players)
    assert events <= GAME.learning().max_game_length(players, variant)


def test_game_length_and_parts_bounds() -> None:
    """max_game_length: 15 tiles, 100 stones drawn at most, the builders and the boats,
    and per seat a move per buy (21 at most) and the forced end. max_action_parts: a buy
    and its placement, a stored placement per STOREHOUSE tile (2) and Heba's sail-back,
    the feast, one shift (4 seats: an empty bag leaves 16 stones or more in the offer)."""
    assert GAME.learning().max_game_length(2, "standard") == 115 + 2 + 2 * 22
    assert GAME.learning().max_game_length(4, "builders") == 115 + 8 + 4 * 22
    assert [GAME.learning().max_action_parts(n, v) for n, v in SET_UPS] == [4, 6, 4, 6, 4, 6, 5, 7]


@pytest.mark.parametrize(("players", "variant"), SET_UPS)
def test_outcomes(players: int, variant: str) -> None:
    """SPEC 2.1: tile kinds, stone types, builders (builders variant), seats."""
    encoding = GAME.learning().encoding(players, variant)
    assert encoding is not None
    builders = ["~Lateef", "~Heba", "~Tsekani", "~Aya"] if variant == "builders" else []
    assert list(encoding.outcomes) == [
        "~FOOD1", "~FOOD2", "~NOEXTRA", "~SAVETIME", "~TIMEFOOD", "~STOREHOUSE", "~BT", "~BM",
        "~BG", "~BA", "~TM", "~TG", "~TA", "~MG", "~MA", "~GA", *builders,
        *(f"~{i}" for i in range(1, players + 1))]


def test_observation() -> None:
    """SPEC 16.1's layout on a hand-built position, seen by seat 2: seat 1 starts its
    turn on the basalt quarry of space 3 (FOOD2) with BT in slot 1.1 and MG stored."""
    state = build([Seat(food=7, space=3, pyramid="BT@1.1", store="MG"), Seat(space=5)],
                  offer=["BA", "", "", "TG"], tiles={3: "FOOD2"})
    obs = list(GAME.learning().observation(state, 1))
    assert len(obs) == GAME.learning().observation_shape(2, "standard")[0] == 868
    assert obs[:4] == [0, 1, 1, 0]  # seat 2 observes, seat 1 decides
    assert obs[4:10] == [0, 1, 0, 0, 0, 0]  # the start of a turn
    assert obs[10:17] == [3 / 40, 0, 1, 0, 0, 0, 0]  # started on space 3, tile FOOD2
    assert obs[17:32] == [0] * 15  # no stone in hand, none to store, no refills due
    assert obs[32:38] == [0, 1, 0, 0, 0, 0]  # the quarry on space 3: FOOD2
    offer = obs[122:402]
    assert [i for i, x in enumerate(offer) if x] == [3, 3 * 70 + 5]  # BA, TG on row 1
    assert obs[402:412] == [0.9, 1, 1, 0.9, 1, 0.9, 1, 0.9, 1, 1]  # BT BA TG MG not in it
    seat_1 = obs[412:412 + 228]
    assert seat_1[:3] == [7 / FOOD_SCALE, 3 / 40, 1 / 2]  # food, space, first on space 3
    assert seat_1[3:13] == [1, 0, 0, 0, 0, 0, 1, 0, 0, 0]  # slot 1.1: basalt, Tura
    assert seat_1[13:213] == [0] * 200
    assert seat_1[213:228] == [1 / 21, *[0] * 7, 1 / 3, 0, 0, 0, 0, 0, 0]
    seat_2 = obs[640:]
    assert seat_2[:3] == [6 / FOOD_SCALE, 5 / 40, 1 / 2]
    assert list(GAME.learning().observation(state, 0))[:2] == [1, 0]


def test_observation_mid_turn() -> None:
    """Placing with the STOREHOUSE bonus, refills due, a solo game (Ptah's stones), the
    builders: each observation is the one of the position read back."""
    state = build([Seat(space=14), Seat(space=40)], offer=["BT", "", "", ""],
                  tiles={14: "STOREHOUSE"})
    play(state, "1.1 store")
    assert state.is_chance_node()
    obs = list(GAME.learning().observation(state, 0))
    assert obs[4:10] == [0, 0, 0, 0, 1, 0] and obs[28:32] == [1 / 7, 0, 0, 0]
    state = build([Seat(space=14), Seat(space=40)], offer=["BT", "", "", ""],
                  tiles={14: "STOREHOUSE"}, turn="place:1:BT:store")
    assert list(GAME.learning().observation(state, 0))[17:28] == [1, *[0] * 9, 1]
    ptah = "".join(["BG", "BA", "TM", "TG", "TA", "MG", "MA"] * 2 + ["GA"] * 6)
    solo = build([Seat(space=3, pyramid="TM@1.1")], offer=["BT", "", "", "GA"], ptah=ptah)
    obs = list(GAME.learning().observation(solo, 0))
    assert len(obs) == 649
    assert obs[-228 - 11:-228] == [0, 0, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.6, 20 / 21]
    builders = build([Seat(space=10, builder="Heba", flags="h"),
                      Seat(space=40, builder="Aya")], offer=["TM", "", "", ""])
    obs = list(GAME.learning().observation(builders, 1))
    assert len(obs) == 876
    seat_1 = obs[412:412 + 232]
    assert seat_1[:4] == [0, 1, 0, 0] and seat_1[-4:] == [0, 1, 0, 0]  # Heba, sailed back
    assert obs[412 + 232:412 + 236] == [0, 0, 0, 1]  # Aya
    for s in (state, solo, builders):
        for seat in range(len(s.players)):
            again = GAME.from_position(seat_view(GAME, s, seat))
            assert GAME.learning().observation(again, seat) == GAME.learning().observation(s, seat)



def test_openspiel_game() -> None:
    """The OpenSpiel game of 2 seats (tests/test_rl.py has MCTSBot play it): 901 action
    ids; a move a step at a time, so OpenSpiel's bound on the length is max_game_length
    x max_action_parts."""
    game = pyspiel.load_game("sneferu_sneferu", {"players": 2})
    assert game.num_distinct_actions() == 901
    assert game.max_chance_outcomes() == 18
    assert game.max_game_length() == (115 + 2 + 2 * 22) * 4
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    first = [state.action_to_string(a) for a in state.legal_actions()]
    assert first and all(kind(a) in ("buy", "buy+") for a in first)
    state.apply_action(state.legal_actions()[0])
    second = [state.action_to_string(a) for a in state.legal_actions()]
    assert second and all(kind(a) in ("place$", "store$") for a in second)
    assert state.observation_string(state.current_player()).endswith(f"\nchosen: {first[0]}")


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("players", GAME.players)
def test_builders_variant_bound(players: int) -> None:
    """The generic tests of tests/test_rl.py play the first variant; the builders variant
    through both bindings (OpenSpiel from 2 seats, PettingZoo a solo game too)."""
    if players >= 2:
        game = pyspiel.load_game("sneferu_sneferu", {"players": players,
                                                     "variant": "builders"})
        assert game.num_distinct_actions() == (1755 if players == 4 else 1743)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    api_test(env(game="sneferu", players=players, variant="builders"), num_cycles=200)
