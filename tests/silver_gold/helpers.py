"""Building Silver & Gold Pyramids positions by hand for the rules tests (tests/silver_gold/).

:func:`build` lays out a position of step 2 (or another phase) from a few facts: each
seat's cards in play with their marked cells, counters, completed cards; the deck is every
card not shown. The state is written and read back (``from_position`` checks it), so a
test never starts from a position no game can reach.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sneferu_cli.games.silver_gold import GAME
from sneferu_cli.games.silver_gold.edition import COLOURS
from sneferu_cli.games.silver_gold.move import CELL_NAMES
from sneferu_cli.games.silver_gold.state import PHASES, SilverGoldState


@dataclass
class Seat:
    """One seat of a hand-built position: ``play`` maps a card in play to its marked cells
    (``"a1 a2"``), ``pts`` holds boxes like ``"PUR10"``."""

    play: dict[int, str] = field(default_factory=dict)
    red: int = 0
    green: int = 0
    skulls: int = 0
    torches: str = "----"
    done: tuple[int, ...] = ()
    pts: tuple[str, ...] = ()
    retired: bool = False


def build(*seats: Seat, exp: tuple[str, ...] = ("V3",), offer: tuple[int, ...] = (),
          round: int = 1, phase: str = "mark") -> SilverGoldState:
    """The position with these seats at ``phase`` (step 2 by default) in ``round``, after
    the expedition cards ``exp`` of the round (the last is the current pattern)."""
    shown = [*offer]
    words = []
    for i, s in enumerate(seats):
        cards = []
        for card, cells in sorted(s.play.items()):
            names = sorted(cells.split(), key=CELL_NAMES.index)
            cards.append(f"{card}[{','.join(names)}]")
            shown.append(card)
        shown += s.done
        boxes = sorted(s.pts, key=lambda b: (COLOURS.index(b[:3]), -int(b[3:])))
        words.append(" ".join([f"{i + 1}:", *cards, f"R{s.red}", f"G{s.green}",
                               f"F:{s.torches}", f"S{s.skulls}",
                               f"done:{','.join(map(str, sorted(s.done))) or '-'}",
                               f"pts:{','.join(boxes) or '-'}",
                               *(["retired"] if s.retired else [])]))
    head = (f"sgp-recon-1 r{round}.{len(exp)} {phase} exp:{','.join(exp) or '-'} "
            f"offer:{','.join(map(str, sorted(offer))) or '-'} deck:{48 - len(shown)}")
    assert phase.split(":")[0] in PHASES
    return GAME.from_position(" | ".join([head, *words]))


def cells(text: str) -> int:
    """The mask of cells named in ``text`` (``"a1 b2"``)."""
    mask = 0
    for name in text.split():
        mask |= 1 << CELL_NAMES.index(name)
    return mask


def marked(state: SilverGoldState, card: int) -> str:
    """The marked cells of a card in play, by name in row order."""
    return " ".join(CELL_NAMES[k] for k in range(25) if state.marks[card] >> k & 1)


def submit(state: SilverGoldState, *moves: str) -> None:
    """Each deciding seat's sealed move in seat order (one text per seat), then the
    resolution."""
    for seat, text in zip(GAME.deciding_seats(state), moves, strict=True):
        GAME.apply_move(state, text, seat)


def random_games(examples: int) -> Callable[[Callable[..., Any]], Any]:
    """A property test over ``examples`` random games: hypothesis draws ``players`` (2 to 4)
    and a ``seed`` for the test's own ``random.Random``."""
    def wrap(test: Callable[..., Any]) -> Any:
        return settings(max_examples=examples, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow])(
            given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))(test))
    return wrap
