"""Sampling chance outcomes with a caller's seeded generator.

The state only lists a chance node's outcomes and weights; whoever plays the game decides
how to draw. ``sample_outcome`` is the one way this package draws: ``randrange`` over the
total weight of :meth:`GameState.chance_weights`, walked in that list's order, so a given
``random.Random`` seed replays exactly. (Refill draws take a shortcut over the bag counts
that picks the very same outcome.)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .state import GameState
    from .steps import Outcome


def sample_outcome(state: GameState, rng: random.Random) -> Outcome:
    """Draw one outcome of the current chance node, weighted by its counts."""
    if state.draws_from_bag():  # draws, without the list
        return state.tables.draw[_drawn_stone(state, rng)]
    weighted = state.chance_weights()
    total = 0
    for _, w in weighted:
        total += w
    if not total:
        raise ValueError("not a chance node")
    pick = randrange(rng, total)
    for outcome, w in weighted:
        if pick < w:
            return outcome
        pick -= w
    raise AssertionError("unreachable")  # pragma: no cover


def sample_outcome_text(state: GameState, rng: random.Random) -> str:
    """``str(sample_outcome(state, rng))``, the same draw, with its text made once per
    edition (``Tables.outcome_text``)."""
    t = state.tables
    if state.draws_from_bag():
        return t.draw_text[_drawn_stone(state, rng)]
    if state.is_chance_node():
        kind, index = state.setup_next
        if kind == "tile":  # the outcomes of chance_weights(): the pool's kinds, in order
            return t.lay_text[_walked(state._tile_pool(index), -1, rng)]
        if kind == "boat":  # the seats not arrived yet, in order, one each
            waiting = [1 if p.arrival < 0 else 0 for p in state.players]
            return t.arrive_text[_walked(waiting, -1, rng)]
    outcome = sample_outcome(state, rng)
    text = t.outcome_text.get(outcome)
    return text if text is not None else str(outcome)


def outcome_texts(state: GameState) -> list[tuple[str, float]]:
    """``Game.chance_outcomes``: :meth:`GameState.chance_outcomes` with each outcome's
    text made once per edition (``Tables.outcome_text``), in the same order."""
    weighted = state.chance_weights()
    total = 0
    for _, w in weighted:
        total += w
    texts = state.tables.outcome_text
    out: list[tuple[str, float]] = []
    for outcome, w in weighted:
        text = texts.get(outcome)
        out.append((text if text is not None else str(outcome), w / total))
    return out


def _drawn_stone(state: GameState, rng: random.Random) -> int:
    """The stone a draw from the bag picks: ``randrange`` over the bag's count, walked in
    stone order (the outcomes of ``chance_weights`` at such a node, in their order)."""
    return _walked(state.bag, state.bag_total, rng)


def _walked(counts: list[int], total: int, rng: random.Random) -> int:
    """The index of ``counts`` (summing to ``total`` > 0, or -1: summed here) that
    ``randrange(total)`` falls on, walking them in order: :func:`sample_outcome`'s draw
    over outcomes of these weights (outcomes of weight 0 left out, which changes nothing)."""
    if total < 0:
        total = 0
        for n in counts:  # (not sum(): a call through Python once compiled)
            total += n
    pick = randrange(rng, total)
    for i, n in enumerate(counts):
        if pick < n:
            return i
        pick -= n
    raise AssertionError("unreachable")  # pragma: no cover


# C statics once compiled: no module attribute looked up, no method looked up on rng.
_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` > 0): the same number, and the same draws taken from
    ``rng``. For a plain ``random.Random`` it is computed as that method does (the fewest
    bits that can hold ``n - 1``, drawn again while too large), without its Python frames;
    ``tests/sneferu/test_fast_paths.py`` checks the two agree."""
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    k = n.bit_length()
    r: int = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r
