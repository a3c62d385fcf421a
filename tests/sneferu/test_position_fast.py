"""The fast position reader accepts exactly what sneferu-position.lark accepts, with the same tree.

Positions come from the grammar's shapes (every field, every kind of turn) and from real
games of every variant, then are mutated (a character inserted, deleted or replaced, blanks
added); :func:`fast_position_tree` and Lark must agree on accept or reject and on the tree
(rule names, token types and texts), and ``from_position`` gives the same state or the
same error either way.
"""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import mutate, random_engine_run

from sneferu_cli.game import NotationError
from sneferu_cli.games.sneferu import fast
from sneferu_cli.games.sneferu import position as position_module
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.grammar import Token, Tree, parse

COUNT = st.sampled_from(["0", "1", "2", "6", "10", "007", "9"])
STONE = st.sampled_from(["BT", "TB", "MG", "GA", "AB", "BB"])
RUN = st.one_of(st.just("-"), st.lists(STONE, min_size=1, max_size=4).map("".join))
SLOTS = st.lists(st.one_of(STONE, st.just("-")), min_size=1, max_size=6).map("".join)
NAME = st.sampled_from(["standard", "Heba", "Lateef", "my-ed_2", "x"])
TILE = st.sampled_from(["FOOD1", "STOREHOUSE", "?", "NOEXTRA", "X9"])
FLAGS = st.sampled_from(["-", "f", "her", "fher", "rr"])
TURN = st.one_of(
    st.just("setup"),
    st.tuples(COUNT, COUNT).map(lambda t: f"start:{t[0]}:{t[1]}"),
    st.tuples(COUNT, STONE, st.sampled_from(["", ":store"])).map(
        lambda t: f"place:{t[0]}:{t[1]}{t[2]}"),
    COUNT.map(lambda c: f"post:{c}"),
    st.lists(COUNT, min_size=1, max_size=4).map(lambda cs: "draw:" + ",".join(cs)),
    st.sampled_from(["over", "over:BT"]))


@st.composite
def shaped(draw: st.DrawFn) -> str:
    """A line of sneferu-position.lark's shape (most of them not a possible game)."""
    def player() -> str:
        builder = draw(st.one_of(NAME, st.sampled_from(["-", "?"])))
        order = draw(st.one_of(COUNT, st.just("?")))
        levels = "/".join(draw(st.lists(SLOTS, min_size=1, max_size=6)))
        return (f"{builder},{draw(COUNT)},{draw(COUNT)}.{order},{levels},{draw(RUN)},"
                f"{draw(FLAGS)}")
    tiles = ",".join(draw(st.lists(TILE, min_size=1, max_size=4)))
    offer = "/".join(draw(st.lists(RUN, min_size=1, max_size=4)))
    bag = ",".join(draw(st.lists(COUNT, min_size=1, max_size=10)))
    players = ";".join(player() for _ in range(draw(st.integers(1, 4))))
    variant = draw(st.sampled_from(["standard", "builders"]))
    return (f"{draw(NAME)} {variant} {tiles} {offer} {bag} {draw(RUN)} {players} "
            f"{draw(TURN)}")


def _game_positions() -> list[str]:
    """Positions of real games: every seat count, both variants, every kind of turn."""
    out = []
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(1 + seed % 4, builders="random" if seed % 3 == 0 else None)
        k = 0
        while True:
            if k % 7 == 0 or state.is_over():
                out.append(to_position(state))
            if state.is_over():
                break
            action = (sample_outcome(state, rng) if state.is_chance_node()
                      else rng.choice(state.legal_steps()))
            state.apply(action)
            k += 1
    return out


GAMES = _game_positions()
NOISE = " \t,;/.:-?0123456789BTMGAfherx_setupladrovwFOD"


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A position of the grammar's shape or of a game, often with a character changed."""
    return mutate(draw, draw(st.one_of(shaped(), st.sampled_from(GAMES))), NOISE,
                  ends=("", " ", "\n", " \r\n"))


def _shape(node: Tree[Token] | Token) -> object:
    """A tree as nested tuples: rule names, token types and texts."""
    if isinstance(node, Token):
        return (node.type, str(node))
    return (node.data, tuple(_shape(c) for c in node.children))


def _lark(text: str) -> object:
    try:
        return _shape(parse("sneferu-position", "position", text, "position"))
    except NotationError:
        return "rejected"


def _read(text: str) -> object:
    try:
        return to_position(from_position(text))
    except NotationError as e:
        return f"error {e}"
    except ValueError as e:  # a count too long for int(): the same on both paths
        return f"ValueError {e}"


@settings(max_examples=1000, deadline=None)
@given(mutated())
@example("standard standard ? - 1 - -,1,1.?,-,-,- setup")
@example("standard standard A - 1 - -,1,1.1,-,-,- setup")
@example("standard standard ? - 1 - -,1,1.1,-,-,- place:1:BT:store")
@example("standard standard ? - 1 - -,1,1.1,-,-,- over:")
def test_a_position_is_read_fast_exactly_as_the_grammar_reads_it(line: str) -> None:
    text = line.strip()
    slow = _lark(text)
    tree = fast.fast_position_tree(text)
    if slow == "rejected":
        assert tree is None
    else:
        assert tree is not None and _shape(tree) == slow


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_from_position_reads_the_same_with_and_without_the_fast_path(line: str) -> None:
    fast_read = _read(line)
    saved = position_module.fast_position_tree
    position_module.fast_position_tree = lambda text: None  # type: ignore[assignment]
    try:
        assert _read(line) == fast_read
    finally:
        position_module.fast_position_tree = saved


def test_every_position_of_real_games_takes_the_fast_path() -> None:
    for text in GAMES:
        assert fast.fast_position_tree(text) is not None, text
        assert to_position(from_position(text)) == text


def test_a_bundled_engine_plays_a_move_without_building_a_grammar() -> None:
    """random reads a game's first position and the events after it by the fast paths."""
    state, rng = new_game(4), random.Random(5)
    while state.is_chance_node():
        state.apply(sample_outcome(state, rng))
    start = to_position(state)
    turn = rng.choice(state.legal_turn_texts())
    state.apply_turn(fast.read_move(turn).steps)
    draws = []
    while state.is_chance_node():
        outcome = sample_outcome(state, rng)
        draws.append(str(outcome))
        state.apply(outcome)
    seat = state.current_seat() + 1
    events = " ; ".join([turn, *draws])
    lines = (f"sneferu 1\nnewgame players 4 seat {seat} variant standard edition standard\n"
             f"isready\nposition {start}\ngo movetime 100\n"
             f"position {start} moves {events}\ngo movetime 100\nquit\n")
    built, answers = random_engine_run(lines)
    assert (built, [a.split()[0] for a in answers[-2:]]) == (0, ["move", "move"])
