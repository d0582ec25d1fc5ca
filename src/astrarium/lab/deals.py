"""A paired run's deals: every seed played once in every rotation of the line-up (``rotate = "paired"``).

On a deal every player sits first once, so seat 0's score averaged over the
deal's rotations measures the seat on the same cards and the same chance;
the deals whose result changed with the seating are the ones the seat
decided. The figures are read from ``games.parquet`` alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pyarrow as pa

from astrarium.lab.estimates import BOOTSTRAP_RESAMPLES, Estimate, bootstrap_interval, game_scores, proportion


@dataclass(frozen=True, slots=True)
class Deals:
    """A paired run's deals (seeds played once in every rotation of the line-up).

    ``advantage``: seat 0's score over the deals (AdvantageP1 paired);
    ``changed``: the share of deals whose result changed with the seating
    (Seating changed); ``seeds``: those deals' seeds.
    """

    advantage: Estimate
    changed: Estimate
    seeds: list[int]


def _mean_of(counts: Mapping[float, int]) -> float:
    return sum(value * count for value, count in counts.items()) / sum(counts.values())


def deals(table: pa.Table, players: int, *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> Deals:
    """Seat 0's score over the deals of a paired run, and the deals whose result changed with the seating.

    A deal is a seed played in all ``players`` rotations of the line-up (a
    seed with a rotation missing, a run stopped part-way, is left out). Its
    figure is seat 0's score averaged over its rotations, so every player sits
    first once on it; the estimate is the mean over deals with a percentile
    bootstrap interval over the deals (``resamples`` resamples, seeded). A
    deal's result changed with the seating when some player's score (a draw
    half a win) differs between its rotations; their share has a Wilson
    interval over the deals.
    """
    by_seed: dict[int, list[tuple[list[float], list[int]]]] = {}
    columns = (table.column(name).to_pylist() for name in ("seed", "returns", "entries"))
    for seed_, returns, entries in zip(*columns, strict=True):
        by_seed.setdefault(int(seed_), []).append((game_scores(returns), list(entries)))
    whole = {s: games for s, games in sorted(by_seed.items()) if len(games) == players}
    firsts = [sum(scores[0] for scores, _ in games) / players for games in whole.values()]
    changed = [s for s, games in whole.items() if len({tuple(_by_entry(scores, entries)) for scores, entries in games}) > 1]
    if firsts:
        low, high = bootstrap_interval(firsts, _mean_of, resamples=resamples, seed=seed)
        value = sum(firsts) / len(firsts)
        advantage = Estimate("AdvantageP1 paired", value, min(low, value), max(high, value), "bootstrap over deals", len(firsts))
    else:
        advantage = Estimate("AdvantageP1 paired", math.nan, math.nan, math.nan, "bootstrap over deals", 0)
    return Deals(advantage, proportion("Seating changed", len(changed), len(whole)), changed)


def _by_entry(scores: Sequence[float], entries: Sequence[int]) -> list[float]:
    """A game's scores by line-up entry (A first) rather than by seat."""
    found = [0.0] * len(entries)
    for score, entry in zip(scores, entries, strict=True):
        found[entry] = score
    return found
