"""Options and argument readers shared by the commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..games.sneferu.notation.position import from_position
from ..games.sneferu.rules.edition import Edition, load_edition, standard_edition
from ..games.sneferu.rules.state import GameState

F = TypeVar("F", bound=Callable[..., Any])


def edition_option(f: F) -> F:
    """``--edition PATH``: an edition TOML file instead of the standard edition."""
    return click.option("--edition", "edition_path", type=click.Path(dir_okay=False),
                        default=None, metavar="PATH",
                        help="Edition TOML file (default: the standard edition).")(f)


def load(edition_path: str | None) -> Edition:
    """The edition named by ``--edition`` (the standard one when not given)."""
    return load_edition(edition_path) if edition_path else standard_edition()


def read_position(text: str, edition_path: str | None) -> GameState:
    """A position from an argument; ``-`` reads one line from standard input."""
    if text == "-":
        text = sys.stdin.readline()
    return from_position(text.strip(), load(edition_path))


def builders_option(f: F) -> F:
    """``--builders``: the builders variant, with ``random`` or chosen builders."""
    return click.option("--builders", default=None, metavar="random|NAME,NAME,...",
                        help="Play the builders variant: 'random' draws the builders at "
                             "set-up, or name one builder per seat in seat order.")(f)
