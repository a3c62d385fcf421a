"""Sneferu: Builders of the Pyramids, behind :class:`sneferu_cli.game.Game`.

The rules (no I/O) are in ``state.py`` (the game state), ``steps.py`` (its steps and
outcomes), ``chance.py``, ``pyramid.py``, ``components.py`` and ``check.py`` (the
invariants), the printed numbers in ``edition.py`` (``editions/standard.toml``); the move
and position notations in ``move.py``, ``fast.py`` and ``position.py``, the terminal
picture in ``picture.py``, and ``page.py`` the web viewer's data. The layers above reach
them only through :data:`GAME` (``get_game("sneferu")``), whose capabilities (SPEC.md
section 12) bring in the rest: ``record.py`` (the builders variant's set-up, the builders
and solo tags: ``record_tags``), ``heuristic.py`` (``evaluate``), ``search.py`` (the
Sneferu search: ``tools``), ``serve.py`` (``sneferu serve``'s steps and state document:
``turn_steps``), ``bench.py`` (step bench and perft: ``tools``), ``fast.py``
(``fast_paths``) and
``actions.py`` (the learning libraries' action encoding and observation, SPEC 16.1).

>>> state = GAME.new_game(2)
>>> GAME.apply_outcome(state, "~FOOD1")
>>> GAME.canonical_move("3.2+  BT@1.4 feast")
'3.2+ BT@1.4 feast'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ...game import (
    FastPaths,
    Game,
    Learning,
    Perft,
    RecordTags,
    RulesBench,
    Standing,
    Tools,
    TurnSteps,
    delegate,
)
from . import actions, interface, record
from .chance import outcome_texts
from .edition import Edition
from .fast import MOVE, read_canonical_move, read_outcome
from .heuristic import values
from .position import from_position, to_position
from .state import GameState, new_game

if TYPE_CHECKING:
    from ...search.analysis import Analysis, Tuning

__all__ = ["GAME", "GameState", "SneferuGame"]


class SneferuGame(Game[GameState, Edition]):
    """Sneferu's rules and notations (SPEC.md sections 3 to 5) as a :class:`Game`.

    The variant ``builders`` draws the builders at set-up; chosen builders, solo against
    Ptah and the rest of Sneferu's own API are in its modules (``state.py``,
    ``move.py``, ``position.py`` ...).
    """

    name = "sneferu"
    title = "Sneferu"
    players = range(1, 5)
    variants = ("standard", "builders")
    score_keys = ("stones", "food")

    standard_edition = delegate("edition", "standard_edition")
    load_edition = delegate("edition", "load_edition")
    parse_edition = delegate("edition", "parse_edition")

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Any | None = None) -> GameState:
        if variant not in (None, *self.variants):
            raise ValueError(f"variant {variant!r} (Sneferu has {', '.join(self.variants)})")
        return new_game(players, builders="random" if variant == "builders" else None,
                        edition=edition)


    def from_position(self, text: str, edition: Any | None = None) -> GameState:
        return from_position(text, edition)

    def to_position(self, state: GameState) -> str:
        return to_position(state)

    def players_of(self, state: GameState) -> int:
        return len(state.players)

    def variant_of(self, state: GameState) -> str:
        return state.variant.value

    def edition_of(self, state: GameState) -> Edition:
        return state.edition

    # Compiled functions (interface.py, chance.py) called with no Python frame of this
    # class's.
    chance_outcomes = staticmethod(outcome_texts)
    sample_outcome = staticmethod(interface.sample_outcome)
    apply_outcome = staticmethod(interface.apply_outcome)

    def canonical_outcome(self, text: str) -> str:
        return str(read_outcome(text))

    def outcome_kind(self, text: str) -> str:
        return type(read_outcome(text)).__name__

    _legal_moves = staticmethod(interface.legal_moves_of)
    _apply_move = staticmethod(interface.apply_move_of)
    # The derived members, compiled (a fast path the generic tests hold equal).
    legal_moves = staticmethod(interface.legal_moves)
    apply_move = staticmethod(interface.apply_move)

    def canonical_move(self, text: str) -> str:
        return read_canonical_move(text)[1]

    def standings(self, state: GameState) -> list[Standing]:
        return [Standing(s.seat + 1, s.rank, {"stones": s.stones, "food": s.food}, s.retired)
                for s in state.ranking()]

    def termination(self, state: GameState, standings: Sequence[Standing] | None = None
                    ) -> str:
        if not state.is_over():
            return "aborted"
        if all(p.retired for p in state.players):
            return "all-retired"
        if state.solo and state.ptah_total >= state.tables.ptah_target:
            return "ptah"
        return "normal"

    moves_note: ClassVar[str | None] = (
        "(Moves that end in the same position are listed once, by the first found: a move "
        "not listed, such as a stone bought from another row at the same price, may still "
        "be legal; type it.)")

    def decision_hint(self, state: Any) -> str:
        return ("Type your whole turn (or, when it has begun, the rest of it), its steps "
                "separated by spaces: 1.1 TG@1.1 buys and places a stone; end when none "
                "can be bought.")

    move_help: ClassVar[str] = """\
Type a whole turn in move notation, its steps separated by spaces:
  1.1 TG@1.1        buy column 1 row 1, place it Tura left, granite right, in slot 1.1
  3.2+ BT@1.4       buy with the quarry bonus (+)
  4.1 store         keep the stone in the storehouse (STOREHOUSE bonus)
  MG@1.2 4.1 BT@1.3 place a stored stone first, then buy and place
  end               the forced end, when no stone can be bought"""

    picture = delegate("picture", "picture")
    picture_parts = delegate("picture", "sections")

    def picture_focus(self, state: Any) -> tuple[str, ...]:
        """The offer to buy from and the key to the pyramids."""
        return ("offer", "legend")
    page_data = delegate("page", "page_data")
    check = delegate("check", "check")

    def record_tags(self) -> RecordTags[GameState, Edition]:
        """The builders variant (``--builders``) and the builders and solo tags of
        Sneferu's records (``record.py``)."""
        return record.TAGS

    def evaluate(self, state: GameState) -> list[float]:
        """Each seat's stones in the pyramid (and stored), food, and the time left on the
        river (spaces before the last one, each a chance to buy later): what the greedy
        engine values (``heuristic.py``)."""
        return values(state)

    def describe_due(self, state: GameState) -> str:
        return record.describe_turn(state)

    def learning(self) -> Learning[GameState]:
        return actions.SneferuLearning(self)

    def fast_paths(self) -> FastPaths[GameState]:
        return _FAST

    def turn_steps(self) -> TurnSteps[GameState]:
        """A turn's single steps, for ``sneferu serve`` (``serve.py``, SPEC 10.10)."""
        from .serve import STEPS  # serve's documents: loaded by the server alone

        return STEPS

    def tools(self) -> Tools[GameState, Edition]:
        return _TOOLS


class _SneferuFastPaths(FastPaths[GameState]):
    move_pattern = MOVE


class _SneferuTools(Tools[GameState, Edition]):
    def search(self, state: GameState, *, seat: int | None = None, iterations: int = 0,
               deadline: float | None = None, seed: int = 0, tuning: Tuning | None = None,
               progress: Callable[[Analysis], None] | None = None) -> Analysis:
        """The Sneferu search (``search.py``, SPEC 11.1); one seat decides at a time."""
        from .search import SearchOptions, search

        if seat is not None and seat != state.current_seat():
            raise ValueError(f"analyse: seat {seat + 1} has no decision to take now")
        o = SearchOptions()
        if tuning is not None:
            o = SearchOptions(
                exploration=o.exploration if tuning.exploration is None else tuning.exploration,
                horizon=o.horizon if tuning.horizon is None else tuning.horizon,
                widening=o.widening if tuning.widening is None else tuning.widening)
        return search(state, iterations=iterations, deadline=deadline, seed=seed, options=o,
                      progress=progress)

    def moves_left(self, state: GameState, seat: int) -> float:
        """The spaces the seat's boat may still move over the spaces a turn moves it on
        average (2.5), at least 3."""
        return max(3.0, (state.tables.last - state.players[seat].space) / 2.5)

    def rules_bench(self, players: int, setup: str | None, games: int, seed: int,
                    edition: Edition) -> RulesBench:
        from .bench import run_bench

        return run_bench(players, setup, games, seed, edition)

    def perft(self, state: GameState, depth: int) -> Perft:
        from .bench import perft_counts

        return perft_counts(state, depth)


_FAST = _SneferuFastPaths()
_TOOLS = _SneferuTools()

GAME = SneferuGame()
"""The registered Sneferu game."""

