"""The learning-library bindings (SPEC 16): OpenSpiel (:mod:`.openspiel`) and PettingZoo
(:mod:`.pettingzoo`), made for every registered game from the game interface's action
encoding (:meth:`sneferu_cli.game.Game.encoding`). They need the ``rl`` extra
(``pip install 'sneferu[rl]'``)."""

from __future__ import annotations

import importlib

from ..game import Encoding, Game, game_names, get_game

__all__ = ["EXTRA_MESSAGE", "encoded_games", "need", "returns", "unencoded_games"]

EXTRA_MESSAGE = "the learning-library bindings need the rl extra: pip install 'sneferu[rl]'"


def need(*modules: str) -> None:
    """Import ``modules`` or raise ImportError with the one line saying which extra to
    install."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise ImportError(f"{EXTRA_MESSAGE} (no module {module!r})") from e


def encoded_games() -> list[Game]:
    """The registered games that have an action encoding, registry order."""
    return [g for g in map(get_game, game_names()) if g.encoding(g.players[0]) is not None]


def unencoded_games() -> list[str]:
    """One line per registered game the bindings skip: it has no action encoding."""
    return [f"{g.name}: no action encoding (Game.action_names), not bound"
            for g in map(get_game, game_names()) if g.encoding(g.players[0]) is None]


def returns(encoding: Encoding, state: object) -> list[float]:
    """Each seat's return from the final ranking, in [-1, 1] and summing to 0: the seats
    ranked below it minus those ranked above it, over ``players - 1`` (2 players: win 1,
    loss -1, tie 0)."""
    ranks = [s.rank for s in encoding.game.standings(state)]
    n = len(ranks)
    return [(sum(r > mine for r in ranks) - sum(r < mine for r in ranks)) / (n - 1)
            for mine in ranks]
