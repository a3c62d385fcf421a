"""Hidden information through OpenSpiel (SPEC 16.2): ``resample_from_infostate`` draws a
state a seat cannot tell from the truth, so OpenSpiel's Python ``ISMCTSBot`` plays whole
games of every game that declares hidden information (Silver & Gold, **G21**, **G22**,
and the test-only sealed games), and no bot sees another seat's hidden cards: run from
two true states that differ only there, with the same seeds, it chooses the same."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import sealed_rl_game
from games import register_all
from support import play_with_bot

sealed_rl_game.register()
register_all()

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import sneferu_cli.rl.openspiel as spiel  # noqa: E402
from sneferu_cli.game import get_game, seat_state, seat_view  # noqa: E402
from sneferu_cli.rl import encoded_games  # noqa: E402

spiel.register()
HIDDEN = [g.name for g in encoded_games() if g.hidden() is not None]


def test_the_games_with_hidden_information() -> None:
    assert HIDDEN[:1] == ["silver-gold"]  # of the arbiter's games
    assert {"sealed-rl", "sealed-parts"} <= set(HIDDEN)


def sampler(rng: np.random.RandomState) -> Any:
    return pyspiel.UniformProbabilitySampler(int(rng.randint(2**31)), 0.0, 1.0)


def ismcts_bot(game: Any, seed: int, simulations: int) -> Any:
    """OpenSpiel's Python IS-MCTS, random rollouts, its world draws seeded too (its own
    draw seeds pyspiel's sampler from the clock)."""
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations,
                           random_state=rng)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player,
                                                                          sampler(rng)))
    return bot


@pytest.mark.parametrize(("name", "players"), [(n, p) for n in HIDDEN for p in (2, 3)
                                               if p in spiel.spiel_players(get_game(n))])
def test_ismcts_plays_whole_games(name: str, players: int) -> None:
    """OpenSpiel's ISMCTSBot (its world draws ``resample_from_infostate``, seeded here;
    it asserts each drawn state's information state is the seat's) plays a whole game:
    every action legal, the returns of a finished game."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": players})
    rng = np.random.RandomState(players)
    state, decisions = play_with_bot(game, ismcts_bot(game, players, 6), rng)
    assert decisions > players and sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_as_it_comes(name: str) -> None:
    """ISMCTSBot with its own resampler (pyspiel's sampler, seeded from the clock) at
    the first decisions of a game."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10,
                           random_state=rng)
    for state in decision_states(name, seed=3)[:6]:
        assert bot.step(state) in state.legal_actions()


def decision_states(name: str, seed: int) -> list[Any]:
    """Clones of a random 2-player game's state at each seat's decision."""
    game = pyspiel.load_game(spiel.short_name(get_game(name)), {"players": 2})
    rng = random.Random(seed)
    state, out = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name", HIDDEN)
def test_resample_is_what_the_seat_knows(name: str) -> None:
    """The drawn state: the same information state, view and legal actions for the seat
    (also one not deciding), the same deciding seat; the hidden things drawn (some draw
    differs from the truth); the drawn state plays on."""
    rules = get_game(name)
    rng = np.random.RandomState(1)
    drawn_differs = False
    for state in decision_states(name, seed=5)[::3]:
        for seat in range(state.num_players()):
            drawn = state.resample_from_infostate(seat, sampler(rng))
            assert drawn.current_player() == state.current_player()
            assert drawn.information_state_string(seat) == state.information_state_string(seat)
            assert drawn.observation_string(seat) == state.observation_string(seat)
            assert drawn.observation_tensor(seat) == state.observation_tensor(seat)
            assert seat_view(rules, drawn.state, seat) == seat_view(rules, state.state, seat)
            if seat == state.current_player():
                assert drawn.legal_actions() == state.legal_actions()
                drawn.apply_action(drawn.legal_actions()[0])
            drawn_differs |= str(drawn) != str(state)
    assert drawn_differs


def twin_states(name: str, count: int) -> list[tuple[Any, Any]]:
    """Pairs of OpenSpiel states made from two full positions that differ only in what
    the deciding seat cannot see (the second drawn from its view), the seat deciding in
    both, over random games (in Silver & Gold only the deal is hidden: the keep)."""
    rules = get_game(name)
    hidden = rules.hidden()
    assert hidden is not None
    pairs: list[tuple[Any, Any]] = []
    for game_seed in range(50):
        for n, state in enumerate(decision_states(name, seed=game_seed)):
            seat = state.current_player()
            if len(state.legal_actions()) == 1:
                continue
            for draw in range(2):
                other = hidden.determinize(seat_state(rules, state.state, seat), seat,
                                           random.Random(n * 2 + draw))
                a = spiel.spiel_state(name, rules.to_position(state.state))
                b = spiel.spiel_state(name, rules.to_position(other))
                if b.current_player() != seat or str(a) == str(b):
                    continue  # nothing hidden, or a pending sealed move (not the seat's)
                assert seat_view(rules, a.state, seat) == seat_view(rules, b.state, seat)
                assert a.information_state_string(seat) == b.information_state_string(seat)
                pairs.append((a, b))
                if len(pairs) == count:
                    return pairs
    return pairs


def mcts_choice(state: Any, seed: int, *, truth: bool = False) -> int:
    """OpenSpiel's MCTSBot, handed a state drawn from the seat's information state (or,
    with ``truth``, the state itself)."""
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(state.get_game(), 2.0, 30, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    searched = state if truth else state.resample_from_infostate(state.current_player(),
                                                                 sampler(rng))
    return int(bot.step(searched))


@pytest.mark.parametrize("name", ["silver-gold", "sealed-rl"])
def test_no_bot_sees_another_seats_cards(name: str) -> None:
    """ISMCTSBot and MCTSBot handed a drawn state choose the same from two truths that
    differ only in the other seat's hidden cards (same seeds); MCTSBot handed the truth
    itself does not, for some pair: the test would see a bot that peeks."""
    pairs = twin_states(name, 6)
    assert len(pairs) == 6
    for seed, (a, b) in enumerate(pairs):
        game = a.get_game()
        assert ismcts_bot(game, seed, 30).step(a) == ismcts_bot(game, seed, 30).step(b)
        assert mcts_choice(a, seed) == mcts_choice(b, seed)
    assert any(mcts_choice(a, seed, truth=True) != mcts_choice(b, seed, truth=True)
               for seed, (a, b) in enumerate(pairs))


def test_no_hidden_information_nothing_drawn() -> None:
    """In a game without hidden information the drawn state is a clone."""
    state = decision_states("imhotep", seed=2)[10]
    drawn = state.resample_from_infostate(state.current_player(),
                                          pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert (str(drawn), drawn.history()) == (str(state), state.history())
