"""A stand-in tournament runner for the crash tests, run as a real subprocess.

    python tournament_child.py CONFIG.toml start|resume [slow] [POINT COMMIT]

Plays no engines: each pending game's record is made up from the schedule (the same bytes
for the same game every time, about 50 kB so that a write takes a while) and committed
through the real Journal, printing ``committed N`` after each. With POINT and COMMIT the
process sends itself SIGKILL at that point of its COMMIT-th commit: ``half`` (half the
record written), ``append`` (the whole record written, not yet in the commit log),
``logged`` (the record and its line in the commit log written, no checkpoint yet),
``saved`` (with ``fsync = "game"``: the checkpoint's state saved, the commit log not yet
emptied) or ``done`` (the commit returned). ``slow`` writes each record in 20 pieces
1 ms apart, like a slow disk, so that a SIGKILL from outside at a random moment most
likely lands in the middle of a record.
"""

from __future__ import annotations

import os
import signal
import sys
import time

from tournament_support import decode, encode

from sneferu_cli.record.model import Chance, GameRecord, SeatResult
from sneferu_cli.tournament import (
    Game,
    Journal,
    Schedule,
    TournamentConfig,
    done_games,
    game_header,
    load_config,
    pending_games,
)


def made_up(cfg: TournamentConfig, game: Game) -> GameRecord:
    header = game_header(cfg, game)
    header.result = [SeatResult(i + 1, 1 + (game.number + i) % len(game.seats),
                                scores={"stones": 10 + i, "food": i})
                     for i in range(len(game.seats))]
    return GameRecord(header=header, events=[Chance("~BT")] * 3000)


class Crashing(Journal):
    point = ""
    at = 0
    commits = 0
    slow = False

    def commit(self, game: int, record: bytes) -> None:
        self.commits += 1
        super().commit(game, record)
        self._crash("done")

    def _append(self, data: bytes) -> None:
        if self._here("half"):
            super()._append(data[: len(data) // 2])
            self._crash("half")
        if self.slow:
            step = len(data) // 20 + 1
            for i in range(0, len(data), step):
                os.write(self._fd, data[i:i + step])
                time.sleep(0.001)
        super()._append(b"" if self.slow else data)
        self._crash("append")

    def sync_due(self) -> None:
        self._crash("logged")
        super().sync_due()

    def _save(self) -> None:
        super()._save()
        self._crash("saved")

    def _here(self, point: str) -> bool:
        return self.point == point and self.commits == self.at

    def _crash(self, point: str) -> None:
        if self._here(point):
            os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    config, mode, *crash = sys.argv[1:]
    slow = crash[:1] == ["slow"]
    crash = crash[slow:]
    cfg = load_config(config)
    journal = Crashing.start(cfg) if mode == "start" else Crashing.resume(cfg.state_path, cfg)
    journal.slow = slow
    if crash:
        journal.point, journal.at = crash[0], int(crash[1])
    with journal:
        schedule = Schedule.of(journal.config)
        with open(journal.records_path, "rb") as f:
            done = done_games(decode(f.read()), schedule)
        assert len(done) == journal.state.games, (len(done), journal.state.games)
        print(f"resumed {len(done)} cut {journal.recovered}", flush=True)
        for game in pending_games(schedule, done):
            journal.commit(game.number, encode(made_up(journal.config, game)))
            print(f"committed {game.number}", flush=True)


if __name__ == "__main__":
    main()
