"""The data of a recorded game: header and every event in order (R2: chance written out).

These msgspec structs are the one in-memory form of a record. The text format
(:mod:`sneferu_cli.record.text`) and JSON (``msgspec.json``) are two encodings of it. Seat
numbers in records are 1-based, as in every notation.

>>> rec = GameRecord(header=Header(players=2), events=[Chance("~FOOD1"), Turn(1, "1.1 TG@1.1")])
>>> msgspec.json.decode(msgspec.json.encode(rec), type=GameRecord) == rec
True
>>> sealed = Simultaneous([Turn(1, "bid 7", ms=30), Turn(2, "bid 9", ms=12)])
>>> msgspec.json.encode(sealed).decode()[:60]
'{"type":"simultaneous","turns":[{"type":"turn","seat":1,"mov'
"""

from __future__ import annotations

import math

import msgspec

from ..game import DEFAULT_GAME, Standing


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    """Who played a seat: the engine's (or human's) name, its author, and ``tc``, the
    seat's own time control when it differs from the game's (time odds), in the header's
    ``time_control`` form. ``tags``: what the seat was set up with, in the game's own
    tags (key and value as the [Seat] tag writes them; Sneferu: ``builder``; SPEC 8)."""

    seat: int
    name: str
    author: str | None = None
    tc: str | None = None
    tags: dict[str, str] = {}


class Fault(msgspec.Struct, frozen=True, omit_defaults=True):
    """An engine fault that retired a seat: what happened and when.

    ``kind`` is one of: ``crash`` (the process exited), ``eof`` (it closed its output),
    ``timeout`` (no answer in time), ``handshake`` (never finished the handshake),
    ``malformed`` (a line the grammar rejects), ``illegal`` (an illegal move),
    ``flood`` (a line over the length limit, or too much written while not reading),
    ``disconnect`` (an engine's connection closed, SPEC.md 6.7), and the sandbox's
    (SPEC.md 7.10): ``memory`` (stopped at its memory limit), ``cpu`` (at its CPU
    seconds), ``processes`` (at its process limit).
    ``ply`` counts the turns played before the fault (0 = before the first turn).
    """

    seat: int
    kind: str
    detail: str
    ply: int


class SeatResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat's final standing: rank 1 = first, shared on ties; its ``scores`` under its
    game's :attr:`~sneferu_cli.game.Game.score_keys`, in order."""

    seat: int
    rank: int
    retired: bool = False
    scores: dict[str, int] = {}

    @classmethod
    def of(cls, standing: Standing) -> SeatResult:
        """The result of a game's :class:`~sneferu_cli.game.Standing`."""
        return cls(standing.seat, standing.rank, standing.retired, dict(standing.scores))

    def score_items(self) -> list[tuple[str, int]]:
        """The scores in order, as the [Result] tag writes them."""
        return list(self.scores.items())


class Header(msgspec.Struct, omit_defaults=True):
    """The tags of a record.

    ``position`` is the starting position when the game did not start from set-up.
    ``result`` and ``termination`` are empty until the game is finished; ``termination``
    is ``normal``, ``all-retired``, ``aborted`` (stopped before its end: no result then,
    as the arbiter writes it) or a word of the game's own (Sneferu: ``ptah``, Ptah
    completed his pyramid). ``game`` names the game (``[Game NAME]``; the registry's
    first game when absent). ``tags`` and ``result_tags`` are the game's own tags of the
    set-up and of the result, by tag name, each with its value as the record writes it
    (Sneferu: ``Builders`` and ``Solo``; :class:`~sneferu_cli.game.RecordTags`).
    """

    players: int
    event: str = "?"
    date: str = "?"
    round: str | None = None
    game: str = DEFAULT_GAME
    edition: str = "standard"
    variant: str = "standard"
    tags: dict[str, str] = {}
    seats: list[Seat] = []
    seed: int | None = None
    time_control: str | None = None
    position: str | None = None
    result: list[SeatResult] = []
    result_tags: dict[str, str] = {}
    termination: str | None = None
    faults: list[Fault] = []
    extra: dict[str, str] = {}


class Chance(msgspec.Struct, frozen=True, tag="chance"):
    """A chance outcome, as its token (``~BT``, ``~FOOD1``, ``~2``, ``~Heba``)."""

    outcome: str


class Turn(msgspec.Struct, frozen=True, tag="turn", omit_defaults=True):
    """A whole turn of ``seat`` in move notation, with the clock time it used (ms) and the
    engine's last ``info`` fields if any."""

    seat: int
    move: str
    ms: int | None = None
    info: dict[str, str] | None = None


class Simultaneous(msgspec.Struct, frozen=True, tag="simultaneous"):
    """The step of a simultaneous node: the sealed move of every seat that decided there,
    by seat (two or more), each with its own clock time and info, taken together as one
    turn (one ply). A node at which a single seat decides is recorded as a :class:`Turn`."""

    turns: list[Turn]


class Retire(msgspec.Struct, frozen=True, tag="retire"):
    """The arbiter retired ``seat`` here (see the matching Fault in the header)."""

    seat: int
    kind: str


Event = Chance | Turn | Simultaneous | Retire

TurnEvent = Turn | Simultaneous
"""The events that are turns (a ply each, SPEC.md 8.6)."""


def turn_count(events: list[Event]) -> int:
    """How many turns (plies) ``events`` hold."""
    return sum(1 for e in events if isinstance(e, TurnEvent))


def seat_turns(event: Event) -> list[Turn]:
    """The seats' moves of a turn event (one, or every seat's of a simultaneous step);
    none for a chance or retire event."""
    if isinstance(event, Turn):
        return [event]
    if isinstance(event, Simultaneous):
        return event.turns
    return []


class GameRecord(msgspec.Struct):
    """One game: its header and events in the order they happened."""

    header: Header
    events: list[Event] = []


USAGE = "usage "
"""The start of the ``[Extra]`` key of a seat's resource usage: ``usage 2`` (SPEC.md 7.10)."""


def usage_text(cpu: float, peak: int) -> str:
    """A seat's resource usage as its ``[Extra "usage S"]`` value: CPU seconds and the
    peak memory in KiB.

    >>> usage_text(0.4123, 40_000_000)
    'cpu=0.412 peak=39063'
    """
    return f"cpu={cpu:.3f} peak={(peak + 1023) // 1024}"


def usage_of(text: str) -> tuple[float, int] | None:
    """The CPU seconds and peak KiB of a :func:`usage_text` value, or None when it is not
    one.

    >>> usage_of("cpu=0.412 peak=39063")
    (0.412, 39063)
    """
    try:
        cpu, peak = text.split()
        if cpu.startswith("cpu=") and peak.startswith("peak="):
            seconds, kib = float(cpu[4:]), int(peak[5:])
            if math.isfinite(seconds) and seconds >= 0 and kib >= 0:
                return seconds, kib
    except ValueError:
        pass
    return None
