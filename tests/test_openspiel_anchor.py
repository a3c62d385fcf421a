"""OpenSpiel's MCTS bots as the outside anchor (examples/openspiel_anchor.py, through the
bundled ``policy`` engine, SPEC 16.4): each plays a whole game of every game it is for
through ``sneferu play``, searching by the ``deadline`` the engine gives; in Silver & Gold
it never reads the other seats' hidden cards (**G21**, **G22**): handed two truths that
differ only there, with the same seed, it chooses the same."""

from __future__ import annotations

import importlib.util
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support import ROOT
from test_rl_hidden import twin_states

from sneferu_cli.game import GAMES, get_game, seat_view
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import read_records
from sneferu_cli.rl import encoded_games

FOUND = importlib.util.spec_from_file_location("openspiel_anchor",
                                               ROOT / "examples" / "openspiel_anchor.py")
assert FOUND is not None and FOUND.loader is not None
anchor: Any = importlib.util.module_from_spec(FOUND)
FOUND.loader.exec_module(anchor)

SHIPPED = [g.name for g in encoded_games() if GAMES[g.name].startswith("sneferu_cli.")]
BOTS = [(name, bot) for name in SHIPPED for bot in ("mcts", "ismcts")
        if bot == "mcts" or get_game(name).hidden() is not None]


def test_every_game_and_the_hidden_one() -> None:
    assert {"sneferu", "imhotep", "akropolis", "silver-gold"} <= set(SHIPPED)
    assert ("silver-gold", "ismcts") in BOTS and ("imhotep", "ismcts") not in BOTS


@pytest.mark.parametrize(("game", "bot"), BOTS)
def test_the_anchor_plays_a_whole_game(tmp_path: Path, game: str, bot: str) -> None:
    """A tiny movetime (the deadline passed at once: two simulations a search, none where
    ISMCTSBot has one legal action), a margin that never retires it: the game ends
    normally, every search said on standard error."""
    rec, logs = tmp_path / "g.rec", tmp_path / "logs"
    r = subprocess.run(
        [sys.executable, "-m", "sneferu_cli", "play", "greedy", "policy", "--game", game,
         "--seed", "5", "--movetime", "1", "--margin", "600000", "--record", str(rec),
         "-o", f"2:Policy=examples/openspiel_anchor.py:choose_{bot}",
         "--engine-stderr", f"{logs}/"],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    assert (entry.record.header.termination, entry.record.header.faults) == ("normal", [])
    assert any(isinstance(e, Turn) and e.seat == 2 for e in entry.record.events)
    searches = [line.split() for line in (logs / "2-policy.log").read_text().splitlines()
                if line.startswith(f"anchor {bot}: ")]
    counts = {int(words[3]) for words in searches if words[2] == "move"}
    assert anchor.AT_LEAST in counts and counts <= {0, anchor.AT_LEAST}


def mask_of(state: Any) -> np.ndarray:
    mask = np.zeros(state.get_game().num_distinct_actions(), np.int8)
    mask[state.legal_actions()] = 1
    return mask


@pytest.mark.parametrize("bot", ["mcts", "ismcts"])
def test_it_never_reads_the_hidden_cards(bot: str) -> None:
    """Two truths that differ only in what the seat cannot see, one view: handed the
    position the engine gives it (each truth's view, as the arbiter sends it), the same
    seed and count, it chooses the same action. MCTSBot searching the truth itself does
    not choose the same for some pair: the test would see an anchor that peeks."""
    rules = get_game("silver-gold")
    choose = getattr(anchor, f"choose_{bot}")
    pairs = twin_states("silver-gold", 6)
    assert len(pairs) == 6
    for seed, (a, b) in enumerate(pairs):
        seat = a.current_player()
        views = [rules.to_position(rules.from_position(seat_view(rules, truth.state, seat)))
                 for truth in (a, b)]
        assert views[0] == views[1] and views[0] != rules.to_position(a.state)
        chosen = {choose(np.zeros(1, np.float32), mask_of(a), game=rules, position=view,
                         seat=seat, parts=(), rng=random.Random(seed), deadline=math.inf,
                         simulations=30)
                  for view in views}
        assert len(chosen) == 1 and chosen <= set(a.legal_actions())

    def peeking(truth: Any, seed: int) -> int:
        searched = anchor.TimedMCTSBot(truth.get_game(), math.inf, seed, 30).search(truth)
        return int(searched.best_child().action)

    assert any(peeking(a, seed) != peeking(b, seed) for seed, (a, b) in enumerate(pairs))


def test_ismcts_is_for_hidden_information_only() -> None:
    rules = get_game("imhotep")
    state = rules.new_game(2)
    with pytest.raises(ValueError, match="ISMCTSBot is for a game with hidden information"):
        anchor.choose_ismcts(np.zeros(1, np.float32), np.ones(1, np.int8), game=rules,
                             position=rules.to_position(state), seat=0, parts=(),
                             rng=random.Random(0), deadline=math.inf)
