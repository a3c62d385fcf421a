#!/usr/bin/env python3
"""greedy: a Sneferu engine that looks one turn ahead and plays the best-valued result.

Each legal move is applied to a copy of the position and the seat's result is valued:
stones in the pyramid (and stored), food, and the time left on the river (spaces before
the last one, each a chance to buy later). Ties are broken at random (option Seed).
"""

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

    def choose(self, state: GameState, go: Go) -> str:
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
