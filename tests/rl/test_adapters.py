"""The PettingZoo, Gymnasium and OpenSpiel adapters (astrarium.rl) over every game that declares the learning part.

PettingZoo's own api_test and seed_test, Gymnasium's check_env, copies and
pickles of a game in progress, random games through OpenSpiel (its
random_sim_test where a game is short enough) and one game of OpenSpiel's
MCTS bot; a game without the part is refused by name.
"""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import gymnasium  # noqa: F401  (the rl extra, which the test extra installs: missing, these tests fail)
import numpy as np
import pettingzoo  # noqa: F401
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from astrarium.core import get_game, list_games
from astrarium.core.errors import ContractError
from astrarium.rl import gymnasium_env, openspiel_game, pettingzoo_env, register_gymnasium  # noqa: E402

LEARNING_GAMES = sorted(i for i in list_games() if get_game(i).parts.learning is not None)
#: Games whose random games are short enough for OpenSpiel's random_sim_test (it checks every seat's observation and
#: a copy at every step); the others play random games through the pyspiel API.
SIM_TESTED = {"constellations"}
#: The options a game's encoding needs (Connected Worlds: a move, portal or deployment chosen a part at a time).
OPTIONS = {"connected-worlds": {"choices": "steps"}}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
def test_pettingzoo_api_and_seeds(game_id: str) -> None:
    options = OPTIONS.get(game_id)
    api_test(pettingzoo_env(game_id, options=options), num_cycles=200, verbose_progress=False)
    seed_test(lambda: pettingzoo_env(game_id, options=options), num_cycles=50)


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
def test_pettingzoo_copies_pickles_and_plays_to_the_end(game_id: str) -> None:
    env = pettingzoo_env(game_id, render_mode="ansi", options=OPTIONS.get(game_id))
    env.reset(seed=3)
    pick = random.Random(3)
    for _ in range(10):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(pick.choice(np.flatnonzero(mask))))
    again = pickle.loads(pickle.dumps(env))
    twin = copy.deepcopy(env)
    for other in (again, twin):
        assert other.agent_selection == env.agent_selection
        assert np.array_equal(other.observe(other.agent_selection)["observation"], env.observe(env.agent_selection)["observation"])
    assert isinstance(env.render(), str) and env.render()
    finals = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
        else:
            env.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
    assert set(finals) == set(env.possible_agents) and sum(finals.values()) <= 1


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
def test_gymnasium_check_env_and_registration(game_id: str) -> None:
    options = OPTIONS.get(game_id)
    check_env(gymnasium_env(game_id, opponents="random", render_mode="ansi", options=options), skip_render_check=False)

    assert f"astrarium/{game_id}-v0" in register_gymnasium()
    env = gymnasium.make(f"astrarium/{game_id}-v0", opponents="random", seat=1, options=options)
    observation, info = env.reset(seed=5)
    pick = random.Random(5)
    done = False
    while not done:
        observation, reward, done, truncated, info = env.step(int(pick.choice(np.flatnonzero(info["action_mask"]))))
        assert not truncated and (reward == 0.0 or done)
    assert not info.get("illegal_action")


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
def test_openspiel_random_games(game_id: str) -> None:
    game = openspiel_game(game_id, seed=1, options=OPTIONS.get(game_id))
    if game_id in SIM_TESTED:
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    pick = random.Random(1)
    state = game.new_initial_state()
    observer = game.make_py_observer()
    while not state.is_terminal():
        player = state.current_player()
        observer.set_from(state, player)
        assert observer.tensor.shape == tuple(game.shape)
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        state.apply_action(pick.choice(legal))
    assert len(state.returns()) == game.num_players()
    assert state.history() and state.clone().returns() == state.returns()


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SIM_TESTED))
def test_openspiel_random_sim_test_twice(game_id: str) -> None:
    """The quick suite's random games run one simulation of OpenSpiel's random_sim_test; two here."""
    pyspiel.random_sim_test(openspiel_game(game_id, seed=1, options=OPTIONS.get(game_id)), num_sims=2, serialize=False, verbose=False)


def test_openspiel_refuses_a_variant_that_brings_chance_into_a_game_without_it() -> None:
    with pytest.raises(ValueError, match="draws on chance after set-up.*PettingZoo or Gymnasium"):
        openspiel_game("orbital-combat", options={"turn_order": "rolled"})
    env = pettingzoo_env("orbital-combat", options={"turn_order": "rolled"})
    env.reset(seed=2)
    assert env.agents


@pytest.mark.slow
def test_openspiel_random_sim_test_on_connected_worlds_of_one_round() -> None:
    game = openspiel_game("connected-worlds", seed=2, options={**OPTIONS["connected-worlds"], "round_limit": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
def test_openspiel_random_sim_test_on_connected_worlds_of_the_default_length() -> None:
    pyspiel.random_sim_test(
        openspiel_game("connected-worlds", seed=3, options=OPTIONS["connected-worlds"]), num_sims=1, serialize=False, verbose=False
    )


#: Short games for OpenSpiel's bots, whose random rollouts run through the Python game: options that end them early.
SHORT = {
    "celestials": {"turn_limit": 2},
    "constellations": {"max_rounds": 2},
    "orbital-combat": {"round_limit": 2},
    "streamlines": {"scenario": "introductory"},
}


def _bot_against_random(game, bot, seat: int, seed: int) -> list[float]:  # noqa: ANN001 (pyspiel objects)
    pick = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state) if state.current_player() == seat else pick.choice(state.legal_actions()))
    return [float(r) for r in state.returns()]


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_openspiel_mcts_bot_plays_every_game(game_id: str) -> None:
    from open_spiel.python.algorithms import mcts

    game = openspiel_game(game_id, options=SHORT[game_id], seed=3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(1))
    returns = _bot_against_random(game, bot, seat=0, seed=2)
    assert len(returns) == game.num_players() and all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("game_id", sorted(g for g in SHORT if get_game(g).hidden_information))
def test_openspiel_ismcts_bot_plays_the_hidden_information_games(game_id: str) -> None:
    """IS-MCTS samples the positions the seat cannot tell apart (``resample_from_infostate``: the game's determinize)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = openspiel_game(game_id, options=SHORT[game_id], seed=5)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1), use_observation_string=True)
    state = game.new_initial_state()
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.observation_string(seat) == state.observation_string(seat)
    assert other.legal_actions() == state.legal_actions()
    returns = _bot_against_random(game, bot, seat=1, seed=4)
    assert len(set(returns)) == 1 if get_game(game_id).cooperative else sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game_id", ["celestials", "constellations", "orbital-combat", "streamlines"])
def test_pettingzoo_rgb_array_is_the_picture_in_pixels(game_id: str) -> None:
    env = pettingzoo_env(game_id, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=4)
    pixels = env.render()
    assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
    assert pixels.shape[0] >= 200 and pixels.shape[1] >= 200
    assert colours(pixels) > 10, "a picture, not a blank"


def colours(pixels: np.ndarray) -> int:
    """How many different colours an HxWx3 picture holds (each pixel read as one 24-bit number: a fast ``np.unique``)."""
    return len(np.unique(pixels.reshape(-1, 3).astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.uint32)))


def test_gymnasium_rgb_array_draws_the_learners_side() -> None:
    env = gymnasium_env("celestials", opponents="random", render_mode="rgb_array")
    assert env.render() is None  # no game yet
    env.reset(seed=2)
    pixels = env.render()
    assert pixels.dtype == np.uint8 and pixels.shape[2] == 3 and pixels.shape[0] > 200


def test_an_unknown_render_mode_is_named() -> None:
    for make in (pettingzoo_env, gymnasium_env):
        with pytest.raises(ValueError, match="'human'.*ansi.*rgb_array"):
            make("constellations", render_mode="human")


def test_the_adapters_name_a_game_without_the_part() -> None:
    assert get_game("toy-pile").parts.learning is None  # the tests' toy game declares none
    for make in (pettingzoo_env, gymnasium_env, openspiel_game):
        with pytest.raises(ContractError, match="toy-pile"):
            make("toy-pile")
