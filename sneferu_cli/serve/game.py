"""One open game of the server: its state, what was applied to it, undo, and its seed.

A :class:`Game` wraps a state of one registered game (:mod:`sneferu_cli.game`; Sneferu
unless told otherwise) with the history the server needs: every applied *entry* (a whole
move, a single step or a chance outcome, as the client gave it) and a snapshot of the
state at each turn's start, so that undoing replays at most one turn. Moves and outcomes
go through the game interface as notation text, and the single steps of a game whose turn
is several (Sneferu's) through its ``Game.turn_steps``. The history is bounded by the
game's length (a game has at most a few hundred entries and one snapshot per turn);
closing the game frees it.

>>> from sneferu_cli.game import get_game
>>> sneferu = get_game("sneferu")
>>> game = Game(sneferu.new_game(2), seed=3)
>>> len(game.chance())                   # the 15 tiles, 28 stones and 2 boat arrivals
45
>>> move = sneferu.legal_moves(game.state)[0]
>>> game.play(move)
>>> [str(e) for e in game.undo()] == [move]
True
>>> game.state.phase.name, len(game.history)
('START', 45)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game as Rules
from ..game import get_game
from .requests import RequestError


@dataclass(frozen=True)
class SealedMove:
    """One seat's move at a simultaneous node (0-based ``seat``): kept with its seat, which
    a replay needs (the moves of such a node may come in any order); ``str`` gives
    ``seat=N MOVE``, as a ``play`` request names it."""

    seat: int
    move: str

    def __str__(self) -> str:
        return f"seat={self.seat + 1} {self.move}"


Entry = str | SealedMove | object
"""What one request applied: a whole move or a chance outcome (``~``...), as canonical
notation text, a seat's move at a simultaneous node, or one step of a turn of several
(the game's own object, ``str`` gives its notation: ``Game.turn_steps``)."""


class Game:
    """A game being played through the server (or by a Python caller).

    ``seed`` seeds the generator that draws chance events (``random.Random(seed)``, as
    ``sneferu position new --seed``); without one a fresh seed is chosen, so that
    ``seed`` can always be reported and the draws replayed. ``rules`` is the game played
    (Sneferu when not given).
    """

    def __init__(self, state: Any, seed: int | None = None, rules: Rules | None = None) -> None:
        self.state = state
        self.rules = rules or get_game()
        """The game played (its :class:`sneferu_cli.game.Game`)."""
        self.steps = self.rules.turn_steps()
        """The game's single steps when a turn is several (Sneferu's), else None."""
        self._moves = 0  # another game's turn count: its moves applied
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.rng = random.Random(self.seed)
        self._entries: list[Entry] = []
        # (number of entries applied, state then) at the opening and at each turn's start.
        self._marks: list[tuple[int, Any]] = [(0, state.clone())]

    @property
    def history(self) -> list[Entry]:
        """The entries applied since the game was opened, oldest first (a copy)."""
        return self._entries[:]

    def play(self, move: str | Sequence[object] | object, seat: int | None = None) -> None:
        """Apply a whole move (Sneferu: the rest of the current turn) atomically, given as
        notation text (or, from Python, a Sneferu ``Move`` or its steps); it is recorded
        in its canonical form. ``seat`` (0-based): the seat whose move it is, one of those
        deciding (by default the current seat); at a simultaneous node the move stays
        sealed until the last deciding seat's is in."""
        if not isinstance(move, str):
            move = (" ".join(str(s) for s in move) if isinstance(move, Sequence)
                    else str(move))
        turn = self._turn()
        rules, state = self.rules, self.state
        entry: Entry
        if rules.is_simultaneous(state):
            seat = state.current_seat() if seat is None else seat
            entry = SealedMove(seat, rules.apply_move(state, move, seat))
        elif seat is None:
            entry = rules.apply_move(state, move)
        else:
            entry = rules.apply_move(state, move, seat)
        if self.steps is None:
            self._moves += 1
        self._record(entry, turn)

    def step(self, step: object) -> None:
        """Apply one step of the seat to decide (``done`` included), or its notation text:
        only in a game whose turns are several steps (Sneferu's)."""
        steps = self.steps
        if steps is None:
            raise RequestError(f"step: {self.rules.title} has no single steps")
        if isinstance(step, str):
            step = steps.read_step(step)
        turn = self._turn()
        steps.apply_step(self.state, step)
        self._record(step, turn)

    def chance(self, outcome: str | object | None = None) -> list[str]:
        """Apply ``outcome`` (its notation text, or from Python a Sneferu outcome), or draw
        with the game's generator up to the next decision.

        Returns the outcomes applied (none when a seat is to decide or the game is over).
        """
        state = self.state
        if outcome is not None:
            outcome = str(outcome)
            if not state.is_chance_node():
                raise RequestError(f"{outcome}: not a chance node ("
                                   + ("the game is over)" if state.is_over()
                                      else f"seat {state.current_seat() + 1} is to move)"))
            self._apply_outcome(outcome)
            return [outcome]
        drawn: list[str] = []
        while state.is_chance_node():
            o = self.rules.sample_outcome(state, self.rng)
            self._apply_outcome(o)
            drawn.append(o)
        return drawn

    def undo(self, turn: bool = False) -> list[Entry]:
        """Undo the last entry, or (``turn``) back to the start of this turn.

        With ``turn``, the game goes back to the latest point where a seat stood at the
        start of its turn before the last entry: the start of the current turn, or of the
        previous one when nothing was done in this one yet (chance draws in between are
        undone too); back to the opening when no turn began since. The game's random
        generator is not rewound. Returns the entries undone, oldest first.
        """
        n = len(self._entries)
        if not n:
            raise RequestError("undo: nothing to undo")
        marks = self._marks
        target = max(i for i, _ in marks if i < n) if turn else n - 1
        while marks[-1][0] > target:
            marks.pop()
        start, snapshot = marks[-1]
        state = snapshot.clone()
        for entry in self._entries[start:target]:
            self._apply(state, entry)
        undone = self._entries[target:]
        del self._entries[target:]
        if self.steps is None:
            self._moves -= sum(1 for e in undone if isinstance(e, SealedMove)
                               or (isinstance(e, str) and e[:1] != "~"))
        self.state = state
        return undone

    def _apply_outcome(self, outcome: str) -> None:
        turn = self._turn()
        self.rules.apply_outcome(self.state, outcome)
        self._record(outcome, turn)

    def _turn(self) -> int:
        return self.steps.turn_number(self.state) if self.steps is not None else self._moves

    def _record(self, entry: Entry, turn: int) -> None:
        self._entries.append(entry)
        if self._turn() != turn:  # a new turn began: remember where it starts
            self._marks.append((len(self._entries), self.state.clone()))

    def _apply(self, state: Any, entry: Entry) -> None:
        if isinstance(entry, SealedMove):
            self.rules.apply_move(state, entry.move, entry.seat)
        elif not isinstance(entry, str):
            assert self.steps is not None  # only such a game has steps in its history
            self.steps.apply_step(state, entry)
        elif entry[:1] == "~":
            self.rules.apply_outcome(state, entry)
        else:
            self.rules.apply_move(state, entry)
