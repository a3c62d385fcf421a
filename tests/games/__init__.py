"""The test-only games, each a package of this folder (``tricks/``), and their registry:
one line of :data:`TEST_GAMES` a game. The generic suites (tests/test_games.py,
test_games_views.py, test_rl.py, test_test_games.py) call :func:`register_all` and run
over every game here; so do the child processes they start
(tests/engines/with_test_games.py)."""

from __future__ import annotations

from sneferu_cli.game import GAMES

TEST_GAMES: dict[str, str] = {
    "tricks": "games.tricks",
}
"""Test-only game name -> the module whose ``GAME`` is its Game (importable with tests/ on
the path, as pytest and with_test_games.py put it)."""


def register_all() -> list[str]:
    """Add every test-only game here to the registry of this process; their names."""
    for name, module in TEST_GAMES.items():
        GAMES.setdefault(name, module)
    return list(TEST_GAMES)
