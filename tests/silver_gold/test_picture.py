"""The terminal picture and the page data (SPEC 14.6) of Silver & Gold."""

from __future__ import annotations

import json

from silver_gold.helpers import Seat, build, submit

from sneferu_cli.game import seat_view
from sneferu_cli.games.silver_gold import GAME


def test_the_picture_of_a_step_2_after_the_marks():
    state = build(Seat(play={7: "a1 b1"}, red=1), Seat(play={9: "a1"}), exp=("I3",),
                  offer=(3, 4))
    submit(state, "7:c1,d1,e1 +7:c2 +7:d2", "9:b1")
    parts = dict(GAME.picture_parts(state))
    assert list(parts) == ["title", "expedition", "offer", "seat 1", "seat 2", "legend",
                           "turn"]
    assert parts["title"] == "Silver & Gold Pyramids, edition sgp-recon-1, 2 players"
    # Marked already: named, not drawn as a card still to mark.
    assert parts["expedition"] == ("Round 1 of 4, turn 1 of 7; revealed this round: I3\n"
                                   "Expedition card I3: marked in step 2 of this turn.")
    assert parts["offer"] == ("Offer: 3 PUR, 4 ORA; deck 44 cards\n"
                              "Pyramid boxes still free: PUR 10 6 3; ORA 10 6 3; GRN 10 6 3")
    # Columns a-e and rows 1-5 labelled; <R> the cells of the last step 2 (SPEC 14.6).
    assert parts["seat 1"] == "\n".join([
        "Seat 1: 1 point now; red 1, green 0, torches ----, skulls 0 (-0), boxes -",
        "  completed: -",
        "  7 ORA in play",
        "     a  b  c  d  e",
        "  1 [E][.]<X><.><X>",
        "  2  G  # <.><.> #",
        "  3  S  .  .  R  .",
        "  4  #  .  P  #  .",
        "  5  .  .  G  .  T"])
    for letters in ("E", "T", "#", "R", "G", "S", "F", "P", "X", "[R]", "<R>", "a1", "e5"):
        assert letters in parts["legend"]
    assert parts["turn"] == "Next: the expedition card of turn 2"
    assert GAME.picture(state) == "\n\n".join(parts.values())


def test_the_pattern_is_drawn_while_it_is_to_be_marked():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={9: "a1"}), exp=("I3",))
    parts = dict(GAME.picture_parts(state))
    assert parts["expedition"].splitlines()[1:] == [
        "Expedition card I3 to mark now (turn and mirror it as you like):", "  ###"]
    assert GAME.picture_focus(state) == ("expedition", "seat 1", "seat 2", "legend")
    assert "Mark expedition card I3" in GAME.decision_hint(state)


def test_a_seat_is_shown_the_cells_every_seat_marked_in_the_last_step():
    """The cells of the last step 2 are not in the position notation (14.4), but every
    seat saw them marked: the state a seat is shown keeps them, up to the next step 2
    (when the next card is revealed too)."""
    state = build(Seat(play={7: "a1 b1"}, red=1), Seat(play={9: "a1"}), exp=("I3",),
                  offer=(3, 4))
    submit(state, "7:c1,d1,e1 +7:c2 +7:d2", "9:b1")
    GAME.apply_outcome(state, "~exp:O4")
    shown = GAME.shown_state(state, 1)
    assert GAME.to_position(shown) == seat_view(GAME, state, 1)
    assert "<X>" in dict(GAME.picture_parts(shown))["seat 1"]
    assert "<.>" in dict(GAME.picture_parts(shown))["seat 2"]
    assert GAME.from_position(seat_view(GAME, state, 1)).last == [[], []]


def test_the_picture_hides_a_deal_it_does_not_know():
    state = GAME.new_game(2)
    GAME.apply_outcome(state, "~deal:1,2,3,4")
    GAME.apply_outcome(state, "~deal:5,6,7,8")
    seen = GAME.from_position(seat_view(GAME, state, 1))
    seat1 = dict(GAME.picture_parts(seen))["seat 1"]
    assert "dealt: 4 cards, hidden" in seat1 and "1 ORA" not in seat1
    assert "5 GRN dealt" in dict(GAME.picture_parts(seen))["seat 2"]
    assert dict(GAME.picture_parts(state))["turn"] == "Sealed: seats 1, 2 keep two cards"


def test_page_data_has_every_seat_s_chambers_marks_and_the_last_step():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={9: "a1"}, done=(6,), pts=()),
                  exp=("I3",), offer=(3, 4))
    submit(state, "7:c1,d1,e1 +7:c2 +7:d2", "9:b1")
    data = GAME.page_data(state)
    assert json.loads(json.dumps(data)) == data
    assert (data["game"], data["round"], data["turn"], data["phase"]) == (
        "silver-gold", 1, 1, "exp")
    assert data["expedition"] == {"code": "I3", "rows": ["###"]}
    assert data["offer"] == [{"number": 3, "colour": "PUR"}, {"number": 4, "colour": "ORA"}]
    seat1 = data["seats"][0]
    assert seat1["cards"] == [{"number": 7, "colour": "ORA",
                               "rows": ["E.X.X", "G#..#", "S..R.", "#.P#.", "..G.T"],
                               "marked": ["a1", "b1", "c1", "d1", "e1", "c2", "d2"],
                               "last": ["c1", "d1", "e1", "c2", "d2"]}]
    assert seat1["last"] == [{"card": 7, "cells": ["c1", "d1", "e1"]},
                             {"card": 7, "cells": ["c2"]}, {"card": 7, "cells": ["d2"]}]
    assert data["seats"][1]["done"] == [{"number": 6, "colour": "PUR"}]
    assert data["boxes"]["GRN"] == [{"points": 10, "seat": None}, {"points": 6, "seat": None},
                                    {"points": 3, "seat": None}]
    assert data["turn_state"] == {"over": False, "chance": "exp", "simultaneous": False,
                                  "deciding": [], "taking": None,
                                  "text": "Next: the expedition card of turn 2"}


def test_page_data_says_who_still_decides_at_a_sealed_node():
    state = build(Seat(play={7: "a1 b1"}), Seat(play={9: "a1"}), exp=("I3",))
    GAME.apply_move(state, "9:b1", 1)
    data = GAME.page_data(state)
    assert data["turn_state"]["deciding"] == [1] and data["turn_state"]["simultaneous"]
    assert [s["sealed"] for s in data["seats"]] == [False, True]
