"""Play one game of Sneferu with the Python library: the embedding story for Python.

    python examples/library_game.py [SEED]

A new game starts at a chance node (the set-up draws); chance events are drawn with a
seeded generator, every decision picks one of the legal whole moves, and the game ends
with the ranking (R6). Along the way: the position notation, the JSON state document, and
the server's Game for undo.
"""

from __future__ import annotations

import random
import sys

import msgspec

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import Move, legal_moves
from sneferu_cli.games.sneferu.position import from_position, to_position
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.serve import Game, state_doc


def main(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players=3)
    turns = 0
    while not state.is_over():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()  # [(outcome, probability), ...]
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply(sample_outcome(state, rng))  # or state.apply(outcomes[0][0])
            continue
        moves = legal_moves(state)  # every legal whole turn of the seat to move
        move = rng.choice(moves)
        state.apply_turn(move.steps)
        turns += 1
        if turns == 1:
            text = to_position(state)  # the whole state on one line
            assert to_position(from_position(text)) == text
            print(f"after {move}: {text[:60]}...")
    print(f"{turns} turns played")
    for standing in sorted(state.ranking(), key=lambda s: s.rank):
        print(f"{standing.rank}. seat {standing.seat + 1}: {standing.stones} stones, "
              f"{standing.food} food")

    # The same rules with history and undo, as the server keeps them.
    game = Game(new_game(players=2), seed=seed)
    game.chance()  # draws the set-up with the game's seed
    before = to_position(game.state)
    text = str(legal_moves(game.state)[0])  # a move in move notation, as a bot sends it
    game.play(Move.from_str(text))
    game.undo()
    assert to_position(game.state) == before
    doc = state_doc(game.state, legal=True)
    print("JSON state:", msgspec.json.encode(doc)[:70].decode(), "...")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
