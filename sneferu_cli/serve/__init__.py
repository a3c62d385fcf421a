"""The rules of every registered game for other programs: ``sneferu serve`` and the Python
API behind it (Sneferu by default; ``New(game="imhotep")`` for Imhotep).

``sneferu serve`` (SPEC.md, section 10) keeps games open and answers one request a line
on stdin/stdout, in GTP-style text or JSON. The same pieces serve Python callers:
:class:`Game` (a state with its seed, history and undo), :class:`Session` (open games
by id, one result per request), :func:`state_doc` (a state as JSON) and :func:`serve`
(the loop itself, over any pair of byte streams). Every game is served through
:mod:`sneferu_cli.game`; Sneferu's steps and state document come through its
``Game.turn_steps`` (in its folder).
In a game with hidden information or simultaneous sealed moves a request naming
``seat=N`` is shown only seat N's view and speaks for seat N; one naming no seat is the
host's, which sees the whole game (SPEC 10.11).

>>> session = Session()
>>> session.handle(New(players=3, seed=1))
GameId(game='g1')
>>> _ = session.handle(Chance("g1"))           # the set-up draws
>>> moves = session.handle(Moves("g1")).moves
>>> session.handle(Play("g1", moves[0])).lines()
[]
>>> session.handle(Turn("g1")).turn
'draw:1'
"""

from .files import MAX_FILE, FileAccess
from .game import Entry, Game
from .requests import (
    COMMANDS,
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
    parse_request,
)
from .server import MAX_LINE, serve
from .session import MAX_ANALYSE_MS, MAX_GAMES, Result, Session
from .state_json import GameDoc, state_doc

__all__ = [
    "COMMANDS",
    "MAX_ANALYSE_MS",
    "MAX_FILE",
    "MAX_GAMES",
    "MAX_LINE",
    "Analyse",
    "Chance",
    "Close",
    "Commands",
    "Entry",
    "FileAccess",
    "Game",
    "GameDoc",
    "Games",
    "Help",
    "Load",
    "LoadRecord",
    "Moves",
    "New",
    "Outcomes",
    "Play",
    "Position",
    "Quit",
    "Ranking",
    "Request",
    "RequestError",
    "Result",
    "Session",
    "Show",
    "State",
    "Step",
    "Steps",
    "Turn",
    "Undo",
    "Verify",
    "parse_request",
    "serve",
    "state_doc",
]
