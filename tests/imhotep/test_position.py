"""Imhotep position notation (SPEC "Imhotep", position notation): every state of random
games writes and reads back to the same state; golden positions written by hand; impossible
or malformed positions are rejected with one line naming what is wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from imhotep.helpers import play, start
from imhotep.test_properties import snapshot

from sneferu_cli.game import NotationError, get_game
from sneferu_cli.games.imhotep import GAME, VARIANTS
from sneferu_cli.games.imhotep import edition as edition_module
from sneferu_cli.games.imhotep.edition import parse_edition, standard_edition
from sneferu_cli.games.imhotep.position import from_position, to_position
from sneferu_cli.games.imhotep.state import ImhotepState, new_game


def round_trip(state: ImhotepState) -> str:
    text = to_position(state)
    back = from_position(text)
    assert snapshot(back) == snapshot(state), text
    assert to_position(back) == text
    assert back.is_over() == state.is_over()
    if not state.is_over() and not state.is_chance_node():
        assert back.legal_moves() == state.legal_moves()
    return text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), variant=st.sampled_from(VARIANTS),
       seed=st.integers(0, 2**32 - 1),
       retire=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 300))))
def test_every_state_of_a_random_game_round_trips(players, variant, seed, retire):
    """Chance nodes, turns, owners' decisions (I9), cards being resolved (I33), the drawn
    side-B pair (I32), round ends, retired seats and the end all write and read back."""
    rng = random.Random(seed)
    state = GAME.new_game(players, variant=variant)
    steps = 0
    while not state.is_over():
        steps += 1
        text = round_trip(state)
        assert " ; " not in text and "\n" not in text and "moves" not in text.split()
        if retire and retire[1] == steps and retire[0] < players:
            state.retire(retire[0])
        elif state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
    assert round_trip(state).endswith(" over")


def test_game_interface_reads_and_writes_positions():
    game = get_game("imhotep")
    state = game.new_game(4, variant="ABABA+wrath")
    text = game.to_position(state)
    assert text.split()[:3] == ["standard", "ABABA+wrath", "1:-:0"]
    assert snapshot(game.from_position(text)) == snapshot(state)


START = ("standard AAAAA 1:-:0 R2-1,R2-2,R2-3,R2-4,R2-5,R2-6,R2-7 - -,-,-,- - - - 0,0 "
         "2,2,2,2,2,2,2,10,2,2,3,3/0,0,0,0,0,0,0,0,0,0,0,0 2,27,0,-,as;3,26,0,-,- "
         "round-card,draw:M1,draw:M2,draw:M3,draw:M4,turn")


def test_golden_start_position():
    """2 players: 2 and 3 stones on the sleds, 27 and 26 in the quarries (3.6, I2); the
    round card, then the display left to right (I38), then seat 1's turn (I1)."""
    assert to_position(new_game(2)) == START
    assert from_position(START).is_chance_node()


SIDE_B = ("standard BBBAB+wrath 1:R3-2:0 R3-1,R3-3,R3-4,R3-5,R3-6,R3-7 "
          "4A:.WB.@P/3A:WB./3B:.../2A:.. ENT,STA,HAM,? -/-/K/- - - 0,0,0/- "
          "1,2,2,2,2,2,2,9,2,1,3,3/0,0,0,0,0,0,0,0,0,0,0,0 "
          "5,23,1,-,asl;1,26,0,-,-;2,25,0,-,- pyr:4A.2,stone:4A.3,after")


def test_golden_side_b_position_during_an_unloading():
    """Ship 4A unloads at side-B pyramids: black took PR with its STONES bonus (1 point,
    I14); white's stone waits on its slot for white's choice (I9, I34), brown's after it
    (I8); the market shows 3 cards and the undrawn pair (I32)."""
    state = start(3, "BBBAB+wrath", card="R3-2", display=("ENT", "STA", "HAM"))
    play(state, "L 4A.1", "L 4A.2", "L 4A.3", "Q", "L 3A.1", "L 3A.2", "S 4A P",
         "pyr PR bonus")
    assert to_position(state) == SIDE_B
    back = from_position(SIDE_B)
    assert back.current_seat() == 1 and back.active == 0
    assert [str(m) for m in back.legal_moves()][:4] == ["pyr PL", "pyr PL bonus", "pyr PM",
                                                        "pyr PR"]


def test_golden_positions_with_the_side_b_pair():
    """take MX: two chance draws, then the same seat keeps one (I32); the kept red ENT
    places a stone from the quarry at once and the other card is discarded face up (I13)."""
    state = start(2, "BAAAA", card="R2-1", display=("LEV", "SAR", "CHI"))
    play(state, "L 2A.1", "L 2A.2", "S 2A M", "take MX")
    assert to_position(state).endswith(
        " 1,28,0,-,asl;2,26,0,-,- draw:pair:1,draw:pair:1,keep:1,stone:2A.2,after")
    play(state, "~ENT", "~DEC")
    assert to_position(state).endswith(" keep:1:ENT+DEC,stone:2A.2,after")
    play(state, "keep ENT")
    assert to_position(state) == (
        "standard BAAAA 1:R2-1:0 R2-2,R2-3,R2-4,R2-5,R2-6,R2-7 4A:..../3A:.../2A:.W@M/2B:.. "
        "LEV,SAR,CHI,- K - - 0,0 1,1,2,2,2,1,2,10,1,2,3,2/1,0,0,0,0,1,0,0,0,0,0,0 "
        "1,27,2,-,asl;2,26,0,-,- take:2A.2,after")


def _edit(field: int, new: str, text: str = SIDE_B) -> str:
    fields = text.split(" ")
    fields[field] = new
    return " ".join(fields)


@pytest.mark.parametrize(("text", "message"), [
    (SIDE_B.replace("5,23,1", "5,22,1"), "29 stones of colour K accounted for"),
    (SIDE_B.replace("5,23,1", "5,24,1"), "31 stones of colour K"),
    (_edit(10, "1,2,2,2,2,2,2,10,2,1,3,3/0,0,0,0,0,0,0,0,0,0,0,0"), "11 STA cards"),
    (_edit(10, "1,2,2/0,0"), "needs 12 counts"),
    (_edit(4, "4A:.WB.@P/3A:WB./2A:../3B:..."), "shows the ships 4A 3A 3B 2A"),
    (_edit(4, "4A:.WB.@P/3A:WB.@P/3B:.../2A:.."), "two ships docked at site P"),
    (_edit(4, "4A:.WB@P/3A:WB./3B:.../2A:.."), "ship 4A has 4 slots"),
    (SIDE_B.replace("-/-/K/-", "-/-/K/W"), "edge while a pyramid has a free slot"),
    (SIDE_B.replace("-/-/K/-", "-/K/-"), "need 4 parts"),
    (SIDE_B.replace("ENT,STA,HAM,?", "ENT,STA,HAM"), "the market has 3 entries, need 4"),
    (SIDE_B.replace("ENT,STA,HAM,?", "ENT,?,HAM,STA"), "only side B's last entry"),
    (SIDE_B.replace("ENT,STA", "XYZ,STA"), "unknown market card 'XYZ'"),
    (SIDE_B.replace(",asl;", ",sl;").replace("0,-,-;2", "0,-,a;2"), None),
    (SIDE_B.replace(",asl;", ",sla;"), "flags 'sla' must be written once each"),
    (SIDE_B.replace("1,26,0,-,-", "1,26,0,-,a"), "2 seats have flag a"),
    (SIDE_B.replace(",asl;", ",l;"), "0 seats have flag a"),
    (SIDE_B.replace("1,26,0,-,-", "1,26,0,-,r"), "seat 2 decides next but is retired"),
    (SIDE_B.replace("1,26,0,-,-", "1,26,0,ENT,-"), "holds red card ENT"),
    (SIDE_B.replace("1,26,0,-,-", "1,26,0,HAM+STA,-"), "in the edition's order"),
    (SIDE_B.replace("5,23,1", "6,22,1"), "6 stones on the sled, it holds 5"),
    (SIDE_B.replace("1:R3-2:0", "1:R3-1:0"), "round card R3-1 is not a revealed card"),
    (SIDE_B.replace("1:R3-2:0", "3:R3-2:0"), "round 3 with 1 round cards revealed"),
    (SIDE_B.replace("1:R3-2:0", "7:R3-2:0"), "round 7, but the game has 6"),
    (SIDE_B.replace("R3-1,R3-3", "R3-3,R3-1"), "in the edition's order"),
    (SIDE_B.replace("R3-1,R3-3", "R2-1,R3-3"), "cards for 3 players"),
    (SIDE_B.replace("4A:.WB.", "4A:.WG."), "a G stone, but with 3 players"),
    (SIDE_B.replace("0,0,0/-", "0,0,0"), "need waiting stones/towers"),
    (SIDE_B.replace("0,0,0/-", "0,0/-"), "2 counts for 3 seats"),
    (SIDE_B.replace("pyr:4A.2", "pyr:4A.1"), "an empty or missing slot"),
    (SIDE_B.replace("pyr:4A.2", "take:4A.2"), "ship 4A is not at site M"),
    (SIDE_B.replace("pyr:4A.2", "pyr:3A.2"), "ship 3A has not sailed"),
    (SIDE_B.replace("pyr:4A.2", "pyr:1C.1"), "ship 1C, which is not a ship of this round"),
    (SIDE_B.replace("pyr:4A.2,", ""), "must be a decision or a chance event (it is stone)"),
    (SIDE_B.replace("pyr:4A.2", "temple:4"), "names seat 4, but there are 3 seats"),
    (SIDE_B.replace("pyr:4A.2", "draw:M4"), "the display has 3 face-up slots"),
    (SIDE_B.replace("standard BBBAB", "other BBBAB"), "written for edition 'other'"),
    (SIDE_B.replace("2,25,0,-,-", "2,25,0,-,-;4,20,0,-,-;1,1,1,-,-"), "5 seats"),
    (START.replace("2,27,0,-,as", "2,27,0,-,as;3,26,0,-,-;3,26,0,-,-;3,26,0,-,-"), "5 seats"),
    (START.replace("-,-,-,- - - -", "-,-,-,- -/-/-/- - -"), "side A has one pyramid"),
    (START.replace(" 0,0 ", " 0,0/- "), "side A obelisks are heights only"),
    (START.replace("1:-:0", "1:R2-1:0").replace("R2-1,", "").replace(
        " - -,-", " 4A:..../3A:.../2A:../2B:.. -,-"), "already revealed"),
    (SIDE_B.replace("1:R3-2:0", "1:R3-2:4"), "4 passes in a row with 3 seats"),
])
def test_impossible_positions_are_rejected_with_the_reason(text, message):
    if message is None:  # a control: the edit is a legal position
        from_position(text)
        return
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_position(text)


@pytest.mark.parametrize(("text", "column"), [
    (SIDE_B.replace("BBBAB+wrath", "BBBAB+wroth"), 15),
    (SIDE_B.replace("4A:.WB.@P", "4A:.WX.@P"), 66),
    (SIDE_B.replace(",after", ",later"), 228),
    (SIDE_B.replace("5,23,1", "5,23,x"), 178),
    (SIDE_B.replace(" ", "  ", 1), 10),
    (SIDE_B.replace(" pyr:4A.2", ""), None),
])
def test_malformed_positions_name_the_column(text, column):
    with pytest.raises(NotationError) as e:
        from_position(text)
    message = str(e.value)
    assert message.startswith("position: ") and "\n" not in message
    if column:
        assert f"column {column}" in message


def test_a_position_is_read_with_its_edition():
    """A position names its edition; another edition's position needs that edition."""
    raw = (Path(edition_module.__file__).parent / "editions" / "standard.toml").read_text(
        encoding="utf-8")
    other = parse_edition(raw.replace('name = "standard"', 'name = "mine"', 1))
    state = new_game(2, edition=other)
    text = to_position(state)
    assert text.startswith("mine AAAAA ")
    with pytest.raises(NotationError, match="edition 'mine'"):
        from_position(text)
    assert snapshot(from_position(text, other)) == snapshot(state)
    assert from_position(START, standard_edition()).edition is standard_edition()


def test_the_spec_examples_read_back():
    """SPEC 13.4's two example positions are these tests' golden positions."""
    spec = (Path(__file__).parents[2] / "SPEC.md").read_text(encoding="utf-8")
    section = spec[spec.index("### 13.4 Position notation"):spec.index("### 13.5")]
    examples = [b.strip() for b in section.split("```")[3::2]]
    assert examples == [START, SIDE_B]
    for text in examples:
        assert to_position(from_position(text)) == text
