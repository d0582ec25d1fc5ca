"""The greedy player: one step of lookahead on the game's own evaluation.

For every legal action it plays the action on a copy and scores the result with
``state.evaluate(seat)`` (each game documents its heuristic in its rules under
"Evaluation"); a finished game scores its return. Where the game hides cards or
draws on chance, the copies are re-sampled worlds (``determinize``), so the
player never sees the real hidden cards or the real next draw; ``samples``
worlds are averaged. Ties are broken at random from the player's own seed.
"""

from __future__ import annotations

import random
from typing import Any

from astrarium.agents.search import must_sample, sampled_copy, terminal_or_evaluate
from astrarium.core.game import State


class GreedyAgent:
    """Plays the action whose resulting position evaluates best for its seat."""

    name = "greedy"

    def __init__(self, seed: int = 0, *, samples: int = 1, perfect_information: bool = False) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
        self.rand = random.Random(seed)
        self.samples = samples
        self.perfect_information = bool(perfect_information)

    def choose(self, state: State) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player
        if seat is None:
            raise ValueError(f"the game is over; there is nothing to choose in {state!r}")
        return self.rank(state, seat, legal)[0]

    def rank(self, state: State, seat: int, legal: list[Any]) -> list[Any]:
        """The legal actions, best first by mean value (ties in random order)."""
        if must_sample(state, self.perfect_information):
            worlds = [sampled_copy(state, seat, self.rand) for _ in range(self.samples)]
        else:
            worlds = [state]
        scored = []
        for action in legal:
            total = 0.0
            for world in worlds:
                after = world.clone()
                after.apply(action)
                total += terminal_or_evaluate(after, seat)
            scored.append((total / len(worlds), self.rand.random(), action))
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [action for _, _, action in scored]
