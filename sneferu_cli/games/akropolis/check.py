"""Akropolis's invariants (``GAME.check``, called by the tests at every step of random games).

Every tile of the game's tile set is in exactly one place (undrawn, the site, a city: 4.2,
A4); the site never holds more than *n* + 2 places; stones are never negative (A6); every
city's heights, top hexes and top tiles are those its placements give, replayed from the
starting tile (5.2), its footprint lists each occupied position once, and the legal spots
it keeps (unless a position read left them to be found when listed) are those a full search
of it finds.
"""

from __future__ import annotations

from ...game import BrokenInvariant
from .state import AkropolisState, City, spot_of

__all__ = ["check"]


def check(state: AkropolisState) -> None:
    """Raise :class:`BrokenInvariant` when ``state`` breaks conservation or a bound."""
    t = state.tables
    n = state.players
    problems: list[str] = []
    placed = [tile for city in state.cities for tile in city.tiles]
    everywhere = sorted(state.undrawn + state.site + placed)
    if everywhere != t.tile_set(n, state.all_tiles):
        problems.append("the tiles in play are not the tile set, each once")
    if len(state.site) + state.to_draw > n + 2:
        problems.append(f"site of {len(state.site)} + {state.to_draw} places")
    if any(s < 0 for s in state.stones):
        problems.append(f"stones {state.stones}")
    for seat, city in enumerate(state.cities):
        again = City()
        if (again.replay(t, city.tiles, city.spots) < len(city.tiles)
                or again.height != city.height or again.top != city.top or again.tile != city.tile
                or sorted(again.cells) != sorted(city.cells)
                or len(set(city.cells)) != len(city.cells)):
            problems.append(f"seat {seat + 1}: the city is not what its placements build")
        if city.legal_known and city.legal != list(map(spot_of, city.searched())):
            problems.append(f"seat {seat + 1}: the legal spots kept are not those a search "
                            "of the city finds")
    if problems:
        raise BrokenInvariant("; ".join(problems))
