"""``sneferu connect``: a local engine played at an arbiter elsewhere (SPEC.md 6.7)."""

from __future__ import annotations

import sys
import threading

import click

from ..arbiter.bundled import BUNDLED, check_program, engine_command
from ..arbiter.connect import run_sessions, split_url


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("url")
@click.option("--token", required=True, metavar="TOKEN",
              help="The engine's token, as the tournament file gives it.")
@click.option("--sessions", type=click.IntRange(1, 64), default=1, show_default=True,
              metavar="N", help="Connections at once (one per game the arbiter plays at "
                                "once with this engine: its -j).")
@click.option("--wait", type=click.FloatRange(min=0), default=30.0, show_default=True,
              metavar="SECONDS", help="How long to try to reach the arbiter at first.")
@click.option("--once", is_flag=True, help="One session only (no reconnecting).")
@click.argument("command", nargs=-1, required=True)
def connect(url: str, token: str, sessions: int, wait: float, once: bool,
            command: tuple[str, ...]) -> None:
    """Play the engine COMMAND (a program and its arguments, or a bundled engine's name)
    at the arbiter listening at URL (ws://HOST:PORT or tcp://HOST:PORT), which runs it as
    if it ran here.

    \b
    sneferu connect ws://arbiter.example:9000 --token s3cret -- ./my_bot --fast

    Each session is one connection and one run of COMMAND; when it ends (the arbiter
    closes it after quit or a fault) the next starts, until the arbiter cannot be reached
    (exit 0) or refuses the token (exit 1).
    """
    try:
        split_url(url)
        if len(command) == 1 and command[0] in BUNDLED:
            argv = engine_command(command[0])
        else:
            argv = list(command)
            check_program(argv, what="engine")
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    codes: list[int] = []

    def log(line: str) -> None:
        click.echo(f"sneferu connect: {line}", err=True)

    def one() -> None:
        try:
            codes.append(run_sessions(url, token, argv, wait=wait, once=once, log=log))
        except (OSError, ValueError) as e:  # the engine cannot be started, ...
            log(str(e))
            codes.append(1)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sys.exit(max(codes, default=1))
