"""How fast games run, and what the arbiter itself costs per move, against the pipe's floor.

:func:`speed_report` is ``sneferu bench``'s part about engines, for any game: the floor (a
line written to ``cat`` and read back), the time per move of four engines that answer
instantly from the listed legal moves (``engines/instant.c``, built with the C compiler
found, else ``engines/instant.py``), and of four engines that follow the rules themselves
(the bundled ``random``), all through the real game loop and real processes, each as a
multiple of the floor.

:func:`bench_report` is ``sneferu play --bench``, with three measurements:

1. the games with the given engines: turns per second, and how much of the time the engines
   used (their answer times as the arbiter measured them);
2. the same games again, each seat played by an *instant* engine that answers every
   ``go`` with the next move of that seat's recorded turns (no rules, no search), and that
   declares ``feature legalmoves`` when the seat's engine did (so the arbiter lists the
   legal moves exactly as in the games): the time per turn is the arbiter's own work plus
   one pipe round trip, and the arbiter's CPU time per turn is its own work alone;
3. the floor: a pipe round trip (``isready`` / ``readyok``) with the instant engine.

:func:`simultaneous_report` is ``sneferu bench``'s part for a game with simultaneous nodes:
the wall time per simultaneous step with the seats' engines asked at once against one
after the other, with engines that answer at once and with engines that take a fixed time
to answer (they sleep; ``SLEEPER``).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bench import INTERFACE_GAMES, Figure, core_build_of
from ..game import Game, get_game, unnamed
from ..record.model import Event, GameRecord, Simultaneous, seat_turns, turn_count
from ..words import plural
from .bundled import engine_command, engines_dir
from .engine import (
    Engine,
    OptionSetting,
    refuse_other_games,
    refuse_unbudgeted,
    seat_options,
)
from .game import TimeControl, play_game

__all__ = [
    "MOVETIME",
    "SimultaneousFigure",
    "SpeedFigure",
    "bench_report",
    "has_simultaneous_nodes",
    "instant_engine",
    "pipe_round_trip",
    "simultaneous_figures",
    "simultaneous_report",
    "speed_figures",
    "speed_report",
    "time_engines",
    "time_moves",
]

# An engine that needs nothing but its list of moves: it answers each go with the next one;
# it plays the game argv[2] and declares the features argv[3:], those of the engine whose
# moves it replays, so that the arbiter sends it the same lines ("legalmoves": it asks for
# the legal moves, and ignores them; "iterations": it takes a search budget, and ignores it).
INSTANT = """\
import sys
moves = open(sys.argv[1]).read().splitlines()[::-1]
feature = "".join("feature " + f + "\\n" for f in sys.argv[3:])
feature += "feature games " + sys.argv[2] + "\\n"
out = sys.stdout
for line in sys.stdin:
    word = line.split(" ", 1)[0].strip()
    if word == "go":
        out.write("move " + moves.pop() + "\\n")
    elif word == "isready":
        out.write("readyok\\n")
    elif word == "sneferu":
        out.write("id name instant\\n" + feature + "sneferuok\\n")
    elif word == "quit":
        break
    else:
        continue
    out.flush()
"""

ROUND_TRIPS = 2000

# An engine for any game (argv[1]) that takes a fixed time: it answers each go, after
# sleeping argv[2] ms, with the first of the legal moves the arbiter lists.
SLEEPER = """\
import sys, time
think = int(sys.argv[2]) / 1000
out = sys.stdout
for line in sys.stdin:
    word = line.split(" ", 1)[0].strip()
    if word == "go":
        time.sleep(think)
        out.write("move " + line.rstrip("\\n").split(" legalmoves ", 1)[1].split(" ; ")[0]
                  + "\\n")
    elif word == "isready":
        out.write("readyok\\n")
    elif word == "sneferu":
        out.write("id name sleeper\\nfeature legalmoves\\nfeature games " + sys.argv[1]
                  + "\\nsneferuok\\n")
    elif word == "quit":
        break
    else:
        continue
    out.flush()
"""

THINK = (0, 20)
"""The times (ms) the engines of :func:`simultaneous_report` take to answer."""


def bench_report(argvs: Sequence[Sequence[str]], *, games: int, seed: int,
                 setup: str | None, edition: Any, time_control: TimeControl,
                 game: Game | None = None, variant: str | None = None,
                 settings: Sequence[OptionSetting] = (),
                 edition_file: str | None = None) -> str:
    """Run the three measurements with ``game`` (Sneferu when None) in ``variant`` (its
    first when None), the engines given the options ``settings`` (``sneferu play
    --option``) as in a game, and describe them in a few lines. ValueError when an engine
    does not play the game."""
    game = game or get_game()
    engines = Engine.start_all([Engine(a, label=str(i)) for i, a in enumerate(argvs, 1)])
    try:
        failed = [e for e in engines if e.fault is not None]
        if failed:
            return f"{failed[0].name}: {failed[0].fault}"
        refuse_other_games(engines, game.name)
        refuse_unbudgeted(engines, time_control.iterations)
        names = ", ".join(e.name for e in engines)
        records, wall = _play(engines, games, seed, setup, edition, time_control, game,
                              variant, settings, edition_file)
    finally:
        Engine.quit_all(engines)
    turns = sum(_turns(r) for r in records)
    listed = sum("legalmoves" in e.features for e in engines)
    engine_ms = sum(t.ms or 0 for r in records for e in r.events for t in seat_turns(e))
    faults = sum(len(r.header.faults) for r in records)
    lines = [f"{plural(len(engines), 'engine')} ({names}), {plural(games, 'game')} from seed "
             f"{seed}, {time_control}:",
             f"  played:  {turns} turns in {wall:.2f} s = {turns / wall:.0f} turns/s "
             f"(engines' answers {engine_ms / 1000:.2f} s, "
             f"{engine_ms / max(turns, 1):.1f} ms per turn)"
             + (f"; {plural(faults, 'fault')}" if faults else "")]
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for seat in range(1, len(engines) + 1):
            path = Path(tmp) / f"seat{seat}.txt"
            path.write_text("".join(f"{t.move}\n" for r in records for e in r.events
                                    for t in seat_turns(e) if t.seat == seat))
            files.append(path)
        instant = Engine.start_all([
            Engine([sys.executable, "-S", "-c", INSTANT, str(f), game.name]
                   + [f for f in ("legalmoves", "iterations") if f in e.features],
                   name="instant", label=str(i))
            for i, (f, e) in enumerate(zip(files, engines, strict=True), 1)])
        try:
            cpu = time.process_time()
            replay, wall2 = _play(instant, games, seed, setup, edition, time_control,
                                  game, variant)
            cpu = time.process_time() - cpu
            rtt = _round_trip(instant[0])
        finally:
            Engine.quit_all(instant)
    turns2 = sum(_turns(r) for r in replay)
    per_turn = wall2 / max(turns2, 1) * 1e6
    lines += [f"  instant engines replaying them: {turns2} turns in {wall2:.3f} s = "
              f"{per_turn:.0f} µs per turn; arbiter CPU {cpu / max(turns2, 1) * 1e6:.0f} µs "
              "per turn",
              f"  pipe round trip (isready/readyok, median of {ROUND_TRIPS}): {rtt:.0f} µs",
              f"  arbiter overhead per move: {per_turn - rtt:.0f} µs (time per turn with "
              f"instant engines minus one round trip; legal moves listed for {listed} of "
              f"{len(engines)} seats, as in the games)"]
    if turns2 != turns:
        lines.append(f"  warning: the replay played {turns2} turns, not {turns}")
    return "\n".join(lines)


def _play(engines: Sequence[Engine], games: int, seed: int, setup: str | None,
          edition: Any, tc: TimeControl, game: Game, variant: str | None = None,
          settings: Sequence[OptionSetting] = (),
          edition_file: str | None = None) -> tuple[list[GameRecord], float]:
    records = []
    wall = 0.0
    for g in range(games):
        for seat, e in enumerate(engines, start=1):
            for name, value in seat_options(e, seat, settings, seed=seed + g,
                                            edition_file=edition_file).items():
                e.set_option(name, value)
        start = time.perf_counter()
        records.append(play_game(engines, seed=seed + g, time_control=tc, setup=setup,
                                 edition=edition, game=game, variant=variant))
        wall += time.perf_counter() - start
        for e in engines:
            if e.fault is not None:
                e.restart()
    return records, wall


def _turns(record: GameRecord) -> int:
    return turn_count(record.events)


def _round_trip(engine: Engine) -> float:
    """Median microseconds for isready -> readyok."""
    times = []
    for _ in range(ROUND_TRIPS):
        start = time.perf_counter()
        engine.ping()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


# ------------------------------------------------------------------ sneferu bench


def pipe_round_trip(count: int = ROUND_TRIPS, *, file_objects: bool = False) -> float:
    """The floor: median microseconds to write a line to ``cat`` and read it back, with
    ``os.write`` / ``os.read`` on the pipes and nothing else, or with ``file_objects``
    through Python's file objects (``write``, ``flush``, ``readline``), the way a simple
    Python program talks to a process."""
    return statistics.median(pipe_round_trips(count, file_objects=file_objects))


def pipe_round_trips(count: int = ROUND_TRIPS, *, file_objects: bool = False) -> list[float]:
    """Each of ``count`` round trips of :func:`pipe_round_trip`, in microseconds."""
    cat = shutil.which("cat")
    if cat is None:
        raise OSError("no 'cat' on the PATH to measure a pipe round trip with")
    proc = subprocess.Popen([cat], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            bufsize=-1 if file_objects else 0)
    assert proc.stdin is not None and proc.stdout is not None
    to, back = proc.stdin.fileno(), proc.stdout.fileno()
    line = b"isready\n"
    times = []
    try:
        for _ in range(count):
            start = time.perf_counter()
            if file_objects:
                proc.stdin.write(line)
                proc.stdin.flush()
                proc.stdout.readline()
            else:
                os.write(to, line)
                got = os.read(back, 64)
                while not got.endswith(b"\n"):
                    got += os.read(back, 64)
            times.append(time.perf_counter() - start)
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    return [t * 1e6 for t in times]


def spread(samples: Sequence[float]) -> str:
    """The 10th and 90th percentiles of ``samples`` (microseconds), as a reader comparing
    two runs needs them beside a median."""
    tenths = statistics.quantiles(samples, n=10)
    return f"{tenths[0]:,.1f} to {tenths[-1]:,.1f} µs"


def pure_warning(game: Game, players: int, edition: Any) -> list[str]:
    """A line saying the figures are the pure Python build's, when they are."""
    if core_build_of(game.new_game(players, edition=edition)) != "pure Python":
        return []
    return ["the rules core is pure Python here: a move costs the arbiter 2 to 4 times the "
            "compiled build's (pip install . compiles it where a C compiler and the Python "
            "headers are)"]


def machine_line() -> str:
    """What a figure depends on besides the code and the load: the CPU and the cores this
    process may run on."""
    model = "CPU model unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = os.cpu_count() or 1
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pinned = (f"pinned to CPU {','.join(map(str, allowed))}"
              if allowed and len(allowed) < cores else "not pinned")
    return f"machine: {model}, {cores} cores, {pinned}"


def instant_engine(folder: Path) -> tuple[list[str], str]:
    """The instant legal-move engine's argv, and which one it is: ``engines/instant.c``
    built into ``folder`` with the C compiler found (``cc``, ``gcc`` or ``clang``), else
    ``engines/instant.py``."""
    source = engines_dir() / "instant.c"
    for name in ("cc", "gcc", "clang"):
        compiler = shutil.which(name)
        if compiler is None:
            continue
        binary = folder / "instant"
        built = subprocess.run([compiler, "-O2", "-o", str(binary), str(source)],
                               capture_output=True, check=False)
        if built.returncode == 0:
            return [str(binary)], f"engines/instant.c built with {name}"
    return ([sys.executable, str(engines_dir() / "instant.py")],
            "engines/instant.py (no C compiler found)")


MOVETIME = 60_000
"""The bench's movetime (ms). Its engines answer at once: the time only keeps a machine
that stalls an engine for a moment from retiring it."""


@dataclass(frozen=True)
class SpeedFigure:
    """One figure of ``sneferu bench``: ``count`` things in ``seconds`` (wall clock), and
    for engine games the CPU seconds the arbiter itself used (its process only)."""

    what: str
    count: int
    seconds: float
    cpu: float | None = None
    spread: str | None = None

    @property
    def micros(self) -> float:
        """Microseconds each."""
        return self.seconds / self.count * 1e6 if self.count else float("inf")


def time_moves(argv: Sequence[str], seats: int, games: int, seed: int, setup: str | None,
               edition: Any, game: Game | None = None) -> tuple[int, float, float]:
    """Engine moves, wall seconds and the arbiter's CPU seconds of ``games`` games of
    ``game`` (Sneferu when None) between ``seats`` copies of an engine, through the game
    loop (the engines started once, as a tournament worker does). A move is one seat's
    answer to one ``go``, one pipe round trip: a simultaneous step where four seats answer
    is four moves. OSError when an engine fails to start, does not play the game or is
    retired."""
    return time_engines([Engine(list(argv), label=str(i)) for i in range(1, seats + 1)],
                        games, seed, setup, edition, game)


def time_engines(engines: Sequence[Engine], games: int, seed: int, setup: str | None,
                 edition: Any, game: Game | None = None) -> tuple[int, float, float]:
    """:func:`time_moves` with the given engines, one a seat (started here, then quit):
    pipe engines or engines that connect from elsewhere alike."""
    game = game or get_game()
    Engine.start_all(engines)
    try:
        failed = [e for e in engines if e.fault is not None]
        if failed:
            raise OSError(f"{failed[0].name}: {failed[0].fault}")
        try:
            refuse_other_games(engines, game.name)
        except ValueError as e:
            raise OSError(str(e)) from None
        cpu = time.process_time()
        records, wall = _play(engines, games, seed, setup, edition,
                              TimeControl(movetime=MOVETIME), game)
        cpu = time.process_time() - cpu
    finally:
        Engine.quit_all(engines)
    faults = [f for r in records for f in r.header.faults]
    if faults:  # a retired seat plays no more moves: the figure would mean nothing
        raise OSError(f"{engines[0].name}: seat {faults[0].seat} retired: {faults[0].kind} "
                      f"({faults[0].detail})")
    return sum(len(seat_turns(e)) for r in records for e in r.events), wall, cpu


def speed_figures(rules: Sequence[Figure], players: int, setup: str | None,
                  engine_games: int, seed: int, edition: Any, game: Game | None = None
                  ) -> tuple[list[SpeedFigure], str]:
    """Measure in one run: the floor (raw pipes, then through file objects), a move with
    legal-move engines and with own-rules engines (``players`` seats, ``engine_games``
    games of ``game``, Sneferu when None); then a random game and a legal step (another
    game: a listing of the legal moves) of the rules alone, and a random game through the
    game interface (Sneferu's rules alone play it step by step), from ``rules`` (the figures of
    Sneferu's ``run_bench``, in ``games/sneferu/bench.py``, or of
    :func:`~sneferu_cli.bench.run_game_bench`, measured in the same run). Also says which
    instant engine was used."""
    game = game or get_game()
    trips = pipe_round_trips()
    floor = statistics.median(trips)
    buffered = pipe_round_trip(file_objects=True)
    with tempfile.TemporaryDirectory() as tmp:
        instant, which = instant_engine(Path(tmp))
        listed = time_moves(instant, players, engine_games, seed, setup, edition, game)
    own = time_moves(engine_command("random"), players, engine_games, seed, setup, edition,
                     game)
    measured = {f.what: f for f in rules}
    played = measured["random games"]
    whole = measured.get(INTERFACE_GAMES, played)
    steps = next(f for f in rules if f.row is not None)  # the rules' listing (Figure.row)
    what = steps.row or steps.what
    figures = [SpeedFigure("pipe round trip (Python <-> cat)", ROUND_TRIPS,
                           floor * ROUND_TRIPS / 1e6, spread=spread(trips)),
               SpeedFigure("pipe round trip (file objects)", ROUND_TRIPS,
                           buffered * ROUND_TRIPS / 1e6),
               SpeedFigure("move, legal-move engines (instant)", *listed),
               SpeedFigure("move, own-rules engines (random)", *own),
               SpeedFigure("random game, rules only", played.count, played.seconds),
               SpeedFigure("random game, game interface", whole.count, whole.seconds),
               SpeedFigure(what, steps.count, steps.seconds)]
    return figures, which


def speed_report(rules: Sequence[Figure], players: int, setup: str | None,
                 engine_games: int, seed: int, edition: Any, game: Game | None = None) -> str:
    """:func:`speed_figures` as a table: each figure per second, the time of one, that time
    as a multiple of the floor (the first row), and for a move the arbiter's CPU time (on a
    loaded machine the wall clock waits for the CPU; this does not). Another game than
    Sneferu is named in the first line."""
    figures, which = speed_figures(rules, players, setup, engine_games, seed, edition,
                                   game)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    of = "" if game is None or unnamed(game.name) else f"{game.title}, "
    floor = figures[0]
    lines = [f"engines: {of}{players} seats, {engine_games} games from seed {seed}, "
             f"movetime {MOVETIME}; load average {load:.2f} on {os.cpu_count()} cores",
             machine_line(),
             f"legal-move engine: {which}; own-rules engine: random (Python)",
             f"floor: median {floor.micros:,.1f} µs of {floor.count:,} round trips, "
             f"10th to 90th percentile {floor.spread}",
             *pure_warning(game or get_game(), players, edition),
             f"{'figure':<38}{'per second':>12}{'time each':>14}{'x floor':>10}"
             f"{'arbiter CPU':>14}"]
    for f in figures:
        cpu = "" if f.cpu is None else f"{f.cpu / f.count * 1e6:>11,.1f} µs"
        lines.append(f"{f.what:<38}{1e6 / f.micros:>12,.0f}{f.micros:>11,.1f} µs"
                     f"{f.micros / floor.micros:>10,.1f}{cpu}")
    return "\n".join(lines)


# ------------------------------------------------------------------ simultaneous steps


def has_simultaneous_nodes(game: Game, players: int, seed: int, edition: Any) -> bool:
    """Whether a random game of ``game`` (moves drawn by ``seed``) meets a simultaneous
    node."""
    rng = random.Random(seed)
    state = game.new_game(players, edition=edition)
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        elif game.is_simultaneous(state):
            return True
        else:
            game.apply_move(state, rng.choice(game.legal_moves(state)))
    return False


@dataclass(frozen=True)
class SimultaneousFigure:
    """The simultaneous steps of the same games played twice, the engines taking ``think``
    ms to answer: the wall seconds the steps took with the seats asked at once and one
    after the other."""

    think: int
    steps: int
    at_once: float
    in_turn: float

    @property
    def gain(self) -> float:
        """How many times faster a step is with the seats asked at once."""
        return self.in_turn / self.at_once if self.at_once > 0 else float("inf")


def simultaneous_figures(game: Game, players: int, games: int, seed: int, edition: Any,
                         thinks: Sequence[int] = THINK) -> list[SimultaneousFigure]:
    """For each time in ``thinks``: ``games`` games of ``game`` between ``players``
    :data:`SLEEPER` engines, with the seats of a simultaneous node asked at once, then the
    same games with them asked one after the other. A step's wall time runs from the event
    before it (the arbiter then starts asking) to its turn. OSError when an engine fails."""
    figures = []
    for think in thinks:
        engines = Engine.start_all([
            Engine([sys.executable, "-S", "-c", SLEEPER, game.name, str(think)],
                   name="sleeper", label=str(i)) for i in range(1, players + 1)])
        try:
            failed = [e for e in engines if e.fault is not None]
            if failed:
                raise OSError(f"{failed[0].name}: {failed[0].fault}")
            walls = []
            for at_once in (True, False):
                steps, wall = 0, 0.0
                for g in range(games):
                    last = time.perf_counter()

                    def timed(event: Event, state: Any) -> None:
                        nonlocal last, steps, wall
                        now = time.perf_counter()
                        if isinstance(event, Simultaneous):
                            steps += 1
                            wall += now - last
                        last = now

                    record = play_game(engines, seed=seed + g, edition=edition, game=game,
                                       time_control=TimeControl(movetime=MOVETIME + think),
                                       on_event=timed, at_once=at_once)
                    if record.header.faults:
                        f = record.header.faults[0]
                        raise OSError(f"seat {f.seat} retired: {f.kind} ({f.detail})")
                walls.append(wall)
        finally:
            Engine.quit_all(engines)
        figures.append(SimultaneousFigure(think, steps, *walls))
    return figures


def simultaneous_report(game: Game, players: int, games: int, seed: int, edition: Any,
                        thinks: Sequence[int] = THINK) -> str:
    """:func:`simultaneous_figures` in a few lines: per step, at once and one after the
    other, and the ratio."""
    lines = [f"simultaneous steps: {players} seats, {plural(games, 'game')} from seed {seed}, "
             "engines answering with the first legal move listed after a fixed time:",
             f"{'engines answer after':<24}{'steps':>7}{'at once':>14}{'one by one':>14}"
             f"{'gain':>8}"]
    for f in simultaneous_figures(game, players, games, seed, edition, thinks):
        at_once = f.at_once / max(f.steps, 1) * 1000
        in_turn = f.in_turn / max(f.steps, 1) * 1000
        lines.append(f"{f'{f.think} ms':<24}{f.steps:>7}{at_once:>11.2f} ms{in_turn:>11.2f} ms"
                     f"{f.gain:>7.2f}x")
    return "\n".join(lines)
