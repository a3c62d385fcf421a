"""Refilling the offer (rules 4.7) and the empty-column shift (4.0, R4, SPEC 2.2)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from positions import (
    DEFAULT_OFFER,
    Seat,
    build,
    edition_with,
    levels_below,
    moves,
    placements,
    play,
    pyramid_of,
)

from sneferu_cli.games.sneferu.components import Stone
from sneferu_cli.games.sneferu.move import parse_action
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase
from sneferu_cli.games.sneferu.steps import Draw

NO_BAG = {s.name: 0 for s in Stone}


def test_stones_slide_down_and_a_drawn_stone_goes_on_top():
    """4.7: the stones above the bought one slide down one row; the draw goes on row 7."""
    state = build([Seat(space=0), Seat(space=9)],
                  offer=["TG", "BTBMBGBATMTGTA", "", ""])
    play(state, "2.3 BG@1.1")
    assert state.phase == Phase.DRAW and to_position(state).endswith(" draw:2")
    assert state.offer[1] == [Stone.BT, Stone.BM, Stone.BA, Stone.TM, Stone.TG, Stone.TA]
    bag = state.bag[:]
    raw = state.chance_weights()
    assert {o: Fraction(w, sum(bag)) for o, w in raw} == {
        Draw(s): Fraction(n, sum(bag)) for s, n in enumerate(bag) if n}
    play(state, "~MG")
    assert state.offer[1][-1] == Stone.MG and len(state.offer[1]) == 7
    assert state.bag[Stone.MG] == bag[Stone.MG] - 1
    assert state.phase == Phase.START


def test_a_short_column_gets_its_stone_on_top_of_what_is_left():
    """4.7: stones always fill rows from row 1 up; the drawn stone goes above the others."""
    state = build([Seat(space=0), Seat(space=9)], offer=["TGMA", "", "", ""])
    play(state, "1.1 TG@1.1", "~BT")
    assert state.offer[0] == [Stone.MA, Stone.BT]


def empty_bag(offer, *, seat1: str, seats: int = 4, edition=None):
    """An empty bag: seat 1 (pyramid ``seat1``) to move, the other seats on space 40
    holding every stone that is not in the offer or seat 1's pyramid."""
    others = [Seat(space=40) for _ in range(seats - 1)]
    return build([Seat(space=10, pyramid=seat1), *others], offer=offer,
                 rest=range(1, seats), bag=NO_BAG, edition=edition)


def test_an_empty_bag_leaves_the_column_short():
    """4.7: with the bag empty nothing is added; the column stays one stone shorter."""
    nine = placements([*levels_below(2), (2, 1), (2, 2), (2, 3)])
    state = empty_bag(list(DEFAULT_OFFER), seat1=nine)
    assert state.bag_total == 0
    play(state, "1.1 BT@2.4")
    assert state.phase == Phase.START and state.seat == 0  # no chance event at all
    assert len(state.offer[0]) == 6
    assert to_position(state).split()[3].startswith(DEFAULT_OFFER[0][2:] + "/")


def test_refills_stop_when_the_bag_runs_out():
    """4.7, SPEC 2.1: refills go in order (the buyer's column, then Ptah's) until the bag is
    empty; the columns after that stay short. An edition with 4 stones of each type lets a
    solo game get there: the bag holds one TM.
    """
    ed = edition_with(("per_type = 10", "per_type = 4"))
    pyramid = pyramid_of(["BG"] * 4 + ["BA"] * 4 + ["TG"] * 4 + ["TA"] * 4 + ["MG"] * 2)
    ptah = "BT" * 3 + "BM" * 3 + "TM" * 3 + "MG" * 2 + "MA" * 4 + "GA" * 3
    state = build([Seat(space=3, pyramid=pyramid)], offer=["BT", "BM", "", "GA"], ptah=ptah,
                  edition=ed, bag={"TM": 1})
    assert state.bag_total == 1
    play(state, "4.1 GA@5.1")  # leaving basalt quarry 3: Ptah takes BT and BM
    assert state.ptah_total == 20
    assert to_position(state).endswith(" draw:4,1,2")
    play(state, "~TM")
    assert state.phase == Phase.START and state.bag_total == 0
    assert to_position(state).split()[3] == "-/-/-/TM"


# With 100 stones and at most 4 x 21 outside the bag and the offer, an empty bag leaves at
# least 16 stones in the offer: one column at most can be empty, and every other column
# then holds two stones or more. Repeated shifts and lone stones need an edition with
# fewer stones (5 of each type here).
FEW_STONES = edition_with(("per_type = 10", "per_type = 5"))
OFFER_17 = ["", "BTBMBGBATMTGTA", "BTBMBGBATMTGTA", "TGBAMG"]


def test_a_stone_moves_into_an_empty_column_only_when_the_bag_is_empty():
    """R4: before the buy the active player may move the top stone of another column to
    the bottom row of an empty column, when the bag is empty."""
    state = empty_bag(OFFER_17, seat1=placements(levels_below(6)))
    shifts = {str(s) for s in state.legal_steps() if ">" in str(s)}
    assert shifts == {"2>1", "3>1", "4>1"}
    play(state, "4>1 1.1 MG@6.1")
    assert state.players[0].food == 6 + 3  # MG cost 0 in column 1 row 1; the top icon
    assert to_position(state).split()[3] == "-/BTBMBGBATMTGTA/BTBMBGBATMTGTA/TGBA"


def test_the_column_shift_may_be_repeated():
    """R4: the move may be repeated while it applies."""
    state = empty_bag(["", "BTBMBGBA", "", "GA"], seat1=placements([(1, 1), (1, 2), (1, 3)]),
                      seats=3, edition=FEW_STONES)
    assert {"2>1 2>3 1.1 BA@1.4", "2>3 2>1 3.1 BA@1.4"} <= moves(state)
    play(state, "2>1 2>3 3.1 BG@1.4")
    assert to_position(state).split()[3] == "BA/BTBM/-/GA"


def test_a_lone_stone_does_not_move_to_an_empty_column():
    """SPEC 2.2 (ruling of this implementation): the source column needs two stones."""
    state = empty_bag(["", "BT", "", "GA"], seat1=placements(levels_below(2)), seats=3,
                      edition=FEW_STONES)
    assert not [s for s in state.legal_steps() if ">" in str(s)]
    with pytest.raises(IllegalAction, match="at least two"):
        state.apply(parse_action("2>1"))


def test_no_column_shift_while_the_bag_holds_stones():
    """R4: only when the bag is empty."""
    state = build([Seat(space=10), Seat(space=40)], offer=["", "BTBM", "TG", "GA"])
    assert not [s for s in state.legal_steps() if ">" in str(s)]
    with pytest.raises(IllegalAction, match="only when the bag is empty"):
        state.apply(parse_action("2>1"))


def test_no_column_shift_into_a_column_that_holds_stones_or_after_the_buy():
    """R4: the target column must be empty, and the move comes before the buy."""
    state = empty_bag(OFFER_17, seat1=placements(levels_below(6)))
    with pytest.raises(IllegalAction, match="column 3 is not empty"):
        state.apply(parse_action("2>3"))
    state.apply(parse_action("2.1"))
    with pytest.raises(IllegalAction, match="not allowed while the bought stone"):
        state.apply(parse_action("3>1"))
