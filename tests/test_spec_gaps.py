"""What SPEC.md says where a bot and a client written from it alone found it silent: the bare
buy (2.5, R7), `info` during the handshake (6.3), a `go` with one legal move (6.3),
`chance` with nothing due (10.4), and the rules of docs/RULES.md matching the edition."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import tomllib
from pathlib import Path

import pytest
from support import ROOT, run_cli

from sneferu_cli.arbiter import engine as engine_mod
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.arbiter.process import TrafficLog
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import legal_moves
from sneferu_cli.games.sneferu.position import from_position
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.record import read_records
from sneferu_cli.record.model import Turn
from sneferu_cli.tournament.config import ConfigError, EngineConfig
from sneferu_cli.tournament.runner import engine_argv

SPEC = (ROOT / "SPEC.md").read_text()
TALKER = [sys.executable, str(ROOT / "tests" / "engines" / "talker.py")]

# Seat 1 has 0 food and no buy it can pay for: its only legal move is the forced end.
ONLY_END = (
    "standard standard FOOD2,SAVETIME,FOOD1,NOEXTRA,FOOD1,TIMEFOOD,STOREHOUSE,STOREHOUSE,"
    "SAVETIME,NOEXTRA,FOOD2,FOOD1,NOEXTRA,FOOD2,TIMEFOOD MGGABMTATGTGBA/TMBTMGBTMGMGMA/"
    "BTMABTTGBATATM/BTBAMGMAGATMBM 3,7,9,3,5,3,7,4,5,4 - -,0,37.1,GAMGBTTGAGBA/GTATTM--/"
    "GT---/---/--/-,-,-;-,6,38.1,BTAGMAABTGBG/GAAB-MAMB/AB--TM/---/--/-,-,- start:1:37")


def test_the_bare_buy_example_of_spec_2_5_occurs():
    """R7: leaving the M quarry feeds Ptah two MA stones, his 20th and 21st; so every legal
    move is a buy with no placement, and the game ends on it."""
    section = SPEC.split("### 2.5 Solo", 1)[1].split("\n### ", 1)[0]
    (pos,) = re.findall(r"```\n(standard .*)\n```", section)
    moves = run_cli("position", "moves", pos)
    assert moves.returncode == 0, moves.stderr
    assert moves.stdout.split("\n")[:-1] == ["1.1", "1.2+", "1.5+"]
    for move in ("1.1", "1.2+", "1.5+"):
        assert f"`{move}`" in section
    after = run_cli("position", "play", pos, "1.1")
    assert after.returncode == 0, after.stderr
    assert after.stdout.split()[-1] == "over:BT"
    assert "-,0,36.1," in after.stdout  # the stone was paid for, never placed


def test_no_decision_has_an_empty_list_of_legal_moves():
    """SPEC 6.3: at every decision of random games of 1 to 4 seats, some move is legal."""
    rng = random.Random(13)
    decisions = 0
    for players in (1, 2, 3, 4, 1, 2):
        state = new_game(players)
        while not state.is_over():
            if state.is_chance_node():
                state.apply(sample_outcome(state, rng))
                continue
            moves = legal_moves(state)
            assert moves, state
            decisions += 1
            state.apply_turn(rng.choice(moves).steps)
    assert decisions > 100


def test_an_engine_is_asked_even_when_end_is_its_only_move():
    """SPEC 6.3: the arbiter sends `go ... legalmoves end` and the engine answers it."""
    start = from_position(ONLY_END)
    assert [str(m) for m in legal_moves(start)] == ["end"]
    log = io.StringIO()
    engines = [engine_mod.Engine(TALKER, traffic=TrafficLog(log)) for _ in range(2)]
    engine_mod.Engine.start_all(engines)
    try:
        record = play_game(engines, seed=1, time_control=TimeControl(movetime=2000),
                           start=start)
    finally:
        engine_mod.Engine.quit_all(engines)
    first = next(e for e in record.events if isinstance(e, Turn))
    assert (first.seat, first.move) == (1, "end")
    assert not record.header.faults
    lines = log.getvalue().splitlines()
    go = next(i for i, line in enumerate(lines) if " 1> go " in line)
    assert lines[go].endswith(" legalmoves end")
    assert any(" 1< move end" in line for line in lines[go:])


INFO_TALKER = """\
import sys
sys.path.insert(0, {engines!r})
from random_player import RandomPlayer
from sneferu_cli.protocol.bot import run

class Out:
    def write(self, text):
        for line in text.splitlines(keepends=True):
            if line.strip() in ("sneferuok", "readyok", "id name random"):
                sys.stdout.write("info string warming up\\ninfo depth 0\\n")
            sys.stdout.write(line)
    def flush(self):
        sys.stdout.flush()

run(RandomPlayer(), stdout=Out())
"""


def test_info_lines_during_the_handshake_and_before_readyok_are_ignored(tmp_path: Path):
    """SPEC 6.3 and 7.2 agree: `info` before `sneferuok` or `readyok` is no fault."""
    script = tmp_path / "chatty.py"
    script.write_text(INFO_TALKER.format(engines=str(ROOT / "engines")))
    rec = tmp_path / "g.rec"
    run = run_cli("play", f"{sys.executable} {script}", "random", "--seed", "3",
                  "--movetime", "2000", "--record", str(rec), "--log", str(tmp_path / "t.log"))
    assert run.returncode == 0, run.stderr
    log = (tmp_path / "t.log").read_text()
    assert re.search(r"1< info string warming up\n.*1< id name random\n.*1< sneferuok", log,
                     re.S)
    assert re.search(r"1< info depth 0\n.*1< readyok", log, re.S)
    (entry,) = read_records(rec.read_text()).games
    assert entry.record is not None and entry.record.header.faults == []
    assert "seat 1 random" in run.stdout  # its id name was read after the info lines


def test_chance_with_nothing_due_draws_nothing_in_both_modes():
    """SPEC 10.4: `chance G` when a seat is to decide, or the game is over, is an empty
    success; `chance G OUTCOME` then is an error naming why."""
    section = SPEC.split("### 2.5 Solo", 1)[1].split("\n### ", 1)[0]
    (bare_buy,) = re.findall(r"```\n(standard .*)\n```", section)
    text = run_cli("serve", stdin="1 new players=1 seed=3\n2 chance g1\n3 chance g1\n"
                                  f"4 chance g1 ~BT\n5 load {bare_buy}\n6 play g2 1.1\n"
                                  "7 chance g2\n8 chance g2 ~BT\n9 turn g2\n")
    replies = text.stdout.split("\n\n")
    assert replies[2] == "=3"
    assert replies[3] == "?4 ~BT: not a chance node (seat 1 is to move)"
    assert replies[6:9] == ["=7", "?8 ~BT: not a chance node (the game is over)", "=9 over:BT"]
    js = run_cli("serve", "--json", stdin="\n".join(json.dumps(r) for r in (
        {"id": 1, "command": "new", "players": 2, "seed": 3},
        {"id": 2, "command": "chance", "game": "g1"},
        {"id": 3, "command": "chance", "game": "g1"})) + "\n")
    last = json.loads(js.stdout.splitlines()[-1])
    assert last == {"id": 3, "ok": True, "result": {"drawn": []}}


def test_rules_md_lists_the_standard_editions_numbers():
    """docs/RULES.md's [data] tables are the standard edition's numbers (SPEC 5)."""
    rules = (ROOT / "docs" / "RULES.md").read_text()
    ed = tomllib.loads((ROOT / "sneferu_cli" / "games" / "sneferu" / "editions" /
                        "standard.toml").read_text())

    def row(label: str) -> list[str]:
        (line,) = [x for x in rules.splitlines() if x.startswith(f"| {label} |")]
        return [c.strip() for c in line.strip("|").split("|")[1:]]

    assert row("base food") == [str(c["food"]) for c in ed["offer"]["columns"]]
    assert row("base time") == [str(c["time"]) for c in ed["offer"]["columns"]]
    assert row("extra food") == [str(x) for x in ed["offer"]["row_extra_food"]]
    assert row("space") == [str(q["space"]) for q in ed["river"]["quarries"]]
    assert row("colour") == [q["material"] for q in ed["river"]["quarries"]]
    assert row("food")[:-1] == [str(x) for x in ed["pyramid"]["area_food"][:-1]]
    icons = re.findall(r"^\| (\d) \| (\d) \| (left|right) \| (\d) \|$", rules, re.M)
    assert icons == [(str(i["level"]), str(i["slot"]), i["half"], str(i["food"]))
                     for i in ed["pyramid"]["icons"]]
    for tile in ed["tiles"]:
        assert re.search(rf"^\| `{tile['kind']}` \| \w\w \| .* \| {tile['count']} \| "
                         rf"{tile['eye']} \|$", rules, re.M), tile["kind"]
    for b in ed["builders"]:
        assert re.search(rf"^\| {b['name']} \| {b['food']} \|", rules, re.M), b["name"]
    assert all(f"R{n}**" in rules for n in range(1, 11))


def test_a_command_path_is_found_in_dir_and_a_bare_name_on_the_path(tmp_path: Path):
    """SPEC 9.1: `./bot` with `dir` runs `dir/bot`; a bare `bot` is not looked for in dir."""
    bots = tmp_path / "bots"
    bots.mkdir()
    bot = bots / "bot"
    bot.write_text(f"#!{sys.executable}\n")
    bot.chmod(0o755)
    assert engine_argv(EngineConfig("a", ["./bot", "--fast"], str(bots))) == ["./bot", "--fast"]
    with pytest.raises(ConfigError, match=r"engine 'b': no program 'bot'"):
        engine_argv(EngineConfig("b", ["bot"], str(bots)))
    with pytest.raises(ConfigError, match=r"no program './bot'"):
        engine_argv(EngineConfig("c", ["./bot"]))  # not in the current folder
