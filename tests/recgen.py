"""Random recorded games for the tests, built the way the arbiter builds records."""

from __future__ import annotations

import random
from importlib import resources

from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.edition import Edition
from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.position import to_position
from sneferu_cli.games.sneferu.state import GameState, new_game
from sneferu_cli.games.sneferu.steps import Step
from sneferu_cli.record.model import Chance, Event, Fault, GameRecord, Header, Retire, Seat, Turn
from sneferu_cli.record.replay import final_result

FAULT_KINDS = ("crash", "eof", "timeout", "malformed", "illegal", "flood", "memory", "cpu",
               "processes")
NAMES = ("randbot 1.2", 'quote " and \\ backslash', "ünïcode ☥ engine", "tab\tand\nnewline")


def random_game(players: int, seed: int, *, builders: str | None = None,
                retire: float = 0.0, annotate: bool = False, max_turns: int | None = None,
                edition: Edition | None = None,
                positions: list[str] | None = None, greedy: bool = False) -> GameRecord:
    """A random game: sampled chance events, random legal turns, retires with probability
    ``retire`` at a seat's turn; ``max_turns`` stops it early (termination aborted).
    ``positions`` receives the position notation at each ply (SPEC 8.6), the last one final.
    ``greedy`` picks the turn best for (own stones - Ptah's stones), to win solo games.
    """
    rng = random.Random(seed)
    state = new_game(players, builders=builders, edition=edition)
    events: list[Event] = []
    faults: list[Fault] = []
    turns = 0
    while not state.is_over() and (max_turns is None or turns < max_turns):
        if state.is_chance_node():
            outcome = sample_outcome(state, rng)
            state.apply(outcome)
            events.append(Chance(str(outcome)))
            continue
        seat = state.current_seat()
        if rng.random() < retire:
            kind = rng.choice(FAULT_KINDS)
            state.retire(seat)
            events.append(Retire(seat + 1, kind))
            faults.append(Fault(seat + 1, kind, f"seat {seat + 1}: {kind} at {{turn}} \"x\"",
                                turns))
            continue
        steps = (max(state.legal_turns(), key=lambda t: _gain(state, t, rng)) if greedy
                 else rng.choice(state.legal_turns()))
        if positions is not None:
            positions.append(to_position(state))
        state.apply_turn(steps)
        turns += 1
        ms = rng.randrange(5000) if annotate else None
        info = ({"depth": str(rng.randrange(9)), "pv": "1.1 TG@1.1", "score": "-12",
                 "odd key": "{}"} if annotate and rng.random() < 0.5 else None)
        events.append(Turn(seat + 1, str(Move(steps)), ms, info))
    if positions is not None:
        positions.append(to_position(state))
    result, own, termination = final_result(state)
    chosen = None if builders in (None, "random") else [b.strip() for b in builders.split(",")]
    seats = [Seat(i + 1, NAMES[(seed + i) % len(NAMES)],
                  author="A. Person" if i == 0 else None,
                  tc="movetime 50" if i == players - 1 and seed % 5 == 0 else None,
                  tags=_builder(chosen[i] if chosen else (
                      state.players[i].builder.name if builders == "random" and i % 2
                      else None)))
             for i in range(players)]
    header = Header(players=players, event=f"test event {seed}", date="2025-01-02",
                    round=str(seed % 7) if seed % 2 else None,
                    edition=state.edition.name,
                    variant="standard" if builders is None else "builders",
                    tags={} if builders is None else {
                        "Builders": "random" if builders == "random" else "chosen"},
                    seats=seats, seed=seed, time_control="10+0.1" if seed % 3 else None,
                    result=result, result_tags=own, termination=termination, faults=faults,
                    extra={"Site": "here", "odd \"key\"": "line\nbreak"} if seed % 4 == 0
                    else {})
    return GameRecord(header, events)


def _builder(name: str | None) -> dict[str, str]:
    """A [Seat] tag's Sneferu tags: ``builder=`` when the seat has one."""
    return {} if name is None else {"builder": name}


def random_position(players: int, seed: int, turns: int, *,
                    builders: str | None = None) -> GameState:
    """A new game played at random (chance and turns) until ``turns`` turns are done and a
    seat is to move."""
    rng = random.Random(seed)
    state = new_game(players, builders=builders)
    while state.is_chance_node() or state.turn < turns:
        if state.is_chance_node():
            state.apply(sample_outcome(state, rng))
        else:
            state.apply_turn(rng.choice(state.legal_turns()))
    return state


def _gain(state: GameState, steps: tuple[Step, ...], rng: random.Random) -> float:
    after = state.clone()
    after.apply_turn(steps)
    me = after.players[state.current_seat()]
    return me.pyramid.count - after.ptah_total + me.food / 100 + rng.random() / 1000


VARIANTS: tuple[tuple[int, str | None], ...] = (
    (1, None), (2, None), (3, None), (4, None), (1, "random"), (2, "random"),
    (3, "Lateef,Heba,Aya"), (4, "random"), (2, "Heba,Tsekani"), (4, "Aya,Lateef,Heba,Tsekani"),
)


def many_games(count: int, base_seed: int = 0) -> list[GameRecord]:
    """``count`` games over every variant and player count, some with retires, annotations,
    or cut short."""
    out = []
    for k in range(count):
        players, builders = VARIANTS[k % len(VARIANTS)]
        out.append(random_game(players, base_seed + k, builders=builders,
                               retire=0.03 if k % 3 == 1 else 0.0, annotate=k % 2 == 0,
                               max_turns=5 if k % 11 == 7 else None,
                               greedy=players == 1 and k % 4 == 0))
    return out


def cheap_edition_toml() -> str:
    """A non-standard edition "cheap": column 4 costs 1 food instead of 3."""
    raw = (resources.files("sneferu_cli.games.sneferu")
            .joinpath("editions/standard.toml").read_text())
    return (raw.replace('name = "standard"', 'name = "cheap"')
            .replace("{ food = 3, time = 1 }", "{ food = 1, time = 1 }"))
