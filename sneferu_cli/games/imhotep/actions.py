"""Imhotep's action encoding and observation tensor for the learning libraries (SPEC 16).

The actions of a set-up are every move text of SPEC 13.2 that the standard edition's ship
tiles, market cards and side-B pyramids can make, in the order of that table; a game of any
variant uses the same list (a name no state allows is harmless). Chance ids: the round
cards of the player count, then the market card kinds.

The observation is a flat vector of numbers (Imhotep has no hidden information: every seat
sees the whole position, SPEC 13), each in [0, 1]: the round, the seat observing and the
seat to decide (one-hot), each seat's sled, quarry, score and cards, every ship tile slot's
owner and site, the market display, and each seat's stones on every site.
"""

from __future__ import annotations

import functools
import itertools
from array import array

from ...game import Learning
from .edition import Edition, standard_edition
from .move import SITE_CODES, parse_move
from .observe import fill
from .state import ImhotepState, Tables

_ZERO = array("d", [0.0])

__all__ = ["action_names", "max_game_length", "observation", "observation_size",
           "outcome_names"]

def _slots(edition: Edition) -> list[str]:
    """Every slot name of every ship tile (``4A.1`` ..), tile order."""
    return [f"{tile.capacity}{chr(65 + n)}.{j + 1}" for tile in edition.ships
            for n in range(tile.count) for j in range(tile.capacity)]


def _ships(edition: Edition) -> list[tuple[str, int]]:
    return [(f"{tile.capacity}{chr(65 + n)}", tile.capacity) for tile in edition.ships
            for n in range(tile.count)]


def action_names(edition: Edition) -> list[str]:
    """Every canonical move an Imhotep game with ``edition`` can make, each once."""
    slots = _slots(edition)
    ships = _ships(edition)
    names = ["Q", "PASS"]
    names += [f"L {s}" for s in slots]
    names += [f"S {ship} {site}" for ship, _ in ships for site in SITE_CODES]
    for ship, capacity in ships:
        orders = [o for k in range(1, capacity + 1)
                  for o in itertools.permutations(range(1, capacity + 1), k)]
        names += [f"LEV {ship} {site} {','.join(map(str, o))}" for site in SITE_CODES
                  for o in orders]
    names += ["HAM -"] + [f"HAM {s}" for s in slots]
    names += [f"SAI {s} {site}" for s in slots for site in SITE_CODES]
    names += [str(parse_move(f"CHI {a} {b}")) for a, b in itertools.combinations(slots, 2)]
    market = max(edition.market.face_up, edition.market.face_up_b)
    names += [f"take M{k + 1}" for k in range(market)] + ["take MX"]
    names += [f"keep {card.code}" for card in edition.market.cards]
    for pyramid in edition.pyramids_b.pyramids:
        code = pyramid.code
        names += [f"pyr {code}", f"pyr {code} bonus"]
        names += [f"pyr {code} bonus {s}" for s in slots]
    return [*names, "temple pts", "temple stones"]


def max_game_length(edition: Edition, players: int, variant: str) -> int:
    """A bound on the events (moves and chance outcomes) of one game, from the rules
    (IMHOTEP-RULES.md; SPEC 16.1). *S*: the ship slots of the game, each round's largest
    round card of the player count (a slot is filled once a round: a stone leaves a ship
    only when it sails, and a sailed ship takes no stone, 5.2, 5.3).

    - Chance: the start player (**I1**), a round card a round, the display (4 cards a
      round; side-B market 3 and the `MX` pair, drawn when taken or at the round's end,
      **I32**, **I38**), a `CARD` bonus per side-B pyramid `CARD` slot (filled once, 7.2),
      a `CD` card a round (side-B temple, one visible stone a column, 7.3).
    - Moves of the turns but `PASS`: each places a stone on a ship slot (`L`, `HAM` with a
      slot, `SAI`, `CHI`: at most *S*), sails a ship (`S`, `LEV`: 4 a round) or takes stones
      onto its sled (`Q`, `HAM -`, at least one stone, **I3**, **I21**). A stone leaves a
      sled only onto a ship slot (red cards take from the quarry, **I17**), so the stones
      taken are at most *S* and the sleds' room at the start (5 less 2, 3, 4, 5 by seat).
    - `PASS` (**I6**): as many in a row as there are players end the round, so at most
      players − 1 of them follow each other move of the round, and players at its end.
    - The stones' owners' choices (**I9**): a market card for each stone unloaded at the
      market while one is left (4 a round, side B the 3 and `MX`), the card kept of the
      pair (side B, once a round), a side-B pyramid for each stone there (a ship of at
      most 4 stones a round, and each red `ENT` played: red cards are at most the cards
      taken and drawn), 1 point or 2 stones for each visible side-B temple `PS` stone.
    """
    rounds = edition.rounds
    sides = dict(zip("MPTCO", variant[:5], strict=True))
    slots = rounds * max(sum(c.ships) for c in edition.round_cards if c.players == players)
    room = sum(edition.sled_capacity - n for n in edition.starting_sled[:players])
    columns = edition.temple.columns_b[:edition.temple.width[players - 2]]
    card_slots = sum(slot.bonus == "CARD" for p in edition.pyramids_b.pyramids
                     for slot in p.slots)
    display = (edition.market.face_up if sides["M"] == "A"
               else edition.market.face_up_b + edition.market.pair_b)
    card_draws = card_slots if sides["P"] == "B" else 0
    cd_draws = rounds * columns.count("CD") if sides["T"] == "B" else 0
    chance = 1 + rounds + rounds * display + card_draws + cd_draws
    ships = len(next(c.ships for c in edition.round_cards if c.players == players))
    moves = slots + rounds * ships + slots + room
    passes = (players - 1) * moves + players * rounds
    picks = rounds * max(edition.market.face_up, edition.market.face_up_b + 1)
    choices = picks
    if sides["M"] == "B":
        choices += rounds
    if sides["P"] == "B":
        capacity = max(tile.capacity for tile in edition.ships)
        choices += rounds * capacity + picks + card_draws + cd_draws
    if sides["T"] == "B":
        choices += rounds * columns.count("PS")
    return chance + moves + passes + choices


def outcome_names(edition: Edition, players: int) -> list[str]:
    """Every chance outcome of a game of ``players`` seats: round cards, then card kinds."""
    return ([f"~{c.code}" for c in edition.round_cards if c.players == players]
            + [f"~{c.code}" for c in edition.market.cards])


@functools.cache
def observation_size(edition: Edition, players: int) -> int:
    """The length of :func:`observation` for a game of ``players`` seats."""
    kinds = len(edition.market.cards)
    market = max(edition.market.face_up, edition.market.face_up_b)
    per_seat = 4 + kinds + 6
    ship_slots = len(_slots(edition)) * (players + 1) + len(_ships(edition)) * 6
    return 1 + 2 * players + players * per_seat + ship_slots + market * (kinds + 1) + 1


def observation(state: ImhotepState, seat: int) -> array[float]:
    """What ``seat`` sees of ``state`` (everything), as :func:`observation_size` numbers
    (an ``array('d')``, which the bindings copy at once), filled by the compiled
    :func:`.observe.fill`: the round; the observing and the deciding seat, one-hot; per
    seat its sled, quarry, score, retired, cards by kind, stones on the pyramids, temple,
    chamber and obelisk towers, its obelisk and waiting stones; per ship tile each slot's
    owner one-hot (empty first), present, and its site one-hot; the market display, each
    card one-hot (none first); the side-B pair."""
    size, ships = _layout(state.tables, state.players)
    out = _ZERO * size
    fill(state, seat, ships, memoryview(out))  # cheaper item writes than the array's
    return out


@functools.cache
def _layout(tables: Tables, players: int) -> tuple[int, list[tuple[str, int]]]:
    """The observation's size and the ship tiles of an edition's tables (a key hashed at
    once, where an edition's hash reads all of it)."""
    return observation_size(tables.edition, players), _ships(tables.edition)


class ImhotepLearning(Learning[ImhotepState]):
    """Imhotep's encodings for the learning libraries (SPEC 16.1): one action a move."""

    def action_names(self, players: int, variant: str) -> list[str]:
        return action_names(standard_edition())

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return outcome_names(standard_edition(), players)

    def max_game_length(self, players: int, variant: str) -> int:
        return max_game_length(standard_edition(), players, variant)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (observation_size(standard_edition(), players),)

    def observation(self, state: ImhotepState, seat: int) -> array[float]:
        return observation(state, seat)
