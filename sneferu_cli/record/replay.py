"""Replaying records: the position at every ply, and verification of a whole game.

Replaying goes through the game the header names (:func:`sneferu_cli.game.get_game`):
it starts from a new game (or the header's starting position) and applies each event in
order: a chance outcome with ``apply_outcome``, a turn with ``apply_move`` (after checking
that its seat is the one to move), a simultaneous turn with ``apply_move`` and its seat for each
seat's move (after checking that its seats are those that decide there), a retire with
``state.retire``. A game's own tags (Sneferu's builders and solo score) are read and
checked through its :class:`~sneferu_cli.game.RecordTags` (``Game.record_tags``).
Verification then checks the header's result, own result tags, termination and faults against
the final position. The first thing that does not hold is raised as a :class:`ReplayError`
naming the game and the line (or, for JSON input, the event).

*Ply* ``k`` is the position after ``k`` turns (a simultaneous turn is one) together with
the chance events and retires that follow them, that is, just before the turn line
``k + 1``: ply 0 is the position before the first turn, the last ply the final position
(SPEC.md, 8.6).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ..game import Game, NotationError, get_game
from ..words import plural
from .model import (
    Chance,
    Header,
    Retire,
    SeatResult,
    Simultaneous,
    TurnEvent,
    turn_count,
)
from .text import GameEntry, RecordError, own_tag, result_tag

TERMINATIONS = ("normal", "all-retired", "aborted")
"""Every game's terminations; a game may have words of its own (``RecordTags``)."""

__all__ = [
    "TERMINATIONS",
    "ReplayError",
    "Verified",
    "describe_due",
    "edition_for",
    "final_result",
    "plies",
    "position_at",
    "start_state",
    "terminations",
    "verify",
]


class ReplayError(RecordError):
    """A well-formed record that does not replay or does not match its header."""


class Verified(NamedTuple):
    """A game that replayed and matched its header: its final state and turn count."""

    state: Any
    turns: int


def final_result(state: Any, game: Game | None = None
                 ) -> tuple[list[SeatResult], dict[str, str], str]:
    """The header's result, the game's own result tags and termination for ``state`` (a
    record's end) of ``game`` (the registry's first game when not given).

    The arbiter fills a finished record's header with these; verification compares a
    header with them. The termination is ``aborted`` while the game is not over.
    """
    game = game or get_game()
    standings = game.standings(state)
    result = [SeatResult.of(s) for s in standings]
    tags = game.record_tags()
    own = {} if tags is None else tags.result_tags(state)
    return result, own, game.termination(state, standings)


def terminations(game: Game) -> tuple[str, ...]:
    """The terminations a record of ``game`` may have: ``normal``, the game's own words,
    ``all-retired`` and ``aborted``."""
    tags = game.record_tags()
    own = [] if tags is None else [t for t in tags.termination_words() if t != "normal"]
    return (TERMINATIONS[0], *own, *TERMINATIONS[1:])


def edition_for(header: Header, editions: Iterable[Any] = ()) -> Any:
    """The edition a header names: one of ``editions`` or its game's standard one.

    Raises ValueError when the named edition is not among them (or the game is unknown).
    """
    for ed in editions:
        if ed.name == header.edition:
            return ed
    standard = get_game(header.game).standard_edition()
    if header.edition == standard.name:
        return standard
    raise ValueError(f"the game was played with edition {header.edition!r}, which is not "
                     "loaded (give its file with --edition PATH)")


def start_state(header: Header, edition: Any) -> Any:
    """The state a record starts from: its [Position], or a new game before set-up.

    Raises ValueError when the header's game is unknown or its players, variant (and
    Sneferu's builders) do not fit together.
    """
    game = get_game(header.game)
    if header.position is not None:
        state = game.from_position(header.position, edition)
        n = game.players_of(state)
        if n != header.players:
            raise ValueError(f"[Players {header.players}] but the [Position] has "
                             f"{plural(n, 'seat')}")
        if game.variant_of(state) != header.variant:
            raise ValueError(f"[Variant {header.variant}] but the [Position] is of the "
                             f"{game.variant_of(state)} variant")
        return state
    tags = game.record_tags()
    if tags is not None:
        return tags.from_tags(header.players, header.variant, header.tags,
                              [s.tags for s in header.seats], edition)
    for name, value in header.tags.items():
        raise ValueError(f"[{name} {value}] in a game of {game.title}")
    if header.variant not in game.variants:
        raise ValueError(f"[Variant {header.variant}]: {game.title} has "
                         f"{', '.join(game.variants)}")
    return game.new_game(header.players, variant=header.variant, edition=edition)


def plies(entry: GameEntry, edition: Any, source: str = "<records>") -> Iterator[Any]:
    """Replay a game, yielding the position at ply 0, 1, 2, ... and last the final one.

    The state yielded is the live replay state: copy it (``clone``) to keep it. Raises
    ReplayError at the first event that does not hold, RecordError for one that is not
    notation (a chance outcome such as ``~9``).
    """
    header = entry.record.header
    try:
        state = start_state(header, edition)
        game = get_game(header.game)
    except ValueError as e:
        at = (entry.tag_lines.get("position") or entry.tag_lines.get("game")
              or entry.tag_lines.get("variant") or entry.line)
        raise ReplayError(str(e), source, entry.number, at or None) from None
    turns = 0
    for i, event in enumerate(entry.record.events):
        line, label = _where(entry, i)

        def fail(reason: str, line: int | None = line, label: str = label) -> ReplayError:
            return ReplayError(label + reason, source, entry.number, line)

        if isinstance(event, TurnEvent):
            yield state
            turns += 1
            moves = event.turns if isinstance(event, Simultaneous) else [event]
            seats = ",".join(str(t.seat) for t in moves)
            what = f"turn {turns} (seat{'s' if len(moves) > 1 else ''} {seats})"
            if state.is_over():
                raise fail(f"{what}: the game is already over")
            if state.is_chance_node():
                raise fail(f"{what}: chance events are due first: {describe_due(game, state)}")
            for t in moves:
                try:
                    game.canonical_move(t.move)
                except NotationError as e:
                    raise RecordError(label + str(e), source, entry.number, line) from None
            if not game.is_simultaneous(state):
                to_move = state.current_seat() + 1
                if isinstance(event, Simultaneous):
                    raise fail(f"{what}: seat {to_move} alone is to move, at no "
                               "simultaneous node")
                if event.seat != to_move:
                    raise fail(f"{what}: seat {to_move} is to move, not seat {event.seat}")
                try:
                    game.apply_move(state, event.move)
                except ValueError as e:
                    raise fail(f"{what}: {event.move!r}: {e}") from None
                continue
            deciding = [s + 1 for s in game.deciding_seats(state)]
            if [t.seat for t in moves] != deciding:
                raise fail(f"{what}: seats {', '.join(map(str, deciding))} decide together "
                           "here: their moves come on one line" if len(deciding) > 1
                           else f"{what}: only seat {deciding[0]} decides here")
            for t in moves:
                try:
                    game.apply_move(state, t.move, t.seat - 1)
                except ValueError as e:
                    raise fail(f"{what}: seat {t.seat}'s {t.move!r}: {e}") from None
        elif isinstance(event, Chance):
            try:
                game.canonical_outcome(event.outcome)
            except NotationError as e:
                raise RecordError(label + str(e), source, entry.number, line) from None
            if not state.is_chance_node():
                raise fail(f"chance outcome {event.outcome}, but no chance event is due: "
                           + describe_due(game, state))
            try:
                game.apply_outcome(state, event.outcome)
            except ValueError as e:
                raise fail(f"chance outcome {e}") from None
        else:
            assert isinstance(event, Retire)
            if not 1 <= event.seat <= game.players_of(state):
                raise fail(f"retire {event.seat}: there is no seat {event.seat}")
            if state.is_over():
                raise fail(f"retire {event.seat}: the game is already over")
            if game.standings(state)[event.seat - 1].retired:
                raise fail(f"retire {event.seat}: seat {event.seat} is already retired")
            try:
                state.retire(event.seat - 1)
            except ValueError as e:
                raise fail(str(e)) from None
    yield state


def describe_due(game: Game, state: Any) -> str:
    """What the position waits for, in words for messages (``Game.describe_due``)."""
    return game.describe_due(state)


def position_at(entry: GameEntry, ply: int, edition: Any,
                source: str = "<records>") -> Any:
    """The position at ``ply`` (negative counts from the end: -1 is the final position).

    Raises ValueError when the game has no such ply.
    """
    total = turn_count(entry.record.events)
    k = ply + total + 1 if ply < 0 else ply
    if not 0 <= k <= total:
        raise ValueError(f"game {entry.number} has plies 0 to {total}, not {ply}")
    for n, state in enumerate(plies(entry, edition, source)):
        if n == k:
            return state
    raise AssertionError("unreachable")  # pragma: no cover


def verify(entry: GameEntry, edition: Any, source: str = "<records>") -> Verified:
    """Replay a whole game and check its header against the final position.

    Raises ReplayError (or RecordError) at the first thing that does not hold.
    """
    state: Any = None
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


def _check_header(entry: GameEntry, state: Any, turns: int, source: str) -> None:
    h = entry.record.header
    game = get_game(h.game)
    lines = entry.tag_lines
    end = entry.end_line or entry.line or None

    def fail(reason: str, tag: str | None = None) -> ReplayError:
        return ReplayError(reason, source, entry.number, lines.get(tag, end) if tag else end)

    result, own, termination = final_result(state, game)
    tags = game.record_tags()
    n = game.players_of(state)
    for what, numbers in (("seat", [x.seat for x in h.seats]),
                          ("result", [x.seat for x in h.result])):
        for k, seat in enumerate(numbers, start=1):
            if seat != k or len(numbers) != n:
                raise fail(f"{len(numbers)} [{what.capitalize()}] tags numbered "
                           f"{' '.join(map(str, numbers))} for {plural(n, 'seat')} (one per "
                           "seat in seat order, or none)", f"{what} {k}")
    for s in h.seats:
        given = {} if tags is None else tags.seat_tags(state, s.seat - 1)
        for key, value in s.tags.items():
            if value != given.get(key):
                raise fail(f"[Seat {s.seat}] says {key}={value}, but the replay gives "
                           f"{given.get(key) or 'no ' + key}", f"seat {s.seat}")
    if h.termination is not None:
        known = terminations(game)
        if h.termination not in known:
            raise fail(f"[Termination {h.termination}]: unknown (expected one of "
                       f"{', '.join(known)})", "termination")
        if termination == "aborted" and h.termination != "aborted":
            raise fail(f"the record ends before the game is over ({describe_due(game, state)}), "
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
    for name in h.result_tags:
        if name not in own:
            raise fail(f"a [{name}] tag, but the replay gives none", name.lower())
    for name, value in own.items():
        if h.result and h.result_tags.get(name) != value:
            have = (f"no [{name}] tag" if name not in h.result_tags
                    else own_tag(name, h.result_tags[name]))
            raise fail(f"{have}, but the replay gives {own_tag(name, value)}", name.lower())
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
        if isinstance(e, TurnEvent):
            turns += 1
        elif isinstance(e, Retire):
            out.append((e.seat, e.kind, turns, _where(entry, i)[0]))
    return out
