"""The server's requests (SPEC.md, section 10.3) and how a text-mode line becomes one.

Each request is a msgspec struct tagged by its ``command``: the JSON mode reads these
shapes directly, and :func:`parse_request` turns a text line (grammar
``protocol/serve.lark``) into the very same structs, so both modes share one set of
requests and one set of checks.

>>> parse_request("7 play g1 1.1 TG@1.1")
('7', Play(game='g1', move='1.1 TG@1.1', seat=None))
>>> parse_request("new players=2 seed=5")
(None, New(players=2, setup=None, seed=5, edition='standard', game='sneferu', variant=None))
>>> parse_request("undo g3 turn")[1]
Undo(game='g3', turn=True, seat=None)
>>> parse_request("state g2 seat=3 legal")[1]
State(game='g2', legal=True, seat=3)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import msgspec

from ..game import DEFAULT_GAME, NotationError, bound_numbers, get_game, unnamed
from ..grammar import Token, Tree, parse
from ..record.jsonl import upgrade
from ..record.model import GameRecord


class RequestError(ValueError):
    """A request that cannot be served; its message is the error reply, ``id`` the id of
    the request when it could be read."""

    def __init__(self, message: str, id: str | int | None = None) -> None:
        super().__init__(message)
        self.id = id


class _Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="command"):
    pass


class _OnGame(_Request, frozen=True):
    game: str


class _Seated(_OnGame, frozen=True, kw_only=True):
    """A request on a game that a seat's client may make: ``seat`` (1-based) asks with that
    seat's view, or is refused by a request of the host's alone (SPEC 10.11)."""

    seat: int | None = None


class New(_Request, frozen=True, tag="new"):
    """Open a new game of ``game`` (a registered name) at its first set-up chance node."""

    players: int = 4
    setup: str | list[str] | None = msgspec.field(name="builders", default=None)
    """The value of the game's seat set-up option (``RecordTags.option``), given as
    ``builders=`` (the one game's with one: Sneferu's builders variant)."""
    seed: int | None = None
    edition: str = "standard"
    game: str = DEFAULT_GAME
    variant: str | None = None


class Load(_Request, frozen=True, tag="load"):
    """Open a game of ``game`` at a position (that game's position notation)."""

    position: str
    seed: int | None = None
    edition: str = "standard"
    game: str = DEFAULT_GAME


class LoadRecord(_Request, frozen=True, tag="load-record"):
    """Open a game at a ply of a recorded game (a file's game ``number``, 1 = the first)."""

    path: str | None = None
    record: GameRecord | None = None
    number: int = 1
    ply: int = -1
    seed: int | None = None
    edition: str = "standard"


class Games(_Request, frozen=True, tag="games"):
    """List the open games."""


class Close(_Seated, frozen=True, tag="close"):
    """Close a game and free it."""


class Moves(_Seated, frozen=True, tag="moves"):
    """The legal whole moves of the seat to decide, or of ``seat`` (1-based)."""


class Steps(_Seated, frozen=True, tag="steps"):
    """The legal single steps of the seat to decide."""


class Outcomes(_Seated, frozen=True, tag="outcomes"):
    """The outcomes of the chance node with their weights and probabilities; of a node
    whose outcomes the game gives in parts, the next parts ``after`` those given."""

    after: list[str] = msgspec.field(default_factory=list)


class Play(_Seated, frozen=True, tag="play"):
    """Apply a whole move (move notation), of ``seat`` (1-based) when given."""
    move: str


class Step(_Seated, frozen=True, tag="step"):
    """Apply one step (a step token or ``done``)."""
    step: str


class Chance(_Seated, frozen=True, tag="chance"):
    """Apply a chance outcome, or (none given) draw up to the next decision."""
    outcome: str | None = None


class Undo(_Seated, frozen=True, tag="undo"):
    """Undo the last entry, or back to the start of the turn."""
    turn: bool = False


class Position(_Seated, frozen=True, tag="position"):
    """The position notation of the game, or ``seat``'s view (1-based)."""


class State(_Seated, frozen=True, tag="state"):
    """The state as JSON, optionally with what is legal; or ``seat``'s view of it."""
    legal: bool = False


class Show(_Seated, frozen=True, tag="show"):
    """The readable text picture, or that of ``seat``'s view."""


class Turn(_Seated, frozen=True, tag="turn"):
    """The turn field of the position notation: who decides, or which chance event."""


class Ranking(_Seated, frozen=True, tag="ranking"):
    """Every seat's standing (R6), and the solo result."""


class Analyse(_Seated, frozen=True, tag="analyse"):
    """Search for the best moves: ``iterations`` playouts or ``movetime`` ms (at most the
    server's bound), the ``top`` best listed (0: all), the search's ``seed``."""

    iterations: int | None = None
    movetime: int | None = None
    top: int = 5
    seed: int = 0


class Verify(_Request, frozen=True, tag="verify"):
    """Replay every game of a record and check its header."""

    path: str | None = None
    record: GameRecord | None = None
    edition: str = "standard"


class Commands(_Request, frozen=True, tag="commands"):
    """List the commands."""


class Help(_Request, frozen=True, tag="help"):
    """Every request's syntax, or (with a game) how that game's moves are written."""

    game: str | None = None


class Quit(_Request, frozen=True, tag="quit"):
    """Stop the server."""


Request = (New | Load | LoadRecord | Games | Close | Moves | Steps | Outcomes | Play | Step
           | Chance | Undo | Position | State | Show | Turn | Ranking | Analyse | Verify | Commands
           | Help | Quit)

COMMANDS: tuple[str, ...] = tuple(
    c.__struct_config__.tag for c in Request.__args__
)
"""Every command name, in the order of SPEC.md."""

SYNTAX: tuple[str, ...] = (
    "new [game=NAME] [players=N] [variant=V] [builders=B] [seed=S] [edition=E]",
    "load [game=NAME] [seed=S] [edition=E] POSITION",
    "load-record [number=N] [ply=P] [seed=S] [edition=E] FILE|JSON",
    "games", "close G", "moves G [seat=N]", "steps G", "outcomes G",
    "play G [seat=N] MOVE", "step G STEP", "chance G [OUTCOME]", "undo G [turn]",
    "position G [seat=N]", "state G [legal] [seat=N]", "show G [seat=N]", "turn G",
    "ranking G",
    "analyse G [iterations=N] [movetime=MS] [top=N] [seed=S] [seat=N]",
    "verify [edition=E] FILE|JSON", "commands", "help [G]", "quit")
"""Every request's text syntax, in the order of :data:`COMMANDS` (``help`` lists them)."""

# Grammar rule of a request -> its command; rules whose text is a request field.
_RULES = {"new_game": "new", "load_position": "load", "load_record": "load-record",
          "list_games": "games",
          "close_game": "close", "list_moves": "moves", "list_steps": "steps",
          "list_outcomes": "outcomes", "play_move": "play", "play_step": "step",
          "play_chance": "chance", "undo": "undo", "get_position": "position",
          "get_state": "state", "get_picture": "show", "get_turn": "turn",
          "get_ranking": "ranking", "analyse_game": "analyse", "verify_record": "verify",
          "list_commands": "commands", "get_help": "help",
          "quit": "quit"}
_FIELDS = {"position": "position", "move": "move", "step": "step", "done": "step",
           "outcome": "outcome"}
_OPTIONS = {"players": int, "seed": int, "builders": str, "edition": str, "number": int,
            "ply": int, "iterations": int, "movetime": int, "top": int, "game_name": str,
            "variant": str, "seat": int}
_NAMES = {"game_name": "game"}  # grammar rules named otherwise than their field
_ID = re.compile(r"[0-9]+(?= |$)")
_GAME_OPTION = re.compile(r"game=(\S*)")


def parse_request(line: str, game_of: Callable[[str], str] | None = None
                  ) -> tuple[str | None, Request]:
    """Read a text-mode request line: its id (or None) and the request.

    ``game_of`` names the game an open game id plays (Sneferu when not given or not
    open): Sneferu's requests are read with the grammar ``protocol/serve.lark`` (which
    knows its notations); another game's ``load``, ``play``, ``step`` and ``chance`` take
    the rest of the line as that game's notation, checked when the request is served.
    A RequestError (a ValueError) says what is wrong, with the line's id when one could
    be read, so that the error reply can echo it.
    """
    text = line.strip()
    m = _ID.match(text)
    rid = m.group() if m else None
    try:
        bound_numbers(text, "request")
        return rid, _parse(text, rid, game_of)
    except (NotationError, msgspec.ValidationError, RequestError) as e:
        raise RequestError(str(e), rid) from None


def _parse(text: str, rid: str | None, game_of: Callable[[str], str] | None) -> Request:
    words = text.split()[1 if rid else 0:]
    word = words[0] if words else ""
    if not word:
        raise RequestError("empty request" if rid is None else "a request id but no command")
    if word not in COMMANDS:
        raise RequestError(f"unknown command {word!r} (the command 'commands' lists them)")
    other = _other_game(word, words[1:], game_of)
    if other is not None:
        return other
    tree = parse("serve", "request", text, "request")
    body = tree.children[-1]
    assert isinstance(body, Tree)
    fields: dict[str, Any] = {"command": _RULES[str(body.data)]}
    for child in body.children:
        if isinstance(child, Token):
            if child.type == "GAME":
                fields["game"] = str(child)
            else:  # the flags TURN and LEGAL
                fields[str(child).lower()] = True
            continue
        name = str(child.data)
        if name == "part":  # one part of a chance outcome, in the order given
            fields.setdefault("after", []).append(str(child.children[0]))
        elif name in _OPTIONS:
            key = _NAMES.get(name, name)
            if key in fields:
                raise RequestError(f"option {key}= given twice")
            fields[key] = _OPTIONS[name](str(child.children[0]))
        elif name == "record":  # a path, or a record's JSON encoding
            tok = child.children[0]
            assert isinstance(tok, Token)
            if tok.type == "VALUE":
                fields["path"] = str(tok)
            else:
                try:
                    fields["record"] = upgrade(msgspec.json.decode(str(tok)))
                except msgspec.DecodeError as e:
                    raise RequestError(f"record: not JSON: {e}") from None
                except ValueError as e:
                    raise RequestError(f"record: {e}") from None
        else:
            tokens = list(child.scan_values(lambda v: isinstance(v, Token)))
            fields[_FIELDS[name]] = text[tokens[0].start_pos:tokens[-1].end_pos]
    request: Request = msgspec.convert(fields, type=Request)
    return request


_NOTATION_FIELD = {"play": "move", "step": "step", "chance": "outcome"}


def _other_game(command: str, args: list[str], game_of: Callable[[str], str] | None
                ) -> Request | None:
    """A request on a game other than Sneferu, read without Sneferu's grammar: ``load``
    with a ``game=`` option naming another game (options, then the position), or
    ``play``, ``step`` or ``chance`` on an open game of another game (its id, then the
    notation). None for every other request."""
    fields: dict[str, Any] = {"command": command}
    if command == "load":
        options = list(itertools.takewhile(lambda w: "=" in w, args))
        named = [m[1] for w in options if (m := _GAME_OPTION.fullmatch(w))]
        if not named or unnamed(named[0]):
            return None
        get_game(named[0])  # an unknown game is named as such
        for word in options:
            key, _, value = word.partition("=")
            if key not in ("game", "seed", "edition"):
                raise RequestError(f"load: unknown option {key}= (game, seed, edition)")
            if key in fields:
                raise RequestError(f"option {key}= given twice")
            fields[key] = int(value) if key == "seed" and value.isdigit() else value
        fields["position"] = " ".join(args[len(options):])
        if not fields["position"]:
            raise RequestError("load: no position after the options")
    elif command in _NOTATION_FIELD and args and game_of is not None:
        if unnamed(game_of(args[0])):
            return None
        fields["game"] = args[0]
        field = _NOTATION_FIELD[command]
        if args[1:] and args[1].startswith("seat="):
            seat = args.pop(1).removeprefix("seat=")
            if not seat.isdigit():
                raise RequestError(f"{command}: seat={seat}: not a seat number")
            fields["seat"] = int(seat)
        if args[1:]:
            fields[field] = " ".join(args[1:])
        elif command != "chance":
            raise RequestError(f"{command}: no {field} after the game id {args[0]}")
    else:
        return None
    request: Request = msgspec.convert(fields, type=Request)
    return request
