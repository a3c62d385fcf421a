"""Steps (a player's atomic decisions) and chance outcomes, as small immutable values.

A turn is a sequence of steps: optional pre-buy steps (placing a stored stone, the feast,
moving a stone into an empty column), then a buy, then placing (or storing) the stone,
then optional after-turn steps. Each value prints as its token of the move notation
(SPEC.md, "Move notation"); :mod:`sneferu_cli.games.sneferu.move` reads them back.

=========  ==========  =================================================================
step       token       meaning
=========  ==========  =================================================================
Buy        ``3.2+``    take the stone in column 3, row 2; ``+`` uses the quarry bonus
Place      ``BT@1.4``  basalt left, Tura right, level 1 slot 4; ``h`` adds Heba's sail-back
Store      ``store``   set the stone aside (STOREHOUSE bonus)
Feast      ``feast``   Lateef's feast
Shift      ``2>4``     top stone of column 2 to the bottom of empty column 4 (R4)
End        ``end``     forced end: the boat goes to the last space (4.1)
Done       ``done``    end the turn when optional steps remain (never written in a move)
=========  ==========  =================================================================

Chance outcomes print with a ``~``: ``~BT`` (a stone drawn), ``~FOOD1`` (a tile laid on the
next quarry), ``~2`` (seat 2's boat arrives next at the start), ``~Heba`` (the next seat's
builder).

>>> str(Buy(3, 2, True)), str(Place(1, 4, Material.B, Material.T)), str(Draw(Stone.MG))
('3.2+', 'BT@1.4', '~MG')
"""

from __future__ import annotations

import msgspec

from .components import Material, Stone, Tile


class Buy(msgspec.Struct, frozen=True, tag=True):
    """Take the stone at ``column``, ``row`` (1-based); ``bonus``: use the quarry bonus."""

    column: int
    row: int
    bonus: bool = False

    def __str__(self) -> str:
        return f"{self.column}.{self.row}{'+' if self.bonus else ''}"


class Place(msgspec.Struct, frozen=True, tag=True):
    """Place a stone at ``level``, ``slot`` with ``left`` and ``right`` materials.

    The stone is the one just bought, or a stored one before the buy or after the turn
    that reached the last space. ``heba``: Heba sails 2 spaces back with this placement.
    """

    level: int
    slot: int
    left: Material
    right: Material
    heba: bool = False

    def __str__(self) -> str:
        heba = "h" if self.heba else ""
        return f"{self.left.name}{self.right.name}@{self.level}.{self.slot}{heba}"

    @property
    def stone(self) -> Stone:
        return Stone.of(self.left, self.right)


class Store(msgspec.Struct, frozen=True, tag=True):
    """Set the bought stone aside in the storehouse (STOREHOUSE bonus)."""

    def __str__(self) -> str:
        return "store"


class Feast(msgspec.Struct, frozen=True, tag=True):
    """Lateef's feast: food for each level of the pyramid holding a stone."""

    def __str__(self) -> str:
        return "feast"


class Shift(msgspec.Struct, frozen=True, tag=True):
    """Move the top stone of column ``source`` to the bottom of empty column ``target`` (R4)."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{self.source}>{self.target}"


class End(msgspec.Struct, frozen=True, tag=True):
    """The forced end: no stone can be bought, the boat goes to the last space (4.1)."""

    def __str__(self) -> str:
        return "end"


class Done(msgspec.Struct, frozen=True, tag=True):
    """Finish the turn while optional after-turn steps remain."""

    def __str__(self) -> str:
        return "done"


STORE, FEAST, END, DONE = Store(), Feast(), End(), Done()

Step = Buy | Place | Store | Feast | Shift | End | Done


class Draw(msgspec.Struct, frozen=True, tag=True):
    """Chance: the stone drawn from the bag."""

    stone: Stone

    def __str__(self) -> str:
        return f"~{self.stone.name}"


class LayTile(msgspec.Struct, frozen=True, tag=True):
    """Chance (set-up): the tile laid on the next quarry in track order."""

    tile: Tile

    def __str__(self) -> str:
        return f"~{self.tile.name}"


class Arrive(msgspec.Struct, frozen=True, tag=True):
    """Chance (set-up): the seat (0-based; written 1-based) whose boat arrives next at the start."""

    seat: int

    def __str__(self) -> str:
        return f"~{self.seat + 1}"


class Assign(msgspec.Struct, frozen=True, tag=True):
    """Chance (set-up, random builders): the builder of the next seat without one."""

    builder: str

    def __str__(self) -> str:
        return f"~{self.builder}"


Outcome = Draw | LayTile | Arrive | Assign
Action = Step | Outcome
