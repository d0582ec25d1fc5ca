"""Printing the lab's metrics, comparisons and stopping-rule answers as tables (for ``astrarium lab metrics`` and ``compare``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astrarium.lab.compare import Comparison
from astrarium.lab.estimates import Estimate
from astrarium.lab.metrics import Histogram, MetricsTable, Usage

#: Bars of a histogram line, at most this wide.
BAR_WIDTH = 30


def figure(value: float) -> str:
    """A number as a table shows it: 3 decimals below 10, 1 decimal above."""
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.3f}" if abs(value) < 10 else f"{value:,.1f}"


def interval(estimate: Estimate) -> str:
    return "" if estimate.method == "-" else f"{figure(estimate.low)} to {figure(estimate.high)}"


def metrics_table(found: MetricsTable) -> Table:
    """Every estimate: name, value, 95% interval, how the interval was made, games."""
    table = Table(title=f"{found.games:,} games of {escape(found.experiment)}: metrics with 95% intervals")
    for heading in ("metric", "value", "95% interval", "interval by", "games"):
        table.add_column(heading, justify="left" if heading in ("metric", "interval by") else "right")
    for estimate in found.estimates:
        table.add_row(escape(estimate.name), figure(estimate.value), interval(estimate), estimate.method, f"{estimate.games:,}")
    return table


def histogram_lines(histogram: Histogram) -> list[str]:
    """A histogram as text lines: each bin's range, count and a bar."""
    most = max(histogram.counts) or 1
    lines = [f"{histogram.name}:"]
    for i, count in enumerate(histogram.counts):
        low, high = histogram.edges[i], histogram.edges[i + 1] - 1
        label = f"{low:g}" if high <= low else f"{low:g}-{high:g}"
        lines.append(f"  {label:>11} {count:>7,} {'#' * round(BAR_WIDTH * count / most)}")
    return lines


def usage_table(usage: list[Usage]) -> Table:
    """Every action kind and card: chosen when legal, and the mover's score in games with and without it."""
    table = Table(title="Usage: chosen when legal; the seat's score in games where it played it, and where it did not (95% intervals)")
    for heading in ("action or card", "legal", "chosen when legal", "score with", "score without", "difference"):
        table.add_column(heading, justify="left" if heading == "action or card" else "right")
    for found in usage:
        table.add_row(
            escape(found.name),
            f"{found.legal:,}",
            _with_interval(found.rate),
            _with_interval(found.with_it),
            _with_interval(found.without),
            _with_interval(found.difference),
        )
    return table


def _with_interval(estimate: Estimate) -> str:
    return f"{figure(estimate.value)} ({interval(estimate)})"


def show_metrics(console: Console, found: MetricsTable) -> None:
    """Print a folder's metrics, histograms and usage, and what made them."""
    console.print(metrics_table(found))
    for histogram in found.histograms:
        console.print("\n".join(histogram_lines(histogram)), markup=False)
    if found.usage:
        console.print(usage_table(found.usage))
    if "Seating changed" in found.as_dict():
        deals, changed = found.get("Seating changed").games, found.seating_changed
        console.print(f"The seating changed the result on {len(changed):,} of {deals:,} deals (seeds){_listed(changed)}")
    console.print(f"experiment: {escape(found.experiment)}", soft_wrap=True)
    console.print(f"command: {escape(found.command)}", soft_wrap=True)


def _listed(items: Sequence[object], most: int = 30) -> str:
    """``: 3, 8, 11 ...``: the first ``most`` items after a colon (nothing when there are none)."""
    shown = ", ".join(map(str, items[:most])) + (" ..." if len(items) > most else "")
    return f": {shown}" if shown else ""


def show_comparison(console: Console, found: Comparison) -> None:
    """Print B minus A for every metric, paired by seed (or by seed and rotation), and the games whose winners changed."""
    if found.by_rotation:
        title = f"B minus A on {found.seeds:,} common games (paired by seed and rotation, 95% normal intervals)"
        games = "games (seed:rotation)"
    else:
        title = f"B minus A on {found.seeds:,} common seeds (paired by seed, 95% normal intervals)"
        games = "seeds"
    changed = [":".join(map(str, key)) if isinstance(key, tuple) else str(key) for key in found.changed]
    table = Table(title=title)
    for heading in ("metric", "B - A", "95% interval", "games" if found.by_rotation else "seeds"):
        table.add_column(heading, justify="left" if heading == "metric" else "right")
    for estimate in found.differences:
        table.add_row(escape(estimate.name), figure(estimate.value), interval(estimate), f"{estimate.games:,}")
    console.print(table)
    console.print(f"Winners changed on {len(found.changed):,} of {found.seeds:,} {games}{_listed(changed)}")
    console.print(f"A: {escape(found.a)} ({escape(found.command_a)})", soft_wrap=True)
    console.print(f"B: {escape(found.b)} ({escape(found.command_b)})", soft_wrap=True)
