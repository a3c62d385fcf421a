"""The generic search guided by a game's estimate (SPEC 11.4), in every shipped game: moves
valued one move ahead as greedy values them, searched best first and widened with the
square root of the visits, the same analysis for the same seed, and the plain search
(every move once, random playouts) when it is not guided."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from sneferu_cli.arbiter.bundled import engines_dir
from sneferu_cli.game import GAMES, game_names, get_game, seat_state
from sneferu_cli.search import Tuning, analyse
from sneferu_cli.search.generic import GenericOptions, Halving, gain, gains, search_game

NAMES = [n for n in game_names() if GAMES[n].startswith("sneferu_cli.games.")]


def positions(name: str, count: int, seed: int = 1) -> list[Any]:
    """``count`` positions of 2-seat games of ``name`` where a seat decides, reached by
    random moves (5 to 40 of them) from new games."""
    game = get_game(name)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_game(2)
        for _ in range(rng.randrange(5, 40)):
            if state.is_over():
                break
            if state.is_chance_node():
                game.apply_outcome(state, game.sample_outcome(state, rng))
                continue
            for s in game.deciding_seats(state):
                game.apply_move(state, rng.choice(game.legal_moves(state, s)), s)
        while not state.is_over() and state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
        if not state.is_over():
            found.append(state)
    return found


def searched(name: str, seed: int, iterations: int,
             options: GenericOptions) -> Iterator[tuple[Any, Any, int, list[str], Any]]:
    """For 3 positions of ``name`` (:func:`positions`): the game, the deciding seat's view,
    the seat, its legal moves and the analysis of ``iterations`` with ``options`` (seed:
    the position's number)."""
    game = get_game(name)
    for i, state in enumerate(positions(name, 3, seed=seed)):
        seat = game.deciding_seats(state)[0]
        view = seat_state(game, state, seat)
        yield (game, view, seat, game.legal_moves(view, seat),
               search_game(game, state, seat=seat, iterations=iterations, seed=i,
                           options=options))


def random_until(game: Any, players: int, seed: int,
                 stop: Callable[[Any], bool]) -> tuple[Any, random.Random]:
    """A new game of ``players`` seats played by random moves (chance by its weights)
    until ``stop`` holds at a decision, and the generator, seeded with ``seed``."""
    rng = random.Random(seed)
    state = game.new_game(players)
    while True:
        if state.is_chance_node():
            game.apply_outcome(state, game.sample_outcome(state, rng))
            continue
        if stop(state):
            return state, rng
        for s in game.deciding_seats(state):
            game.apply_move(state, rng.choice(game.legal_moves(state, s)), s)


@pytest.mark.parametrize("name", NAMES)
def test_gain_is_the_movers_estimate_less_the_others_mean(name):
    """gain(move) is the estimate of the mover after the move, alone, less the mean of the
    other seats' estimates (greedy's measure); the state is left as it was."""
    game = get_game(name)
    for state in positions(name, 3):
        seat = game.deciding_seats(state)[0]
        before = game.to_position(state)
        for move in game.legal_moves(state, seat)[:20]:
            after = state.clone()
            game.apply_move(after, move, seat)
            values = game.evaluate(after)
            assert values is not None
            others = [v for i, v in enumerate(values) if i != seat]
            assert gain(game, state, seat, move) == pytest.approx(
                values[seat] - sum(others) / len(others))
        assert game.to_position(state) == before


@pytest.mark.parametrize("name", NAMES)
def test_the_root_searches_its_best_valued_moves_widening_with_the_visits(name):
    """After N iterations the root has tried at most 1 + sqrt(N) moves (widening 1), and
    every move it tried is valued at least as high as every move it left."""
    for game, view, seat, legal, a in searched(name, 2, 100, GenericOptions(widening=1.0)):
        tried = [m.move for m in a.moves if m.visits]
        left = [m.move for m in a.moves if not m.visits]
        assert sorted(map(str, [*tried, *left])) == sorted(legal)
        assert 1 <= len(tried) <= min(len(legal), 1 + math.sqrt(100))
        if len(legal) > 11:
            assert len(tried) == 11
        worst_tried = min(gain(game, view, seat, str(m)) for m in tried)
        best_left = max((gain(game, view, seat, str(m)) for m in left), default=-math.inf)
        assert worst_tried >= best_left - 1e-9


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_gives_the_same_analysis(name):
    game = get_game(name)
    state = positions(name, 1, seed=3)[0]
    seat = game.deciding_seats(state)[0]
    runs = [[(str(m.move), m.visits, m.reward, m.prior)
             for m in search_game(game, state, seat=seat, iterations=150, seed=9).moves]
            for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", NAMES)
def test_unguided_the_search_tries_every_move_once(name):
    """Guided off (today's plain search): every legal move of the root is tried before any
    is tried twice, and the priors are 0."""
    game = get_game(name)
    state = positions(name, 1, seed=4)[0]
    seat = game.deciding_seats(state)[0]
    legal = game.legal_moves(seat_state(game, state, seat), seat)
    a = search_game(game, state, seat=seat, iterations=len(legal), seed=1,
                    options=GenericOptions(guided=False))
    assert sorted(str(m.move) for m in a.moves if m.visits == 1) == sorted(legal)
    assert all(m.prior == 0.0 for m in a.moves)


def test_the_root_reports_each_moves_value_as_its_prior():
    """Guided, the prior of a root move is the logistic of its gain over ``spread``:
    for two seats, the reward the estimate gives it."""
    game = get_game("imhotep")
    state = positions("imhotep", 1, seed=5)[0]
    seat = state.current_seat()
    a = search_game(game, state, seat=seat, iterations=30, seed=1)
    for m in a.moves:
        g = gain(game, state, seat, str(m.move))
        assert m.prior == pytest.approx(1 / (1 + math.exp(-g / GenericOptions.spread)))


@pytest.mark.parametrize("guided", [True, False])
def test_mcts_options_reach_the_generic_search(guided):
    """The engine mcts, through its pipes, declares the generic search's options and plays
    the best move of search_game with them: its seed drawn from ``Seed`` as at every move
    (SPEC 11.2), ``Guided``, ``Candidates``, ``Sample``, ``Spread`` (tenths) and
    ``Halving`` given."""
    game = get_game("akropolis")
    state = positions("akropolis", 1, seed=6)[0]
    seat = state.current_seat()
    options = {"Iterations": "40", "Guided": "true" if guided else "false",
               "Candidates": "8", "Sample": "2", "Spread": "120", "Halving": "4"}
    lines = ["sneferu 1", "setoption name Seed value 7",
             *(f"setoption name {k} value {v}" for k, v in options.items()),
             f"newgame players 2 seat {seat + 1} variant standard edition standard "
             "game akropolis", "isready", f"position {game.to_position(state)}",
             "go movetime 60000", "quit"]
    r = subprocess.run([sys.executable, str(engines_dir() / "mcts_player.py")],
                       input="\n".join(lines) + "\n", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    declared = [line for line in r.stdout.splitlines() if line.startswith("option ")]
    for name in ("Guided type check default true", "Candidates type spin default 32",
                 "Sample type spin default 4", "Spread type spin default 50",
                 "Halving type spin default 0", "Paired type check default true"):
        assert any(line.startswith(f"option name {name}") for line in declared), name
    moves = [line.removeprefix("move ") for line in r.stdout.splitlines()
             if line.startswith("move ")]
    expected = search_game(game, state, seat=seat, iterations=40,
                           seed=random.Random(7).randrange(2**31),
                           options=GenericOptions(guided=guided, candidates=8, sample=2,
                                                  spread=12.0, halving=4))
    assert moves == [str(expected.best.move)]


@pytest.mark.parametrize("halving", [0, 8])
def test_the_guided_search_knows_only_the_seats_view_in_silver_gold(halving):
    """Mid-game, at a sealed marking decision of a 3-seat Silver & Gold Pyramids game: two
    full states that seat 2 sees alike (the others' cards and sealed marks drawn anew from
    its view) get the same guided analysis, prior by prior (SPEC 11.4, G21), with the
    root's move by UCT or by sequential halving (its paired chance drawn from the view)."""
    game = get_game("silver-gold")
    hidden = game.hidden()
    assert hidden is not None
    truth, rng = random_until(
        game, 3, 8, lambda t: len(t.play[1]) == 2 and bool(t.marks[t.play[1][0]])
        and 1 in game.deciding_seats(t) and game.deciding_seats(t)[0] == 0)
    game.apply_move(truth, rng.choice(game.legal_moves(truth, 0)), 0)  # sealed
    view = hidden.view(truth, 1)
    other = hidden.determinize(game.from_position(view), 1, random.Random(3))
    assert hidden.view(other, 1) == view
    assert game.to_position(other) != game.to_position(truth)
    found = [[(str(m.move), m.visits, m.reward, m.prior)
              for m in search_game(game, state, seat=1, iterations=200, seed=4,
                                   options=GenericOptions(halving=halving)).moves]
             for state in (truth, other)]
    assert found[0] == found[1]
    assert sorted(m for m, *_ in found[0]) == sorted(game.legal_moves(truth, 1))


def test_a_games_own_knobs_set_the_generic_search_and_options_still_win():
    """analyse() takes the game's knobs (Tools.search_tuning: Imhotep's, the unguided
    search with 4 playout moves a seat) and then the engine's (``tuning``)."""
    game = get_game("imhotep")
    tools = game.tools()
    assert tools is not None and tools.search_tuning() == Tuning(guided=False, horizon=4)
    state = positions("imhotep", 1, seed=7)[0]

    def table(a: Any) -> list[tuple[str, int, float]]:
        return [(str(m.move), m.visits, m.reward) for m in a.moves]

    plain = search_game(game, state, iterations=60, seed=2,
                        options=GenericOptions(guided=False, horizon=4))
    guided = search_game(game, state, iterations=60, seed=2, options=GenericOptions())
    assert table(analyse(game, state, iterations=60, seed=2)) == table(plain)
    assert table(analyse(game, state, iterations=60, seed=2,
                         tuning=Tuning(guided=True, horizon=1))) == table(guided)
    assert table(plain) != table(guided)


def test_a_game_without_a_move_gains_shortcut_is_valued_by_gain():
    """gains() values each move by gain() on copies when the game has no shortcut
    (Tools.move_gains None); Silver & Gold's shortcut is held equal to it in
    tests/silver_gold/test_heuristic.py."""
    akropolis = get_game("akropolis")
    state = positions("akropolis", 1, seed=3)[0]
    seat = state.current_seat()
    some = akropolis.legal_moves(state)[:5]
    assert gains(akropolis, state, seat, some) == [gain(akropolis, state, seat, m)
                                                  for m in some]


def test_akropolis_searches_96_candidates_below_the_root():
    """Akropolis's knobs (Tools.search_tuning): the guided search, each node below the
    root valuing 96 of its moves drawn at random instead of 32 (a turn has hundreds, A6:
    any affordable site tile, in any legal placement), the root's move by halving among
    16, a node below it searching its best valued move alone."""
    game = get_game("akropolis")
    tools = game.tools()
    assert tools is not None
    assert tools.search_tuning() == Tuning(candidates=96, halving=16, widening=0.0)
    state = positions("akropolis", 1, seed=3)[0]
    assert len(game.legal_moves(state)) > 96

    def table(a: Any) -> list[tuple[str, int, float]]:
        return [(str(m.move), m.visits, m.reward) for m in a.moves]

    own = search_game(game, state, iterations=40, seed=2,
                      options=GenericOptions(candidates=96, halving=16, widening=0.0))
    default = search_game(game, state, iterations=40, seed=2, options=GenericOptions())
    assert table(analyse(game, state, iterations=40, seed=2)) == table(own)
    assert table(analyse(game, state, iterations=40, seed=2,
                         tuning=Tuning(candidates=32, halving=0, widening=1.0))) == table(default)
    assert table(own) != table(default)


def test_silver_gold_halves_its_root_and_follows_the_best_replies():
    """Silver & Gold's knobs (Tools.search_tuning): the root's move by halving among 16,
    a node below it searching its best valued move alone; the engine's options still
    win (``Halving=0``, ``Widening=10``: the search as it was)."""
    game = get_game("silver-gold")
    tools = game.tools()
    assert tools is not None and tools.search_tuning() == Tuning(halving=16, widening=0.0)
    state = positions("silver-gold", 1, seed=3)[0]
    seat = game.deciding_seats(state)[0]

    def table(a: Any) -> list[tuple[str, int, float]]:
        return [(str(m.move), m.visits, m.reward) for m in a.moves]

    own = search_game(game, state, seat=seat, iterations=60, seed=2,
                      options=GenericOptions(halving=16, widening=0.0))
    default = search_game(game, state, seat=seat, iterations=60, seed=2)
    assert table(analyse(game, state, seat=seat, iterations=60, seed=2)) == table(own)
    assert table(analyse(game, state, seat=seat, iterations=60, seed=2,
                         tuning=Tuning(halving=0, widening=1.0))) == table(default)
    assert table(own) != table(default)


def test_sequential_halving_spends_the_budget_and_keeps_the_best_arm():
    """On a hand-built bandit of 16 arms (means 0.05 apart, rewards drawn 0 or 1),
    sequential halving over a budget of 1,000 visits spends exactly the budget, halves the
    arms left after each of its 4 rounds (every arm of a round visited alike, the arms
    dropped after round r having had the rounds' visits up to r) and keeps the best arm;
    with no budget the arms are visited in turn and none is dropped."""
    means = {f"m{i}": 0.2 + 0.05 * i for i in range(16)}
    arms = sorted(means, key=lambda a: -means[a])  # best valued first, as the search has them
    rng = random.Random(5)
    h = Halving(arms, 1000)
    visits, sums = dict.fromkeys(arms, 0), dict.fromkeys(arms, 0.0)
    for _ in range(1000):
        arm = h.next(visits, {a: sums[a] / visits[a] if visits[a] else 0.0 for a in arms})
        visits[arm] += 1
        sums[arm] += 1.0 if rng.random() < means[arm] else 0.0
    assert sum(visits.values()) == 1000
    assert h.arms == ["m15"]
    shares = [1000 // (4 * k) for k in (16, 8, 4, 2)]  # 15, 31, 62, 125 an arm a round
    dropped = sorted(v for a, v in visits.items() if a != "m15")
    assert dropped == sorted([shares[0]] * 8 + [sum(shares[:2])] * 4 + [sum(shares[:3])] * 2
                             + [sum(shares)])
    assert visits["m15"] == 1000 - sum(dropped)
    turns = Halving(arms[:3], None)
    seen = dict.fromkeys(arms[:3], 0)
    for _ in range(7):
        seen[turns.next(seen, dict.fromkeys(arms[:3], 0.5))] += 1
    assert seen == {"m15": 3, "m14": 2, "m13": 2} and len(turns.arms) == 3


@pytest.mark.parametrize("name", ["akropolis", "silver-gold"])
def test_halving_searches_the_best_valued_moves_at_the_root(name):
    """With ``halving`` 8 the searching seat's root visits only its 8 best valued moves
    (or all, when fewer), spends the budget, and reports first the move halving kept; the
    same seed gives the same analysis."""
    runs = [list(searched(name, 11, 120, GenericOptions(halving=8))) for _ in range(2)]
    for (game, view, seat, legal, a), (*_, b) in zip(*runs, strict=True):
        assert a == replace(b, seconds=a.seconds)
        assert a.iterations == 120
        tried = [m for m in a.moves if m.visits]
        assert len(tried) == min(8, len(legal))
        best_left = max((gain(game, view, seat, str(m.move)) for m in a.moves if not m.visits),
                        default=-math.inf)
        assert min(gain(game, view, seat, str(m.move)) for m in tried) >= best_left - 1e-9
        assert a.best.visits == max(m.visits for m in a.moves)
        last = [m for m in tried if m.visits == a.best.visits]
        assert a.best.reward == max(m.reward for m in last)


class _Recorder:
    """A game that records, for each iteration of a search, the determinization drawn
    (its position) and the move the searching seat then plays at the root."""

    def __init__(self, game: Any, seat: int) -> None:
        self._game, self._seat = game, seat
        self.drawn: list[tuple[str, str | None]] = []
        hidden = game.hidden()
        outer = self

        class Hidden:
            def __getattr__(self, name: str) -> Any:
                return getattr(hidden, name)

            def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
                drawn = hidden.determinize(state, seat, rng)
                outer.drawn.append((game.to_position(drawn), None))
                return drawn

        self._hidden = Hidden()

    def hidden(self) -> Any:
        return self._hidden

    def apply_move(self, state: Any, move: str, seat: int | None = None, **kw: Any) -> None:
        if seat == self._seat and self.drawn and self.drawn[-1][1] is None:
            self.drawn[-1] = (self.drawn[-1][0], move)
        self._game.apply_move(state, move, seat, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


@pytest.mark.parametrize("paired", [True, False])
def test_paired_halving_gives_the_kth_visits_of_every_move_the_same_luck(paired):
    """Paired (SPEC 11.4): at a sealed marking of a 3-seat Silver & Gold game, the k-th
    visit of each of the root's moves starts from the same determinization of seat 2's view
    (the hidden cards, G21); unpaired, they differ."""
    game = get_game("silver-gold")
    state, _ = random_until(game, 3, 8, lambda t: len(game.deciding_seats(t)) == 3
                            and len(game.legal_moves(t, 1)) >= 4)
    recorder = _Recorder(game, 1)
    search_game(recorder, state, seat=1, iterations=64, seed=3,  # type: ignore[arg-type]
                options=GenericOptions(halving=4, paired=paired))
    visits: dict[str, list[str]] = {}
    for drawn, move in recorder.drawn[1:]:  # the first values the moves
        assert move is not None
        visits.setdefault(move, []).append(drawn)
    assert len(visits) == 4
    kth = [{v[k] for v in visits.values() if len(v) > k} for k in range(64)]
    assert all(len(d) == 1 for d in kth if d) == paired
