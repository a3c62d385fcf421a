"""A seat retired at the keep (3.3, G22) leaves no trace of its four dealt cards, which go
back to the deck, in what the arbiter writes about it (SPEC 7.2, 14.5): a real engine
process (tests/engines/sealed_player.py) answers a keep naming one of its cards twice; its
result line on stdout and the record's fault, result and retire lines name none of its
cards (the refused sealed move is not quoted, the reason names no card). The record's
chance line lists every deal (G23: a record replays without the generator)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from support import ROOT, run_cli

PLAYER = ROOT / "tests" / "engines" / "sealed_player.py"
WHY = "keep: two different cards of your four dealt (3.3)"


def test_a_seat_retired_at_the_keep_names_none_of_its_dealt_cards(tmp_path: Path):
    record = tmp_path / "game.rec"
    done = run_cli("play", "--game", "silver-gold", "--seed", "3", "--record", str(record),
                   "random", f"{sys.executable} {PLAYER} twice 1", "random", timeout=300)
    assert done.returncode == 0, done.stderr
    text = record.read_text()
    dealt = set(re.findall(r"~deal:([\d,]+)", text)[1].split(","))  # seat 2's four
    assert len(dealt) == 4
    (line,) = [x for x in done.stdout.splitlines() if "seat 2" in x and "retired" in x]
    assert re.fullmatch(rf"  3\. seat 2  sealed-twice +0 points +0 tiebreak  retired at ply "
                        rf"0: illegal \({re.escape(WHY)}\)", line), line
    about = [x for x in text.splitlines() if x.startswith(("[Fault", "[Result 2", "retire"))]
    assert about == ["[Result 2 rank=3 points=0 tiebreak=0 retired]",
                     f'[Fault 2 illegal ply=0 detail="{WHY}"]', "retire 2 illegal"]
    for written in (line, *about):
        assert not dealt & set(re.findall(r"\d+", written.replace("3.3", ""))), written
