"""Records of Silver & Gold games (G1, G23): every chance event is written (the deals
grouped on one ``chance`` line by their kind), the sealed moves are collected in seat order
by an arbiter that asks one seat at a time, and the record replays without the seed."""

from __future__ import annotations

import re

from support import run_cli

from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.record.replay import verify
from sneferu_cli.record.text import read_records


def test_a_played_game_lists_its_chance_events_and_replays(tmp_path):
    rec = tmp_path / "sgp.rec"
    r = run_cli("play", "random", "random", "random", "--game", "silver-gold", "--seed", "4",
                "--record", str(rec), timeout=120)
    assert r.returncode == 0, r.stderr
    text = rec.read_text()
    lines = text.splitlines()
    assert "[Game silver-gold]" in lines and "[Edition sgp-recon-1]" in lines
    chance = [line for line in lines if line.startswith("chance ")]
    # G23: the three deals, one kind, one line; each seat's keep, seat order (G1).
    assert re.fullmatch(r"chance( ~deal:\d+,\d+,\d+,\d+){3}", chance[0])
    turns = [line for line in lines if re.match(r"\d+\. ", line)]
    # G22: the sealed keeps are one simultaneous step, every seat's move on one line (SPEC
    # 8.3), revealed together: the offer and the first expedition card follow the last keep.
    keeps = turns[0].split(" ; ")
    assert [k.split(":")[0] for k in keeps] == ["1. 1", "2", "3"]
    assert all(" keep " in k for k in keeps)
    assert re.search(r"( ~offer:\d+){4} ~exp:\w+$", turns[0])
    assert sum(t.count("~exp:") for t in turns) == 28
    entry = read_records(text).games[0]
    final = verify(entry, GAME.standard_edition()).state
    assert final.is_over() and (final.round, final.turn) == (4, 7)
    assert run_cli("replay", str(rec)).returncode == 0
