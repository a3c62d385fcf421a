"""The learning-library bindings (SPEC 16): OpenSpiel (:mod:`.openspiel`) and PettingZoo
(:mod:`.pettingzoo`), made for every registered game from the game interface's action
encoding (:meth:`sneferu_cli.game.Learning.encoding` of the game's
:meth:`sneferu_cli.game.Game.learning`). They need the ``rl`` extra
(``pip install 'sneferu[rl]'``)."""

from __future__ import annotations

import importlib

from ..game import Encoding, Game, game_names, get_game
from .core import (
    Decision,
    action_index,
    chosen_bits,
    chosen_size,
    observation,
    observation_size,
    write_chosen,
)

__all__ = ["EXTRA_MESSAGE", "Decision", "action_index", "chosen_bits", "chosen_size",
           "encoded_games", "need", "observation",
           "observation_size", "returns", "set_up", "unencoded_games", "write_chosen"]

EXTRA_MESSAGE = "the learning-library bindings need the rl extra: pip install 'sneferu[rl]'"


def need(*modules: str) -> None:
    """Import ``modules`` or raise ImportError with the one line saying which extra to
    install."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise ImportError(f"{EXTRA_MESSAGE} (no module {module!r})") from e


def set_up(game: str, players: int | None, variant: str | None) -> Encoding:
    """The action encoding of ``game`` for ``players`` seats (its smallest count by
    default) in ``variant`` (its first by default); ValueError naming what is wrong, also
    when the game has no action encoding."""
    rules = get_game(game)
    players = rules.players[0] if players is None else players
    if players not in rules.players:
        raise ValueError(f"{rules.title} is for {rules.players[0]} to "
                         f"{rules.players[-1]} players, not {players}")
    if variant is not None and variant not in rules.variants:
        raise ValueError(f"{rules.title} has no variant {variant!r}")
    learning = rules.learning()
    if learning is None:
        raise ValueError(f"{rules.title} has no action encoding yet (Game.learning)")
    return learning.encoding(players, variant)


def encoded_games() -> list[Game]:
    """The registered games that have an action encoding, registry order."""
    return [g for g in map(get_game, game_names()) if g.learning() is not None]


def unencoded_games() -> list[str]:
    """One line per registered game the bindings skip: it has no action encoding."""
    return [f"{g.name}: no action encoding (Game.learning), not bound"
            for g in map(get_game, game_names()) if g.learning() is None]


def returns(encoding: Encoding, state: object) -> list[float]:
    """Each seat's return from the final ranking, in [-1, 1] and summing to 0: the seats
    ranked below it minus those ranked above it, over ``players - 1`` (2 players: win 1,
    loss -1, tie 0). A solo game's one seat: 1 when it beat the game's automaton, else -1
    (the solo result of its record tags, :meth:`Game.record_tags`; 0 for a game without
    one)."""
    ranks = [s.rank for s in encoding.game.standings(state)]
    n = len(ranks)
    if n == 1:
        tags = encoding.game.record_tags()
        solo = None if tags is None else tags.solo_of(tags.result_tags(state))
        return [0.0 if solo is None else 1.0 if solo.won else -1.0]
    return [(sum(r > mine for r in ranks) - sum(r < mine for r in ranks)) / (n - 1)
            for mine in ranks]
