"""``sneferu position``: script positions from the command line."""

from __future__ import annotations

import random
import sys
import time

import click
import msgspec

from ..game import NotationError
from ..games.sneferu.notation.move import Move, legal_moves, parse_action
from ..games.sneferu.notation.picture import picture
from ..games.sneferu.notation.position import to_position
from ..games.sneferu.rules.chance import sample_outcome
from ..games.sneferu.rules.state import GameState, IllegalAction, new_game
from ..games.sneferu.rules.steps import Arrive, Assign, Draw, LayTile
from ..search import Analysis, analysis_doc, analysis_lines, search
from .options import builders_option, edition_option, load, read_position


@click.group()
def position() -> None:
    """Create, show, list moves of and play moves on positions (position notation)."""


@position.command("new")
@click.option("--players", "-p", type=click.IntRange(1, 4), default=4, show_default=True,
              help="Number of seats; 1 is the solo game against Ptah.")
@builders_option
@click.option("--seed", type=int, default=None,
              help="Seed for the set-up draws (default: a random seed).")
@click.option("--no-setup", is_flag=True,
              help="Stop before the set-up draws (at the first chance node).")
@edition_option
def new(players: int, builders: str | None, seed: int | None, no_setup: bool,
        edition_path: str | None) -> None:
    """Print the position of a new game, after its set-up draws."""
    edition = load(edition_path)  # an EditionError is reported as it is, not as usage
    try:
        state = new_game(players, builders=builders, edition=edition)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    if not no_setup:
        _draw(state, random.Random(seed))
    click.echo(to_position(state))


@position.command("show")
@click.argument("pos", metavar="POSITION")
@edition_option
def show(pos: str, edition_path: str | None) -> None:
    """Print a readable picture of POSITION ('-' reads it from standard input)."""
    click.echo(picture(read_position(pos, edition_path)))


@position.command("moves")
@click.argument("pos", metavar="POSITION")
@click.option("--count", is_flag=True, help="Print only how many there are.")
@click.option("--steps", is_flag=True, help="List single steps instead of whole moves.")
@edition_option
def moves(pos: str, count: bool, steps: bool, edition_path: str | None) -> None:
    """List the legal moves of POSITION, one a line.

    At a chance node, list the chance outcomes with their probabilities instead.
    """
    state = read_position(pos, edition_path)
    if state.is_chance_node():
        rows = [f"{o} {p:.6f}" for o, p in state.chance_outcomes()]
    elif steps:
        rows = [str(s) for s in state.legal_steps()]
    else:
        rows = [str(m) for m in legal_moves(state)]
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
@edition_option
def play(pos: str, moves: tuple[str, ...], seed: int | None, edition_path: str | None) -> None:
    """Apply MOVEs (whole turns, each one argument) and chance outcomes to POSITION.

    Prints the resulting position.
    """
    state = read_position(pos, edition_path)
    rng = random.Random(seed) if seed is not None else None
    for n, text in enumerate(moves, start=1):
        _draw(state, rng)
        try:
            _play_one(state, text.strip())
        except (NotationError, IllegalAction) as e:
            raise NotationError(f"argument {n} ({text!r}): {e}") from None
    _draw(state, rng)
    click.echo(to_position(state))


def _draw(state: GameState, rng: random.Random | None) -> None:
    if rng is not None:
        while state.is_chance_node():
            state.apply(sample_outcome(state, rng))


def _play_one(state: GameState, text: str) -> None:
    if text.startswith("~"):
        outcome = parse_action(text)
        if not isinstance(outcome, Draw | LayTile | Arrive | Assign):  # pragma: no cover
            raise NotationError("not a chance outcome")
        if not state.is_chance_node():
            raise IllegalAction("a chance outcome, but a player is to move")
        state.apply(outcome)
        return
    if state.is_chance_node():
        raise IllegalAction("the position is at a chance node: give the outcome (like ~BT) "
                            "or use --seed")
    if state.is_over():
        raise IllegalAction("the game is over")
    state.apply_turn(Move.from_str(text).steps)


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
@edition_option
def analyse(pos: str, movetime: int | None, iterations: int | None, top: int, seed: int,
            as_json: bool, edition_path: str | None) -> None:
    """Search POSITION and list the best moves of the seat to move.

    Each move with its visits and its estimated place (expected rank; in a solo game the
    chance to beat Ptah). On a terminal, the search shows its progress on stderr.
    """
    if movetime is not None and iterations is not None:
        raise click.UsageError("give --movetime or --iterations, not both")
    state = read_position(pos, edition_path)
    if iterations is None and movetime is None:
        movetime = DEFAULT_ANALYSE_MS
    deadline = time.perf_counter() + movetime / 1000 if movetime is not None else None
    show = _progress if sys.stderr.isatty() else None
    try:
        result = search(state, iterations=iterations or 0, deadline=deadline, seed=seed,
                        progress=show)
    except ValueError as e:  # no seat to decide: not allowed in this state
        raise IllegalAction(str(e)) from None
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
