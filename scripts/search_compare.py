#!/usr/bin/env python3
"""The generic search's playouts per second, interleaved across installed builds.

    python scripts/search_compare.py GAME ITERATIONS ROUNDS VENV [VENV...]

Each round runs, for each VENV in turn, ``search_game`` (SPEC 11.4) with ITERATIONS
iterations on six 4-player positions of GAME (reached from new games by one
``random.Random(7)``: 20 to 119 random steps, then chance drawn until a seat decides; each
search seeded with its position's index) in a fresh process of that venv's Python,
started in the system's temporary folder with PYTHONPATH unset so that the build installed
there is what runs, and prints its playouts per second (CPU time) and a digest of the
analyses (their moves, visits and rewards; the time they took left out), so that builds
that search alike show the same digest. Ends with the best round of each VENV and its
ratio to the first. E.g. ``taskset -c 1 python scripts/search_compare.py imhotep 500 3
OLD NEW``.
"""

from __future__ import annotations

import sys

from builds import interleave

CHILD = r"""
import hashlib, random, sys, time
from sneferu_cli.game import get_game
from sneferu_cli.search.generic import search_game
game, iterations = get_game(sys.argv[1]), int(sys.argv[2])
rng = random.Random(7)
states = []
while len(states) < 6:
    state = game.new_game(4)
    for _ in range(rng.randrange(20, 120)):
        if state.is_over():
            break
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        else:
            game.apply_move(state, rng.choice(game.legal_moves(state)), listed=True)
    while not state.is_over() and state.is_chance_node():
        game.apply_outcome(state, game.sample_outcome(state, rng))
    if not state.is_over():
        states.append(state)
t0 = time.process_time()
analyses = [search_game(game, s.clone(), iterations=iterations, seed=i)
            for i, s in enumerate(states)]
rate = iterations * len(states) / (time.process_time() - t0)
moves = [[(str(m.move), m.visits, round(m.reward, 9)) for m in a.moves] for a in analyses]
print(rate, "analyses", hashlib.sha256(repr(moves).encode()).hexdigest()[:12])
"""


def main(argv: list[str]) -> None:
    if len(argv) < 4:
        sys.exit(__doc__)
    interleave(CHILD, argv[:2], argv[3:], int(argv[2]), "playouts/s")


if __name__ == "__main__":
    main(sys.argv[1:])
