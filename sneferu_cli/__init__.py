"""sneferu: the reference arbiter for Sneferu: Builders of the Pyramids.

Layers, each a subpackage, each using only those before it: ``rules`` (the game, no I/O)
-> ``notation`` (moves, positions, pictures) and ``record`` (game records) -> ``protocol``
(engine messages) -> ``arbiter`` (engine processes, one game) -> ``tournament`` -> ``cli``
(the ``sneferu`` command); ``serve`` is the rules oracle for other languages.
"""

__version__ = "0.1.0"
