"""The bindings' per-step path (SPEC 16), compiled with mypyc in the real build (listed in
this folder's ``compiled.txt``): a seat's :class:`Decision` (its legal moves by action ids,
the parts chosen), action ids checked (:func:`action_index`), observations written into
numpy arrays (:func:`observation`, :func:`write_chosen`) and the PettingZoo environment's
game stepped (:class:`Table`). It imports neither PettingZoo nor OpenSpiel (numpy only
when an array is made): the binding classes, which subclass theirs, stay thin Python
around it."""

from __future__ import annotations

import operator
import random
from array import array
from collections.abc import Sequence
from typing import Any

from ..game import Encoding

__all__ = ["IDS_KEPT", "Decision", "Table", "action_index", "chosen_bits", "chosen_size",
           "legal_ids", "observation", "observation_size", "write_chosen"]


def action_index(action: object, actions: int) -> int | None:
    """``action`` as an action id from 0 to ``actions`` - 1, or None when it is not one: an
    integer (``int``, a numpy integer, anything with ``__index__``), never a bool, a float
    (even ``3.0``: a ``Discrete`` space holds integers only) or a string (SPEC 16.3).

    >>> [action_index(a, 10) for a in (3, 3.0, 3.5, "3", True, 10, -1)]
    [3, None, None, None, None, None, None]
    """
    if isinstance(action, bool) or type(action).__name__ == "bool_":
        return None
    if isinstance(action, int):
        index = action
    else:
        try:
            index = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            return None
    return index if 0 <= index < actions else None


def legal_ids(encoding: Encoding, state: Any, seat: int, moves: list[str]
              ) -> list[tuple[int, ...]]:
    """:meth:`Encoding.legal_ids` (the ids of ``moves``, ``seat``'s legal moves, in order):
    those the game lists itself when it offers them, else each move's parts looked up
    here, a move met before taken from the ids kept per encoding (up to
    :data:`IDS_KEPT` moves); ValueError when a part has no id."""
    listed: list[tuple[int, ...]] | None = encoding.learning.legal_ids(state, seat, moves)
    if listed is not None:
        return listed
    known = _KNOWN.get(encoding)
    if known is None:
        known = _KNOWN[encoding] = {}
    names: dict[str, int] = encoding.ids_by_name
    parts_of: Any = encoding.learning.action_parts if encoding.max_parts > 1 else None
    out: list[tuple[int, ...]] = []
    for move in moves:
        ids = known.get(move)
        if ids is None:
            parts: tuple[str, ...] = (move,) if parts_of is None else parts_of(move)
            found: list[int] = []
            for part in parts:
                i = names.get(part, -1)
                if i < 0:
                    which = "" if parts_of is None else f"a part {part!r} with "
                    raise ValueError(f"{encoding.game.title}: move {move!r} has {which}"
                                     "no action id")
                found.append(i)
            ids = tuple(found)
            if len(known) >= IDS_KEPT:
                known.clear()  # a bound on memory: moves seen again are few
            known[move] = ids
        out.append(ids)
    return out


IDS_KEPT = 1 << 16
"""How many moves' action ids :func:`legal_ids` keeps per encoding."""
_KNOWN: dict[Encoding, dict[str, tuple[int, ...]]] = {}


class Decision:
    """The decision a seat owes, as the bindings take it: its legal moves by their sequences
    of action ids (one id each, or one per part with a factored encoding) and the ids chosen
    so far. A move is applied once its whole sequence is chosen. ``made`` (the legal moves
    and their ids, already listed) is for a copy."""

    def __init__(self, encoding: Encoding, state: Any, seat: int,
                 made: tuple[list[str], list[tuple[int, ...]]] | None = None) -> None:
        self.encoding = encoding
        self.seat = seat
        self.names: tuple[str, ...] = encoding.moves
        if made is None:
            texts: list[str] = encoding.game.legal_moves(state, seat)
            made = texts, legal_ids(encoding, state, seat, texts)
        self.texts: list[str] = made[0]
        """The legal moves (:meth:`~sneferu_cli.game.Game.legal_moves`)."""
        self.ids: list[tuple[int, ...]] = made[1]
        """Each legal move's action ids, in the same order (two lists: no dict of tuples
        to hash at every decision)."""
        self.chosen: tuple[int, ...] = ()
        """The ids chosen so far (the parts of a move not complete yet)."""
        self.legal: list[int] | None = None
        """:meth:`legal_actions` once asked, until the next part is chosen."""
        self.at: list[int] | None = None
        """The indices of the legal moves that begin with :attr:`chosen` (None: every one)."""
        self.groups: dict[int, list[int]] | None = None
        """Those indices by the id that comes next in each move (:meth:`next_ids`), once
        asked, until the next part is chosen."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        # Nothing in it changes in place (``chosen``, ``at`` and ``groups`` are replaced):
        # a copied OpenSpiel state shares the rest, rather than copying every move at each
        # clone.
        other = Decision(self.encoding, None, self.seat, (self.texts, self.ids))
        other.chosen, other.legal, other.at, other.groups = (self.chosen, self.legal,
                                                             self.at, self.groups)
        return other

    def next_ids(self) -> dict[int, list[int]]:
        """The indices of the legal moves that begin with :attr:`chosen`, by the id that
        comes next in each (one pass over them, for both :meth:`legal_actions` and
        :meth:`choose`; never to be changed)."""
        groups = self.groups
        if groups is None:
            groups = self.groups = {}
            k, ids = len(self.chosen), self.ids
            if self.at is None:
                for j, i in enumerate(ids):
                    _group(groups, i[k], j)
            else:
                for j in self.at:
                    _group(groups, ids[j][k], j)
        return groups

    def kept_legal(self) -> list[int]:
        """:meth:`legal_actions`, the list kept (never to be changed)."""
        legal = self.legal
        if legal is None:
            legal = self.legal = sorted(self.next_ids())
        return legal

    def legal_actions(self) -> list[int]:
        """The ids that may come next, ascending (a new list each call)."""
        return list(self.kept_legal())

    def choose(self, action: int) -> str | None:
        """Take ``action`` next: the move when it completes one, else None; ValueError when
        it is not legal now."""
        k, ids = len(self.chosen), self.ids
        at = self.next_ids().get(action)
        if at is None:
            name = self.names[action] if 0 <= action < len(self.names) else "no action id"
            raise ValueError(f"action {action} ({name}) is not legal now")
        if len(at) == 1 and len(ids[at[0]]) == k + 1:  # no legal move's ids begin another's
            self.chosen, self.legal, self.at, self.groups = (), None, None, None
            return self.texts[at[0]]
        self.chosen, self.legal, self.at, self.groups = (*self.chosen, action), None, at, None
        return None


def _group(groups: dict[int, list[int]], action: int, j: int) -> None:
    group = groups.get(action)
    if group is None:
        groups[action] = [j]
    else:
        group.append(j)


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
    tensor: Sequence[float] = encoding.learning.observation(state, seat)
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
        width: int = rows.shape[1]
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


class Table:
    """The game of a PettingZoo environment (:mod:`.pettingzoo`), stepped: the state, the
    generator of its chance draws, the deciding seat's :class:`Decision`, and the
    observations and masks as numpy arrays (``shape``: the observation's)."""

    def __init__(self, encoding: Encoding, shape: tuple[int, ...]) -> None:
        import numpy as np

        self.encoding = encoding
        self.game: Any = encoding.game
        self.actions = encoding.actions
        self.factored = encoding.max_parts > 1
        self.size = observation_size(encoding)
        self.shape = shape
        self.flat = len(shape) == 1
        self.frombuffer: Any = np.frombuffer
        self.empty: Any = np.empty
        self.int8: Any = np.int8
        self.float32: Any = np.float32
        self.rng = random.Random()
        self.state: Any = None
        self.decision: Decision | None = None
        """The deciding seat's decision (None when the game is over)."""
        self.kept: Any = None
        """With a factored encoding, the numbers of the last observation made of the
        decision pending (:attr:`kept_of`) for :attr:`kept_seat`: the next part's shows
        the same game tensor."""
        self.kept_of: Decision | None = None
        self.kept_seat = -1

    def new_game(self) -> int:
        """A new game: :meth:`advance`."""
        encoding = self.encoding
        self.state = self.game.new_game(encoding.players, variant=encoding.variant)
        return self.advance()

    def advance(self) -> int:
        """Resolve chance, then make the deciding seat's decision: that seat, or -1 when
        the game is over."""
        game, state, rng = self.game, self.state, self.rng
        self.decision = None
        while state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        if state.is_over():
            return -1
        seat: int = state.current_seat()
        self.decision = Decision(self.encoding, state, seat)
        return seat

    def step(self, action: object) -> int:
        """Take ``action`` (an action id) for the deciding seat: the seat deciding next, or
        -1 when the game is over; ValueError when ``action`` is no action id or not legal
        now."""
        index = action_index(action, self.actions)
        if index is None:
            raise ValueError(f"action {action!r} is not an action id")
        decision = self.decision
        assert decision is not None
        move = decision.choose(index)
        if move is None:
            return decision.seat
        self.game.apply_move(self.state, move, listed=True)
        return self.advance()

    def observe(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation tensor and action mask, new arrays."""
        ones = bytearray(self.actions)  # the mask's bytes, numpy's array over them
        chosen: tuple[int, ...] = ()
        decision = self.decision
        if decision is not None:
            if decision.seat == seat:
                chosen = decision.chosen
                legal = decision.kept_legal()
            else:
                legal = Decision(self.encoding, self.state, seat).kept_legal()
            for action in legal:
                ones[action] = 1
        mask = self.frombuffer(ones, self.int8)
        tensor = self.empty(self.size, self.float32)
        if self.factored and decision is not None:
            if self.kept_of is decision and self.kept_seat == seat:
                tensor[:] = self.kept
                write_chosen(self.encoding, chosen, tensor)
            else:
                observation(self.encoding, self.state, seat, chosen, tensor)
                self.kept, self.kept_of, self.kept_seat = tensor.copy(), decision, seat
        else:
            observation(self.encoding, self.state, seat, chosen, tensor)
        return {"observation": tensor if self.flat else tensor.reshape(self.shape),
                "action_mask": mask}
