"""A PettingZoo AEC environment over any game that declares ``parts.learning`` (docs/learning.md, "The adapters").

Every seat is an agent (``player_0`` ...). An observation is a Dict like
connect_four_v3's: ``observation`` (the seat's float32 tensor, built from its
own view) and ``action_mask`` (int8 over the fixed action space; all zeros
for an agent that is not to move). Rewards come at the end: each seat's
return (1 win, -1 loss, 0 a draw). A seat that is out (``State.is_out``) keeps
its place until the end, is never selected, and gets its return then;
``infos[agent]["is_out"]`` says so. An episode is truncated (every agent's
``truncations`` True, rewards 0) once the game has lasted its episode limit:
``Game.max_moves``, which no game passes, or the learning part's shorter
``episode_limit`` where the game declares one (Streamlines).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from astrarium.core import State
from astrarium.rl.common import RENDER_MODES, check_render_mode, episode_limit, learning_game, observation_box, render


class AstrariumAEC(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """An astrarium game as a PettingZoo AEC environment; copyable and picklable."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "astrarium_v0", "is_parallelizable": False}

    def __init__(self, game_id: str, players: int = 2, options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = learning_game(game_id)
        self.metadata = {**self.metadata, "name": f"astrarium_{game_id.replace('-', '_')}_v0"}
        self.render_mode = check_render_mode(render_mode)
        self.players = players
        self.options = self.game.resolve_options(players, options)
        self.space = self.game.action_space(players, self.options)
        self.limit = episode_limit(self.game, players, self.options)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": observation_box(self.game, players, self.options),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, that seed's game (and the seeds of the games after it); else the next one."""
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.game.new_game(self.players, self._seeds.randrange(2**31), self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {"is_out": False} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._mover()]

    def _mover(self) -> int:
        assert self.state is not None
        mover = self.state.current_player
        return 0 if mover is None else mover

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state is not None, "reset() first"
        seat = self._seat[agent]
        mask = np.zeros(self.space.size, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_over:
            mask[self.state.legal_action_mask()] = 1
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None and action is not None
        state.apply_unchecked(self.space.action(int(action), state))
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.infos[other]["is_out"] = state.is_out(self._seat[other])
        if state.is_over:
            returns = state.returns()
            for other in self.agents:
                self.rewards[other] = float(returns[self._seat[other]])
                self.terminations[other] = True
        elif state.move_number >= self.limit:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
        self.agent_selection = self.possible_agents[self._mover()]
        self._accumulate_rewards()

    def render(self) -> Any:
        """From a spectator's side: the text board (``"ansi"``) or the picture as an HxWx3 uint8 array (``"rgb_array"``)."""
        return render(self.state, None, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
