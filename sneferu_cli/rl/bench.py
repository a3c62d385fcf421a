"""The bindings' speed (SPEC 16.5, ``sneferu bench --bindings``): environment steps per
second through the PettingZoo environment and the OpenSpiel binding against the game's own
random playouts, in the same run.

A *step* is one decision of a seat: through the game interface a whole move drawn
uniformly from :meth:`~sneferu_cli.game.Game.legal_moves` and applied with
``apply_move(..., listed=True)``; through PettingZoo ``last()`` (the observation and
action mask) then ``step`` with an action id drawn uniformly from the mask; through
OpenSpiel the deciding seat's ``observation_tensor`` and ``legal_actions`` then
``apply_action``. With a factored
encoding a move is several steps through the bindings (one per part), so the moves are
counted too. Chance is drawn by its probabilities on the way (inside the PettingZoo
environment, as chance actions in OpenSpiel) and is in the time but not counted. The three
are played in interleaved rounds, so a busy moment of the machine slows them alike; the
overhead is a binding's time per move over the game interface's.

The vectorized environment (:mod:`.vector`) is measured with :data:`VECTOR_SIZES`
environments, one worker process per core: each round it takes as many steps as the
PettingZoo environment took in that round (rounded up to whole steps of all its
environments), an action id drawn uniformly from each row's mask; its time is the
wall-clock time, both cores working, so its overhead may be under 1x.

OpenSpiel's own floor (:func:`openspiel_floor`) is its Python example game
``python_tic_tac_toe`` played through its own Python methods and through pyspiel: what
pyspiel's layer costs a Python game beyond the game's logic, to set beside what the
OpenSpiel binding costs beyond the game interface (the table's last line)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bench import core_build_of, python_version
from ..game import Game, get_game
from ..words import plural

__all__ = ["FLOOR_GAME", "INTERFACE", "OPENSPIEL", "OWN_LOGIC", "PETTINGZOO",
           "PETTINGZOO_FLOOR_GAME", "PETTINGZOO_FLOOR_MISSING", "ROUNDS", "VECTOR_SIZES",
           "BindingFigure", "bindings_bench", "bindings_table", "openspiel_floor",
           "pettingzoo_floor", "random_actions", "vector_way"]

INTERFACE = "game interface"
PETTINGZOO = "PettingZoo"
OPENSPIEL = "OpenSpiel"
ROUNDS = 5
"""The games of each figure are played in this many interleaved rounds."""
VECTOR_SIZES = (1, 16, 256)
"""The numbers of environments of the vectorized environment's figures."""


def vector_way(num_envs: int) -> str:
    """The way through of the vectorized environment of ``num_envs`` environments."""
    return f"vector {num_envs}"


@dataclass
class BindingFigure:
    """``steps`` decisions making ``moves`` moves in ``games`` random games of ``game``
    played ``through`` one of :data:`INTERFACE`, :data:`PETTINGZOO`, :data:`OPENSPIEL`, in
    ``seconds``."""

    game: str
    players: int
    through: str
    games: int = 0
    steps: int = 0
    moves: int = 0
    seconds: float = 0.0

    @property
    def per_move(self) -> float:
        """Seconds per move."""
        return self.seconds / self.moves if self.moves else float("inf")

    @property
    def rate(self) -> float:
        """Steps per second."""
        return self.steps / self.seconds if self.seconds > 0 else float("inf")


def bindings_bench(game: Game, players: int, games: int, seed: int = 1
                   ) -> list[BindingFigure]:
    """Random games of ``game`` (``players`` seats, its first variant) through the game
    interface, PettingZoo and OpenSpiel: ``games`` each, in :data:`ROUNDS` interleaved
    rounds; then the vectorized environment of each of :data:`VECTOR_SIZES` environments
    for as many steps as PettingZoo's. ImportError (the one line of
    :func:`sneferu_cli.rl.need`) without the rl extra."""
    from . import openspiel, pettingzoo, vector  # noqa: I001 (first: the rl extra's one line)
    import numpy as np
    import pyspiel

    variant = game.variants[0]
    environment = pettingzoo.env(game=game.name, players=players, variant=variant)
    spiel = pyspiel.load_game(openspiel.short_name(game),
                              {"players": players, "variant": variant})
    rng = random.Random(seed)
    figures = [BindingFigure(game.name, players, through)
               for through in (INTERFACE, PETTINGZOO, OPENSPIEL)]
    one_game: tuple[Callable[[], tuple[int, int]], ...] = (
        lambda: _interface_game(game, players, variant, rng),
        lambda: _pettingzoo_game(environment, rng),
        lambda: _openspiel_game(spiel, rng))
    vectors = [vector.vector_env(game.name, players, variant, n) for n in VECTOR_SIZES]
    generator = np.random.default_rng(seed)
    try:
        batches = [v.reset(seed=seed + 1)[0]["action_mask"] for v in vectors]
        figures += [BindingFigure(game.name, players, vector_way(n)) for n in VECTOR_SIZES]
        for r in range(ROUNDS):
            _play_round(figures, one_game, games * (r + 1) // ROUNDS - games * r // ROUNDS)
            target = figures[1].steps - figures[3].steps
            for k, (figure, v) in enumerate(zip(figures[3:], vectors, strict=True)):
                moves = v.moves()
                t0 = time.perf_counter()
                for _ in range(-(-target // v.num_envs)):
                    observations, _, terminations, _, _ = v.step(
                        random_actions(batches[k], generator))
                    batches[k] = observations["action_mask"]
                    figure.games += int(terminations.sum())
                    figure.steps += v.num_envs
                figure.seconds += time.perf_counter() - t0
                figure.moves += v.moves() - moves
    finally:
        for v in vectors:
            v.close()
    return figures


def random_actions(masks: Any, generator: Any) -> Any:
    """One action id per row of ``masks`` (each with a legal id), drawn uniformly from
    its legal ids by the numpy ``generator``."""
    import numpy as np

    rows, ids = np.nonzero(masks)
    counts = np.bincount(rows, minlength=len(masks))
    starts = np.cumsum(counts) - counts
    return ids[starts + (generator.random(len(masks)) * counts).astype(np.int64)]


def _interface_game(game: Game, players: int, variant: str, rng: random.Random
                    ) -> tuple[int, int]:
    """One random game through the game interface; its decisions (and moves: the same)."""
    state = game.new_game(players, variant=variant)
    steps = 0
    while not state.is_over():
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        else:
            game.apply_move(state, rng.choice(game.legal_moves(state)), listed=True)
            steps += 1
    return steps, steps


def _moved(decision: Any) -> bool:
    """Whether a binding's step just completed a move: its pending decision (``Decision``)
    is gone or has no part chosen."""
    return decision is None or not decision.chosen


def _pettingzoo_game(environment: Any, rng: random.Random) -> tuple[int, int]:
    """One random game through the AEC environment (seeded from ``rng``); its steps and
    moves."""
    import numpy as np

    environment.reset(seed=rng.randrange(2**32))
    steps = moves = 0
    for _ in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        moves += _moved(getattr(environment, "decision", None))
    return steps, moves


def _openspiel_game(spiel: Any, rng: random.Random) -> tuple[int, int]:
    """One random game through the OpenSpiel binding; its decisions and moves."""
    state = spiel.new_initial_state()
    steps = moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            moves += _moved(getattr(state, "decision", None))
    return steps, moves


FLOOR_GAME = "tic-tac-toe"
"""The game name of the floor's lines: OpenSpiel's Python example ``python_tic_tac_toe``."""
OWN_LOGIC = "own Python"
"""The way through of the floor's base: the Python game's own methods, called directly."""


def openspiel_floor(games: int, seed: int = 1) -> list[BindingFigure]:
    """OpenSpiel's own floor: ``games`` random games of its Python example game
    ``python_tic_tac_toe`` through its own Python methods (``current_player``,
    ``_legal_actions``, ``_apply_action`` and its observer's ``set_from``, no pyspiel
    layer: :data:`OWN_LOGIC`) and through pyspiel as the bench drives our binding
    (:data:`OPENSPIEL`: ``observation_tensor``, ``legal_actions``, ``apply_action``), in
    :data:`ROUNDS` interleaved rounds."""
    import pyspiel
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 (registers the game)

    spiel = pyspiel.load_game("python_tic_tac_toe")
    observer = spiel.make_py_observer()
    rng = random.Random(seed)
    figures = [BindingFigure(FLOOR_GAME, 2, through) for through in (OWN_LOGIC, OPENSPIEL)]
    one_game: tuple[Callable[[], tuple[int, int]], ...] = (
        lambda: _python_logic_game(spiel, observer, rng),
        lambda: _openspiel_game(spiel, rng))
    for r in range(ROUNDS):
        _play_round(figures, one_game, games * (r + 1) // ROUNDS - games * r // ROUNDS)
    return figures


PETTINGZOO_FLOOR_GAME = "tictactoe_v3"
"""The game name of PettingZoo's floor lines: its bundled classic ``tictactoe_v3``."""
PETTINGZOO_FLOOR_MISSING = f"{PETTINGZOO_FLOOR_GAME} not measured: pettingzoo.classic needs pygame"
"""What the PettingZoo line of :func:`bindings_table` says of the floor it could not play."""


def pettingzoo_floor(games: int, seed: int = 1) -> list[BindingFigure]:
    """PettingZoo's own floor: ``games`` random games of its bundled classic
    ``tictactoe_v3`` through its own logic (its ``Board``: ``legal_moves``, ``play_turn``,
    ``game_status``, no PettingZoo layer: :data:`OWN_LOGIC`) and through its AEC
    environment (``raw_env``, no wrappers, as ours) driven as the bench drives ours
    (:data:`PETTINGZOO`: ``last()``, then ``step`` with an id drawn from the mask), in
    :data:`ROUNDS` interleaved rounds. None (no figures) when ``pettingzoo.classic``
    cannot be imported: it needs pygame, which the rl extra does not install."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's banner on import
    try:
        from pettingzoo.classic import tictactoe_v3
    except ImportError:
        return []
    environment = tictactoe_v3.raw_env()
    rng = random.Random(seed)
    figures = [BindingFigure(PETTINGZOO_FLOOR_GAME, 2, through)
               for through in (OWN_LOGIC, PETTINGZOO)]
    one_game: tuple[Callable[[], tuple[int, int]], ...] = (
        lambda: _board_game(rng), lambda: _pettingzoo_game(environment, rng))
    for r in range(ROUNDS):
        _play_round(figures, one_game, games * (r + 1) // ROUNDS - games * r // ROUNDS)
    return figures


def _board_game(rng: random.Random) -> tuple[int, int]:
    """One random game of PettingZoo's tic-tac-toe through its own ``Board``."""
    from pettingzoo.classic.tictactoe.board import TTT_GAME_NOT_OVER, Board

    board = Board()
    steps = 0
    while board.game_status() == TTT_GAME_NOT_OVER:
        legal = board.legal_moves()
        board.play_turn(steps % 2, legal[rng.randrange(len(legal))])
        steps += 1
    return steps, steps


def _play_round(figures: list[BindingFigure],
                one_game: tuple[Callable[[], tuple[int, int]], ...], count: int) -> None:
    """``count`` games of each way of ``one_game`` in turn, added to its figure (the first
    figures, one per way)."""
    for figure, play in zip(figures, one_game, strict=False):
        t0 = time.perf_counter()
        for _ in range(count):
            steps, moves = play()
            figure.steps += steps
            figure.moves += moves
        figure.seconds += time.perf_counter() - t0
        figure.games += count


def _python_logic_game(spiel: Any, observer: Any, rng: random.Random) -> tuple[int, int]:
    """One random game of an OpenSpiel Python game through its own methods (the ones
    pyspiel calls back), the observation filled by its Python observer."""
    state = spiel.new_initial_state()
    steps = 0
    while not state._is_terminal:
        seat = state.current_player()
        observer.set_from(state, seat)
        state._apply_action(rng.choice(state._legal_actions(seat)))
        steps += 1
    return steps, steps


def bindings_table(figures: list[BindingFigure], seed: int) -> str:
    """The figures as a plain-text table: the settings, then one line per game and way
    through it: steps, moves, seconds, steps per second, and the overhead (time per move
    over that of the same game's interface)."""
    if not figures:
        return "sneferu bench --bindings: no game has an action encoding"
    games = figures[0].games
    lines = [f"sneferu bench --bindings: {plural(games, 'random game')} of each game "
             f"through each, seed {seed}",
             f"python {python_version(core_build_of(_any_state(figures[0].game)))}",
             f"{'game':<12}{'players':>8}  {'through':<15}{'steps':>9}{'moves':>9}"
             f"{'seconds':>9}{'steps/s':>10}{'overhead':>10}"]
    base: dict[str, float] = {}
    for f in figures:
        base.setdefault(f.game, f.per_move)  # its first line: the interface, or own logic
        lines.append(f"{f.game:<12}{f.players:>8}  {f.through:<15}{f.steps:>9,}{f.moves:>9,}"
                     f"{f.seconds:>9.3f}{f.rate:>10,.0f}"
                     f"{f.per_move / base[f.game]:>9.1f}x")
    for way in (PETTINGZOO, OPENSPIEL):
        beyond = [f"{f.game} {(f.per_move - base[f.game]) * 1e6:,.1f}" for f in figures
                  if f.through == way]
        if way == PETTINGZOO and beyond and not any(f.game == PETTINGZOO_FLOOR_GAME
                                                    for f in figures):
            beyond.append(f"({PETTINGZOO_FLOOR_MISSING})")
        if beyond:
            lines.append(f"{way} beyond the game's own logic, µs a move: {', '.join(beyond)}")
    return "\n".join(lines)


def _any_state(name: str) -> Any:
    game = get_game(name)
    return game.new_game(game.players[0])
