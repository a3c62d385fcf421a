"""The engine protocol's messages: one value per line, in both directions.

Grammar ``protocol/engine.lark`` (SPEC.md, "The engine protocol"). Every message prints as
its line (``str``); :func:`parse_engine_line` reads what an engine sends and
:func:`parse_arbiter_line` what the arbiter sends, both as the grammar defines, so
``parse(str(m)) == m`` for every message ``m``. The frequent lines (``move``, ``readyok``,
``info``, and the short arbiter lines) are matched by regular expressions that accept
exactly the grammar's language for them; every other line goes through Lark.

>>> str(Go(movetime=200, legal=("1.1 TG@1.1", "end")))
'go movetime 200 legalmoves 1.1 TG@1.1 ; end'
>>> parse_engine_line("move 1.1  TG@1.1\\r")
Answer(move='1.1 TG@1.1')
>>> parse_engine_line("info nodes 10 pv 1.1 TG@1.1 ; 2.1 BT@1.1").fields
{'nodes': '10', 'pv': '1.1 TG@1.1 ; 2.1 BT@1.1'}

Another game's moves are words (SPEC 6.1): its lines are read with ``game=`` its name,
the words checked by the game, not here.

>>> str(NewGame(2, 1, "standard", "standard")), str(NewGame(2, 1, "a", "standard", "nim"))
('newgame players 2 seat 1 variant standard edition standard', \
'newgame players 2 seat 1 variant a edition standard game nim')
>>> parse_engine_line("move  take 3", game="nim"), str(Feature("games", ("sneferu", "nim")))
(Answer(move='take 3'), 'feature games sneferu nim')
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import msgspec

from ..game import DEFAULT_GAME, MAX_DIGITS, NotationError, get_game, unnamed
from ..grammar import parse

if TYPE_CHECKING:
    from lark import Token, Tree

__all__ = [  # noqa: RUF022 (constants first, then the messages in protocol order)
    "LINE_LIMIT", "PROTOCOL_VERSION", "SEP",
    "ArbiterMessage", "GameOver", "Go", "IsReady", "NewGame", "Position", "Quit", "SetOption",
    "Sneferu",
    "Answer", "EngineMessage", "Feature", "Id", "Info", "OptionSpec", "ReadyOk", "SneferuOk",
    "is_listed_in", "parse_arbiter_line", "parse_engine_line", "read_arbiter_line",
    "with_legal",
]

PROTOCOL_VERSION = 1
"""The protocol version this arbiter speaks (sent as ``sneferu 1``)."""

LINE_LIMIT = 65536
"""The longest line an engine may send, in bytes without the LF; longer is a flood."""

SEP = " ; "
"""Separates the moves (and chance outcomes) of a list on one line."""

# ------------------------------------------------------------------ arbiter to engine


class Sneferu(msgspec.Struct, frozen=True):
    """Opens the handshake; the engine answers id, option and feature lines, then sneferuok."""

    version: int = PROTOCOL_VERSION

    def __str__(self) -> str:
        return f"sneferu {self.version}"


class SetOption(msgspec.Struct, frozen=True):
    """Set one of the options the engine declared (no value for a button)."""

    name: str
    value: str | None = None

    def __str__(self) -> str:
        return f"setoption name {self.name}" + ("" if self.value is None
                                                 else f" value {self.value}")


class IsReady(msgspec.Struct, frozen=True):
    """A ping: the engine answers readyok once it has dealt with everything before it."""

    def __str__(self) -> str:
        return "isready"


class NewGame(msgspec.Struct, frozen=True):
    """A new game: seats (1 = solo against Ptah), the engine's own seat (1-based), rules,
    and the game's name; a Sneferu line names no game (as in version 1)."""

    players: int
    seat: int
    variant: str
    edition: str
    game: str = DEFAULT_GAME

    def __str__(self) -> str:
        line = (f"newgame players {self.players} seat {self.seat} variant {self.variant} "
                f"edition {self.edition}")
        return line if unnamed(self.game) else f"{line} game {self.game}"


class Position(msgspec.Struct, frozen=True):
    """The current position: ``position`` (position notation) and the events since it.

    ``events`` are whole turns in move notation and chance outcomes (``~BT``), in order.
    """

    position: str
    events: tuple[str, ...] = ()

    def __str__(self) -> str:
        if not self.events:
            return f"position {self.position}"
        return f"position {self.position} moves {SEP.join(self.events)}"


class Go(msgspec.Struct, frozen=True):
    """The request to move: a fixed time per move, or every seat's clock and the increment.

    Times are milliseconds. ``iterations`` (only for engines declaring ``feature
    iterations``) is a fixed search budget; ``legal`` (only for engines declaring
    ``feature legalmoves``) lists every legal move.

    >>> str(Go(movetime=60000, iterations=2000, legal=("end",)))
    'go movetime 60000 iterations 2000 legalmoves end'
    """

    movetime: int | None = None
    clock: tuple[int, ...] | None = None
    inc: int = 0
    legal: tuple[str, ...] | None = None
    iterations: int | None = None

    def __str__(self) -> str:
        if self.clock is not None:
            times = " ".join(str(t) for t in self.clock)
            line = f"go clock {times} inc {self.inc}"
        else:
            line = f"go movetime {self.movetime}"
        if self.iterations is not None:
            line = f"{line} iterations {self.iterations}"
        return line if self.legal is None else with_legal(line, SEP.join(self.legal))


def with_legal(go: str, legal: str) -> str:
    """A ``go`` line with its legal moves, given already separated by ``SEP`` (the arbiter
    joins a position's list once): ``str(Go(..., legal=moves))`` is
    ``with_legal(str(Go(...)), SEP.join(moves))``."""
    return f"{go} legalmoves {legal}"


def is_listed_in(line: str, move: str) -> bool:
    """Whether ``move`` is one of the texts ``SEP`` joined into ``line`` (as
    ``move in line.split(SEP)``, without splitting: no listed text holds a ``;``, so
    every ``;`` of ``line`` is a separator's)."""
    if ";" in move:
        return False
    return (line == move or line.startswith(move + SEP) or line.endswith(SEP + move)
            or f"{SEP}{move}{SEP}" in line)


class GameOver(msgspec.Struct, frozen=True):
    """The game is over: each seat's place, seat 1 first (shared places repeat)."""

    ranks: tuple[int, ...]

    def __str__(self) -> str:
        return "gameover ranks " + " ".join(str(r) for r in self.ranks)


class Quit(msgspec.Struct, frozen=True):
    """The engine must exit."""

    def __str__(self) -> str:
        return "quit"


ArbiterMessage = Sneferu | SetOption | IsReady | NewGame | Position | Go | GameOver | Quit


# ------------------------------------------------------------------ engine to arbiter


class Id(msgspec.Struct, frozen=True):
    """``id name TEXT`` or ``id author TEXT``."""

    field: str
    value: str

    def __str__(self) -> str:
        return f"id {self.field} {self.value}"


class OptionSpec(msgspec.Struct, frozen=True):
    """An option the engine declares: ``kind`` is check, spin, combo, string or button."""

    name: str
    kind: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        line = f"option name {self.name} type {self.kind}"
        if self.kind == "spin":
            return line + f" default {self.default} min {self.min} max {self.max}"
        if self.kind == "combo":
            return line + f" default {self.default}" + "".join(f" var {c}" for c in self.choices)
        if self.kind in ("check", "string") and self.default:
            return line + f" default {self.default}"
        return line

    def check_value(self, value: str | None) -> str | None:
        """``value`` as it will be sent, or ValueError saying why this option refuses it."""
        what = f"option {self.name} ({self.kind})"
        if self.kind == "button":
            if value not in (None, ""):
                raise ValueError(f"{what} takes no value")
            return None
        if value is None:
            raise ValueError(f"{what} needs a value")
        if self.kind == "check" and value not in ("true", "false"):
            raise ValueError(f"{what}: {value!r} is not true or false")
        if self.kind == "spin":
            try:
                n = int(value)
            except ValueError:
                raise ValueError(f"{what}: {value!r} is not an integer") from None
            assert self.min is not None and self.max is not None
            if not self.min <= n <= self.max:
                raise ValueError(f"{what}: {n} is not within {self.min}..{self.max}")
            return str(n)
        if self.kind == "combo" and value not in self.choices:
            raise ValueError(f"{what}: {value!r} is not one of {' '.join(self.choices)}")
        if self.kind == "string" and ("\n" in value or "\r" in value):
            raise ValueError(f"{what}: a value is one line")
        return value


class Feature(msgspec.Struct, frozen=True):
    """An opt-in the engine asks for (``legalmoves``, ``currentposition``), or ``games``
    and the names of the games it plays (without it: Sneferu only)."""

    name: str
    games: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(("feature", self.name, *self.games))


class SneferuOk(msgspec.Struct, frozen=True):
    """Ends the handshake."""

    def __str__(self) -> str:
        return "sneferuok"


class ReadyOk(msgspec.Struct, frozen=True):
    """The answer to ``isready``."""

    def __str__(self) -> str:
        return "readyok"


class Info(msgspec.Struct, frozen=True):
    """Information about the search: key-value fields; ``pv`` and ``string`` come last."""

    fields: dict[str, str] = {}

    def __str__(self) -> str:
        parts = ["info"]
        tail: list[str] = []
        for key, value in self.fields.items():
            (tail if key in ("pv", "string") else parts).append(f"{key} {value}")
        return " ".join(parts + tail[:1])


class Answer(msgspec.Struct, frozen=True):
    """The engine's move: one whole turn in move notation (canonical spacing)."""

    move: str

    def __str__(self) -> str:
        return f"move {self.move}"


EngineMessage = Id | OptionSpec | Feature | SneferuOk | ReadyOk | Info | Answer


# ------------------------------------------------------------------ parsing


_has_word_moves: Final[Callable[[str], bool]] = functools.cache(lambda game: not unnamed(game))
"""Whether ``game`` is named, so has word moves; cached (in C): asked at every engine line,
and a call into interpreted code costs more than reading the line."""


def parse_engine_line(line: str, game: str = DEFAULT_GAME) -> EngineMessage:
    """Read one line from an engine (CR and surrounding blanks removed); NotationError if bad.

    ``game``: the game being played; another game than Sneferu has word moves (the rule
    ``game_engine_line``). An empty line is not a message: the caller skips it first.
    """
    text = line.strip(" \t\r\n")
    if _has_word_moves(game):
        fast = _fast_engine_line(text, _GAME_ANSWER_RE, _GAME_INFO_RE)
        return fast if fast is not None else _lark_engine_line(text, "game_engine_line")
    fast = _fast_engine_line(text)
    return fast if fast is not None else _lark_engine_line(text)


def _lark_engine_line(text: str, start: str = "engine_line") -> EngineMessage:
    from lark import Tree

    tree = parse("engine", start, text, "engine line")
    kind = tree.data
    toks = _tokens(tree)
    if kind in ("answer", "game_answer"):
        return Answer(_move(tree.children[0]))
    if kind in ("info", "game_info"):
        fields: dict[str, str] = {}
        for child in tree.children:
            assert isinstance(child, Tree)
            if child.data == "info_field":
                fields[str(child.children[0])] = str(child.children[1])
            elif child.data in ("pv", "game_pv"):
                fields["pv"] = SEP.join(_move(m) for m in child.children)
            else:
                fields["string"] = str(child.children[0])
        return Info(fields)
    if kind == "readyok":
        return ReadyOk()
    if kind == "sneferuok":
        return SneferuOk()
    if kind == "feature":
        if toks[0].type == "FEATURE":
            return Feature(str(toks[0]))
        return Feature("games", tuple(str(t) for t in toks))
    if kind == "id":
        return Id(str(toks[0]), str(toks[1]))
    return _option(tree)


def _option(tree: Tree[Token]) -> OptionSpec:
    from lark import Tree

    name = str(tree.children[0])
    spec = tree.children[1]
    assert isinstance(spec, Tree)
    kind = str(spec.data)
    args = [str(t) for t in _tokens(spec)]
    if kind == "spin":
        default, lo, hi = (int(a) for a in args)
        if not lo <= default <= hi:
            raise NotationError(f"option {name}: default {default} is not within {lo}..{hi}")
        return OptionSpec(name, kind, str(default), lo, hi)
    if kind == "combo":
        if args[0] not in args[1:]:
            raise NotationError(f"option {name}: default {args[0]!r} is not one of its vars")
        return OptionSpec(name, kind, args[0], choices=tuple(args[1:]))
    return OptionSpec(name, kind, args[0] if args else None)


def parse_arbiter_line(line: str) -> ArbiterMessage:
    """Read one line from the arbiter; NotationError for a line version 1 does not define.

    Engines must ignore such lines (a later version may add messages).
    """
    text = line.rstrip("\r\n")
    fast = _fast_arbiter_line(text)
    return fast if fast is not None else _lark_arbiter_line(text)


def _lark_arbiter_line(text: str) -> ArbiterMessage:
    from lark import Tree

    tree = parse("engine", "arbiter_line", text, "arbiter line")
    kind = tree.data
    toks = _tokens(tree)
    if kind == "go":
        timing, *rest = tree.children
        assert isinstance(timing, Tree)
        times = [int(t) for t in _tokens(timing)]
        iterations = None
        if rest and isinstance(rest[0], Tree) and rest[0].data == "budget":
            iterations = int(_tokens(rest.pop(0))[0])
        legal = tuple(_move(m) for m in rest) if rest else None
        if timing.data == "movetime":
            return Go(movetime=times[0], legal=legal, iterations=iterations)
        return Go(clock=tuple(times[:-1]), inc=times[-1], legal=legal, iterations=iterations)
    if kind == "position_cmd":
        pos = tree.children[0]
        assert isinstance(pos, Tree)
        ptoks = _tokens(pos)
        return Position(text[ptoks[0].start_pos:ptoks[-1].end_pos],
                        tuple(_move(e) for e in tree.children[1:]))
    if kind == "newgame":
        players, seat = int(toks[0]), int(toks[1])
        if not 1 <= seat <= players <= 4:
            raise NotationError(f"arbiter line: seat {seat} of {players} players")
        return NewGame(players, seat, *(str(t) for t in toks[2:5]))
    if kind == "setoption":
        return SetOption(str(toks[0]), str(toks[1]) if len(toks) > 1 else None)
    if kind == "isready":
        return IsReady()
    if kind == "sneferu":
        return Sneferu(int(toks[0]))
    if kind == "gameover":
        return GameOver(tuple(int(t) for t in toks))
    return Quit()


def read_arbiter_line(line: str) -> ArbiterMessage:
    """For engines: :func:`parse_arbiter_line`, but ``position`` and ``go`` lines, the long
    and frequent ones, are split at their keywords instead of parsed (a whole game's
    position line takes milliseconds through the grammar).

    Nothing goes unchecked for an engine that uses the result: the position and every event
    it applies go through their own grammars (``from_position``, ``Move.from_str``).
    """
    text = line.rstrip("\r\n")
    if text.startswith("position "):
        position, _, events = text[len("position "):].partition(" moves ")
        if position and " " in position:
            return Position(position, tuple(events.split(SEP)) if events else ())
    elif text.startswith("go "):
        head, _, legal = text.partition(" legalmoves ")
        words = head.split(" ")
        with contextlib.suppress(ValueError, IndexError):
            moves = tuple(legal.split(SEP)) if legal else None
            iterations = None
            if len(words) > 3 and words[-2] == "iterations":
                iterations = int(words[-1])
                del words[-2:]
            if words[1] == "movetime" and len(words) == 3:
                return Go(movetime=int(words[2]), legal=moves, iterations=iterations)
            if words[1] == "clock" and words[-2] == "inc" and len(words) > 4:
                return Go(clock=tuple(int(w) for w in words[2:-2]), inc=int(words[-1]),
                          legal=moves, iterations=iterations)
    return parse_arbiter_line(text)


# ------------------------------------------------------------------ fast paths
#
# The lines that come every turn (and the short ones a bot reads) are matched by regular
# expressions that accept exactly the grammar's language for them and give the same value;
# anything else returns None and goes through Lark, which gives the value or words the
# error. tests/test_protocol_fast.py checks the agreement on generated lines and mutations.

_FAST = get_game(DEFAULT_GAME).fast_paths()
_MOVE = (_FAST and _FAST.move_pattern) or r"(?!)"
"""The default game's move notation as a regular expression (``FastPaths.move_pattern``
of its ``Game.fast_paths()``; one that matches nothing when it has none, so that every
``move`` goes through Lark)."""
_ANSWER_RE = re.compile(rf"move +({_MOVE})")
_FIELD = r"(?!pv\b|string\b)[a-z][a-z0-9_]* +[^ \t]+"
_INFO_RE = re.compile(rf"info((?: +{_FIELD})*)(?: +pv +({_MOVE}(?: *; *{_MOVE})*)"
                      r"| +string +([^ \t](?:.*[^ \t])?))?")
_FIELD_RE = re.compile(r" +([a-z][a-z0-9_]*) +([^ \t]+)")
_GAME_WORD = r"[^\s~{;][^\s;]*"
_GAME_MOVE = rf"{_GAME_WORD}(?: +{_GAME_WORD})*"
"""Another game's move as ``game_move`` reads it: words, no blank or ``;`` in a word."""
_GAME_ANSWER_RE = re.compile(rf"move +({_GAME_MOVE})")
_GAME_INFO_RE = re.compile(rf"info((?: +{_FIELD})*)(?: +pv +({_GAME_MOVE}(?: *; *{_GAME_MOVE})*)"
                           r"| +string +([^ \t](?:.*[^ \t])?))?")
_PV_SEP_RE = re.compile(r" *; *")
_NUMBER = f"-?[0-9]{{1,{MAX_DIGITS}}}"
"""A number the grammar's reader accepts (:func:`~sneferu_cli.game.bound_numbers`)."""
_INT = f"({_NUMBER})"
_SNEFERU_RE = re.compile(rf"sneferu +{_INT}")
_NEWGAME_RE = re.compile(rf"newgame +players +{_INT} +seat +{_INT} +variant +"
                         r"([A-Za-z0-9][A-Za-z0-9_.+-]*) +edition +([A-Za-z0-9][A-Za-z0-9_.+-]*)"
                         r"(?: +game +([a-z][a-z0-9_-]*))?")
_SETOPTION_RE = re.compile(r"setoption +name +([A-Za-z][A-Za-z0-9_]*)"
                           r"(?: +value +([^ \t](?:.*[^ \t])?))?")
_GAMEOVER_RE = re.compile(rf"gameover +ranks((?: +{_NUMBER})+)")
_REST = r"([^ \t](?:.*[^ \t])?)"
_WORD = r"[A-Za-z0-9][A-Za-z0-9_.+-]*"
_ID_RE = re.compile(rf"id +(name|author) +{_REST}")
_GAMES_RE = re.compile(r"feature +games((?: +[a-z][a-z0-9_-]*)+)")
_FEATURE_RE = re.compile(r"feature +(legalmoves|currentposition|iterations)")
_OPTION_RE = re.compile(
    r"option +name +([A-Za-z][A-Za-z0-9_]*) +type +(?:"
    r"(check) +default +(true|false)"
    rf"|(spin) +default +{_INT} +min +{_INT} +max +{_INT}"
    rf"|(combo) +default +({_WORD})((?: +var +{_WORD})+)"
    rf"|(string)(?: +default +{_REST})?"
    r"|(button))")


def _canonical(move: str) -> str:
    """A move matched by ``_MOVE``, with single spaces."""
    if "  " in move or not move.isprintable() or move[:1] == " " or move[-1:] == " ":
        return " ".join(move.split())
    return move  # the usual case: already so (no other space is printable)


def _fast_engine_line(text: str, answer: re.Pattern[str] = _ANSWER_RE,
                      info: re.Pattern[str] = _INFO_RE) -> EngineMessage | None:
    """``move``, ``readyok``, ``info`` and the handshake's lines (surrounding blanks
    removed), else None. ``answer`` and ``info`` read the ``move`` and ``info`` lines:
    Sneferu's by default, another game's (``game_engine_line``) with ``_GAME_ANSWER_RE``
    and ``_GAME_INFO_RE``."""
    if text == "readyok":
        return ReadyOk()
    if text.startswith("move"):
        m = answer.fullmatch(text)
        return Answer(_canonical(m.group(1))) if m else None
    if text.startswith("info"):
        m = info.fullmatch(text)
        if m is None:
            return None
        fields = dict(_FIELD_RE.findall(m.group(1)))
        pv, string = m.group(2), m.group(3)
        if pv is not None:
            fields["pv"] = SEP.join(_canonical(p) for p in _PV_SEP_RE.split(pv))
        elif string is not None:
            fields["string"] = string
        return Info(fields)
    if text == "sneferuok":
        return SneferuOk()
    if text.startswith("id"):
        m = _ID_RE.fullmatch(text)
        return Id(m.group(1), m.group(2)) if m else None
    if text.startswith("option"):
        return _fast_option(text)
    if text.startswith("feature"):
        m = _FEATURE_RE.fullmatch(text)
        if m:
            return Feature(m.group(1))
        m = _GAMES_RE.fullmatch(text)
        return Feature("games", tuple(m.group(1).split())) if m else None
    return None


def _fast_option(text: str) -> OptionSpec | None:
    m = _OPTION_RE.fullmatch(text)
    if m is None:
        return None
    (name, check, check_default, spin, default, lo, hi, combo, combo_default, variants,
     string, string_default, button) = m.groups()
    if check:
        return OptionSpec(name, check, check_default)
    if spin:
        d, low, high = int(default), int(lo), int(hi)
        return OptionSpec(name, spin, str(d), low, high) if low <= d <= high else None
    if combo:
        choices = tuple(variants.split()[1::2])
        return (OptionSpec(name, combo, combo_default, choices=choices)
                if combo_default in choices else None)
    if string:
        return OptionSpec(name, string, string_default)
    return OptionSpec(name, button)


def _fast_arbiter_line(text: str) -> ArbiterMessage | None:
    """The short arbiter lines (``position`` and ``go`` are not among them), else None."""
    if text == "isready":
        return IsReady()
    if text == "quit":
        return Quit()
    word = text[:3]
    if word == "set":
        m = _SETOPTION_RE.fullmatch(text)
        return SetOption(m.group(1), m.group(2)) if m else None
    if word == "new":
        m = _NEWGAME_RE.fullmatch(text)
        if m is None:
            return None
        players, seat = int(m.group(1)), int(m.group(2))
        if not 1 <= seat <= players <= 4:
            return None  # Lark's reader words the error
        return NewGame(players, seat, m.group(3), m.group(4), m.group(5) or DEFAULT_GAME)
    if word == "gam":
        m = _GAMEOVER_RE.fullmatch(text)
        return GameOver(tuple(int(r) for r in m.group(1).split())) if m else None
    if word == "sne":
        m = _SNEFERU_RE.fullmatch(text)
        return Sneferu(int(m.group(1))) if m else None
    return None


def _tokens(tree: Tree[Token] | Token) -> list[Token]:
    from lark import Token

    if isinstance(tree, Token):
        return [tree]
    return list(tree.scan_values(lambda v: isinstance(v, Token)))


def _move(tree: Tree[Token] | Token) -> str:
    """A move (or chance outcome) subtree as canonical text: its tokens, single spaces."""
    return " ".join(str(t) for t in _tokens(tree))
