"""Property tests: invariants at every step of random games, in every variant.

Hypothesis draws the set-up (1-4 players; the standard game, builders drawn at random, or
builders chosen) and a seed. The game is driven as the bench drives it: chance with
``sample_outcome``, decisions uniformly among ``legal_steps()``. At every step the state is
checked against the rules (docs/RULES.md) with code written independently of the
engine's bit masks: stones conserved, food, boats, pyramids, the position notation
round-trip, every listed step legal, unlisted steps rejected without a trace, chance
odds; on a sample of states the whole legal moves; at the end the ranking (R6) and the
solo score (section 6, R10).
"""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sneferu_cli.games.sneferu import GAME
from sneferu_cli.games.sneferu.bench import actions
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.check import enclosed_areas, slot_list
from sneferu_cli.games.sneferu.components import Material, Stone, Tile
from sneferu_cli.games.sneferu.edition import standard_edition
from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import GameState, IllegalAction, Phase, new_game
from sneferu_cli.games.sneferu.steps import (
    DONE,
    END,
    FEAST,
    STORE,
    Action,
    Arrive,
    Assign,
    Buy,
    Draw,
    LayTile,
    Place,
    Shift,
)

EDITION = standard_edition()
BUILDERS = [b.name for b in EDITION.builders]
LEVELS = EDITION.pyramid.levels  # 6
LAST = EDITION.river.last_space  # 40
# Whole legal moves are listed on about one decision state in this many.
TURNS_EVERY = 25
# At most this many of them are applied and read back as notation.
TURNS_APPLIED = 150
# Unlisted actions tried on every state.
UNLISTED_TRIES = 6

CHECKED = settings(max_examples=40, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, str | list[str] | None, int]:
    """(players, builders, seed): standard, random builders or chosen builders."""
    players = draw(st.integers(1, 4))
    kind = draw(st.sampled_from(["standard", "random", "chosen"]))
    builders: str | list[str] | None = None
    if kind == "random":
        builders = "random"
    elif kind == "chosen":
        builders = draw(st.permutations(BUILDERS))[:players]
    return players, builders, draw(st.integers(0, 2**32 - 1))


# --------------------------------------------------------------------------- one state

SLOT_LIST = slot_list(LEVELS)
INDEX = {ls: i for i, ls in enumerate(SLOT_LIST)}


def check_invariants(state: GameState) -> None:
    """Conservation and bounds that hold in every state of every game (``GAME.check``:
    stones conserved by type, food, boats, pyramids against their masks)."""
    GAME.check(state)


def expected_chance(state: GameState) -> dict[str, int]:
    """The outcomes of a chance node and their weights, from the rules (section 2, 4.7)."""
    if state.phase == Phase.DRAW:
        return {f"~{Stone(s).name}": n for s, n in enumerate(state.bag) if n}
    if -1 in state.tiles:  # tiles in track order, eye tiles on the eye spaces
        q = state.tiles.index(-1)
        eye = EDITION.river.quarries[q].eye
        left = Counter({Tile[t.kind]: (t.eye if eye else t.count - t.eye) for t in EDITION.tiles})
        for j, k in enumerate(state.tiles):
            if k >= 0 and EDITION.river.quarries[j].eye == eye:
                left[Tile(k)] -= 1
        return {f"~{k.name}": n for k, n in left.items() if n > 0}
    if any(len(col) < 7 for col in state.offer):
        return {f"~{Stone(s).name}": n for s, n in enumerate(state.bag) if n}
    if any(p.builder is None for p in state.players) and state.variant.value == "builders":
        taken = {p.builder.name for p in state.players if p.builder}
        return {f"~{b}": 1 for b in BUILDERS if b not in taken}
    return {f"~{i + 1}": 1 for i, p in enumerate(state.players) if p.arrival < 0}


def check_chance(state: GameState) -> None:
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node with no outcome"
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    weights = {str(o): w for o, w in state.chance_weights()}
    assert len(weights) == len(outcomes)
    assert weights == expected_chance(state)
    total = sum(weights.values())
    for o, p in outcomes:
        assert math.isclose(p, weights[str(o)] / total)


def check_round_trip(state: GameState) -> str:
    text = to_position(state)
    again = from_position(text)
    assert to_position(again) == text
    assert again.legal_steps() == state.legal_steps()
    assert again.chance_weights() == state.chance_weights()
    assert again.is_over() == state.is_over()
    return text


def random_action(rng: random.Random) -> Action:
    """Any action at all, syntactically valid or not, often illegal where it is tried."""
    mat = list(Material)
    kind = rng.randrange(11)
    if kind == 0:
        return Buy(rng.randint(0, 5), rng.randint(0, 8), rng.random() < 0.5)
    if kind in (1, 2):
        return Place(rng.randint(0, 7), rng.randint(0, 7), rng.choice(mat), rng.choice(mat),
                     rng.random() < 0.3)
    if kind == 3:
        return Shift(rng.randint(0, 5), rng.randint(0, 5))
    if kind == 4:
        return rng.choice([STORE, FEAST, END, DONE])
    if kind == 5:
        return Draw(rng.choice(list(Stone)))
    if kind == 6:
        return LayTile(rng.choice(list(Tile)))
    if kind == 7:
        return Arrive(rng.randint(-1, 5))
    if kind == 8:
        return Assign(rng.choice([*BUILDERS, "Imhotep"]))
    # Syntactically valid and close to legal: a real offer cell or a real slot.
    if kind == 9:
        return Buy(rng.randint(1, 4), rng.randint(1, 7), rng.random() < 0.5)
    n, k = rng.choice(SLOT_LIST)
    a, b = rng.sample(mat, 2)
    return Place(n, k, a, b, rng.random() < 0.2)


def near_miss(action: Action, rng: random.Random) -> Action:
    """A listed action changed a little: the bonus or the sail-back toggled, another slot."""
    if type(action) is Buy:
        return Buy(action.column, action.row + rng.choice([0, 1]), not action.bonus)
    if type(action) is Place:
        if rng.random() < 0.5:
            return Place(action.level, action.slot, action.left, action.right, not action.heba)
        n, k = rng.choice(SLOT_LIST)
        return Place(n, k, action.left, action.right, action.heba)
    if type(action) is Shift:
        return Shift(action.target, action.source)
    return random_action(rng)


def check_steps(state: GameState, text: str, rng: random.Random) -> None:
    """Every listed action applies; unlisted ones are rejected and change nothing."""
    listed = actions(state)
    assert len(set(listed)) == len(listed), "an action listed twice"
    for action in listed:
        state.clone().apply(action)
    steps = state.legal_steps()
    tried = 0
    while tried < UNLISTED_TRIES:
        action = near_miss(rng.choice(listed), rng) if listed and tried % 2 else \
            random_action(rng)
        if action in listed:
            continue
        tried += 1
        try:
            state.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"unlisted {action} was applied at {text}")
        assert to_position(state) == text, f"rejected {action} changed the state"
        assert state.legal_steps() == steps


def check_turns(state: GameState, rng: random.Random) -> None:
    """The whole legal moves: distinct, with distinct outcomes, covering every legal step's
    outcome; each applies and round-trips as notation (the empty move as ``done``)."""
    turns = state.legal_turns()
    assert turns and len(set(turns)) == len(turns)
    outcomes = []
    for t in turns:
        after = state.clone()
        after.apply_turn(t)
        outcomes.append(to_position(after))
    assert len(set(outcomes)) == len(outcomes), "two listed moves with the same outcome"

    def first_outcome(step: Action) -> str:
        after = state.clone()
        after.apply(step)
        return to_position(after)

    firsts = {first_outcome(t[0] if t else DONE) for t in turns}
    for step in state.legal_steps():
        assert first_outcome(step) in firsts, f"{step} leads nowhere listed"
    for t in rng.sample(turns, min(len(turns), TURNS_APPLIED)):
        text = str(Move(t))
        assert Move.from_str(text).steps == t
        assert str(Move.from_str(text)) == text


def check_effects(before: GameState, step: Action, after: GameState) -> None:
    """Food and boats after a step, computed from the rules (4.1-4.5, section 7)."""
    seat = before.seat
    p0, p1 = before.players[seat], after.players[seat]
    for i, (a, b) in enumerate(zip(before.players, after.players, strict=True)):
        if i != seat:
            assert (a.food, a.space) == (b.food, b.space), f"{step} changed seat {i + 1}"
    food, space = p0.food, p0.space
    if type(step) is Buy:
        column = EDITION.offer.columns[step.column - 1]
        cost, time = column.food + EDITION.offer.row_extra_food[step.row - 1], column.time
        if step.bonus:
            q = next(i for i, q in enumerate(EDITION.river.quarries)
                     if q.space == before.start_space)
            tile = Tile(before.tiles[q])
            amount = EDITION.tile_amount(tile)
            if tile == Tile.NOEXTRA:
                cost = column.food
            elif tile == Tile.SAVETIME:
                time = max(0, time - amount)
            elif tile == Tile.TIMEFOOD:
                time += 1
            food += amount if tile in (Tile.FOOD1, Tile.FOOD2, Tile.TIMEFOOD) else 0
        food, space = food - cost, space + time
        assert after.hand == before.offer[step.column - 1][step.row - 1]
        bought = before.offer[step.column - 1][:]
        del bought[step.row - 1]
        assert after.offer[step.column - 1] == bought
        if after.ptah is not None:  # R7: Ptah takes bottom stones of the other columns
            assert before.ptah is not None
            taken: Counter[int] = Counter()
            for c, (was, now) in enumerate(zip(before.offer, after.offer, strict=True)):
                if c != step.column - 1:
                    assert was[len(was) - len(now):] == now
                    taken.update(was[:len(was) - len(now)])
            gained = Counter({s: after.ptah[s] - before.ptah[s] for s in Stone})
            assert +gained == taken
    elif type(step) is Place:
        cells = p0.pyramid.stones
        n, k = step.level, step.slot
        food += sum(i.food for i in EDITION.pyramid.icons if (i.level, i.slot) == (n, k))
        new = (Counter(enclosed_areas(p1.pyramid.stones, LEVELS))
               - Counter(enclosed_areas(cells, LEVELS)))
        chart = EDITION.pyramid.area_food
        aya = p0.builder.name == "Aya" if p0.builder else False
        for size, times in new.items():  # R1: 11 or more cells give the last entry
            food += times * (1 if aya and size == 1 else chart[min(size, len(chart)) - 1])
        sides = INDEX.get((n, k - 1)), INDEX.get((n, k + 1))
        if (p0.builder and p0.builder.name == "Tsekani" and None not in sides
                and all(cells[i] >= 0 for i in sides if i is not None)):
            food += 1
        if step.heba:
            space = max(0, space - 2)
    elif type(step) is type(FEAST):
        levels = {SLOT_LIST[i][0] for i, v in enumerate(p0.pyramid.stones) if v >= 0}
        food += 2 * len(levels)
    elif type(step) is type(END):
        food, space = food + 5 * (LAST - space), LAST
    assert (p1.food, p1.space) == (food, space), f"{step}: food and space"


# --------------------------------------------------------------------------- the end

def r6_ranks(state: GameState) -> list[int]:
    """Ranks by R6: not retired, stones, food, enclosed areas largest first; ties share."""
    keys = [(not p.retired, p.pyramid.count, p.food, sorted(p.pyramid.areas, reverse=True))
            for p in state.players]
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for place, i in enumerate(order, start=1):
        earlier = order[place - 2] if place > 1 else None
        ranks[i] = ranks[earlier] if earlier is not None and keys[earlier] == keys[i] else place
    return ranks


def check_end(state: GameState) -> None:
    assert state.is_over() and not state.is_chance_node()
    assert state.legal_steps() == [] and state.chance_weights() == []
    assert state.current_seat() == -1
    standings = state.ranking()
    assert [s.seat for s in standings] == list(range(len(state.players)))
    if state.ptah is None:
        assert all(p.retired or p.space == LAST for p in state.players)
        assert [s.rank for s in standings] == r6_ranks(state)
        assert min(s.rank for s in standings) == 1
        return
    p, result = state.players[0], state.solo_result()
    ptah = sum(state.ptah)
    assert result.stones == p.pyramid.count and result.ptah == ptah
    won = not p.retired and ptah < 21 and p.pyramid.count > ptah
    assert result.won == won
    assert standings[0].rank == (1 if won else 2)
    if won:  # 3 x stones + food // 3 - Ptah's stones; title bands of R10
        score = 3 * p.pyramid.count + p.food // 3 - ptah
        assert result.score == score
        bands = [(51, "Top of the pyramid!"), (46, "Phara-oh yeah!"), (41, "Good, quarry on!"),
                 (31, "A cleo-pat on the back"), (-math.inf, "A-noob-is")]
        assert result.title == next(title for low, title in bands if score >= low)
    else:
        assert result.score is None and result.title is None
        assert p.retired or ptah >= 21 or p.space == LAST


# --------------------------------------------------------------------------- the tests

@CHECKED
@given(setups())
def test_every_step_of_random_games_keeps_the_rules(setup):
    players, builders, seed = setup
    state = new_game(players, builders=builders)
    rng, probe = random.Random(seed), random.Random(~seed)
    while True:
        check_invariants(state)
        text = check_round_trip(state)
        check_steps(state, text, probe)
        if state.is_over():
            break
        if state.is_chance_node():
            check_chance(state)
            state.apply(sample_outcome(state, rng))
            continue
        assert state.current_seat() == state.seat and not state.players[state.seat].retired
        # Each stored stone multiplies the moves (orders and slots): keep the lists small.
        if len(state.players[state.seat].store) < 2 and probe.randrange(TURNS_EVERY) == 0:
            check_turns(state, probe)
        before = state.clone()
        step = rng.choice(state.legal_steps())
        state.apply(step)
        check_effects(before, step, state)
    check_end(state)


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(1, 30), st.floats(0.0, 0.3))
def test_retired_seats_take_no_turns_and_rank_last(setup, first, chance):
    """An engine fault retires a seat at a turn start: the game goes on without it.

    The first retirement comes at the first turn start from turn ``first`` on, later ones
    at each turn start with probability ``chance``.
    """
    players, builders, seed = setup
    state = new_game(players, builders=builders)
    rng = random.Random(seed)
    retired: set[int] = set()
    while not state.is_over():
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
            continue
        assert state.seat not in retired
        kept = [i for i in range(players) if i not in retired]
        if state.phase == Phase.START and state.turn >= first and (
                not retired or rng.random() < chance):
            seat = rng.choice(kept)
            state.retire(seat)
            retired.add(seat)
            assert state.players[seat].retired
            check_invariants(state)
            # The game goes on while a seat not retired still has its boat before the end.
            going = any(i not in retired and p.space < LAST
                        for i, p in enumerate(state.players))
            assert state.is_over() != going
            if state.phase == Phase.START:
                assert state.seat not in retired
            continue
        state.apply(rng.choice(state.legal_steps()))
    assert retired or state.turn < first
    assert [i for i, p in enumerate(state.players) if p.retired] == sorted(retired)
    check_invariants(state)
    check_end(state)
    standings = state.ranking()
    if players > 1:
        worst_kept = max((s.rank for s in standings if not s.retired), default=0)
        assert all(s.rank > worst_kept for s in standings if s.retired)
    elif retired:
        assert not state.solo_result().won
