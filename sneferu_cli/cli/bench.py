"""``sneferu bench``: how fast the rules, the pipes and the arbiter run here, and perft
counts of a position."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click

from ..arbiter.bench import has_simultaneous_nodes, simultaneous_report, speed_report
from ..bench import Figure, run_game_bench
from ..game import Game, RulesBench
from ..tournament.bench import tournament_report
from .options import (
    SETUP_FLAG,
    builders_option,
    edition_option,
    game_option,
    load_for,
    read_game_position,
    start_game,
)


@click.command()
@game_option
@click.option("--players", "-p", type=click.IntRange(1, 4), default=4, show_default=True)
@builders_option
@click.option("--games", "-n", type=click.IntRange(1), default=1000, show_default=True,
              help="How many complete random games to play.")
@click.option("--engine-games", type=click.IntRange(1), default=20, show_default=True,
              help="How many games each kind of engine plays (four instant legal-move "
                   "engines, then four bundled random engines).")
@click.option("--tournament-games", type=click.IntRange(1), default=200, show_default=True,
              help="How many games the tournament figure plays (sneferu tournament -j 1 "
                   "between instant engines at one table).")
@click.option("--rules", "rules_only", is_flag=True,
              help="Only the rules: no engines, no pipes.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--perft", "perft_position", default=None, metavar="POSITION",
              help="Instead: count the action sequences of POSITION up to --depth ('-' reads "
                   "it from standard input).")
@click.option("--depth", type=click.IntRange(1), default=3, show_default=True,
              help="With --perft: the deepest count.")
@click.option("--json", "as_json", is_flag=True,
              help="With --perft: print one JSON object (position, perft, moves), the "
                   "format of tests/data/perft.")
@edition_option
@click.option("--bindings", is_flag=True,
              help="Instead: steps per second through the PettingZoo and OpenSpiel "
                   "bindings against the game interface, for every game with an action "
                   "encoding (or --game); --games defaults to 30 (the rl extra).")
def bench(game: Game, players: int, setup: str | None, games: int, engine_games: int,
          tournament_games: int, rules_only: bool, seed: int, perft_position: str | None,
          depth: int, as_json: bool, edition_path: str | None, bindings: bool) -> None:
    """Measure the rules, the pipes and the arbiter, each against the pipe's floor.

    First random games, legal steps and position notation per second on one core: steps
    are chosen uniformly among the legal ones and chance is drawn by its odds, from one
    generator seeded with --seed (the counts are the same on every run, the times are this
    machine's). Then, in the same run: the floor (a line written to `cat` and read back),
    the time per move with engines that pick from the listed legal moves at once
    (engines/instant.c, built with the C compiler found, else engines/instant.py) and with
    the bundled random engine (own rules), through the real game loop; each figure per
    second, the time of one, and that time as a multiple of the floor; then the CPU a
    tournament uses of its own per turn (sneferu tournament -j 1 between instant engines,
    its coordinator and worker processes read from /proc, the engines left out), also
    against the floor. --rules: the rules only. With --perft, print perft counts of a
    position instead (an action is a legal step or a chance outcome, each counted once)
    and its number of legal moves.
    With --game another game than Sneferu: its rules through the game interface (random
    games of whole moves, legal moves listed, positions), then the same engines part
    (--players defaults to 4 or the game's largest table), and for a game with
    simultaneous nodes the wall time per simultaneous step with the seats asked at once
    and one after the other (engines that answer at once, and engines that take 20 ms).
    With --bindings, the learning-library bindings instead (SPEC 16.5): random games
    through the game interface, the PettingZoo environment and the OpenSpiel binding,
    steps per second and each binding's overhead.
    """
    given = _given(click.get_current_context())
    if bindings:
        _bindings(game if "game" in given else None, players if "players" in given else None,
                  games if "games" in given else BINDINGS_GAMES, seed,
                  given - {"game", "players", "games", "seed", "bindings"})
        return
    for name in ("engine_games", "tournament_games"):
        if name in given and rules_only:
            raise click.UsageError(f"--{name.replace('_', '-')} measures engines; --rules "
                                   "leaves them out")
    if game.turn_steps() is None:  # whole moves: measured through the interface alone
        extra = {SETUP_FLAG if k == "setup" else k
                 for k in given & {"setup", "perft_position", "depth", "as_json"}}
        if extra:
            raise click.UsageError(f"--{sorted(extra)[0].split('_')[0]} is for Sneferu, not "
                                   f"--game {game.name}")
        if "players" not in given:
            players = min(players, max(game.players))
        if players not in game.players:
            raise click.BadParameter(f"{players} ({game.title} is for {min(game.players)} "
                                     f"to {max(game.players)} players)", param_hint="--players")
        edition = load_for(game, edition_path)
        report = run_game_bench(game, players, games, seed, edition)
        _engines_part(report.table(), rules_only, report.figures, players, None,
                      engine_games, seed, edition, game, (tournament_games, edition_path))
        return
    if perft_position is not None:
        extra = {SETUP_FLAG if k == "setup" else k
                 for k in given & {"players", "setup", "games", "seed", "engine_games",
                                   "tournament_games", "rules_only"}}
        if extra:
            raise click.UsageError(f"--perft counts one position; --{sorted(extra)[0]} does "
                                   "not apply")
        _perft(game, perft_position, depth, as_json, edition_path)
        return
    if given & {"depth", "as_json"}:
        raise click.UsageError("--depth and --json go with --perft")
    edition = load_for(game, edition_path)
    start_game(game, players, setup, None, edition)  # the rules' checks of the setup
    tools = game.tools()
    rules: RulesBench | None = (None if tools is None else
                                tools.rules_bench(players, setup, games, seed, edition))
    if rules is None:
        rules = run_game_bench(game, players, games, seed, edition)
    _engines_part(rules.table(), rules_only, rules.figures, players, setup, engine_games,
                  seed, edition, game, (tournament_games, edition_path))


def _engines_part(table: str, rules_only: bool, rules: Sequence[Figure], players: int,
                  setup: str | None, engine_games: int, seed: int, edition: Any,
                  game: Game, tournament: tuple[int, str | None]) -> None:
    """Print the rules table, then (without --rules) the pipes and engines part, and the
    tournament's figure (``tournament``: its games and the --edition file)."""
    click.echo(table)
    if not rules_only:
        click.echo()
        try:
            click.echo(speed_report(rules, players, setup, engine_games, seed, edition,
                                    game))
            if game.turn_steps() is None and has_simultaneous_nodes(game, players, seed,
                                                                    edition):
                click.echo()
                click.echo(simultaneous_report(game, players, engine_games, seed, edition))
            click.echo()
            click.echo(tournament_report(game.name, players, tournament[0], seed, setup,
                                         tournament[1]))
        except OSError as e:
            raise click.ClickException(f"bench: {e}") from None


BINDINGS_GAMES = 30
"""``--bindings``: random games of each game through each way, unless --games says."""


def _bindings(game: Game | None, players: int | None, games: int, seed: int,
              extra: set[str]) -> None:
    """``--bindings``: the bench of :mod:`sneferu_cli.rl.bench`, one table."""
    if extra:
        flags = {p.name: p.opts[0] for p in click.get_current_context().command.params}
        raise click.UsageError(f"{min(flags[name] for name in extra)} does not go with "
                               "--bindings")
    if game is not None and game.learning() is None:
        raise click.BadParameter(f"{game.title} has no action encoding (Game.learning)",
                                 param_hint="--game")
    from ..rl import encoded_games
    from ..rl.bench import bindings_bench, bindings_table, openspiel_floor, pettingzoo_floor

    tables = [(g, min(4, max(g.players)) if players is None else players)
              for g in (encoded_games() if game is None else [game])]
    for g, seats in tables:
        if seats not in g.players:
            raise click.BadParameter(f"{seats} ({g.title} is for {min(g.players)} to "
                                     f"{max(g.players)} players)", param_hint="--players")
        if seats < 2:
            raise click.BadParameter("1 (the OpenSpiel binding offers two players or more)",
                                     param_hint="--players")
    figures = []
    for g, seats in tables:
        try:
            figures += bindings_bench(g, seats, games, seed)
        except ImportError as e:
            raise click.ClickException(f"bench --bindings: {e}") from None
    figures += openspiel_floor(games, seed) + pettingzoo_floor(games, seed)
    click.echo(bindings_table(figures, seed))


def _given(ctx: click.Context) -> set[str]:
    """The options given on the command line (not left at their defaults)."""
    return {name for name in ctx.params
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}


def _perft(game: Game, text: str, depth: int, as_json: bool, edition_path: str | None
           ) -> None:
    tools = game.tools()
    result = (None if tools is None
              else tools.perft(read_game_position(game, text, edition_path), depth))
    if result is None:
        raise click.UsageError(f"--perft: {game.title} offers no perft counts")
    if as_json:
        click.echo(json.dumps(result.record()))
        return
    click.echo(f"python {result.python}")
    click.echo(f"{'depth':<8}{'count':>14}{'seconds':>10}")
    for d, (count, seconds) in enumerate(zip(result.counts, result.seconds, strict=True), 1):
        click.echo(f"{d:<8}{count:>14,}{seconds:>10.3f}")
    click.echo(f"{'moves':<8}{result.moves:>14,}")
