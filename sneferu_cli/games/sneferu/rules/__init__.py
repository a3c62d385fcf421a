"""The rules of Sneferu, with no I/O: components, editions, the pyramid and the game state.

>>> from sneferu_cli.games.sneferu.rules import new_game
>>> new_game(players=3).is_chance_node()
True
"""

from ....edition import EditionError
from . import state as _state_module
from .chance import sample_outcome
from .components import Material, Power, Stone, Tile
from .edition import Edition, load_edition, parse_edition, standard_edition
from .pyramid import Geometry, Pyramid
from .state import (
    GameState,
    IllegalAction,
    Phase,
    Player,
    SoloResult,
    Standing,
    Tables,
    Variant,
    new_game,
)
from .steps import (
    DONE,
    END,
    FEAST,
    STORE,
    Action,
    Arrive,
    Assign,
    Buy,
    Done,
    Draw,
    End,
    Feast,
    LayTile,
    Outcome,
    Place,
    Shift,
    Step,
    Store,
)

__all__ = [
    "DONE", "END", "FEAST", "STORE", "Action", "Arrive", "Assign", "Buy", "Done", "Draw",
    "Edition", "EditionError", "End", "Feast", "GameState", "Geometry", "IllegalAction",
    "LayTile", "Material", "Outcome", "Phase", "Place", "Player", "Power",
    "Pyramid", "Shift", "SoloResult", "Standing", "Step", "Stone", "Store", "Tables", "Tile",
    "Variant", "core_build", "load_edition", "new_game", "parse_edition", "sample_outcome",
    "standard_edition",
]


def core_build() -> str:
    """How the rules core runs here: ``"compiled (mypyc)"`` or ``"pure Python"``.

    ``pip install .`` compiles it with mypyc where a C compiler is there (hatch_build.py);
    an editable install or a machine without a compiler runs the same source as Python.
    """
    file = _state_module.__file__ or ""
    return "pure Python" if file.endswith(".py") else "compiled (mypyc)"
