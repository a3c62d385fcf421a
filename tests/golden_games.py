"""Golden games: the protocol transcript and the record of fixed games between the bundled
random engines, for games without hidden information (Sneferu, Imhotep), which must stay
the same byte for byte whatever the arbiter learns for other games (simultaneous nodes,
views). ``python tests/golden_games.py`` writes them to tests/data/golden/ (only to
record a change of format made on purpose); tests/test_simultaneous.py compares."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import msgspec

from sneferu_cli.arbiter.bundled import engine_command
from sneferu_cli.arbiter.engine import Engine, automatic_options
from sneferu_cli.arbiter.game import TimeControl, play_game
from sneferu_cli.arbiter.process import TrafficLog
from sneferu_cli.game import get_game
from sneferu_cli.record.model import Turn
from sneferu_cli.record.text import format_record

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
GAMES = (("sneferu", 2, 7), ("imhotep", 3, 5))
"""Game, seats, seed."""


def transcript(name: str, players: int, seed: int) -> tuple[str, str]:
    """The traffic (without its times) and the record (without dates and clock times) of a
    game between bundled random engines."""
    out = io.StringIO()
    log = TrafficLog(out)
    engines = Engine.start_all([Engine(engine_command("random"), traffic=log, label=str(i))
                                for i in range(1, players + 1)])
    try:
        for seat, e in enumerate(engines, start=1):
            for option, value in automatic_options(e, seed=seed, seat=seat,
                                                   edition_file=None).items():
                e.set_option(option, value)
        record = play_game(engines, seed=seed, time_control=TimeControl(movetime=5000),
                           game=get_game(name))
    finally:
        Engine.quit_all(engines)
    record.header.date = "?"
    record.events = [msgspec.structs.replace(e, ms=None) if isinstance(e, Turn) else e
                     for e in record.events]
    traffic = re.sub(r"^\d+\.\d+ ", "", out.getvalue(), flags=re.M)
    return traffic, format_record(record)


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, players, seed in GAMES:
        traffic, record = transcript(name, players, seed)
        (GOLDEN / f"{name}.traffic").write_text(traffic)
        (GOLDEN / f"{name}.record").write_text(record)
        sys.stdout.write(f"{name}: {len(traffic)} + {len(record)} bytes\n")


if __name__ == "__main__":
    main()
