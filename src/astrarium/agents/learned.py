"""The learned player: a small neural policy trained by ``python -m astrarium.rl.learn`` (docs/learning.md, "A learning example").

The policy reads what the game's learning part gives a seat, its observation
tensor and the legal-action mask (``State.observation_tensor``,
``State.legal_action_mask``), and scores every index of the fixed action
space with one hidden layer; the player takes the legal index it scores
highest (``sample=true``: draws one from the masked softmax instead). The
weights of each game's shipped policy are a small data file beside this
module (``policies/<game>.npz``), trained for one configuration (player count
and options): another configuration is refused by name.

numpy is imported inside the functions, as in the core's learning part, so
the other players run without it (it comes with the ``rl`` extra).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from astrarium.core.errors import DataError, short
from astrarium.core.game import State
from astrarium.core.rng import Rng

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Where the shipped policies are: one ``<game id>.npz`` each.
POLICIES = Path(__file__).with_name("policies")
#: The arrays of a policy file, in the order ``Policy`` takes them.
ARRAYS = ("w1", "b1", "w2", "b2", "wv", "bv")


class Policy:
    """One hidden layer (tanh) from the observation to a score per action index, and a value head for training.

    ``config`` says what it was trained for: the game id, the player count,
    the options, the action space's size and the observation's size.
    """

    def __init__(self, arrays: dict[str, npt.NDArray[np.float32]], config: dict[str, Any]) -> None:
        missing = [name for name in ARRAYS if name not in arrays]
        if missing:
            raise ValueError(f"a policy needs the arrays {', '.join(ARRAYS)}; missing {', '.join(missing)}")
        self.arrays = arrays
        self.config = config

    @classmethod
    def initial(cls, observations: int, actions: int, hidden: int, seed: int, config: dict[str, Any]) -> Policy:
        """A new policy with small random weights (scaled by fan-in) and zero biases."""
        import numpy as np

        gen = np.random.default_rng(seed)
        arrays = {
            "w1": (gen.standard_normal((observations, hidden)) / np.sqrt(observations)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (gen.standard_normal((hidden, actions)) * 0.01).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
            "wv": np.zeros((hidden, 1), np.float32),
            "bv": np.zeros(1, np.float32),
        }
        return cls(arrays, {**config, "observations": observations, "actions": actions, "hidden": hidden})

    def hidden(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The hidden layer of a batch of observations (or of one)."""
        import numpy as np

        a = self.arrays
        return np.tanh(observations @ a["w1"] + a["b1"])

    def scores(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The score (logit) of every action index, before masking."""
        a = self.arrays
        return self.hidden(observations) @ a["w2"] + a["b2"]

    def save(self, path: str | Path) -> None:
        """Write the weights and the configuration to an ``.npz`` file."""
        import numpy as np

        arrays: dict[str, Any] = {"config": np.array(json.dumps(self.config, sort_keys=True)), **self.arrays}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy written by :meth:`save`; a file that is not one raises DataError naming it."""
        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name].astype(np.float32) for name in ARRAYS}
                config = json.loads(str(data["config"]))
        except KeyError as exc:
            raise DataError(
                str(path), str(exc.args[0]), "missing: a policy file holds config and the arrays " + ", ".join(ARRAYS)
            ) from None
        except (OSError, ValueError) as exc:
            raise DataError(str(path), "policy", f"not a policy file ({short(str(exc))})") from None
        return cls(arrays, config)


def masked_choice(scores: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], pick: float | None) -> int:
    """The legal index with the highest score, or (``pick`` in [0, 1)) one drawn from the masked softmax."""
    import numpy as np

    legal = np.flatnonzero(mask)
    chosen = scores[legal]
    if pick is None:
        return int(legal[int(np.argmax(chosen))])
    weights = np.exp(chosen - chosen.max())
    cumulative = np.cumsum(weights)
    return int(legal[min(int(np.searchsorted(cumulative, pick * cumulative[-1], side="right")), legal.size - 1)])


@cache
def shipped_policy(game_id: str) -> Policy:
    """The policy shipped for ``game_id`` (read once a process)."""
    return Policy.load(POLICIES / f"{game_id}.npz")


def shipped_games() -> tuple[str, ...]:
    """The games a policy is shipped for."""
    return tuple(sorted(path.stem for path in POLICIES.glob("*.npz")))


class LearnedPlayer:
    """Plays the game's shipped learned policy: the legal action it scores highest (``sample=true``: drawn)."""

    name = "learned"
    #: The games with a shipped policy (menus and the arena offer the player there alone).
    games = shipped_games()

    def __init__(self, seed: int = 0, *, sample: bool = False) -> None:
        if not isinstance(sample, bool):
            raise ValueError(f"learned: sample is true or false, not {sample!r}")
        self.sample = sample
        self.rng = Rng(seed)

    def choose(self, state: State) -> Any:
        policy = shipped_policy(state.game.id)
        seat = state.current_player
        if seat is None:
            raise ValueError("the game is over: nothing to choose")
        check_configuration(policy, state)
        scores = policy.scores(state.observation_tensor(seat))
        index = masked_choice(scores, state.legal_action_mask(), self.rng.random() if self.sample else None)
        return state.game.action_space(state.players, state.options).action(index, state)


def check_configuration(policy: Policy, state: State) -> None:
    """A ValueError naming the difference when ``state``'s configuration is not the one the policy was trained for."""
    config = policy.config
    trained = (config.get("game"), config.get("players"))
    if trained != (state.game.id, state.players):
        raise ValueError(f"the learned policy plays {trained[0]} with {trained[1]} players, not {state.game.id} with {state.players}")
    space = state.game.action_space(state.players, state.options).size
    shape = state.game.observation_shape(state.players, state.options)
    if (config.get("actions"), config.get("observations")) != (space, shape[0]):
        raise ValueError(
            f"the learned policy of {state.game.id} was trained with {config.get('actions')} actions and "
            f"{config.get('observations')} observation features; these options give {space} and {shape[0]}"
        )
