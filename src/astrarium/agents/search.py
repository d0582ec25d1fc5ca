"""What the searching players share: how a player may look at a position.

A computer player sees what its seat sees. Where a game hides something
(other hands, deck order) or draws on chance after setup, looking ahead on the
real state would read the secrets and the future draws; instead the player
works on ``state.determinize(seat, rng)``, a copy in which everything the seat
cannot see is re-sampled. Only a player built with ``perfect_information=True``
(for experiments) looks at the real state.
"""

from __future__ import annotations

import math
import random
from typing import Any

from astrarium.core.errors import short
from astrarium.core.game import State
from astrarium.core.rng import Rng


def must_sample(state: State, perfect_information: bool) -> bool:
    """Whether looking ahead from ``state`` needs a re-sampled copy (hidden cards or future chance)."""
    return not perfect_information and (state.game.hidden_information or state.draws_chance())


def sampled_copy(state: State, seat: int, rand: random.Random) -> State:
    """A copy of ``state`` as ``seat`` may imagine it: its secrets and future chance re-sampled."""
    return state.determinize(seat, Rng(rand.getrandbits(64)))


def legal_match_of(state: State, action: Any, player: str) -> Any:
    """The legal list's own object for ``action``, chosen by the helper player ``player`` (a rollout's base, a
    search's guide); a helper that answers illegally is a fault of that player, named in the error."""
    match = state.legal_match(action)
    if match is None:
        raise ValueError(f"the player {short(player, 40)} chose {short(repr(action), 40)}, which is not legal here")
    return match


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


#: The largest search budget accepted: ten million iterations, or an hour a move (a person is waiting).
MAX_ITERATIONS = 10_000_000
MAX_SECONDS = 3600.0


def seat_to_act(state: State) -> int:
    """The seat to move; a finished game has none, and choosing in it is a caller's mistake."""
    seat = state.current_player
    if seat is None:
        raise ValueError(f"the game is over; there is nothing to choose in {state!r}")
    return seat


def check_whole(name: str, value: Any, low: int, high: int) -> int:
    """An agent option that must be a whole number in ``[low, high]`` (True is not 1 here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low:,} to {high:,}, not {short(repr(value), 40)}")
    return value


def check_number(name: str, value: Any, low: float, high: float, *, above_low: bool = False, below_high: bool = False) -> float:
    """An agent option that must be a finite number in ``[low, high]``, the low end left out with ``above_low``
    and the high end with ``below_high``.

    NaN compares false with everything, so a range check alone would let it
    through (and a search with ``seconds=nan`` never stops); it is refused here.
    """
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    ok = ok and (low < value if above_low else low <= value) and (value < high if below_high else value <= high)
    if not ok:
        if below_high:
            bound = f"from {low:g} up to (not including) {high:g}"
        else:
            bound = f"above {low:g} and at most {high:g}" if above_low else f"from {low:g} to {high:g}"
        raise ValueError(f"{name} must be a number {bound}, not {short(repr(value), 40)}")
    return float(value)


def check_flag(name: str, value: Any) -> bool:
    """An agent option that must be true or false (a stray word such as ``cheat`` must not switch it on)."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {short(repr(value), 40)}")
    return value


def check_budget(iterations: Any, seconds: Any) -> tuple[int | None, float | None]:
    """Validate a search budget; with neither given, 1000 iterations."""
    if iterations is None and seconds is None:
        iterations = 1000
    if iterations is not None:
        iterations = check_whole("iterations", iterations, 1, MAX_ITERATIONS)
    if seconds is not None:
        seconds = check_number("seconds", seconds, 0.0, MAX_SECONDS, above_low=True)
    return iterations, seconds
