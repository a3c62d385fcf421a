"""Building Akropolis positions by hand for the rules tests (tests/akropolis/)."""

from __future__ import annotations

import random

from sneferu_cli.games.akropolis import GAME
from sneferu_cli.games.akropolis.edition import HEXES
from sneferu_cli.games.akropolis.geometry import CELLS, cell
from sneferu_cli.games.akropolis.scoring import city_scores
from sneferu_cli.games.akropolis.state import AkropolisState, City, new_game


def start(players: int = 2, variant: str = "hmbtga", site: tuple[str, ...] = ()
          ) -> AkropolisState:
    """A new game at its first turn, the site drawn as ``site`` (tile codes, place 1
    first; the first tiles of the edition by default)."""
    state = new_game(players, variant)
    codes = site or tuple(f"T{k:02d}" for k in range(1, players + 3))
    for code in codes:
        GAME.apply_outcome(state, "~" + code)
    return state


def play(state: AkropolisState, *texts: str) -> None:
    """Apply moves (checked) and chance outcomes (``~T17``) in order."""
    for text in texts:
        if text.startswith("~"):
            GAME.apply_outcome(state, text)
        else:
            GAME.apply_move(state, text)


def play_to_end(state: AkropolisState, rng: random.Random) -> None:
    """Play random legal moves and draws until the game is over."""
    while not state.is_over():
        if state.is_chance_node():
            GAME.apply_outcome(state, GAME.sample_outcome(state, rng))
        else:
            GAME.apply_move(state, rng.choice(GAME.legal_moves(state)))


def hand_city(hexes: dict[tuple[int, int], str]) -> City:
    """A city of top hexes written ``{(q, r): "h2"}`` (hex code, then its level, 1 when
    left out), each hex from a tile of its own; no starting tile. Only what scoring reads
    (top hexes, heights, footprint) is set."""
    height, top, tile = bytearray(CELLS), bytearray(b"\xff" * CELLS), bytearray(CELLS)
    cells = []
    for k, ((q, r), text) in enumerate(hexes.items()):
        c = cell(q, r)
        height[c] = int(text[1:] or "1")
        top[c] = HEXES.index(text[0])
        tile[c] = k + 2
        cells.append(c)
    city = City(bytes(height), bytes(top), bytes(tile))
    city.cells = cells
    city.height = bytes(height)  # counts its footprint's pairs and triples (has_lakes)
    return city


def scores(city: City, variant: str = "hmbtga") -> list[int]:
    """The five district scores (houses, markets, barracks, temples, gardens) of ``city``
    with the standard stars, in ``variant``'s bonus variants."""
    state = new_game(2, variant)
    city.scores = None  # kept for one game's variant
    return city_scores(city, state.tables.stars, state.bonus)


def ring(centre: tuple[int, int], hex_: str = "q") -> dict[tuple[int, int], str]:
    """The six neighbours of ``centre``, each ``hex_``."""
    q, r = centre
    return {(q + dq, r + dr): hex_
            for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))}
