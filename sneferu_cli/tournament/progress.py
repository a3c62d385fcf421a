"""What a tournament run shows while it plays (SPEC.md 9.8).

On a terminal, a block of a few lines redrawn in place about four times a second: games
done, running, the rate and the time left, the SPRT's LLR, and the top rows of the
current standings. Elsewhere (a log, a pipe, a test) plain lines, one each time another
tenth of the games is done, and at least every ``interval`` seconds while games finish.
"""

from __future__ import annotations

import shutil
import time
from typing import TYPE_CHECKING, TextIO

from ..record.model import GameRecord
from ..words import plural
from .sprt import SprtResult
from .standings import RATING_NOTE, format_standings

if TYPE_CHECKING:
    from .runner import TournamentRun

__all__ = ["Progress", "describe_sprt", "duration"]

TOP_ROWS = 5
"""Engines shown in the live standings."""


def duration(seconds: float) -> str:
    """``M:SS`` or ``H:MM:SS``."""
    s = round(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02}:{s % 60:02}" if h else f"{m}:{s % 60:02}"


def describe_sprt(r: SprtResult) -> str:
    """The SPRT's state in two lines: verdict, LLR and bounds; pentanomial and Elo."""
    verdict = {"H1": f"H1 accepted ({r.engines[0]} is stronger)",
               "H0": f"H0 accepted ({r.engines[0]} is not stronger)",
               "continue": "no verdict yet"}[r.verdict]
    elo = "" if r.elo is None else (f"; Elo {r.elo:+.1f} [{r.elo_lower:+.1f}, "
                                    f"{r.elo_upper:+.1f}]")
    ll, ld, dd, wd, ww = r.penta
    return (f"SPRT {r.engines[0]} vs {r.engines[1]}: {verdict}: LLR {r.llr:.3f} "
            f"(bounds {r.lower:.3f}, {r.upper:.3f})\n"
            f"  {plural(r.pairs, 'pair')}: LL {ll}, LD {ld}, DD {dd}, WD {wd}, WW {ww}{elo}")


class Progress:
    """Shows a run's progress on ``out``; ``live`` redraws a block (a terminal)."""

    def __init__(self, out: TextIO, *, live: bool, interval: float = 30.0) -> None:
        self.out = out
        self.live = live
        self.interval = interval
        self._drawn = 0
        self._last_draw = 0.0
        self._last_line = time.monotonic()
        self._tenth = -1
        self._standings: list[str] = []
        self._stale = True
        self._computed = 0.0  # when the standings shown were computed
        self._finishing = False
        self._took = 0.0  # how long that took

    def update(self, run: TournamentRun, record: GameRecord | None) -> None:
        """After a committed game (``record``) or a tick (None)."""
        if record is not None:
            self._stale = True
        if run.finish.is_set() and not run.stop.is_set() and not self._finishing:
            self._finishing = True
            n = _playing(run)[0]
            games = "the game being played is" if n == 1 else f"the {n} games being played are"
            self._clear()
            self.out.write(f"Stopping: no new game starts; {games} finished and recorded "
                           "(Ctrl-C again abandons them).\n")
            self.out.flush()
        now = time.monotonic()
        if self.live:
            if now - self._last_draw >= 0.25 or record is None:
                self._last_draw = now
                self._draw(run)
            return
        if record is None:
            return
        tenth = 10 * run.finished // max(1, run.total)
        if tenth > self._tenth or now - self._last_line >= self.interval:
            self._tenth = tenth
            self._last_line = now
            self.out.write(self.status(run) + "\n")
            self.out.flush()

    def status(self, run: TournamentRun) -> str:
        """One line: games done, the rate, elapsed time and time left, the leader."""
        done, total = run.finished, run.total
        played = done - run.resumed
        elapsed = time.monotonic() - run.started
        line = f"[{done:{len(str(total))}}/{total} {100 * done // max(1, total):3}%]"
        playing, queued = _playing(run)
        if playing:
            line += f" {playing} running,"
        if queued:
            line += f" {queued} queued,"
        if run.cluster is not None:
            n = len(run.cluster.workers)
            line += f" {n} worker{'s' if n != 1 else ''},"
        line += f" {duration(elapsed)} elapsed"
        if played and elapsed > 0:
            rate = played / elapsed
            left = len(run.todo) + len(run.running)
            line += f", {rate:.2f} games/s, ETA {duration(left / rate)}"
        st = run.standings() if not self.live and done else None
        if st is not None and st.engines:
            e = st.engines[0]
            line += f"; leader {e.name} (mean rank {e.mean_rank:.2f})"
        elif st is not None and st.solo:
            s = st.solo[0]
            line += f"; leader {s.name} (win rate {100 * s.win_rate:.1f}%)"
        if run.sprt is not None:
            line += f"; SPRT LLR {run.sprt.llr:.2f} ({run.sprt.lower:.2f}, {run.sprt.upper:.2f})"
        return line

    def _draw(self, run: TournamentRun) -> None:
        # Standings are redrawn at most once a second, and never for more than a tenth of
        # the time (they are kept up to date game by game: RunningStandings).
        now = time.monotonic()
        if self._stale and run.results and now - self._computed >= max(1, 10 * self._took):
            table = format_standings(run.standings()).split("\n\n")[0]
            self._computed = time.monotonic()
            self._took = self._computed - now
            self._standings = [line for line in table.splitlines()
                               if line != RATING_NOTE][:TOP_ROWS + 1]
            self._stale = False
        width = shutil.get_terminal_size().columns
        lines = [line[:width - 1] for line in (self.status(run), *self._standings)]
        self._clear()
        self.out.write("".join(line + "\n" for line in lines))
        self.out.flush()
        self._drawn = len(lines)

    def _clear(self) -> None:
        if self._drawn:
            self.out.write(f"\x1b[{self._drawn}F\x1b[J")
            self._drawn = 0

    def close(self) -> None:
        """Take the live block off the screen (the final standings follow)."""
        if self.live:
            self._clear()
            self.out.flush()


def _playing(run: TournamentRun) -> tuple[int, int]:
    """The games being played and those handed out but waiting their turn: on a cluster
    a whole deal is handed to a worker thread, which plays its games one at a time, so at
    most one game a thread is being played (the run's concurrency)."""
    n = len(run.running)
    playing = min(n, run.concurrency) if run.cluster is not None else n
    return playing, n - playing
