"""The game loop: one game between agents (engines or humans), returned as a GameRecord.

:func:`play_game` plays any registered game (:mod:`sneferu_cli.game`) through its
:class:`~sneferu_cli.game.Game`. It takes agents that are already started (engine handles
can be reused for many games: ``newgame`` resets them), draws every chance event with
``game.sample_outcome(state, random.Random(seed))``, asks the active seat for a whole turn
and applies it atomically with ``game.apply_move`` (with ``listed=True`` for a move
written as listed). A game's own seat set-up (Sneferu's builders) and the record tags
that say it come from its ``game.record_tags()``. An agent
that fails (SPEC.md section 7) is retired: it takes no more turns, ranks below every seat
not retired, and the game goes on for the others. At a simultaneous node every deciding
seat is asked: the engines at once, each on its own clock (their answers read as they
come), then any human seat; the sealed moves are applied with ``game.apply_move``, each
with its seat, and recorded together as one turn. A game with hidden information sends
each seat only its view (``game.hidden().view``). The arbiter never waits without a
deadline on an engine. A game stopped by Ctrl-C (KeyboardInterrupt) raises
:class:`GameInterrupted` with the game so far.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from mypy_extensions import mypyc_attr

from ..game import Game, UnknownGame, get_game, unnamed
from ..protocol.messages import SEP, GameOver, NewGame, Position
from ..record.model import (
    USAGE,
    Chance,
    Event,
    Fault,
    GameRecord,
    Header,
    Retire,
    Seat,
    Simultaneous,
    Turn,
    turn_count,
    usage_text,
)
from ..record.replay import final_result, position_at
from ..record.text import GameEntry
from ..words import plural
from .agent import Agent, TurnAnswer, TurnRequest
from .engine import Engine, answers_as_they_come
from .process import EngineFault

__all__ = ["BUDGET_MOVETIME", "DEFAULT_CLOCK", "GameInterrupted", "OnEvent", "TimeControl",
           "describe_result", "play_game"]

DEFAULT_CLOCK = "60+1"
"""The game clock when no time control is given: 60 seconds plus 1 per move."""


@dataclass(frozen=True)
class TimeControl:
    """A fixed time per move (``movetime`` ms) or a game clock (``base`` ms, plus ``inc`` ms
    after each move). ``margin`` ms is allowed beyond the limit before a timeout.
    ``iterations``: a fixed search budget a move (``go ... iterations N``, for engines
    declaring ``feature iterations``); the time is then the limit kept as a safety net.

    >>> str(TimeControl(movetime=200)), str(TimeControl(base=60000, inc=1000))
    ('movetime 200', '60+1')
    >>> str(TimeControl(base=1_234_567, inc=50)), str(TimeControl(base=500))
    ('1234.567+0.05', '0.5+0')
    >>> str(TimeControl(movetime=BUDGET_MOVETIME, iterations=2000))
    'iterations 2000 movetime 60000'
    """

    movetime: int | None = None
    base: int | None = None
    inc: int = 0
    margin: int = 100
    iterations: int | None = None

    def __post_init__(self) -> None:
        if (self.movetime is None) == (self.base is None):
            raise ValueError("a time control is either a time per move or a game clock")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations {self.iterations}: must be at least 1")

    @classmethod
    def parse(cls, clock: str | None = None, movetime: int | None = None,
              margin: int = 100) -> TimeControl:
        """The time control of ``--tc SECONDS[+INC]`` (``clock``) or ``--movetime MS``: one
        of them, or neither for :data:`DEFAULT_CLOCK`. ValueError saying what is wrong.

        >>> TimeControl.parse("0.5+0.05"), TimeControl.parse(movetime=200).movetime
        (TimeControl(movetime=None, base=500, inc=50, margin=100, iterations=None), 200)
        """
        if margin < 0:
            raise ValueError(f"margin {margin}: must be >= 0 ms")
        if movetime is not None:
            if clock is not None:
                raise ValueError("a time per move and a game clock: give one, not both")
            if movetime < 1:
                raise ValueError(f"movetime {movetime}: must be at least 1 ms")
            return cls(movetime=movetime, margin=margin)
        text = DEFAULT_CLOCK if clock is None else clock
        base, _, inc = text.partition("+")
        try:
            b, i = float(base), float(inc or 0)
        except ValueError:
            raise ValueError(f"{text!r} is not SECONDS+INC (like 60+1 or 0.5+0.05)") from None
        if not (math.isfinite(b) and math.isfinite(i)) or b <= 0 or i < 0:
            raise ValueError(f"{text!r}: the time must be positive, the increment >= 0")
        return cls(base=round(b * 1000), inc=round(i * 1000), margin=margin)

    @classmethod
    def with_budget(cls, budget: str | None, clock: str | None = None,
                    movetime: int | None = None, margin: int = 100) -> TimeControl:
        """:meth:`parse` with a search budget ``iterations N`` (:func:`parse_budget`), or
        None for none; with a budget and neither time given, the safety net is
        ``movetime`` :data:`BUDGET_MOVETIME`. ValueError saying what is wrong.

        >>> str(TimeControl.with_budget("iterations 200", "10+0.1"))
        'iterations 200 10+0.1'
        """
        iterations = None if budget is None else parse_budget(budget)
        if iterations is not None and clock is None and movetime is None:
            movetime = BUDGET_MOVETIME
        tc = cls.parse(clock, movetime, margin)
        return tc if iterations is None else dataclasses.replace(tc, iterations=iterations)

    def __str__(self) -> str:
        budget = "" if self.iterations is None else f"iterations {self.iterations} "
        if self.movetime is not None:
            return f"{budget}movetime {self.movetime}"
        assert self.base is not None
        return f"{budget}{_seconds(self.base)}+{_seconds(self.inc)}"


BUDGET_MOVETIME = 60_000
"""The time a move (ms) of a seat with a search budget and no time control of its own: a
safety net far above what the budget takes, so that the budget, not the time, ends the
search whatever the machine's load."""


def parse_budget(text: str) -> int:
    """The iterations of a search budget written ``iterations N`` (N >= 1); ValueError
    saying what is wrong.

    >>> parse_budget("iterations 2000")
    2000
    """
    words = text.split()
    if len(words) != 2 or words[0] != "iterations" or not words[1].isdigit():
        raise ValueError(f"{text!r} is not a search budget (like 'iterations 2000')")
    if int(words[1]) < 1 or len(words[1]) > 9:
        raise ValueError(f"{text!r}: a search budget's iterations are 1 to 999999999")
    return int(words[1])


def _seconds(ms: int) -> str:
    """Whole milliseconds as seconds, exactly and without trailing zeros: 500 -> 0.5."""
    whole, frac = divmod(ms, 1000)
    return f"{whole}.{frac:03}".rstrip("0") if frac else str(whole)


@mypyc_attr(native_class=False)  # compiled, an exception class stays a Python class
class GameInterrupted(KeyboardInterrupt):
    """The game was stopped (Ctrl-C, or SIGTERM turned into KeyboardInterrupt) before its end.

    ``record`` is the game so far: every event played, ``termination`` ``aborted``, no result
    (or, when the game had just ended, the finished game).
    """

    def __init__(self, record: GameRecord) -> None:
        super().__init__("the game was interrupted")
        self.record = record


OnEvent = Callable[[Event, Any], None]


def play_game(agents: Sequence[Agent], *, seed: int, time_control: TimeControl,
              setup: str | Sequence[str] | None = None, edition: Any | None = None,
              start: Any | None = None, on_event: OnEvent | None = None,
              seat_time_controls: Sequence[TimeControl | None] = (),
              game: Game | None = None, variant: str | None = None,
              at_once: bool = True, on_start: Callable[[Any], None] | None = None
              ) -> GameRecord:
    """Play one game of ``game`` (the registry's first game when None), seat ``i + 1``
    played by ``agents[i]``, and return its record.

    ``variant``: one of the game's variants (its first when None). ``setup``: the value
    of the game's seat set-up option (``game.record_tags().option``; Sneferu's
    ``builders``: ``"random"`` or one builder name per seat), None for none. ``start``: a
    position to start from instead of a new game (its players must match the agents).
    ``seat_time_controls[i]``, when given and not None, is seat ``i + 1``'s own time
    control instead of ``time_control`` (time odds; recorded in its ``[Seat]`` tag).
    ``on_event`` is called after every chance outcome, turn and retirement, ``on_start``
    with the state the game starts from (before the first event). A
    KeyboardInterrupt during the game becomes :class:`GameInterrupted`, which carries the
    record of the game so far; the agents are left as they are (the caller stops them).
    ``at_once``: the engines of a simultaneous node are asked at once (True) or one after
    the other, in seat order (False: to measure what asking at once gains).
    """
    match = _Match(game or get_game(), agents, seed, time_control, setup, variant,
                   edition, start, on_event, seat_time_controls, at_once)
    if on_start is not None:
        on_start(match.state)
    try:
        return match.play()
    except KeyboardInterrupt:
        raise GameInterrupted(match.so_far()) from None


class _Match:
    def __init__(self, game: Game, agents: Sequence[Agent], seed: int, tc: TimeControl,
                 setup: str | Sequence[str] | None, variant: str | None,
                 edition: Any | None, start: Any | None, on_event: OnEvent | None,
                 own: Sequence[TimeControl | None], at_once: bool = True) -> None:
        n = len(agents)
        self.game = game
        self.fast = game.fast_paths()
        self.simultaneous = game.simultaneous  # asked once, not at each decision
        self.at_once = at_once
        self.views = game.hidden()
        if len(own) > n:
            raise ValueError(f"{len(own)} seat time controls for {n} agents")
        tags = game.record_tags()
        if setup is not None and tags is None:
            raise ValueError(f"{game.title} has no seat set-up option")
        if start is not None:
            if game.players_of(start) != n:
                raise ValueError(f"the start position has {game.players_of(start)} players, "
                                 f"but {n} agents are given")
            self.state = start.clone()
        elif setup is not None:
            assert tags is not None
            value = setup if isinstance(setup, str) else ",".join(setup)
            self.state = tags.new_game(n, value, edition=edition)
        else:
            self.state = game.new_game(n, variant=variant, edition=edition)
        state = self.state
        self.agents = agents
        self.tcs = [o or tc for o in own] + [tc] * (n - len(own))
        self.rng = random.Random(seed)
        self.on_event = on_event
        own_tags, seat_tags = (({}, [{}] * n) if tags is None
                               else tags.tags(state, setup == "random" and start is None))
        seats = [Seat(i + 1, a.name, a.author,
                      str(self.tcs[i]) if str(self.tcs[i]) != str(tc) else None, seat_tags[i])
                 for i, a in enumerate(agents)]
        header = Header(players=n, date=datetime.date.today().isoformat(), game=game.name,
                        edition=game.edition_of(state).name, variant=game.variant_of(state),
                        tags=own_tags, seats=seats, seed=seed, time_control=str(tc),
                        position=game.to_position(start) if start is not None else None)
        self.record = GameRecord(header, [])
        self.from_position = start is not None  # where a seat may have retired already
        self.turns = 0
        # A seat with a time per move shows it in the others' clocks (section 7.4).
        self.clocks = [float(t.base if t.base is not None else t.movetime or 0)
                       for t in self.tcs]
        # The position sent to the agents: the first decision of the game (or after the
        # last retirement) and the turns and chance outcomes since; in a game with hidden
        # information each seat's view instead (no base, no events: they would tell).
        self.base: str | None = None
        self.events: list[str] = []
        self.line = ""  # the position line of base and events, extended event by event

    def play(self) -> GameRecord:
        state, game = self.state, self.game
        self._announce()
        while not state.is_over():
            if state.is_chance_node():
                text = game.sample_outcome(state, self.rng)
                game.apply_outcome(state, text)
                if self.base is not None:
                    self._extend(text)
                self._emit(Chance(text))
                continue
            if self.base is None and not self.views:
                self.base = game.to_position(state)
                self.line = str(Position(self.base))
            if self.simultaneous and game.is_simultaneous(state):
                self._simultaneous()
            else:
                self._turn(state.current_seat())
        self._finish()
        return self.record

    def _announce(self) -> None:
        state, game = self.state, self.game
        n = len(self.agents)
        ready = []
        retired = ([s.retired for s in game.standings(state)] if self.from_position
                   else [False] * n)  # a new game: no seat has retired (no scoring to ask)
        variant, edition = game.variant_of(state), game.edition_of(state).name
        for i, agent in enumerate(self.agents):
            if retired[i]:  # in the start position: the seat gets nothing
                continue
            if agent.fault is not None:
                self._retire(i, agent.fault)
                continue
            games = getattr(agent, "games", None)
            if games is None:  # an agent that names no games plays the unnamed one
                games = (game.name,) if unnamed(game.name) else ()
            if game.name not in games:
                self._retire(i, EngineFault("handshake", f"it does not play {game.name} "
                                            f"(it plays: {', '.join(games)})"))
                continue
            if (self.tcs[i].iterations is not None and agent.timed
                    and "iterations" not in getattr(agent, "features", ())):
                self._retire(i, EngineFault("handshake", "it takes no search budget (it does "
                                            "not declare 'feature iterations')"))
                continue
            try:
                agent.new_game(NewGame(n, i + 1, variant, edition, game.name))
                ready.append(i)
            except EngineFault as f:
                self._retire(i, f)
        for i in ready:
            try:
                self.agents[i].wait_ready()
            except EngineFault as f:
                self._retire(i, f)

    def _request(self, seat: int, sealed: bool = False) -> TurnRequest:
        """The request of ``seat``'s turn in the state now."""
        tc = self.tcs[seat]
        clock = None if tc.base is None else tuple(round(c) for c in self.clocks)
        line = (str(Position(self.views.view(self.state, seat))) if self.views is not None
                else self.line)
        return TurnRequest(self.state, seat, line, tc.movetime, clock, tc.inc, tc.margin,
                           self.game, sealed, iterations=tc.iterations, fast=self.fast)

    def _turn(self, seat: int) -> None:
        request = self._request(seat)
        try:
            answer = self.agents[seat].play_turn(request)
        except EngineFault as f:
            self._retire(seat, f)
            return
        turn = self._take(request, answer)
        if turn is not None:
            self.turns += 1
            self._extend(turn.move)
            self._emit(turn)

    def _simultaneous(self) -> None:
        """Ask every seat of the simultaneous node, each with the position as it was when
        the node was reached: the engines at once (or, without ``at_once``, one after the
        other), then the other agents (a person) one after the other. A seat that fails is
        retired there; the others' moves still apply. The moves are one turn."""
        requests = [self._request(s, sealed=True) for s in self.game.deciding_seats(self.state)]
        agents = [self.agents[r.seat] for r in requests]
        turns: list[Turn] = []
        sent: dict[Engine, TurnRequest] = {}
        asked: set[int] = set()  # the seats asked at once
        for r, agent in zip(requests, agents, strict=True):
            if self.at_once and isinstance(agent, Engine) and agents.count(agent) == 1:
                asked.add(r.seat)
                try:
                    agent.send_turn(r)
                    sent[agent] = r
                except EngineFault as f:
                    self._retire(r.seat, f)
        for engine, answer in answers_as_they_come(list(sent)):
            self._take_sealed(sent[engine], answer, turns)
        for r, agent in zip(requests, agents, strict=True):
            if r.seat not in asked:
                try:
                    answer = agent.play_turn(r)
                except EngineFault as f:
                    self._retire(r.seat, f)
                    continue
                self._take_sealed(r, answer, turns)
        if not turns:
            return
        turns.sort(key=lambda t: t.seat)
        self.turns += 1
        if self.base is not None:  # no seat retired here: the moves extend the events
            for t in turns:
                self._extend(t.move)
        self._emit(turns[0] if len(turns) == 1 else Simultaneous(turns))

    def _take_sealed(self, request: TurnRequest, answer: TurnAnswer | EngineFault,
                     turns: list[Turn]) -> None:
        if isinstance(answer, EngineFault):
            self._retire(request.seat, answer)
            return
        turn = self._take(request, answer)
        if turn is not None:
            turns.append(turn)

    def _take(self, request: TurnRequest, answer: TurnAnswer) -> Turn | None:
        """Apply the answer to ``request`` and charge the seat's clock: its turn, or None
        when the move is not legal (the seat is then retired)."""
        seat = request.seat
        try:
            text = request.apply(answer.move)  # a listed move unchecked: no undo copies
        except ValueError as e:  # NotationError or the game's illegal move
            # A sealed move is shown only when it takes effect (a refused one never does):
            # the detail, written in the record and the result, gives only why.
            sealed = self.game.hidden() is not None and self.game.is_simultaneous(self.state)
            self._retire(seat, EngineFault("illegal", str(e) if sealed
                                           else f"{answer.move}: {e}"))
            return None
        tc = self.tcs[seat]
        if self.agents[seat].timed and tc.base is not None:
            self.clocks[seat] = max(0.0, self.clocks[seat] - answer.ms) + tc.inc
        return Turn(seat + 1, text, answer.ms, answer.info)

    def _extend(self, event: str) -> None:
        """Add an event to those sent after the base position (``str(Position)``'s form)."""
        self.line += (SEP if self.events else " moves ") + event
        self.events.append(event)

    def _retire(self, seat: int, fault: EngineFault) -> None:
        self.agents[seat].retire(fault)
        self.state.retire(seat)
        # Events cannot say that a seat retired: the next position sent starts afresh.
        self.base = None
        self.events = []
        self.line = ""
        self.record.header.faults.append(Fault(seat + 1, fault.kind, fault.detail, self.turns))
        self._emit(Retire(seat + 1, fault.kind))

    def so_far(self) -> GameRecord:
        """The record of the game up to now, whatever moment an interruption came at.

        The header is rebuilt from the events alone (a fault whose retire event was not yet
        written is dropped): the termination is ``aborted`` with no result while the game is
        not over, else the finished game's result.
        """
        events = list(self.record.events)
        header = msgspec.structs.replace(self.record.header)
        header.faults = header.faults[:sum(1 for e in events if isinstance(e, Retire))]
        record = GameRecord(header, events)
        state = position_at(GameEntry(record), -1, self.game.edition_of(self.state))
        result, own, termination = final_result(state, self.game)
        if termination == "aborted":
            result, own = [], {}
        header.result, header.result_tags, header.termination = result, own, termination
        return record

    def _emit(self, event: Event) -> None:
        self.record.events.append(event)
        if self.on_event is not None:
            self.on_event(event, self.state)

    def _finish(self) -> None:
        state = self.state
        header = self.record.header
        header.result, header.result_tags, header.termination = final_result(state, self.game)
        for seat, agent in enumerate(self.agents, start=1):  # sandboxed engines (7.10)
            measure = getattr(agent, "game_usage", None)
            used = measure() if measure is not None else None
            if used is not None:
                header.extra[f"{USAGE}{seat}"] = usage_text(*used)
        final = Position(self.base or self.game.to_position(state), tuple(self.events))
        current: Position | None = None  # for feature currentposition: written when asked
        result = GameOver(tuple(r.rank for r in header.result))
        for i, agent in enumerate(self.agents):
            if header.result[i].retired:
                continue
            if self.views is not None:
                shown = Position(self.views.view(state, i))
            elif "currentposition" in getattr(agent, "features", ()):
                if current is None:
                    current = Position(self.game.to_position(state))
                shown = current
            else:
                shown = final
            agent.game_over(shown, result)


def describe_result(record: GameRecord) -> str:
    """The printed result: the ranking with the scores (or the game's own words for a
    seat's result, Sneferu's solo score), the faults."""
    h = record.header
    names = {s.seat: s.name for s in h.seats}
    turns = turn_count(record.events)
    try:
        tags = get_game(h.game).record_tags()
    except UnknownGame:
        tags = None
    why = {"normal": "the game reached its end", "all-retired": "every seat was retired",
           **(tags.termination_words() if tags is not None else {})}
    if h.termination == "aborted":
        return f"Game aborted after {plural(turns, 'turn')}."
    lines = [f"Game over after {plural(turns, 'turn')} ({why.get(h.termination or '', '?')})."]
    faults = {f.seat: f for f in h.faults}
    width = max((len(n) for n in names.values()), default=0)
    for r in sorted(h.result, key=lambda r: (r.rank, r.seat)):
        name = names.get(r.seat, "?")
        line = None if tags is None else tags.result_line(r, name, width, h.result_tags)
        if line is None:
            scores = "  ".join(f"{v:3} {k}" for k, v in r.score_items())
            line = f"  {r.rank}. seat {r.seat}  {name:<{width}}  {scores}"
        f = faults.get(r.seat)
        if f is not None:
            line += f"  retired at ply {f.ply}: {f.kind} ({f.detail})"
        lines.append(line)
    return "\n".join(lines)
