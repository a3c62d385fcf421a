"""``sneferu tournament``: run a tournament (or the demo), resume one, report on one."""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click
import msgspec

from ..arbiter.game import DEFAULT_CLOCK
from ..arbiter.process import open_logs
from ..arbiter.remote import parse_listen
from ..game import DEFAULT_GAME
from ..record.jsonl import read_any
from ..record.model import GameRecord
from ..record.text import RecordError, decode_records
from ..tournament.config import (
    RUN_SETTINGS,
    ConfigError,
    TournamentConfig,
    check_live,
    load_config,
)
from ..tournament.fit import PROVISIONAL, FitError, FitUnavailable
from ..tournament.journal import Journal, StateError
from ..tournament.live import LiveBoard
from ..tournament.progress import Progress, describe_sprt
from ..tournament.runner import Logs, RunError, TournamentRun, probe_engines
from ..tournament.schedule import Schedule
from ..tournament.standings import (
    GameResult,
    compute_standings,
    format_standings,
    to_csv,
    to_json,
    with_fit,
)
from ..words import plural
from .options import (
    SETUP_FLAG,
    builders_option,
    edition_option,
    remote_listener,
    variant_option,
)

if TYPE_CHECKING:  # imported when a cluster is used
    from ..tournament.cluster import Cluster

DEMO_GAMES = 36


class TournamentError(click.ClickException):
    """A configuration, state or record file that cannot be used: one line, exit code 2."""

    exit_code = 2


def _anchor(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
            ) -> dict[str, float]:
    """The ``--anchor NAME=RATING`` options as name → rating."""
    out: dict[str, float] = {}
    for text in values:
        name, eq, number = text.rpartition("=")
        try:
            rating = float(number)
        except ValueError:
            rating = math.nan
        if not eq or not name or not math.isfinite(rating):
            raise click.BadParameter(f"{text!r}: expected NAME=RATING, RATING a number",
                                     ctx, param)
        if name in out:
            raise click.BadParameter(f"{name!r} is anchored twice", ctx, param)
        out[name] = rating
    return out


@click.command("report", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False),
                metavar="RECORDS...")
@click.option("--json", "as_json", is_flag=True, help="The standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="The standings table as CSV.")
@click.option("--fit", "fit", is_flag=True,
              help="Add the batch rating fit of all games at once (needs numpy and scipy).")
@click.option("--anchor", "anchors", multiple=True, callback=_anchor, metavar="NAME=RATING",
              help="Hold an engine's fitted rating at RATING (repeatable; implies --fit).")
@click.option("--config", "config", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Take the anchors of a tournament file's engines "
                                   "(their key anchor; --anchor wins; implies --fit).")
@click.option("--provisional", type=click.IntRange(min=0), default=PROVISIONAL,
              show_default=True, metavar="N", help="A fitted rating of fewer games is provisional.")
def report(files: tuple[str, ...], as_json: bool, as_csv: bool, fit: bool,
           anchors: dict[str, float], config: str | None, provisional: int) -> None:
    """The standings of the games in record files RECORDS (text or JSON Lines), read one
    after the other."""
    if as_json and as_csv:
        raise click.UsageError("give --json or --csv, not both")
    if config is not None:
        try:
            anchors = {**load_config(config).anchors(), **anchors}
        except ConfigError as e:
            raise TournamentError(str(e)) from None
        fit = True
    records, cut_off = read_records(files)
    games = [GameResult.of(r) for r in records]
    st = compute_standings(games)
    if fit or anchors:
        try:
            st = with_fit(st, games, anchors, provisional)
        except (FitError, FitUnavailable) as e:
            raise TournamentError(str(e)) from None
    click.echo(to_json(st) if as_json else to_csv(st) if as_csv else format_standings(st),
               nl=False)
    if cut_off:
        click.echo(f"({cut_off} game cut off while being written left out)", err=True)


def read_records(files: Sequence[str]) -> tuple[list[GameRecord], int]:
    """The finished games of record files (text or JSON Lines, their headers only), one
    file after the other, and how many games cut off while being written were left out;
    a file that cannot be read is a :class:`TournamentError`."""
    games: list[GameRecord] = []
    cut_off = 0
    for file in files:
        try:
            rf = read_any(decode_records(Path(file).read_bytes(), file), file,
                          headers_only=True)
        except OSError as e:
            raise TournamentError(f"{file}: cannot read: {e.strerror}") from None
        except RecordError as e:
            raise TournamentError(str(e)) from None
        games += [g.record for g in rf.games]
        cut_off += len(rf.cut_off)
    return games, cut_off


class _WithReport(click.Command):
    """``sneferu tournament report ...`` is the report command; anything else the run."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args[:1] == ["report"]:
            ctx.meta["sneferu.report"] = args[1:]
            return []
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        if "sneferu.report" in ctx.meta:
            name = f"{ctx.command_path} report"  # without the run's [CONFIG] in usage lines
            with report.make_context(name, ctx.meta["sneferu.report"]) as sub:
                return report.invoke(sub)
        return super().invoke(ctx)


@click.command(cls=_WithReport, epilog="sneferu tournament report RECORDS... [--json|--csv] "
               "[--fit]: the standings of record files again.")
@click.argument("config", required=False, type=click.Path(dir_okay=False))
@click.option("--engine", "engine", multiple=True, metavar="'name=N command=CMD ...'",
              help="An engine (repeatable; replaces the file's engines): shell-like words "
                   "name=, command= (a program and its arguments, or a bundled engine's "
                   "name), dir=, tc= or movetime= (time odds), 'budget=iterations N' (a "
                   "search budget), 'sandbox=LEVEL ...' (its own sandbox), check=true "
                   "(sneferu engine check first), option.NAME=VALUE.")
@click.option("--sandbox", default=None, metavar="'LEVEL [KEY=VALUE...]'",
              help="Run every engine without its own sandbox in this one: none, limits, "
                   "bwrap or cgroup, then limits such as memory=256M pids=64 cpu=600 "
                   "(SPEC.md 7.10).")
@click.option("--event", default=None, metavar="TEXT", help="The records' event tag.")
@click.option("--seats", type=int, default=None, metavar="1-4",
              help="Seats at a table (default 2; 1 = solo against Ptah).")
@click.option("--format", "format_", default=None, metavar="round-robin|gauntlet",
              help="How tables are formed (default round-robin).")
@click.option("--challenger", default=None, metavar="NAME",
              help="The gauntlet's challenger (default: the first engine).")
@click.option("--tables", default=None, metavar="'A,B,C;D,A,B'",
              help="The tables instead of the format's: each its engines' names separated "
                   "by commas, tables separated by semicolons.")
@click.option("--deals", type=int, default=None, metavar="N",
              help="Deals played at every table, in every seating (default 10).")
@click.option("--seed", type=int, default=None, metavar="N",
              help="The tournament seed (default: a random one, kept in the state).")
@click.option("--seating", default=None, metavar="rotate|permute",
              help="The seatings of a table (default rotate).")
@click.option("--game", default=None, metavar="NAME",
              help=f"The game played (default {DEFAULT_GAME}; TOML key game).")
@builders_option
@variant_option
@edition_option
@click.option("--time-control", "--tc", "time_control", default=None, metavar="SECONDS+INC",
              help=f"Game clock per seat, as sneferu play --tc (default {DEFAULT_CLOCK}).")
@click.option("--movetime", type=int, default=None, metavar="MS",
              help="Fixed time per move in milliseconds, instead of a clock.")
@click.option("--positions", default=None, metavar="FILE",
              help="Start positions, one a line (position notation; # comments): deal d "
                   "starts from the d-th, in turn, in every seating.")
@click.option("--margin", type=int, default=None, metavar="MS",
              help="Time an engine may exceed its limit by before a timeout (default 100).")
@click.option("--handshake-timeout", type=float, default=None, metavar="SECONDS",
              help="Time for the handshake and for each readyok (default 10).")
@click.option("--sprt-elo0", type=float, default=None, metavar="ELO",
              help="SPRT: H0, the first engine's Elo advantage (with --sprt-elo1).")
@click.option("--sprt-elo1", type=float, default=None, metavar="ELO", help="SPRT: H1.")
@click.option("--sprt-alpha", type=float, default=None, metavar="P",
              help="SPRT: the false positive rate (default 0.05).")
@click.option("--sprt-beta", type=float, default=None, metavar="P",
              help="SPRT: the false negative rate (default 0.05).")
@click.option("--sprt-model", default=None, metavar="normalized|logistic",
              help="SPRT: the Elo model (default normalized).")
@click.option("--records", default=None, metavar="FILE",
              help="The record file (default tournament.records).")
@click.option("--state", default=None, metavar="FILE",
              help="The state file (default: the record file's name + .state).")
@click.option("--concurrency", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Games played at once (default: the number of cores).")
@click.option("--cluster", default=None, metavar="tcp://HOST:PORT|local:N",
              help="Play the games on the workers of a Dask scheduler, or on N worker "
                   "processes started here (needs: pip install \"sneferu[dask]\").")
@click.option("--fsync", type=click.Choice(["game", "second"]), default=None,
              help="When finished games are made durable against a power loss: after every "
                   "game, or at most once a second (default; a killed run loses nothing).")
@click.option("--listen", default=None, metavar="[HOST:]PORT",
              help="Where engines with a token connect from elsewhere, over WebSocket or "
                   "TCP lines (HOST default 127.0.0.1; PORT 0: any free port, said).")
@click.option("--latency", type=int, default=None, metavar="MS",
              help="Added to the margin of a remote engine's turns (default 50).")
@click.option("--connect-timeout", type=float, default=None, metavar="SECONDS",
              help="How long a remote engine's seat waits for it to connect (default 60).")
@click.option("--live", default=None, metavar="[HOST:]PORT",
              help="Serve a live page of the games being played, the clocks and the "
                   "standings at http://HOST:PORT/ (HOST default 127.0.0.1; PORT 0: any "
                   "free port, said).")
@click.option("--live-delay", type=click.IntRange(min=0), default=None, metavar="N",
              help="The live page shows each game's moves N moves behind (default 0).")
@click.option("--resume", is_flag=True,
              help="Continue the tournament of the state file (--state, else RECORDS.state); "
                   "a CONFIG or game flags, when given, must define the same games.")
@click.option("--log", "log_path", default=None, metavar="FILE",
              help="Write the protocol traffic of every game to FILE, each line labelled "
                   "GAME:SEAT (appended to on --resume).")
@click.option("--engine-stderr", default=None, metavar="DIR|FILE",
              help="Keep the engines' stderr: NAME.log for each engine in DIR, or all in "
                   "FILE; each line labelled [GAME:SEAT].")
@click.option("--json", "json_path", default=None, metavar="FILE",
              help="At the end, write the standings to FILE as JSON.")
@click.option("--csv", "csv_path", default=None, metavar="FILE",
              help="At the end, write the standings table to FILE as CSV.")
def tournament(config: str | None, resume: bool, json_path: str | None,
               csv_path: str | None, log_path: str | None, engine_stderr: str | None,
               **fields: Any) -> None:
    """Run a tournament between engines: CONFIG is a TOML file (SPEC.md section 9); every
    key is also a flag, and flags win. Without any argument: a demo between the bundled
    engines.

    \b
    sneferu tournament                                the demo
    sneferu tournament cup.toml                       the tournament of cup.toml
    sneferu tournament cup.toml --resume              go on after a stop
    sneferu tournament --engine 'name=a command=./a' --engine 'name=b command=./b' \\
        --movetime 100 --deals 50 --sprt-elo0 0 --sprt-elo1 10
    """
    flags = _flags(fields)
    given = {k for k, v in flags.items() if v is not None}
    demo = not resume and config is None and not given - {"concurrency", "cluster"}
    logs = _logs(log_path, engine_stderr, resume)
    with contextlib.ExitStack() as stack:
        try:
            if resume:
                game_flags = {k.replace("_", "-") for k in given} - set(RUN_SETTINGS)
                cfg = load_config(config, flags) if config or game_flags else None
                if cfg is not None:
                    state = cfg.state_path
                else:
                    records = flags["records"] or TournamentConfig().records
                    state = flags["state"] or f"{records}.state"
                journal = Journal.resume(state, cfg)
                stack.enter_context(journal)
                journal.fsync = flags["fsync"] or journal.fsync
                cfg = journal.config
                listening = {k: flags[k] for k in ("listen", "latency", "connect_timeout",
                                                   "live", "live_delay")
                             if flags[k] is not None}
                if listening:  # run settings: the flags win over the state's
                    cfg = journal.state.config = msgspec.structs.replace(cfg, **listening)
                where = flags["cluster"] or cfg.cluster
                # a finished tournament's resume starts no engine and no cluster
                done = journal.state.games >= len(Schedule.of(cfg).games)
                if not done:
                    logs = _listen(cfg, flags["listen"] or cfg.listen, stack, logs)
                cluster = None if done else probe(cfg, where, stack, logs)
            else:
                cfg = _demo_config(flags) if demo else load_config(config, flags)
                where = cfg.cluster
                logs = _listen(cfg, cfg.listen, stack, logs)
                cluster = probe(cfg, where, stack, logs)
                journal = stack.enter_context(Journal.start(cfg))
            # engines that connect from elsewhere come one session per game at once
            cores = 1 if journal.config.remote() else os.cpu_count() or 1
            board = _live(journal.config, cluster, stack)
            run = TournamentRun(journal, flags["concurrency"] or journal.config.concurrency
                                or cores, cluster, logs,
                                None if board is None else board.post)
        except (ConfigError, StateError) as e:
            raise TournamentError(str(e)) from None
        except (RecordError, ValueError) as e:
            raise TournamentError(f"{journal.records_path}: {e}") from None
        _play(run, json_path, csv_path, demo, board)


def _live(cfg: TournamentConfig, cluster: Cluster | None, stack: contextlib.ExitStack
          ) -> LiveBoard | None:
    """The live page (SPEC.md 9.13), served for as long as ``stack``; None without
    ``live``."""
    if cfg.live is None:
        return None
    if cluster is not None:
        raise ConfigError("live: not with a cluster (its workers report only finished "
                          "games)")
    try:
        check_live(cfg)  # again: a resume's flags are not checked with the configuration
        host, port = parse_listen(cfg.live)
        board = LiveBoard(host, port, title=cfg.event, game=cfg.game, delay=cfg.live_delay)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    stack.enter_context(board)
    where = board.address
    click.echo(f"sneferu: the live page is at http://{where[0]}:{where[1]}/", err=True)
    return board


def _logs(log_path: str | None, stderr_path: str | None, resume: bool) -> Logs:
    """The run's logs, checked: the traffic log is emptied (appended to on resume); the
    stderr path is a folder or a file (appended to). A file that cannot be written is a
    usage error, before any game."""
    try:
        with open_logs(log_path, stderr_path, append=resume):
            pass
    except OSError as e:
        raise TournamentError(f"{e.filename or '?'}: cannot write the log: {e.strerror}"
                              ) from None
    return Logs(log_path, stderr_path)


def _listen(cfg: TournamentConfig, listen: str | None, stack: contextlib.ExitStack,
            logs: Logs) -> Logs:
    """Start listening for the engines that connect from elsewhere (none: nothing), for
    as long as ``stack``; the logs with the listener's broker."""
    tokens = cfg.remote()
    if not tokens:
        return logs
    if listen is None:
        raise ConfigError("listen: engines with a token connect from elsewhere: give the "
                          "address to listen on (--listen HOST:PORT)")
    try:
        listener = remote_listener(listen, tokens, cfg.handshake_timeout)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    stack.enter_context(listener)
    return msgspec.structs.replace(logs, broker=listener.broker)


def probe(cfg: TournamentConfig, where: str | None, stack: contextlib.ExitStack,
           logs: Logs) -> Cluster | None:
    """Start every engine once before the games, here or on every worker of the cluster
    ``where`` (then connected, and closed with ``stack``): a missing program or an option
    an engine refuses is an error now; here, an engine that fails its handshake is said
    (on a cluster it is an error, naming the worker). The logs are kept here only."""
    if where is None:
        for note in probe_engines(cfg, logs.broker):
            click.echo(f"sneferu: {note}", err=True)
        return None
    if logs.traffic is not None or logs.stderr is not None:
        raise ConfigError("--log and --engine-stderr are not for a cluster (its workers "
                          "may run on other machines)")
    from ..tournament.cluster import Cluster

    cluster = stack.enter_context(Cluster(where))
    if cluster.lost:
        n = int(where.removeprefix("local:"))
        click.echo(f"sneferu: {where}: {cluster.lost} of {n} worker processes died at "
                   f"start-up; playing on {n - cluster.lost}", err=True)
    cluster.check(cfg)
    return cluster


def _flags(fields: dict[str, Any]) -> dict[str, Any]:
    """The click values as load_config's flags (TOML keys; None: not given)."""
    keys = {"format_": "format", "edition_path": "edition", "setup": SETUP_FLAG}
    flags = {keys.get(k, k): v for k, v in fields.items()}
    flags["engine"] = list(flags["engine"]) or None
    if flags.get("tables") is not None:
        flags["tables"] = [[n.strip() for n in t.split(",")]
                           for t in flags["tables"].split(";") if t.strip()]
    return flags


def _demo_config(flags: dict[str, Any]) -> TournamentConfig:
    """The demo: the bundled engines (js-random when node is on the PATH), 2 seats, about
    three dozen games, records in a new temporary folder."""
    names = ["random", "greedy"]
    if shutil.which("node"):
        names.append("js-random")
    else:
        click.echo("(js-random left out of the demo: 'node' is not on the PATH)")
    folder = tempfile.mkdtemp(prefix="sneferu-demo-")
    return load_config(None, {
        **flags, "engine": [f"name={n} command={n}" for n in names], "event": "sneferu demo",
        "deals": DEMO_GAMES // (len(names) * (len(names) - 1)), "seed": 1,
        "time-control": "10+0.1", "records": os.path.join(folder, "demo.records")})


def _at_once(run: TournamentRun) -> str:
    """How many games are played at once, and where."""
    if run.cluster is not None:
        n = len(run.cluster.workers)
        return (f"{run.concurrency} at once on {n} worker{'s' if n != 1 else ''} of "
                f"{run.cluster.where}")
    return f"{min(run.concurrency, max(1, len(run.todo)))} at once"


def _play(run: TournamentRun, json_path: str | None, csv_path: str | None,
          demo: bool = False, board: LiveBoard | None = None) -> None:
    cfg = run.config
    engines = ", ".join(e.name for e in cfg.engines)
    how = "solo" if cfg.seats == 1 else f"{cfg.format} at {cfg.seats} seats"
    click.echo(f"{cfg.event}: {engines}; {how}, {plural(cfg.deals, 'deal')}: "
               f"{plural(run.total, 'game')} "
               f"({run.finished} played, {len(run.todo)} to play); seed {cfg.seed}; "
               f"{cfg.timing()}; {_at_once(run)}.")
    click.echo(f"records: {run.journal.records_path}  (state: {run.journal.state_path})")
    if cfg.positions is not None and (count := len(cfg.start_positions())) < cfg.deals:
        click.echo(f"positions: {plural(count, 'position')} in {cfg.positions} for "
                   f"{plural(cfg.deals, 'deal')}: deal d starts from position "
                   f"((d - 1) mod {count}) + 1, from the first again after the last")
    if run.journal.recovered:
        click.echo(f"({plural(run.journal.recovered, 'byte')} of a game cut off by the stop "
                   "removed; it is played again)")
    progress = Progress(sys.stdout, live=sys.stdout.isatty())
    update = progress.update
    if board is not None:
        shown = board

        def update(run: TournamentRun, record: GameRecord | None) -> None:
            if record is not None:
                shown.standings(run.standings(), run.finished, run.total)
            progress.update(run, record)

        board.standings(run.standings(), run.finished, run.total)
    try:
        with stop_on_signals(run):
            reason = run.run(update)
    except (RunError, StateError, OSError) as e:  # the record or state file failed
        progress.close()
        raise click.ClickException(str(e)) from None
    except ConfigError as e:
        progress.close()
        raise TournamentError(str(e)) from None
    progress.close()
    st = run.standings()
    click.echo(format_standings(st), nl=False)
    if run.sprt is not None:
        click.echo(describe_sprt(run.sprt))
    for path, text in ((json_path, to_json), (csv_path, to_csv)):
        if path is not None:
            try:
                Path(path).write_text(text(st), encoding="utf-8")
            except OSError as e:
                raise click.FileError(path, e.strerror) from None
    state = run.journal.state_path
    if reason == "interrupted":
        click.echo(f"Stopped after {run.finished} of {plural(run.total, 'game')}; to go on: "
                   f"sneferu tournament --resume --state {state}", err=True)
        sys.exit(130)
    if reason == "sprt":
        click.echo(f"The SPRT is decided: {run.finished} of {plural(run.total, 'game')} played.")
    if demo:
        click.echo(f"Step through a game: sneferu replay {run.journal.records_path} --game 1 "
                   "--html game.html")
    click.echo(f"records: {run.journal.records_path}")


@contextlib.contextmanager
def stop_on_signals(run: TournamentRun) -> Iterator[None]:
    """The first Ctrl-C: no new game starts, the games being played are finished and
    recorded. SIGTERM, SIGHUP (the terminal closed) or another Ctrl-C: stop the run now
    (the engines are killed, the files stay whole); one more interrupts at once."""
    def stop(signum: int, frame: FrameType | None) -> None:
        if run.stop.is_set():
            raise KeyboardInterrupt
        if signum == signal.SIGINT and not run.finish.is_set():
            run.finish.set()
            return
        run.stop.set()
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM,
                                                      signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
