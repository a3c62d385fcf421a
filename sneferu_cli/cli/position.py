"""``sneferu position``: script positions from the command line."""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import click
import msgspec

from .. import search
from ..game import Game, NotationError
from ..search import Analysis, analysis_doc, analysis_lines
from .options import (
    builders_option,
    edition_option,
    game_option,
    load_for,
    read_game_position,
    start_game,
    variant_option,
)


@click.group()
def position() -> None:
    """Create, show, list moves of and play moves on positions (position notation)."""


@position.command("new")
@game_option
@click.option("--players", "-p", type=click.IntRange(1, 4), default=4, show_default=True,
              help="Number of seats; 1 is the solo game against Ptah.")
@builders_option
@variant_option
@click.option("--seed", type=int, default=None,
              help="Seed for the set-up draws (default: a random seed).")
@click.option("--no-setup", is_flag=True,
              help="Stop before the set-up draws (at the first chance node).")
@click.option("--count", "-n", type=click.IntRange(1), default=1, show_default=True,
              metavar="N", help="Print N positions, one a line, each with its own draws "
                                "(a file of start positions for a tournament's --positions).")
@edition_option
def new(game: Game, players: int, setup: str | None, variant: str | None,
        seed: int | None, no_setup: bool, count: int, edition_path: str | None) -> None:
    """Print the position of a new game, after its set-up draws."""
    edition = load_for(game, edition_path)  # an EditionError is reported as it is
    rng = random.Random(seed)
    for _ in range(count):
        state = start_game(game, players, setup, variant, edition)
        if not no_setup:
            _draw(game, state, rng)
        click.echo(game.to_position(state))


@position.command("show")
@click.argument("pos", metavar="POSITION")
@game_option
@edition_option
def show(pos: str, game: Game, edition_path: str | None) -> None:
    """Print a readable picture of POSITION ('-' reads it from standard input)."""
    click.echo(game.picture(read_game_position(game, pos, edition_path)))


SEAT_HELP = ("The seat (1-based) whose moves to take, one of those deciding at a "
             "simultaneous node (default: the current seat, the lowest deciding).")
seat_option = click.option("--seat", type=click.IntRange(1), default=None, metavar="N",
                           help=SEAT_HELP)


@position.command("moves")
@click.argument("pos", metavar="POSITION")
@click.option("--count", is_flag=True, help="Print only how many there are.")
@click.option("--steps", is_flag=True, help="List single steps instead of whole moves.")
@seat_option
@game_option
@edition_option
def moves(pos: str, count: bool, steps: bool, seat: int | None, game: Game,
          edition_path: str | None) -> None:
    """List the legal moves of POSITION (or of a seat's view), one a line.

    At a chance node, list the chance outcomes with their probabilities instead.
    """
    turn_steps = game.turn_steps() if steps else None
    if steps and turn_steps is None:
        raise click.UsageError(f"--steps lists Sneferu's single steps; not for {game.title}")
    state = read_game_position(game, pos, edition_path)
    if state.is_chance_node():
        rows = [f"{o} {p:.6f}" for o, p in game.chance_outcomes(state)]
    elif turn_steps is not None:
        rows = turn_steps.legal_steps(state)
    elif seat is not None:
        rows = game.legal_moves(state, _deciding(game, state, seat))
    else:
        rows = game.legal_moves(state)
    if count:
        click.echo(len(rows))
    else:
        for row in rows:
            click.echo(row)


@position.command("play")
@click.argument("pos", metavar="POSITION")
@click.argument("moves", nargs=-1, metavar="MOVE...")
@click.option("--seed", type=int, default=None,
              help="Draw every chance event that is reached with this seed (otherwise give "
                   "each outcome as its own argument, like ~BT).")
@click.option("--seat", type=click.IntRange(1), default=None, metavar="N",
              help="The first MOVE is seat N's, one of those deciding at a simultaneous "
                   "node (default: each MOVE is the current seat's, the lowest deciding).")
@game_option
@edition_option
def play(pos: str, moves: tuple[str, ...], seed: int | None, seat: int | None, game: Game,
         edition_path: str | None) -> None:
    """Apply MOVEs (whole turns, each one argument) and chance outcomes to POSITION.

    Prints the resulting position. Each MOVE is the decision of the seat that decides then.
    At a simultaneous node (Silver & Gold's keep and step 2) the moves are sealed: give
    each deciding seat's move in seat order, the lowest first (or, with --seat N, seat N's
    first); the step takes effect once the last is in, and a position printed before
    then holds the moves given so far (sealed:...).
    """
    state = read_game_position(game, pos, edition_path)
    rng = random.Random(seed) if seed is not None else None
    for n, text in enumerate(moves, start=1):
        _draw(game, state, rng)
        who = None
        if seat is not None and not text.strip().startswith("~"):  # the first move's
            who, seat = _deciding(game, state, seat), None
        try:
            _play_one(game, state, text.strip(), who)
        except ValueError as e:  # NotationError or the game's illegal move
            raise NotationError(f"argument {n} ({text!r}): {e}") from None
    if seat is not None:
        raise _Refused(f"--seat {seat}: no MOVE given")
    _draw(game, state, rng)
    click.echo(game.to_position(state))


def _draw(game: Game, state: Any, rng: random.Random | None) -> None:
    if rng is not None:
        while state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))


def _play_one(game: Game, state: Any, text: str, seat: int | None = None) -> None:
    if text.startswith("~"):
        outcome = game.canonical_outcome(text)
        if not state.is_chance_node():
            raise ValueError("a chance outcome, but a player is to move")
        game.apply_outcome(state, outcome)
        return
    if state.is_chance_node():
        raise ValueError("the position is at a chance node: give the outcome (like ~BT) "
                         "or use --seed")
    if state.is_over():
        raise ValueError("the game is over")
    game.apply_move(state, text, seat)


class _Refused(click.ClickException):
    """A request the position does not allow: one line, exit 2 (as a bad position)."""

    exit_code = 2


def _deciding(game: Game, state: Any, seat: int) -> int:
    """``--seat N`` as a 0-based seat, which must be one deciding in ``state``."""
    seats = game.deciding_seats(state)
    if seat - 1 not in seats:
        players = game.players_of(state)
        why = (f"the game has {players} seats" if seat > players
               else "the game is over" if state.is_over()
               else "seats deciding: " + ", ".join(str(s + 1) for s in seats) if seats
               else "a chance node")
        raise _Refused(f"--seat {seat}: seat {seat} has no decision to take now ({why})")
    return seat - 1


DEFAULT_ANALYSE_MS = 1000


@position.command("analyse")
@click.argument("pos", metavar="POSITION")
@click.option("--movetime", type=click.IntRange(1), default=None, metavar="MS",
              help=f"Search this long (default {DEFAULT_ANALYSE_MS} ms unless --iterations).")
@click.option("--iterations", type=click.IntRange(1), default=None, metavar="N",
              help="Search this many playouts (the same output every time for a seed).")
@click.option("--top", type=click.IntRange(0), default=5, show_default=True, metavar="K",
              help="How many of the best moves to list (0: every move).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the search's own random choices.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as one JSON object.")
@seat_option
@game_option
@edition_option
def analyse(pos: str, movetime: int | None, iterations: int | None, top: int, seed: int,
            as_json: bool, seat: int | None, game: Game, edition_path: str | None) -> None:
    """Search POSITION (or a seat's view) and list the best moves of the seat to move.

    Each move with its visits and its estimated place (expected rank; in a solo game the
    chance to beat Ptah). On a terminal, the search shows its progress on stderr. Sneferu
    has its own search; another game is searched through the game interface, and with
    hidden information from the seat's view alone (what it hides is drawn anew at every
    playout).
    """
    if movetime is not None and iterations is not None:
        raise click.UsageError("give --movetime or --iterations, not both")
    state = read_game_position(game, pos, edition_path)
    deciding = None if seat is None else _deciding(game, state, seat)
    if iterations is None and movetime is None:
        movetime = DEFAULT_ANALYSE_MS
    deadline = time.perf_counter() + movetime / 1000 if movetime is not None else None
    show = _progress if sys.stderr.isatty() else None
    try:
        result = search.analyse(game, state, seat=deciding, iterations=iterations or 0,
                         deadline=deadline, seed=seed, progress=show)
    except ValueError as e:  # no seat to decide: not allowed in this state (exit 2)
        raise _Refused(str(e)) from None
    if show is not None:
        show(result, final=True)
    doc = analysis_doc(result, top)
    if as_json:
        click.echo(msgspec.json.encode(doc).decode())
    else:
        for line in analysis_lines(doc):
            click.echo(line)


def _progress(a: Analysis, final: bool = False) -> None:
    """One status line on stderr, rewritten in place while the search runs."""
    best = a.best
    estimate = f"rank {best.rank:.3f}" if best.win is None else f"win {best.win:.3f}"
    line = (f"{a.iterations} playouts  {a.nodes} nodes  {a.seconds:.1f} s  "
            f"{a.playouts_per_second} playouts/s  best {best.move} ({estimate})")
    click.echo(f"\r\x1b[K{line}", err=True, nl=final)
