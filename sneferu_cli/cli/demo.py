"""``sneferu demo``: one game between random players, to see the rules run."""

from __future__ import annotations

import random

import click

from ..notation.picture import describe_turn
from ..rules.chance import sample_outcome
from ..rules.state import new_game
from .options import builders_option, edition_option, load


@click.command()
@click.option("--players", "-p", type=click.IntRange(1, 4), default=4, show_default=True)
@builders_option
@click.option("--seed", type=int, default=1, show_default=True)
@edition_option
def demo(players: int, builders: str | None, seed: int, edition_path: str | None) -> None:
    """Play one game between random players and print the ranking."""
    try:
        state = new_game(players, builders=builders, edition=load(edition_path))
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    rng = random.Random(seed)
    turns = 0
    while not state.is_over():
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
        else:
            state.apply_turn(rng.choice(state.legal_turns()))
            turns += 1
    click.echo(f"{turns} turns played (seed {seed}).")
    click.echo(describe_turn(state))
