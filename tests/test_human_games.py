"""A whole game of each game played by a person at a terminal (SPEC 7.1): a real `sneferu
play` process under pexpect, seat 1 human against `random`, every move chosen from the
legal moves the seat lists with `?`. At every decision the screen since the seat's last
move must hold what the decision needs: the picture's parts (the game's `picture_focus`),
the pattern or tile to place, the line saying what to type and how to list the legal moves,
and the legend to the picture's letters; `?` and `help` speak of this game only."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import pexpect

T = 60
"""Seconds one answer of the process may take (a whole game takes many)."""
MOST = 400
"""More decisions than any of these games asks of one seat: the loop is bounded."""

HINT = "Type ? for the legal moves, help for help."
SNEFERU_ONLY = ("stone bought", "? 1.1", "1.1 TG@1.1")
"""Sneferu's own words, which no other game's help may show."""


def _move(child: pexpect.spawn, screen: list[str]) -> str:
    """The first legal move, listed with `?` and, while the list is grouped, `? WORDS` of
    its first group; every listing is added to ``screen``."""
    child.sendline("?")
    child.expect(r"seat 1> ")
    out = child.before
    screen.append(out)
    while "by their first words" in out:
        group = re.search(r"\n  (\S.*?) \(\d+\)", out)
        assert group, out
        child.sendline("? " + group[1])
        child.expect(r"seat 1> ")
        out = child.before
        screen.append(out)
    listed = re.search(r"legal moves?(?: starting with '.*?')?:\r\n  (.+?)(?:  |\r\n)", out)
    assert listed, out
    return listed[1].strip()


def play_whole_game(game: str, seed: int, needs: Callable[[str, str, str], None]) -> int:
    """Play ``game`` to its end as seat 1; ``needs(screen, listing, before)`` asserts what
    the screen before a decision holds (``listing``: what `?` printed there, ``before``:
    the seat's move before, or ""). The number of decisions."""
    child = pexpect.spawn(sys.executable, ["-m", "sneferu_cli", "play", "random", "--human",
                                           "1", "--game", game, "--seed", str(seed)],
                          encoding="utf-8", timeout=T, dimensions=(60, 200))
    child.delaybeforesend = None
    decisions = 0
    move = ""
    try:
        child.expect(r"seat 1> ")
        screen = child.before
        child.sendline("help")
        child.expect(r"seat 1> ")
        helped = child.before
        assert "Commands: ? or moves" in helped and "e.g. ? " in helped, helped
        if game != "sneferu":
            assert not any(w in helped for w in SNEFERU_ONLY), helped
        while True:
            decisions += 1
            assert decisions < MOST
            listing: list[str] = []
            before, move = move, _move(child, listing)
            needs(screen.replace("\r\n", "\n"), "".join(listing).replace("\r\n", "\n"),
                  before)
            child.sendline(move)
            if child.expect([r"seat 1> ", r"Game over after \d+ turns"]) == 1:
                break
            screen = child.before
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    return decisions


def _common(game: str, screen: str, listing: str) -> None:
    """What every decision of every game shows: the line saying what to type, how to list
    the legal moves and get help; no other game's words in the listing; the unchanged
    parts named after the parts shown, never between them."""
    assert HINT in screen, screen
    if game != "sneferu":
        assert not any(w in listing for w in SNEFERU_ONLY), listing
    unchanged = re.search(r"\(Unchanged since your last turn: .*\)\n\n(.*)\n", screen)
    if unchanged:  # only the decision's line follows it
        assert HINT in unchanged[1], screen


def test_a_whole_sneferu_game_as_a_person():
    def needs(screen: str, listing: str, before: str) -> None:
        _common("sneferu", screen, listing)
        assert "Offer (stone food/time" in screen, screen  # what may be bought
        # its own pyramids, or their name among the parts unchanged since its last turn
        assert re.search(r"Seat 1: food|Unchanged since your last turn: .*seat 1", screen)
        assert "Pyramids: level 1 at the bottom" in screen, screen  # the key
        assert "Type your whole turn" in screen, screen

    assert play_whole_game("sneferu", 6, needs) > 5


def test_a_whole_imhotep_game_as_a_person():
    def needs(screen: str, listing: str, before: str) -> None:
        _common("imhotep", screen, listing)
        if "takes a market card" in screen.rsplit("\n\n", 2)[-2]:
            assert "Take a market card" in screen and "M market" in screen, screen
        elif "Your action:" in screen:  # an ordinary action: the ships and the sleds
            assert "Ships" in screen or "ship" in screen.lower(), screen
            assert "Seat 1 (" in screen or "seat 1 (" in screen, screen

    assert play_whole_game("imhotep", 1, needs) > 10


def test_a_whole_silver_gold_game_as_a_person():
    """Every step-2 decision draws the expedition card to mark (SPEC 14.6) with the seat's
    labelled chambers and the legend; after its first marking, the cells it marked in the
    last step are shown as <R>."""
    marks = 0

    def needs(screen: str, listing: str, before: str) -> None:
        nonlocal marks
        _common("silver-gold", screen, listing)
        assert "Chambers: columns a-e, rows 1-5; the entrance E is a1" in screen, screen
        assert "X red cross" in screen and "<R> one marked in the last step 2" in screen
        if "Mark expedition card" in screen:
            code = re.search(r"Mark expedition card (\w+)", screen)
            assert code and re.search(rf"Expedition card {code[1]} to mark now .*:\n  [#.]+",
                                      screen), screen
            own = screen.split("Seat 1:", 1)[1].split("\n\n", 1)[0]
            if "in play" in own:
                assert "     a  b  c  d  e" in own and "\n  5 " in own, own
            card = before.split(":", 1)[0]
            if ":" in before and f"  {card} " in own.split("\n")[2] + " ":
                assert "<" in own, own  # the cells of its last step 2, on a card in play
            marks += 1
        elif "keep A B" in screen:
            assert "dealt" in screen, screen
        else:
            assert "Take a new card" in screen and "Offer:" in screen, screen

    assert play_whole_game("silver-gold", 1, needs) > 20
    assert marks > 20


def test_a_whole_akropolis_game_as_a_person():
    def needs(screen: str, listing: str, before: str) -> None:
        _common("akropolis", screen, listing)
        assert "Construction site" in screen, screen  # the tiles to take
        own = screen.split("Seat 1:", 1)[1].split("\n\n", 1)[0]
        assert "q=" in own and "(0,0)" in own, own  # its city, with coordinates
        assert "Cities: h house, m market" in screen, screen
        assert "PLACE @Q,R rK" in screen, screen

    assert play_whole_game("akropolis", 1, needs) > 5
