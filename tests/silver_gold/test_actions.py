"""Silver & Gold Pyramids' action encoding and observation (SPEC 16.1, issue 18 item 1):
the counts per set-up, named ids, the parts of a move and their prefix-freeness, the
completeness of the action names (every part of every legal move over random games has an
id) and their exactness (every name is a part of a legal move in a position built for it,
listed or the same move as a listed one, G26), the chance ids (a deal card by card: the
closed form of the parts' probabilities against the default), the game-length bound, a
hand-built position's observation and an observation that never shows another seat's
deal or sealed move (G21, G22)."""

from __future__ import annotations

import collections
import math
import random

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from silver_gold.helpers import Seat, build

import sneferu_cli.rl.openspiel  # noqa: F401 (registers sneferu_silver_gold)
from sneferu_cli.game import Learning, seat_view
from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.actions import (
    action_parts,
    bonus_marks,
    main_markings,
    markable,
)
from sneferu_cli.games.silver_gold.edition import standard_edition
from sneferu_cli.games.silver_gold.move import CELL_NAMES, mark_text
from sneferu_cli.games.silver_gold.state import (
    FULL,
    MARKING,
    SilverGoldState,
    new_game,
    spread,
    tables_of,
)
from sneferu_cli.rl.pettingzoo import env

TABLES = tables_of(standard_edition())
RANDOM = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kind(name: str) -> str:
    if name.startswith(("keep", "take")):
        return name.split()[0]
    if name.startswith("+"):
        return "bonus"
    return "pattern" if "," in name else "single"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_counts_per_set_up(players: int) -> None:
    encoding = GAME.learning().encoding(players)
    assert encoding is not None
    assert collections.Counter(map(kind, encoding.moves)) == {
        "keep": 48 * 47 // 2,
        # the wall-free placements of the six patterns on the 48 cards (5420), less one
        # that no state allows (card 41, below)
        "pattern": 5419,
        # the 935 non-wall cells, less five that only the tomb leads to
        "single": 930, "bonus": 930,
        "take": 48 + 1}
    assert encoding.actions == 8456
    # a main marking, 2 + 2 crosses
    assert GAME.learning().max_action_parts(players, "standard") == 5
    # 2 p deals and keeps, 4 offer cards, 28 turns of 1 + p events, 2 per card taken
    assert GAME.learning().max_game_length(players, "standard") == {2: 180, 3: 206, 4: 232}[players]
    assert GAME.learning().observation_shape(players, "standard") == ({2: 1468, 3: 2137,
                                                            4: 2806}[players],)
    assert len(encoding.outcomes) == 48 + 48 + 48 + 6  # a deal card by card
    assert GAME.learning().max_outcome_parts(players, "standard") == 4


def test_named_ids() -> None:
    encoding = GAME.learning().encoding(2)
    assert encoding is not None
    assert encoding.moves[:2] == ("keep 1 2", "keep 1 3")
    # card 1 `E##..` `...#.`: its placements by their sorted cells (b1 is a wall), ...
    assert encoding.moves[1127:1131] == ("keep 47 48", "1:a1,a2", "1:a1,a2,b2",
                                         "1:a1,a2,b2,c2")  # the L, a1 over a2 b2 c2
    assert encoding.action_id("+1:a1") == 1128 + 5419 + 930
    assert encoding.moves[-3:] == ("take 47", "take 48", "take deck")
    assert encoding.action_id("take 1") == 8456 - 49
    with pytest.raises(ValueError, match=r"^Silver & Gold Pyramids: move '1:a2,a1' has no "
                                         r"action id$"):
        encoding.action_id("1:a2,a1")  # not canonical (G26)
    assert encoding.outcomes[:2] == ("~deal:1", "~deal:2")
    assert encoding.outcomes[47:50] == ("~deal:48", "~offer:1", "~offer:2")
    assert encoding.outcome_ids("~deal:5,18,22,47") == (4, 17, 21, 46)
    assert encoding.outcome_ids("~draw:3") == (48 + 48 + 2,)
    assert encoding.outcomes[-7:] == ("~draw:48", "~exp:D2", "~exp:I3", "~exp:V3",
                                      "~exp:T4", "~exp:L4", "~exp:O4")


def test_cells_no_state_allows() -> None:
    """A cell that only the tomb leads to is never marked: the card is complete first
    (5.6, G11); so is card 41's domino c5 d5 (walls b5 c4 d4 shut both off)."""
    left_out = [(card, CELL_NAMES[k]) for card in range(1, 49) for k in range(25)
                if not TABLES.walls[card] >> k & 1
                and (k,) not in main_markings(TABLES, card)]
    assert left_out == [(5, "e4"), (11, "d5"), (13, "d5"), (41, "c5"), (41, "d5")]
    assert sum(25 - TABLES.walls[card].bit_count() for card in range(1, 49)) == 930 + 5
    wall_free = sum(1 for card in range(1, 49) for placements in TABLES.placements
                    for mask, _ in placements if not mask & TABLES.walls[card])
    assert wall_free == 5419 + 1
    assert TABLES.grid[5][15:25] == ".###X..S.T"  # e4 a red cross between walls and tomb
    domino = 1 << 22 | 1 << 23
    assert not markable(TABLES, 41, domino)
    assert markable(TABLES, 41, domino | 1 << 24)  # c5 d5 e5 through the tomb, from e4
    assert markable(TABLES, 5, 1 << 19 | 1 << 24)  # e4 e5, from d5


def test_action_parts() -> None:
    assert action_parts("16:a1,b1,c1,a2 +16:d1 +33:b2") == ("16:a1,b1,c1,a2", "+16:d1",
                                                            "+33:b2")
    assert action_parts("17:b3") == ("17:b3",)
    assert action_parts("keep 5 9") == ("keep 5 9",)
    assert action_parts("take 7") == ("take 7",)
    assert action_parts("take deck") == ("take deck",)


def test_bonus_marks_in_parts() -> None:
    """The rules' example (5.7): card 7 `E.X.X` `G#..#` after 7:a1,b1, with I3: the straight
    three over both crosses owes two bonus marks; every listed move with it has three parts
    and none is a prefix of another."""
    state = build(Seat(play={7: "a1 b1", 23: ""}), Seat(play={40: ""}), exp=("I3",))
    moves = GAME.legal_moves(state, 0)
    assert "7:c1,d1,e1 +7:c2 +7:d2" in moves
    parts = [GAME.learning().action_parts(m) for m in moves]
    # each set of two bonus cells once (G26): from the front a2 c2 d2 of card 7 (b2 and
    # e2 are walls) and the entrance of card 23 (`E...#` over `#.#.R`)
    assert [p[1:] for p in parts if p[0] == "7:c1,d1,e1"] == [
        ("+7:a2", "+7:c2"), ("+7:a2", "+7:d2"), ("+7:a2", "+7:a3"), ("+7:a2", "+23:a1"),
        ("+7:c2", "+7:d2"), ("+7:c2", "+7:c3"), ("+7:c2", "+23:a1"), ("+7:d2", "+7:d3"),
        ("+7:d2", "+23:a1"), ("+23:a1", "+23:b1")]
    assert ("7:c1,d1,e1",) not in parts  # owing two marks, it is no move by itself
    assert_prefix_free(parts)
    encoding = GAME.learning().encoding(2)
    assert encoding is not None
    assert [encoding.action_id(x) for x in ("7:c1,d1,e1", "+7:c2", "+7:d2")] == [
        encoding.moves.index(x) for x in ("7:c1,d1,e1", "+7:c2", "+7:d2")]


def assert_prefix_free(parts: list[tuple[str, ...]]) -> None:
    whole = set(parts)
    assert len(whole) == len(parts)
    for p in parts:
        assert not any(p[:i] in whole for i in range(1, len(p)))


@pytest.mark.parametrize("players", [2, 3, 4])
@RANDOM
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_have_every_part(players: int, seed: int) -> None:
    """Completeness: every part of every legal move of every deciding seat has an id, no
    legal move's parts are a proper prefix of another's, no move has more parts than
    max_action_parts, a game's moves and chance events stay within max_game_length, and
    every observation is numbers in [0, 1]."""
    encoding = GAME.learning().encoding(players)
    assert encoding is not None
    names = set(encoding.moves)
    most = GAME.learning().max_action_parts(players, "standard")
    rng = random.Random(seed)
    state = GAME.new_game(players)
    events = 0
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            events += 1
            continue
        for seat in range(players):
            observation = GAME.learning().observation(state, seat)
            assert min(observation) >= 0.0 and max(observation) <= 1.0
        for seat in GAME.deciding_seats(state):
            parts = [GAME.learning().action_parts(m) for m in GAME.legal_moves(state, seat)]
            assert all(x in names for p in parts for x in p)
            assert max(map(len, parts)) <= most
            assert_prefix_free(parts)
        seat = state.current_seat()
        move = rng.choice(GAME.legal_moves(state, seat))
        events += 1
        GAME.apply_move(state, move, seat)
    assert events <= GAME.learning().max_game_length(players, "standard")


def route_to(card: int, mask: int) -> int:
    """The marks of a shortest route of cells from the entrance of ``card`` to a cell next
    to ``mask``, avoiding ``mask``, walls and the tomb (none when ``mask`` holds the
    entrance): the fewest earlier marks that make ``mask`` legal (G4)."""
    entrance = TABLES.entrance[card]
    if mask >> entrance & 1:
        return 0
    free = FULL & ~(TABLES.walls[card] | mask | 1 << TABLES.tomb[card])
    before = {entrance: -1}
    queue = collections.deque([entrance])
    while queue:
        k = queue.popleft()
        if spread(mask) >> k & 1:
            route = 0
            while k >= 0:
                route |= 1 << k
                k = before[k]
            return route
        for j in range(25):
            if spread(1 << k) >> j & 1 and free >> j & 1 and j not in before:
                before[j] = k
                queue.append(j)
    raise AssertionError(f"card {card}: no route to {mask:#x}")


def marking_state(cards: dict[int, int], pattern: int) -> SilverGoldState:
    """Step 2 of round 1, turn 1, with ``pattern`` current and seat 1's cards in play
    marked as given (a state reached by single-cell markings on kept cards, 5.3)."""
    state = new_game(2)
    state.phase = MARKING
    state.turn = 1
    state.revealed = [pattern]
    state.play[0] = sorted(cards)
    for card, marks in cards.items():
        state.marks[card] = marks
    return state


def test_every_name_is_a_part_of_a_listed_move() -> None:
    """Exactness: each main marking is the first part of a listed move when its card has
    just the route to it marked (one that completes the card: a legal move there, the
    same move as a listed one, G26); each bonus
    mark ``+C:cell`` is a part of a listed move when the other card's main marking is a
    red cross (of the last card with one that can take it)."""
    pattern_of = {cells: p for p, placements in enumerate(TABLES.placements)
                  for _, cells in placements}
    for card in range(1, 49):
        for cells in main_markings(TABLES, card):
            mask = sum(1 << k for k in cells)
            state = marking_state({card: route_to(card, mask)}, pattern_of.get(cells, 0))
            name = mark_text(card, cells, ())
            listed = GAME.legal_moves(state, 0)
            if mask >> TABLES.tomb[card] & 1:
                # It completes the card, whose marks leave play with it: another marking
                # of the tomb with the same counters may be the same move, listed by its
                # own text (G26). Legal here (what it owes lapses, G12), it is one of them.
                assert GAME.apply_move(state.clone(), name, 0) in listed
            else:
                assert name in {GAME.learning().action_parts(m)[0] for m in listed}
    crosses = [(card, k) for card in range(48, 0, -1) for k in bonus_marks(TABLES, card)
               if TABLES.cross[card] >> k & 1]
    for card in range(1, 49):
        for k in bonus_marks(TABLES, card):
            other, x = next((c, x) for c, x in crosses if c != card)
            state = marking_state({card: route_to(card, 1 << k),
                                   other: route_to(other, 1 << x)}, 0)
            assert f"+{card}:{CELL_NAMES[k]}" in {
                part for m in GAME.legal_moves(state, 0)
                for part in GAME.learning().action_parts(m)}


def test_observation_of_a_hand_built_position() -> None:
    """Round 2, turn 2 (I3 then V3), seen by seat 2: the layout of SPEC 16.1."""
    state = build(Seat(play={7: "a1 b1", 23: ""}, red=3, green=2, torches="x---", skulls=2,
                       done=(5, 14), pts=("GRN10",)),
                  Seat(play={40: "a1"}), exp=("I3", "V3"), offer=(9, 12), round=2)
    observation = list(GAME.learning().observation(state, 1))
    assert len(observation) == 132 + 2 * 668
    head, seat_1 = observation[:132], observation[132:800]
    assert head[:2] == [0, 1]  # seen by seat 2
    assert head[2:6] == [0, 1, 0, 0]  # round 2
    assert head[6:14] == [0, 0, 1, 0, 0, 0, 0, 0]  # turn 2 (0-7)
    assert head[14:23].index(1.0) == 4  # mark
    assert head[23:29] == [0, 0, 1, 0, 0, 0]  # V3 (D2 I3 V3 T4 L4 O4)
    assert head[29:35] == [1, 1 / 2, 1 / 2, 1, 1, 1]  # copies still unrevealed this round
    assert [k + 1 for k in range(48) if head[35 + k]] == [9, 12]  # the offer
    assert head[83] == (48 - 2 - 4 - 1) / 48  # the deck: not in the offer, nor a seat's
    assert head[84:132] == [0.0] * 48  # seat 2 was dealt nothing now
    # seat 1: not retired, still to decide, not taking, owes none; R3 G2 S2; torch 1
    assert seat_1[:11] == [0, 1, 0, 0, 0.3, 0.2, 0.2, 1, 0, 0, 0]
    # 20 (two cards) + 5 (torch) + 10 (box) + 2 pairs and a red (11) - 2 (skulls) = 44
    assert seat_1[11] == (44 + 20) / 250
    assert seat_1[12:21] == [0, 0, 0, 0, 0, 0, 1, 0, 0]  # GRN10 (PUR ORA GRN x 10 6 3)
    assert [k + 1 for k in range(48) if seat_1[21 + k]] == [5, 14]
    assert seat_1[69:72] == [0, 0, 2 / 16]
    chamber = seat_1[72:370]  # card 7: E.X.X G#..# S..R. #.P#. ..G.T
    assert chamber[:48].index(1.0) == 6
    walls, entrance, tomb, red, green, torch, skull, potion, cross = (
        [k for k in range(25) if chamber[48 + 25 * plane + k]] for plane in range(9))
    assert (walls, entrance, tomb, red, green, torch, skull, potion, cross) == (
        [6, 9, 15, 18], [0], [24], [13], [5, 22], [], [10], [17], [2, 4])
    assert [k for k in range(25) if chamber[273 + k]] == [0, 1]  # a1 b1 marked
    assert seat_1[370:418].index(1.0) == 22  # card 23, unmarked
    assert seat_1[643:668] == [0.0] * 25
    seen = GAME.from_position(seat_view(GAME, state, 1))
    assert list(GAME.learning().observation(seen, 1)) == observation


def test_observation_never_shows_another_seats_deal_or_sealed_move() -> None:
    """G21, G22: two states that differ only in seat 2's deal, or only in whether (and
    what) seat 2 has sealed, look the same to seat 1; seat 2 sees the difference."""
    states = []
    for deal in ("~deal:5,6,7,8", "~deal:9,10,11,12"):
        state = GAME.new_game(2)
        GAME.apply_outcome(state, "~deal:1,2,3,4")
        GAME.apply_outcome(state, deal)
        states.append(state)
    sealed = states[1].clone()
    GAME.apply_move(sealed, "keep 9 12", 1)
    other = states[1].clone()
    GAME.apply_move(other, "keep 10 11", 1)
    seen = [GAME.learning().observation(s, 0) for s in (*states, sealed, other)]
    assert seen[1:] == seen[:1] * 3
    own = [GAME.learning().observation(s, 1) for s in (*states, sealed)]
    assert own[0] != own[1] != own[2]  # its deal; then its own answer (no longer deciding)
    mark = build(Seat(play={7: "a1 b1", 23: ""}), Seat(play={40: "a1"}), exp=("I3",))
    marked = mark.clone()
    GAME.apply_move(marked, "40:b1,c1,d1", 1)
    assert GAME.learning().observation(marked, 0) == GAME.learning().observation(mark, 0)
    assert GAME.learning().observation(marked, 1) != GAME.learning().observation(mark, 1)


def test_pettingzoo_takes_a_marking_in_parts() -> None:
    """The rules' example (5.7) through the PettingZoo binding: the straight three over
    card 7's two crosses, then one bonus mark a step; the mask offers only the parts that
    continue a listed move (G26: {a2, c2} is listed a2 first), the parts chosen show in the
    seat's own observation only, and the whole move is sealed when its last part is in."""
    e = env(game="silver-gold", players=2)
    e.reset(seed=1)
    e.state = build(Seat(play={7: "a1 b1", 23: ""}), Seat(play={40: ""}), exp=("I3",))
    e._advance()
    encoding = e.encoding
    ids = {name: encoding.moves.index(name) for name in (
        "7:c1,d1,e1", "+7:a2", "+7:c2", "+7:d2", "+7:c3", "+23:a1")}

    def mask(agent: str) -> list[int]:
        return list(np.flatnonzero(e.observe(agent)["action_mask"]))

    assert e.agent_selection == "seat_1" and ids["7:c1,d1,e1"] in mask("seat_1")
    e.step(ids["7:c1,d1,e1"])
    assert e.agent_selection == "seat_1"
    assert mask("seat_1") == sorted(ids[x] for x in ("+7:a2", "+7:c2", "+7:d2", "+23:a1"))
    # the parts chosen: 4 slots (5 parts at most), each 1 and the id in 14 bits (8456 ids)
    tail = e.observe("seat_1")["observation"][-4 * 15:]
    assert tail[0] == 1.0 and not tail[15:].any()
    assert sum(int(b) << i for i, b in enumerate(tail[1:15])) == ids["7:c1,d1,e1"]
    assert not e.observe("seat_2")["observation"][-4 * 15:].any()
    e.step(ids["+7:c2"])
    assert mask("seat_1") == sorted(ids[x] for x in ("+7:d2", "+7:c3", "+23:a1"))
    e.step(ids["+7:d2"])
    assert e.agent_selection == "seat_2"
    assert str(e.state.sealed[0]) == "7:c1,d1,e1 +7:c2 +7:d2"


def test_openspiel_game() -> None:
    """The OpenSpiel game (tests/test_rl.py has OpenSpiel's MCTSBot play it): its bound on
    a game's actions is max_game_length times max_action_parts; its chance ids are the
    parts of the outcomes."""
    game = pyspiel.load_game("sneferu_silver_gold", {"players": 3})
    assert game.num_distinct_actions() == 8456
    assert game.max_chance_outcomes() == 150  # 48 deal cards, 48 offer, 48 draw, 6 exp
    assert game.max_game_length() == 206 * 5  # a move's parts (5) outnumber a deal's (4)
    assert game.observation_tensor_shape() == [2137 + 4 * (1 + 14)]  # the parts chosen


def deal_state(players: int, deals: tuple[str, ...]) -> SilverGoldState:
    state = GAME.new_game(players)
    for deal in deals:
        GAME.apply_outcome(state, deal)
    return state


def test_deal_parts_closed_form() -> None:
    """A deal card by card, ascending (SPEC 16.1): with k cards to deal after card l and
    m(x) deck cards above x, card c comes next with probability C(m(c), k-1) / C(m(l), k)."""
    first = deal_state(2, ())
    parts = GAME.learning().chance_part_outcomes(first, ())
    assert [c for c, _ in parts] == [f"~deal:{c}" for c in range(1, 46)]  # 3 above 45
    assert parts[0][1] == pytest.approx(4 / 48)  # C(47, 3) / C(48, 4): card 1 dealt
    assert parts[-1][1] == pytest.approx(1 / 194_580)  # 45 46 47 48
    after_5 = dict(GAME.learning().chance_part_outcomes(first, ("~deal:5",)))
    assert after_5["~deal:6"] == pytest.approx(3 / 43)  # C(42, 2) / C(43, 3)
    assert "~deal:5" not in after_5 and "~deal:47" not in after_5
    last = GAME.learning().chance_part_outcomes(first, ("~deal:5", "~deal:18", "~deal:22"))
    assert last == [(f"~deal:{c}", 1 / 26) for c in range(23, 49)]
    assert GAME.learning().outcome_of_parts(first, ("~deal:5", "~deal:18", "~deal:22")) is None
    assert GAME.learning().outcome_of_parts(
        first, ("~deal:5", "~deal:18", "~deal:22", "~deal:47")) \
        == "~deal:5,18,22,47"
    assert GAME.learning().outcome_parts("~deal:5,18,22,47") == ("~deal:5", "~deal:18", "~deal:22",
                                                        "~deal:47")
    # seat 2's deal is from the 44 cards seat 1 did not get
    second = deal_state(2, ("~deal:1,2,3,5",))
    assert GAME.learning().chance_part_outcomes(second, ())[:2] == [
        ("~deal:4", pytest.approx(4 / 44)), ("~deal:6", pytest.approx(math.comb(42, 3)
                                                                       / math.comb(44, 4)))]


@pytest.mark.parametrize("deals", [(), ("~deal:1,2,3,5", "~deal:9,20,31,42")])
def test_deal_parts_as_the_default_aggregator(deals: tuple[str, ...]) -> None:
    """The closed form is the default (Game.chance_part_outcomes: the node's outcomes
    summed by prefix) along a deal's parts, and a sample of deals' products of their parts'
    probabilities are their own (uniform over the 4-card sets of the deck)."""
    state = deal_state(3, deals)
    outcomes = GAME.chance_outcomes(state)
    rng = random.Random(len(deals))
    parts = GAME.learning().outcome_parts(rng.choice(outcomes)[0])
    for k in range(4):
        closed = GAME.learning().chance_part_outcomes(state, parts[:k])
        summed = Learning.chance_part_outcomes(GAME.learning(), state, parts[:k])
        assert [c for c, _ in closed] == [c for c, _ in summed]
        assert [p for _, p in closed] == pytest.approx([p for _, p in summed])
        assert Learning.outcome_of_parts(GAME.learning(), state, parts[:k + 1]) \
            == GAME.learning().outcome_of_parts(state, parts[:k + 1])
    for outcome, probability in rng.sample(outcomes, 50):
        chosen: tuple[str, ...] = ()
        product = 1.0
        for part in GAME.learning().outcome_parts(outcome):
            product *= dict(GAME.learning().chance_part_outcomes(state, chosen))[part]
            chosen += (part,)
        assert product == pytest.approx(probability) == pytest.approx(1 / math.comb(
            48 - 4 * len(deals), 4))
        assert GAME.learning().outcome_of_parts(state, chosen) == outcome


def test_openspiel_partial_deal_shows_nothing() -> None:
    """G21 through OpenSpiel: two games that deal seat 1 different cards look the same to
    seat 2 (information state, observation string and tensor) at every step; a deal's first
    three cards change nothing any seat sees, its fourth shows the seat its cards."""
    game = pyspiel.load_game("sneferu_silver_gold", {"players": 2})
    states = [game.new_initial_state() for _ in range(2)]
    encoding = GAME.learning().encoding(2)
    assert encoding is not None

    def seen(state: pyspiel.State, seat: int) -> tuple[str, str, list[float]]:
        return (state.information_state_string(seat), state.observation_string(seat),
                state.observation_tensor(seat))

    def all_seen() -> list[tuple[str, str, list[float]]]:
        return [seen(state, seat) for state in states for seat in (0, 1)]

    start = all_seen()
    for card in (5, 18, 22):
        for k, state in enumerate(states):
            state.apply_action(encoding.outcome_id(f"~deal:{card + k}"))
        assert all_seen() == start
    for k, state in enumerate(states):
        state.apply_action(encoding.outcome_id(f"~deal:{47 + k}"))  # 5,18,22,47 / 6,19,23,48
    dealt = all_seen()
    assert dealt[0] != dealt[2]  # seat 1 sees its own cards
    assert dealt[1] == dealt[3] != start[1]  # seat 2 sees a deal (deck:44), not its cards
    assert " 1: R0 G0 F:---- S0 done:- pts:- dealt:? |" in dealt[1][1]
    for card in (10, 11, 12):  # seat 2's deal, part by part
        for state in states:
            state.apply_action(encoding.outcome_id(f"~deal:{card}"))
        assert all_seen() == dealt
    for state in states:
        state.apply_action(encoding.outcome_id("~deal:13"))
    assert seen(states[0], 1) == seen(states[1], 1) != dealt[1]
    assert "dealt:10,11,12,13" in states[0].information_state_string(1)


@pytest.mark.parametrize("players", [2, 4])
def test_kept_chambers_give_the_observation_made_anew(players: int) -> None:
    """Each chamber's numbers (a card's grid planes and its marks, 5.2) are kept until the
    card is marked anew: at every decision of a random game, every seat's observation
    with the chambers kept is the one made with none kept."""
    from sneferu_cli.games.silver_gold.actions import _chambers

    rng = random.Random(players)
    state = GAME.new_game(players)
    learning = GAME.learning()
    decisions = 0
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        for seat in range(players):
            kept = learning.observation(state, seat)
            _chambers(state.tables).clear()
            assert learning.observation(state, seat) == kept
        seat = rng.choice(GAME.deciding_seats(state))
        GAME.apply_move(state, rng.choice(GAME.legal_moves(state, seat)), seat, listed=True)
        decisions += 1
    assert decisions and _chambers(state.tables)


def test_observation_of_a_retired_seat() -> None:
    """A seat that retires at the sealed marking leaves it (SPEC 14.1): retired, no longer
    to decide, in every seat's observation."""
    state = build(Seat(play={7: "a1 b1"}), Seat(play={40: "a1"}), Seat(play={23: ""}),
                  exp=("I3",))
    state.retire(1)
    for seat in range(3):
        seats = list(GAME.learning().observation(state, seat))[133:]  # after the head
        assert [seats[668 * s:668 * s + 2] for s in range(3)] == [[0, 1], [1, 0], [0, 1]]
