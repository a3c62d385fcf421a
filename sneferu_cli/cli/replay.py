"""``sneferu replay``: verify recorded games, show a position, convert, write a web page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..game import UnknownGame, get_game
from ..record.html import game_page
from ..record.jsonl import read_any, records_to_json
from ..record.replay import ReplayError, describe_due, edition_for, position_at, verify
from ..record.text import GameEntry, RecordError, RecordFile, decode_records, format_records
from ..words import plural
from .options import edition_option, load_for


@click.command()
@click.argument("file", metavar="FILE",
                type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--game", "-g", "number", type=click.IntRange(1), default=None, metavar="N",
              help="Only game N of the file (1 = the first).")
@click.option("--ply", type=int, default=None, metavar="K",
              help="Print the position at ply K of the game (K turns played with the draws "
                   "after them; negative counts from the end, -1 = the final position).")
@click.option("--show", is_flag=True,
              help="Print a readable picture of the position (at --ply, else the final one).")
@click.option("--json", "as_json", is_flag=True, help="Convert the games to JSON Lines.")
@click.option("--text", "as_text", is_flag=True, help="Convert the games to the text format.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              metavar="OUT.html", help="Write a web page that steps through the game.")
@edition_option
@click.pass_context
def replay(ctx: click.Context, file: str, number: int | None, ply: int | None, show: bool,
           as_json: bool, as_text: bool, html_path: str | None,
           edition_path: str | None) -> None:
    """Replay and verify the games of a record FILE ('-' reads standard input).

    Without options, every game is replayed against the rules and its header's result;
    one line per game. A game stopped before its end ([Termination aborted]) is reported
    as aborted; its moves are verified as any game's. Exit code 1 when a game does not
    verify or was cut off while being written, 2 when the file is malformed. The text
    format and JSON Lines are both read.
    """
    modes = [m for m, on in (("--json", as_json), ("--text", as_text),
                             ("--html", html_path is not None),
                             ("--ply/--show", ply is not None or show)) if on]
    if len(modes) > 1:
        raise click.UsageError(f"{' and '.join(modes)} cannot be combined")
    editions = _Editions(edition_path)
    try:
        rf = read_any(_read(file), "<stdin>" if file == "-" else file)
        entries = [g for g in rf.games if number is None or g.number == number]
        cut = [e for e in rf.cut_off if number is None or e.game == number]
        if number is not None and not entries and not cut:
            raise click.UsageError(f"{rf.source} holds {len(rf.games) + len(rf.cut_off)} "
                                   f"game(s), there is no game {number}")
        for e in cut:
            click.echo(f"sneferu: {e}", err=True)
        if as_json or as_text:
            for entry in entries:  # verify first: only games that replay are converted
                verify(entry, _edition(entry, editions, rf.source), rf.source)
            records = [g.record for g in entries]
            click.echo(records_to_json(records) if as_json else format_records(records),
                       nl=False)
        elif modes:
            if cut and not entries:
                ctx.exit(1)  # the only game there is was cut off: said above
            entry = _one(rf, entries, number)
            edition = _edition(entry, editions, rf.source)
            if html_path is not None:
                page = game_page(entry, edition, rf.source)
                try:
                    Path(html_path).write_text(page, encoding="utf-8")
                except OSError as e:
                    raise click.FileError(html_path, e.strerror) from None
                click.echo(f"wrote {html_path}")
            else:
                try:
                    state = position_at(entry, -1 if ply is None else ply, edition, rf.source)
                except RecordError:
                    raise
                except ValueError as e:
                    raise click.UsageError(str(e)) from None
                game = get_game(entry.record.header.game)
                click.echo(game.picture(state) if show else game.to_position(state))
        else:
            if not rf.games and not rf.cut_off:
                click.echo(f"{rf.source}: no games")
            failed = _verify_all(entries, editions, rf)
            if failed:
                ctx.exit(1)
    except ReplayError as e:
        click.echo(f"sneferu: {e}", err=True)
        ctx.exit(1)
    except RecordError as e:
        click.echo(f"sneferu: {e}", err=True)
        ctx.exit(2)
    if cut:
        ctx.exit(1)


def _read(file: str) -> str:
    """The file's text; bytes that are not UTF-8 are an error unless they end the file
    (a character cut off with its game)."""
    source = "<stdin>" if file == "-" else file
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as e:
        raise click.FileError(file, e.strerror) from None
    return decode_records(data, source)


def _one(rf: RecordFile, entries: list[GameEntry], number: int | None) -> GameEntry:
    if not entries:
        raise RecordError("no finished game to show", rf.source, number)
    if len(entries) > 1:
        raise click.UsageError(f"{rf.source} holds {len(entries)} games: choose one with "
                               "--game N")
    return entries[0]


class _Editions:
    """``--edition FILE``, read as the edition of each game a record file holds (once a game:
    a file of another game's edition is one EditionError line)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.by_game: dict[str, list[Any]] = {}

    def of(self, game: str) -> list[Any]:
        if self.path is None:
            return []
        if game not in self.by_game:
            self.by_game[game] = [load_for(get_game(game), self.path)]
        return self.by_game[game]


def _edition(entry: GameEntry, editions: _Editions, source: str) -> Any:
    header = entry.record.header
    try:
        edition: Any = edition_for(header, editions.of(header.game))
        return edition
    except ValueError as e:  # the edition is not loaded, or the game is unknown
        tag = "game" if isinstance(e, UnknownGame) else "edition"
        raise ReplayError(str(e), source, entry.number,
                          entry.tag_lines.get(tag, entry.line) or None) from None


def _verify_all(entries: list[GameEntry], editions: _Editions, rf: RecordFile) -> int:
    """Verify each game, one line each (failures on stderr); the number that failed."""
    failed = 0
    for entry in entries:
        try:
            v = verify(entry, _edition(entry, editions, rf.source), rf.source)
        except ReplayError as e:
            click.echo(f"sneferu: {e}", err=True)
            failed += 1
            continue
        h = entry.record.header
        names = ", ".join(_shown(s.name) + (f" [{_shown(s.tc)}]" if s.tc is not None else "")
                          for s in h.seats)
        who = f" ({names})" if names else ""
        if v.state.is_over():
            done = f"verified, {plural(v.turns, 'turn')}"
        else:
            stopped = "aborted" if h.termination == "aborted" else "not finished"
            done = f"{stopped} after {plural(v.turns, 'turn')}, its moves verified"
        due = describe_due(get_game(h.game), v.state)
        click.echo(f"game {entry.number}{who}: {done}. {due}")
    return failed


def _shown(text: str) -> str:
    """Header text as printed: as it is, or quoted when it holds control characters."""
    return text if text.isprintable() else json.dumps(text)
