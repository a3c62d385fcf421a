"""``sneferu ladder``: a rating list kept across tournaments and record files."""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
import msgspec

from ..tournament.config import ConfigError, load_config
from ..tournament.fit import FIT_MODEL, PROVISIONAL, Fit, FitError, FitUnavailable
from ..tournament.journal import Journal, StateError
from ..tournament.ladder import (
    HistoryRow,
    Ladder,
    LadderError,
    Pool,
    open_ladder,
    ranked,
    shown,
)
from ..tournament.ladder_run import DEFAULT_GAMES, Goal, LadderRun
from ..tournament.matchmaking import ANCHOR_SHARE
from ..tournament.runner import Logs, TournamentRun
from ..tournament.standings import GameResult
from ..words import plural
from .tournament import TournamentError, probe, read_records, stop_on_signals

DEFAULT_DB = "ladder.sqlite"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", default=None, metavar="FILE|URL",
              help=f"The ladder: a SQLite file (made when it does not exist) or a "
                   f"postgresql:// URL (default: $SNEFERU_LADDER, else {DEFAULT_DB} in the "
                   "current folder).")
@click.option("--provisional", type=click.IntRange(min=0), default=PROVISIONAL,
              help=f"Fewer games than this and a rating is provisional (default {PROVISIONAL}).")
@click.pass_context
def ladder(ctx: click.Context, db: str | None, provisional: int) -> None:
    """A rating list that lasts: every game added once, a batch fit per game and number
    of seats (SPEC 9.12)."""
    ctx.obj = (db or os.environ.get("SNEFERU_LADDER") or DEFAULT_DB, provisional)


@contextmanager
def _opened(ctx: click.Context) -> Iterator[Ladder]:
    path, provisional = ctx.obj
    try:
        with open_ladder(path, provisional=provisional) as lad:
            yield lad
    except (LadderError, FitError, FitUnavailable) as e:
        raise TournamentError(str(e)) from None


@ladder.command("add")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False),
                metavar="RECORDS...")
@click.pass_context
def add(ctx: click.Context, files: tuple[str, ...]) -> None:
    """Add the finished games of record files (text or JSON Lines); a game the ladder
    holds already counts once."""
    records, cut_off = read_records(files)
    games = [(GameResult.of(r), msgspec.msgpack.encode(r.header)) for r in records]
    with _opened(ctx) as lad:
        done = lad.add(games, " ".join(files))
    click.echo(f"added {plural(done.added, 'game')}"
               f" ({done.known} already in the ladder, {done.left_out} left out)"
               + (f"; refitted {', '.join(map(str, done.pools))}" if done.pools else ""))
    if cut_off:
        click.echo(f"({plural(cut_off, 'game')} cut off while being written left out)",
                   err=True)


@ladder.command("show")
@click.option("--game", default=None, metavar="NAME", help="Only this game's pools.")
@click.option("--seats", type=int, default=None, metavar="N", help="Only pools of N seats.")
@click.option("--json", "as_json", is_flag=True, help="The ratings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="The ratings as CSV.")
@click.pass_context
def show(ctx: click.Context, game: str | None, seats: int | None, as_json: bool,
         as_csv: bool) -> None:
    """The rating list of each pool (a game at a number of seats), best first."""
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    with _opened(ctx) as lad:
        fits = [(p, lad.fit(p)) for p in lad.pools()
                if (game is None or p.game == game) and (seats is None or p.players == seats)]
    if as_json:
        click.echo(msgspec.json.encode({"model": FIT_MODEL, "pools": [
            {"game": p.game, "players": p.players, "games": f.games, "anchors": f.anchors,
             "provisional": f.provisional,
             "engines": [_row_json(row) for row in ranked(f)]} for p, f in fits]}).decode())
        return
    if as_csv:
        _echo_csv(["game", "players", "place", "engine", "rating", "ci", "games",
                   "provisional", "anchored"],
                  [[p.game, p.players, place, name, f"{rating:.1f}", _ci(ci), n, int(prov),
                    int(anch)]
                   for p, f in fits for place, name, rating, ci, n, prov, anch in ranked(f)])
        return
    if not fits:
        click.echo("no games in the ladder" + ("" if game is None and seats is None
                                                else " for that game and seat count"))
    for k, (p, f) in enumerate(fits):
        click.echo(("\n" if k else "") + _table(p, f), nl=False)


@ladder.command("history")
@click.argument("engine")
@click.option("--json", "as_json", is_flag=True, help="The history as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="The history as CSV.")
@click.pass_context
def history(ctx: click.Context, engine: str, as_json: bool, as_csv: bool) -> None:
    """ENGINE's rating after each addition that refitted a pool it plays in."""
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    with _opened(ctx) as lad:
        rows = lad.history(engine)
    if not rows and not (as_json or as_csv):
        raise TournamentError(f"no engine {engine!r} in the ladder")
    if as_json:
        click.echo(msgspec.json.encode([_history_json(r) for r in rows]).decode())
        return
    if as_csv:
        _echo_csv(["addition", "source", "game", "players", "rating", "ci", "games",
                   "provisional", "anchored"],
                  [[r.addition, r.source, r.pool.game, r.pool.players, f"{r.rating:.1f}",
                    _ci(r.ci), r.games, int(r.provisional), int(r.anchored)] for r in rows])
        return
    for r in rows:
        click.echo(f"{r.addition:>5}  {r.pool}  {r.rating:7.1f} {_pm(r.ci):>8}  "
                   f"{plural(r.games, 'game')}{' (provisional)' if r.provisional else ''}"
                   f"{' (anchor)' if r.anchored else ''}  {r.source}")


@ladder.command("run")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--engine", "engine", multiple=True, metavar="'name=N command=CMD ...'",
              help="An engine, as for 'sneferu tournament' (replaces the file's engines).")
@click.option("--folder", default=None, metavar="DIR",
              help="Where the rounds' records and states go (default: the configuration's "
                   "records path + '.rounds').")
@click.option("--games", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"Stop once every engine has N games in the pool (default {DEFAULT_GAMES} "
                   "when neither --width nor --rounds is given).")
@click.option("--width", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="ELO", help="Stop once every engine's 95%% interval is ± ELO or less.")
@click.option("--rounds", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after N rounds in the folder.")
@click.option("--anchor-share", type=click.FloatRange(0, 1), default=ANCHOR_SHARE,
              metavar="P", help=f"The share of tables given an anchor (default {ANCHOR_SHARE}).")
@click.option("--concurrency", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Games played at once (default: the configuration's, else the cores).")
@click.option("--cluster", default=None, metavar="tcp://HOST:PORT|local:N",
              help="Play on a Dask cluster, as 'sneferu tournament --cluster'.")
@click.pass_context
def run(ctx: click.Context, config: str, engine: tuple[str, ...], folder: str | None,
        games: int | None, width: float | None, rounds: int | None, anchor_share: float,
        concurrency: int | None, cluster: str | None) -> None:
    """Rounds of games between the engines of CONFIG (a tournament file: its game,
    seats, time control...), each round's tables picked from the ladder's ratings, until
    a goal is reached; run it again to go on after a stop."""
    if games is None and width is None and rounds is None:
        games = DEFAULT_GAMES
    try:
        base = load_config(config, {"engine": list(engine) or None, "cluster": cluster})
    except ConfigError as e:
        raise TournamentError(str(e)) from None
    where = Path(folder or f"{base.records}.rounds")
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TournamentError(f"{where}: cannot make the folder: {e.strerror}") from None
    with _opened(ctx) as lad, contextlib.ExitStack() as stack:
        runs = LadderRun(lad, base, where, Goal(games, width, rounds),
                         anchor_share=anchor_share)
        click.echo(f"ladder run: {plural(len(runs.engines), 'engine')}, {runs.pool}; "
                   f"rounds in {where}; ladder {shown(ctx.obj[0])}")
        try:
            remote = probe(runs.base, runs.base.cluster, stack, Logs())
        except ConfigError as e:
            raise TournamentError(str(e)) from None
        while (goal := runs.reached()) is None:
            step = runs.next_round()
            try:
                journal = (Journal.resume(step.state) if step.config is None
                           else Journal.start(step.config))
            except (ConfigError, StateError) as e:
                raise TournamentError(str(e)) from None
            with journal:
                try:
                    play = TournamentRun(journal, concurrency or base.concurrency
                                         or os.cpu_count() or 1, remote)
                except ValueError as e:
                    raise TournamentError(f"{journal.records_path}: {e}") from None
                with stop_on_signals(play):
                    reason = play.run(None)
            if reason == "interrupted":
                click.echo(f"Stopped in round {step.number}; to go on, run the same command "
                           "again.", err=True)
                sys.exit(130)
            runs.add(step.number)
            tables = {tuple(sorted(g.seats)) for g in play.schedule.games}
            click.echo(f"round {step.number}: {plural(len(tables), 'table')}, "
                       f"{plural(play.total, 'game')}"
                       f"{' (resumed)' if step.config is None else ''}")
        click.echo(f"done: {goal}")
        click.echo(_table(runs.pool, lad.fit(runs.pool)), nl=False)


@ladder.command("anchor")
@click.argument("setting", metavar="NAME=RATING|NAME")
@click.option("--game", required=True, metavar="NAME", help="The pool's game.")
@click.option("--seats", required=True, type=click.IntRange(2, 4), metavar="N",
              help="The pool's number of seats.")
@click.option("--remove", is_flag=True, help="Let NAME's rating be fitted again.")
@click.pass_context
def anchor(ctx: click.Context, setting: str, game: str, seats: int, remove: bool) -> None:
    """Hold an engine's rating in one pool (the others are placed against it)."""
    name, sep, value = setting.partition("=")
    rating: float | None = None
    if remove:
        if sep:
            raise click.UsageError("--remove takes NAME, not NAME=RATING")
    else:
        try:
            rating = float(value) if sep and name else math.nan
        except ValueError:
            rating = math.nan
        if not math.isfinite(rating):
            raise click.UsageError(f"{setting!r}: expected NAME=RATING with a finite number")
    with _opened(ctx) as lad:
        lad.set_anchor(Pool(game, seats), name, rating)
    click.echo(f"{name} in {Pool(game, seats)}: " + ("fitted" if rating is None
                                                     else f"held at {rating:g}"))


def _echo_csv(header: list[str], rows: list[list[object]]) -> None:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    click.echo(out.getvalue(), nl=False)


def _ci(ci: float) -> str:
    return f"{ci:.1f}" if math.isfinite(ci) else ""


def _pm(ci: float) -> str:
    return f"± {ci:.1f}" if math.isfinite(ci) else "± ?"


def _row_json(row: tuple[int, str, float, float, int, bool, bool]) -> dict[str, object]:
    place, name, rating, ci, games, prov, anch = row
    return {"place": place, "name": name, "rating": rating,
            "ci": ci if math.isfinite(ci) else None, "games": games, "provisional": prov,
            "anchored": anch}


def _history_json(r: HistoryRow) -> dict[str, object]:
    return {"addition": r.addition, "source": r.source, "game": r.pool.game,
            "players": r.pool.players, "rating": r.rating,
            "ci": r.ci if math.isfinite(r.ci) else None, "games": r.games,
            "provisional": r.provisional, "anchored": r.anchored}


def _table(pool: Pool, fit: Fit) -> str:
    """One pool's ratings as a table."""
    anchors = ", ".join(f"{n} {r:g}" for n, r in sorted(fit.anchors.items()))
    lines = [f"{pool}: {plural(fit.games, 'game')}; "
             + (f"anchored: {anchors}" if anchors else "mean of the settled engines 0")]
    rows = ranked(fit)
    width = max([6] + [len(r[1]) for r in rows])
    lines.append(f"{'#':>3}  {'engine':<{width}}  {'rating':>7}  {'95%':>8}  {'games':>6}")
    for place, name, rating, ci, games, prov, anch in rows:
        mark = " anchor" if anch else " provisional" if prov else ""
        lines.append(f"{place:>3}  {name:<{width}}  {rating:7.1f}  {_pm(ci):>8}  "
                     f"{games:>6}{mark}")
    return "\n".join(lines) + "\n"


__all__ = ["ladder"]
