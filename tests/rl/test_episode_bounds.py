"""Every game ends within ``Game.max_moves``, and the adapters cut an episode at its limit (docs/learning.md, "The bound
on a game's length").

Random players and a stalling player (it takes any action but the ones that
end a turn, while it has one) over hypothesis-drawn options that stretch the
games: bigger hands, longer limits, the Constellations swap variant, Streamlines'
maps, events and card counts. The stalling player plays the longest turns the
rules allow it to find. Streamlines' true bound is millions of actions, so its
learning part sets a shorter episode limit; the adapters truncate there (PettingZoo's
``truncations``, Gymnasium's ``truncated``, OpenSpiel's ``max_game_length``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from astrarium.core import get_game
from astrarium.core.learning import encoder_for
from astrarium.rl import gymnasium_env, openspiel_game, pettingzoo_env
from astrarium.rl.common import episode_limit
from helpers import examples

#: The first word of the actions that end a turn (or a step of it), which the stalling player avoids.
TURN_ENDING = {"end", "advance", "keep", "nodraw", "pass", "swap"}


def _play_out(game_id: str, players: int, seed: int, options: dict[str, Any], stall: bool) -> tuple[int, int]:
    game = get_game(game_id)
    state = game.new_game(players, seed, options)
    bound = game.max_moves(players, state.options)
    pick = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        slow = [a for a in legal if str(a).split()[0] not in TURN_ENDING and "advance" not in str(a)] if stall else legal
        state.apply_unchecked(pick.choice(slow or legal))
        assert state.move_number <= bound, f"{game_id} passed its bound of {bound} actions"
    return state.move_number, bound


@settings(max_examples=examples(15), deadline=None)
@given(
    seed=st.integers(0, 2**31),
    stall=st.booleans(),
    start_hand=st.integers(0, 10),
    hand_limit=st.integers(1, 10),
    turn_limit=st.integers(1, 12),
)
def test_celestials_ends_within_its_bound(seed: int, stall: bool, start_hand: int, hand_limit: int, turn_limit: int) -> None:
    options = {"start_hand": start_hand, "hand_limit": hand_limit, "turn_limit": turn_limit}
    moves, bound = _play_out("celestials", 2, seed, options, stall)
    assert 0 < moves <= bound


@settings(max_examples=examples(15), deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(1, 4),
    stall=st.booleans(),
    hand_size=st.integers(1, 6),
    max_rounds=st.integers(1, 20),
    swap=st.booleans(),
)
def test_constellations_ends_within_its_bound(seed: int, players: int, stall: bool, hand_size: int, max_rounds: int, swap: bool) -> None:
    options = {"hand_size": hand_size, "max_rounds": max_rounds, "swap": swap}
    moves, bound = _play_out("constellations", players, seed, options, stall)
    assert 0 < moves <= bound


@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), stall=st.booleans(), round_limit=st.integers(1, 40))
def test_orbital_combat_ends_within_its_bound(seed: int, players: int, stall: bool, round_limit: int) -> None:
    moves, bound = _play_out("orbital-combat", players, seed, {"round_limit": round_limit}, stall)
    assert 0 < moves <= bound


@settings(max_examples=examples(10), deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    stall=st.booleans(),
    scenario=st.sampled_from(["introductory", "standard", "hard"]),
    events=st.sampled_from(["designed", "collapse"]),
    action_cards=st.integers(4, 20),
    straight_cards=st.integers(0, 20),
    refugee_cards=st.integers(14, 40),
)
def test_streamlines_ends_within_its_bound(
    seed: int, players: int, stall: bool, scenario: str, events: str, action_cards: int, straight_cards: int, refugee_cards: int
) -> None:
    options = {
        "scenario": scenario,
        "events": events,
        "action_cards": action_cards,
        "straight_cards": straight_cards,
        "refugee_cards": refugee_cards,
    }
    moves, bound = _play_out("streamlines", players, seed, options, stall)
    assert 0 < moves <= bound


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("scenario", ["introductory", "standard", "hard"])
def test_streamlines_episode_limit_is_far_below_its_bound_and_far_above_played_games(players: int, scenario: str) -> None:
    game = get_game("streamlines")
    options = game.resolve_options(players, {"scenario": scenario})
    limit = episode_limit(game, players, options)
    assert limit * 1000 < game.max_moves(players, options)
    longest = max(_play_out("streamlines", players, seed, options, stall)[0] for seed in range(20) for stall in (False, True))
    assert 3 * longest <= limit


# -- the episode limit: the true bound, or the learning part's shorter limit ------------------------------------------


@pytest.mark.parametrize("game_id", ["celestials", "constellations", "orbital-combat"])
def test_the_episode_limit_is_the_true_bound_where_the_game_declares_no_other(game_id: str) -> None:
    game = get_game(game_id)
    options = game.resolve_options(2, {})
    assert episode_limit(game, 2, options) == game.max_moves(2, options)


@pytest.fixture
def short_streamlines(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Streamlines' introductory map for two, its episode limit set to 30 actions (its encoder is cached per configuration)."""
    game = get_game("streamlines")
    options = game.resolve_options(2, {"scenario": "introductory"})
    monkeypatch.setattr(encoder_for(game, 2, options), "episode_limit", 30)
    return options


def test_pettingzoo_truncates_every_agent_at_the_episode_limit(short_streamlines: dict[str, Any]) -> None:
    env = pettingzoo_env("streamlines", options=short_streamlines)
    env.reset(seed=1)
    pick = random.Random(1)
    while not any(env.truncations.values()):
        assert not any(env.terminations.values())
        env.step(int(pick.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert env.state.move_number == 30 and all(env.truncations.values()) and set(env.rewards.values()) == {0.0}


def test_gymnasium_truncates_at_the_episode_limit_counting_every_seat(short_streamlines: dict[str, Any]) -> None:
    env = gymnasium_env("streamlines", opponents="random", options=short_streamlines)
    _, info = env.reset(seed=1)
    pick = random.Random(1)
    truncated = done = False
    while not (done or truncated):
        _, reward, done, truncated, info = env.step(int(pick.choice(np.flatnonzero(info["action_mask"]))))
    assert truncated and not done and reward == 0.0 and env.state.move_number == 30


def test_openspiel_ends_a_game_at_the_episode_limit_with_returns_of_zero(short_streamlines: dict[str, Any]) -> None:
    game = openspiel_game("streamlines", options=short_streamlines, seed=1)
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    pick = random.Random(1)
    while not state.is_terminal():
        state.apply_action(pick.choice(state.legal_actions()))
    assert state.state.move_number == 30 and state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
