"""An OpenSpiel (pyspiel) Python game over any game that declares ``parts.learning`` (docs/learning.md, "The adapters").

Registered as ``python_astrarium_<game>`` (hyphens as underscores) with the
parameters ``players`` and ``seed`` (the first game's seed; each new initial
state takes the next one). Actions are the indices of the game's fixed
action space; the legal ones are those its mask sets, sorted. Chance happens
inside the rules (the seeded generator travels with every copy), so a game
with chance is ``SAMPLED_STOCHASTIC``, one with hidden information
``IMPERFECT_INFORMATION``; the observation tensor and string are the seat's
own (from ``state.view(seat)``). No information-state tensor is offered;
``resample_from_infostate`` gives a position the seat cannot tell from the real
one (the game's ``determinize``), which OpenSpiel's IS-MCTS bot samples with
``use_observation_string=True``. ``max_game_length`` is the episode limit
(``Game.max_moves``, or the learning part's shorter ``episode_limit``): a game
that lasts it is terminal there, with returns of 0 for every seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from astrarium.core import Game, Rng, State
from astrarium.rl.common import board_text, episode_limit, learning_game

#: The game classes registered with OpenSpiel so far, by game id (a class per game: OpenSpiel keeps it for its whole life).
_REGISTERED: dict[str, type[AstrariumSpielGame]] = {}


def spiel_name(game_id: str) -> str:
    """The short name a game is registered under in OpenSpiel."""
    return f"python_astrarium_{game_id.replace('-', '_')}"


def _game_type(game: Game) -> Any:
    chance = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if game.chance else pyspiel.GameType.ChanceMode.DETERMINISTIC
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.hidden_information else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    if game.cooperative:
        utility = pyspiel.GameType.Utility.IDENTICAL
    elif game.max_players == 2:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=spiel_name(game.id),
        long_name=f"astrarium {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=max(2, game.min_players),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(2, game.min_players), "seed": 0},
    )


class AstrariumSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """An astrarium game as a pyspiel game (options: the game's defaults, or those given to :func:`load`).

    :func:`register` makes one subclass per game, naming it in ``game_id``.
    """

    game_id: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None, *, options: Mapping[str, Any] | None = None) -> None:
        self.astrarium = learning_game(self.game_id)
        params = dict(params or {})
        self.players = int(params.get("players", max(2, self.astrarium.min_players)))
        self.next_seed = int(params.get("seed", 0))
        self.options = self.astrarium.resolve_options(self.players, options)
        if not self.astrarium.chance and self.astrarium.new_game(self.players, 0, self.options).draws_chance():
            raise ValueError(
                f"{self.game_id} with these options draws on chance after set-up, and OpenSpiel knows the game as one "
                "without chance; play this variant through the PettingZoo or Gymnasium environment"
            )
        self.space = self.astrarium.action_space(self.players, self.options)
        self.shape = self.astrarium.observation_shape(self.players, self.options)
        self.limit = episode_limit(self.astrarium, self.players, self.options)
        zero_sum = _game_type(self.astrarium).utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.limit,
        )
        super().__init__(_game_type(self.astrarium), info, {"players": self.players, "seed": self.next_seed})

    def new_initial_state(self) -> AstrariumSpielState:
        """A new game: the next seed's."""
        seed = self.next_seed
        self.next_seed += 1
        return AstrariumSpielState(self, self.astrarium.new_game(self.players, seed, self.options))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AstrariumObserver:
        """The seat's observation (its tensor and its view as JSON); no perfect-recall information state."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError(f"{self.astrarium.title} offers observations only, not perfect-recall information states")
        return AstrariumObserver(self.shape)


class AstrariumSpielState(pyspiel.State):  # type: ignore[misc]
    """One position as a pyspiel state; ``clone`` copies the astrarium state (its seeded generator included)."""

    def __init__(self, game: AstrariumSpielGame, state: State) -> None:
        super().__init__(game)
        self.space = game.space
        self.limit = game.limit
        self.state = state

    def _truncated(self) -> bool:
        """Whether the game has lasted its episode limit without ending."""
        return self.state.move_number >= self.limit and not self.state.is_over

    def current_player(self) -> int:
        mover = self.state.current_player
        return pyspiel.PlayerId.TERMINAL if mover is None or self._truncated() else int(mover)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.state.current_player or self._truncated():
            return []
        return [int(i) for i in np.flatnonzero(self.state.legal_action_mask())]

    def _apply_action(self, action: int) -> None:
        self.state.apply_unchecked(self.space.action(int(action), self.state))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.space.labels[action])

    def is_terminal(self) -> bool:
        return bool(self.state.is_over) or self._truncated()

    def returns(self) -> list[float]:
        return [float(r) for r in self.state.returns()]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> AstrariumSpielState:
        """A position ``player`` cannot tell from this one: the game's ``determinize``, seeded by the sampler (IS-MCTS)."""
        seed = int(probability_sampler() * 2**53)
        return AstrariumSpielState(self.get_game(), self.state.determinize(player, Rng(seed)))

    def __deepcopy__(self, memo: dict[int, Any]) -> AstrariumSpielState:
        return AstrariumSpielState(self.get_game(), self.state.clone())

    def __str__(self) -> str:
        return board_text(self.state, None)


class AstrariumObserver:
    """The PyObserver of OpenSpiel: ``tensor`` (and ``dict``) set from a seat's own observation."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: AstrariumSpielState, player: int) -> None:
        self.tensor[...] = state.state.observation_tensor(player)

    def string_from(self, state: AstrariumSpielState, player: int) -> str:
        return json.dumps(state.state.view(player), sort_keys=True)


def register(game_id: str) -> type[AstrariumSpielGame]:
    """Register ``game_id`` with OpenSpiel (once, as a class of its own: a registered closure crashes pyspiel at exit); that class."""
    found = _REGISTERED.get(game_id)
    if found is None:
        game = learning_game(game_id)
        found = type(f"AstrariumSpielGame_{game_id.replace('-', '_')}", (AstrariumSpielGame,), {"game_id": game_id})
        pyspiel.register_game(_game_type(game), found)
        _REGISTERED[game_id] = found
    return found


def load(game_id: str, players: int = 2, options: Mapping[str, Any] | None = None, seed: int = 0) -> AstrariumSpielGame:
    """The pyspiel game of ``game_id`` for ``players`` seats and ``options`` (registered with OpenSpiel on the way)."""
    return register(game_id)({"players": players, "seed": seed}, options=options)
