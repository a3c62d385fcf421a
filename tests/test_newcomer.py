"""What stood in a newcomer's way (issue 20): each papercut, tested as a user meets it."""

from __future__ import annotations

import random
import re
import sys
from importlib.metadata import version
from pathlib import Path

import pexpect
from support import run_cli
from test_tournament_run import run, write_config

from sneferu_cli.game import get_game


def test_position_new_count_writes_a_book_of_positions(tmp_path: Path) -> None:
    books = {}
    for game in ("imhotep", "sneferu"):
        one = run_cli("position", "new", "--game", game, "-p", "2", "--seed", "3")
        book = run_cli("position", "new", "--game", game, "-p", "2", "--seed", "3",
                       "--count", "3")
        assert book.returncode == 0, book.stderr
        lines = book.stdout.splitlines()
        assert len(lines) == 3 and lines[0] == one.stdout.strip()
        assert len(set(lines)) == 3
        books[game] = lines
    (tmp_path / "book.txt").write_text("\n".join(books["sneferu"][:2]) + "\n")
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, seats=2, deals=3,
                 seed=1, movetime=1000, records="t.rec", positions="book.txt")
    out = run("t.toml", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert ("positions: 2 positions in book.txt for 3 deals: deal d starts from position "
            "((d - 1) mod 2) + 1, from the first again after the last\n") in out.stdout
    # the standings say what their ± are
    assert ("(rank ±95%: the mean rank's 95% interval; rating: mu ± 2 sigma, from 25 ± 16.7 "
            "before any game, Plackett-Luce (Weng-Lin), shared places by Efron's rule, "
            f"openskill {version('openskill')})\n") in out.stdout


def test_a_command_seat_is_named_after_its_script_until_it_says_its_name(tmp_path: Path
                                                                         ) -> None:
    """docs/arbiter.md: a command's seat is named after its script, until the engine sends its
    own ``id name`` (as a bot copied from engines/random_player.py does)."""
    engine = Path(__file__).parent / "engines" / "current.py"
    quiet = tmp_path / "my_bot.py"
    quiet.write_text(engine.read_text().replace('print("id name current")', 'pass'))
    copied = tmp_path / "copied_bot.py"
    copied.write_text(engine.read_text().replace('"id name current"', '"id name random"'))
    out = run_cli("play", f"python3 {quiet} {tmp_path / 'a.log'} sneferu",
                  f"python3 {copied} {tmp_path / 'b.log'} sneferu", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "Game: seat 1 my_bot.py, seat 2 random; seed 2" in out.stdout


def test_engine_flags_replace_the_files_engines_and_are_named_for_it(tmp_path: Path
                                                                      ) -> None:
    write_config(tmp_path / "t.toml", {"a": "random", "b": "random"}, seats=2, deals=1)
    out = run("t.toml", "--engine", "name=c command=random", cwd=tmp_path)
    assert (out.returncode, out.stderr) == (2, (
        "sneferu: --engine (they replace the engines of t.toml): engine: 1 engine cannot "
        "fill a table of 2 seats\n"))
    assert "replaces the file's engines" in " ".join(run("--help", cwd=tmp_path).stdout.split())


def test_play_on_a_terminal_shows_who_is_thinking(tmp_path: Path) -> None:
    """Without -v, a game on a terminal says who is thinking (a search takes seconds a
    move), then clears that line for the result."""
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "mcts", "random",
                                           "--movetime", "300", "--seed", "4"],
                          encoding="utf-8", timeout=120, dimensions=(24, 200))
    child.expect(r"turn 1: seat \d (mcts|random) is thinking\.\.\.")
    child.expect(r"seat \d mcts is thinking")
    child.expect(r"\r\x1b\[KGame over after \d+ turns")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_imhotep_results_give_ranks_and_points_as_sneferus_do(tmp_path: Path) -> None:
    out = run_cli("play", "random", "random", "--game", "imhotep", "--seed", "3",
                  "--record", str(tmp_path / "g.rec"))
    assert out.returncode == 0, out.stderr
    ranking = re.findall(r"^  (\d)\. seat (\d)  random  +(\d+) points +(\d+) sled$",
                         out.stdout, re.M)
    assert [r[0] for r in ranking] == ["1", "2"] and int(ranking[0][2]) >= int(ranking[1][2])
    replay = run_cli("replay", str(tmp_path / "g.rec"))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.endswith(
        f"Game over: 1. seat {ranking[0][1]} ({ranking[0][2]} points, {ranking[0][3]} sled), "
        f"2. seat {ranking[1][1]} ({ranking[1][2]} points, {ranking[1][3]} sled).\n")


def test_the_imhotep_human_seat_is_told_why_a_move_is_illegal() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "random", "--human",
                                           "1", "--game", "imhotep", "--seed", "1"],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    try:
        child.expect(r"seat 1> ")
        for move, why in (("S 4A P", r"ship 4A carries 0 stones, it needs 3 to sail"),
                          ("L 9Z.1", r"there is no ship 9Z this round \(ships: 4A 3A 3B 1A\)"),
                          ("L 4A.9", r"ship 4A has 4 slots"),
                          ("HAM 4A.1", r"you hold no HAM card"),
                          ("PASS", r"you may pass only when no other move is legal \(I6\)"),
                          ("take M1", r"seat 1 is to choose an action of the turn now")):
            child.sendline(move)
            child.expect(f"Illegal: illegal move {re.escape(move)}: {why}\r\n")
            child.expect(r"seat 1> ")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_the_move_list_says_that_equivalent_moves_are_folded() -> None:
    """Sneferu's ``?`` lists a stone bought from two rows at one price once (SPEC 2.7):
    it says so, and the buy not listed is accepted when typed."""
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "random", "--human",
                                           "1", "--seed", "6"],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    try:
        child.expect(r"seat 1> ")
        child.sendline("?")
        child.expect(r"legal moves, by their first words")
        child.expect(r"\(Moves that end in the same position are listed once, by the first "
                     r"found: a move not listed, such as a stone bought from another row at "
                     r"the same price, may still be legal; type it\.\)")
        child.expect(r"seat 1> ")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_an_imhotep_take_decision_names_its_choices_cards() -> None:
    """At a market decision the picture's last line (the human seat's and the page's)
    lists every legal take with its card, side A and side B (the pair MX)."""
    game = get_game("imhotep")
    rng = random.Random(2)
    seen = 0
    for variant in ("AAAAA", "BBBBB"):
        state = game.new_game(2, variant=variant)
        while not state.is_over():
            if state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, rng))
                continue
            moves = game.legal_moves(state)
            if moves[0].startswith("take "):
                line = game.picture(state).splitlines()[-1]
                listed = re.findall(r"(take M[0-9X]) \(([^)]+)\)", line)
                assert [m for m, _ in listed] == moves, line
                assert all(name.split()[0].isupper() or name == "the face-down pair"
                           for _, name in listed), line
                seen += 1
            game.apply_move(state, rng.choice(moves))
    assert seen >= 4


def test_the_imhotep_human_seat_sees_the_market_again_when_it_takes_a_card() -> None:
    """The human seat loads ship 1A and sails it to the market: at the take decision that
    follows, the market (unchanged since its turn) is shown again with its cards, above
    the choices."""
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "random", "--human",
                                           "1", "--game", "imhotep", "--seed", "1"],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    try:
        child.expect(r"seat 1> ")
        turns = 0
        while True:
            for move in ("S 1A M", "L 1A.1", "Q", "PASS"):  # to the market when it can
                child.sendline(move)
                child.expect(r"seat 1> ")
                if "Illegal:" not in child.before:
                    break
            turns += 1
            assert turns < 40
            if "Seat 1 (K) takes a market card" in child.before:
                break
        picture = child.before
        assert move == "S 1A M"
        market = re.search(r"M market \(side A\): .*\n((?:  M\d .*\n)+)",
                           picture.replace("\r\n", "\n"))
        assert market, picture
        shown = re.findall(r"  (M\d) ", market[1])
        offered = re.findall(r"take (M\d) \(", picture)
        assert shown == offered and shown, picture
        unchanged = re.findall(r"\(Unchanged since your last turn: ([^;]*);", picture)
        assert unchanged and "market" not in unchanged[0], picture
        child.sendline("take " + offered[0])
        child.expect(r"seat 1> ")
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
