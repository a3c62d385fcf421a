"""OpenSpiel states as text (SPEC 16.2): ``serialize_state`` writes the game with its
parameters and the action ids (chance ids included) in a few hundred bytes, no pickle;
``deserialize_state`` replays them through the rules, so a text gives a legal state or a
ValueError of one line. For every registered game with an encoding (the test-only ones
too), at the start, half way through a random game and at its end; OpenSpiel's own
``serialize_game_and_state`` and ``pickle`` carry the same text."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
import sealed_rl_game
from games import register_all
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sealed_rl_game.register()
register_all()

import pyspiel  # noqa: E402

import sneferu_cli.rl.openspiel as spiel  # noqa: E402
from sneferu_cli.game import get_game  # noqa: E402
from sneferu_cli.rl import encoded_games  # noqa: E402

spiel.register()
SPIEL_SET_UPS = [(g.name, n) for g in encoded_games() for n in spiel.spiel_players(g)]


def random_states(game: Any, seed: int) -> list[Any]:
    """Clones of a random game's state at its start, half way and at its end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return [states[0], states[len(states) // 2], states[-1]]


def same(a: Any, b: Any) -> None:
    """``a`` and ``b`` are the same state to every seat and to OpenSpiel."""
    assert (str(a), a.history(), a.current_player(), a.is_terminal(), a.returns()) == \
        (str(b), b.history(), b.current_player(), b.is_terminal(), b.returns())
    for seat in range(a.num_players()):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()


@pytest.mark.parametrize(("name", "players"), SPIEL_SET_UPS)
def test_round_trip(name: str, players: int) -> None:
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": players})
    for state in random_states(game, seed=players):
        text = spiel.serialize_state(state)
        assert text == state.serialize()
        lines = text.split("\n")
        assert lines[0] == str(game)
        assert lines[1].split() == ["actions", *map(str, state.history())]
        for copy in (spiel.deserialize_state(text), game.deserialize_state(text),
                     pyspiel.deserialize_game_and_state(
                         pyspiel.serialize_game_and_state(game, state))[1],
                     pickle.loads(pickle.dumps(state))):
            same(copy, state)
            assert copy.serialize() == text
        if not state.is_terminal():  # the copy goes on as the state does
            copy = spiel.deserialize_state(text)
            action = (state.chance_outcomes()[0][0] if state.is_chance_node()
                      else state.legal_actions()[-1])
            copy.apply_action(action)
            state.apply_action(action)
            same(copy, state)


@pytest.mark.parametrize("name", ["sneferu", "imhotep", "silver-gold", "akropolis"])
def test_size(name: str) -> None:
    """A few hundred bytes half way through a 2-player game: the action ids, not the
    state (OpenSpiel's own form used to pickle every seat's view of every event)."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    start, middle, end = random_states(game, seed=1)
    assert len(spiel.serialize_state(start)) < 60
    assert len(spiel.serialize_state(middle)) < 500
    assert len(spiel.serialize_state(end)) < 1000
    assert len(pyspiel.serialize_game_and_state(game, middle)) < 1500


def test_from_a_position() -> None:
    """A state made from a position (``spiel_state``) keeps that position: it is the
    start the actions are replayed from."""
    game = pyspiel.load_game("sneferu_imhotep", {"players": 3})
    *_, end = random_states(game, seed=4)
    imhotep = get_game("imhotep")
    history = end.history()
    truth = game.new_initial_state()
    for action in history[:40]:
        truth.apply_action(action)
    state = spiel.spiel_state("imhotep", str(truth))
    for action in history[40:50]:
        state.apply_action(action)
    text = spiel.serialize_state(state)
    assert text.split("\n")[1] == "position " + imhotep.to_position(truth.state)
    same(spiel.deserialize_state(text), state)


GOOD = "sneferu_sealed_rl(players=2,variant=standard)\nactions 0 285 287"


@pytest.mark.parametrize(("text", "message"), [
    ("", r"^serialized state: 1 lines, not 2 or 3 \(the game, a position if any, the "
         r"actions\)$"),
    ("sneferu_chess(players=2,variant=standard)\nactions",
     r"^serialized state, line 1: 'sneferu_chess\(players=2,variant=standard\)' is no "
     r"registered game with its parameters \(sneferu_NAME\(players=N,variant=V\)\)$"),
    ("sneferu_sealed_rl(players=9,variant=standard)\nactions",
     r"^serialized state, line 1: Sealed Goofspiel is for 2 to 4 players in OpenSpiel, "
     r"not 9$"),
    (GOOD.replace("actions", "moves"),
     r"^serialized state, line 2: 'moves 0 285 287' does not begin with 'actions'$"),
    (GOOD + " x", r"^serialized state, line 2: action 4, 'x', is not an action id$"),
    (GOOD + " -1", r"^serialized state, line 2: action 4, '-1', is not an action id$"),
    (GOOD + " 99999", r"^serialized state, line 2: action 4, action id 99999, is not "
                      r"legal there$"),
    (GOOD.replace("285", "0"), r"^serialized state, line 2: action 2, chance id 0, is not "
                               r"legal there$"),
    (GOOD.replace("\n", "\nposition nonsense\n"), r"^serialized state, line 2: .+$"),
    (GOOD.replace("\n", "\nmoves\n"),
     r"^serialized state, line 2: 'moves' is not 'position TEXT'$"),
    ("history=-1:0\nmove_number=1\n__dict__=gASV",  # OpenSpiel's form: never unpickled
     r"^serialized state, line 1: 'history=-1:0' is no registered game"),
])
def test_bad_text(text: str, message: str) -> None:
    """Any text: a legal state or a ValueError of one line naming the line and what."""
    with pytest.raises(ValueError, match=message) as caught:
        spiel.deserialize_state(text)
    assert "\n" not in str(caught.value)


def test_another_games_text() -> None:
    game = pyspiel.load_game("sneferu_sealed_rl", {"players": 3})
    with pytest.raises(ValueError, match=r"^serialized state, line 1: 'sneferu_sealed_rl\("
                                         r"players=2,variant=standard\)' is not the game "
                                         r"sneferu_sealed_rl\(players=3,"):
        game.deserialize_state(GOOD)
    assert str(spiel.deserialize_state(GOOD)) == str(
        pyspiel.load_game("sneferu_sealed_rl").deserialize_state(GOOD))


def test_the_end_is_the_end() -> None:
    game = pyspiel.load_game("sneferu_sealed_rl", {"players": 2})
    *_, end = random_states(game, seed=2)
    text = spiel.serialize_state(end) + " 0"
    n = len(end.history()) + 1
    with pytest.raises(ValueError, match=rf"^serialized state, line 2: action {n} \(0\) "
                                         r"after the end of the game$"):
        spiel.deserialize_state(text)


TEXTS = [spiel.serialize_state(state) for name in ("imhotep", "silver-gold", "sealed-parts")
         for state in random_states(pyspiel.load_game(spiel.short_name(get_game(name))),
                                    seed=1)[1:]]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.sampled_from(TEXTS), edits=st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from("0123456789 \nabx_()=,-~?.:"),
              st.sampled_from(["set", "insert", "delete"])), min_size=1, max_size=3))
def test_any_text_is_a_state_or_one_line(text: str, edits: list[tuple[int, str, str]]
                                         ) -> None:
    """A serialized state with a few characters changed: a legal state (every action
    replayed as legal) or a ValueError of one line, never another exception."""
    chars = list(text)
    for at, char, edit in edits:
        k = at % (len(chars) + 1)
        if edit == "insert":
            chars.insert(k, char)
        elif chars:
            if edit == "set":
                chars[min(k, len(chars) - 1)] = char
            else:
                del chars[min(k, len(chars) - 1)]
    try:
        state = spiel.deserialize_state("".join(chars))
    except ValueError as e:
        assert "\n" not in str(e)
    else:
        assert spiel.deserialize_state(state.serialize()).history() == state.history()
