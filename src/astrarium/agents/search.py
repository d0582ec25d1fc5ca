"""What the searching players share: how a player may look at a position.

A computer player sees what its seat sees. Where a game hides something
(other hands, deck order) or draws on chance after setup, looking ahead on the
real state would read the secrets and the future draws; instead the player
works on ``state.determinize(seat, rng)``, a copy in which everything the seat
cannot see is re-sampled. Only a player built with ``perfect_information=True``
(for experiments) looks at the real state.
"""

from __future__ import annotations

import random
from typing import Any

from astrarium.core.game import State
from astrarium.core.rng import Rng


def must_sample(state: State, perfect_information: bool) -> bool:
    """Whether looking ahead from ``state`` needs a re-sampled copy (hidden cards or future chance)."""
    game = state.game
    return not perfect_information and (game.hidden_information or game.chance)


def sampled_copy(state: State, seat: int, rand: random.Random) -> State:
    """A copy of ``state`` as ``seat`` may imagine it: its secrets and future chance re-sampled."""
    return state.determinize(seat, Rng(rand.getrandbits(64)))


def terminal_or_evaluate(state: State, seat: int) -> float:
    """The final return once the game is over, else the game's heuristic for ``seat``."""
    if state.is_over:
        return state.returns()[seat]
    return state.evaluate(seat)


def values_for_all(state: State) -> list[float]:
    """One value per seat: the returns when over, else each seat's heuristic."""
    if state.is_over:
        return state.returns()
    return [state.evaluate(seat) for seat in range(state.players)]


def advance(state: State, action: Any) -> None:
    """Play ``action``, taken from ``state``'s own legal actions, skipping the legality check.

    ``State.apply`` parses notation and checks legality for people and records;
    a search plays millions of actions it has just read from the legal list, so
    it uses ``State.apply_unchecked``, the same move without the checks. This is
    the searches' hot path (see docs/performance.md).
    """
    state.apply_unchecked(action)


def random_playout(state: State, rand: Any, depth: int | None = None) -> int:
    """Play uniformly random legal actions until the end or ``depth`` actions; returns how many."""
    return state.random_playout(rand, depth)


def check_budget(iterations: Any, seconds: Any) -> tuple[int | None, float | None]:
    """Validate a search budget; with neither given, 1000 iterations."""
    if iterations is None and seconds is None:
        iterations = 1000
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0):
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    return iterations, (float(seconds) if seconds is not None else None)
