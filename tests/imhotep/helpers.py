"""Building Imhotep positions by hand for the rules tests (tests/imhotep/)."""

from __future__ import annotations

from sneferu_cli.games.imhotep.edition import SITES
from sneferu_cli.games.imhotep.move import parse_move
from sneferu_cli.games.imhotep.state import ImhotepState, new_game

K, W, B, G = 0, 1, 2, 3
"""Seats by colour: black, white, brown, grey."""


def start(players: int = 2, variant: str = "AAAAA", card: str | None = None,
          display: tuple[str, ...] = ("STA", "STA", "STA", "STA")) -> ImhotepState:
    """A new game at its first turn: round card ``card`` (default the first of the player
    count), the display drawn as ``display`` (as many as the market shows)."""
    state = new_game(players, variant)
    state.apply_outcome("~" + (card or f"R{players}-1"))
    for code in display[:len(state.display)]:
        state.apply_outcome("~" + code)
    return state


def play(state: ImhotepState, *texts: str) -> None:
    """Apply moves (checked) and chance outcomes (``~X``) in order."""
    for text in texts:
        if text.startswith("~"):
            state.apply_outcome(text)
        else:
            state.apply(parse_move(text))


def moves(state: ImhotepState) -> list[str]:
    """The legal moves as text."""
    return [str(m) for m in state.legal_moves()]


def put(state: ImhotepState, ship: str, *seats: int) -> None:
    """Set the slots of ``ship`` from the bow (-1: empty); the stones come from the
    seats' quarries so that the counts stay right."""
    s = state.ships[state.ship(ship)]
    for j, seat in enumerate(seats):
        if s.slots[j] >= 0:
            state.quarries[s.slots[j]] += 1
        s.slots[j] = seat
        if seat >= 0:
            state.quarries[seat] -= 1


def fill(state: ImhotepState, site: list[int], *seats: int) -> None:
    """Append stones of ``seats`` to a site list (temple, chamber, pyramid...), taken from
    their quarries."""
    for seat in seats:
        state.quarries[seat] -= 1
        site.append(seat)


def dock_others(state: ImhotepState, keep: str, at: str) -> None:
    """Mark every unsailed ship but ``keep`` as sailed (empty) to the sites ``at`` in
    order, so that sailing ``keep`` ends the round."""
    sites = [SITES.index(x) for x in at]
    for s in state.ships:
        if s.name != keep and s.site < 0:
            assert s.load() == 0
            s.site = sites.pop(0)


def card(state: ImhotepState, code: str) -> int:
    """The kind index of market card ``code``."""
    return state.tables.card_index[code]


def give(state: ImhotepState, seat: int, code: str, copies: int = 1) -> None:
    """Move ``copies`` of card ``code`` from the deck to ``seat``'s hand."""
    k = card(state, code)
    state.deck[k] -= copies
    state.hands[seat][k] += copies
