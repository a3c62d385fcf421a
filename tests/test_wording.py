"""User-facing wording: counts in the singular for one, the solo result as a win or a loss
against Ptah (SPEC 7.6, R10), and a tournament's progress counting only the games being
played (SPEC 9.8)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from support import run_cli
from tournament_support import solo_tags

from sneferu_cli.arbiter.game import describe_result
from sneferu_cli.game import SoloResult
from sneferu_cli.record.model import GameRecord, Header, Seat, SeatResult, Turn
from sneferu_cli.tournament.config import load_config
from sneferu_cli.tournament.journal import Journal
from sneferu_cli.tournament.progress import Progress
from sneferu_cli.tournament.runner import TournamentRun


def one_turn(solo: SoloResult | None, termination: str = "ptah") -> GameRecord:
    """A (made-up) record of a game that ended after one turn, 1 stone placed."""
    return GameRecord(Header(players=1, seats=[Seat(1, "greedy")],
                             result=[SeatResult(1, 1 if solo and solo.won else 2,
                                                scores={"stones": 1, "food": 4})],
                             result_tags={} if solo is None else solo_tags(solo),
                             termination=termination),
                      [Turn(1, "1.1 TG@1.1", 3)])


def test_one_turn_and_one_stone_are_singular():
    text = describe_result(one_turn(SoloResult(False, 21)))
    assert text.splitlines() == [
        "Game over after 1 turn (Ptah completed his pyramid).",
        "Solo: seat 1 greedy loses to Ptah, 1 stone against his 21, 4 food."]
    aborted = one_turn(None, "aborted")
    assert describe_result(aborted) == "Game aborted after 1 turn."


def test_a_solo_win_gives_the_score_and_title_not_a_place():
    """R10 titles; the line says who beat whom instead of `1. seat 1`."""
    text = describe_result(one_turn(SoloResult(True, 0, 3, "A-noob-is"), "normal"))
    assert text.splitlines()[1] == ('Solo: seat 1 greedy beats Ptah, 1 stone against his 0, '
                                    '4 food; score 3, "A-noob-is".')


def test_the_picture_counts_one_stone_in_the_singular():
    start = run_cli("position", "new", "--players", "2", "--seed", "3").stdout.strip()
    after = run_cli("position", "play", start, "1.1 TG@1.1", "--seed", "5").stdout.strip()
    picture = run_cli("position", "show", after).stdout
    assert re.search(r"^Seat 1: food \d+, boat on space 4, 1 stone$", picture,
                     re.M), picture
    assert "level 1 at the bottom, slots numbered from the left" in picture
    assert "  1[TG] 2[1.] 3[..] 4[..] 5[.1] 6[..]   level 1" in picture


def test_progress_never_counts_more_games_running_than_workers(tmp_path: Path):
    """With -j 4 at most 4 games run: a game played whose record is still being written is
    no longer running. (Four engines playing the same solo deals finish their games at
    nearly the same moment, when the count used to go over.)"""
    cfg = load_config(None, {"engine": [f"name={n} command=random" for n in "abcd"],
                             "seats": 1, "deals": 6, "seed": 1, "movetime": 1000,
                             "records": str(tmp_path / "t.rec")})
    seen: list[int] = []
    with Journal.start(cfg) as journal:
        run = TournamentRun(journal, 4)
        assert run.run(lambda r, record: seen.append(len(r.running))) == "complete"
        assert Progress(io.StringIO(), live=False).status(run).startswith("[24/24 100%] ")
    assert seen and max(seen) <= 4, seen


def test_the_tournament_banner_and_progress_lines(tmp_path: Path):
    r = run_cli("tournament", "--engine", "name=a command=random", "--engine",
                "name=b command=random", "--deals", "1", "--seed", "1", "--movetime", "1000",
                "-j", "2", "--records", str(tmp_path / "t.rec"))
    assert r.returncode == 0, r.stderr
    assert "round-robin at 2 seats, 1 deal: 2 games (0 played, 2 to play)" in r.stdout
    assert all(int(n) <= 2 for n in re.findall(r"\] (\d+) running,", r.stdout)), r.stdout


def test_the_help_texts_speak_for_every_game():
    """`sneferu --help`, `serve --help`, `play --help` and `--variant` name every game (or
    speak of none), every bundled engine, and the variants of each game that has them."""
    from sneferu_cli.arbiter.bundled import BUNDLED
    from sneferu_cli.game import get_game

    def game_names() -> tuple[str, ...]:  # the shipped ones, not a test game registered
        return ("sneferu", "imhotep", "silver-gold", "akropolis")

    def text(*args: str) -> str:
        done = run_cli(*args, "--help")
        assert done.returncode == 0, done.stderr
        return re.sub(r"(?<=\w)- (?=\w)", "-", " ".join(done.stdout.split()))  # wrapped

    for name in game_names():
        assert name in text() and name in text("serve"), name
    assert "Sneferu's rules" not in text("serve")
    assert "'help' gives their syntax" in text("serve")
    play = text("play")
    assert all(engine in play for engine in BUNDLED)
    for name in game_names():
        game = get_game(name)
        if game.record_tags() is None:
            assert game.title.split()[0] in play and game.variants[0] in play, name
    assert "--seat N" in text("position", "play")
