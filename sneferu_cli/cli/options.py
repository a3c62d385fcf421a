"""Options and argument readers shared by the commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..game import DEFAULT_GAME, Game, UnknownGame, game_names, get_game

if TYPE_CHECKING:  # imported when used: not every command needs them
    from ..arbiter.remote import Listener
    from ..arbiter.sandbox import Sandbox

F = TypeVar("F", bound=Callable[..., Any])


def find_game(name: str) -> Game:
    """The registered game ``name``; click.BadParameter (one line, exit 2) naming the known
    games when there is none (or its folder is missing from this installation)."""
    try:
        return get_game(name)
    except UnknownGame as e:
        raise click.BadParameter(str(e), param_hint="--game") from None
    except ImportError:
        raise click.BadParameter(f"game {name!r} is registered but not installed here "
                                 f"(known: {', '.join(game_names())})",
                                 param_hint="--game") from None


def game_option(f: F) -> F:
    """``--game NAME``: the game to play (default Sneferu); the value is its :class:`Game`."""
    return click.option("--game", "game", default=DEFAULT_GAME, show_default=True,
                        metavar="NAME",
                        callback=lambda ctx, param, value: find_game(value),
                        help=f"The game: {', '.join(game_names())}.")(f)


def load_for(game: Game, edition_path: str | None) -> Any:
    """The edition of ``game`` named by ``--edition`` (its standard one when not given)."""
    return game.load_edition(Path(edition_path)) if edition_path else game.standard_edition()


def edition_option(f: F) -> F:
    """``--edition PATH``: an edition TOML file instead of the standard edition."""
    return click.option("--edition", "edition_path", type=click.Path(dir_okay=False),
                        default=None, metavar="PATH",
                        help="Edition TOML file (default: the standard edition).")(f)


def load(edition_path: str | None) -> Any:
    """Sneferu's edition named by ``--edition`` (the standard one when not given)."""
    return load_for(get_game(DEFAULT_GAME), edition_path)


def read_game_position(game: Game, text: str, edition_path: str | None) -> Any:
    """A position of ``game`` from an argument; ``-`` reads one line from standard input."""
    if text == "-":
        text = sys.stdin.readline()
    return game.from_position(text.strip(), load_for(game, edition_path))


def variant_option(f: F) -> F:
    """``--variant NAME``: another game's variant (Sneferu's is chosen with --builders)."""
    return click.option("--variant", default=None, metavar="NAME",
                        help="The game's variant (default: its first). Imhotep: its "
                             "five sites' sides, AAAAA to BBBBB, +wrath for the Wrath of "
                             "the Pharaoh; Akropolis: hmbtga to HMBTGA, a letter upper case "
                             "for each bonus variant on (the last: all tiles); Silver & "
                             "Gold: standard. Sneferu's is chosen with --builders.")(f)


def start_game(game: Game, players: int, setup: str | None, variant: str | None,
               edition: Any) -> Any:
    """A new game of ``game`` from ``--players``, ``--builders`` (``setup``: the value of
    the game's seat set-up option, :meth:`Game.record_tags`) and ``--variant``; a click
    error (one line, exit 2) naming what does not fit."""
    tags = game.record_tags()
    if setup is not None and (tags is None or tags.option != SETUP_FLAG):
        raise click.UsageError(f"--{SETUP_FLAG} is for a game with that seat set-up "
                               f"option; not for {game.title}")
    if variant is not None and tags is not None:
        raise click.UsageError(f"--variant is another game's; {game.title}'s is "
                               f"--{tags.option}")
    try:
        if players not in game.players:
            raise ValueError(f"{players} seats: {game.title} is for {min(game.players)} to "
                             f"{max(game.players)} players")
        if setup is not None and tags is not None:
            return tags.new_game(players, setup, edition=edition)
        return game.new_game(players, variant=variant, edition=edition)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


SETUP_FLAG = "builders"
"""The flag of the seat set-up option (``--builders``), named as the one game with one
names it (``RecordTags.option``: Sneferu's builders variant); its value is ``setup``."""


def builders_option(f: F) -> F:
    """``--builders``: the seat set-up option's value (``setup``); Sneferu's builders
    variant, with ``random`` or chosen builders."""
    return click.option(f"--{SETUP_FLAG}", "setup", default=None,
                        metavar="random|NAME,NAME,...",
                        help="Play the builders variant: 'random' draws the builders at "
                             "set-up, or name one builder per seat in seat order.")(f)


def sandbox_of(text: str | None) -> Sandbox:
    """The ``--sandbox`` value (None: none), checked to be enforceable here; a usage error
    naming ``--sandbox`` otherwise."""
    from ..arbiter.sandbox import Sandbox, SandboxError

    try:
        sandbox = Sandbox.parse("none" if text is None else text)
        sandbox.require()
    except SandboxError as e:
        raise click.BadParameter(str(e), param_hint="--sandbox") from None
    return sandbox


def remote_listener(listen: str, tokens: dict[str, int], hello_timeout: float) -> Listener:
    """A listener on ``listen`` (``[HOST:]PORT``) for the engines of ``tokens`` that connect
    from elsewhere, said on stderr with its address (its refusals too, a line each);
    ValueError for an address it cannot listen on. Enter it to serve."""
    from ..arbiter.remote import Listener, parse_listen

    host, port = parse_listen(listen)
    listener = Listener(host, port, tokens,
                        lambda line: click.echo(f"sneferu: {line}", err=True), hello_timeout)
    where = f"{listener.address[0]}:{listener.address[1]}"
    click.echo(f"sneferu: listening for remote engines on ws://{where} and tcp://{where}",
               err=True)
    return listener
