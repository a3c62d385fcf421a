"""Akropolis's action encoding and observation (SPEC 16.1, ``games/akropolis/actions.py``):
the counts of every set-up, named ids, the bound on anchor positions (derived from the
placement rule 5.2 independently of the code, checked against random games, and shown
reached), the chance ids, the game length, a hand-built position's observation, and
OpenSpiel's ``MCTSBot`` playing a whole game through the binding."""

from __future__ import annotations

import random

import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import play_with_mcts

import sneferu_cli.rl.openspiel  # noqa: F401  (registers sneferu_akropolis)
from sneferu_cli.game import seat_view
from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.actions import HEX_NUMBERS, layout, positions, turns_per_seat
from sneferu_cli.games.akropolis.geometry import q_of, r_of
from sneferu_cli.games.akropolis.move import parse_move

SET_UPS = [(2, "hmbtga"), (3, "hmbtga"), (4, "hmbtga"), (2, "hmbtgA"), (3, "hmbtgA")]
START = [(0, 0), (0, -1), (1, 0), (-1, 1)]  # A3
DIRECTIONS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def from_start(p: tuple[int, int]) -> int:
    return min(steps(p, s) for s in START)


def test_counts_per_set_up() -> None:
    """take 1 … n+2, then the positions, then r0 … r5 (SPEC 16.1's table)."""
    expected = {  # (turns per seat, positions, actions, tiles, observation)
        (2, "hmbtga"): (18, 4216, 4226, 37, 1467),
        (3, "hmbtga"): (16, 3364, 3375, 49, 1961),
        (4, "hmbtga"): (15, 2974, 2986, 61, 2455),
        (2, "hmbtgA"): (30, 11344, 11354, 61, 2283),
        (3, "hmbtgA"): (20, 5164, 5175, 61, 2369),
    }
    for (players, variant), (turns, places, actions, tiles, size) in expected.items():
        encoding = GAME.learning().encoding(players, variant)
        assert encoding is not None
        assert turns_per_seat(players, variant) == turns
        assert len(positions(players, variant)) == places
        assert (encoding.actions, len(encoding.outcomes)) == (actions, tiles)
        assert encoding.max_parts == 3
        assert GAME.learning().max_game_length(players, variant) == 2 * tiles - 1
        assert GAME.learning().observation_shape(players, variant) == (size,)
        # size: 3 one-hots, 4 per seat, 35 per site place, 1 per tile, per seat 11 numbers
        # for each of the 4 + 3T hexes a city may hold
        assert size == 3 * players + 4 * players + 35 * (players + 2) + tiles \
            + 11 * players * (4 + 3 * turns)
    # the all-tiles option changes nothing with 4 players; the bonus variants nothing at all
    assert names(4, "HMBTGA") == names(4, "hmbtga")
    assert names(2, "HMbtGa") == names(2, "hmbtga")


def names(players: int, variant: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The action and chance-outcome names of a set-up."""
    encoding = GAME.learning().encoding(players, variant)
    assert encoding is not None
    return encoding.moves, encoding.outcomes


def test_named_ids() -> None:
    encoding = GAME.learning().encoding(2, "hmbtga")
    assert encoding is not None
    assert encoding.moves[:5] == ("take 1", "take 2", "take 3", "take 4", "at -37,1")
    assert encoding.moves[-7:] == ("at 37,0", "r0", "r1", "r2", "r3", "r4", "r5")
    assert GAME.learning().action_parts("3 @0,-1 r5") == ("take 3", "at 0,-1", "r5")
    assert encoding.action_ids("1 @0,0 r2") == (0, 2112, 4222)
    assert encoding.action_ids("4 @-1,-1 r0") == (3, 2036, 4220)
    assert encoding.moves[2112] == "at 0,0" and encoding.moves[2036] == "at -1,-1"
    assert encoding.outcomes[:2] == ("~T01", "~T02") and encoding.outcomes[-1] == "~T37"
    assert names(3, "hmbtga")[1][-1] == "~T49"
    assert names(2, "hmbtgA")[1][-1] == "~T61"


def rule_bound(turns: int) -> set[tuple[int, int]]:
    """Every position a hex of a city can lie on after ``turns`` tiles, from the placement
    rule itself (5.2): a ground tile is three mutually adjacent positions, one next to an
    occupied position; an upper tile lies on occupied positions and adds none."""
    occupied = set(START)
    for _ in range(turns):
        near = {(q + dq, r + dr) for q, r in occupied for dq, dr in DIRECTIONS}
        grown = set(occupied)
        for q, r in near:  # every triangle holding a position next to the city
            for k in range(6):
                a, b = DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]
                grown |= {(q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1])}
        occupied = grown
    return occupied


def test_bound_from_the_placement_rule() -> None:
    """The positions listed are exactly what the rule allows after T tiles (module
    argument): within 2T steps of the starting tile, the hexagon of radius 2T + 1 less its
    three corners the starting tile does not point to."""
    for players, variant in SET_UPS:
        turns = turns_per_seat(players, variant)
        listed = positions(players, variant)
        assert set(listed) == rule_bound(turns)
        assert listed == sorted(listed)  # q, then r (A23)
        radius = 2 * turns + 1
        assert len(listed) == 1 + 3 * radius * (radius + 1) - 3


def test_turns_per_seat_and_game_length() -> None:
    """Each seat plays exactly T turns and a game has 2S - 1 events (S tiles in play)."""
    for players, variant in SET_UPS:
        rng = random.Random(players)
        state = GAME.new_game(players, variant=variant)
        turns = [0] * players
        events = 0
        while not state.is_over():
            events += 1
            if state.is_chance_node():
                GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
                continue
            turns[state.current_seat()] += 1
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
        assert turns == [turns_per_seat(players, variant)] * players
        assert events == GAME.learning().max_game_length(players, variant)


@settings(max_examples=5, deadline=None)
@given(st.sampled_from(SET_UPS), st.integers(0, 2**32 - 1))
def test_random_games_stay_in_the_bound(set_up: tuple[int, str], seed: int) -> None:
    """Every hex of every legal move lies in the bound, and after a seat's t-th tile within
    2t steps of the starting tile; every observation number is in [0, 1]."""
    players, variant = set_up
    listed = set(positions(players, variant))
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        seat = state.current_seat()
        laid = len(state.cities[seat].tiles) + 1
        for move in GAME.legal_moves(state):
            _, q, r, rot = parse_move(move)
            a, b = DIRECTIONS[rot], DIRECTIONS[(rot + 1) % 6]
            for hex_ in ((q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1])):
                assert hex_ in listed
                assert from_start(hex_) <= 2 * laid
        assert all(0.0 <= x <= 1.0 for x in GAME.learning().observation(state, seat))
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))


def aimed_game(players: int, variant: str, target: tuple[int, int]) -> list[int]:
    """Seat 1 lays each tile with its anchor as close to ``target`` as a legal move allows
    (the others the first legal move); the distance of each seat-1 anchor to the target."""
    rng = random.Random(0)
    state = GAME.new_game(players, variant=variant)
    missed = []
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        moves = GAME.legal_moves(state)
        if state.current_seat() == 0:
            move = min(moves, key=lambda m: steps(parse_move(m)[1:3], target))
            missed.append(steps(parse_move(move)[1:3], target))
        else:
            move = moves[0]
        GAME.apply_move(state, move)
    return missed


def test_bound_is_reached() -> None:
    """No position can be left out: with 4 players, every position 2T steps from the
    starting tile (the bound's edge, 186 of them) is the anchor of a legal move at seat 1's
    last turn of a game aimed at it; so are the farthest positions of every set-up."""
    turns = turns_per_seat(4, "hmbtga")
    edge = [p for p in positions(4, "hmbtga") if from_start(p) == 2 * turns]
    assert len(edge) == 186
    for target in edge:
        assert aimed_game(4, "hmbtga", target)[-1] == 0
    for players, variant in SET_UPS:
        reach = 2 * turns_per_seat(players, variant)
        for target in ((reach + 1, 0), (0, -reach - 1), (-reach - 1, reach + 1)):
            assert from_start(target) == reach
            missed = aimed_game(players, variant, target)
            # two steps nearer a tile (a straight line), reached on the last tile
            assert missed == [reach - 2 * t for t in range(1, reach // 2 + 1)]


def test_a_retired_rival_lets_a_city_leave_the_bound() -> None:
    """The one exception the module names: with seat 2 retired (the arbiter's doing, never
    the bindings'), seat 1 plays every turn and lays its 19th tile 38 steps out, a move
    with no id, and the observation leaves its hexes out."""
    encoding = GAME.learning().encoding(2, "hmbtga")
    assert encoding is not None
    rng = random.Random(0)
    state = GAME.new_game(2)
    state.retire(1)
    target = (60, 0)
    while len(state.cities[0].tiles) < 18 or state.is_chance_node():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        GAME.apply_move(state, min(GAME.legal_moves(state),
                                   key=lambda m: steps(parse_move(m)[1:3], target)))
    far = [m for m in GAME.legal_moves(state) if from_start(parse_move(m)[1:3]) > 36]
    assert max(from_start(parse_move(m)[1:3]) for m in far) == 38
    assert [m for m in far if m.startswith("1 @38,0 ")] == [f"1 @38,0 r{k}" for k in range(4)]
    with pytest.raises(ValueError, match=r"^Akropolis: move '1 @38,0 r0' has a part "
                                         r"'at 38,0' with no action id$"):
        encoding.action_ids("1 @38,0 r0")
    GAME.apply_move(state, "1 @38,0 r0")  # the observation leaves out what lies beyond
    seen = GAME.learning().observation(state, 0)
    lay = layout(2, "hmbtga")
    assert (len(seen),) == GAME.learning().observation_shape(2, "hmbtga")
    assert all(0.0 <= x <= 1.0 for x in seen)  # 19 tiles laid count as the bound's 18
    present = seen[lay.cities_at:lay.cities_at + HEX_NUMBERS * lay.slots:HEX_NUMBERS]
    inside = [c for c in state.cities[0].cells if from_start((q_of(c), r_of(c))) <= 36]
    assert sum(present) == len(inside) == len(state.cities[0].cells) - 3 == lay.slots


def test_every_place_and_rotation_is_taken() -> None:
    """take 1 … n+2 and r0 … r5 each name a legal move's part in random games (seats that
    always take the free tile gather stones for the dearest place)."""
    for players in (2, 3, 4):
        encoding = GAME.learning().encoding(players, "hmbtga")
        assert encoding is not None
        seen: set[str] = set()
        rng = random.Random(5)
        for _ in range(6):
            state = GAME.new_game(players)
            while not state.is_over():
                if state.is_chance_node():
                    GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
                    continue
                moves = GAME.legal_moves(state)
                seen.update(p for m in moves for p in GAME.learning().action_parts(m)
                            if not p.startswith("at "))
                GAME.apply_move(state, rng.choice([m for m in moves if m[0] == "1"]))
        assert seen == {f"take {p}" for p in range(1, players + 3)} | {
            f"r{k}" for k in range(6)}


def test_observation_of_a_position() -> None:
    """SPEC 15.4's example: seat 1 laid T05 then T22 on two tiles (level 2), seat 2 laid
    T01; seat 2 is chief architect and the refill's three draws are to come."""
    state = GAME.from_position(
        "standard HMBTGa 2 2 T02,?,?,? 2:T05@1,-1r0/T22@0,0r0 1:T01@1,-1r0")
    lay = layout(2, "HMBTGa")
    seen = list(GAME.learning().observation(state, 0))
    seen_state = GAME.from_position(seat_view(GAME, state, 0))
    assert seen == list(GAME.learning().observation(seen_state, 0))
    assert seen[:6] == [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]  # seat 1 sees; a chance node; chief 2
    stones = 2 + 3 * 18  # seat 2's start and 3 quarries a turn, 18 turns
    assert seen[6:14] == [2 / stones, 2 / 102, 2 / 18, 0.0,  # seat 1: 2 points (stones)
                          1 / stones, 2 / 102, 1 / 18, 0.0]  # 1 house x 1 star, 1 stone
    place1 = seen[14:14 + 35]
    assert place1[:2] == [1.0, 0.0]
    assert [i for i, x in enumerate(place1[2:]) if x] == [6, 11 + 2, 22 + 10]  # M b q
    assert [seen[14 + 35 * p:16 + 35 * p] for p in (1, 2, 3)] == [[0.0, 1.0]] * 3
    undrawn = seen[154:154 + 37]
    assert sum(undrawn) == 33 and undrawn[0] == undrawn[1] == undrawn[4] == 0.0  # T01 T02 T05
    assert lay.cities_at == 191
    assert lay.slots == 4 + 3 * 18
    (q0, q_range), (r0, r_range) = lay.q_span, lay.r_span

    def city(seat: int) -> list[tuple[tuple[int, int], list[float]]]:
        """Seat's hex slots in use: each position (read back) and its eight numbers."""
        base = lay.cities_at + seat * HEX_NUMBERS * lay.slots
        slots = [seen[base + k * HEX_NUMBERS:base + (k + 1) * HEX_NUMBERS]
                 for k in range(lay.slots)]
        assert all(not any(slot) for slot in slots[7:])  # 7 positions, then all 0
        return [((round(x[1] * q_range + q0), round(x[2] * r_range + r0)), x[3:])
                for x in slots[:7] if x[0] == 1.0]

    assert [p for p, _ in city(0)] == sorted(p for p, _ in city(0))  # by q, then r

    def planes(seat: int, q: int, r: int) -> list[float]:
        return dict(city(seat)).get((q, r), [0.0] * 8)

    assert planes(0, 0, 0) == [0, 1, 0, 0, 0, 1, 0, 2 / 19]  # T22's M on level 2
    assert planes(0, 1, -2) == [0, 0, 0, 0, 0, 0, 1, 1 / 19]  # T05's quarry
    assert planes(1, 0, 0) == [1, 0, 0, 0, 0, 1, 0, 1 / 19]  # the starting tile's H
    assert planes(1, 2, -2) == [0, 0, 0, 1, 0, 0, 0, 1 / 19]  # T01's temple
    assert planes(1, 5, 5) == [0] * 8
    # 7 positions a city: a type or quarry and a level each, and one plaza
    assert [sum(1 for _, x in city(s) for n in x if n) for s in (0, 1)] == [7 * 2 + 1] * 2
    seat2 = list(GAME.learning().observation(state, 1))
    assert seat2[:2] == [0.0, 1.0] and seat2[2:] == seen[2:]


def test_mcts_plays() -> None:
    """OpenSpiel's MCTSBot plays a whole 2-player game, a move as three decisions."""
    game = pyspiel.load_game("sneferu_akropolis", {"players": 2})
    assert game.num_distinct_actions() == 4226
    assert game.max_game_length() == 73 * 3
    state, decisions = play_with_mcts("sneferu_akropolis", 2, simulations=2, seed=3)
    assert decisions == 36 * 3
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])

