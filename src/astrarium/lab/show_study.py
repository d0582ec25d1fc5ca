"""Printing sweeps and tunes at the terminal (``astrarium lab run`` of a file with a ``[sweep]`` or ``[tune]`` block)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astrarium.lab.estimates import Estimate
from astrarium.lab.show import figure, interval
from astrarium.lab.sweep import FIGURES, SweepResults, point_figures
from astrarium.lab.tune import Target, Trial, TuneResults
from astrarium.lab.variables import settings_text


def with_interval(estimate: Estimate) -> str:
    """``0.512 (0.480 to 0.544)``, or ``-`` when there is nothing to measure."""
    return figure(estimate.value) if estimate.games == 0 else f"{figure(estimate.value)} ({interval(estimate)})"


def sweep_table(found: SweepResults) -> Table:
    """A row a point: its settings, games, and each figure with its 95% interval."""
    table = Table(title=f"Sweep of {escape(str(found.manifest.get('source', '')))}: a row a point, 95% intervals")
    for key in found.keys:
        table.add_column(escape(key))
    for heading in ("games", *FIGURES):
        table.add_column(heading, justify="right")
    for settings, results in found.points:
        figures = point_figures(results)
        table.add_row(*(escape(str(settings[k])) for k in found.keys), f"{results.table.num_rows:,}", *(with_interval(e) for e in figures))
    return table


def show_sweep(console: Console, found: SweepResults) -> None:
    """Print the sweep's table and the command that made it."""
    console.print(sweep_table(found))
    console.print(f"Results in {escape(str(found.folder))}: a folder a point (sweep.json lists them); astrarium lab report DIR --html FILE")
    console.print(f"command: {escape(found.command)}", soft_wrap=True)


def trial_line(trial: Trial, targets: Sequence[Target]) -> str:
    """One finished trial in a line: settings, each target's estimate and how far outside its band, games."""
    figures = "; ".join(
        f"{t.name} {with_interval(e)}" + (f" {figure(d)} outside [{t.low:g}, {t.high:g}]" if d > 0 else " inside")
        for t, e, d in zip(targets, trial.estimates, trial.distances, strict=True)
    )
    stopped = ", stopped early: clearly out" if trial.stopped else ""
    return f"trial {trial.number}: {settings_text(trial.settings)} | {figures} | {trial.games:,} games{stopped}"


def confirmed_table(found: TuneResults) -> Table:
    """The best settings measured again on fresh seeds: each target's estimate with its 95% interval, in its band or not."""
    games = found.manifest["identity"]["confirm"]
    table = Table(title=f"The best settings, confirmed on {games:,} fresh games each (95% intervals)")
    table.add_column("trial", justify="right")
    table.add_column("settings")
    for target in found.targets:
        table.add_column(escape(f"{target.name} [{target.low:g}, {target.high:g}]"), justify="right")
    for kept in found.confirmed:
        cells = [with_interval(e) + ("" if inside else " (outside)") for e, inside in zip(kept.estimates, kept.inside, strict=True)]
        table.add_row(str(kept.trial), escape(settings_text(kept.settings)), *cells)
    return table


def show_tune(console: Console, found: TuneResults) -> None:
    """Print the confirmed best settings, the command to reproduce each, and the tune's own command."""
    console.print(f"{len(found.trials):,} trials finished.")
    console.print(confirmed_table(found))
    for kept in found.confirmed:
        console.print(f"reproduce trial {kept.trial}: {escape(kept.command)}", soft_wrap=True)
    console.print(f"Results in {escape(str(found.folder))}: trials/, confirm/, study.log; astrarium lab report DIR --html FILE")
    console.print(f"command: {escape(found.command)}", soft_wrap=True)
