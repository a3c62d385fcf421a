#!/usr/bin/env python3
"""greedy: an engine that looks one move ahead and plays the best-valued result, in
every registered game (it declares them all with ``feature games``).

Each legal move is applied to a copy of the position and the deciding seat's result is
valued by the game's own estimate (``Game.evaluate``: games/sneferu/heuristic.py, stones
in the pyramid and stored, food and the time left on the river; games/imhotep/heuristic.py,
...): the seat's value less the mean of the others'. Ties are broken at random (option
Seed).

With hidden information it values moves in one full state drawn from its seat's view
(``Hidden.determinize``); at a simultaneous node the other seats' sealed moves are drawn at
random, once, and applied with each of its own before the result is valued.
"""

from typing import Any

from sneferu_cli.game import game_names
from sneferu_cli.protocol.bot import Bot, run
from sneferu_cli.protocol.messages import Go
from sneferu_cli.search.generic import gain


class GreedyPlayer(Bot):
    name = "greedy"
    games = tuple(game_names())

    def choose(self, state: Any, go: Go) -> str:
        game = self.game
        seat = self.seat
        world, others = self.sealed_world(state)
        best: list[str] = []
        best_value = float("-inf")
        if game.evaluate(world) is None:  # no estimate: every move alike
            return self.rng.choice(self.legal_moves(state))
        for move in self.legal_moves(state):
            if not others:
                value = gain(game, world, seat, move)
            else:
                after = world.clone()
                game.apply_move(after, move, seat)
                for other, reply in others:
                    game.apply_move(after, reply, other)
                values = game.evaluate(after)
                assert values is not None
                rest = [v for i, v in enumerate(values) if i != seat]
                value = values[seat] - sum(rest) / max(1, len(rest))
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return self.rng.choice(best)

    def sealed_world(self, state: Any) -> tuple[Any, list[tuple[int, str]]]:
        """Where each move is valued: with hidden information, one full state drawn from
        what this seat knows (``Hidden.determinize``); and at a simultaneous node the other
        deciding seats' sealed moves, drawn at random once for every move valued (they
        cannot depend on this seat's, and they come in before the position is valued)."""
        game = self.game
        hidden = game.hidden()
        world = (hidden.determinize(state, self.seat, self.rng) if hidden is not None
                 else state)
        if not game.is_simultaneous(world):
            return world, []
        return world, [(other, self.rng.choice(game.legal_moves(world, other)))
                       for other in game.deciding_seats(world) if other != self.seat]


if __name__ == "__main__":
    run(GreedyPlayer())
