"""The uniformly random player: a floor for every other player, and the engine's fuzzer."""

from __future__ import annotations

from typing import Any

from astrarium.core.game import State
from astrarium.core.rng import Rng


class RandomAgent:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State) -> Any:
        return self.rng.choice(state.legal_actions())
