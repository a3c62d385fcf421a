"""``sneferu serve``: the arbiter as a rules oracle on stdin/stdout (SPEC.md, section 10)."""

from __future__ import annotations

import sys

import click

from ..arbiter.remote import parse_listen
from ..serve import MAX_ANALYSE_MS, MAX_FILE, MAX_GAMES, MAX_LINE, FileAccess
from ..serve import serve as serve_stream
from ..serve.server import serve_websocket


@click.command()
@click.option("--json", "json_mode", is_flag=True,
              help="Read and write one JSON object a line instead of GTP-style text.")
@click.option("--max-games", type=click.IntRange(1), default=MAX_GAMES, show_default=True,
              help="How many games may be open at once.")
@click.option("--max-line", type=click.IntRange(64), default=MAX_LINE, show_default=True,
              metavar="BYTES", help="The longest request line served.")
@click.option("--files", type=click.Path(exists=True, file_okay=False), default=None,
              metavar="DIR", help="Let verify, load-record and edition= read regular files "
                                  "inside DIR (default: no file at all).")
@click.option("--max-file", type=click.IntRange(1), default=MAX_FILE, show_default=True,
              metavar="BYTES", help="The largest file read.")
@click.option("--max-analyse-ms", type=click.IntRange(1), default=MAX_ANALYSE_MS,
              show_default=True, metavar="MS",
              help="The longest an analyse request may search.")
@click.option("--listen", default=None, metavar="[HOST:]PORT",
              help="Serve WebSocket connections on HOST:PORT instead of stdin (HOST default "
                   "127.0.0.1; PORT 0: any free port): one session per connection.")
def serve(json_mode: bool, max_games: int, max_line: int, files: str | None,
          max_file: int, max_analyse_ms: int, listen: str | None) -> None:
    """Serve the games' rules to another program, one request a line on stdin/stdout.

    Any registered game: 'new game=NAME' (sneferu, the default, imhotep, silver-gold,
    akropolis). Requests open games (new, load, load-record), list what is legal (moves,
    steps, outcomes), act (play, step, chance, undo), look (position, state, show, turn,
    ranking), search for the best moves (analyse) and check records (verify); 'commands'
    lists them all, 'help' gives their syntax ('help G': how game G's moves are written)
    and 'quit' stops the server. Files (records, editions) are read only inside the folder
    given with --files. With --listen, each WebSocket connection is a session of its own
    (requests and replies one message each). See SPEC.md, section 10.
    """
    if listen is not None:
        try:
            host, port = parse_listen(listen)
        except ValueError as e:
            raise click.BadParameter(str(e).removeprefix("listen: "),
                                     param_hint="--listen") from None
        try:
            serve_websocket(host, port, json_mode=json_mode, max_games=max_games,
                            max_line=max_line, files=FileAccess(files, max_file),
                            max_analyse_ms=max_analyse_ms,
                            ready=lambda url: click.echo(f"sneferu serve: listening on {url}",
                                                         err=True))
        except OSError as e:
            raise click.ClickException(f"--listen {listen}: cannot listen: "
                                       f"{e.strerror or e}") from None
        return
    serve_stream(sys.stdin.buffer, sys.stdout.buffer, json_mode=json_mode,
                 max_games=max_games, max_line=max_line,
                 files=FileAccess(files, max_file), max_analyse_ms=max_analyse_ms)
