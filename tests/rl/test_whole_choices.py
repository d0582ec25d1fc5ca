"""Players of whole actions where Connected Worlds' ``choices = steps`` splits a choice into parts (docs/learning.md).

The scripted players look for whole moves, portals and deployments; wrapped by
``make_agent`` (``agents.base.WholeChoices``) they choose among the whole
actions the learning part says the position's parts can make, and play their
choice a part at a time. So a learner's scripted opponents play the same game
as with whole actions, and the Gymnasium environment runs whole games against them.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from astrarium.agents import make_agent
from astrarium.core import get_game
from astrarium.games.connected_worlds.actions import split
from astrarium.rl import gymnasium_env

GAME = get_game("connected-worlds")
STEPS = {"choices": "steps"}


def _play(spec: str, seed: int, options: dict[str, Any]) -> Any:
    state = GAME.new_game(2, seed, options)
    players = [make_agent(spec, seed=seat, game=GAME.id) for seat in range(2)]
    while not state.is_over:
        state.apply(players[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("spec", ["cw-rusher", "cw-expander", "cw-general"])
def test_a_scripted_player_plays_under_steps_the_game_it_plays_whole_a_part_at_a_time(spec: str) -> None:
    whole = _play(spec, 7, {})
    steps = _play(spec, 7, STEPS)
    assert [str(a) for a in steps.actions] == [str(part) for a in whole.actions for part in split(a)]
    assert steps.outcome == whole.outcome
    assert any(str(a).startswith("at ") for a in steps.actions)


def test_a_scripted_player_finishes_a_move_someone_else_began() -> None:
    state = GAME.new_game(2, 5, STEPS)
    general = make_agent("cw-general", game=GAME.id)
    while state.view(None)["phase"] == "setup":
        state.apply(general.choose(state))
    state.apply(next(a for a in state.legal_actions() if str(a).startswith("move ")))
    parts = 0
    while state.view(state.current_player).get("pending"):
        part = general.choose(state)
        assert part in state.legal_actions()
        state.apply(part)
        parts += 1
    assert parts == 2 and state.view(None)["phase"] == "moving"


def test_a_scripted_player_chooses_as_before_where_nothing_is_split() -> None:
    state = GAME.new_game(2, 3, {})
    while not state.is_over and state.move_number < 60:
        wrapped, bare = make_agent("cw-general", game=GAME.id), make_agent("cw-general", game=GAME.id).player
        assert wrapped.choose(state) == bare.choose(state)
        state.apply(wrapped.choose(state))


@pytest.mark.parametrize("opponents", ["cw-general", "greedy"])
def test_gymnasium_connected_worlds_under_steps_plays_whole_games_against(opponents: str) -> None:
    env = gymnasium_env("connected-worlds", opponents=opponents, options=STEPS)
    pick = random.Random(1)
    for seed in (1, 2):
        observation, info = env.reset(seed=seed)
        mine = []
        done = truncated = False
        while not (done or truncated):
            index = int(pick.choice(np.flatnonzero(info["action_mask"])))
            mine.append(env.space.labels[index])
            observation, reward, done, truncated, info = env.step(index)
        assert done and not truncated and reward in (-1.0, 0.0, 1.0)
        parts = [str(a) for a in env.state.actions if str(a).startswith("at ")]
        assert len(parts) > sum(label.startswith("at ") for label in mine), "the opponent chose no hex"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(gymnasium_env("connected-worlds", opponents=opponents, options=STEPS), skip_render_check=True)
