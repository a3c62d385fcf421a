"""``sneferu engine check``: an engine's compliance with the protocol (SPEC.md 7.11)."""

from __future__ import annotations

import sys

import click

from ..arbiter.bundled import engine_command
from ..arbiter.check import check_engine
from .options import sandbox_of


@click.group()
def engine() -> None:
    """Engines: check one before it plays."""


@engine.command()
@click.argument("command")
@click.option("--sandbox", "sandbox_text", default=None, metavar="'LEVEL [KEY=VALUE...]'",
              help="Run the engine in this sandbox: none (default), limits, bwrap or cgroup, "
                   "then limits such as memory=256M pids=64 cpu=600 (SPEC.md 7.10).")
@click.option("--dir", "folder", default=None, type=click.Path(file_okay=False, exists=True),
              help="The engine's working folder (default: the current one).")
@click.option("--movetime", type=click.IntRange(min=1), default=1000, show_default=True,
              metavar="MS", help="Time per move in the check games.")
@click.option("--handshake-timeout", type=click.FloatRange(min=0, min_open=True),
              default=10.0, show_default=True, metavar="SECONDS",
              help="Time for the handshake (sneferuok) and for each readyok.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the check games.")
@click.option("--keep-going", is_flag=True,
              help="Go on after a failure (by default the check stops at the first).")
def check(command: str, sandbox_text: str | None, folder: str | None, movetime: int,
          handshake_timeout: float, seed: int, keep_going: bool) -> None:
    """Check that COMMAND (a bundled engine's name, or a command line given as one
    argument) keeps to the engine protocol: its handshake, its options, then a short game
    of every game it declares at every seat count, against the bundled random engine.
    Prints what it checked and PASS, or FAIL with each failure, its reason and the last
    lines of the engine's stderr.

    Exit codes: 0 passed, 1 failed, 2 a usage error (no such program, a sandbox that
    cannot be enforced here).
    """
    sandbox = sandbox_of(sandbox_text)
    try:
        argv = engine_command(command, cwd=folder)  # a path is found in --dir
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="COMMAND") from None
    report = check_engine(argv, sandbox=sandbox, cwd=folder, movetime=movetime,
                          handshake_timeout=handshake_timeout, seed=seed,
                          keep_going=keep_going)
    for line in report.lines():
        click.echo(line)
    sys.exit(0 if report.passed else 1)
