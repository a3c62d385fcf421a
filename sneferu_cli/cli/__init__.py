"""The ``sneferu`` command line: a thin layer over the library.

Every error is one line on stderr and exit code 2 (1 for a lost or failed game where a
command says so); never a traceback.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import sys
from typing import NoReturn

import click

from ..edition import EditionError
from ..game import IllegalMove, NotationError

COMMANDS = {"position": "position", "play": "play", "replay": "replay", "serve": "serve",
            "bench": "bench", "tournament": "tournament", "ladder": "ladder",
            "engine": "engine", "connect": "connect"}
"""Each command and the module of this package that defines it (under the same name)."""

QUICK_EXIT = frozenset({"tournament"})
"""The commands whose process, once they end, exits without the interpreter's teardown
(every module and object freed one by one: some 20 ms, a tenth of the own CPU of a
tournament of 200 quick games); each has closed every file it wrote by then."""


class _Commands(click.Group):
    """The commands, each imported only when it is run (or listed in the help): a
    tournament does not import what serving, replaying or benchmarking need."""

    ran: str | None = None
    """The command run (None before one is)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        self.ran = name
        return name, command, rest

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(f"{__name__}.{COMMANDS[cmd_name]}")
        command: click.Command = getattr(module, cmd_name)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sneferu")
def cli() -> None:
    """The reference arbiter of four board games: Sneferu (the default), Imhotep,
    Silver & Gold Pyramids and Akropolis; --game NAME chooses one (sneferu, imhotep,
    silver-gold, akropolis)."""


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script; turns every error into one line and exit 2.
    Run as the process's command (``argv`` None), a command of :data:`QUICK_EXIT` ends
    the process at once when it is done, after the ``atexit`` functions (not under a
    profiler or a tracer)."""
    try:
        _run(argv)
    except SystemExit as e:
        if (argv is None and isinstance(cli, _Commands) and cli.ran in QUICK_EXIT
                and sys.getprofile() is None and sys.gettrace() is None):
            _exit_now(e.code)  # (a profiler writes its data once the command returns)
        raise


def _exit_now(code: object) -> NoReturn:
    """Exit as ``sys.exit(code)`` would, without tearing the interpreter down."""
    atexit._run_exitfuncs()
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code or 0)


def _run(argv: list[str] | None) -> None:
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
