"""One self-contained HTML page that steps through a recorded game.

Every ply's position is computed here and embedded as JSON (the game's
:meth:`~sneferu_cli.game.Game.page_data`; its ``board``, when it has one, the same at
every ply, once). The page is two templates put together, inline CSS and JavaScript,
nothing fetched: ``viewer.html`` beside this module (the controls, the move list and the
stepping, the same for every game) and ``page.html`` in the game's folder (its style, the
markup inside ``<main>`` and the script that draws one step): Sneferu's river, offer,
pyramids and Ptah; Imhotep's ships, sites, market and sleds.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from ..game import GAMES, get_game
from .model import Chance, Retire, Simultaneous, Turn
from .replay import plies
from .text import SEALED_SEP, GameEntry

__all__ = ["element_helper", "filled_page", "game_page", "move_entry", "page_template",
           "retired_text"]


def game_page(entry: GameEntry, edition: Any, source: str = "<records>") -> str:
    """The page for one game; raises ReplayError (as ``plies``) if the game does not replay."""
    game = get_game(entry.record.header.game)
    steps = [game.page_data(state) for state in plies(entry, edition, source)]
    board = steps[0].get("board") if steps else None
    for step in steps:
        step.pop("board", None)
    data = {"title": _title(entry, source), "edition": board,
            "edition_name": getattr(edition, "name", "?"),
            "seats": _seats(entry), "moves": _moves(entry), "steps": steps}
    return filled_page(game.name, game.title, data)


def filled_page(name: str, title: str, data: dict[str, Any]) -> str:
    """The page of game ``name`` with ``data`` (title, edition, edition_name, seats,
    moves, steps) embedded."""
    # "</" inside the embedded JSON must not close the script element.
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return page_template(name, title).replace("/*GAME-DATA*/null", blob, 1)


_PART = re.compile(r"<style>\n(?P<style>.*?)</style>\n(?P<body>.*?)<script>\n(?P<script>.*?)"
                   r"</script>", re.S)


def page_template(name: str, title: str) -> str:
    """The page of game ``name`` without its data: the shared template with the game's
    part (``page.html`` in the game's folder) put in at its marks."""
    shell = resources.files(__package__).joinpath("viewer.html").read_text(encoding="utf-8")
    text = resources.files(GAMES[name]).joinpath("page.html").read_text(encoding="utf-8")
    part = _PART.search(text)
    assert part is not None, f"{name}'s page.html has a <style>, markup and a <script>"
    marks = {"/*GAME-TITLE*/": title, "/*GAME-STYLE*/\n": part["style"],
             "<!--GAME-BODY-->\n": part["body"], "/*GAME-SCRIPT*/\n": part["script"]}
    for mark, value in marks.items():
        shell = shell.replace(mark, value, 1)
    return shell


_EL = re.compile(r"^function el\(.*?^}\n", re.S | re.M)


def element_helper() -> str:
    """The viewer's JavaScript function ``el(tag, attrs, ...kids)`` that makes an element,
    for another page to share (the live page)."""
    shell = resources.files(__package__).joinpath("viewer.html").read_text(encoding="utf-8")
    found = _EL.search(shell)
    assert found is not None, "viewer.html defines function el"
    return found[0]


def _title(entry: GameEntry, source: str) -> str:
    h = entry.record.header
    parts = [h.event if h.event != "?" else source, f"game {entry.number}"]
    if h.round:  # the [Round] tag: a tournament's game number, not a round of the game
        parts.append(f"no. {h.round} of the event")
    if h.date != "?":
        parts.append(h.date)
    return " · ".join(parts)


def _seats(entry: GameEntry) -> list[dict[str, Any]]:
    h = entry.record.header
    names = {s.seat: s.name for s in h.seats}
    return [{"seat": i, "name": names.get(i, "")} for i in range(1, h.players + 1)]


def _moves(entry: GameEntry) -> list[dict[str, Any]]:
    """Each turn: its seat and move, the draws after it, its clock time and line. A
    simultaneous turn has no seat: its move is every seat's, as the record writes them."""
    out: list[dict[str, Any]] = []
    for i, e in enumerate(entry.record.events):
        line = entry.event_lines[i] if entry.event_lines else None
        if isinstance(e, Turn | Simultaneous):
            out.append({**move_entry(e), "line": line})
        elif isinstance(e, Chance) and out:
            out[-1]["draws"].append(e.outcome)
        elif isinstance(e, Retire) and out:
            out[-1]["draws"].append(retired_text(e))
    return out


def move_entry(e: Turn | Simultaneous) -> dict[str, Any]:
    """A turn as the viewer lists it: its seat (None for a simultaneous turn, whose move
    names every seat's), its move, its clock time and (filled in after) its draws."""
    if isinstance(e, Turn):
        return {"seat": e.seat, "move": e.move, "draws": [], "ms": e.ms}
    move = SEALED_SEP.join(f"{t.seat}: {t.move}" + (f" {{{t.ms}ms}}" if t.ms is not None
                                               else "") for t in e.turns)
    return {"seat": None, "move": move, "draws": [], "ms": None}


def retired_text(e: Retire) -> str:
    """A retirement as the viewer lists it among a move's draws."""
    return f"(seat {e.seat} retired: {e.kind})"
