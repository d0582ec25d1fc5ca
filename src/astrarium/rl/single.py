"""A Gymnasium environment: one seat of a game against computer players (docs/learning.md, "The adapters").

The learner plays ``seat``; the other seats are computer players built from
an agent spec (``greedy``, ``random``, ``mcts:iterations=50``; docs/agents.md).
The observation is a Dict of ``observation`` (the seat's float32 tensor) and
``action_mask`` (int8); ``info["action_mask"]`` holds the mask too, as
Gymnasium's masking wrappers read it. The reward is the seat's return at the
end (1 a win, -1 a loss, 0 a draw), 0 before. An index the mask does not set
ends the episode with reward -1 and ``info["illegal_action"]`` True (with
``illegal="raise"``: raises ``IllegalAction`` instead). An episode is truncated
(``truncated=True``, reward 0) once the game has lasted its episode limit
(``Game.max_moves``, or the learning part's shorter ``episode_limit``), every
seat's actions counted, as Gymnasium's ``TimeLimit`` would. Registered as
``astrarium/<game>-v0`` (:func:`register_all`, run when this module is imported).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from astrarium.agents import make_agent
from astrarium.core import IllegalAction, State, get_game, list_games
from astrarium.rl.common import RENDER_MODES, check_render_mode, episode_limit, learning_game, observation_box, render


class AstrariumGym(gymnasium.Env):  # type: ignore[misc]  # gymnasium is untyped here
    """One seat of an astrarium game against computer players, as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str = "greedy",
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal: str = "lose",
    ) -> None:
        self.game = learning_game(game_id)
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: an illegal action either loses the game ('lose') or raises ('raise')")
        self.illegal = illegal
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not a seat of a {players}-player game")
        self.render_mode = check_render_mode(render_mode)
        self.seat = seat
        self.players = players
        self.opponents = opponents
        make_agent(opponents, 0, game_id)  # a bad spec is refused here, naming the option
        self.options = self.game.resolve_options(players, options)
        self.space = self.game.action_space(players, self.options)
        self.limit = episode_limit(self.game, players, self.options)
        self.observation_space = spaces.Dict(
            {
                "observation": observation_box(self.game, players, self.options),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.space.size)
        self._seeds = random.Random()
        self._agents: dict[int, Any] = {}
        self.state: State | None = None

    def _observation(self) -> dict[str, Any]:
        state = self.state
        assert state is not None
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not state.is_over:
            mask[state.legal_action_mask()] = 1
        return {"observation": state.observation_tensor(self.seat), "action_mask": mask}

    def _others_play(self) -> None:
        """The computer players move until it is the learner's turn, the game is over or it has lasted its episode limit."""
        state = self.state
        assert state is not None
        while not state.is_over and state.current_player != self.seat and state.move_number < self.limit:
            mover = state.current_player
            assert mover is not None
            state.apply(self._agents[mover].choose(state))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game (with ``seed``: that seed's game and opponents); the computer players move first if it is their turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = self._seeds.randrange(2**31)
        self.state = self.game.new_game(self.players, game_seed, self.options)
        self._agents = {s: make_agent(self.opponents, game_seed + s, self.game.id) for s in range(self.players) if s != self.seat}
        self._others_play()
        observation = self._observation()
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index of the action space) for the learner, then the computer players' moves."""
        state = self.state
        assert state is not None, "reset() first"
        try:
            chosen = self.space.action(int(action), state)
        except IllegalAction:
            if self.illegal == "raise" or state.is_over:
                raise
            observation = self._observation()
            return observation, -1.0, True, False, {"action_mask": observation["action_mask"], "illegal_action": True}
        state.apply_unchecked(chosen)
        self._others_play()
        observation = self._observation()
        done = state.is_over
        reward = float(state.returns()[self.seat]) if done else 0.0
        truncated = not done and state.move_number >= self.limit
        return observation, reward, done, truncated, {"action_mask": observation["action_mask"]}

    def render(self) -> Any:
        """From the learner's side: the text board (``"ansi"``) or the picture as an HxWx3 uint8 array (``"rgb_array"``)."""
        return render(self.state, self.seat, self.render_mode)


def register_all() -> list[str]:
    """Register ``astrarium/<game>-v0`` for every game that declares ``parts.learning`` (again: no change); the ids."""
    ids = []
    for game_id in list_games():
        if get_game(game_id).parts.learning is None:
            continue
        env_id = f"astrarium/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="astrarium.rl.single:AstrariumGym", kwargs={"game_id": game_id})
        ids.append(env_id)
    return ids


register_all()
