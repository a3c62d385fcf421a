"""``sneferu engine check``: does an engine keep to the protocol (SPEC.md 7.11)?

The engine is started in its sandbox; its handshake is read (name, author, options,
features, the games it declares); each option is set to its default and answered by
``readyok``; then it plays one short game of every declared game this arbiter knows, at
each seat count of the game, against the bundled ``random`` engine in the other seats.
A short game starts :data:`DECISIONS_LEFT` decisions per seat before the end of a random
game of the same seed (the last decision state there that is not a simultaneous node; a
new game where there is none), so that an engine plays a few turns of every kind of
position and the game's end (``gameover``) in well under a second per game.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..bench import play_random_moves
from ..game import GAMES, Game, get_game
from .bundled import engine_command
from .engine import Engine, automatic_options
from .game import TimeControl, play_game
from .process import EngineFault, StderrSink
from .sandbox import Sandbox

__all__ = ["DECISIONS_LEFT", "CheckFailure", "CheckReport", "check_engine", "short_start"]

DECISIONS_LEFT = 4
"""A check game starts this many decisions per seat before the end of a random game."""

STDERR_TAIL = 5
"""Lines of the engine's stderr quoted with a failure."""


@dataclass(frozen=True)
class CheckFailure:
    """What failed (``handshake``, ``option NAME``, ``sneferu at 3 seats`` ...), why
    (the fault), and the last lines the engine wrote to stderr."""

    where: str
    reason: str
    stderr: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        return [f"FAIL {self.where}: {self.reason}",
                *(f"  stderr: {line}" for line in self.stderr)]


@dataclass
class CheckReport:
    """The outcome of :func:`check_engine`: what the engine said of itself, the games
    played (``sneferu at 2 seats``), the declared games not known here, the failures."""

    name: str
    author: str | None = None
    games: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    played: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    failures: list[CheckFailure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def lines(self) -> list[str]:
        out = [f"engine: {self.name}" + (f" by {self.author}" if self.author else ""),
               f"games: {' '.join(self.games) or 'none'}",
               f"options: {' '.join(self.options) or 'none'}"]
        out += [f"ok {what}" for what in self.played]
        out += [f"not checked: {name} (not a game of this arbiter)" for name in self.unknown]
        for failure in self.failures:
            out += failure.lines()
        out.append("PASS" if self.passed else f"FAIL ({len(self.failures)} failed)")
        return out


def short_start(game: Game, players: int, seed: int) -> object:
    """The start of a check game: :data:`DECISIONS_LEFT` decisions per seat before the end
    of a random game (see the module)."""
    rng = random.Random(f"check:{game.name}:{players}:{seed}")
    states: list[object] = []
    play_random_moves(game, game.new_game(players), rng, states)
    cut = max(0, len(states) - DECISIONS_LEFT * players)
    for state in reversed(states[:cut + 1]):
        if not game.is_simultaneous(state):
            return state
    return game.new_game(players)


def _tail(folder: Path) -> tuple[str, ...]:
    """The last lines of the engine's stderr log in ``folder``."""
    lines: list[str] = []
    for log in sorted(folder.glob("check-*.log")):
        lines = log.read_text(errors="replace").splitlines()
    return tuple(x[:200] for x in lines if x.strip())[-STDERR_TAIL:]


def check_engine(argv: Sequence[str], *, sandbox: Sandbox | None = None,
                 cwd: str | Path | None = None, movetime: int = 1000,
                 handshake_timeout: float = 10.0, seed: int = 1,
                 keep_going: bool = False) -> CheckReport:
    """Check the engine ``argv`` (run in ``cwd``, inside ``sandbox``): see the module.
    Stops at the first failure unless ``keep_going``."""
    with tempfile.TemporaryDirectory(prefix="sneferu-check-") as logs:
        folder = Path(logs)
        sink = StderrSink(folder, folder=True)
        engine = Engine(argv, label="check", stderr=sink, handshake_timeout=handshake_timeout,
                        cwd=cwd, sandbox=sandbox)
        opponents: list[Engine] = []
        try:
            return _check(engine, opponents, folder, movetime, seed, keep_going)
        finally:
            Engine.quit_all([engine, *opponents])
            sink.close()


def _check(engine: Engine, opponents: list[Engine], folder: Path, movetime: int,
           seed: int, keep_going: bool) -> CheckReport:
    Engine.start_all([engine])
    report = CheckReport(engine.name, engine.author, engine.games, tuple(engine.options))
    if engine.fault is not None:
        report.failures.append(CheckFailure("handshake", str(engine.fault), _tail(folder)))
        return report
    for name, spec in engine.options.items():
        try:
            if spec.default is not None or spec.kind == "button":
                engine.set_option(name, spec.default)
            engine.ping()
        except (EngineFault, ValueError) as e:
            report.failures.append(CheckFailure(f"option {name}", str(e), _tail(folder)))
            if not keep_going:
                return report
            engine.restart()
    control = TimeControl(movetime=movetime, margin=max(100, movetime // 2))
    for name in engine.games:
        if name not in GAMES:
            report.unknown.append(name)
            continue
        game = get_game(name)
        for i, players in enumerate(sorted(game.players)):
            where = f"{name} at {players} seat{'s' * (players > 1)}"
            seat = i % players  # 0-based: the engine moves round the table
            need = players - 1 - len(opponents)
            if need > 0:
                opponents += Engine.start_all([Engine(engine_command("random"),
                                                      name="random") for _ in range(need)])
            if engine.fault is not None:  # retired in the game before: a new process
                engine.restart()
            if engine.fault is not None:
                report.failures.append(CheckFailure(where, str(engine.fault), _tail(folder)))
                return report
            agents: list[Engine] = opponents[:players - 1]
            agents.insert(seat, engine)
            for s, agent in enumerate(agents, start=1):
                if agent.fault is not None:
                    agent.restart()
                for option, value in automatic_options(agent, seed=seed, seat=s,
                                                       edition_file=None).items():
                    try:
                        agent.set_option(option, value)
                    except (EngineFault, ValueError):
                        break
            fault = engine.fault
            if fault is None:
                record = play_game(agents, seed=seed, time_control=control, game=game,
                                   start=short_start(game, players, seed))
                faults = [f for f in record.header.faults if f.seat == seat + 1]
                if not faults:
                    report.played.append(where)
                    continue
                reason = f"{faults[0].kind}: {faults[0].detail} (ply {faults[0].ply})"
            else:
                reason = str(fault)
            report.failures.append(CheckFailure(where, reason, _tail(folder)))
            if not keep_going:
                return report
    return report
