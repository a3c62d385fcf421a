"""Illegal steps are rejected with IllegalAction and change nothing (apply_turn is atomic)."""

from __future__ import annotations

import pytest
from positions import Seat, build, moves, play

from sneferu_cli.games.sneferu.move import Move, parse_action
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import DONE


def start_position():
    """Seat 1 (Lateef, 1 food, one stored stone) to move on Tura quarry 5 with FOOD2."""
    return build([Seat(space=5, food=1, builder="Lateef", store="MG", pyramid="TM@1.1"),
                  Seat(space=9, builder="Heba")],
                 offer=["BT", "TGBA", "", "GA"], tiles={5: "FOOD2"})


@pytest.mark.parametrize(("move", "why"), [
    ("1.1 BT@2.1", "is not supported"),  # the last step is illegal
    ("1.1 TB@1.1", "is taken"),
    ("feast feast 1.1 BT@1.2", "once per game"),
    ("MG@1.2 MG@1.3 1.1 BT@1.4", "no MG in the storehouse"),
    ("4.1+ GA@1.2", "no quarry bonus applies"),  # GA is not Tura, quarry 5's colour
    ("2.2 BA@1.2", "costs 2 food, the player has 1"),
    ("feast 2.2 BA@1.2 end", "turn is already over"),
    ("1.1 store", "STOREHOUSE"),
    ("1.1", "must be placed"),
    ("feast", "a stone must be bought"),
    ("end", "must buy"),
    ("3.1 BT@1.2", "no stone at column 3"),
    ("2>3 1.1 BT@1.2", "only when the bag is empty"),
    ("1.1 BT@1.2h", "only Heba"),
])
def test_an_illegal_move_changes_nothing(move, why):
    """apply_turn: an illegal step anywhere in a move leaves the state as it was."""
    state = start_position()
    before = to_position(state)
    with pytest.raises(IllegalAction, match=why):
        play(state, move)
    assert to_position(state) == before
    assert moves(state) == moves(start_position())


def test_done_is_never_written_in_a_move():
    """SPEC 2.7, 3: a move's closing 'done' is implied."""
    state = start_position()
    with pytest.raises(IllegalAction, match="implied"):
        state.apply_turn((*Move.from_str("1.1 BT@1.2").steps, DONE))
    with pytest.raises(IllegalAction, match="not allowed before the buy"):
        state.apply(DONE)


def test_single_steps_that_fail_change_nothing():
    """apply: a refused step or outcome leaves the state as it was."""
    state = start_position()
    before = to_position(state)
    for text in ("4.2", "BT@1.2", "store", "~BT", "~FOOD1", "~2", "~Aya", "2>3", "done"):
        with pytest.raises(IllegalAction):
            state.apply(parse_action(text))
        assert to_position(state) == before, text


def test_nothing_is_played_at_a_chance_node_or_after_the_end():
    """A move needs a player to move; a chance outcome needs a chance node."""
    state = start_position()
    play(state, "1.1 BT@1.2")
    assert state.phase == Phase.DRAW
    with pytest.raises(IllegalAction, match="while the offer is refilled"):
        play(state, "2.1 TG@1.3")
    state = build([Seat(space=40), Seat(space=40)], turn="over")
    with pytest.raises(IllegalAction, match="after the game is over"):
        play(state, "1.1 BT@1.1")
    with pytest.raises(IllegalAction):
        play(state, "~BT")


def test_every_listed_move_is_legal():
    """legal_turns lists whole moves that apply_turn accepts, each ending the turn."""
    state = start_position()
    listed = state.legal_turns()
    assert len(listed) == len(moves(state)) > 100
    for steps in listed:
        work = state.clone()
        work.apply_turn(steps)
        assert work.turn_over_since(state.turn) and work.phase == Phase.DRAW
