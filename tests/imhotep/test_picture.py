"""The Imhotep picture for the terminal and the data for the web page (SPEC "Imhotep",
the picture): golden pictures of a side-A game in its fourth round and of side-B sites during
an unloading, the end, and page_data as JSON."""

from __future__ import annotations

import json
import random

from imhotep.test_position import SIDE_B

from sneferu_cli.games.imhotep import GAME
from sneferu_cli.games.imhotep.picture import levels, page_data, picture
from sneferu_cli.games.imhotep.position import from_position

MID_A = ("standard AAAAA 4:R2-3:0 R2-2,R2-5,R2-7 4A:KW../2A:..@T/2B:W./1A:.@O LEV,STA,DEC,SAI "
         "KWKKWWKWKWKWKWKW KWWKKWKWKK KKWKWWK 5,3 "
         "0,1,0,1,2,1,2,5,1,1,1,2/2,1,2,0,0,0,0,1,0,0,1,0 "
         "2,3,31,DEP+STA+STA+HAM,sl;4,5,27,STA+CHI,a turn")
"""Round 4 of a 2-player game: 16 stones at the pyramid (2 at the edge, I10), a temple 4
wide (6.3) 3 high, a chamber of 7, obelisks 5 and 3; two ships docked."""

PICTURE_MID_A = """\
Imhotep: edition standard, 2 players, sides M:A P:A T:A C:A O:A
Round 4 of 6, card R2-3 (ships 4 2 2 1); round cards left: R2-2 R2-5 R2-7

Ships (slots from the bow, . empty; minimum load)
  4A [K W . .]  min 3  in the harbour
  2A [. .    ]  min 1  docked at T temple
  2B [W .    ]  min 1  in the harbour
  1A [.      ]  min 1  docked at O obelisks

M market (side A): deck 17 cards; discard pile: ENTx2 SAR PAVx2 STA SAI
  M1 LEV lever
  M2 STA statue
  M3 DEC burial chamber decoration
  M4 SAI sail

P pyramid (side A): 14 of 14 slots, edge 2 (1 point each); empty slots show their points
  level 1  [K] [K] [K]
           [W] [W] [W]
           [K] [W] [K]
  level 2  [W] [W]
           [K] [K]
  level 3  [W]
  edge: K W
T temple (side A, 4 columns): 10 stones; the top stones score at each round's end
  height 3: K K . .
  height 2: K W K W
  height 1: K W W K
  top:      K K K W
C burial chamber (side A): 7 stones, columns from the left, each from the top
  row 1: K K K
  row 2: K W
  row 3: W W
O obelisks (side A): heights K 5  W 3

Seat 1 (K black): score 31, sled 2, quarry 3, cards DEP STAx2 HAM  [start player]
Seat 2 (W white): score 27, sled 4, quarry 5, cards STA CHI  [its turn]

Seat 2 (W) to move.
"""

PICTURE_SIDE_B = """\
Imhotep: edition standard, 3 players, sides M:B P:B T:B C:A O:B, Wrath of the Pharaoh
Round 1 of 6, card R3-2 (ships 4 3 3 2); round cards left: R3-1 R3-3 R3-4 R3-5 R3-6 R3-7

Ships (slots from the bow, . empty; minimum load)
  4A [. W B .]  min 3  docked at P pyramid
  3A [W B .  ]  min 2  in the harbour
  3B [. . .  ]  min 2  in the harbour
  2A [. .    ]  min 1  in the harbour

M market (side B): deck 31 cards; discard pile: empty
  M1 ENT entrance
  M2 STA statue
  M3 HAM hammer
  MX the face-down pair

P pyramids (side B): empty slots show their points or bonus
  PL:
    level 1  (CARD) (CARD)
             (CARD) (CARD)
    level 2  (4)
  PM:
    level 1  (2) (3)
             (3) (2)
    level 2  (4)
  PR:
    level 1  [K]      (STONES)
             (LOAD)   (LOAD)
    level 2  (4)
  edge: none (1 point each)
T temple (side B, 5 columns): 0 stones; the top stones score at each round's end
  top:      . . . . .
  bonus:    PS P2 PS CD PS
C burial chamber (side A): 0 stones, columns from the left, each from the top
  row 1:
  row 2:
  row 3:
O obelisks (side B): waiting K 0  W 0  B 0; towers none; next tower 10

Seat 1 (K black): score 1, sled 5, quarry 23, cards none  [its turn, start player]
Seat 2 (W white): score 0, sled 1, quarry 26, cards none
Seat 3 (B brown): score 0, sled 2, quarry 25, cards none

Seat 2 (W) chooses a pyramid for its stone from ship 4A slot 2.
"""


def test_golden_picture_side_a():
    """The temple's top stones are the last 4 delivered (I11); the pyramid fills each level
    column by column from the top (6.2); the chamber column by column (6.4)."""
    assert picture(from_position(MID_A)) + "\n" == PICTURE_MID_A


def test_golden_picture_side_b():
    """Three side-B pyramids with their bonuses (7.2), the temple's column bonuses (7.3),
    the undrawn pair MX (I32), obelisk towers (7.5); white decides for its stone (I9)."""
    assert GAME.picture(from_position(SIDE_B)) + "\n" == PICTURE_SIDE_B


def test_the_picture_of_the_end_ranks_the_seats():
    rng = random.Random(4)
    state = GAME.new_game(3, variant="AAAAA")
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))
    last = picture(state).splitlines()[-1]
    assert last.startswith("Game over: 1. seat ")
    ranks = sorted(GAME.standings(state), key=lambda s: (s.rank, s.seat))
    for s in ranks:
        assert f"{s.rank}. seat {s.seat} ({'KWB'[s.seat - 1]}) " in last
    assert "its turn" not in picture(state)


def test_page_data_is_json_and_holds_what_the_picture_shows():
    data = GAME.page_data(from_position(SIDE_B))
    assert json.loads(json.dumps(data)) == data
    assert data["position"] == SIDE_B
    assert data["turn"] == {"over": False, "chance": None, "decision": "pyr", "seat": 2,
                            "active": 1, "passes": 0,
                            "text": "Seat 2 (W) chooses a pyramid for its stone from ship "
                                    "4A slot 2."}
    assert data["ships"][0] == {"name": "4A", "capacity": 4, "minimum": 3,
                                "slots": [None, "W", "B", None], "site": "P"}
    assert data["sites"]["M"] == {"side": "B", "display": ["ENT", "STA", "HAM"], "pair": True}
    pr = data["sites"]["P"]["pyramids"][2]
    assert pr == {"code": "PR", "stones": ["K"], "slots": ["STONES", "LOAD", "STONES", "LOAD", 4]}
    assert data["sites"]["T"]["bonuses"] == ["PS", "P2", "PS", "CD", "PS"]
    assert data["sites"]["O"] == {"side": "B", "waiting": [0, 0, 0], "towers": [],
                                  "tower_values": [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}
    assert data["seats"][0] == {"seat": 1, "colour": "K", "sled": 5, "quarry": 23, "score": 1,
                                "cards": {}, "active": True, "start": True, "retired": False}
    mid = page_data(from_position(MID_A))
    assert mid["sites"]["T"]["columns"] == [["K", "K", "K"], ["W", "W", "K"], ["W", "K"],
                                            ["K", "W"]]
    assert mid["sites"]["C"]["rows"] == [["K", "K", "K"], ["K", "W"], ["W", "W"]]
    assert mid["cards"]["discard"] == {"ENT": 2, "SAR": 1, "PAV": 2, "STA": 1, "SAI": 1}


def test_pyramid_levels():
    assert levels(14) == [3, 2, 1]
    assert levels(5) == [2, 1]
    assert levels(3) == [1, 1, 1]
