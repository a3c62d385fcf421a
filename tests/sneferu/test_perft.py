"""Perft golden counts (tests/data/perft): a change in move generation shows up here.

See tests/data/perft/README.md for the definition, the format and how to regenerate.
"""

from __future__ import annotations

import json

import pytest
from support import ROOT, run_cli

from sneferu_cli.games.sneferu.bench import perft, perft_counts
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import Phase, new_game
from sneferu_cli.games.sneferu.steps import END, FEAST, STORE, Buy, Place, Shift

DATA = ROOT / "tests" / "data" / "perft"
FILES = sorted(DATA.glob("*.json"))


def load(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_perft_counts_and_moves_are_unchanged(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"name", "about", "position", "perft", "moves"}
    assert data["name"] == path.stem
    state = from_position(data["position"])
    assert to_position(state) == data["position"]
    result = perft_counts(state, len(data["perft"]))
    assert list(result.counts) == data["perft"]
    assert result.moves == data["moves"]


def test_the_positions_show_what_they_were_chosen_for():
    assert len(FILES) >= 5
    steps = {p.stem: from_position(load(p.stem)["position"]).legal_steps() for p in FILES}
    positions = {p.stem: from_position(load(p.stem)["position"]) for p in FILES}
    assert len(positions["start-2p"].players) == 2 and len(positions["start-4p"].players) == 4
    assert positions["setup-builders"].phase == Phase.SETUP
    assert FEAST in steps["builders-lateef-heba"]  # Lateef's feast, and Heba is next
    heba = positions["builders-heba"]
    heba.apply(next(s for s in steps["builders-heba"] if type(s) is Buy))
    assert any(type(s) is Place and s.heba for s in heba.legal_steps())
    assert positions["solo"].ptah is not None and sum(positions["solo"].ptah) > 0
    store = positions["storehouse"]
    assert store.players[store.seat].store  # a stored stone to place first
    for step in steps["storehouse"]:
        if type(step) is Buy:
            child = store.clone()
            child.apply(step)
            assert STORE in child.legal_steps()  # the STOREHOUSE bonus
    assert END in steps["forced-end"] and any(type(s) is Place for s in steps["forced-end"])
    shift = positions["shift"]
    assert shift.bag_total == 0 and any(type(s) is Shift for s in steps["shift"])  # R4
    assert any(type(s) is Buy for s in steps["shift"])


def test_perft_follows_its_definition():
    state = new_game(2)
    assert perft(state, 0) == 1
    assert perft(state, 1) == len(state.chance_weights())  # the first tile: 4 eye kinds
    data = load("forced-end")
    start = from_position(data["position"])
    total = 0
    for step in start.legal_steps():
        child = start.clone()
        child.apply(step)
        total += perft(child, 2)
    assert total == perft(start, 3) == data["perft"][2]
    # Every line ends the game within four actions: nothing to count beyond.
    assert data["perft"][-1] == 0


def test_cli_perft_json_is_the_data_format():
    data = load("shift")
    r = run_cli("bench", "--perft", data["position"], "--depth", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"position": data["position"], "perft": data["perft"][:3],
                                    "moves": data["moves"]}


def test_cli_perft_table_reads_the_position_from_stdin():
    data = load("forced-end")
    r = run_cli("bench", "--perft", "-", "--depth", "2", stdin=data["position"] + "\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("python 3.")
    rows = {line.split()[0]: line.split()[1] for line in lines[2:]}
    assert rows == {"1": str(data["perft"][0]), "2": str(data["perft"][1]),
                    "moves": str(data["moves"])}


def test_cli_perft_rejects_a_bad_position_in_one_line():
    r = run_cli("bench", "--perft", "standard standard nonsense")
    assert r.returncode == 2
    assert r.stderr.startswith("sneferu: position:") and len(r.stderr.splitlines()) == 1
