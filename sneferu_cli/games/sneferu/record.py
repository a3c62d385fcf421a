"""What a Sneferu record holds beyond every game's: builders and the solo result.

:data:`TAGS` is Sneferu's :class:`~sneferu_cli.game.RecordTags` (``Game.record_tags``,
SPEC.md section 12): the builders variant's set-up (``--builders``), its ``[Builders]``
tag and each ``[Seat]``'s ``builder=``, the ``[Solo]`` tag of a solo game against Ptah,
and Sneferu's own words for a result. The tags are text as the record writes them
(SPEC 8): ``{"Builders": "chosen"}``, ``{"builder": "Aya"}``,
``{"Solo": 'won ptah=3 score=40 title="A cleo-pat on the back"'}``.

>>> from .state import new_game
>>> state = new_game(2, builders="Aya,Heba")
>>> TAGS.tags(state, drawn=False)
({'Builders': 'chosen'}, [{'builder': 'Aya'}, {'builder': 'Heba'}])
>>> TAGS.solo_of({"Solo": 'won ptah=3 score=40 title="A cleo-pat on the back"'})
SoloResult(won=True, against=3, score=40, title='A cleo-pat on the back')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...game import SoloResult
from ...words import plural
from .edition import Edition
from .picture import describe_turn
from .state import GameState, Variant, new_game

__all__ = ["TAGS", "SneferuTags", "builder_of", "builders_tags", "describe_turn",
           "new_game_of", "solo_score", "solo_tag"]

BUILDERS = "Builders"
"""The header tag of the builders variant: ``random`` or ``chosen``."""
BUILDER = "builder"
"""The [Seat] tag's key of a seat's builder."""
SOLO = "Solo"
"""The header tag of a solo game's result against Ptah."""


def new_game_of(players: int, variant: str, builders: str | None,
                seat_builders: Sequence[str | None], edition: Edition) -> GameState:
    """The game a header's [Players], [Variant], [Builders] and [Seat] builder= start.

    Raises ValueError when they do not fit together.
    """
    chosen: str | list[str] | None = None
    if variant == "builders":
        if builders == "random":
            chosen = "random"
        elif builders == "chosen":
            names = list(seat_builders)
            if len(names) != players or None in names:
                raise ValueError("[Builders chosen] needs a [Seat] tag with builder= for "
                                 "every seat")
            chosen = [n for n in names if n is not None]
        else:
            raise ValueError("[Variant builders] needs [Builders random] or [Builders chosen]")
    elif builders is not None:
        raise ValueError(f"[Builders {builders}] in the standard variant")
    return new_game(players, builders=chosen, edition=edition)


def builder_of(state: GameState, seat: int) -> str | None:
    """The name of seat ``seat``'s (0-based) builder, None when it has none."""
    got = state.players[seat].builder
    return got.name if got else None


def builders_tags(state: GameState, drawn: bool) -> tuple[str | None, list[str | None]]:
    """The ``[Builders]`` kind of a game starting at ``state`` and each seat's builder name
    for its ``[Seat]`` tag: ``random`` when the builders are drawn at set-up (``drawn``) or
    still to be drawn in the position, else ``chosen`` with the names; None in the
    standard variant."""
    if state.variant != Variant.BUILDERS:
        return None, [None] * len(state.players)
    if drawn or any(p.builder is None for p in state.players):
        return "random", [None] * len(state.players)
    return "chosen", [p.builder.name if p.builder else None for p in state.players]


def solo_score(state: GameState) -> SoloResult | None:
    """A solo game's result against Ptah: won, Ptah's stones, score and title (when won);
    None in a game of several players."""
    if not state.solo:
        return None
    r = state.solo_result()
    return SoloResult(r.won, r.ptah, r.score, r.title)


def solo_tag(solo: SoloResult) -> str:
    """The value of the [Solo] tag (the text after its name)."""
    if not isinstance(solo.against, int) or solo.against < 0:
        raise ValueError(f"record: Ptah stones {solo.against!r} (expected a count >= 0)")
    text = f"{'won' if solo.won else 'lost'} ptah={solo.against}"
    if solo.score is not None:
        text += f" score={int(solo.score)}"
    if solo.title is not None:
        text += f" title={json.dumps(solo.title, ensure_ascii=False)}"
    return text


_SOLO = re.compile(r'(won|lost) ptah=([0-9]+)(?: score=(-?[0-9]+))?(?: title=(".*"))?')


class SneferuTags:
    """Sneferu's :class:`~sneferu_cli.game.RecordTags`."""

    option = "builders"

    def new_game(self, players: int, setup: str | Sequence[str], *,
                 edition: Any | None = None) -> GameState:
        """The builders variant: ``setup`` is ``random`` (drawn at set-up) or one builder
        name per seat, comma-separated or as a list (SPEC 3)."""
        return new_game(players, builders=setup, edition=edition)

    def from_tags(self, players: int, variant: str, tags: Mapping[str, str],
                  seat_tags: Sequence[Mapping[str, str]], edition: Any) -> GameState:
        return new_game_of(players, variant, tags.get(BUILDERS),
                           [t.get(BUILDER) for t in seat_tags], edition)

    def tags(self, state: GameState, drawn: bool
             ) -> tuple[dict[str, str], list[dict[str, str]]]:
        kind, names = builders_tags(state, drawn)
        return ({} if kind is None else {BUILDERS: kind},
                [{} if n is None else {BUILDER: n} for n in names])

    def seat_tags(self, state: GameState, seat: int) -> dict[str, str]:
        name = builder_of(state, seat)
        return {} if name is None else {BUILDER: name}

    def result_tags(self, state: GameState) -> dict[str, str]:
        solo = solo_score(state)
        return {} if solo is None else {SOLO: solo_tag(solo)}

    def solo_of(self, result_tags: Mapping[str, str]) -> SoloResult | None:
        text = result_tags.get(SOLO)
        if text is None:
            return None
        m = _SOLO.fullmatch(text)
        if m is None:
            raise ValueError(f"[Solo {text}]: not won or lost, ptah=N, score=N, title=\"...\"")
        return SoloResult(m[1] == "won", int(m[2]), None if m[3] is None else int(m[3]),
                          None if m[4] is None else str(json.loads(m[4])))

    def old_json(self, header: dict[str, Any]) -> None:
        """A header's JSON object as written before records were generic, rewritten in
        place: ``builders``, each seat's ``builder``, each result's ``stones`` and
        ``food``, ``solo`` (its ``won``, ``ptah``, ``score`` and ``title``) become tags
        and scores. KeyError, TypeError or ValueError when they are malformed."""
        kind = header.pop("builders", None)
        if kind is not None:
            header.setdefault("tags", {})[BUILDERS] = kind
        for seat in header.get("seats", ()):
            if isinstance(seat, dict) and BUILDER in seat:
                name = seat.pop(BUILDER)
                if name is not None:
                    seat.setdefault("tags", {})[BUILDER] = name
        for result in header.get("result", ()):
            if isinstance(result, dict) and ("stones" in result or "food" in result):
                result["scores"] = {"stones": result.pop("stones"),
                                    "food": result.pop("food")}
        solo = header.pop("solo", None)
        if solo is not None:
            got = SoloResult(solo["won"], solo["ptah"], solo.get("score"), solo.get("title"))
            header.setdefault("result_tags", {})[SOLO] = solo_tag(got)

    def termination_words(self) -> Mapping[str, str]:
        return {"normal": "every boat reached the last space",
                "ptah": "Ptah completed his pyramid"}

    def result_line(self, result: Any, name: str, width: int,
                    result_tags: Mapping[str, str]) -> str | None:
        stones, food = result.scores.get("stones"), result.scores.get("food")
        if stones is None or food is None:
            return None
        solo = self.solo_of(result_tags)
        if solo is not None:  # one seat, against Ptah: a win or a loss, not a place
            line = (f"Solo: seat {result.seat} {name} "
                    + ("beats" if solo.won else "loses to")
                    + f" Ptah, {plural(stones, 'stone')} against his {solo.against}, "
                      f"{food} food")
            if solo.won:
                line += f"; score {solo.score}, \"{solo.title}\""
            return line + "."
        return (f"  {result.rank}. seat {result.seat}  {name:<{width}}  "
                f"{stones:2} {'stone ' if stones == 1 else 'stones'}  {food:3} food")


TAGS = SneferuTags()
"""Sneferu's record tags and seat set-up (``GAME.record_tags()``)."""
