"""What a Sneferu record holds beyond every game's: builders and the solo score.

The record layer reaches these through the optional members of Sneferu's ``Game``
(``new_game_from_tags``, ``setup_tags``, ``seat_setup_of``, ``solo_result``,
``describe_due``; SPEC.md section 12): the state a header's variant and builders start
from, a seat's builder, the solo result against Ptah, and the words saying what a
position waits for.
"""

from __future__ import annotations

from collections.abc import Sequence

from .edition import Edition
from .picture import describe_turn
from .state import GameState, Variant, new_game

__all__ = ["builder_of", "builders_tags", "describe_turn", "new_game_of",
           "solo_score"]


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


def solo_score(state: GameState) -> tuple[bool, int, int | None, str | None] | None:
    """A solo game's result against Ptah: won, Ptah's stones, score and title (when won);
    None in a game of several players."""
    if not state.solo:
        return None
    r = state.solo_result()
    return r.won, r.ptah, r.score, r.title
