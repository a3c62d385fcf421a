#!/usr/bin/env python3
"""greedy: an engine that looks one move ahead and plays the best-valued result, in
Sneferu, Imhotep and Akropolis (it declares them with ``feature games``).

Each legal move is applied to a copy of the position and the deciding seat's result is
valued. Sneferu: stones in the pyramid (and stored), food, and the time left on the river
(spaces before the last one, each a chance to buy later). Another game: the game's own
estimate (``Game.evaluate``: games/imhotep/heuristic.py, games/akropolis/heuristic.py),
the seat's value less the mean of the others'. Ties are broken at random (option Seed).
"""

from typing import Any

from sneferu_cli.games.sneferu.notation.move import Move
from sneferu_cli.games.sneferu.rules.state import GameState
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go

STONE = 10.0  # a stone placed: what the ranking counts first
STORED = 7.0  # a stone stored: placed later for free, but not yet counted
FOOD = 1.0
SPACE = 1.2  # a space left to sail: time to buy more stones


class GreedyPlayer(Bot):
    name = "greedy"
    games = ("sneferu", "imhotep", "akropolis")

    def choose(self, state: Any, go: Go) -> str:
        if self.game.name == "sneferu":
            return self.choose_sneferu(state)
        game = self.game
        seat = state.current_seat()
        best: list[str] = []
        best_value = float("-inf")
        for move in game.legal_moves(state):
            after = state.clone()
            game.apply_listed_move(after, move)
            values = game.evaluate(after)
            if values is None:  # no estimate: every move alike
                return self.rng.choice(game.legal_moves(state))
            others = [v for i, v in enumerate(values) if i != seat]
            value = values[seat] - sum(others) / max(1, len(others))
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return self.rng.choice(best)

    def choose_sneferu(self, state: GameState) -> str:
        seat = state.current_seat()
        last = state.tables.last
        best = []
        best_value = float("-inf")
        for turn in state.legal_turns():
            after = state.clone()
            after.apply_turn(turn)
            p = after.players[seat]
            value = (STONE * p.pyramid.count + STORED * len(p.store) + FOOD * p.food
                     + SPACE * (last - p.space))
            if value > best_value + 1e-9:
                best, best_value = [turn], value
            elif value > best_value - 1e-9:
                best.append(turn)
        return str(Move(self.rng.choice(best)))


if __name__ == "__main__":
    run(GreedyPlayer())
