"""``sneferu play --bench``: how fast games run, and what the arbiter itself costs per move.

Three measurements:

1. the games with the given engines: turns per second, and how much of the time the engines
   used (their answer times as the arbiter measured them);
2. the same games again, each seat played by an *instant* engine that answers every
   ``go`` with the next move of that seat's recorded turns (no rules, no search): the time
   per turn is the arbiter's own work plus one pipe round trip, and the arbiter's CPU time
   per turn is its own work alone;
3. the floor: a pipe round trip (``isready`` / ``readyok``) with the instant engine.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ..notation.picture import plural
from ..record.model import GameRecord, Turn
from ..rules.edition import Edition
from .engine import Engine, automatic_options
from .game import TimeControl, play_game

__all__ = ["bench_report"]

# An engine that needs nothing but its list of moves: it answers each go with the next one.
INSTANT = """\
import sys
moves = open(sys.argv[1]).read().splitlines()[::-1]
out = sys.stdout
for line in sys.stdin:
    word = line.split(" ", 1)[0].strip()
    if word == "go":
        out.write("move " + moves.pop() + "\\n")
    elif word == "isready":
        out.write("readyok\\n")
    elif word == "sneferu":
        out.write("id name instant\\nsneferuok\\n")
    elif word == "quit":
        break
    else:
        continue
    out.flush()
"""

ROUND_TRIPS = 2000


def bench_report(argvs: Sequence[Sequence[str]], *, games: int, seed: int,
                 builders: str | None, edition: Edition,
                 time_control: TimeControl) -> str:
    """Run the three measurements and describe them in a few lines."""
    engines = Engine.start_all([Engine(a, label=str(i)) for i, a in enumerate(argvs, 1)])
    try:
        failed = [e for e in engines if e.fault is not None]
        if failed:
            return f"{failed[0].name}: {failed[0].fault}"
        names = ", ".join(e.name for e in engines)
        records, wall = _play(engines, games, seed, builders, edition, time_control)
    finally:
        Engine.quit_all(engines)
    turns = sum(_turns(r) for r in records)
    engine_ms = sum(e.ms or 0 for r in records for e in r.events if isinstance(e, Turn))
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
            path.write_text("".join(f"{e.move}\n" for r in records for e in r.events
                                    if isinstance(e, Turn) and e.seat == seat))
            files.append(path)
        instant = Engine.start_all([Engine([sys.executable, "-S", "-c", INSTANT, str(f)],
                                           name="instant", label=str(i))
                                    for i, f in enumerate(files, 1)])
        try:
            cpu = time.process_time()
            replay, wall2 = _play(instant, games, seed, builders, edition, time_control)
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
              "instant engines minus one round trip)"]
    if turns2 != turns:
        lines.append(f"  warning: the replay played {turns2} turns, not {turns}")
    return "\n".join(lines)


def _play(engines: Sequence[Engine], games: int, seed: int, builders: str | None,
          edition: Edition, tc: TimeControl) -> tuple[list[GameRecord], float]:
    records = []
    wall = 0.0
    for g in range(games):
        for seat, e in enumerate(engines, start=1):
            for name, value in automatic_options(e, seed=seed + g, seat=seat,
                                                 edition_file=None).items():
                e.set_option(name, value)
        start = time.perf_counter()
        records.append(play_game(engines, seed=seed + g, time_control=tc, builders=builders,
                                 edition=edition))
        wall += time.perf_counter() - start
        for e in engines:
            if e.fault is not None:
                e.restart()
    return records, wall


def _turns(record: GameRecord) -> int:
    return sum(1 for e in record.events if isinstance(e, Turn))


def _round_trip(engine: Engine) -> float:
    """Median microseconds for isready -> readyok."""
    times = []
    for _ in range(ROUND_TRIPS):
        start = time.perf_counter()
        engine.ping()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6
