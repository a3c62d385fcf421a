"""The bundled engine ``policy`` (engines/policy_player.py, SPEC 16.4): a policy function
(observation, action mask -> action id) plays through the real protocol, in ``sneferu
play`` and ``sneferu tournament``, with records, SPRT and the viewer as any bot; every way
the function can fail is a clean fault of its seat, never another move and never a hang.
The policies are tests/policies.py's."""

from __future__ import annotations

import random
import shlex
import subprocess
import sys

import pytest
import test_replay_html as viewer
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from support import ROOT, run_cli

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine
from sneferu_cli.game import GAMES, get_game
from sneferu_cli.record.model import Chance, Simultaneous, Turn
from sneferu_cli.record.replay import plies
from sneferu_cli.record.text import read_records
from sneferu_cli.rl import encoded_games

ENCODED = [g.name for g in encoded_games() if GAMES[g.name].startswith("sneferu_cli.")]
"""The package's games with an action encoding (not a test-only one)."""
IMHOTEP = get_game("imhotep")
POLICIES = ROOT / "tests" / "policies.py"
browser = viewer.browser  # the fixture: a headless Chromium
WITH_TEST_GAMES = [sys.executable, str(ROOT / "tests" / "engines" / "with_test_games.py")]


def policy(name: str) -> str:
    """The option ``Policy`` naming tests/policies.py's function ``name``."""
    return f"Policy={POLICIES}:{name}"


def play(tmp_path, *args: str, game: str = "imhotep") -> tuple[object, list]:
    """``sneferu play ARGS`` of one game in the checkout, recorded (with the test-only
    games registered when ``game`` is one): the record's header and events."""
    rec = tmp_path / "g.rec"
    rec.unlink(missing_ok=True)
    shipped = GAMES.get(game, "").startswith("sneferu_cli.")
    sneferu = [sys.executable, "-m", "sneferu_cli"] if shipped else [*WITH_TEST_GAMES,
                                                                      "sneferu"]
    r = subprocess.run([*sneferu, "play", *args, "--game", game, "--movetime", "20000",
                        "--record", str(rec)], capture_output=True, text=True, timeout=300,
                       cwd=ROOT)  # where Policy's relative paths and modules are found
    assert r.returncode == 0, r.stderr
    (entry,) = read_records(rec.read_text()).games
    return entry.record.header, entry.record.events


def test_it_declares_the_policy_option_and_the_encoded_games():
    (started,) = Engine.start_all([Engine(engine_command("policy"), name="policy")])
    try:
        assert started.fault is None
        assert set(started.games) == set(ENCODED) and "imhotep" in ENCODED
        assert started.options["Policy"].kind == "string"
    finally:
        Engine.quit_all([started])


def test_a_policy_plays_a_whole_game_that_replays_and_repeats(tmp_path):
    """The function is called at every decision with the seat's observation, the mask of
    its legal ids and the context it asks for; ``rng`` follows ``Seed``."""
    games = []
    for _ in range(2):
        header, events = play(tmp_path, "policy", "greedy", "--seed", "4",
                              "-o", f"1:{policy('checked')}")
        assert (header.termination, header.faults) == ("normal", [])
        assert any(isinstance(e, Turn) and e.seat == 1 for e in events)
        assert run_cli("replay", str(tmp_path / "g.rec")).returncode == 0
        games.append([(e.seat, e.move) for e in events if isinstance(e, Turn)])
    assert games[0] == games[1]
    header, _ = play(tmp_path, "greedy", "policy", "--seed", "4", "-o", policy("keywords"))
    assert header.faults == []
    header, _ = play(tmp_path, "policy", "greedy", "--seed", "4", "-o", policy("chatty"))
    assert header.faults == []  # its prints went to standard error, not to the arbiter
    header, _ = play(tmp_path, "policy", "policy", "--seed", "4", "-o",
                     "Policy=tests.policies:first")  # module:function from the directory
    assert header.faults == []


@pytest.mark.parametrize("game", ["sealed-rl", "sealed-parts"])
def test_it_plays_from_its_view_at_simultaneous_nodes_and_in_parts(tmp_path, game):
    """The test-only sealed-rl: simultaneous sealed bids and a private deal, every seat's
    observation that of its view; sealed-parts the same with a factored encoding, each bid
    asked as its tens and then its units (tests/sealed_parts_game.py)."""
    engine = shlex.join([*WITH_TEST_GAMES, "policy"])
    header, events = play(tmp_path, engine, engine, engine, "--seed", "2",
                          "-o", policy("checked"), game=game)
    assert (header.termination, header.faults) == ("normal", [])
    assert sum(isinstance(e, Simultaneous) for e in events) == 3  # the 3 prizes


def test_it_plays_silver_and_gold_from_its_view_in_parts(tmp_path):
    """Silver & Gold: private cards (each seat's view) and markings in parts; every call
    checked against the game (tests/policies.py:checked)."""
    header, events = play(tmp_path, "policy", "policy", "policy", "--seed", "3",
                          "-o", policy("checked"), game="silver-gold")
    assert (header.termination, header.faults) == ("normal", [])
    assert {e.seat for e in events if isinstance(e, Turn)} == {1, 2, 3}


@pytest.mark.parametrize(("option", "detail"), [
    (policy("raises"), "policy: {POLICIES}:raises raised RuntimeError: the network is not "
                       "trained yet"),
    (policy("out_of_range"), "policy: {POLICIES}:out_of_range returned 1429, not an action "
                             "id (0 to 1428)"),
    (policy("illegal"), "policy: {POLICIES}:illegal returned 1 (PASS), not legal here "
                        "({legal} legal ids)"),
    (policy("text"), "policy: {POLICIES}:text returned 'Q' (str), not an action id"),
    (policy("array"), "policy: {POLICIES}:array returned array([[1, 2], [3, 4]]) (ndarray), "
                      "not an action id"),
    (policy("NOT_A_FUNCTION"), "policy: Policy '{POLICIES}:NOT_A_FUNCTION': NOT_A_FUNCTION "
                               "is not a function (int)"),
    (policy("nothing"), "policy: Policy '{POLICIES}:nothing': {POLICIES} has no nothing"),
    ("Policy=no_such_module:f", "policy: Policy 'no_such_module:f': cannot import "
                                "no_such_module: No module named 'no_such_module'"),
    ("Policy=tests/none.py:f", "policy: Policy 'tests/none.py:f': no file tests/none.py "
                               "(in {ROOT})"),
    ("Policy=tests.policies", "policy: Policy 'tests.policies' is not module:function (or "
                              "path/file.py:function)"),
    (None, "policy: no policy: set the option Policy to module:function"),
])
def test_a_policy_that_fails_retires_its_seat_in_one_line(tmp_path, option, detail):
    """Nothing is played in its place: the engine exits, the seat is retired at its first
    decision (ply 0, seat 1 decides first) with the one line as the crash's detail, and
    the game goes on for the others."""
    options = [] if option is None else ["-o", f"1:{option}"]
    header, events = play(tmp_path, "policy", "greedy", "--seed", "4", *options)
    (fault,) = header.faults
    state = IMHOTEP.new_game(2, variant=header.variant)
    draws = iter(e.outcome for e in events if isinstance(e, Chance))
    while state.is_chance_node():  # the set-up's draws, up to seat 1's first decision
        IMHOTEP.apply_outcome(state, next(draws))
    legal = len(IMHOTEP.legal_moves(state))
    expected = detail.format(POLICIES=POLICIES, ROOT=ROOT, legal=legal)
    assert (fault.seat, fault.kind, fault.ply) == (1, "crash", 0)
    assert fault.detail == f"exited with code 1; stderr: {expected}"
    assert header.termination == "normal"
    assert not any(isinstance(e, Turn) and e.seat == 1 for e in events)


def test_a_tournament_with_a_policy_has_its_records_sprt_and_pages(tmp_path, browser):
    """``sneferu tournament`` with the policy engine against greedy, an SPRT between them:
    the records replay, and the web page of one steps through its game."""
    records = tmp_path / "t.records"
    r = run_cli("tournament", "--game", "imhotep", "--seats", "2", "--deals", "2",
                "--seed", "3", "--movetime", "20000", "-j", "2", "--records", str(records),
                "--engine", f"name=trained command=policy option.{policy('uniform')}",
                "--engine", "name=greedy command=greedy",
                "--sprt-elo0", "0", "--sprt-elo1", "10", timeout=300)
    assert r.returncode == 0, r.stderr
    assert "SPRT trained vs greedy: " in r.stdout
    assert "2 pairs: " in r.stdout
    games = read_records(records.read_text()).games
    assert len(games) == 4
    assert all(g.record.header.faults == [] for g in games)
    replay = run_cli("replay", str(records))
    assert replay.returncode == 0 and replay.stdout.count(": verified") == 4, replay.stdout
    page = tmp_path / "game.html"
    assert run_cli("replay", str(records), "-g", "1", "--html", str(page)).returncode == 0
    entry = games[0]
    want = [viewer._sorted_chamber(viewer.drawn_from_data(IMHOTEP.page_data(state), k))
            for k, state in enumerate(plies(entry, IMHOTEP.standard_edition()))]
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    for k in range(len(want)):
        assert viewer._sorted_chamber(browser.execute_script(viewer.DRAWN)) == want[k]
        body.send_keys(Keys.ARROW_RIGHT)
    assert want[-1]["turn"].startswith("Game over: 1. seat ")


def test_without_numpy_it_fails_its_handshake_in_one_line():
    """Without the rl extra the engine exits before its handshake, saying which extra."""
    code = ("import runpy, sys; sys.modules['numpy'] = None; "
            f"runpy.run_path({str(ROOT / 'engines' / 'policy_player.py')!r}, "
            "run_name='__main__')")
    (started,) = Engine.start_all([Engine([sys.executable, "-c", code], name="policy")])
    assert started.fault is not None and started.fault.kind == "handshake"
    assert started.fault.detail.endswith(
        "stderr: policy: the learning-library bindings need the rl extra: pip install "
        "'sneferu[rl]' (no module 'numpy')")


@pytest.mark.parametrize(("option", "detail"), [
    (policy("raises"), f"policy: {POLICIES}:raises raised RuntimeError: the network is not "
                       "trained yet"),
    ("Policy=nomod:f", "policy: Policy 'nomod:f': cannot import nomod: No module named "
                       "'nomod'"),
])
def test_a_failing_policy_in_a_tournament_is_a_fault_in_every_game(tmp_path, option, detail):
    """The engine is started again for each game after its fault: every game of the
    tournament ends, the seat retired with the one line, and the standings count it."""
    records = tmp_path / "f.records"
    r = run_cli("tournament", "--game", "imhotep", "--seats", "2", "--deals", "1",
                "--seed", "3", "--movetime", "20000", "-j", "2", "--records", str(records),
                "--engine", f"name=broken command=policy option.{option}",
                "--engine", "name=greedy command=greedy", timeout=300)
    assert r.returncode == 0, r.stderr
    (row,) = [line.split() for line in r.stdout.splitlines() if " broken " in f" {line} "
              and line[:1].isdigit()]
    assert row[-1] == "crash:2"
    games = read_records(records.read_text()).games
    faults = [f for g in games for f in g.record.header.faults]
    assert len(games) == len(faults) == 2
    assert {(f.kind, f.detail) for f in faults} == {
        ("crash", f"exited with code 1; stderr: {detail}")}


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_spiel_state_of_a_seat_s_view_puts_that_seat_to_act(seat: int) -> None:
    """SPEC 16.2: from a seat's view at Silver & Gold's sealed keep, spiel_state(seat=)
    gives a state in which that seat acts (the seats before it have sealed moves drawn),
    with that seat's legal first parts; built from the view alone, it is the same for two
    truths the seat cannot tell apart."""
    from sneferu_cli.game import seat_view
    from sneferu_cli.rl.openspiel import spiel_state

    game = get_game("silver-gold")
    encoding = game.learning().encoding(3, game.variants[0])
    truth = game.new_game(3)
    rng = random.Random(1)
    while truth.is_chance_node():
        game.apply_outcome(truth, game.sample_outcome(truth, rng))
    assert game.is_simultaneous(truth) and seat in game.deciding_seats(truth)
    view = seat_view(game, truth, seat)
    other = game.hidden().determinize(game.from_position(view), seat, random.Random(99))
    assert seat_view(game, other, seat) == view
    assert game.to_position(other) != game.to_position(truth)  # the others' cards differ
    built = []
    for state in (truth, other):
        spiel = spiel_state("silver-gold", seat_view(game, state, seat), seat=seat,
                            rng=random.Random(7))
        assert spiel.current_player() == seat
        firsts = {encoding.action_ids(m)[0] for m in game.legal_moves(state, seat)}
        assert set(spiel.legal_actions()) == firsts
        built.append(str(spiel))
    assert built[0] == built[1]


def test_spiel_state_is_the_position_in_openspiel():
    """rl.openspiel.spiel_state: an Imhotep position as an OpenSpiel state (the deciding
    seat, its legal ids, no history), and a move in parts with the parts chosen applied
    (the test-only sealed-parts: seat 1 holds 1, 6 and 7; seat 2 holds 8, 9 and 11)."""
    import sealed_rl_game

    from sneferu_cli.rl.openspiel import register, spiel_state

    sealed_rl_game.register()
    register()  # the OpenSpiel game sneferu_sealed_parts
    state, rng, moves = IMHOTEP.new_game(3, variant="ABAAB"), random.Random(8), 0
    while state.is_chance_node() or moves < 6 or state.current_seat() != 1:
        if state.is_chance_node():  # 6 random moves at least, up to a decision of seat 2
            IMHOTEP.apply_outcome(state, IMHOTEP.sample_outcome(state, rng))
        else:
            IMHOTEP.apply_move(state, rng.choice(IMHOTEP.legal_moves(state)), listed=True)
            moves += 1
    spiel = spiel_state("imhotep", IMHOTEP.to_position(state))
    encoding = IMHOTEP.learning().encoding(3, "ABAAB")
    assert str(spiel.get_game()) == "sneferu_imhotep(players=3,variant=ABAAB)"
    assert (spiel.current_player(), spiel.history()) == (1, [])
    assert spiel.legal_actions() == sorted(encoding.action_id(m)
                                           for m in IMHOTEP.legal_moves(state))
    parts = get_game("sealed-parts")
    position = ("sealed prizes=1.2 prize=3 scores=0,0 hands=1.6.7/8.9.11 bids=-,- played=- "
                "retired=0,0")
    names = parts.learning().encoding(2).moves
    assert [names[a] for a in spiel_state("sealed-parts", position).legal_actions()] \
        == ["tens 0"]
    tens = names.index("tens 0")
    assert [names[a] for a in spiel_state("sealed-parts", position, (tens,)).legal_actions()] \
        == ["units 1", "units 6", "units 7"]


def test_play_bench_gives_the_engines_their_options():
    """``sneferu play --bench`` sets each seat's ``--option`` as a game does: the policy
    plays every game without a fault (it used to get no Policy and fault at once)."""
    r = subprocess.run([sys.executable, "-m", "sneferu_cli", "play", "--bench", "2",
                        "policy", "greedy", "--game", "imhotep", "--seed", "3",
                        "-o", f"1:{policy('checked')}"], capture_output=True, text=True,
                       timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "played:" in r.stdout and "fault" not in r.stdout, r.stdout
