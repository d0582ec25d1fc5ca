"""The learning API over every game that declares it (docs/learning.md): masks, indices, shapes, hidden information.

Parametrized over the registered games whose parts declare ``learning``, so a
game joins these tests as soon as it declares the part. In every position of
random games (hypothesis draws the seed, the player count and the length):
the mask is True exactly at the legal actions' indices and every index it sets
gives back that legal action; the tensors have the announced shapes; a seat's
observation is the same in a state and in its ``determinize`` for that seat.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from astrarium.core import Game, Rng, get_game, list_games
from astrarium.core.errors import ContractError, IllegalAction
from astrarium.core.learning import encoder_for

LEARNING_GAMES = sorted(i for i in list_games() if get_game(i).parts.learning is not None)
#: The games these tests were written with: they must keep the part.
assert {"constellations", "celestials", "connected-worlds"} <= set(LEARNING_GAMES)
#: The options a game's encoding needs (Connected Worlds: a move, portal or deployment chosen a part at a time).
OPTIONS = {"connected-worlds": {"choices": "steps"}}


def _players(game: Game, pick: int) -> int:
    return game.min_players + pick % (game.max_players - game.min_players + 1)


def _check_position(game: Game, state, pick: random.Random) -> None:  # noqa: ANN001 (a game's own State)
    space = game.action_space(state.players, state.options)
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (space.size,)
    legal = state.legal_actions()
    indices = [space.index(a) for a in legal]
    assert len(set(indices)) == len(indices), "two legal actions share an index"
    assert set(np.flatnonzero(mask).tolist()) == set(indices)
    for i in indices:
        action = space.action(i, state)
        assert state.legal_match(action) is action and space.index(action) == i
    illegal = np.flatnonzero(~mask)
    if illegal.size:
        with pytest.raises(IllegalAction):
            space.action(int(illegal[pick.randrange(illegal.size)]), state)
    shape = game.observation_shape(state.players, state.options)
    bounds = getattr(encoder_for(game, state.players, state.options), "observation_bounds", None)
    for seat in range(state.players):
        seen = state.observation_tensor(seat)
        assert seen.shape == shape and seen.dtype == np.float32 and np.isfinite(seen).all()
        if bounds is not None:
            low, high = bounds
            outside = np.flatnonzero((seen < low) | (seen > high))
            assert not outside.size, f"features {outside[:5].tolist()} outside their bounds: {seen[outside[:5]].tolist()}"
        other = state.determinize(seat, Rng(pick.randrange(2**32)))
        assert np.array_equal(other.observation_tensor(seat), seen), f"seat {seat}'s tensor holds what it cannot see"
    world = state.global_tensor()
    assert world.shape == game.global_shape(state.players, state.options) and world.dtype == np.float32


#: Random games a game in the quick suite, and in the slow suite.
QUICK_EXAMPLES, FULL_EXAMPLES = 10, 40


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
@settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pick=st.integers(0, 3), moves=st.integers(0, 400))
def test_mask_is_the_legal_actions_and_tensors_leak_nothing(game_id: str, seed: int, pick: int, moves: int) -> None:
    check_mask_and_tensors(game_id, seed, pick, moves)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", LEARNING_GAMES)
@settings(max_examples=FULL_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), pick=st.integers(0, 3), moves=st.integers(0, 400))
def test_mask_is_the_legal_actions_and_tensors_leak_nothing_at_the_full_count(game_id: str, seed: int, pick: int, moves: int) -> None:
    check_mask_and_tensors(game_id, seed, pick, moves)


def check_mask_and_tensors(game_id: str, seed: int, pick: int, moves: int) -> None:
    game = get_game(game_id)
    state = game.new_game(_players(game, pick), seed, OPTIONS.get(game_id))
    rand = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        if rand.random() < 0.15:
            _check_position(game, state, rand)
        state.apply(rand.choice(state.legal_actions()))
    _check_position(game, state, rand)
    if state.is_over:
        assert not state.legal_action_mask().any()


@pytest.mark.parametrize("game_id", LEARNING_GAMES)
def test_shapes_are_fixed_by_the_configuration(game_id: str) -> None:
    game = get_game(game_id)
    players = game.min_players if game.min_players > 1 else 2
    options = OPTIONS.get(game_id)
    space = game.action_space(players, options)
    assert space.size == len(space.labels) == len(set(space.labels))
    assert game.action_space(players, options) is space  # built once per configuration
    shapes = {game.new_game(players, seed, options).observation_tensor(0).shape for seed in range(5)}
    assert shapes == {game.observation_shape(players, options)}


@pytest.mark.parametrize("game_id", ["celestials", "constellations", "orbital-combat", "streamlines"])
def test_observation_bounds_are_the_adapters_boxes(game_id: str) -> None:
    """Each encoder states its features' true ranges; the PettingZoo and Gymnasium observation spaces are those boxes."""
    from astrarium.rl import gymnasium_env, pettingzoo_env

    game = get_game(game_id)
    players = max(2, game.min_players)
    low, high = encoder_for(game, players, None).observation_bounds
    assert low.shape == high.shape == game.observation_shape(players) and (low <= high).all()
    assert np.isfinite(low).all()
    for box in (pettingzoo_env(game_id).observation_space("player_0"), gymnasium_env(game_id, opponents="random").observation_space):
        assert np.array_equal(box["observation"].low, low) and np.array_equal(box["observation"].high, high)


def test_constellations_options_change_the_space() -> None:
    game = get_game("constellations")
    small = game.action_space(2, {"width": 5, "height": 4, "planets": 2, "gas_giants": 2, "comets": 1})
    assert small.labels[:2] == ("rot a1", "rot b1") and small.labels[20:22] == ("pass", "end")
    own = game.action_space(2, {"deck": ["ryw/3", "g/1", "g/1"]})
    assert own.labels[-4:] == ("play g/1", "play ryw/3", "swap g/1", "swap ryw/3")


def test_a_game_without_the_part_is_named() -> None:
    game = get_game("toy-pile")  # the tests' toy game declares no learning part
    assert game.parts.learning is None
    with pytest.raises(ContractError, match=game.id):
        game.action_space(game.min_players)
    with pytest.raises(ContractError, match=game.id):
        game.new_game(max(2, game.min_players), 1).observation_tensor(0)
    assert game.new_game(max(2, game.min_players), 1).is_out(0) is False
