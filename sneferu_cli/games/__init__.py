"""The games, one folder each (its rules, notation, edition data and picture); the layers
above reach them only through :mod:`sneferu_cli.game` (``get_game(name)``)."""
