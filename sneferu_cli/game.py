"""What the layers above the rules need of a game, and the registry of games by name.

A game is a :class:`Game` object (one per registered game: ``sneferu``, ``imhotep`` ...) whose
methods take that game's own state. The state is the game's own type, OpenSpiel-style:
a chance node or a decision of one seat (:class:`State`). Everything above the rules
(arbiter, records, tournaments, serve, bench, viewer, bundled engines) speaks to a game
only through this module and handles moves, chance outcomes and positions as notation
text, so a third game needs no change there.

>>> from sneferu_cli.game import get_game
>>> game = get_game("sneferu")
>>> state = game.new_game(2)
>>> state.is_chance_node()
True
"""

from __future__ import annotations

import importlib
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, Self

from typing_extensions import TypeVar

if TYPE_CHECKING:
    from .search.analysis import Analysis, Tuning

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "MAX_DIGITS",
    "BrokenInvariant",
    "Encoding",
    "FastPaths",
    "Game",
    "Hidden",
    "IllegalMove",
    "Learning",
    "NotationError",
    "Perft",
    "RecordTags",
    "RulesBench",
    "SoloResult",
    "Standing",
    "State",
    "Tools",
    "TurnSteps",
    "UnknownGame",
    "bound_numbers",
    "delegate",
    "game_names",
    "get_game",
    "public_state",
    "public_view",
    "seat_state",
    "seat_view",
    "unnamed",
]


class NotationError(ValueError):
    """Text that is not valid notation (a move, outcome, position, record or protocol line)."""


MAX_DIGITS = 4300
"""The most digits a number in any notation may have: Python's own limit for reading one
(``int`` of a longer text raises a ValueError of its own wording)."""

_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_DIGITS + 1}}}")


def bound_numbers(text: str, what: str) -> None:
    """NotationError naming ``what`` when ``text`` holds a number of more than MAX_DIGITS
    digits; every reader of a notation line calls it before reading a number of it.

    >>> bound_numbers("round 7", "position")
    >>> bound_numbers("round " + "1" * 4301, "position")
    Traceback (most recent call last):
    ...
    sneferu_cli.game.NotationError: position: a number of more than 4300 digits
    """
    if _LONG_NUMBER.search(text):
        raise NotationError(f"{what}: a number of more than {MAX_DIGITS} digits")


class IllegalMove(ValueError):
    """A move or chance outcome the rules do not allow in the state it is applied to (each
    game raises its own subclass)."""


class BrokenInvariant(AssertionError):
    """A state that breaks its game's invariants (:meth:`Game.check`): a bug in the rules."""


class UnknownGame(ValueError):
    """A game name that is not registered."""


class State(Protocol):
    """What every game's state offers directly (the rest goes through its :class:`Game`).

    Seats are 0-based here, 1-based in every notation.
    """

    def is_chance_node(self) -> bool:
        """Whether the next event is a chance outcome rather than a seat's decision."""
        ...

    def is_over(self) -> bool:
        ...

    def current_seat(self) -> int:
        """The seat that decides next (0-based); only when not a chance node and not over.
        It need not be the seat whose turn it is (an owner deciding for its stone). At a
        simultaneous node, the lowest seat whose sealed move is still to come."""
        ...

    def clone(self) -> Self:
        """An independent copy: applying to one never changes the other."""
        ...

    def retire(self, seat: int) -> None:
        """Seat ``seat`` takes no more decisions and ranks below every seat not retired.
        At a simultaneous node the seat leaves the node (a sealed move of its own still
        pending is withdrawn) and the step takes effect once every seat left has moved:
        the same state whether the others' moves come before or after (SPEC 7.2)."""
        ...


S = TypeVar("S", bound=State, default=Any)
"""A game's state type (``Any`` where a layer above the rules holds a game: a state
crosses those opaque, from the game's own members to its own members)."""
E = TypeVar("E", default=Any)
"""A game's edition type."""
T_contra = TypeVar("T_contra", contravariant=True, default=Any)
"""A state type a capability only takes (:class:`TurnSteps`)."""
E_contra = TypeVar("E_contra", contravariant=True, default=Any)
"""An edition type a capability only takes (:class:`RecordTags`)."""


@dataclass(frozen=True)
class Standing:
    """A seat's final standing: ``rank`` 1 = first (shared on ties), the game's scores
    under the names of :attr:`Game.score_keys`, in that order. ``seat`` is 1-based."""

    seat: int
    rank: int
    scores: Mapping[str, int] = field(default_factory=dict)
    retired: bool = False


class Game(ABC, Generic[S, E]):
    """One game's rules and notations, as the layers above see them: generic in the game's
    state type ``S`` and edition type ``E``.

    Moves, chance outcomes and positions cross this interface as text in the game's
    notations (SPEC.md); parse errors raise :class:`NotationError`, illegal moves the
    game's own ``ValueError`` subclass (caught as ``ValueError`` above).

    A game implements the abstract members (and overrides a default where its own is
    better); the optional parts a game may offer (hidden information, learning encodings,
    fast paths, the single steps of a turn, its own tools, its seat set-up and record tags)
    are separate objects that a member returns, None when the game has none
    (:meth:`hidden`, :meth:`learning`, :meth:`fast_paths`, :meth:`turn_steps`,
    :meth:`tools`, :meth:`record_tags`).
    """

    name: ClassVar[str]
    """The registry name, as in ``--game NAME``, ``[Game NAME]`` and ``newgame ... game``."""
    title: ClassVar[str]
    """The game's printed name, e.g. ``"Imhotep"``."""
    players: ClassVar[range]
    """The player counts it accepts."""
    variants: ClassVar[tuple[str, ...]]
    """Its variant names; the first is the default."""
    score_keys: ClassVar[tuple[str, ...]]
    """The names of a standing's scores, in the order of its ranking keys."""
    simultaneous: ClassVar[bool] = False
    """Whether any decision of the game may be simultaneous (OpenSpiel's dynamics): True
    for a class that overrides :meth:`is_simultaneous` (set when it is defined); False tells
    a caller that it need not ask at each decision."""
    move_help: ClassVar[str] = "Type a move in the game's move notation."
    """What a human seat is told about typing a move (examples of each form)."""
    moves_note: ClassVar[str | None] = None
    """Said to a human seat under every list of legal moves, when the list leaves out moves
    that may still be typed (Sneferu: moves that end in the same position are listed once,
    SPEC 2.7); None (the default): every legal move is listed."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "simultaneous" not in cls.__dict__ and cls.is_simultaneous is not Game.is_simultaneous:
            cls.simultaneous = True

    # ---------------------------------------------------------------- editions

    @abstractmethod
    def standard_edition(self) -> E:
        """The edition shipped with the package (the object has a ``name`` str)."""

    @abstractmethod
    def load_edition(self, path: Path) -> E:
        """An edition data file; ValueError naming the file and field when it is wrong."""

    def parse_edition(self, raw: bytes, source: str) -> E:
        """An edition from the bytes of an edition file (``source`` names it in errors),
        for a caller that read the file itself (``sneferu serve``, SPEC 10.8); ValueError
        as :meth:`load_edition`. By default the game reads no edition files."""
        raise ValueError(f"{source}: {self.title} reads no edition files")

    # ---------------------------------------------------------------- states

    @abstractmethod
    def new_game(self, players: int, *, variant: str | None = None,
                 edition: E | None = None) -> S:
        """The state before set-up (a chance node or the first decision)."""

    @abstractmethod
    def from_position(self, text: str, edition: E | None = None) -> S:
        """The state a position line describes; NotationError when it is malformed or
        impossible."""

    @abstractmethod
    def to_position(self, state: S) -> str:
        """The position line of ``state``: ``from_position(to_position(s))`` equals ``s``."""

    def players_of(self, state: S) -> int:
        """The number of seats of ``state`` (by default its ``players`` attribute)."""
        return int(getattr(state, "players"))  # noqa: B009 (not every state has it)

    def variant_of(self, state: S) -> str:
        """The variant ``state`` is played in, one of :attr:`variants` (by default its
        ``variant`` attribute)."""
        return str(getattr(state, "variant"))  # noqa: B009

    def edition_of(self, state: S) -> E:
        """The edition ``state`` is played with (by default its ``edition`` attribute)."""
        edition: E = getattr(state, "edition")  # noqa: B009
        return edition

    # ---------------------------------------------------------------- chance

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[str, float]]:
        """The outcomes of the chance node ``state`` as notation, with probabilities."""

    @abstractmethod
    def sample_outcome(self, state: S, rng: random.Random) -> str:
        """One outcome of the chance node, drawn with ``rng`` by its weights."""

    @abstractmethod
    def apply_outcome(self, state: S, text: str) -> None:
        """Apply a chance outcome given as notation."""

    def canonical_outcome(self, text: str) -> str:
        """The canonical form of a chance outcome's text (NotationError when it is not one).
        By default any single ``~TOKEN`` word, unchanged."""
        if _OUTCOME.fullmatch(text) is None:
            raise NotationError(f"not a chance outcome: {text!r} (expected ~ and a word)")
        return text

    def outcome_kind(self, text: str) -> str:
        """What a record groups chance outcomes by: a run of outcomes following no turn is
        written one line per kind (SPEC 8). By default all are of one kind."""
        return ""

    # ---------------------------------------------------------------- decisions

    def deciding_seats(self, state: S) -> tuple[int, ...]:
        """The seats (0-based, ascending) that owe a decision now: the current seat at a
        sequential node; at a simultaneous node every seat whose sealed move is still to
        come. Empty at a chance node and when the game is over."""
        if state.is_over() or state.is_chance_node():
            return ()
        return (state.current_seat(),)

    def is_simultaneous(self, state: S) -> bool:
        """Whether the decision now is a simultaneous, sealed one (OpenSpiel's simultaneous
        node): every seat of :meth:`deciding_seats` chooses without seeing the others'
        choices, and the moves take effect together once the last is in, the same in any
        order of collection. False by default (and then :attr:`simultaneous` is False)."""
        return False

    def legal_moves(self, state: S, seat: int | None = None) -> list[str]:
        """The legal moves of ``seat`` (by default the current seat) as canonical notation,
        each distinct result once, in the game's fixed order (SPEC); empty for a seat that
        owes no decision, and none at a chance node or when the game is over. Games
        implement :meth:`_legal_moves`."""
        if seat is None:
            if state.is_over() or state.is_chance_node():
                return []
            seat = state.current_seat()
        elif seat not in self.deciding_seats(state):
            return []
        return self._legal_moves(state, seat)

    def apply_move(self, state: S, text: str, seat: int | None = None, *,
                   listed: bool = False) -> str:
        """Check and apply the move of ``seat`` (by default the current seat), one of
        :meth:`deciding_seats`, and return its canonical text. NotationError or the game's
        illegal-move ValueError leave ``state`` unchanged; so does a seat that owes no
        decision. At a simultaneous node the move stays sealed (pending, hidden from the
        others' views) until the last deciding seat's move is in; then all take effect
        together. ``listed``: ``text`` was taken unchanged from ``legal_moves(state,
        seat)``, so the game may skip its checks (a fast path a test proves equal).
        Games implement :meth:`_apply_move`."""
        if seat is None:
            seat = state.current_seat()
        elif not listed and seat not in self.deciding_seats(state):
            raise IllegalMove(f"seat {seat + 1} has no decision to take now")
        return self._apply_move(state, seat, text, listed)

    @abstractmethod
    def _legal_moves(self, state: S, seat: int) -> list[str]:
        """:meth:`legal_moves` of ``seat``: the current seat, or one of
        :meth:`deciding_seats` (a sequential game may ignore ``seat``)."""

    @abstractmethod
    def _apply_move(self, state: S, seat: int, text: str, listed: bool) -> str:
        """:meth:`apply_move` of ``seat``: the current seat, or (unless ``listed``) one of
        :meth:`deciding_seats`; returns the move's canonical text (``text`` itself when
        ``listed``)."""

    @abstractmethod
    def canonical_move(self, text: str) -> str:
        """The canonical form of a move's text (NotationError when it is not a move)."""

    # ---------------------------------------------------------------- the end

    @abstractmethod
    def standings(self, state: S) -> list[Standing]:
        """Every seat's standing, by seat (ranks are final only when the game is over)."""

    def termination(self, state: S, standings: Sequence[Standing] | None = None) -> str:
        """Why the game ended: ``normal``, ``all-retired`` or a game's own word; ``aborted``
        while it is not over. By default ``all-retired`` when every seat's standing is
        retired, else ``normal``. ``standings``: the state's, when the caller has them
        already (scoring a finished game once, not twice)."""
        if not state.is_over():
            return "aborted"
        if standings is None:
            standings = self.standings(state)
        return "all-retired" if all(s.retired for s in standings) else "normal"

    # ---------------------------------------------------------------- pictures

    @abstractmethod
    def picture(self, state: S) -> str:
        """A picture of ``state`` for the terminal (plain text, several lines)."""

    def picture_parts(self, state: S) -> list[tuple[str, str]]:
        """The picture in named parts ``(name, text)``, so that a terminal can show only
        the parts that changed; parts named ``title`` or ``legend`` are shown once. By
        default one part, the whole picture."""
        return [("position", self.picture(state))]

    def picture_focus(self, state: S) -> tuple[str, ...]:
        """The names of the picture parts a human seat is shown at ``state``'s decision even
        when they have not changed since its last turn (Imhotep: the market when a card is
        to be taken from it); none by default."""
        return ()

    def decision_hint(self, state: S) -> str:
        """One line telling a human seat what its decision at ``state`` is and how to type
        it (shown before each of its decisions, with how to list the legal moves)."""
        return "Type your move."

    def shown_state(self, state: S, seat: int) -> S:
        """The state a picture shown to ``seat`` (0-based) is drawn from: by default the
        state read back from its view (:func:`seat_state`). A game whose picture shows what
        the position notation does not hold but every seat may know (Silver & Gold: the
        cells marked in the last step) adds it here."""
        return seat_state(self, state, seat)

    def public_state(self, state: S) -> S:
        """The state a spectator's picture is drawn from: what no seat keeps to itself
        (:func:`public_state`). A game adds what every seat may know but the position
        notation does not hold, as in :meth:`shown_state`."""
        return public_state(self, state)

    @abstractmethod
    def page_data(self, state: S) -> dict[str, Any]:
        """What the web viewer draws for ``state``, as JSON-ready data."""

    # ---------------------------------------------------------------- capabilities

    def hidden(self) -> Hidden[S] | None:
        """What a seat may know when some seat may not know the whole position (a private
        deal, sealed moves not yet revealed): the layers above then show each seat only
        its view (:func:`seat_view`), never the full position or the events that lead to
        it (SPEC 6.3, 10). None (the default): every seat sees everything."""
        return None

    def learning(self) -> Learning[S] | None:
        """The action and observation encodings of the learning-library bindings
        (SPEC 16); None (the default): the bindings skip the game."""
        return None

    def fast_paths(self) -> FastPaths[S] | None:
        """Shortcuts of the arbiter's per-move path that a test proves equal to the plain
        one; None (the default): the plain path."""
        return None

    def turn_steps(self) -> TurnSteps[S] | None:
        """The single steps a turn of the game is made of, when its turns are several
        steps (``sneferu serve``'s ``steps`` and ``step`` requests, SPEC 10.10); None (the
        default): a move is one decision."""
        return None

    def tools(self) -> Tools[S, E] | None:
        """The game's own search, rules bench and perft; None (the default): the generic
        ones, and no perft."""
        return None

    def record_tags(self) -> RecordTags[S, E] | None:
        """The game's seat set-up option and the tags of its own its records carry
        (Sneferu: its builders and its solo result against Ptah, SPEC 8), when it has
        them; None (the default): a new game is set up by :meth:`new_game` alone and a
        record holds only every game's tags."""
        return None

    # ---------------------------------------------------------------- for tests and engines

    def check(self, state: S) -> None:
        """Raise :class:`BrokenInvariant` naming what is wrong when ``state`` breaks one of
        the game's own invariants (components conserved, counts in bounds): for the tests,
        which call it at every step of random games. By default nothing is checked."""
        return None

    def evaluate(self, state: S) -> list[float] | None:
        """Each seat's estimated worth of ``state`` in the game's own points (higher is
        better; what it has plus what it may still score), for greedy engines and for
        cutting searches short; None (the default) when the game offers no estimate."""
        return None

    # ---------------------------------------------------------------- words

    def describe_due(self, state: S) -> str:
        """What ``state`` waits for, in words for messages (a game may say it in its own);
        at the end, the ranking with the game's scores."""
        if state.is_over():
            ranked = sorted(self.standings(state), key=lambda s: (s.rank, s.seat))
            return "Game over: " + ", ".join(
                f"{s.rank}. seat {s.seat} ("
                + ", ".join([*(f"{v} {k}" for k, v in s.scores.items()),
                             *(["retired"] if s.retired else [])]) + ")"
                for s in ranked) + "."
        if state.is_chance_node():
            return "a chance event is due"
        return f"seat {state.current_seat() + 1} is to move"


class Hidden(Protocol[S]):
    """What a seat may know of a game with hidden information (:meth:`Game.hidden`)."""

    def view(self, state: S, seat: int) -> str:
        """The position ``seat`` (0-based) may know, in position notation: that of
        :meth:`Game.to_position` with everything the seat may not see hidden (other seats'
        dealt cards, their sealed moves still pending; SPEC gives each game's hiding marks).
        :meth:`Game.from_position` reads it back: a state in which the seat decides
        exactly as in ``state``. The full position stays the truth for records and replay."""
        ...

    def public_view(self, state: S) -> str:
        """The position a spectator may know, in position notation: every seat's private
        things hidden as in :meth:`view` for another seat (dealt cards, sealed moves not yet
        revealed). What is public is what the rules have shown to every seat."""
        ...

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with what ``seat`` knows of ``state`` (typically one
        read from its view): every hidden thing drawn by its probabilities with ``rng``, as
        information-set MCTS samples. ``state`` is not changed."""
        ...


def seat_view(game: Game[S, Any], state: S, seat: int) -> str:
    """The position ``seat`` may know of ``state``: its :meth:`Hidden.view`, or the whole
    position in a game without hidden information."""
    hidden = game.hidden()
    return game.to_position(state) if hidden is None else hidden.view(state, seat)


def public_view(game: Game[S, Any], state: S) -> str:
    """The position a spectator may know of ``state``: its :meth:`Hidden.public_view`, or
    the whole position in a game without hidden information."""
    hidden = game.hidden()
    return game.to_position(state) if hidden is None else hidden.public_view(state)


def public_state(game: Game[S, Any], state: S) -> S:
    """The state a spectator may know of ``state``, read back from its public view (a
    clone in a game without hidden information)."""
    hidden = game.hidden()
    if hidden is None:
        return state.clone()
    return game.from_position(hidden.public_view(state), game.edition_of(state))


def seat_state(game: Game[S, Any], state: S, seat: int) -> S:
    """The state ``seat`` may know of ``state``, read back from its view (a clone in a game
    without hidden information)."""
    hidden = game.hidden()
    if hidden is None:
        return state.clone()
    return game.from_position(hidden.view(state, seat), game.edition_of(state))


class FastPaths(Generic[S]):
    """Shortcuts of the per-move path of the arbiter and the protocol (:meth:`Game.
    fast_paths`), each proved equal to the plain path by a test; a game overrides those it
    has."""

    move_pattern: str | None = None
    """A regular expression for exactly the language of the game's move notation, when the
    protocol's fast path for ``move`` answers should use it (SPEC 6, the per-move hot path);
    None: those lines are read by the grammar."""

    def is_listed_move(self, state: S, text: str) -> bool | None:
        """Whether ``text`` is one of the current seat's legal moves exactly as listed, when
        the game can tell without listing them; None when it cannot: the caller looks in
        the listing it has. The arbiter asks this of every answer to a ``go`` outside a
        simultaneous node."""
        return None

    def legal_line(self, state: S, seat: int, sep: str) -> str | None:
        """``sep.join(game.legal_moves(state, seat))``, when the game makes it faster than
        the listing and the join; None when it does not: the caller joins the listing. The
        arbiter asks this for the ``go`` line of an engine that takes the legal moves,
        outside a simultaneous node."""
        return None


class Tools(Generic[S, E]):
    """A game's own tools (:meth:`Game.tools`): its search, an estimate of the decisions
    left, its rules bench and perft. Each member's None means the generic one (no perft);
    a game overrides those it has."""

    def search(self, state: S, *, seat: int | None = None, iterations: int = 0,
               deadline: float | None = None, seed: int = 0, tuning: Tuning | None = None,
               progress: Callable[[Analysis], None] | None = None) -> Analysis | None:
        """The game's own search of ``state`` for ``seat`` (by default the current seat),
        as :func:`sneferu_cli.search.search_game` takes and answers it (SPEC 11.1), its
        knobs set by ``tuning``; None: the generic search is used (11.4)."""
        return None

    def search_tuning(self) -> Tuning | None:
        """The generic search's knobs that suit the game's shape (SPEC 11.4), which an
        engine's options still override; None: the generic search's own defaults."""
        return None

    def move_gains(self, state: S, seat: int, moves: list[str]) -> list[float] | None:
        """What each of ``moves`` (legal moves of ``seat``, a seat deciding in ``state``)
        is worth one move ahead, exactly as :func:`sneferu_cli.search.generic.gain`
        values it one by one, by a shortcut a test proves equal (no copy of the state per
        move); None: no shortcut here, the search takes the plain way."""
        return None

    def moves_left(self, state: S, seat: int) -> float | None:
        """About how many more decisions ``seat`` will take in the game, for an engine
        sharing out its clock; None: the engine's own guess."""
        return None

    def rules_bench(self, players: int, setup: str | None, games: int, seed: int,
                    edition: E) -> RulesBench | None:
        """The game's own measure of its rules for ``sneferu bench`` (step by step), with
        ``setup`` the value of the game's seat set-up option (:meth:`Game.record_tags`,
        checked by the caller); None: the rules are measured through this interface
        (:func:`sneferu_cli.bench.run_game_bench`)."""
        return None

    def perft(self, state: S, depth: int) -> Perft | None:
        """Perft counts of ``state`` at depths 1 to ``depth`` (``sneferu bench --perft``);
        None when the game does not offer them."""
        return None


class Numbers(Protocol):
    """Where a game's compiled code writes the numbers of an observation: a memoryview of
    an ``array('d')`` (format ``d``), whose item writes cost less than the array's own
    (no argument parsing per number), or the array itself."""

    def __len__(self) -> int: ...

    def __setitem__(self, index: Any, value: Any, /) -> None: ...


class Learning(ABC, Generic[S]):
    """A game's encodings for the learning-library bindings (:meth:`Game.learning`,
    SPEC 16): action ids of its moves (or of their parts), chance ids of its outcomes, an
    observation tensor a seat. A game subclasses it, implementing the abstract members."""

    def __init__(self, game: Game[S, Any]) -> None:
        self.game = game

    @abstractmethod
    def action_names(self, players: int, variant: str) -> Sequence[str]:
        """Every canonical move that is legal in some state of a game of ``players`` seats
        in ``variant``, each once, in a fixed order: a move's *action id* is its index
        (OpenSpiel's distinct actions, PettingZoo's ``Discrete`` space; SPEC 16). A name
        that no state allows is harmless."""

    def action_parts(self, move: str) -> tuple[str, ...]:
        """The parts a canonical move is given as to the learning-library bindings, each a
        name :meth:`action_names` lists: by default the move alone. A game whose moves are
        too many to number one by one gives a move as a short sequence of parts (a *factored*
        encoding, SPEC 16.1), and :meth:`action_names` lists the distinct parts; the
        bindings then take one move as that many decisions of its seat. In any state no
        legal move's parts may begin another legal move's parts, so a sequence of parts
        names at most one move."""
        return (move,)

    def max_action_parts(self, players: int, variant: str) -> int:
        """The most parts a move of such a game has (:meth:`action_parts`; by default 1)."""
        return 1

    def outcome_names(self, players: int, variant: str) -> Sequence[str]:
        """Every canonical chance outcome of such a game, each once (chance action ids, as
        :meth:`action_names`); needed by a game with chance nodes. By default none."""
        return ()

    def outcome_parts(self, outcome: str) -> tuple[str, ...]:
        """The parts a canonical chance outcome is given as to the OpenSpiel binding, each a
        name :meth:`outcome_names` lists: by default the outcome alone. A game with chance
        nodes of too many outcomes factors them as :meth:`action_parts` factors moves
        (SPEC 16.1): :meth:`outcome_names` then lists the distinct parts, and at any chance
        node no outcome's parts begin another outcome's parts."""
        return (outcome,)

    def max_outcome_parts(self, players: int, variant: str) -> int:
        """The most parts a chance outcome of such a game has (:meth:`outcome_parts`; by
        default 1, and then every outcome is its own one part)."""
        return 1

    def chance_part_outcomes(self, state: S,
                             chosen: tuple[str, ...]) -> list[tuple[str, float]]:
        """The next parts of the chance node's outcomes that begin with the parts
        ``chosen``, with their probabilities given ``chosen`` (summing to 1). By default
        the chance outcomes summed by prefix: right for any game, slow at a node of many
        outcomes, for which a game gives a closed form."""
        k = len(chosen)
        weights: dict[str, float] = {}
        for outcome, p in self.game.chance_outcomes(state):
            parts = self.outcome_parts(outcome)
            if len(parts) > k and parts[:k] == chosen:
                weights[parts[k]] = weights.get(parts[k], 0.0) + p
        total = sum(weights.values())
        return [(part, p / total) for part, p in weights.items()]

    def outcome_of_parts(self, state: S, parts: tuple[str, ...]) -> str | None:
        """The chance node's outcome whose parts are ``parts``; None when they are only the
        beginning of one. By default looked up among the chance outcomes."""
        for outcome, _ in self.game.chance_outcomes(state):
            if self.outcome_parts(outcome) == parts:
                return outcome
        return None

    @abstractmethod
    def max_game_length(self, players: int, variant: str) -> int:
        """An upper bound on the decisions and chance events of one game (OpenSpiel's
        ``max_game_length``)."""

    @abstractmethod
    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        """The shape of :meth:`observation` for such a game."""

    @abstractmethod
    def observation(self, state: S, seat: int) -> Sequence[float]:
        """What ``seat`` (0-based) may know of ``state`` (its view) as numbers, flattened,
        of the size :meth:`observation_shape` gives: the same for two states with the same
        view. A list, or for a large tensor an ``array('d')``: the bindings hand its buffer
        to numpy without a copy per number."""

    def legal_ids(self, state: S, seat: int, moves: list[str]
                  ) -> list[tuple[int, ...]] | None:
        """The action ids (:meth:`Encoding.action_ids` in the encoding of the state's
        set-up) of each of ``moves``, the legal moves of ``seat`` (0-based) as
        :meth:`Game.legal_moves` lists them, in that order: listed by the game itself,
        compiled code that knows its moves' parts, rather than each text taken apart (the
        bindings ask at every decision). None, the default, when the game does not offer
        it, or not for this state (a part with no id); the bindings then map the texts
        (``sneferu_cli.rl.core.legal_ids`` does either)."""
        return None

    def encoding(self, players: int, variant: str | None = None) -> Encoding:
        """The action and chance-outcome ids of a set-up (:class:`Encoding`), made once."""
        key = (self.game.name, players, variant or self.game.variants[0])
        found = _encodings.get(key)
        if found is None:
            found = _encodings[key] = Encoding(
                self, players, key[2], tuple(self.action_names(players, key[2])),
                tuple(self.outcome_names(players, key[2])),
                self.max_action_parts(players, key[2]),
                self.max_outcome_parts(players, key[2]))
        return found


class TurnSteps(Protocol[T_contra]):
    """The single steps of a game whose turn is several (:meth:`Game.turn_steps`): what ``sneferu
    serve`` needs of them, and of the game's own turn field, chance weights and state
    document (SPEC 10.10). Steps are the game's own objects; ``str`` gives their notation."""

    def read_step(self, text: str) -> object:
        """The step ``text`` names; NotationError, or a ValueError naming a chance outcome."""
        ...

    def apply_step(self, state: T_contra, step: object) -> None:
        """Apply one step of the seat to decide; the rules' ValueError leaves ``state``."""
        ...

    def legal_steps(self, state: T_contra) -> list[str]:
        """The legal single steps as notation; none at a chance node or at the end."""
        ...

    def turn_number(self, state: T_contra) -> int:
        """How many turns have begun: a new turn begins when this grows."""
        ...

    def turn_field(self, state: T_contra) -> str:
        """The turn field of the game's position notation."""
        ...

    def chance_weights(self, state: T_contra) -> list[tuple[str, int]]:
        """The outcomes of the chance node with their whole-number weights (the counts of
        the components drawn); empty when not a chance node."""
        ...

    def state_doc(self, state: T_contra, legal: bool) -> Any:
        """The game's state document (a msgspec struct; ``legal`` adds the legal moves,
        steps and outcomes)."""
        ...


class RulesBench(Protocol):
    """What a game's own rules bench gives ``sneferu bench`` (a
    :class:`sneferu_cli.bench.BenchReport`): its figures and its table."""

    @property
    def figures(self) -> Sequence[Any]:
        """The figures measured (:class:`sneferu_cli.bench.Figure`)."""
        ...

    def table(self) -> str:
        """The printed table."""
        ...


class Perft(Protocol):
    """Perft counts of one position (:meth:`Tools.perft`): ``counts[d - 1]`` at depth d,
    the time each took, the legal moves of the position and the Python that ran them."""

    @property
    def counts(self) -> Sequence[int]: ...

    @property
    def seconds(self) -> Sequence[float]: ...

    @property
    def moves(self) -> int: ...

    @property
    def python(self) -> str: ...

    def record(self) -> dict[str, object]:
        """The counts as ``tests/data/perft`` stores them."""
        ...


class SoloResult(NamedTuple):
    """A solo game's result against the game's automaton (:meth:`RecordTags.solo_of`)."""

    won: bool
    against: int
    """The automaton's count (Sneferu: Ptah's stones)."""
    score: int | None = None
    """The score, when won."""
    title: str | None = None
    """The title earned, when won."""


class RecordTags(Protocol[S, E_contra]):
    """A game whose seats may be set up by an option of its own and whose records carry
    tags of its own (:meth:`Game.record_tags`; Sneferu: the builders variant, its
    ``[Builders]`` tag and each ``[Seat]``'s ``builder=``, its ``[Solo]`` result against
    Ptah). Tags are text as a record writes them: a header tag's name and value (the
    text after the name), a seat tag's key and value; the record format (SPEC 8) says
    where each goes. A game's own words for its results come with them."""

    @property
    def option(self) -> str:
        """The name of the seat set-up option (``--builders``, ``builders =``,
        ``builders=``); its value is the game's own (Sneferu: ``random`` or one builder a
        seat, comma-separated)."""
        ...

    def new_game(self, players: int, setup: str | Sequence[str], *,
                 edition: E_contra | None = None) -> S:
        """:meth:`Game.new_game` with the seats set up by ``setup`` (or its values one a
        seat, as a list); ValueError naming what is wrong."""
        ...

    def from_tags(self, players: int, variant: str, tags: Mapping[str, str],
                  seat_tags: Sequence[Mapping[str, str]], edition: E_contra) -> S:
        """The game a record's header starts when it has no [Position]: [Players],
        [Variant], the game's own set-up tags and each [Seat]'s own tags (by seat).
        ValueError when they do not fit together."""
        ...

    def tags(self, state: S, drawn: bool) -> tuple[dict[str, str], list[dict[str, str]]]:
        """The set-up tags of a record of a game starting at ``state`` (``drawn``: set up
        at random by the arbiter), and each seat's own tags for its [Seat] tag."""
        ...

    def seat_tags(self, state: S, seat: int) -> dict[str, str]:
        """What seat ``seat`` (0-based) was set up with, as its [Seat] tag says it."""
        ...

    def result_tags(self, state: S) -> dict[str, str]:
        """The result tags of the game's own for a game over at ``state`` (Sneferu's
        ``Solo`` in a solo game); none when it has none."""
        ...

    def solo_of(self, result_tags: Mapping[str, str]) -> SoloResult | None:
        """The solo result the result tags hold; None when they hold none."""
        ...

    def old_json(self, header: dict[str, Any]) -> None:
        """A record header's JSON object (``msgspec.json``) of a form older than the
        generic record model, rewritten in place into the present form (its tags as tags);
        KeyError, TypeError or ValueError when it is malformed."""
        ...

    def termination_words(self) -> Mapping[str, str]:
        """Why a game ended, in words, for :meth:`Game.termination`'s words of the
        game's own (Sneferu: ``normal``, ``ptah``)."""
        ...

    def result_line(self, result: Any, name: str, width: int,
                    result_tags: Mapping[str, str]) -> str | None:
        """The printed line of a seat's result (a record's ``SeatResult``; ``name`` padded
        to ``width``), in the game's own words; None: the generic line."""
        ...


class Encoding:
    """A set-up's bijection between canonical moves and action ids ``0 .. actions - 1``
    (with a factored encoding, between canonical moves and sequences of ids of their parts),
    and between chance outcomes and chance ids (or sequences of ids of their parts)
    (:meth:`Learning.encoding`, SPEC 16)."""

    def __init__(self, learning: Learning[Any], players: int, variant: str,
                 moves: tuple[str, ...], outcomes: tuple[str, ...], max_parts: int = 1,
                 max_outcome_parts: int = 1) -> None:
        self.learning = learning
        self.game = learning.game
        self.players = players
        self.variant = variant
        self.moves = moves
        """The name of each action id: a move, or a part of one when :attr:`max_parts` > 1."""
        self.outcomes = outcomes
        """The name of each chance id: an outcome, or a part of one."""
        self.max_parts = max_parts
        """The most actions one move takes (1: one id a move)."""
        self.max_outcome_parts = max_outcome_parts
        """The most chance ids one chance outcome takes (1: one id an outcome)."""
        self._move_ids = {m: i for i, m in enumerate(moves)}
        self._outcome_ids = {o: i for i, o in enumerate(outcomes)}
        self._ids_of: dict[str, tuple[int, ...]] = {}
        """:meth:`action_ids` of the moves met lately (a binding asks for every legal move
        at every decision)."""
        if len(self._move_ids) != len(moves) or len(self._outcome_ids) != len(outcomes):
            raise BrokenInvariant(f"{self.game.title}: an action or outcome is listed twice")

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # never changed: a copied OpenSpiel state shares it

    @property
    def actions(self) -> int:
        """The number of distinct actions."""
        return len(self.moves)

    @property
    def ids_by_name(self) -> dict[str, int]:
        """Each action name (:attr:`moves`) by its id: for a game listing ids itself
        (:meth:`Learning.legal_ids`). Never change it."""
        return self._move_ids

    def action_id(self, move: str) -> int:
        """The id of a canonical move; ValueError when the encoding has none."""
        i = self._move_ids.get(move)
        if i is None:
            raise ValueError(f"{self.game.title}: move {move!r} has no action id")
        return i

    def action_ids(self, move: str) -> tuple[int, ...]:
        """The ids of the parts of a canonical move (:meth:`Learning.action_parts`), in order;
        ValueError when one has no id."""
        ids = self._ids_of.get(move)
        if ids is not None:
            return ids
        if self.max_parts == 1:
            ids = (self.action_id(move),)
        else:
            try:
                ids = tuple(self._move_ids[p] for p in self.learning.action_parts(move))
            except KeyError as e:
                raise ValueError(f"{self.game.title}: move {move!r} has a part "
                                 f"{e.args[0]!r} with no action id") from None
        if len(self._ids_of) >= _IDS_KEPT:
            self._ids_of.clear()  # a bound on memory: moves seen again are few
        self._ids_of[move] = ids
        return ids

    def outcome_id(self, outcome: str) -> int:
        """The id of a canonical chance outcome (a part of one with a factored encoding);
        ValueError when the encoding has none."""
        i = self._outcome_ids.get(outcome)
        if i is None:
            raise ValueError(f"{self.game.title}: outcome {outcome!r} has no chance id")
        return i

    def outcome_ids(self, outcome: str) -> tuple[int, ...]:
        """The chance ids of the parts of a canonical chance outcome
        (:meth:`Learning.outcome_parts`), in order; ValueError when one has no id."""
        return tuple(self.outcome_id(p) for p in self.learning.outcome_parts(outcome))


def delegate(module: str, function: str) -> Callable[..., Any]:
    """A :class:`Game` method that calls ``function`` of ``module`` in the game's own
    package (``picture``, ``rules.edition``) with the method's arguments, the module
    imported at the first call: how a game hands a member to the module that does it
    (``picture = delegate("picture", "picture")``)."""

    found: dict[type, Callable[..., Any]] = {}

    def method(self: Game, *args: Any) -> Any:
        call = found.get(type(self))
        if call is None:  # the package of the class that holds this method (a subclass's too)
            owner = next(c for c in type(self).__mro__ if method in vars(c).values())
            package = owner.__module__
            call = found[type(self)] = getattr(
                importlib.import_module(f"{package}.{module}"), function)
        return call(*args)

    method.__name__ = function
    method.__doc__ = f"``{module}.{function}`` of the game's package."
    return method


_IDS_KEPT = 1 << 16
"""How many moves' :meth:`Encoding.action_ids` an encoding keeps."""

_encodings: dict[tuple[str, int, str], Encoding] = {}

_OUTCOME = re.compile(r"~[^\s~{};]+")

DEFAULT_GAME = "sneferu"

GAMES: dict[str, str] = {
    "sneferu": "sneferu_cli.games.sneferu",
    "imhotep": "sneferu_cli.games.imhotep",
    "silver-gold": "sneferu_cli.games.silver_gold",
    "akropolis": "sneferu_cli.games.akropolis",
}
"""Registered games: name -> the module whose ``GAME`` attribute is its :class:`Game`."""

_loaded: dict[str, Game] = {}


def game_names() -> Sequence[str]:
    """The registered game names, the default first."""
    return list(GAMES)


def unnamed(name: str) -> bool:
    """Whether game ``name`` goes unnamed in the notations: the registry's first game
    may (a ``newgame`` line without ``game``, a record without ``[Game]``, an engine that
    declares no ``games``, ``--game``'s default), every other is named."""
    return name == DEFAULT_GAME


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The registered game called ``name``; :class:`UnknownGame` naming the known ones."""
    game = _loaded.get(name)
    if game is None:
        module = GAMES.get(name)
        if module is None:
            raise UnknownGame(f"unknown game {name!r} (known: {', '.join(GAMES)})")
        game = importlib.import_module(module).GAME
        _loaded[name] = game
    return game
