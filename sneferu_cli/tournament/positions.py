"""Start positions from a file, like a chess opening suite (SPEC.md 9.3).

One position a line in position notation (section 4); blank lines and lines starting with
``#`` are skipped. Deal *d* of a tournament starts from position ((*d* − 1) mod *P*) + 1 of
the *P* in the file, in every seating of every table, as cutechess-cli and fastchess play
``-openings order=sequential`` over their ``-rounds``.

>>> import tempfile, os
>>> sneferu = get_game("sneferu")
>>> f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
>>> _ = f.write("# two players\\n\\n" + sneferu.to_position(sneferu.new_game(2)) + "\\n")
>>> f.close()
>>> len(load_positions(f.name, 2, sneferu.standard_edition()))
1
>>> load_positions(f.name, 3, sneferu.standard_edition())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sneferu_cli.tournament.errors.ConfigError: ...:3: the position has 2 seats, the tables 3
>>> os.unlink(f.name)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..game import Game, get_game
from .errors import ConfigError

__all__ = ["load_positions", "position_for_deal"]


def load_positions(path: str | Path, seats: int, edition: Any,
                   game: Game | None = None) -> list[str]:
    """The positions of the file at ``path`` of ``game`` (Sneferu when None), each in
    canonical position notation.

    Every position must have ``seats`` seats and a game not over yet; one where chance
    is due (a refill) is allowed: its draws come from the deal's generator like every
    later one. ConfigError naming ``FILE:LINE`` for the first line that cannot be used.
    """
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the positions: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not UTF-8 text (byte {e.start})") from None
    game = game or get_game()
    positions = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            state = game.from_position(line, edition)
        except ValueError as e:  # NotationError too
            raise ConfigError(f"{path}:{number}: {e}") from None
        n = game.players_of(state)
        if n != seats:
            raise ConfigError(f"{path}:{number}: the position has {n} seats, the tables "
                              f"{seats}")
        if state.is_over():
            raise ConfigError(f"{path}:{number}: the game is over in this position")
        positions.append(game.to_position(state))
    if not positions:
        raise ConfigError(f"{path}: no positions (one a line; # starts a comment)")
    return positions


def position_for_deal(positions: list[str], deal: int) -> str | None:
    """The start position of deal number ``deal`` (from 1): the positions in turn, from
    the first again after the last; None when there are none (a new game)."""
    return positions[(deal - 1) % len(positions)] if positions else None
