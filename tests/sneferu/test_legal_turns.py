"""The fast whole-turn enumeration lists exactly what the slow reference lists (SPEC 2.7).

``GameState.legal_turns`` lists a plain turn (a buy, then a placement or ``store``; or the
forced end) without trying each sequence; ``_legal_turns_reference`` tries every step
sequence on copies and keys the outcomes. They must give the same moves in the same order,
each distinct outcome once, in every variant: 1-4 players, builders, solo, and editions
that empty the bag (shifts, R4), price rows alike, or put a quarry on the start space.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import Seat, build, edition_with
from support import ROOT

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.edition import Edition, standard_edition
from sneferu_cli.games.sneferu.move import Move, legal_move_strings, legal_moves
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import GameState, Phase, new_game
from sneferu_cli.games.sneferu.steps import Step

EDITION = standard_edition()
BUILDERS = [b.name for b in EDITION.builders]
# A quarry on space 0, where Heba can stand at the start of a turn.
QUARRY_AT_0 = (('{ space = 3, material = "B", eye = true }',
                '{ space = 0, material = "B", eye = true }'),
               ("builders_start_space = 2", "builders_start_space = 0"))
EDITIONS: dict[str, Edition] = {
    "standard": EDITION,
    "small bag": edition_with(("per_type = 10", "per_type = 3")),  # the bag runs out: R4
    "flat rows": edition_with(("row_extra_food = [0, 1, 1, 2, 2, 3, 3]",
                               "row_extra_food = [0, 0, 0, 0, 1, 1, 1]")),
    "quarry at 0": edition_with(*QUARRY_AT_0),
    "7 levels": edition_with(("levels = 6", "levels = 7")),
}
PERFT = sorted((ROOT / "tests" / "data" / "perft").glob("*.json"))
# The reference is slow: at most this many states of a game are compared.
COMPARED = 12


def same_as_reference(state: GameState) -> None:
    """Fast and reference listings agree, as steps, as Move objects and as strings."""
    reference = state._legal_turns_reference()
    at = to_position(state)
    assert state.legal_turns() == reference, at
    texts = [str(Move(turn)) for turn in reference]
    assert state.legal_turn_texts() == texts, at
    assert legal_move_strings(state) == texts == [str(m) for m in legal_moves(state)], at


def is_plain(state: GameState) -> bool:
    """True where legal_turns takes the fast way (so the comparison tests something)."""
    return state._plain_turns(None, None)


@given(players=st.integers(1, 4),
       builders=st.sampled_from(["standard", "random", "chosen"]),
       edition=st.sampled_from(sorted(EDITIONS)),
       seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fast_legal_turns_equal_the_reference(players, builders, edition, seed):
    ed = EDITIONS[edition]
    rng = random.Random(seed)
    chosen: str | list[str] | None = None
    if builders == "random":
        chosen = "random"
    elif builders == "chosen":
        chosen = rng.sample(BUILDERS, players)
    state = new_game(players, builders=chosen, edition=ed)
    decisions: list[GameState] = []
    while not state.is_over():
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
        else:
            decisions.append(state.clone())
            state.apply(rng.choice(state.legal_steps()))
    plain = [s for s in decisions if is_plain(s)]
    for s in rng.sample(plain, min(COMPARED, len(plain))):
        same_as_reference(s)


def same_after_listed_turns(state: GameState, turns: list[tuple[Step, ...]]) -> None:
    """Each of ``turns`` applied unchecked gives the state the checked apply gives."""
    for turn in turns:
        checked, unchecked = state.clone(), state.clone()
        checked.apply_turn(turn)
        unchecked.apply_listed_turn(turn)
        assert to_position(unchecked) == to_position(checked), (to_position(state), turn)
        assert unchecked._turn_key(state.seat) == checked._turn_key(state.seat)


@given(players=st.integers(1, 4),
       builders=st.sampled_from(["standard", "random"]),
       edition=st.sampled_from(sorted(EDITIONS)),
       seed=st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_listed_turn_applied_unchecked_gives_the_checked_state(players, builders, edition,
                                                                 seed):
    """What the arbiter does with a listed move (apply_listed_turn) is what apply_turn does,
    for every listed turn of every start of turn of random games (R1-R10 all apply)."""
    rng = random.Random(seed)
    state = new_game(players, builders=builders if builders == "random" else None,
                     edition=EDITIONS[edition])
    while not state.is_over():
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
            continue
        turns = state.legal_turns()
        same_after_listed_turns(state, turns)
        state.apply_listed_turn(rng.choice(turns))


@pytest.mark.parametrize("path", PERFT, ids=lambda p: p.stem)
def test_move_strings_are_the_moves_written(path):
    """The perft positions (stored stones, feast, shifts, solo...): the strings engines get
    are the moves of legal_moves written out, fast way or not."""
    state = from_position(json.loads(path.read_text(encoding="utf-8"))["position"])
    assert legal_move_strings(state) == [str(m) for m in legal_moves(state)]
    if is_plain(state):
        same_as_reference(state)
    if not state.is_chance_node() and not state.is_over():  # stored stones, feast, shifts
        same_after_listed_turns(state, state.legal_turns())


def test_heba_sailing_back_to_0_from_two_spaces_is_listed_once():
    """R9/2.2: plain 3.1 ends on space 2, 3.1+ (SAVETIME) on 1; sailing back 2 lands both
    on 0 with the same food and arrival: one outcome, listed by the first sequence."""
    ed = edition_with(*QUARRY_AT_0)
    state = build([Seat(builder="Heba", space=0), Seat(builder="Lateef", space=4)],
                  offer=["", "", "BT", ""], tiles={0: "SAVETIME"}, edition=ed)
    assert state.phase == Phase.START and is_plain(state)
    texts = state.legal_turn_texts()
    assert "3.1 BT@1.1h" in texts and "3.1+ BT@1.1h" not in texts
    assert "3.1 BT@1.1" in texts and "3.1+ BT@1.1" in texts  # without sailing: 2 outcomes
    same_as_reference(state)


def test_solo_buy_that_completes_ptah_ends_the_move():
    """2.5/R7: when Ptah takes its 21st stone the game ends with the bought stone in hand,
    so the move is the buy alone."""
    state = build(1, offer=["TM", "", "BT", ""], ptah="BM" * 10 + "TG" * 10,
                  tiles={3: "FOOD1"})
    assert is_plain(state)
    texts = state.legal_turn_texts()
    assert "1.1" in texts and "1.1 TM@1.1" not in texts, texts  # quarry 3 passed
    same_as_reference(state)
