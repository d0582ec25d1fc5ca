"""The small statistics every lab figure is made of: an estimate with its 95% interval, and a game's scores.

A share has a Wilson interval (:func:`proportion`), a mean a normal one
(:func:`mean_estimate`), a figure with no simple formula a seeded percentile
bootstrap (:func:`bootstrap_interval`); :func:`game_scores` turns a game's
returns into each seat's score, a draw counting half a win.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from astrarium.core.stats import Z95, wilson_interval

Interval = tuple[float, float]
H = TypeVar("H", bound=Hashable)

#: How many resamples a bootstrap draws (seeded, so the interval is the same every time).
BOOTSTRAP_RESAMPLES = 1000


@dataclass(frozen=True, slots=True)
class Estimate:
    """One figure: its value, its 95% interval, how the interval was made and from how many games."""

    name: str
    value: float
    low: float
    high: float
    method: str
    games: int

    @property
    def interval(self) -> Interval:
        return (self.low, self.high)


def proportion(name: str, successes: float, trials: int) -> Estimate:
    """A share with its 95% Wilson interval (``successes`` may count halves)."""
    low, high = wilson_interval(successes, trials)
    value = successes / trials if trials else 0.0
    return Estimate(name, value, min(low, value), max(high, value), "Wilson", trials)  # rounding kept off the value


def mean_estimate(name: str, values: Sequence[float]) -> Estimate:
    """A mean with its 95% normal interval (mean +- 1.96 standard errors)."""
    n = len(values)
    if n == 0:
        return Estimate(name, math.nan, math.nan, math.nan, "normal", 0)
    mean = sum(values) / n
    half = Z95 * standard_deviation(values) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(name, mean, mean - half, mean + half, "normal", n)


def standard_deviation(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def bootstrap_interval(
    items: Sequence[H], figure: Callable[[Mapping[H, int]], float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> Interval:
    """The percentile bootstrap: ``figure`` of ``resamples`` resamples of ``items`` with replacement (seeded), 2.5th to 97.5th percentile.

    ``figure`` takes a resample as counts of each distinct item, so games that
    share a value cost one entry however many there are.
    """
    kinds = Counter(items)
    shapes, weights = list(kinds), list(kinds.values())
    rand = random.Random(seed)
    figures = sorted(figure(Counter(rand.choices(shapes, weights, k=len(items)))) for _ in range(resamples))
    return figures[int(0.025 * (resamples - 1))], figures[math.ceil(0.975 * (resamples - 1))]


def difference_of_proportions(name: str, a: Estimate, b: Estimate) -> Estimate:
    """``a - b`` for two independent shares, with Newcombe's interval from their Wilson intervals."""
    value = a.value - b.value
    low = value - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = value + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Estimate(name, value, max(-1.0, low), min(1.0, high), "Newcombe", a.games + b.games)


def game_scores(returns: Sequence[float]) -> list[float]:
    """Each seat's score in one game: 1 for a win, 0.5 for a draw, 0 for a loss (from its return's sign)."""
    return [1.0 if r > 0 else 0.0 if r < 0 else 0.5 for r in returns]


def is_draw(returns: Sequence[float]) -> bool:
    """A drawn game: every seat's return 0."""
    return all(r == 0 for r in returns)
