"""Replaying records: the position at every ply, and verification of a whole game.

Replaying starts from ``new_game`` (or the header's starting position) and applies each
event in order: a chance outcome with ``state.apply``, a turn with ``state.apply_turn``
(after checking that its seat is the one to move), a retire with ``state.retire``.
Verification then checks the header's result, solo score, termination and faults against
the final position. The first thing that does not hold is raised as a :class:`ReplayError`
naming the game and the line (or, for JSON input, the event).

*Ply* ``k`` is the position after ``k`` turns together with the chance events and retires
that follow them, that is, just before the turn line ``k + 1``: ply 0 is the position
before the first turn, the last ply the final position (SPEC.md, 8.6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..game import NotationError
from ..games.sneferu.notation.move import Move, parse_outcome
from ..games.sneferu.notation.picture import describe_turn
from ..games.sneferu.notation.position import from_position
from ..games.sneferu.rules.edition import Edition, standard_edition
from ..games.sneferu.rules.state import GameState, IllegalAction, new_game
from ..words import plural
from .model import Chance, Header, Retire, SeatResult, SoloScore, Turn
from .text import GameEntry, RecordError, result_tag, solo_tag

TERMINATIONS = ("normal", "ptah", "all-retired", "aborted")

__all__ = ["TERMINATIONS", "ReplayError", "Verified", "edition_for", "final_result",
           "plies", "position_at", "start_state", "verify"]


class ReplayError(RecordError):
    """A well-formed record that does not replay or does not match its header."""


class Verified(NamedTuple):
    """A game that replayed and matched its header: its final state and turn count."""

    state: GameState
    turns: int


def final_result(state: GameState) -> tuple[list[SeatResult], SoloScore | None, str]:
    """The header's result, solo score and termination for ``state`` (a record's end).

    The arbiter fills a finished record's header with these; verification compares a
    header with them. The termination is ``aborted`` while the game is not over.
    """
    result = [SeatResult(s.seat + 1, s.rank, s.stones, s.food, s.retired)
              for s in state.ranking()]
    solo = None
    if state.solo:
        r = state.solo_result()
        solo = SoloScore(r.won, r.ptah, r.score, r.title)
    if not state.is_over():
        termination = "aborted"
    elif all(p.retired for p in state.players):
        termination = "all-retired"
    elif state.solo and state.ptah_total >= state.tables.ptah_target:
        termination = "ptah"
    else:
        termination = "normal"
    return result, solo, termination


def edition_for(header: Header, editions: Iterable[Edition] = ()) -> Edition:
    """The edition a header names: one of ``editions`` or the standard one.

    Raises ValueError when the named edition is not among them.
    """
    for ed in editions:
        if ed.name == header.edition:
            return ed
    standard = standard_edition()
    if header.edition == standard.name:
        return standard
    raise ValueError(f"the game was played with edition {header.edition!r}, which is not "
                     "loaded (give its file with --edition PATH)")


def start_state(header: Header, edition: Edition) -> GameState:
    """The state a record starts from: its [Position], or a new game before set-up.

    Raises ValueError when the header's players, variant and builders do not fit together.
    """
    if header.position is not None:
        state = from_position(header.position, edition)
        if len(state.players) != header.players:
            raise ValueError(f"[Players {header.players}] but the [Position] has "
                             f"{plural(len(state.players), 'seat')}")
        if state.variant.value != header.variant:
            raise ValueError(f"[Variant {header.variant}] but the [Position] is of the "
                             f"{state.variant.value} variant")
        return state
    builders: str | list[str] | None = None
    if header.variant == "builders":
        if header.builders == "random":
            builders = "random"
        elif header.builders == "chosen":
            names = [s.builder for s in header.seats]
            if len(names) != header.players or None in names:
                raise ValueError("[Builders chosen] needs a [Seat] tag with builder= for "
                                 "every seat")
            builders = [n for n in names if n is not None]
        else:
            raise ValueError("[Variant builders] needs [Builders random] or [Builders chosen]")
    elif header.builders is not None:
        raise ValueError(f"[Builders {header.builders}] in the standard variant")
    return new_game(header.players, builders=builders, edition=edition)


def plies(entry: GameEntry, edition: Edition, source: str = "<records>"
          ) -> Iterator[GameState]:
    """Replay a game, yielding the position at ply 0, 1, 2, ... and last the final one.

    The state yielded is the live replay state: copy it (``clone``) to keep it. Raises
    ReplayError at the first event that does not hold, RecordError for one that is not
    notation (a chance outcome such as ``~9``).
    """
    header = entry.record.header
    try:
        state = start_state(header, edition)
    except ValueError as e:
        at = entry.tag_lines.get("position") or entry.tag_lines.get("variant") or entry.line
        raise ReplayError(str(e), source, entry.number, at or None) from None
    turns = 0
    for i, event in enumerate(entry.record.events):
        line, label = _where(entry, i)

        def fail(reason: str, line: int | None = line, label: str = label) -> ReplayError:
            return ReplayError(label + reason, source, entry.number, line)

        if isinstance(event, Turn):
            yield state
            turns += 1
            what = f"turn {turns} (seat {event.seat})"
            if state.is_over():
                raise fail(f"{what}: the game is already over")
            if state.is_chance_node():
                raise fail(f"{what}: chance events are due first: {describe_turn(state)}")
            to_move = state.current_seat() + 1
            if event.seat != to_move:
                raise fail(f"{what}: seat {to_move} is to move, not seat {event.seat}")
            try:
                move = Move.from_str(event.move)
            except NotationError as e:
                raise RecordError(label + str(e), source, entry.number, line) from None
            try:
                state.apply_turn(move.steps)
            except IllegalAction as e:
                raise fail(f"{what}: {event.move!r}: {e}") from None
        elif isinstance(event, Chance):
            try:
                outcome = parse_outcome(event.outcome)
            except NotationError as e:
                raise RecordError(label + str(e), source, entry.number, line) from None
            if not state.is_chance_node():
                raise fail(f"chance outcome {event.outcome}, but no chance event is due: "
                           + describe_turn(state))
            try:
                state.apply(outcome)
            except IllegalAction as e:
                raise fail(f"chance outcome {e}") from None
        else:
            assert isinstance(event, Retire)
            if not 1 <= event.seat <= len(state.players):
                raise fail(f"retire {event.seat}: there is no seat {event.seat}")
            if state.is_over():
                raise fail(f"retire {event.seat}: the game is already over")
            if state.players[event.seat - 1].retired:
                raise fail(f"retire {event.seat}: seat {event.seat} is already retired")
            try:
                state.retire(event.seat - 1)
            except IllegalAction as e:
                raise fail(str(e)) from None
    yield state


def position_at(entry: GameEntry, ply: int, edition: Edition,
                source: str = "<records>") -> GameState:
    """The position at ``ply`` (negative counts from the end: -1 is the final position).

    Raises ValueError when the game has no such ply.
    """
    total = sum(1 for e in entry.record.events if isinstance(e, Turn))
    k = ply + total + 1 if ply < 0 else ply
    if not 0 <= k <= total:
        raise ValueError(f"game {entry.number} has plies 0 to {total}, not {ply}")
    for n, state in enumerate(plies(entry, edition, source)):
        if n == k:
            return state
    raise AssertionError("unreachable")  # pragma: no cover


def verify(entry: GameEntry, edition: Edition, source: str = "<records>") -> Verified:
    """Replay a whole game and check its header against the final position.

    Raises ReplayError (or RecordError) at the first thing that does not hold.
    """
    state: GameState | None = None
    turns = 0
    for turns, state in enumerate(plies(entry, edition, source)):  # noqa: B007
        pass
    assert state is not None
    _check_header(entry, state, turns, source)
    return Verified(state, turns)


def _where(entry: GameEntry, i: int) -> tuple[int | None, str]:
    """The line of event ``i``, or (JSON input) a label naming it."""
    if entry.event_lines:
        return entry.event_lines[i], ""
    return entry.line or None, f"event {i + 1}: "


def _check_header(entry: GameEntry, state: GameState, turns: int, source: str) -> None:
    h = entry.record.header
    lines = entry.tag_lines
    end = entry.end_line or entry.line or None

    def fail(reason: str, tag: str | None = None) -> ReplayError:
        return ReplayError(reason, source, entry.number, lines.get(tag, end) if tag else end)

    result, solo, termination = final_result(state)
    n = len(state.players)
    for what, numbers in (("seat", [x.seat for x in h.seats]),
                          ("result", [x.seat for x in h.result])):
        for k, seat in enumerate(numbers, start=1):
            if seat != k or len(numbers) != n:
                raise fail(f"{len(numbers)} [{what.capitalize()}] tags numbered "
                           f"{' '.join(map(str, numbers))} for {plural(n, 'seat')} (one per "
                           "seat in seat order, or none)", f"{what} {k}")
    for s in h.seats:
        got = state.players[s.seat - 1].builder
        name = got.name if got else None
        if s.builder is not None and s.builder != name:
            raise fail(f"[Seat {s.seat}] says builder={s.builder}, but the replay gives "
                       f"{name or 'no builder'}", f"seat {s.seat}")
    if h.termination is not None:
        if h.termination not in TERMINATIONS:
            raise fail(f"[Termination {h.termination}]: unknown (expected one of "
                       f"{', '.join(TERMINATIONS)})", "termination")
        if termination == "aborted" and h.termination != "aborted":
            raise fail(f"the record ends before the game is over ({describe_turn(state)}), "
                       f"but [Termination {h.termination}]")
        if termination != h.termination:
            raise fail(f"[Termination {h.termination}], but the replay ends the game as "
                       f"{termination!r}", "termination")
        if termination != "aborted" and not h.result:
            raise fail("the game is over but the header has no [Result] tags")
    if h.result:
        for want, got_r in zip(h.result, result, strict=True):
            if want != got_r:
                raise fail(f"{result_tag(want)}, but the replay gives {result_tag(got_r)}",
                           f"result {want.seat}")
    if h.solo is not None and solo is None:
        raise fail("a [Solo] tag in a game of more than one player", "solo")
    if solo is not None and h.result and h.solo != solo:
        have = "no [Solo] tag" if h.solo is None else solo_tag(h.solo)
        raise fail(f"{have}, but the replay gives {solo_tag(solo)}", "solo")
    retires = _retires(entry)
    for n, (fault, retire) in enumerate(zip(h.faults, retires, strict=False), start=1):
        seat, kind, ply, line = retire
        if (fault.seat, fault.kind, fault.ply) != (seat, kind, ply):
            raise fail(f"[Fault {fault.seat} {fault.kind} ply={fault.ply}] but retire {n} in "
                       f"the events (line {line}) is seat {seat}, {kind}, after "
                       f"{plural(ply, 'turn')}",
                       f"fault {n}")
    if len(h.faults) != len(retires):
        raise fail(f"{len(h.faults)} [Fault] tags but {len(retires)} retire events (one "
                   "Fault tag for each retire, in order)")


def _retires(entry: GameEntry) -> list[tuple[int, str, int, int | None]]:
    """Each retire event: seat, kind, turns before it, line."""
    out = []
    turns = 0
    for i, e in enumerate(entry.record.events):
        if isinstance(e, Turn):
            turns += 1
        elif isinstance(e, Retire):
            out.append((e.seat, e.kind, turns, _where(entry, i)[0]))
    return out
