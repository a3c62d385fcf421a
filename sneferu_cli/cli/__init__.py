"""The ``sneferu`` command line: a thin layer over the library.

Every error is one line on stderr and exit code 2 (1 for a lost or failed game where a
command says so); never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from ..edition import EditionError
from ..game import IllegalMove, NotationError

COMMANDS = {"position": "position", "play": "play", "replay": "replay", "serve": "serve",
            "bench": "bench", "tournament": "tournament"}
"""Each command and the module of this package that defines it (under the same name)."""


class _Commands(click.Group):
    """The commands, each imported only when it is run (or listed in the help): a
    tournament does not import what serving, replaying or benchmarking need."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"{__name__}.{COMMANDS[cmd_name]}")
        command: click.Command = getattr(module, cmd_name)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sneferu")
def cli() -> None:
    """Sneferu: Builders of the Pyramids, the reference arbiter."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; turns every error into one line and exit 2."""
    try:
        rv = cli.main(args=argv, prog_name="sneferu", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("sneferu: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        hint = ""
        if isinstance(e, click.UsageError) and e.ctx is not None:
            hint = f" (see '{e.ctx.command_path} --help')"
        click.echo(f"sneferu: {e.format_message()}{hint}", err=True)
        sys.exit(e.exit_code)
    except (NotationError, IllegalMove, EditionError) as e:
        click.echo(f"sneferu: {e}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("sneferu: interrupted", err=True)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
