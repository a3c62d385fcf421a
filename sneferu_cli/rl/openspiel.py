"""OpenSpiel binding (SPEC 16.2): importing this module registers every game with an action
encoding as a Python ``pyspiel`` game named ``sneferu_NAME`` (``-`` becomes ``_``).

>>> import pyspiel
>>> import sneferu_cli.rl.openspiel
>>> game = pyspiel.load_game("sneferu_imhotep", {"players": 3})
>>> game.num_players()
3

Parameters: ``players`` (the game's smallest count by default, at least 2) and ``variant``
(its first variant by default). With a factored encoding (SPEC 16.1) one move is as many
decisions of its seat as it has parts, and the observation tensor ends with the parts
chosen so far. Chance nodes list the game's outcomes with their probabilities as chance
ids (:meth:`Encoding.outcome_id`); with factored outcomes (``Learning.outcome_parts``) one
outcome is as many chance steps as it has parts, each listing the next parts with their
probabilities given those chosen, and the outcome is applied at its last (no seat sees
the parts before). A simultaneous node is played sequentially, seat by seat in ascending
order, as the game interface collects it: the pending moves are hidden from the other
seats' views, so the game is declared imperfect-information and each seat's information
state is what it saw; ``resample_from_infostate`` draws a state a seat cannot tell from
the truth, for OpenSpiel's Python ``ISMCTSBot`` (and for its ``MCTSBot``, which must be
handed one rather than the truth). Returns come from the final ranking (:func:`returns`).
A state is saved as text by :func:`serialize_state` and read back, through the rules, by
:func:`deserialize_state`.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from collections.abc import Sequence
from typing import Any

from . import Decision, encoded_games, need, observation, observation_size, returns, write_chosen

need("pyspiel", "numpy")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..game import Encoding, Game, get_game, seat_state, seat_view  # noqa: E402

__all__ = ["SHORT_NAMES", "deserialize_state", "register", "serialize_state", "short_name",
           "spiel_players", "spiel_state"]


def short_name(game: Game) -> str:
    """The OpenSpiel name of ``game``: ``sneferu_`` and its name, ``-`` as ``_``."""
    return "sneferu_" + game.name.replace("-", "_")


def spiel_players(game: Game) -> list[int]:
    """The player counts the OpenSpiel game offers: the game's, but for one (a solo game
    has no zero-sum returns; PettingZoo offers it, SPEC 16.2)."""
    return [n for n in game.players if n >= 2]


def _game_type(game: Game) -> Any:
    hidden = game.hidden() is not None
    players = spiel_players(game)
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{game.title} (sneferu)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[-1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": players[0], "variant": game.variants[0]})


class SneferuSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One set-up of a registered game as an OpenSpiel game."""

    rules: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        counts = spiel_players(self.rules)
        players = int(params.get("players", counts[0]))
        variant = str(params.get("variant", self.rules.variants[0]))
        if players not in counts:
            raise ValueError(f"{self.rules.title} is for {counts[0]} to {counts[-1]} "
                             f"players in OpenSpiel, not {players}")
        if variant not in self.rules.variants:
            raise ValueError(f"{self.rules.title} has no variant {variant!r}")
        learning = self.rules.learning()
        assert learning is not None
        encoding = learning.encoding(players, variant)
        self.encoding: Encoding = encoding
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.actions,
            max_chance_outcomes=len(encoding.outcomes),
            num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=learning.max_game_length(players, variant)
            * max(encoding.max_parts, encoding.max_outcome_parts))
        super().__init__(_game_type(self.rules), info,
                         {"players": players, "variant": variant})
        self.start = self.rules.new_game(players, variant=variant)
        """The game's state before set-up, which every new initial state clones (OpenSpiel
        makes one at every observation tensor it answers, for the tensor's shape)."""

    def new_initial_state(self) -> SneferuSpielState:
        """The state before set-up."""
        return SneferuSpielState(self)

    def deserialize_state(self, text: str) -> SneferuSpielState:
        """The state of this game :func:`serialize_state` (``state.serialize()``) wrote,
        replayed through the rules (:func:`deserialize_state`); ValueError when the text is
        not one or of another game."""
        state = deserialize_state(text)
        if state.get_game().get_parameters() != self.get_parameters() \
                or state.encoding.game is not self.rules:
            raise ValueError(f"serialized state, line 1: {text.split(chr(10))[0]!r} is not "
                             f"the game {_game_string(self.encoding)}")
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Any = None) -> SneferuObserver:
        """The observer of observations (a seat's view) and information states (what the
        seat saw, event by event)."""
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SneferuObserver(self.encoding, recall)


class SneferuSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of a registered game behind OpenSpiel's API. Everything on the Python side
    is in :attr:`position` (one attribute: OpenSpiel clones and serializes the state's
    attributes one by one)."""

    def __init__(self, game: SneferuSpielGame) -> None:
        super().__init__(game)
        self.position = _Position(game.start, game.encoding, shared=True)

    @property
    def encoding(self) -> Encoding:
        """The set-up's action encoding."""
        return self.position.encoding

    @property
    def state(self) -> Any:
        """The game's own state (the caller's to change: never the game's start, which
        a new initial state only shares until it changes)."""
        position = self.position
        if position.shared:
            position.state, position.shared = position.state.clone(), False
        return position.state

    @property
    def seen(self) -> list[list[str]]:
        """What each seat saw, one entry per event: the event's text without hidden
        information, else its view after the event (made when asked,
        :attr:`_Position.seen`)."""
        return self.position.seen

    @property
    def decision(self) -> Decision | None:
        """The deciding seat's decision, made when first asked for and kept until its move
        is applied."""
        return self.position.decision

    @property
    def chance_parts(self) -> tuple[str, ...]:
        """The parts chosen so far of the chance node's outcome (``Learning.outcome_parts``)."""
        return self.position.chance_parts

    def current_player(self) -> int:
        """The deciding seat, CHANCE or TERMINAL (kept until the state changes: OpenSpiel
        asks several times a step)."""
        position = self.position
        player = position.player
        if player is None:
            state = position.state
            player = position.player = (_TERMINAL if state.is_over() else
                                         _CHANCE if state.is_chance_node() else
                                         int(state.current_seat()))
        return player

    def _decision(self) -> Decision:
        position = self.position
        if position.decision is None:
            position.decision = Decision(position.encoding, position.state,
                                         position.state.current_seat())
        return position.decision

    def _legal_actions(self, player: int) -> list[int]:
        return self._decision().kept_legal()  # pyspiel copies it into its own vector

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance ids of the node's outcomes (or of their next parts) with their
        probabilities (given the parts chosen)."""
        position = self.position
        if position.chances is None:  # OpenSpiel asks several times at a node
            encoding = position.encoding
            if encoding.max_outcome_parts == 1:
                outcomes = encoding.game.chance_outcomes(position.state)
            else:
                outcomes = encoding.learning.chance_part_outcomes(position.state,
                                                                  position.chance_parts)
            position.chances = sorted((encoding.outcome_id(o), p) for o, p in outcomes)
        return list(position.chances)

    def _apply_action(self, action: int) -> None:
        position = self.position
        encoding = position.encoding
        rules = encoding.game
        state = position.state
        chance = state.is_chance_node()
        if chance and encoding.max_outcome_parts > 1 \
                and action not in dict(self.chance_outcomes()):
            # the game sees only whole outcomes: a wrong part is caught here
            raise ValueError(f"chance id {action} is not a next part of an outcome here")
        position.chances = position.player = None
        position.token = next(_TOKENS)
        if chance:
            text = encoding.outcomes[action]
            position.actions.append(action)
            if encoding.max_outcome_parts > 1:
                position.chance_parts += (text,)
                outcome = encoding.learning.outcome_of_parts(state, position.chance_parts)
                if outcome is None:
                    return  # a part of an outcome: chance decides again, nobody sees it
                text, position.chance_parts = outcome, ()
            position.record(True, text)
            rules.apply_outcome(position.state, text)
        else:
            try:
                move = self._decision().choose(action)
            except ValueError as e:
                raise ValueError(f"seat {state.current_seat() + 1}: {e}") from None
            position.actions.append(action)
            if move is None:
                return  # a part of a move: the same seat decides again
            position.decision = None
            position.record(False, move)
            rules.apply_move(position.state, move, listed=True)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.encoding.outcomes[action]
        return self.encoding.moves[action]

    def is_terminal(self) -> bool:
        """Whether the game is over (:meth:`current_player`'s answer, kept until the state
        changes: OpenSpiel asks at every step)."""
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's return from the final ranking (0 while not over)."""
        if not self.state.is_over():
            return [0.0] * self.encoding.players
        return returns(self.encoding, self.state)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> SneferuSpielState:
        """A state ``player_id`` cannot tell from this one, drawn for information-set search
        (OpenSpiel's ``ISMCTSBot`` calls it at every simulation): from the seat's view, the
        hidden things drawn (``Hidden.determinize``) and the sealed moves pending of the
        seats deciding before the current one drawn at random (:func:`spiel_state`'s
        drawing), with the seat's information state and the parts it has chosen of its
        move kept, so its information state string is this state's; the other seats'
        information states start at the drawn position. ``probability_sampler`` (a
        ``pyspiel.UniformProbabilitySampler``, called once) seeds the draw. A clone in a
        game without hidden information (nothing to draw)."""
        rules = self.encoding.game
        if rules.hidden() is None:
            clone: SneferuSpielState = self.clone()
            return clone
        rng = random.Random(int(probability_sampler() * 2**53))
        known = seat_state(rules, self.state, player_id)
        out = _drawn(self.get_game(), known, player_id, self.current_player(), rng)
        out.position.seen[player_id] = list(self.seen[player_id])
        decision = self.decision
        if decision is not None and decision.seat == player_id:
            for action in decision.chosen:
                out.apply_action(action)
        return out

    def serialize(self) -> str:
        """The state as text (:func:`serialize_state`): the game and its parameters, the
        position it started from when not the game's start, and the action ids since."""
        return serialize_state(self)

    def __str__(self) -> str:
        return self.encoding.game.to_position(self.state)


class _Position:
    """Everything of an OpenSpiel state on the Python side: the game's state, what each
    seat saw, the decision pending, the action ids applied. OpenSpiel clones it with
    ``copy.deepcopy`` (the game's own ``clone`` inside) and serializes it with ``pickle``,
    here as the text of :func:`serialize_state`, read back by replaying its actions
    through the rules (a compiled state is no plain Python object to pickle)."""

    __slots__ = ("_seen", "actions", "chance_parts", "chances", "decision", "encoding",
                 "events", "mark", "moved", "player", "shared", "start", "state", "token")

    def __init__(self, state: Any, encoding: Encoding, start: str | None = None,
                 shared: bool = False) -> None:
        self.state = state
        self.shared = shared
        """Whether :attr:`state` is the game's start, shared (OpenSpiel makes a new
        initial state at every observation tensor it answers): cloned before it
        changes."""
        self.encoding = encoding
        self.start = start
        """The position the state was made from (:func:`spiel_state`), None for the
        game's start."""
        self.actions: list[int] = []
        """The action ids applied since, chance ids included, as OpenSpiel's history."""
        self._seen: list[list[str]] = [[] for _ in range(encoding.players)]
        self.events: list[tuple[bool, str]] = []
        """The events (chance or not, the outcome's or move's text) applied since what
        :attr:`seen` holds: the seats' views of them are made when asked."""
        self.mark: Any = None
        """With :attr:`events` in a game with hidden information, the state before the
        first of them (never changed: read on a clone)."""
        self.decision: Decision | None = None
        self.chance_parts: tuple[str, ...] = ()
        self.chances: list[tuple[int, float]] | None = None
        """The chance node's outcomes as OpenSpiel gets them, once listed (not copied)."""
        self.player: int | None = None
        """OpenSpiel's current player, once asked."""
        self.token = next(_TOKENS)
        """Made anew at every change of the OpenSpiel state, kept by a copy: two positions
        with the same token hold the same state and parts chosen."""
        self.moved = self.token
        """Made anew at every change of the game's state (not at a part of a move or of
        an outcome), kept by a copy: two positions with the same one hold the same game
        state."""

    @property
    def seen(self) -> list[list[str]]:
        """What each seat saw, one list a seat, an entry per event (the event's text in
        a game without hidden information, else the seat's view after it): the views of
        the events applied since last asked are made now, by replaying them from
        :attr:`mark`, rather than at every action."""
        events = self.events
        if events:
            rules = self.encoding.game
            hidden = rules.hidden()
            if hidden is None:
                texts = [text for _, text in events]
                for seen in self._seen:
                    seen += texts
            else:
                state = self.mark.clone()
                for chance, text in events:
                    if chance:
                        rules.apply_outcome(state, text)
                    else:
                        rules.apply_move(state, text, listed=True)
                    for seat, seen in enumerate(self._seen):
                        seen.append(hidden.view(state, seat))
            self.events, self.mark = [], None
        return self._seen

    @seen.setter
    def seen(self, seen: list[list[str]]) -> None:
        self._seen, self.events, self.mark = seen, [], None

    def record(self, chance: bool, text: str) -> None:
        """Note the event ``text`` (an outcome when ``chance``) about to be applied to
        :attr:`state` (cloned first when shared)."""
        if not self.events and self.encoding.game.hidden() is not None:
            self.mark = self.state if self.shared else self.state.clone()
        self.events.append((chance, text))
        self.moved = next(_TOKENS)
        if self.shared:
            self.state, self.shared = self.state.clone(), False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        other = _Position.__new__(_Position)
        other.state, other.encoding, other.start = self.state.clone(), self.encoding, self.start
        other.shared = False
        other.actions, other._seen = list(self.actions), [list(s) for s in self._seen]
        other.events, other.mark = list(self.events), self.mark
        other.decision = None if self.decision is None else copy.deepcopy(self.decision)
        other.chance_parts, other.chances, other.token = self.chance_parts, None, self.token
        other.moved = self.moved
        other.player = self.player
        return other

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _read_position, (_serialized(self),)


_TOKENS = itertools.count()
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _read_position(text: str) -> _Position:
    """A pickled :class:`_Position` read back from its :func:`serialize_state` text."""
    position: _Position = deserialize_state(text).position
    return position


def _game_string(encoding: Encoding) -> str:
    return (f"{short_name(encoding.game)}(players={encoding.players},"
            f"variant={encoding.variant})")


def _serialized(position: _Position) -> str:
    lines = [_game_string(position.encoding)]
    if position.start is not None:
        lines.append("position " + position.start)
    lines.append(" ".join(["actions", *map(str, position.actions)]))
    return "\n".join(lines)


def serialize_state(state: SneferuSpielState) -> str:
    """``state`` as text, a line each: the OpenSpiel game with its parameters
    (``sneferu_imhotep(players=3,variant=ABAAB)``); ``position TEXT`` when the state was
    made from a position (:func:`spiel_state`, ``resample_from_infostate``) rather than
    the game's start; ``actions`` and the action ids applied since, chance ids included
    (parts of a move or an outcome too). A few hundred bytes; :func:`deserialize_state`
    reads it back."""
    return _serialized(state.position)


_GAME_LINE = re.compile(r"(sneferu_\w+)\(players=(\d+),variant=([^,()\s]+)\)")


def deserialize_state(text: str) -> SneferuSpielState:
    """The state :func:`serialize_state` wrote, made by replaying its actions through the
    rules from the game's start (or its ``position``), so that any text gives a legal
    state or a ValueError of one line saying what is wrong and on which line."""
    lines = text.split("\n")
    if len(lines) not in (2, 3):
        raise ValueError(f"serialized state: {len(lines)} lines, not 2 or 3 (the game, "
                         "a position if any, the actions)")
    match = _GAME_LINE.fullmatch(lines[0])
    if match is None or match[1] not in SHORT_NAMES:
        raise ValueError(f"serialized state, line 1: {_clip(lines[0])!r} is no registered "
                         "game with its parameters (sneferu_NAME(players=N,variant=V))")
    try:
        game = pyspiel.load_game(match[1], {"players": int(match[2]), "variant": match[3]})
    except ValueError as e:
        raise ValueError(f"serialized state, line 1: {e}") from None
    out: SneferuSpielState = game.new_initial_state()
    if len(lines) == 3:
        if not lines[1].startswith("position "):
            raise ValueError(f"serialized state, line 2: {_clip(lines[1])!r} is not "
                             "'position TEXT'")
        rules = out.encoding.game
        try:
            state = rules.from_position(lines[1].removeprefix("position "))
        except Exception as e:  # the game's NotationError, whatever its class
            raise ValueError(f"serialized state, line 2: {_one_line(e)}") from None
        if (rules.players_of(state), rules.variant_of(state)) != (out.encoding.players,
                                                                   out.encoding.variant):
            raise ValueError("serialized state, line 2: the position is not of the game "
                             "of line 1 (players or variant)")
        out.position = _Position(state, out.encoding, lines[1].removeprefix("position "))
    words = lines[-1].split(" ")
    where = f"serialized state, line {len(lines)}"
    if words[0] != "actions":
        raise ValueError(f"{where}: {_clip(lines[-1])!r} does not begin with 'actions'")
    for n, word in enumerate(words[1:], 1):
        if not word.isdigit() or not word.isascii():
            raise ValueError(f"{where}: action {n}, {_clip(word)!r}, is not an action id")
        action = int(word)
        if out.is_terminal():
            raise ValueError(f"{where}: action {n} ({action}) after the end of the game")
        legal = ([a for a, _ in out.chance_outcomes()] if out.is_chance_node()
                 else out.legal_actions())
        if action not in legal:
            kind = "chance id" if out.is_chance_node() else "action id"
            raise ValueError(f"{where}: action {n}, {kind} {action}, is not legal there")
        out.apply_action(action)
    return out


def _clip(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


class SneferuObserver:
    """OpenSpiel's PyObserver: the seat's observation tensor; its view (observation
    string) or the events it saw (information-state string)."""

    def __init__(self, encoding: Encoding, recall: bool) -> None:
        self.encoding = encoding
        self.recall = recall
        shape = encoding.learning.observation_shape(encoding.players, encoding.variant)
        self.tensor = np.zeros(observation_size(encoding), np.float32)
        size = int(np.prod(shape))
        self.dict = {"observation": self.tensor[:size].reshape(shape)}
        if encoding.max_parts > 1:
            self.dict["chosen"] = self.tensor[size:]
        self.filled: tuple[int, int] | None = None
        """The token of the position and the player :attr:`tensor` holds."""
        self.kept = np.zeros((encoding.players, observation_size(encoding)), np.float32)
        """Each player's last tensor made of a state other than the initial one, kept:
        from one part of a move to the next only the parts chosen are written anew
        (OpenSpiel asks the initial state's in between)."""
        self.kept_of: list[int | None] = [None] * encoding.players
        """The game state (:attr:`_Position.moved`) of each player's :attr:`kept`."""
        self.initial: dict[int, Any] = {}
        """Each player's tensor of the game's initial state, kept: OpenSpiel makes a new
        initial state and asks its tensor (for the shape) at every ``observation_tensor``."""

    def set_from(self, state: SneferuSpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``. An information
        state tensor is not provided (the game type says so): asking for one is an
        error, not the observation under another name."""
        if self.recall:
            raise NotImplementedError(
                f"{self.encoding.game.title}: no information state tensor (the game type "
                "does not provide one); use observation_tensor, or information_state_string "
                "for what the seat saw")
        position = state.position
        filled = (position.token, player)
        if filled == self.filled:
            return
        if position.moved == self.kept_of[player]:
            self.tensor[:] = self.kept[player]
            write_chosen(self.encoding, _chosen(state, player), self.tensor)
        elif position.actions or position.start is not None:
            observation(self.encoding, position.state, player, _chosen(state, player),
                        self.tensor)
            if self.encoding.max_parts > 1:
                self.kept[player] = self.tensor
                self.kept_of[player] = position.moved
        else:  # the initial state: OpenSpiel's question for the shape
            initial = self.initial.get(player)
            if initial is None:
                initial = self.initial[player] = np.asarray(
                    observation(self.encoding, position.state, player), np.float32)
            self.tensor[:] = initial
        self.filled = filled

    def string_from(self, state: SneferuSpielState, player: int) -> str:
        """``player``'s view, or with recall the seat and the events it saw; then the
        parts it has chosen of a move not complete yet, if any."""
        if self.recall:
            text = "\n".join([f"seat {player + 1}", *state.seen[player]])
        else:
            text = seat_view(self.encoding.game, state.state, player)
        chosen = _chosen(state, player)
        if chosen:
            text += "\nchosen: " + " ; ".join(self.encoding.moves[a] for a in chosen)
        return text


def _chosen(state: SneferuSpielState, player: int) -> tuple[int, ...]:
    """The ids ``player`` has chosen of its pending move (none for any other seat)."""
    decision = state.decision
    return decision.chosen if decision is not None and decision.seat == player else ()


def spiel_state(game: str, position: str, parts: Sequence[int] = (), *,
                seat: int | None = None, rng: random.Random | None = None
                ) -> SneferuSpielState:
    """An OpenSpiel state of the registered ``game`` (its name: ``imhotep``) at
    ``position`` (its position notation), in the OpenSpiel game of the position's player
    count and variant, with no history but ``parts`` (the action ids already chosen of a
    move in parts, applied): for a policy of the bundled ``policy`` engine that searches
    with OpenSpiel (``examples/openspiel_mcts_policy.py``).

    With ``seat`` (0-based), ``position`` is what that seat knows (its view) and the state
    is one it cannot tell from the truth: in a game with hidden information every hidden
    thing is drawn with ``rng`` (``Hidden.determinize``), and at a simultaneous node the
    sealed moves of the seats before it (OpenSpiel plays such a node seat by seat) are
    drawn at random among their legal ones, so that ``seat`` is the one to act; ``parts``
    are then its own. Without ``seat``, ``position`` must be a full position. The game's
    NotationError when ``position`` is not one, ValueError when a part is not legal there."""
    rules = get_game(game)
    state = rules.from_position(position)
    spiel = pyspiel.load_game(short_name(rules), {"players": rules.players_of(state),
                                                  "variant": rules.variant_of(state)})
    if seat is None:
        out: SneferuSpielState = spiel.new_initial_state()
        out.position = _Position(state, out.encoding, rules.to_position(state))
    else:
        out = _drawn(spiel, state, seat, seat, rng if rng is not None else random.Random())
    for action in parts:
        out.apply_action(action)
    return out


def _drawn(spiel: SneferuSpielGame, known: Any, seat: int, deciding: int,
           rng: random.Random) -> SneferuSpielState:
    """A state of ``spiel`` drawn from ``known``, a state as ``seat`` knows it (read back
    from its view): every hidden thing drawn with ``rng`` (``Hidden.determinize``), then
    the sealed moves still pending of the seats OpenSpiel asks before ``deciding`` drawn
    at random among their legal actions. Each seat's information state starts with its
    view of the drawn position (a caller may give ``seat`` its own)."""
    hidden = spiel.rules.hidden()
    state = known if hidden is None else hidden.determinize(known, seat, rng)
    out: SneferuSpielState = spiel.new_initial_state()
    out.position = _Position(state, out.encoding, spiel.rules.to_position(state))
    out.position.seen = [[seat_view(spiel.rules, state, s)] for s in range(len(out.seen))]
    while 0 <= out.current_player() < deciding:
        out.apply_action(rng.choice(out.legal_actions()))
    return out


SHORT_NAMES: list[str] = []
"""The OpenSpiel names registered so far, registry order (games without an action encoding
are skipped: :func:`sneferu_cli.rl.unencoded_games` says which)."""


def register() -> list[str]:
    """Register every game with an action encoding not registered yet (importing this
    module does it for the games registered then); the OpenSpiel names registered."""
    for game in encoded_games():
        name = short_name(game)
        if name not in SHORT_NAMES:
            cls = type(f"Spiel_{name}", (SneferuSpielGame,), {"rules": game})
            pyspiel.register_game(_game_type(game), cls)
            SHORT_NAMES.append(name)
    return list(SHORT_NAMES)


register()
