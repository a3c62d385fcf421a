"""Helpers for the tournament tests: real games played by the rules library, and records.

``play`` stands in for the arbiter (no engines): chance from one ``random.Random(deal
seed)`` through ``sample_outcome``, turns chosen by a separate generator, and the result
written into the header as the arbiter does.
"""

from __future__ import annotations

import random

import msgspec

from sneferu_cli.game import SoloResult
from sneferu_cli.games.sneferu.chance import sample_outcome
from sneferu_cli.games.sneferu.move import Move
from sneferu_cli.games.sneferu.record import solo_tag
from sneferu_cli.games.sneferu.state import new_game
from sneferu_cli.record.model import (
    Chance,
    Fault,
    GameRecord,
    Header,
    Seat,
    SeatResult,
    Turn,
)
from sneferu_cli.record.replay import final_result
from sneferu_cli.tournament import Game, TournamentConfig, game_header


def play(cfg: TournamentConfig, game: Game, moves_seed: int = 0) -> GameRecord:
    """Play ``game`` of ``cfg`` with random legal moves; the whole record with its result."""
    header = game_header(cfg, game)
    state = new_game(len(game.seats), builders=cfg.setup, edition=cfg.load_edition())
    chance = random.Random(game.seed)
    moves = random.Random(moves_seed)
    events: list[Chance | Turn] = []
    while not state.is_over():
        if state.is_chance_node():
            outcome = sample_outcome(state, chance)
            events.append(Chance(str(outcome)))
            state.apply(outcome)
        else:
            seat = state.current_seat()
            turn = moves.choice(state.legal_turns())
            events.append(Turn(seat + 1, str(Move(turn))))
            state.apply_turn(turn)
    header.result, header.result_tags, header.termination = final_result(state)
    return GameRecord(header=header, events=list(events))


def record(names: list[str], ranks: list[int], *, deal: int | None = None,
           stones: list[int] | None = None, food: list[int] | None = None,
           faults: list[Fault] | None = None, solo: SoloResult | None = None,
           number: int | None = None) -> GameRecord:
    """A finished game's record with the given engines (seat order) and ranks."""
    n = len(names)
    stones = stones or [10] * n
    food = food or [0] * n
    return GameRecord(header=Header(
        players=n, seats=[Seat(i + 1, name) for i, name in enumerate(names)],
        round=None if number is None else str(number),
        result=[SeatResult(i + 1, ranks[i], scores={"stones": stones[i], "food": food[i]})
                for i in range(n)],
        faults=faults or [], result_tags={} if solo is None else solo_tags(solo),
        extra={} if deal is None else {"deal": str(deal)}))


def solo_tags(solo: SoloResult) -> dict[str, str]:
    """The [Solo] tag of a solo result, as Sneferu's own result tags."""
    return {"Solo": solo_tag(solo)}


def encode(rec: GameRecord) -> bytes:
    """One record as one JSON line: the journal tests need bytes of a known size, not the
    text format (the runner's own tests commit text records)."""
    return msgspec.json.encode(rec) + b"\n"


def decode(data: bytes) -> list[GameRecord]:
    """The records of a file written with :func:`encode` (each line must be whole)."""
    return [msgspec.json.decode(line, type=GameRecord) for line in data.splitlines()]
