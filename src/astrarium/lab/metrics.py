"""The lab's metrics: what a results folder says about a game, each figure with its 95% interval.

Every metric is read from the results (``games.parquet``) or the records
(``records/<seed>.json.gz``), never from the players' internals. The names
follow Ludii's where a metric matches theirs (AdvantageP1, Balance,
Drawishness, Completion, Timeouts, Duration, LeadChange, Drama,
BranchingFactor, DecisionFactor). Those read from the records replay every
game (:mod:`astrarium.lab.trace`): they are computed when asked for
(``replay=True``, ``astrarium lab metrics DIR --replay``) and cached in the
results folder.

```python
from astrarium import lab
table = lab.metrics("results/mirror")            # a MetricsTable: rows of Estimate, usage, histograms
table.get("AdvantageP1").value, table.get("AdvantageP1").interval
lab.metrics("results/mirror", replay=True)       # adds LeadChange, Drama, BranchingFactor, DecisionFactor, usage
```
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from astrarium.lab.deals import Deals, deals
from astrarium.lab.estimates import (
    BOOTSTRAP_RESAMPLES,
    Estimate,
    bootstrap_interval,
    difference_of_proportions,
    game_scores,
    is_draw,
    mean_estimate,
    proportion,
    standard_deviation,
)
from astrarium.lab.play import METRIC_PREFIX

if TYPE_CHECKING:
    from astrarium.lab.runner import Results
    from astrarium.lab.trace import Trace


#: How many bins a Duration histogram has at most.
HISTOGRAM_BINS = 10


@dataclass(frozen=True, slots=True)
class Histogram:
    """Counts of a whole-number quantity in equal bins: bin ``i`` holds ``edges[i] <= x < edges[i + 1]`` (the last is closed)."""

    name: str
    edges: list[float]
    counts: list[int]


@dataclass(frozen=True, slots=True)
class Usage:
    """How one action kind or card was used: how often it was chosen when it was legal, and the mover's score with and without it.

    ``chosen``/``legal``: decisions where it was chosen, decisions where it was
    legal; ``with_it``/``without``: the score (a draw half a win) of a seat in
    games where that seat played it at least once, and in games where it did not.
    """

    name: str
    legal: int
    chosen: int
    rate: Estimate
    with_it: Estimate
    without: Estimate
    difference: Estimate


@dataclass(slots=True)
class MetricsTable:
    """Every metric of a results folder, with what made it (the experiment and the command)."""

    experiment: str
    command: str
    games: int
    estimates: list[Estimate]
    histograms: list[Histogram] = field(default_factory=list)
    usage: list[Usage] = field(default_factory=list)
    seating_changed: list[int] = field(default_factory=list)
    """When paired: the seeds (deals) whose result changed with the seating."""

    def get(self, name: str) -> Estimate:
        """The estimate called ``name`` (a KeyError naming the ones there are, if none is)."""
        return named(self.estimates, name)

    def as_dict(self) -> dict[str, Estimate]:
        return {estimate.name: estimate for estimate in self.estimates}


def named(estimates: Sequence[Estimate], name: str) -> Estimate:
    """The estimate called ``name`` among ``estimates`` (a KeyError naming the ones there are, if none is)."""
    for estimate in estimates:
        if estimate.name == name:
            return estimate
    raise KeyError(f"no metric {name!r}; there are {', '.join(e.name for e in estimates)}")


def _returns(table: pa.Table) -> list[list[float]]:
    return table.column("returns").to_pylist()


# -- the metrics read from games.parquet ----------------------------------------------------------------------------
def outcome_rates(table: pa.Table, players: int) -> list[Estimate]:
    """Per seat: win, draw and loss rates and the score (a draw half a win), each with its 95% Wilson interval."""
    returns = _returns(table)
    n = len(returns)
    found = []
    for seat in range(players):
        values = [game[seat] for game in returns]
        wins, losses = sum(v > 0 for v in values), sum(v < 0 for v in values)
        draws = n - wins - losses
        found += [
            proportion(f"win seat {seat}", wins, n),
            proportion(f"draw seat {seat}", draws, n),
            proportion(f"loss seat {seat}", losses, n),
            proportion(f"score seat {seat}", wins + draws / 2, n),
        ]
    return found


def player_scores(table: pa.Table, players: int) -> list[Estimate]:
    """Per line-up entry (player A, B, ...): its score wherever it sat, with its 95% Wilson interval."""
    totals = [0.0] * players
    counts = [0] * players
    for returns, entries in zip(_returns(table), table.column("entries").to_pylist(), strict=True):
        for score, entry in zip(game_scores(returns), entries, strict=True):
            totals[entry] += score
            counts[entry] += 1
    return [proportion(f"score player {entry_letter(k)}", totals[k], counts[k]) for k in range(players)]


def entry_letter(entry: int) -> str:
    """A line-up entry's letter: A for the first, B for the second, ..."""
    return chr(ord("A") + entry) if entry < 26 else str(entry)


def advantage_p1(table: pa.Table) -> Estimate:
    """AdvantageP1: the first seat's score (a draw half a win) with its Wilson interval.

    It measures the seat, not a player, when every player sits first equally
    often: seats rotated (the default) over a multiple of the player count, or
    a mirror line-up. For the same deals with the seats swapped, play every
    seed in every rotation (``rotate = "paired"``): :func:`deals` then gives
    the figure over the deals.
    """
    scores = [game_scores(returns)[0] for returns in _returns(table)]
    return proportion("AdvantageP1", sum(scores), len(scores))


def balance(table: pa.Table, players: int, *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> Estimate:
    """Balance: the largest difference between two seats' scores (0: balanced), with a percentile bootstrap interval.

    The games are resampled with replacement ``resamples`` times (seeded); the
    interval holds the 2.5th to the 97.5th percentile of the resampled figure.
    """
    vectors = [tuple(game_scores(returns)) for returns in _returns(table)]
    n = len(vectors)
    if n == 0 or players < 2:
        return Estimate("Balance", 0.0, 0.0, 0.0, "bootstrap", n)
    low, high = bootstrap_interval(vectors, _spread, resamples=resamples, seed=seed)
    return Estimate("Balance", _spread(Counter(vectors)), low, high, "bootstrap", n)


def _spread(counts: Mapping[tuple[float, ...], int]) -> float:
    """The largest minus the smallest seat score over games counted by their score vectors."""
    n = sum(counts.values())
    seats = len(next(iter(counts)))
    means = [sum(count * shape[s] for shape, count in counts.items()) / n for s in range(seats)]
    return max(means) - min(means)


def drawishness(table: pa.Table) -> Estimate:
    """Drawishness: the share of games drawn (every seat's return 0), with its Wilson interval."""
    returns = _returns(table)
    return proportion("Drawishness", sum(is_draw(r) for r in returns), len(returns))


def completion(table: pa.Table) -> Estimate:
    """Completion: the share of games decided in play, before the turn or round limit, with its Wilson interval."""
    ended = table.column("ended_by").to_pylist()
    return proportion("Completion", ended.count("play"), len(ended))


def timeouts(table: pa.Table) -> Estimate:
    """Timeouts: the share of games ended by the turn or round limit, with its Wilson interval."""
    ended = table.column("ended_by").to_pylist()
    return proportion("Timeouts", ended.count("limit"), len(ended))


def duration(table: pa.Table) -> tuple[list[Estimate], list[Histogram]]:
    """Duration: mean moves (and rounds, where the game has them) with normal intervals, their spread and histograms."""
    estimates: list[Estimate] = []
    histograms: list[Histogram] = []
    for column in ("moves", "rounds"):
        values = [float(v) for v in table.column(column).to_pylist() if v is not None]
        if not values:
            continue
        estimates.append(mean_estimate(f"Duration {column}", values))
        spread = standard_deviation(values)
        estimates.append(Estimate(f"Duration {column} sd", spread, spread, spread, "-", len(values)))
        histograms.append(histogram(f"Duration {column}", values))
    return estimates, histograms


def histogram(name: str, values: Sequence[float], bins: int = HISTOGRAM_BINS) -> Histogram:
    """Equal-width bins from the smallest to the largest value (whole-number widths, at most ``bins``)."""
    low, high = min(values), max(values)
    width = max(1.0, math.ceil((high - low + 1) / bins))
    count = max(1, math.ceil((high - low + 1) / width))
    edges = [low + i * width for i in range(count + 1)]
    counts = [0] * count
    for value in values:
        counts[min(count - 1, int((value - low) // width))] += 1
    return Histogram(name, edges, counts)


def declared_metrics(table: pa.Table) -> list[Estimate]:
    """The game's own metrics (its contract's ``metrics``, the ``metric_<name>`` columns): means with normal intervals."""
    found = []
    for name in table.column_names:
        if name.startswith(METRIC_PREFIX):
            values = [float(v) for v in table.column(name).to_pylist() if v is not None]
            found.append(mean_estimate(name, values))
    return found


# -- the metrics read from replays ----------------------------------------------------------------------------------
def lead_change(traces: Iterable[Trace]) -> Estimate:
    """LeadChange: per game, how often the leader (the one seat the evaluation puts strictly first) changes, per move.

    A game's figure is its changes of leader over its moves (after the first);
    the estimate is the mean over games, with a normal interval.
    """
    return mean_estimate("LeadChange", [t.lead_changes / max(1, t.moves - 1) for t in traces])


def drama(traces: Iterable[Trace]) -> Estimate:
    """Drama: in games with one winner, how far behind the leader the eventual winner was when it was not leading.

    A game's figure is the mean, over the positions where another seat led, of
    the leader's evaluation minus the winner's (0 when the winner always led or
    tied); the estimate is the mean over games with one winner, normal interval.
    """
    return mean_estimate("Drama", [t.drama for t in traces if t.drama is not None])


def branching_factor(traces: Iterable[Trace]) -> Estimate:
    """BranchingFactor: legal actions per decision, the mean over games of each game's mean, normal interval."""
    return mean_estimate("BranchingFactor", [t.legal / t.decisions for t in traces if t.decisions])


def decision_factor(traces: Iterable[Trace]) -> Estimate:
    """DecisionFactor: legal actions per decision counting only real choices (two or more legal actions)."""
    return mean_estimate("DecisionFactor", [t.legal_choices / t.choices for t in traces if t.choices])


def usage(traces: Sequence[Trace], table: pa.Table) -> list[Usage]:
    """For every action kind (``action:<first word>``) and card (``card:<name>``): how often chosen when legal, and with what result.

    ``traces`` are the games of ``table``, in its order.

    ``rate``: chosen / legal over all decisions (Wilson); ``with_it`` and
    ``without``: the score of a seat in the games where it played the thing at
    least once and where it did not (Wilson), and their difference (Newcombe).
    """
    scores = [game_scores(returns) for returns in _returns(table)]
    names = sorted({name for trace in traces for seat in trace.usage for name in seat})
    return [_usage_of(name, traces, scores) for name in names]


def _usage_of(name: str, traces: Sequence[Trace], scores: Sequence[list[float]]) -> Usage:
    """``traces`` and ``scores`` are in the table's order, a game each."""
    legal = chosen = 0
    played: list[float] = []
    unplayed: list[float] = []
    for trace, game in zip(traces, scores, strict=True):
        for seat, counts in enumerate(trace.usage):
            was_legal, was_chosen = counts.get(name, (0, 0))
            legal += was_legal
            chosen += was_chosen
            (played if was_chosen else unplayed).append(game[seat])
    with_it = proportion(f"{name} score when played", sum(played), len(played))
    without = proportion(f"{name} score when not", sum(unplayed), len(unplayed))
    difference = difference_of_proportions(f"{name} score difference", with_it, without)
    return Usage(name, legal, chosen, proportion(f"{name} chosen when legal", chosen, legal), with_it, without, difference)


# -- everything -----------------------------------------------------------------------------------------------------
def table_metrics(table: pa.Table, players: int, *, paired: Deals | None = None) -> tuple[list[Estimate], list[Histogram]]:
    """Every metric read from ``games.parquet`` alone, and the Duration histograms (with a paired run's deals, their figures)."""
    durations, histograms = duration(table)
    estimates = [
        *outcome_rates(table, players),
        *player_scores(table, players),
        advantage_p1(table),
        *(() if paired is None else (paired.advantage, paired.changed)),
        balance(table, players),
        drawishness(table),
        completion(table),
        timeouts(table),
        *durations,
        *declared_metrics(table),
    ]
    return estimates, histograms


def replay_metrics(traces: Sequence[Trace]) -> list[Estimate]:
    """The metrics read from replaying the records: LeadChange, Drama, BranchingFactor, DecisionFactor."""
    return [lead_change(traces), drama(traces), branching_factor(traces), decision_factor(traces)]


def metrics(results: Results | str | Path, *, replay: bool = False) -> MetricsTable:
    """Every metric of a results folder (or :class:`~astrarium.lab.runner.Results`), each with its 95% interval.

    With ``replay`` the records are replayed for LeadChange, Drama,
    BranchingFactor, DecisionFactor and the usage of actions and cards
    (cached in the folder, so only new games are replayed next time).
    """
    from astrarium.lab.runner import load
    from astrarium.lab.trace import traces_of

    found = results if not isinstance(results, str | Path) else load(results)
    players = len(found.lineup)
    paired = deals(found.table, players) if found.paired else None
    estimates, histograms = table_metrics(found.table, players, paired=paired)
    table = MetricsTable(found.experiment, found.command, found.table.num_rows, estimates, histograms)
    table.seating_changed = [] if paired is None else paired.seeds
    if replay:
        traces = traces_of(found)
        table.estimates += replay_metrics(traces)
        table.usage = usage(traces, found.table)
    return table
