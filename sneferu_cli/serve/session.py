"""What the server does with a request: the open games and one result per request.

A :class:`Session` holds the open games by id (``g1``, ``g2``, ... never reused) up to a
limit, and turns each request into a result struct. Results encode to JSON as they are
(the ``result`` of a JSON-mode reply) and :meth:`Result.lines` gives their text-mode
content. Every problem is a ValueError (RequestError, NotationError, the rules' own,
EditionError) whose message is the error reply; the session is unchanged by it.

Every game is opened, played, drawn for, ranked, analysed and given edition files through
:mod:`sneferu_cli.game`; what is Sneferu's alone (its steps, ``builders=``, its turn field,
chance weights and state document, its own search) comes through the game's
capabilities (``Game.turn_steps()``, ``Game.record_tags()``, ``Game.tools()``'s
``search``). Another game's
moves are single decisions (no ``steps``), its state JSON is a :class:`GameDoc`, its
``analyse`` the generic search. A request's ``seat=N`` (SPEC 10.11) shows that seat's view
(``position``, ``state``, ``show``) and
speaks for that seat (``moves``, ``play``, ``analyse``).

>>> session = Session()
>>> session.handle(New(players=2, seed=3))
GameId(game='g1')
>>> drawn = session.handle(Chance("g1"))
>>> session.handle(Turn("g1")).lines()
['start:1:0']
>>> session.handle(Play("g1", "1.1 TG@1.1")).lines()
[]
>>> session.handle(Moves("g9"))
Traceback (most recent call last):
...
sneferu_cli.serve.requests.RequestError: no open game 'g9'
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from ..game import DEFAULT_GAME, SoloResult, get_game, seat_state, seat_view, unnamed
from ..game import Game as Rules
from ..record.jsonl import read_any
from ..record.model import SeatResult
from ..record.replay import edition_for, final_result, position_at, verify
from ..record.text import GameEntry, RecordError, RecordFile, decode_records
from ..search import AnalysisDoc, analyse, analysis_doc, analysis_lines
from .files import FileAccess
from .game import Game
from .requests import (
    COMMANDS,
    SYNTAX,
    Analyse,
    Chance,
    Close,
    Commands,
    Games,
    Help,
    Load,
    LoadRecord,
    Moves,
    New,
    Outcomes,
    Play,
    Position,
    Quit,
    Ranking,
    Request,
    RequestError,
    Show,
    State,
    Step,
    Steps,
    Turn,
    Undo,
    Verify,
)
from .state_json import OutcomeOdds, outcome_odds, state_doc

HOST_ONLY = (Close, Chance, Undo)
"""The requests on a game that are the host's alone (SPEC 10.11): they refuse ``seat=``."""

MAX_GAMES = 100
"""How many games may be open at once unless the server is told otherwise."""

MAX_ANALYSE_MS = 10_000
"""The longest an ``analyse`` request may search, in ms, unless the server is told otherwise."""

ANALYSE_MS = 1000
"""How long ``analyse`` searches when given neither iterations nor a movetime."""


class Result(msgspec.Struct, frozen=True):
    """The content of a success reply."""

    def lines(self) -> list[str]:
        """The text-mode content: lines, none of them empty.

        By default a result's one field: a string is a line, a list of strings a line each.
        """
        values = [getattr(self, f) for f in self.__struct_fields__]
        if not values:
            return []
        (value,) = values
        return [value] if isinstance(value, str) else list(value)


class GameId(Result, frozen=True):
    game: str


class GameInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """An open game: id, edition, variant, seats, seed, turn field, entries applied, and
    the game it plays (its registered name; left out for Sneferu)."""

    game: str
    edition: str
    variant: str
    players: int
    seed: int
    turn: str
    history: int
    plays: str = DEFAULT_GAME


class GameList(Result, frozen=True):
    games: list[GameInfo]

    def lines(self) -> list[str]:
        return [" ".join([g.game] + [f"{k}={getattr(g, k)}" for k in g.__struct_fields__[1:]
                                     if k != "plays" or not unnamed(g.plays)])
                for g in self.games]


class MoveList(Result, frozen=True):
    moves: list[str]


class StepList(Result, frozen=True):
    steps: list[str]


class OutcomeList(Result, frozen=True):
    outcomes: list[OutcomeOdds]

    def lines(self) -> list[str]:
        return [f"{o.outcome} {o.probability:.6f} {o.weight}" + (" part" if o.part else "")
                for o in self.outcomes]


class Drawn(Result, frozen=True):
    """The chance outcomes applied, in order."""

    drawn: list[str]


class Undone(Result, frozen=True):
    """The entries undone (moves, steps, outcomes), in the order they had been applied."""

    undone: list[str]


class PositionText(Result, frozen=True):
    position: str


class StateResult(Result, frozen=True):
    state: Any
    """A :class:`~.state_json.GameDoc`, or the game's own document (Sneferu's)."""

    def lines(self) -> list[str]:
        return [msgspec.json.encode(self.state).decode()]


class Picture(Result, frozen=True):
    picture: str

    def lines(self) -> list[str]:
        return [line for line in self.picture.splitlines() if line.strip()]


class TurnField(Result, frozen=True):
    turn: str


class Solo(msgspec.Struct, frozen=True, omit_defaults=True):
    """A solo game's result against the game's automaton (``RecordTags.solo_of``): won,
    the automaton's count (``ptah``, Sneferu's automaton, as the protocol names it), and
    when won the score and title."""

    won: bool
    against: int = msgspec.field(name="ptah")
    score: int | None = None
    title: str | None = None

    @classmethod
    def of(cls, solo: SoloResult) -> Solo:
        return cls(*solo)


class Standings(Result, frozen=True, omit_defaults=True):
    """Every seat's standing in seat order; ``solo`` only in a solo game."""

    ranking: list[SeatResult]
    solo: Solo | None = None

    def lines(self) -> list[str]:
        out = [" ".join([f"seat={r.seat} rank={r.rank}"]
                        + [f"{k}={v}" for k, v in r.scores.items()]
                        + [f"retired={'yes' if r.retired else 'no'}"]) for r in self.ranking]
        s = self.solo
        if s is not None:
            out.append(f"solo won={'yes' if s.won else 'no'} ptah={s.against}"
                       + (f" score={s.score} title={s.title}" if s.won else ""))
        return out


class GameCheck(msgspec.Struct, frozen=True, omit_defaults=True):
    """One game of a record verified: its number in the file, and turns or what failed."""

    number: int
    valid: bool
    turns: int | None = None
    error: str | None = None


class Verification(Result, frozen=True):
    games: list[GameCheck]

    def lines(self) -> list[str]:
        return [f"number={g.number} " + (f"valid turns={g.turns}" if g.valid
                                          else f"invalid {' '.join(str(g.error).split())}")
                for g in self.games]


class Analysed(Result, frozen=True):
    """The best moves found by an ``analyse`` request."""

    analysis: AnalysisDoc

    def lines(self) -> list[str]:
        return analysis_lines(self.analysis)


class CommandList(Result, frozen=True):
    commands: list[str]


class HelpText(Result, frozen=True):
    help: str

    def lines(self) -> list[str]:
        return [line for line in self.help.splitlines() if line.strip()]


class Session:
    """The open games of one server, and what each request does to them."""

    def __init__(self, max_games: int = MAX_GAMES, files: FileAccess | None = None,
                 max_analyse_ms: int = MAX_ANALYSE_MS) -> None:
        self.max_games = max_games
        self.files = files or FileAccess(None)
        self.max_analyse_ms = max_analyse_ms
        self.games: dict[str, Game] = {}
        self.quitting = False
        self._opened = 0

    def handle(self, request: Request) -> Result:
        """Serve one request; raise a ValueError whose message is the error reply."""
        if isinstance(request, HOST_ONLY) and request.seat is not None:
            raise RequestError(f"{request.__struct_config__.tag}: a request of the host's "
                               "alone, not of a seat's client (SPEC 10.11): leave out seat=")
        match request:
            case New():
                self._check_room()
                rules = get_game(request.game)
                edition = self._edition(request.edition, rules)
                tags = rules.record_tags()
                if request.setup is None:
                    state = rules.new_game(request.players, variant=request.variant,
                                           edition=edition)
                elif tags is not None and request.variant is None:
                    state = tags.new_game(request.players, request.setup, edition=edition)
                else:
                    raise RequestError("new: builders= is the seat set-up of a game that "
                                       "has one (not with variant= or another game)")
                return self._open(Game(state, request.seed, rules))
            case Load():
                self._check_room()
                rules = get_game(request.game)
                edition = self._edition(request.edition, rules)
                state = rules.from_position(request.position, edition)
                return self._open(Game(state, request.seed, rules))
            case LoadRecord():
                self._check_room()
                state, rules = self._record_position(request)
                return self._open(Game(state, request.seed, rules))
            case Games():
                return GameList([self._info(gid, g) for gid, g in self.games.items()])
            case Close():
                self._game(request.game)
                del self.games[request.game]
                return Result()
            case Moves():
                game = self._game(request.game)
                state = game.state
                seat = _seat(game, request.seat)
                return MoveList([] if state.is_over() or state.is_chance_node()
                                else game.rules.legal_moves(state) if seat is None
                                else game.rules.legal_moves(state, seat))
            case Steps():
                game = self._sneferu(request.game, "steps")
                assert game.steps is not None
                seat = _seat(game, request.seat)
                return StepList([] if seat is not None
                                and seat not in game.rules.deciding_seats(game.state)
                                else game.steps.legal_steps(game.state))
            case Outcomes():
                game = self._game(request.game)
                known = _known(game, _seat(game, request.seat))
                return OutcomeList(outcome_odds(game.rules, known, tuple(request.after)))
            case Play():
                game = self._game(request.game)
                game.play(request.move, _seat(game, request.seat))
                return Result()
            case Step():
                game = self._sneferu(request.game, "step")
                seat = _seat(game, request.seat)
                if seat is not None and seat not in game.rules.deciding_seats(game.state):
                    raise RequestError(f"seat {seat + 1} has no decision to take now")
                game.step(request.step)
                return Result()
            case Chance():
                game = self._game(request.game)
                given = (None if request.outcome is None
                         else game.rules.canonical_outcome(request.outcome))
                return Drawn(game.chance(given))
            case Undo():
                game = self._game(request.game)
                return Undone([str(e) for e in game.undo(request.turn)])
            case Position():
                game = self._game(request.game)
                seat = _seat(game, request.seat)
                return PositionText(game.rules.to_position(game.state) if seat is None
                                    else seat_view(game.rules, game.state, seat))
            case State():
                game = self._game(request.game)
                seat = _seat(game, request.seat)
                return StateResult(state_doc(_known(game, seat), request.legal, game.rules,
                                             seat))
            case Show():
                game = self._game(request.game)
                seat = _seat(game, request.seat)
                shown = (game.state if seat is None or game.rules.hidden() is None
                         else game.rules.shown_state(game.state, seat))
                return Picture(game.rules.picture(shown))
            case Turn():
                game = self._game(request.game)
                return TurnField(_turn_field(game, _known(game, _seat(game, request.seat))))
            case Ranking():
                game = self._game(request.game)
                return _standings(game, _known(game, _seat(game, request.seat)))
            case Analyse():
                return self._analyse(request)
            case Verify():
                return self._verification(request)
            case Commands():
                return CommandList(list(COMMANDS))
            case Help(game=None):
                return HelpText("\n".join(SYNTAX))
            case Help():
                assert request.game is not None
                return HelpText(self._game(request.game).rules.move_help)
            case Quit():
                self.quitting = True
                return Result()
        raise RequestError(f"unknown request {request!r}")  # pragma: no cover

    def game_name(self, gid: str) -> str:
        """The name of the game the open game ``gid`` plays (Sneferu's when none is open)."""
        game = self.games.get(gid)
        return game.rules.name if game is not None else DEFAULT_GAME

    def _sneferu(self, gid: str, what: str) -> Game:
        """The open game ``gid``, which must be one whose turns are several steps (Sneferu,
        ``Game.turn_steps``; for ``what``)."""
        game = self._game(gid)
        if game.steps is None:
            raise RequestError(f"{what}: Sneferu's only; {gid} plays {game.rules.name}, "
                               "whose moves are single decisions (moves, play)")
        return game

    def _analyse(self, request: Analyse) -> Analysed:
        """Search the game's position within the server's bound on time (SPEC 10.9):
        Sneferu with its own search, another game with the generic one."""
        game = self._game(request.game)
        if request.iterations is not None and request.movetime is not None:
            raise RequestError("analyse: give iterations or movetime, not both")
        for name in ("iterations", "movetime"):
            value = getattr(request, name)
            if value is not None and value < 1:
                raise RequestError(f"analyse: {name} must be at least 1")
        if request.top < 0:
            raise RequestError("analyse: top must be 0 (all) or more")
        limit = self.max_analyse_ms
        if request.movetime is not None and request.movetime > limit:
            raise RequestError(f"analyse: movetime {request.movetime} is over the server's "
                               f"bound of {limit} ms (--max-analyse-ms)")
        ms = request.movetime or (min(ANALYSE_MS, limit) if request.iterations is None
                                  else limit)
        seat = _seat(game, request.seat)
        deadline = time.perf_counter() + ms / 1000
        iterations = request.iterations or 0
        result = analyse(game.rules, game.state, seat=seat, iterations=iterations,
                         deadline=deadline, seed=request.seed)
        return Analysed(analysis_doc(result, request.top))

    def _check_room(self) -> None:
        if len(self.games) >= self.max_games:
            raise RequestError(f"too many open games ({self.max_games}, the server's "
                               "--max-games); close one first")

    def _open(self, game: Game) -> GameId:
        self._opened += 1
        gid = f"g{self._opened}"
        self.games[gid] = game
        return GameId(gid)

    def _game(self, gid: str) -> Game:
        try:
            return self.games[gid]
        except KeyError:
            raise RequestError(f"no open game {gid!r}") from None

    def _edition(self, name: str, rules: Rules) -> Any:
        """``standard`` (the game's standard edition), or an edition file of the game that
        the server may read (SPEC 10.8)."""
        if name == "standard":
            return rules.standard_edition()
        data = self.files.read(name, "edition")
        try:
            return rules.parse_edition(data, name)
        except Exception:  # EditionError, not UTF-8, ...: its text may quote the file
            game = "" if unnamed(rules.name) else f" --game {rules.name}"
            raise RequestError(f"{name}: not a usable edition file (the server does not "
                               f"quote files; sneferu position new{game} --edition says "
                               "more)") from None

    def _record_file(self, request: LoadRecord | Verify) -> RecordFile:
        """The games of the record a request names: a file, or one record given inline."""
        if (request.path is None) == (request.record is None):
            raise RequestError(f"{request.__struct_config__.tag}: give a record file's path "
                               "or one record, not both")
        if request.record is not None:
            return RecordFile("<request>", [GameEntry(request.record)], [])
        path = request.path
        assert path is not None
        data = self.files.read(path, "record")
        try:
            return read_any(decode_records(data, path), path)
        except RecordError as e:  # its reason may quote the file: name the place only
            where = ", ".join([path] + ([f"game {e.game}"] if e.game else [])
                              + ([f"line {e.line}"] if e.line else []))
            raise RequestError(f"{where}: not a valid record (the server does not quote "
                               "files; sneferu replay says more)") from None

    def _record_editions(self, name: str, game: str, read: dict[str, list[Any]]) -> list[Any]:
        """The editions a record's game of ``game`` may name besides the standard one: the
        file given if any, read as that game's edition once (``read`` keeps it by game)."""
        if name == "standard":
            return []
        if game not in read:
            read[game] = [self._edition(name, get_game(game))]
        return read[game]

    def _record_position(self, request: LoadRecord) -> tuple[Any, Rules]:
        rf = self._record_file(request)
        entry = next((g for g in rf.games if g.number == request.number), None)
        if entry is None:
            for cut in rf.cut_off:
                if cut.game == request.number:
                    raise cut
            raise RequestError(f"{rf.source} holds {len(rf.games) + len(rf.cut_off)} "
                               f"game(s), there is no game {request.number}")
        rules = get_game(entry.record.header.game)
        edition = edition_for(entry.record.header,
                              self._record_editions(request.edition, rules.name, {}))
        return position_at(entry, request.ply, edition, rf.source), rules

    def _verification(self, request: Verify) -> Verification:
        rf = self._record_file(request)
        read: dict[str, list[Any]] = {}
        checks = [GameCheck(cut.game or 0, False, error=str(cut)) for cut in rf.cut_off]
        for entry in rf.games:
            header = entry.record.header
            editions = self._record_editions(request.edition, header.game, read)
            try:
                v = verify(entry, edition_for(header, editions), rf.source)
            except ValueError as e:  # ReplayError, RecordError, an edition not given
                checks.append(GameCheck(entry.number, False, error=str(e)))
            else:
                checks.append(GameCheck(entry.number, True, turns=v.turns))
        return Verification(sorted(checks, key=lambda c: c.number))

    @staticmethod
    def _info(gid: str, game: Game) -> GameInfo:
        rules, state = game.rules, game.state
        return GameInfo(gid, rules.edition_of(state).name, rules.variant_of(state),
                        rules.players_of(state), game.seed, _turn_field(game, state),
                        len(game.history), rules.name)


def _turn_field(game: Game, state: Any) -> str:
    """The turn field of ``state`` (the game's, or what a seat knows of it): Sneferu's of
    its position notation; another game's ``over``, ``chance``, ``seat:N``, the seat
    (1-based) to decide, or at a simultaneous node ``seats:N,M``, the seats whose sealed
    moves are still to come (in a seat's view: as far as that seat knows)."""
    if game.steps is not None:
        return game.steps.turn_field(state)
    if state.is_over():
        return "over"
    if state.is_chance_node():
        return "chance"
    if game.rules.is_simultaneous(state):
        return "seats:" + ",".join(str(s + 1) for s in game.rules.deciding_seats(state))
    return f"seat:{state.current_seat() + 1}"


def _seat(game: Game, seat: int | None) -> int | None:
    """A request's ``seat=`` (1-based) as a 0-based seat of the game, or None."""
    if seat is None:
        return None
    players = game.rules.players_of(game.state)
    if not 1 <= seat <= players:
        raise RequestError(f"seat={seat}: the game has {players} seats")
    return seat - 1


def _known(game: Game, seat: int | None) -> Any:
    """What ``seat`` may know of the game: the state its view describes (the whole state
    when no seat is named, or nothing is hidden)."""
    rules, state = game.rules, game.state
    if seat is None or rules.hidden() is None:
        return state
    return seat_state(rules, state, seat)


def _standings(game: Game, state: Any) -> Standings:
    ranking, own, _termination = final_result(state, game.rules)
    tags = game.rules.record_tags()
    solo = None if tags is None else tags.solo_of(own)
    return Standings(ranking, None if solo is None else Solo.of(solo))


