"""An Akropolis position must name the seat to move, the chief architect and each city's
placements as the turns taken give them (SPEC 15.4; A1: seat 1 is the first chief
architect, A12: the token passes at each refill and turns go plainly clockwise, a retired
seat's skipped). A position that breaks this is refused when read, one line on stderr,
exit code 2 (``sneferu position``); every position of random games, retirements
included, is still read."""

from __future__ import annotations

import random

import pytest
from support import run_cli

from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.state import AkropolisState


def _refused(position: str) -> str:
    done = run_cli("position", "play", "--game", "akropolis", position, "1 @-1,0 r4")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    return lines[0]


def _game(players: int, seed: int, turns: int, retire: int = -1) -> AkropolisState:
    """A game of ``players`` after ``turns`` decisions (first listed moves, chance by
    ``seed``); seat ``retire`` (0-based) retires after the first of them."""
    rng = random.Random(seed)
    state = GAME.new_game(players)
    made = 0
    while made < turns or state.is_chance_node():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
            continue
        GAME.apply_move(state, GAME.legal_moves(state)[0])
        made += 1
        if made == 1 and retire >= 0:
            state.retire(retire)
    return state


def _with(position: str, seat: int | None = None, chief: int | None = None) -> str:
    words = position.split(" ")
    if seat is not None:
        words[2] = str(seat)
    if chief is not None:
        words[3] = str(chief)
    return " ".join(words)


def test_a12_the_seat_to_move_follows_the_turns_taken():
    # The testers' position: seat 1 has played once, so seat 2 moves, not seat 1 again.
    assert _refused("standard hmbtga 1 1 T01,T02,T03 1:T05@1,-1r0 2:-") == (
        "sneferu: position: seat 1 is to move, but after 1 turn(s) it is seat 2's turn "
        "(turns go clockwise from seat 1, A1, A12)")


def test_a1_a12_the_chief_architect_follows_the_refills():
    assert _refused("standard hmbtga 1 2 ?,?,?,? 1:- 2:-") == (
        "sneferu: position: chief architect 2, but after 0 refill(s) it is seat 1 (A1, A12)")
    # After the first refill of a 3-player game (4 turns) the token is seat 2's.
    position = GAME.to_position(_game(3, 1, 4))
    assert position.split(" ")[2:4] == ["2", "2"]
    assert _refused(_with(position, chief=1)) == (
        "sneferu: position: chief architect 1, but after 1 refill(s) it is seat 2 (A1, A12)")


def test_a12_each_city_has_the_placements_of_its_turns():
    # Two turns, both in seat 1's city: seat 1 would move again (2 turns), but it has had
    # one turn, not two.
    assert _refused("standard hmbtga 1 1 T10,T36 1:T09@-3,1r1/T19@-5,1r1 2:-") == (
        "sneferu: position: seat 1 has 2 placements, but after 2 turn(s) it has had 1 "
        "(turns go clockwise from seat 1, A12)")


def test_a12_the_last_to_move_at_the_end():
    state = _game(2, 3, 36)
    assert state.over and GAME.to_position(state).split(" ")[2] == "2"
    assert _refused(_with(GAME.to_position(state), seat=1)) == (
        "sneferu: position: seat 1 named as the last to move, but the last of 36 turns was "
        "seat 2's (turns go clockwise from seat 1, A12)")


def test_a12_turns_go_round_the_seats_still_playing():
    # Four seats, seat 2 retired after seat 1's first turn: seats 3, 4, 1, 3 have moved
    # since, so seat 4 is to move; seat 3, before it, has had one turn more.
    position = GAME.to_position(_game(4, 5, 5, retire=1))
    assert position.split(" ")[2] == "4" and " 2:-:retired " in position
    GAME.from_position(position)
    assert _refused(_with(position, seat=3)) == (
        "sneferu: position: seat 1 has 2 placements, but seat 3, to move, has had 2 turn(s), "
        "so seat 1 has had 3 (turns go clockwise among the seats still playing, A12)")


def test_a12_a_retired_seat_has_no_more_turns_than_it_had():
    # Three seats: seat 3 retired with five placements while seats 1 and 2 have had one
    # each. The cities are taken from a game of 15 turns (seat 3's whole, the others' first
    # placements, two of seat 1's later tiles in the site): after 7 turns, 1 refill.
    words = GAME.to_position(_game(3, 2, 15)).split(" ")
    assert words[2:4] == ["1", "1"]
    one, two, three = (w.split(":") for w in words[5:8])
    first, second, third = one[1].split("/")[:3]
    site = f"{second.split('@')[0]},{third.split('@')[0]}"
    position = " ".join([*words[:2], "1", "2", site, f"{one[0]}:{first}",
                         f"{two[0]}:{two[1].split('/')[0]}", f"{three[0]}:{three[1]}:retired"])
    assert _refused(position) == (
        "sneferu: position: retired seat 3 has 5 placements, more than the 2 turns any seat "
        "has had (A12)")
    # The same with seat 3 still playing would have seat 3 ahead by four turns.
    assert _refused(position.removesuffix(":retired")) == (
        "sneferu: position: seat 1 is to move, but after 7 turn(s) it is seat 2's turn "
        "(turns go clockwise from seat 1, A1, A12)")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_random_games_is_read(players):
    rng = random.Random(players)
    for seed in range(4):
        state = GAME.new_game(players)
        quits = iter(rng.sample(range(players), players - 1) if seed % 2 else ())
        made = 0
        while not state.is_over():
            assert GAME.to_position(GAME.from_position(GAME.to_position(state))) == \
                GAME.to_position(state)
            if state.is_chance_node():
                GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
                continue
            made += 1
            if made % 9 == 0 and (quit := next(quits, None)) is not None:
                state.retire(quit)  # any seat, its turn or not
                continue
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
        GAME.from_position(GAME.to_position(state))
