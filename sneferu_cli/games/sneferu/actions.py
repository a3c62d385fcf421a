"""Sneferu's action encoding and observation tensor for the learning libraries (SPEC 16.1).

A Sneferu move is a whole turn, a sequence of steps (SPEC 2.2, 2.7): a stored stone placed
before the buy, the buy and the placement alone make 420 x 56 x 420 moves, so moves are not
numbered one by one. They are played in *parts*, one step each (``Learning.action_parts``): a
move's parts are its steps, the last written with the closing ``done`` that the move
notation leaves implied (``1.1 BT@1.1`` is ``1.1``, ``BT@1.1 done``); the move ``done``
(the after-turn phase ended with no step) is the one part ``done``. A step that ends the
move and one that does not are two parts, so no legal move's parts are a proper prefix of
another's (the after-turn steps are optional: ``1.1 BT@1.1`` and ``1.1 BT@1.1 feast`` are
both legal for Lateef).

The parts of a set-up are the steps the rules can produce (the very step objects of
:class:`~.state.Tables`), each in the places a move can have it: every buy ``c.r`` and
``c.r+`` (56); every placement ``LR@n.k`` of an oriented stone (20) in a slot (21), with
Heba's ``h`` in the builders variant; ``store``; ``end``; ``feast`` (builders); the column
shifts ``s>t`` (12, only where the bag can run empty: 4 seats). Each of them can end a move
(``X done``) except a shift, and a buy only in a solo game (the bare buy that completes
Ptah's pyramid, SPEC 2.5). Chance outcomes: the tile kinds, the stone types, the builders
(builders variant), the seats arriving at the start.

The observation is a flat vector of numbers in [0, 1] made from the position alone (Sneferu
has no hidden information, so a seat's view is the position): see :func:`observation`.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from ...game import Learning
from .components import Power, Stone, Tile
from .edition import Edition, standard_edition
from .observe import ENDS, PHASES, STONES, TILES, fill, move_ids, move_parts
from .state import GameState, Tables
from .steps import DONE, END, FEAST, STORE

__all__ = ["action_names", "action_parts", "max_action_parts", "max_game_length",
           "observation", "observation_size", "outcome_names"]


_ENDS: Final = ENDS
assert " " + str(DONE) == ENDS, "the compiled move_parts writes DONE's text"

action_parts = move_parts
"""The parts of a canonical move: its steps, the last with `` done`` (``done`` alone for
the move ``done``; :func:`.observe.move_parts`, compiled)."""


def _builds(edition: Edition, variant: str, power: Power) -> bool:
    return variant == "builders" and edition.builder_with(power) is not None


def _bag_can_empty(edition: Edition, players: int) -> bool:
    """Whether the refills of a game can empty the bag (the column shift of R4 needs it):
    each buy refills once and a seat buys at most one stone per slot (a buy needs placed +
    stored < slots, 4.1); in a solo game Ptah's stones refill too, but not his last, which
    ends the game (section 6)."""
    t = Tables.of(edition)
    in_bag = t.per_type * STONES - t.columns * t.rows
    draws = players * t.slots + (t.ptah_target - 1 if players == 1 else 0)
    return draws >= in_bag


def action_names(edition: Edition, players: int, variant: str) -> list[str]:
    """Every part of a move of a game of ``players`` seats in ``variant``, each once: the
    steps that can be followed by another, then the steps that can end a move (with
    `` done``), then ``done``."""
    t = Tables.of(edition)
    buys = [str(b) for col in t.buy for row in col for b in row]
    heba = _builds(edition, variant, Power.SAIL_BACK)
    places = [str(p) for slot in t.place for row in slot for pair in row for p in pair
              if p is not None and (heba or not p.heba)]
    feast = [str(FEAST)] if _builds(edition, variant, Power.FEAST) else []
    shifts = ([str(t.shift[s][d]) for s in range(t.columns) for d in range(t.columns) if s != d]
              if _bag_can_empty(edition, players) else [])
    steps = [*places, str(STORE), str(END), *feast]
    ending = [*(buys if players == 1 else []), *steps]
    return [*buys, *steps, *shifts, *(s + _ENDS for s in ending), str(DONE)]


def _most_stored(edition: Edition, variant: str) -> int:
    """A bound on the stones a seat stores in a game. A stone is stored only in a turn
    that started on a quarry with the STOREHOUSE tile (2.3). A boat starts at most one
    turn on a space: every buy moves it (a column's time is at least 1, and only a
    SAVETIME quarry's bonus lowers it), the forced end ends its game; only Heba's
    sail-back (once, 2 spaces) brings it back, to at most one quarry again (quarries are
    2 spaces apart or more)."""
    return (Tables.of(edition).tile_count[Tile.STOREHOUSE]
            + _builds(edition, variant, Power.SAIL_BACK))


def _most_shifts(edition: Edition, players: int) -> int:
    """A bound on the column shifts of one move: each fills a column that was empty at the
    start of the turn (its source keeps a stone). With the bag empty, every stone not in
    the offer is in a seat's pyramid or storehouse (at most a slot's worth each), so the
    offer holds the rest, which leaves at most this many columns empty (the standard
    edition with 4 seats: 16 stones or more, at most 1 empty column)."""
    if not _bag_can_empty(edition, players):
        return 0
    t = Tables.of(edition)
    least = max(1, t.per_type * STONES - players * t.slots)
    return min(t.columns - 1, t.columns - -(-least // t.rows))


def max_action_parts(edition: Edition, players: int, variant: str) -> int:
    """The most parts of a move: its shifts, the feast, the buy (or the forced end), its
    placement or ``store``, and the placements of stored stones."""
    feast = _builds(edition, variant, Power.FEAST)
    return _most_shifts(edition, players) + feast + 2 + _most_stored(edition, variant)


def max_game_length(edition: Edition, players: int, variant: str) -> int:
    """A bound on the events of one game: chance events and moves (SPEC 16.1; the bindings
    multiply it by :func:`max_action_parts` for the decisions). Chance: the tiles, the
    builders, the boats' order, and at most one draw per stone (the offer, then the
    refills). Moves: each is a turn with a buy or the forced end; a seat buys at most one
    stone per slot (a buy needs placed + stored < slots, 4.1, and a stone bought stays
    placed or stored) and takes the forced end once (it ends its game, R11)."""
    t = Tables.of(edition)
    chance = len(t.quarry_spaces) + t.per_type * STONES + players * (1 + (variant == "builders"))
    return chance + players * (t.slots + 1)


def outcome_names(edition: Edition, players: int, variant: str) -> list[str]:
    """Every chance outcome (SPEC 2.1): tile kinds, stone types, builders (builders
    variant), then the seats arriving at the start."""
    builders = [f"~{b.name}" for b in edition.builders] if variant == "builders" else []
    return [*(f"~{k.name}" for k in Tile), *(f"~{s.name}" for s in Stone), *builders,
            *(f"~{i + 1}" for i in range(players))]


# ------------------------------------------------------------------------ observation

_ZERO: Final = array("d", [0.0])
_SIZES: dict[tuple[int, int, str], tuple[Edition, int]] = {}
""":func:`observation_size` by edition (its id, the edition kept), players and variant."""

def _seat_size(t: Tables, builders: int) -> int:
    # builder, food, space, order, pyramid (left and right material of each slot),
    # stones placed, storehouse by stone type, flags f h e r
    return builders + 3 + t.slots * 10 + 1 + STONES + 4


def observation_size(edition: Edition, players: int, variant: str) -> int:
    """The length of :func:`observation` for a game of ``players`` seats in ``variant``."""
    t = Tables.of(edition)
    builders = len(edition.builders) if variant == "builders" else 0
    ptah = STONES + 1 if players == 1 else 0
    return (2 * players + PHASES + 1 + TILES + STONES + 1 + t.columns
            + len(t.quarry_spaces) * TILES + t.columns * t.rows * STONES + STONES + ptah
            + players * _seat_size(t, builders))


def observation(state: GameState, seat: int) -> array[float]:
    """What ``seat`` sees of ``state`` (the whole position) as :func:`observation_size`
    numbers (an ``array('d')``, which the bindings copy at once, filled by the compiled
    :func:`.observe.fill`), in this order:

    - the observing seat, then the deciding seat (none at a chance node or the end),
      one-hot over the seats;
    - the phase, one-hot: set-up, start of a turn, placing, after the turn, refills, over;
    - at the start of a turn, the space its boat started on (/ last space) and that
      quarry's tile (one-hot over the tile kinds; none off a quarry);
    - the stone bought and not yet placed, one-hot over the stone types; whether it may
      be stored;
    - the refills due, per column (count / rows);
    - each quarry's tile in track order, one-hot over the tile kinds (none before laid);
    - the offer, column by column, row 1 up: each cell's stone type, one-hot;
    - the bag: each stone type's count / stones per type;
    - solo only: Ptah's stones, each type's count / stones per type, and their total /
      Ptah's target;
    - each seat: its builder, one-hot (builders variant only); food
      (``min(food, FOOD_SCALE) / FOOD_SCALE``); space / last space; its order of arrival
      on that space / seats (0 before it arrived); each slot of the pyramid (bottom-up,
      left to right) as its left and then right half's material, one-hot over B T M G A;
      stones placed / slots; stored stones of each type (count / 3, at most 1); the
      flags feast used, sail-back used, forced end taken, retired.
    """
    ed = state.tables.edition
    n = len(state.players)
    key = (id(ed), n, state.variant.value)
    known = _SIZES.get(key)
    if known is None or known[0] is not ed:
        known = _SIZES[key] = (ed, observation_size(ed, n, state.variant.value))
    out = _ZERO * known[1]
    fill(state, seat, memoryview(out))  # cheaper item writes
    return out


class SneferuLearning(Learning[GameState]):
    """Sneferu's encodings for the learning libraries (SPEC 16.1): a move is played in
    parts, one step each; encodings are of the standard edition."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._known: dict[tuple[int, str], tuple[dict[str, tuple[int, ...]],
                                                 dict[str, int]]] = {}
        """Per set-up (players, variant): the ids of the moves met, and every part's id."""

    def action_names(self, players: int, variant: str) -> list[str]:
        return action_names(standard_edition(), players, variant)

    def action_parts(self, move: str) -> tuple[str, ...]:
        return action_parts(move)

    def max_action_parts(self, players: int, variant: str) -> int:
        return max_action_parts(standard_edition(), players, variant)

    def outcome_names(self, players: int, variant: str) -> list[str]:
        return outcome_names(standard_edition(), players, variant)

    def max_game_length(self, players: int, variant: str) -> int:
        return max_game_length(standard_edition(), players, variant)

    def observation_shape(self, players: int, variant: str) -> tuple[int, ...]:
        return (observation_size(standard_edition(), players, variant),)

    def observation(self, state: GameState, seat: int) -> array[float]:
        return observation(state, seat)

    def legal_ids(self, state: GameState, seat: int, moves: list[str]
                  ) -> list[tuple[int, ...]] | None:
        """The ids of ``moves`` by the compiled :func:`.observe.move_ids`, each move's
        ids kept per set-up."""
        key = (len(state.players), state.variant.value)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = ({}, self.encoding(*key).ids_by_name)
        return move_ids(moves, known[1], known[0])
