"""The greedy player: one step of lookahead on the game's own evaluation.

For every legal action it plays the action on a copy and scores the result with
``state.evaluate(seat)`` (each game documents its heuristic in its rules under
"Evaluation"); a finished game scores its return. Where the game hides cards or
draws on chance, the copies are re-sampled worlds (``determinize``), so the
player never sees the real hidden cards or the real next draw; ``samples``
worlds are averaged. Ties are broken at random from the player's own seed.

With ``epsilon`` above 0 it slips: with that chance a move is any legal
action, drawn at random from the same seed, as a beginner who sometimes does
not see the best move; the easy level of a game where one step of lookahead
already plays well takes it (the game's ``parts.levels``).
"""

from __future__ import annotations

import random
from typing import Any

from astrarium.agents.search import check_flag, check_number, check_whole, must_sample, sampled_copy, seat_to_act, terminal_or_evaluate
from astrarium.core.game import State

#: The most re-sampled worlds a greedy move averages over (each costs one copy per legal action).
MAX_SAMPLES = 1000


class GreedyAgent:
    """Plays the action whose resulting position evaluates best for its seat."""

    name = "greedy"

    def __init__(self, seed: int = 0, *, samples: int = 1, perfect_information: bool = False, epsilon: float = 0.0) -> None:
        self.samples = check_whole("samples", samples, 1, MAX_SAMPLES)
        self.epsilon = check_number("epsilon", epsilon, 0.0, 1.0)
        self.perfect_information = check_flag("perfect_information", perfect_information)
        self.rand = random.Random(seed)

    def choose(self, state: State) -> Any:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rand.random() < self.epsilon:
            return self.rand.choice(legal)
        return self.rank(state, seat_to_act(state), legal)[0]

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
