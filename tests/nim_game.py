"""A tiny test-only game, Nim with a chance start, behind sneferu_cli.game.Game: it shows
the layers above the rules need nothing of Sneferu. Register it with :func:`register`.

Set-up draws the heap (``~H5`` to ``~H7``, equally likely); then the seats in turn take 1,
2 or 3 stones (``take N``); whoever takes the last stone ranks first, every other seat
second. Scores: ``taken`` (stones taken) and ``last`` (1 for the last taker). Position:
``nim heap=H seat=S taken=A,B,... retired=0,1,...`` (``heap=?`` before set-up).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sneferu_cli.game import GAMES, Game, NotationError, Standing

HEAPS = (5, 6, 7)


class IllegalNim(ValueError):
    """An illegal move or outcome."""


@dataclass
class NimState:
    players: int
    heap: int | None = None
    seat: int = 0
    taken: list[int] = field(default_factory=list)
    retired: list[bool] = field(default_factory=list)
    last: int = -1

    def is_chance_node(self) -> bool:
        return self.heap is None

    def is_over(self) -> bool:
        return self.heap == 0 or all(self.retired)

    def current_seat(self) -> int:
        return self.seat

    def clone(self) -> NimState:
        return NimState(self.players, self.heap, self.seat, self.taken[:], self.retired[:],
                        self.last)

    def retire(self, seat: int) -> None:
        self.retired[seat] = True
        if seat == self.seat and not self.is_over():
            self._next()

    def _next(self) -> None:
        for k in range(1, self.players + 1):
            s = (self.seat + k) % self.players
            if not self.retired[s]:
                self.seat = s
                return


@dataclass(frozen=True)
class Edition:
    name: str = "standard"


class NimGame(Game[NimState, Edition]):
    name = "nim"
    title = "Nim"
    players = range(2, 5)
    variants = ("standard",)
    score_keys = ("taken", "last")

    def standard_edition(self) -> Edition:
        return Edition()

    def load_edition(self, path: Path) -> Edition:
        return Edition(path.stem)

    def new_game(self, players: int, *, variant: str | None = None,
                 edition: Edition | None = None) -> NimState:
        if players not in self.players:
            raise ValueError(f"players: {players} (Nim: 2 to 4)")
        return NimState(players, taken=[0] * players, retired=[False] * players)

    def from_position(self, text: str, edition: Edition | None = None) -> NimState:
        m = re.fullmatch(r"nim heap=(\?|\d+) seat=(\d) taken=([\d,]+) retired=([01,]+)", text)
        if m is None:
            raise NotationError(f"not a Nim position: {text!r}")
        taken = [int(t) for t in m.group(3).split(",")]
        retired = [r == "1" for r in m.group(4).split(",")]
        heap = None if m.group(1) == "?" else int(m.group(1))
        return NimState(len(taken), heap, int(m.group(2)) - 1, taken, retired)

    def to_position(self, state: NimState) -> str:
        heap = "?" if state.heap is None else str(state.heap)
        return (f"nim heap={heap} seat={state.seat + 1} "
                f"taken={','.join(map(str, state.taken))} "
                f"retired={','.join('1' if r else '0' for r in state.retired)}")

    def players_of(self, state: NimState) -> int:
        return state.players

    def variant_of(self, state: NimState) -> str:
        return "standard"

    def edition_of(self, state: NimState) -> Edition:
        return Edition()

    def chance_outcomes(self, state: NimState) -> list[tuple[str, float]]:
        return [(f"~H{h}", 1 / len(HEAPS)) for h in HEAPS] if state.heap is None else []

    def sample_outcome(self, state: NimState, rng: random.Random) -> str:
        return f"~H{rng.choice(HEAPS)}"

    def apply_outcome(self, state: NimState, text: str) -> None:
        if state.heap is not None or text not in {o for o, _ in self.chance_outcomes(state)}:
            raise IllegalNim(f"{text}: no such chance outcome now")
        state.heap = int(text[2:])

    def _legal_moves(self, state: NimState, seat: int) -> list[str]:
        if state.heap is None or state.is_over():
            return []
        return [f"take {n}" for n in (1, 2, 3) if n <= state.heap]

    def _apply_move(self, state: NimState, seat: int, text: str, listed: bool) -> str:
        move = self.canonical_move(text)
        if move not in self._legal_moves(state, seat):
            raise IllegalNim(f"{move}: not a legal move (heap {state.heap})")
        n = int(move.split()[1])
        assert state.heap is not None
        state.heap -= n
        state.taken[state.seat] += n
        if state.heap == 0:
            state.last = state.seat
        else:
            state._next()
        return move

    def canonical_move(self, text: str) -> str:
        m = re.fullmatch(r"take +([1-9])", text.strip())
        if m is None:
            raise NotationError(f"not a Nim move: {text!r} (take N)")
        return f"take {m.group(1)}"

    def standings(self, state: NimState) -> list[Standing]:
        out = []
        for s in range(state.players):
            rank = 1 if s == state.last and not state.retired[s] else 2
            if state.retired[s]:
                rank = 3
            out.append(Standing(s + 1, rank, {"taken": state.taken[s],
                                               "last": int(s == state.last)},
                                state.retired[s]))
        return out

    def termination(self, state: NimState, standings: Any = None) -> str:
        if not state.is_over():
            return "aborted"
        return "all-retired" if all(state.retired) else "normal"

    def picture(self, state: NimState) -> str:
        return f"heap: {'o' * (state.heap or 0)}\nseat {state.seat + 1} to move"

    def page_data(self, state: NimState) -> dict[str, Any]:
        return {"heap": state.heap, "taken": state.taken}


GAME = NimGame()


def register() -> None:
    """Add Nim to the registry of this process (tests only)."""
    GAMES.setdefault("nim", "nim_game")
