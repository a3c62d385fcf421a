"""sneferu: the reference arbiter for Sneferu: Builders of the Pyramids.

Layers, each a subpackage: ``rules`` (the game, no I/O) -> ``notation`` (moves, positions,
pictures) -> ``cli`` (the ``sneferu`` command).
"""

__version__ = "0.1.0"
