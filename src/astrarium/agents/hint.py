"""A hint for a person: the greedy player's choice, explained in one line.

The greedy player (one step of lookahead on the game's evaluation, see
:mod:`astrarium.agents.greedy`) answers at once in every game, which is what a
person asking for a hint at the prompt wants. The hint says what the action
does in words (the game's own :meth:`~astrarium.core.game.Game.describe`) and
how the position's value for the person's seat changes, next to the best
alternative, so a person can see why it was chosen.

The hint never uses what the seat may not see: where the game hides cards or
draws on chance, every action is scored over re-sampled worlds (as the greedy
player does), and the words come from such a world, cut to the action's own
own line so that an imagined draw is never told as if it were real.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from astrarium.agents.search import must_sample, sampled_copy, seat_to_act, terminal_or_evaluate
from astrarium.core.game import State

#: Re-sampled worlds each action is scored over in games with secrets or chance (the greedy player's default is 1).
HINT_SAMPLES = 4
#: Legal actions above this many are scored in one world only, so that a hint stays quick in the widest positions.
WIDE = 150


@dataclass(frozen=True)
class Hint:
    """The suggested action, its words, and the values (for the seat asking) before, after and of the next best action."""

    action: Any
    words: str
    before: float
    after: float
    runner_up: Any | None = None
    runner_up_value: float | None = None

    def line(self) -> str:
        """The hint in one line: ``play X: <what it does> (evaluation 0.12 -> 0.31; next best ...)``."""
        if self.after >= 1.0:
            value = "it wins the game"
        else:
            value = f"evaluation {self.before:+.2f} -> {self.after:+.2f}"
        if self.runner_up is not None and self.runner_up_value is not None:
            value += f"; next best {self.runner_up}: {self.runner_up_value:+.2f}"
        words = self.words.rstrip(".")
        return f"{self.action}: {words} ({value})"


def suggest(state: State, seed: int = 0) -> Hint:
    """The greedy player's choice for the seat to move, with its words and the values that decided it.

    Raises ValueError when the game is over.
    """
    seat = seat_to_act(state)
    legal = state.legal_actions()
    rand = random.Random(seed)
    sampling = must_sample(state, False)
    samples = (HINT_SAMPLES if len(legal) <= WIDE else 1) if sampling else 1
    worlds = [sampled_copy(state, seat, rand) for _ in range(samples)] if sampling else [state]
    before = sum(terminal_or_evaluate(world, seat) for world in worlds) / len(worlds)
    scored: list[tuple[float, float, int]] = []
    for index, action in enumerate(legal):
        total = 0.0
        for world in worlds:
            after = world.clone()
            after.apply(action)
            total += terminal_or_evaluate(after, seat)
        scored.append((total / len(worlds), rand.random(), index))
    scored.sort(reverse=True)
    best_value, _, best = scored[0]
    action = legal[best]
    runner = scored[1] if len(scored) > 1 else None
    return Hint(
        action=action,
        words=_words(worlds[0], seat, action),
        before=before,
        after=best_value,
        runner_up=legal[runner[2]] if runner is not None else None,
        runner_up_value=runner[0] if runner is not None else None,
    )


def _words(world: State, seat: int, action: Any) -> str:
    """What ``action`` does in the game's words, told from ``seat``'s side: the action's own line, not its effects.

    The effects may come from an imagined world (a re-sampled draw), and the
    hint must not tell them as if they were what will happen.
    """
    before = world.picture_view(seat)
    after = world.clone()
    after.apply(action)
    lines = world.game.describe(before, str(action), after.picture_view(seat))
    return lines[0] if lines else str(action)
