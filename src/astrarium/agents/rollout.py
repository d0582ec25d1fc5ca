"""The rollout player: one step of policy improvement over a base player.

A *base* player (any registered player spec, such as ``sl-courier`` or
``greedy``) already plays the game well enough to finish it. The rollout
player asks, before each of its moves, whether some other action would do
better than the base player's choice if the base player played every seat
from then on:

1. it re-samples ``samples`` worlds from what its seat can see (the deck order
   and future chance; the real state is never looked ahead on);
2. in every world it plays each legal action, then lets the base player play
   every seat until the game ends (or for ``depth`` actions, where each seat's
   evaluation scores the position) and notes the value for its own seat;
3. it plays the action with the best mean value, unless that action beats the
   base player's own action on the same worlds by no more than ``margin``, or
   by no more than ``z`` standard errors of the paired differences: then it
   keeps the base player's action (with few samples one lucky world is no
   evidence, and ``z`` asks for evidence).

Every action is tried on the *same* worlds, with base players built from the
same seeds (common random numbers), so the difference between two actions is
the difference the action makes, not the luck of two different deals. This is
the classic rollout algorithm of Bertsekas, Tsitsiklis and Wu (1997), "Rollout
algorithms for combinatorial optimization", and Tesauro and Galperin (1996):
with enough samples it plays at least as well as its base player, because the
base player's own action is always among those compared, and it plays better
wherever a one-step deviation from the base plan wins more games.

The game supplies nothing new for this: the base player is built by name from
the registry (:func:`astrarium.agents.base.make_agent`), so the player works on
every game through the game API; a base written for one game (``sl-courier``)
refuses any other game when it is asked to choose.
"""

from __future__ import annotations

import math
import random
from typing import Any

from astrarium.agents.base import make_agent
from astrarium.agents.search import (
    advance,
    check_flag,
    check_number,
    check_whole,
    legal_match_of,
    must_sample,
    sampled_copy,
    seat_to_act,
    terminal_or_evaluate,
)
from astrarium.core.errors import short
from astrarium.core.game import State

#: The most re-sampled worlds a move is judged on (each costs one rollout per legal action).
MAX_SAMPLES = 10_000
#: The longest rollout cap accepted (``depth``; without one a rollout plays to the end of the game).
MAX_DEPTH = 100_000
#: The largest confidence threshold accepted, in standard errors.
MAX_Z = 10.0
#: The largest margin accepted: game returns lie in [-1, 1], so a margin of 2 keeps the base player's action always.
MAX_MARGIN = 2.0


class RolloutAgent:
    """Policy improvement over a base player (see the module docstring). Options are keyword-only."""

    name = "rollout"

    def __init__(
        self,
        seed: int = 0,
        *,
        base: str = "greedy",
        samples: int = 8,
        depth: int | None = None,
        margin: float = 0.0,
        z: float = 0.0,
        perfect_information: bool = False,
    ) -> None:
        if not isinstance(base, str):
            raise ValueError(f"base must name a player such as greedy or sl-courier, not {short(repr(base), 40)}")
        self.base_spec = base
        # built once here so that a bad base spec is refused before play, with the registry's own message
        self.base = make_agent(base, seed)
        if isinstance(self.base, RolloutAgent):
            raise ValueError("base cannot itself be a rollout player (each of its moves would run rollouts of rollouts)")
        self.samples = check_whole("samples", samples, 1, MAX_SAMPLES)
        self.depth = None if depth is None else check_whole("depth", depth, 0, MAX_DEPTH)
        self.margin = check_number("margin", margin, 0.0, MAX_MARGIN)
        self.z = check_number("z", z, 0.0, MAX_Z)
        self.perfect_information = check_flag("perfect_information", perfect_information)
        self.rand = random.Random(seed)
        #: Statistics of the last move: rollouts played and the mean value of each legal action tried.
        self.last_rollouts = 0
        self.last_values: dict[str, float] = {}

    def choose(self, state: State) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"the game is over; there is nothing to choose in {state!r}")
        self.last_rollouts, self.last_values = 0, {}
        if len(legal) == 1:
            return legal[0]
        seat = seat_to_act(state)
        # the base player's action, as the legal list's own object (so that it is found among those compared)
        default = legal_match_of(state, self.base.choose(state), self.base_spec)
        sample = must_sample(state, self.perfect_information)
        values: list[list[float]] = [[] for _ in legal]
        for _ in range(self.samples):
            world = sampled_copy(state, seat, self.rand) if sample else state.clone()
            base_seed = self.rand.getrandbits(32)
            for i, action in enumerate(legal):
                values[i].append(self._rollout(world.clone(), action, seat, base_seed))
        self.last_rollouts = self.samples * len(legal)
        self.last_values = {str(a): sum(v) / self.samples for a, v in zip(legal, values, strict=True)}
        kept = legal.index(default)
        best, best_gain = kept, 0.0
        for i, row in enumerate(values):
            gain = self._gain(row, values[kept])
            if gain > best_gain:
                best, best_gain = i, gain
        return legal[best]

    def _gain(self, values: list[float], base: list[float]) -> float:
        """How much better an action did than the base player's on the same worlds: the mean paired difference
        when it exceeds ``margin`` and ``z`` standard errors, else 0 (the base player's action is kept)."""
        n = len(values)
        diffs = [v - b for v, b in zip(values, base, strict=True)]
        mean = sum(diffs) / n
        if mean <= self.margin:
            return 0.0
        if self.z > 0:
            if n < 2:
                return 0.0
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
            if mean <= self.z * spread / math.sqrt(n):
                return 0.0
        return mean

    def _rollout(self, world: State, action: Any, seat: int, base_seed: int) -> float:
        """``action`` played in ``world``, then the base player (seeded ``base_seed``) on every seat; ``seat``'s value."""
        advance(world, action)
        # one base player for the whole rollout, the same seed for every action tried: common random numbers
        player = make_agent(self.base_spec, base_seed)
        depth = self.depth
        played = 0
        while not world.is_over and (depth is None or played < depth):
            advance(world, legal_match_of(world, player.choose(world), self.base_spec))
            played += 1
        return terminal_or_evaluate(world, seat)
