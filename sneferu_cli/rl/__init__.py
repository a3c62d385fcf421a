"""The learning-library bindings (SPEC 16): OpenSpiel (:mod:`.openspiel`) and PettingZoo
(:mod:`.pettingzoo`), made for every registered game from the game interface's action
encoding (:meth:`sneferu_cli.game.Learning.encoding` of the game's
:meth:`sneferu_cli.game.Game.learning`). They need the ``rl`` extra
(``pip install 'sneferu[rl]'``)."""

from __future__ import annotations

import importlib
import operator
from array import array
from collections.abc import Sequence
from typing import Any

from ..game import Encoding, Game, game_names, get_game

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


def action_index(action: object, actions: int) -> int | None:
    """``action`` as an action id from 0 to ``actions`` - 1, or None when it is not one: an
    integer (``int``, a numpy integer, anything with ``__index__``), never a bool, a float
    (even ``3.0``: a ``Discrete`` space holds integers only) or a string (SPEC 16.3).

    >>> [action_index(a, 10) for a in (3, 3.0, 3.5, "3", True, 10, -1)]
    [3, None, None, None, None, None, None]
    """
    if isinstance(action, bool) or type(action).__name__ == "bool_":
        return None
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return index if 0 <= index < actions else None


class Decision:
    """The decision a seat owes, as the bindings take it: its legal moves by their sequences
    of action ids (one id each, or one per part with a factored encoding) and the ids chosen
    so far. A move is applied once its whole sequence is chosen."""

    __slots__ = ("at", "chosen", "ids", "legal", "names", "seat", "texts")

    def __init__(self, encoding: Encoding, state: Any, seat: int) -> None:
        self.seat = seat
        self.names = encoding.moves
        self.texts = encoding.game.legal_moves(state, seat)
        """The legal moves (:meth:`~sneferu_cli.game.Game.legal_moves`)."""
        self.ids = encoding.legal_ids(state, seat, self.texts)
        """Each legal move's action ids, in the same order (two lists: no dict of tuples
        to hash at every decision)."""
        self.chosen: tuple[int, ...] = ()
        """The ids chosen so far (the parts of a move not complete yet)."""
        self.legal: list[int] | None = None
        """:meth:`legal_actions` once asked, until the next part is chosen."""
        self.at: list[int] | None = None
        """The indices of the legal moves that begin with :attr:`chosen` (None: every one)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        # Nothing in it changes in place (``chosen`` and ``at`` are replaced): a copied
        # OpenSpiel state shares the rest, rather than copying every move at each clone.
        other = Decision.__new__(Decision)
        other.seat, other.names, other.texts, other.ids = (self.seat, self.names,
                                                           self.texts, self.ids)
        other.chosen, other.legal, other.at = self.chosen, self.legal, self.at
        return other

    def legal_actions(self) -> list[int]:
        """The ids that may come next, ascending (a new list each call)."""
        legal = self.legal
        if legal is None:
            k, ids = len(self.chosen), self.ids
            legal = self.legal = sorted({i[k] for i in ids} if self.at is None
                                        else {ids[j][k] for j in self.at})
        return list(legal)

    def choose(self, action: int) -> str | None:
        """Take ``action`` next: the move when it completes one, else None; ValueError when
        it is not legal now."""
        k, ids = len(self.chosen), self.ids
        at = ([j for j, i in enumerate(ids) if i[k] == action] if self.at is None
              else [j for j in self.at if ids[j][k] == action])
        if not at:
            name = self.names[action] if 0 <= action < len(self.names) else "no action id"
            raise ValueError(f"action {action} ({name}) is not legal now")
        if len(at) == 1 and len(ids[at[0]]) == k + 1:  # no legal move's ids begin another's
            self.chosen, self.legal, self.at = (), None, None
            return self.texts[at[0]]
        self.chosen, self.legal, self.at = (*self.chosen, action), None, at
        return None


def chosen_bits(encoding: Encoding) -> int:
    """The bits of an action id in the parts-chosen numbers of :func:`observation`."""
    return max(1, (encoding.actions - 1).bit_length())


def chosen_size(encoding: Encoding) -> int:
    """The numbers :func:`observation` adds after the game's tensor for the parts chosen:
    with a factored encoding, one slot per part but the last (``max_parts`` - 1), each a
    1 when that part is chosen and the part's action id in binary, lowest bit first
    (:func:`chosen_bits` numbers); none with a one-part encoding."""
    return (encoding.max_parts - 1) * (1 + chosen_bits(encoding))


def observation_size(encoding: Encoding) -> int:
    """The length of :func:`observation`: the game's observation tensor, and with a factored
    encoding the parts chosen (:func:`chosen_size`)."""
    size = 1
    for n in encoding.learning.observation_shape(encoding.players, encoding.variant):
        size *= n
    return size + chosen_size(encoding)


def _chosen_numbers(encoding: Encoding, chosen: Sequence[int]) -> array[float]:
    """The parts-chosen numbers of :func:`observation` (:func:`chosen_size` of them)."""
    bits = chosen_bits(encoding)
    out = _ZERO * chosen_size(encoding)
    for k, action in enumerate(chosen):
        at = k * (1 + bits)
        out[at] = 1.0
        for b in range(bits):
            if action >> b & 1:
                out[at + 1 + b] = 1.0
    return out


def observation(encoding: Encoding, state: Any, seat: int,
                chosen: Sequence[int] = (), out: Any = None) -> Sequence[float]:
    """What the bindings show ``seat``: the game's observation tensor of the seat
    (flattened), followed with a factored encoding by the parts the seat has chosen so far
    in its pending decision (``chosen``; none for every other seat), as
    :func:`chosen_size` says. An ``array('d')`` from the game stays one (numpy reads its
    buffer at once). With ``out`` (a flat numpy array of :func:`observation_size`
    numbers) the numbers are written into it, each part in its place (no concatenated
    copy), and ``out`` returned."""
    tensor = encoding.learning.observation(state, seat)
    if out is not None:
        # numpy copies an array's buffer at once (a memoryview), a list number by number
        out[:len(tensor)] = memoryview(tensor) if isinstance(tensor, array) else tensor
        write_chosen(encoding, chosen, out)
        return out  # type: ignore[no-any-return]
    if encoding.max_parts == 1:
        return tensor
    return ((tensor if isinstance(tensor, array) else array("d", tensor))
            + _chosen_numbers(encoding, chosen))


def write_chosen(encoding: Encoding, chosen: Sequence[int], out: Any) -> None:
    """Write the parts-chosen numbers of :func:`observation` (``chosen``) at the end of
    ``out``, a flat numpy array of :func:`observation_size` numbers, the rest left as it
    is: all a seat's observation changes from one part of its move to the next (the
    bindings keep the game's tensor between them). Nothing with a one-part encoding.
    Each part's numbers are a row of a table made once per encoding."""
    if encoding.max_parts == 1:
        return
    start = len(out) - chosen_size(encoding)
    out[start:] = 0.0
    if chosen:
        rows = _PART_ROWS.get(encoding)
        if rows is None:
            rows = _PART_ROWS[encoding] = _part_rows(encoding)
        width = rows.shape[1]
        for k, action in enumerate(chosen):
            at = start + k * width
            out[at:at + width] = rows[action]


def _part_rows(encoding: Encoding) -> Any:
    """Per action id, the numbers of a part chosen (:func:`chosen_size`): 1, then the id
    in binary, lowest bit first (float32)."""
    import numpy as np

    bits = chosen_bits(encoding)
    ids = np.arange(encoding.actions)[:, None]
    rows = np.ones((encoding.actions, 1 + bits), np.float32)
    rows[:, 1:] = ids >> np.arange(bits) & 1
    return rows


_PART_ROWS: dict[Encoding, Any] = {}
""":func:`_part_rows` of each encoding met (encodings are made once, and kept)."""
_ZERO = array("d", [0.0])
