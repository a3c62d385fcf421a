"""``sneferu play``: one game between engines (and humans at the terminal)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import click

from ..arbiter.agent import Agent
from ..arbiter.bundled import BUNDLED, engine_command
from ..arbiter.engine import (
    Engine,
    OptionSetting,
    refuse_other_games,
    refuse_unbudgeted,
    seat_options,
)
from ..arbiter.game import (
    DEFAULT_CLOCK,
    GameInterrupted,
    OnEvent,
    TimeControl,
    describe_result,
    play_game,
)
from ..arbiter.human import Human
from ..arbiter.process import StderrSink, TrafficLog, adopt_orphans, open_logs
from ..arbiter.remote import LATENCY, RemoteSeat
from ..game import Game
from ..record.model import Event, GameRecord, Retire, Simultaneous, Turn
from ..record.text import append_record
from .options import (
    builders_option,
    edition_option,
    game_option,
    load_for,
    remote_listener,
    sandbox_of,
    start_game,
    variant_option,
)


@click.command()
@click.argument("engines", nargs=-1, metavar="[ENGINE]...")
@click.option("--human", "humans", type=click.IntRange(1, 4), multiple=True, metavar="SEAT",
              help="A person at this terminal plays SEAT (repeatable); the engines take the "
                   "other seats in argument order.")
@click.option("--seed", type=int, default=None,
              help="Seed for the chance draws and the engines' Seed option (default: random; "
                   "it is printed).")
@game_option
@builders_option
@variant_option
@edition_option
@click.option("--movetime", type=click.IntRange(min=1), default=None, metavar="MS",
              help="Fixed time per move in milliseconds.")
@click.option("--tc", default=None, metavar="SECONDS+INC",
              help=f"Game clock per seat with an increment per move (default {DEFAULT_CLOCK}).")
@click.option("--iterations", type=click.IntRange(min=1, max=999_999_999), default=None,
              metavar="N", help="A fixed search budget per move for every engine (go ... "
                                "iterations N; the engines must declare 'feature iterations'); "
                                "the time stays a safety net (default movetime 60000).")
@click.option("--margin", type=click.IntRange(min=0), default=100, show_default=True,
              metavar="MS", help="Time an engine may exceed its limit by before a timeout.")
@click.option("--handshake-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, metavar="SECONDS",
              help="Time for the handshake (sneferuok) and for each readyok.")
@click.option("--option", "-o", "options", multiple=True, metavar="[SEAT:]NAME=VALUE",
              help="Set an engine option (repeatable); without SEAT, for every engine that "
                   "declares it.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Append the game's record to FILE.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Write the protocol traffic, with times and seats, to FILE.")
@click.option("--engine-stderr", type=click.Path(), default=None, metavar="DIR|FILE",
              help="Write the engines' stderr to one file each (SEAT-NAME.log) in DIR, an "
                   "existing folder or one written DIR/ (created), or all to FILE "
                   "(default: dropped; the last line is quoted if an engine crashes).")
@click.option("--sandbox", "sandbox_text", default=None, metavar="'LEVEL [KEY=VALUE...]'",
              help="Run every engine in a sandbox: none (default), limits, bwrap or cgroup, "
                   "then limits such as memory=256M pids=64 cpu=600 (SPEC.md 7.10).")
@click.option("--listen", default=None, metavar="[HOST:]PORT",
              help="Where the engines given as remote:TOKEN connect from elsewhere, over "
                   "WebSocket or TCP lines (HOST default 127.0.0.1; PORT 0: any free port).")
@click.option("--latency", type=click.IntRange(0, 60_000), default=LATENCY, show_default=True,
              metavar="MS", help="Added to the margin of a remote engine's turns.")
@click.option("--connect-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, metavar="SECONDS",
              help="How long a remote engine's seat waits for it to connect.")
@click.option("--verbose", "-v", is_flag=True, help="Print every turn as it is played.")
@click.option("--bench", type=click.IntRange(min=1), default=None, metavar="GAMES",
              help="Measure speed instead: play GAMES games, then replay them with engines "
                   "that answer instantly, and report turns per second and the arbiter's "
                   "overhead per move.")
def play(engines: tuple[str, ...], humans: tuple[int, ...], seed: int | None, game: Game,
         setup: str | None, variant: str | None, edition_path: str | None,
         movetime: int | None, tc: str | None, iterations: int | None,
         margin: int, handshake_timeout: float, options: tuple[str, ...],
         record_path: str | None, log_path: str | None, engine_stderr: str | None,
          sandbox_text: str | None, listen: str | None, latency: int,
          connect_timeout: float, verbose: bool, bench: int | None) -> None:
    """Play one game: ENGINE is a bundled engine (random, greedy, mcts, js-random, policy)
    or a command line given as one argument ("python3 my_bot.py --fast"; split like a
    shell, run without one). As many seats as the game allows (--game; Sneferu: one to
    four, one seat being the solo game against Ptah; the others: two to four).

    \b
    sneferu play random greedy                 seat 1 random, seat 2 greedy
    sneferu play greedy --human 1              you (seat 1) against greedy (seat 2)
    sneferu play --human 1                     you alone against Ptah
    sneferu play random random --movetime 200 --record games.txt
    sneferu play random js-random --game imhotep
    sneferu play random random --game imhotep --variant BBBBB
    sneferu play random --human 1 --game imhotep
    sneferu play mcts --human 2 --game silver-gold
    sneferu play random greedy --game akropolis --variant HMBTGa
    sneferu play random remote:s3cret --listen 9000   seat 2 connects (SPEC.md 6.7)
    """
    n = len(engines) + len(humans)
    if not 1 <= n <= 4:
        raise click.UsageError(f"{n} seats: give 1 to 4 engines and --human seats")
    if len(set(humans)) != len(humans) or any(h > n for h in humans):
        raise click.BadParameter(f"seats are 1 to {n}, each once", param_hint="--human")
    try:
        control = TimeControl.with_budget(None if iterations is None else
                                          f"iterations {iterations}", tc, movetime, margin)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--tc/--movetime") from None
    edition = load_for(game, edition_path)
    start_game(game, n, setup, variant, edition)  # the checks of seats, set-up, variant
    try:
        argvs = [[] if e.startswith(REMOTE) else engine_command(e) for e in engines]
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    tokens = {e.removeprefix(REMOTE): i for i, e in enumerate(engines) if e.startswith(REMOTE)}
    if tokens and listen is None:
        raise click.UsageError("an engine remote:TOKEN connects from elsewhere: give --listen "
                               "[HOST:]PORT")
    if len(tokens) < sum(e.startswith(REMOTE) for e in engines):
        raise click.UsageError("two remote engines have the same token")
    if listen is not None and not tokens:
        raise click.BadParameter("no engine connects from elsewhere (remote:TOKEN)",
                                 param_hint="--listen")
    settings = [_option(o, n) for o in options]
    sandbox = sandbox_of(sandbox_text)
    if record_path is not None:
        _check_writable(record_path)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if bench is not None:
        from ..arbiter.bench import bench_report
        if tokens:
            raise click.UsageError("--bench plays engines started here, not remote:TOKEN")
        if humans:
            raise click.UsageError("--bench plays engines only, not --human")
        if sandbox.active:
            raise click.UsageError("--bench measures engines outside a sandbox, not with "
                                   "--sandbox")
        try:
            click.echo(bench_report(argvs, games=bench, seed=seed, setup=setup,
                                    edition=edition, time_control=control, game=game,
                                    variant=variant, settings=settings,
                                    edition_file=edition_path))
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        return

    adopt_orphans()  # what an engine leaves behind is killed with the engines
    with _files(log_path, engine_stderr) as (traffic, sink), _terminate_on_sigterm(), \
            _listening(listen, tokens, handshake_timeout) as broker:
        handles: list[Engine] = []
        agents: list[Agent] = []
        argv_iter = iter(zip(engines, argvs, strict=True))
        for seat in range(1, n + 1):
            if seat in humans:
                agents.append(Human())
                continue
            spec, argv = next(argv_iter)
            remote = (RemoteSeat(broker, tokens[spec.removeprefix(REMOTE)], connect_timeout)
                      if broker is not None and spec.startswith(REMOTE) else None)
            engine = Engine(argv, name=spec if spec in BUNDLED else None, label=str(seat),
                            traffic=traffic, stderr=sink, handshake_timeout=handshake_timeout,
                            sandbox=sandbox if remote is None else None,
                            remote=remote, latency=latency if remote is not None else 0)
            handles.append(engine)
            agents.append(engine)
        live = False  # the "is thinking" line is on the terminal
        try:
            Engine.start_all(handles)
            try:
                refuse_other_games(handles, game.name)
                refuse_unbudgeted(handles, control.iterations)
            except ValueError as e:
                raise click.UsageError(str(e)) from None
            failed = [(seat, a) for seat, a in enumerate(agents, start=1)
                      if isinstance(a, Engine) and a.fault is not None]
            _set_options(agents, settings, seed, edition_path)
            names = ", ".join(f"seat {i} {a.name}" for i, a in enumerate(agents, start=1))
            click.echo(f"Game: {names}; seed {seed}; {control}.")
            show = verbose or bool(humans)
            live = not show and sys.stdout.isatty()
            record = play_game(agents, seed=seed, time_control=control, setup=setup,
                               edition=edition, game=game, variant=variant,
                               on_event=_printer(agents) if show else
                               _thinking(agents) if live else None)
            if live:
                click.echo("\r\x1b[K", nl=False)
            with _signals_held():
                _save(record_path, record)
        except KeyboardInterrupt as stop:
            with _signals_held():
                for handle in handles:
                    handle.kill()
                if isinstance(stop, GameInterrupted):
                    _save(record_path, stop.record)
                    # A human's prompt may be waiting at the end of the line.
                    click.echo(("\n" if humans or live else "") + describe_result(stop.record)
                               + (f" The game so far is in {record_path}." if record_path
                                  else ""))
            raise
        finally:
            with _signals_held():
                Engine.quit_all(handles)
    click.echo(describe_result(record))
    if failed:  # the game was played without them: most likely a command that is wrong
        for seat, agent in failed:
            detail = agent.fault.detail if agent.fault is not None else "?"
            click.echo(f"sneferu: seat {seat} {agent.name} failed its handshake: {detail}",
                       err=True)
        click.get_current_context().exit(HANDSHAKE_FAILED)


REMOTE = "remote:"
"""An engine argument ``remote:TOKEN``: the engine connects from elsewhere (SPEC.md 6.7)."""


@contextlib.contextmanager
def _listening(listen: str | None, tokens: dict[str, int], hello_timeout: float
               ) -> Iterator[str | None]:
    """The listener for the remote engines while the game is played (its broker's path);
    None without ``listen``."""
    if listen is None:
        yield None
        return
    try:
        listener = remote_listener(listen, tokens, hello_timeout)
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("listen: "),
                                 param_hint="--listen") from None
    with listener:
        yield listener.broker


HANDSHAKE_FAILED = 3
"""The exit code of a game in which an engine failed its handshake (it played no turn)."""


def _check_writable(path: str) -> None:
    """Fail before the game, not after it, when the record file cannot be written."""
    p = Path(path)
    folder = p.parent
    if not folder.is_dir():
        raise click.BadParameter(f"{path!r}: there is no folder {str(folder)!r}",
                                 param_hint="--record")
    if not os.access(p if p.exists() else folder, os.W_OK):
        raise click.BadParameter(f"{path!r} cannot be written", param_hint="--record")


def _save(path: str | None, record: GameRecord) -> None:
    """Append the game to the record file ``path`` (if given)."""
    if path is not None:
        try:
            append_record(path, record)
        except OSError as e:
            raise click.FileError(path, e.strerror) from None


def _option(text: str, seats: int) -> OptionSetting:
    """``[SEAT:]NAME=VALUE`` as (seat or None, name, value)."""
    where, colon, rest = text.partition(":")
    seat = None
    if colon and where.isdigit():
        seat, text = int(where), rest
        if not 1 <= seat <= seats:
            raise click.BadParameter(f"{text!r}: seat {seat} (1 to {seats})",
                                     param_hint="--option")
    name, eq, value = text.partition("=")
    if not eq or not name:
        raise click.BadParameter(f"{text!r} is not [SEAT:]NAME=VALUE", param_hint="--option")
    return seat, name, value


def _set_options(agents: list[Agent], settings: list[OptionSetting], seed: int,
                 edition_path: str | None) -> None:
    engines = [a for a in agents if isinstance(a, Engine) and a.fault is None]
    for only, name, value in settings:
        if only is None and engines and not any(name in e.options for e in engines):
            names = ", ".join(sorted({e.name for e in engines}))
            raise click.BadParameter(f"{name}={value}: no engine declares an option {name!r} "
                                     f"({names})", param_hint="--option")
    for seat, agent in enumerate(agents, start=1):
        if not isinstance(agent, Engine) or agent.fault is not None:
            continue
        values = seat_options(agent, seat, settings, seed=seed, edition_file=edition_path)
        for name, text in values.items():
            try:
                agent.set_option(name, text)
            except ValueError as e:
                raise click.BadParameter(f"seat {seat}: {e}", param_hint="--option") from None


def _printer(agents: list[Agent]) -> OnEvent:
    turns = 0

    def show(event: Event, state: object) -> None:
        nonlocal turns
        if isinstance(event, Turn):
            turns += 1
            who = agents[event.seat - 1].name
            click.echo(f"turn {turns:3}  seat {event.seat} {who}: {event.move}  ({event.ms} ms)")
        elif isinstance(event, Simultaneous):
            turns += 1
            click.echo(f"turn {turns:3}  " + "  ".join(
                f"seat {t.seat} {agents[t.seat - 1].name}: {t.move} ({t.ms} ms)"
                for t in event.turns))
        elif isinstance(event, Retire):
            click.echo(f"seat {event.seat} {agents[event.seat - 1].name} is retired: "
                       f"{event.kind}")
    return show


def _thinking(agents: list[Agent]) -> OnEvent:
    """On a terminal, without ``-v``: one line, rewritten in place, saying who is thinking
    (a searching engine may take seconds a move; the game is not stuck)."""
    turns = 0

    def show(event: Event, state: Any) -> None:
        nonlocal turns
        turns += isinstance(event, Turn)
        if state.is_over() or state.is_chance_node():
            return
        seat = state.current_seat()
        click.echo(f"\r\x1b[Kturn {turns + 1}: seat {seat + 1} {agents[seat].name} is "
                   "thinking...", nl=False)
    return show


@contextlib.contextmanager
def _files(log_path: str | None, stderr_path: str | None) -> Iterator[
        tuple[TrafficLog | None, StderrSink | None]]:
    """The logs of open_logs; a file that cannot be opened is a usage error."""
    with contextlib.ExitStack() as stack:
        try:
            logs = stack.enter_context(open_logs(log_path, stderr_path))
        except OSError as e:
            raise click.FileError(e.filename or "?", e.strerror) from None
        yield logs


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done: stopping the engines and writing
    the record are not cut short. A signal that came meanwhile is a KeyboardInterrupt
    afterwards (unless the block raised)."""
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    # Handlers, not a signal mask: a signal blocked in this thread could still be taken by
    # another one (the engines' stderr readers), and Python runs its handler here anyway.
    previous = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _terminate_on_sigterm() -> Iterator[None]:
    """SIGTERM stops the game like Ctrl-C: the engines are killed on the way out."""
    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
