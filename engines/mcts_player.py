#!/usr/bin/env python3
"""mcts: an engine that searches with Monte Carlo tree search (sneferu_cli.search), in
every registered game (it declares them all with ``feature games``).

A game with a search of its own (``Game.tools().search``: Sneferu's) is searched by it,
any other by the generic one (``search_game``: UCT through the game interface, guided by
the game's estimate: moves searched best valued first, widening with the visits, short
playouts of the best of a few drawn moves), both through ``sneferu_cli.search.analyse``. Chance is
sampled by its weights, every seat plays for its own final place, and the search stops in
time for every ``go``: 80% of a ``movetime`` less ``Overhead``, or a share of the clock
(what is left over the decisions the game expects the seat still to take,
``Game.tools().moves_left``, else a twentieth; plus most of the increment) less
``Overhead``. In a game with hidden information it knows only its seat's view and
searches it by determinization; at a simultaneous node it searches its own seat's sealed
move (SPEC 11.4).
It declares ``feature iterations``: a ``go ... iterations N`` searches N playouts (the
budget, in place of ``Iterations``) and keeps to the time only as a safety net (all of a
``movetime``, at most 0.4 of its clock, less ``Overhead``), so that a seed gives the same
moves whatever the machine's load.
Options: ``Seed``; ``Iterations`` (0: search by time; a fixed count, with the time limit
still obeyed, makes it deterministic); ``Exploration`` (UCT constant in hundredths),
``Horizon`` (playout turns, in another game moves a seat, before the position is
valued, 0 to the end), ``Widening`` (in tenths), ``Guided``, ``Candidates``, ``Sample``,
``Spread`` (in tenths), ``Halving`` and ``Paired`` (the generic search's, SPEC 11.4),
``Overhead`` (ms kept back for the pipes and the scheduler). An option not sent leaves
each search its own default. While it thinks it sends
``info nodes N nps N playouts N time MS score PCT rank R pv MOVE`` (``win W`` instead of
``rank`` in a solo game) every quarter of a second and before its move.
"""

import gc
import random
import time
from typing import Any

from sneferu_cli.game import game_names, get_game
from sneferu_cli.protocol.bot import Bot, Follower, run
from sneferu_cli.protocol.messages import Go, OptionSpec, Position
from sneferu_cli.search import Analysis, Tuning, analyse

EXPLORATION = 0.35  # the searches' default UCT constant (their own default options)
HORIZON = 4  # their default playout turns
WIDENING = 1.0  # the default widening of a search that widens


class MctsPlayer(Bot):
    name = "mcts"
    games = tuple(game_names())
    budgets = True

    def __init__(self) -> None:
        super().__init__()
        self.iterations = 0
        self.exploration = round(EXPLORATION * 100)
        self.horizon = HORIZON
        self.widening = round(WIDENING * 10)
        self.overhead = 40
        self.guided = 1
        self.candidates = 32
        self.sample = 4
        self.spread = 50
        self.halving = 0
        self.paired = 1
        self.tuned: set[str] = set()  # the options set: the others leave each search its default

    def declare_options(self) -> list[OptionSpec]:
        return [*super().declare_options(),
                OptionSpec("Iterations", "spin", "0", 0, 10_000_000),
                OptionSpec("Exploration", "spin", str(self.exploration), 0, 1000),
                OptionSpec("Horizon", "spin", str(self.horizon), 0, 200),
                OptionSpec("Widening", "spin", str(self.widening), 0, 1000),
                OptionSpec("Overhead", "spin", str(self.overhead), 0, 10_000),
                OptionSpec("Guided", "check", "true" if self.guided else "false"),
                OptionSpec("Candidates", "spin", str(self.candidates), 0, 100_000),
                OptionSpec("Sample", "spin", str(self.sample), 0, 1000),
                OptionSpec("Spread", "spin", str(self.spread), 1, 100_000),
                OptionSpec("Halving", "spin", str(self.halving), 0, 1000),
                OptionSpec("Paired", "check", "true")]

    def set_option(self, name: str, value: str | None) -> None:
        attrs = {"Iterations": "iterations", "Exploration": "exploration",
                 "Horizon": "horizon", "Widening": "widening", "Overhead": "overhead",
                 "Candidates": "candidates", "Sample": "sample", "Spread": "spread",
                 "Halving": "halving"}
        if name in ("Guided", "Paired") and value is not None:
            setattr(self, name.lower(), int(value in ("true", "1")))
            self.tuned.add(name.lower())
        elif name in attrs and value is not None:
            setattr(self, attrs[name], int(value))
            self.tuned.add(attrs[name])
        else:
            super().set_option(name, value)

    def think_time(self, state: Any, go: Go) -> float:
        """Seconds to search for this move, the overhead kept back; with a search budget
        (``go ... iterations N``) the time is only a safety net: all of a ``movetime``, or
        0.4 of the clock, less the overhead."""
        return self.move_time(state, go, self.overhead / 1000)

    def choose(self, state: Any, go: Go) -> str:
        began = time.perf_counter()
        deadline = began + self.think_time(state, go)
        scale = {"exploration": 100, "widening": 10, "spread": 10}
        tuning = Tuning(**{name: (bool(getattr(self, name)) if name in ("guided", "paired")
                                  else getattr(self, name) / scale[name] if name in scale
                                  else getattr(self, name))
                           for name in self.tuned if name not in ("iterations", "overhead")})
        iterations = self.iterations if go.iterations is None else go.iterations
        analysis = analyse(self.game, state, seat=self.seat, iterations=iterations,
                           deadline=deadline, seed=self.rng.randrange(2**31), tuning=tuning,
                           progress=self.report)
        self.report(analysis)
        return str(analysis.best.move)

    def report(self, a: Analysis) -> None:
        """An ``info`` line about the search so far."""
        best = a.best
        fields = {"nodes": str(a.nodes), "nps": str(int(a.nodes / a.seconds) if a.seconds else 0),
                  "playouts": str(a.iterations), "time": str(round(a.seconds * 1000)),
                  "score": f"{100 * best.reward:.1f}"}
        if best.win is None:
            fields["rank"] = f"{best.rank:.3f}"
        else:
            fields["win"] = f"{best.win:.3f}"
        fields["pv"] = str(best.move)
        self.info(fields)


def warm_up() -> None:
    """Follow a position with a move (and a draw), and search it a little, in every game,
    before the handshake: the notations' parsers are built on first use (a tenth of a
    second), which must not happen on the clock of the first move."""
    rng = random.Random(0)
    for name in game_names():
        game = get_game(name)
        state = game.new_game(min(game.players))
        while state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        start = game.to_position(state)
        events = [game.legal_moves(state)[0]]
        game.apply_move(state, events[0], listed=True)
        while state.is_chance_node():  # the draws up to the next decision
            events.append(game.sample_outcome(state, rng))
            game.apply_outcome(state, events[-1])
        if state.is_over():
            continue
        follower = Follower(game.standard_edition(), game)
        analyse(game, follower.update(Position(start, tuple(events))), iterations=2)


if __name__ == "__main__":
    warm_up()
    gc.freeze()  # what is loaded stays; rare collections: no pauses in the middle of a move
    gc.set_threshold(50_000, 50, 100)
    run(MctsPlayer())
