"""Set-up (rules section 2, R2): tiles, the first offer, boat order, builders, solo."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sneferu_cli.games.sneferu.components import Stone, Tile
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import IllegalAction, Phase, new_game
from sneferu_cli.games.sneferu.steps import Arrive, Assign, Draw, LayTile

EYE_KINDS = {Tile.FOOD1: 1, Tile.FOOD2: 1, Tile.NOEXTRA: 1, Tile.SAVETIME: 1}
OTHER_KINDS = {Tile.FOOD1: 2, Tile.FOOD2: 2, Tile.NOEXTRA: 2, Tile.SAVETIME: 1,
               Tile.TIMEFOOD: 2, Tile.STOREHOUSE: 2}
TILE_ORDER = [Tile.FOOD1, Tile.FOOD2, Tile.NOEXTRA, Tile.SAVETIME,  # eye spaces 3 5 7 9
              Tile.FOOD1, Tile.FOOD1, Tile.FOOD2, Tile.FOOD2, Tile.NOEXTRA, Tile.NOEXTRA,
              Tile.SAVETIME, Tile.TIMEFOOD, Tile.TIMEFOOD, Tile.STOREHOUSE, Tile.STOREHOUSE]


def weights(state) -> dict:
    """The chance node's outcomes with exact probabilities."""
    raw = state.chance_weights()
    total = sum(w for _, w in raw)
    exact = {o: Fraction(w, total) for o, w in raw}
    assert dict(state.chance_outcomes()) == {o: float(p) for o, p in exact.items()}
    return exact


def lay_tiles(state, kinds=TILE_ORDER) -> None:
    for kind in kinds:
        state.apply(LayTile(kind))


def fill_offer(state, stones=None) -> None:
    for i in range(28):
        state.apply(Draw(stones[i] if stones else Stone(i % 10)))


def test_eye_spaces_draw_only_the_four_eye_tiles():
    """2.1: the four eye tiles go onto spaces 3, 5, 7, 9, each kind 1/4 at first."""
    state = new_game(2)
    assert state.phase == Phase.SETUP
    assert weights(state) == {LayTile(k): Fraction(1, 4) for k in EYE_KINDS}
    state.apply(LayTile(Tile.SAVETIME))
    assert weights(state) == {LayTile(k): Fraction(1, 3)
                              for k in (Tile.FOOD1, Tile.FOOD2, Tile.NOEXTRA)}
    before = to_position(state)
    for kind in (Tile.SAVETIME, Tile.TIMEFOOD, Tile.STOREHOUSE):
        with pytest.raises(IllegalAction):
            state.apply(LayTile(kind))
    assert to_position(state) == before


def test_other_quarries_draw_from_the_other_eleven_tiles():
    """2.1: after the eye spaces, the 11 other tiles with their exact weights."""
    state = new_game(2)
    lay_tiles(state, TILE_ORDER[:4])
    assert weights(state) == {LayTile(k): Fraction(n, 11) for k, n in OTHER_KINDS.items()}
    lay_tiles(state, [Tile.SAVETIME])  # the only non-eye SAVETIME
    assert LayTile(Tile.SAVETIME) not in weights(state)
    assert weights(state)[LayTile(Tile.TIMEFOOD)] == Fraction(2, 10)
    with pytest.raises(IllegalAction):
        state.apply(LayTile(Tile.SAVETIME))


def test_no_eye_tile_is_left_for_the_last_quarries():
    """2.1: the last quarry gets the one tile left, and it is listed (R2)."""
    state = new_game(3)
    lay_tiles(state, TILE_ORDER[:14])
    assert weights(state) == {LayTile(Tile.STOREHOUSE): Fraction(1)}
    state.apply(LayTile(Tile.STOREHOUSE))
    assert state.is_drawing_offer()


def test_offer_is_28_draws_from_the_bag_with_exact_weights():
    """2.2: 28 draws fill column 1 rows 1-7, then columns 2, 3, 4; weights are bag counts."""
    state = new_game(2)
    lay_tiles(state)
    assert weights(state) == {Draw(s): Fraction(1, 10) for s in Stone}
    state.apply(Draw(Stone.BT))
    w = weights(state)
    assert w[Draw(Stone.BT)] == Fraction(9, 99) and w[Draw(Stone.GA)] == Fraction(10, 99)
    for _ in range(9):
        state.apply(Draw(Stone.BT))
    assert Draw(Stone.BT) not in weights(state)  # all ten BT are out of the bag
    with pytest.raises(IllegalAction):
        state.apply(Draw(Stone.BT))
    for i in range(18):
        assert state.is_drawing_offer()
        state.apply(Draw(Stone(1 + i % 9)))
    assert not state.is_drawing_offer()
    assert [len(col) for col in state.offer] == [7, 7, 7, 7]
    assert state.offer[0] == [Stone.BT] * 7
    assert state.offer[1][:3] == [Stone.BT] * 3 and state.offer[1][3] == Stone.BM
    assert state.bag_total == 72


def test_boat_order_is_uniform_and_decides_the_first_turn():
    """2.3: boats arrive on space 0 in random order; the first to arrive moves first."""
    state = new_game(3)
    lay_tiles(state)
    fill_offer(state)
    assert weights(state) == {Arrive(i): Fraction(1, 3) for i in range(3)}
    state.apply(Arrive(2))
    assert weights(state) == {Arrive(0): Fraction(1, 2), Arrive(1): Fraction(1, 2)}
    with pytest.raises(IllegalAction):
        state.apply(Arrive(2))
    state.apply(Arrive(0))
    assert weights(state) == {Arrive(1): Fraction(1)}
    state.apply(Arrive(1))
    assert state.phase == Phase.START and state.seat == 2 and state.start_space == 0
    assert [p.space for p in state.players] == [0, 0, 0]
    assert [p.food for p in state.players] == [6, 6, 6]
    players = to_position(state).split()[6].split(";")
    assert [r.split(",")[2] for r in players] == ["0.2", "0.3", "0.1"]


def test_builders_variant_starts_on_space_2_with_the_builders_food():
    """2.3, 2.4, 7: builders variant boats start on space 2 with each builder's food."""
    state = new_game(4, builders=["Lateef", "Heba", "Tsekani", "Aya"])
    lay_tiles(state)
    fill_offer(state)
    for seat in (3, 1, 0, 2):
        state.apply(Arrive(seat))
    assert [p.space for p in state.players] == [2, 2, 2, 2]
    assert [p.food for p in state.players] == [4, 5, 6, 4]
    assert state.seat == 3 and state.start_space == 2


def test_random_builders_are_drawn_before_the_boats():
    """7: random builders: each seat in turn draws uniformly from the builders left."""
    state = new_game(2, builders="random")
    lay_tiles(state)
    fill_offer(state)
    assert weights(state) == {Assign(n): Fraction(1, 4)
                              for n in ("Lateef", "Heba", "Tsekani", "Aya")}
    state.apply(Assign("Heba"))
    assert weights(state) == {Assign(n): Fraction(1, 3) for n in ("Lateef", "Tsekani", "Aya")}
    with pytest.raises(IllegalAction):
        state.apply(Assign("Heba"))
    state.apply(Assign("Aya"))
    assert [p.builder.name for p in state.players] == ["Heba", "Aya"]
    assert [p.food for p in state.players] == [5, 4]
    assert weights(state) == {Arrive(0): Fraction(1, 2), Arrive(1): Fraction(1, 2)}


def test_solo_set_up_has_one_boat_and_an_empty_ptah():
    """6: the solo game: one seat, one boat (a single outcome, still listed, R2), Ptah."""
    state = new_game(1)
    lay_tiles(state)
    fill_offer(state)
    assert weights(state) == {Arrive(0): Fraction(1)}
    state.apply(Arrive(0))
    assert state.solo and state.ptah_total == 0 and state.seat == 0
    assert to_position(state).split()[5] == "-"


def test_bad_game_parameters_are_rejected():
    """Set-up: 1 to 4 seats; builders named once each, one per seat, known to the edition."""
    for args, kwargs in (((0,), {}), ((5,), {}), ((2,), {"builders": ["Heba"]}),
                         ((2,), {"builders": ["Heba", "Heba"]}),
                         ((2,), {"builders": ["Heba", "Nobody"]})):
        with pytest.raises(ValueError):
            new_game(*args, **kwargs)
