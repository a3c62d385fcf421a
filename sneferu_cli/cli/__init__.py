"""The ``sneferu`` command line: a thin layer over the library.

Every error is one line on stderr and exit code 2 (1 for a lost or failed game where a
command says so); never a traceback.
"""

from __future__ import annotations

import sys

import click

from ..edition import EditionError
from ..game import IllegalMove, NotationError
from .bench import bench
from .play import play
from .position import position
from .replay import replay
from .serve import serve
from .tournament import tournament


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sneferu")
def cli() -> None:
    """Sneferu: Builders of the Pyramids, the reference arbiter."""


cli.add_command(position)
cli.add_command(play)
cli.add_command(replay)
cli.add_command(serve)
cli.add_command(bench)
cli.add_command(tournament)


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
