"""The report's sections for a sweep folder and a tune folder (``astrarium lab report DIR``).

A sweep: a table with a row a grid point (its settings, games, seat 0's score
and the share decided in play with 95% Wilson intervals, the mean moves and
rounds with normal intervals) and the sweep's curves, a small plot a figure
against the first key, one line for each setting of the other keys. A tune:
the question, each target's estimate by trial against its band, the trials'
table, and the best settings confirmed on fresh seeds with their intervals
and the commands that reproduce them. Plots are Vega-Altair drawn to inline
SVG by vl-convert, as in the rest of the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from astrarium.lab.estimates import Estimate
from astrarium.lab.page import html_table, percent
from astrarium.lab.sweep import FIGURES, SweepResults, is_sweep_folder, load_sweep_results, numeric, point_figures
from astrarium.lab.tune import TuneResults, is_tune_folder, load_tune_results
from astrarium.lab.variables import settings_text

#: The sweep figures that are shares (shown in percent); the others are means.
SHARES = ("seat 0 score", "decided")
COLOUR = "#4c78a8"


def is_study_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds a sweep or a tune rather than one run."""
    return is_sweep_folder(folder) or is_tune_folder(folder)


def study_section(number: int, folder: str | Path) -> str:
    """The section of a sweep or a tune folder (a DataError if it is neither)."""
    if is_sweep_folder(folder):
        return sweep_section(number, load_sweep_results(folder))
    return tune_section(number, load_tune_results(folder))


def shown(estimate: Estimate) -> str:
    """A share in percent with its interval, a mean with one decimal and its interval, ``-`` for nothing measured."""
    if estimate.games == 0 or estimate.value != estimate.value:
        return "-"
    if estimate.method == "Wilson":
        return percent(estimate.value, (estimate.low, estimate.high))
    return f"{estimate.value:.1f} ({estimate.low:.1f}-{estimate.high:.1f})"


def _svg(chart: Any) -> str:
    import vl_convert

    return str(vl_convert.vegalite_to_svg(chart.to_dict()))


def _plotted(draw: Any, *args: Any) -> str:
    """A plot as inline SVG, or a note saying what to install."""
    try:
        return f'<div class="plots">{draw(*args)}</div>'
    except ImportError as exc:
        return f"<p>Plots need altair and vl-convert-python ({escape(str(exc.name))}): pip install 'astrarium[lab]'.</p>"


# -- sweeps -----------------------------------------------------------------------------------------------------


def sweep_table(found: SweepResults) -> str:
    """A row a point: its settings, games and figures with their 95% intervals."""
    rows = []
    for settings, results in found.points:
        figures = point_figures(results)
        rows.append([*(str(settings[k]) for k in found.keys), f"{results.table.num_rows:,}", *(shown(e) for e in figures)])
    return html_table([*found.keys, "games", *FIGURES], rows)


def sweep_svg(found: SweepResults) -> str:
    """The sweep's curves: a small plot a figure, the first key across, a line for each setting of the other keys."""
    import altair as alt

    first, others = found.keys[0], found.keys[1:]
    across = [settings[first] for settings, _ in found.points]
    kind = "Q" if numeric(across) else "N"
    data = []
    for settings, results in found.points:
        series = settings_text({k: settings[k] for k in others}) or "all"
        x = settings[first] if kind == "Q" else str(settings[first])
        for estimate in point_figures(results):
            if estimate.games and estimate.value == estimate.value:
                data.append(
                    {"x": x, "series": series, "figure": estimate.name, "value": estimate.value, "low": estimate.low, "high": estimate.high}
                )
    charts = []
    for name in FIGURES:
        rows = [d for d in data if d["figure"] == name]
        if not rows:
            continue
        base = alt.Chart(alt.Data(values=rows)).encode(
            x=alt.X(f"x:{kind}", title=first, sort=None), color=alt.Color("series:N", title=", ".join(others) or None)
        )
        line = base.mark_line(point=True).encode(y=alt.Y("value:Q", title=name))
        bars = base.mark_errorbar(ticks=True).encode(y=alt.Y("low:Q", title=name), y2="high:Q")
        charts.append((line + bars).properties(width=260, height=180, title=f"{name} (95% intervals)"))
    return _svg(alt.hconcat(*charts) if len(charts) < 3 else alt.vconcat(alt.hconcat(*charts[:2]), alt.hconcat(*charts[2:])))


def sweep_section(number: int, found: SweepResults) -> str:
    """A sweep folder's section: what was varied, the table, the curves, how the games were made."""
    keys = ", ".join(found.keys)
    games = sorted({results.table.num_rows for _, results in found.points})
    counted = " to ".join(f"{g:,}" for g in (games[0], games[-1])) if len(games) > 1 else f"{games[0]:,}" if games else "no"
    question = (
        f"How do the figures change with {keys}? {len(found.points)} of {len(found.manifest['points'])} grid points run, "
        f"{counted} games each, every point on the same seeds (common random numbers)."
    )
    return (
        f'<section id="study-{number}"><h2>Sweep: {escape(found.folder.name)}</h2><p class="question">{escape(question)}</p>'
        f"<h3>A row a point</h3>{sweep_table(found)}"
        f"<h3>The sweep's curves</h3>{_plotted(sweep_svg, found) if found.points else '<p>No point has been run yet.</p>'}"
        f"<h3>How these games were made</h3><dl><dt>command</dt><dd><code>{escape(found.command)}</code></dd>"
        f"<dt>results folder</dt><dd><code>{escape(str(found.folder))}</code> (a folder a point; sweep.json lists them)</dd></dl></section>"
    )


# -- tunes ------------------------------------------------------------------------------------------------------


def trials_svg(found: TuneResults) -> str:
    """Each target's estimate by trial with its interval, its band shaded, the confirmed trials marked."""
    import altair as alt

    best = set(found.best)
    charts = []
    for index, target in enumerate(found.targets):
        rows = [
            {
                "trial": t.number,
                "value": t.estimates[index].value,
                "low": t.estimates[index].low,
                "high": t.estimates[index].high,
                "which": "confirmed" if t.number in best else "stopped early" if t.stopped else "played out",
                "settings": settings_text(t.settings),
            }
            for t in found.trials
        ]
        band = alt.Chart(alt.Data(values=[{"low": target.low, "high": target.high}])).mark_rect(opacity=0.15, color="green")
        band = band.encode(y="low:Q", y2="high:Q")
        base = alt.Chart(alt.Data(values=rows)).encode(x=alt.X("trial:Q", title="trial"))
        points = base.mark_point(filled=True, size=60).encode(
            y=alt.Y("value:Q", title=target.name), color=alt.Color("which:N", title=None), tooltip=["settings:N"]
        )
        bars = base.mark_errorbar(color="#888").encode(y=alt.Y("low:Q", title=target.name), y2="high:Q")
        title = f"{target.name} by trial, band [{target.low:g}, {target.high:g}] shaded"
        charts.append((band + bars + points).properties(width=420, height=180, title=title))
    return _svg(alt.vconcat(*charts))


def trials_table(found: TuneResults) -> str:
    rows = []
    for trial in found.trials:
        figures = [
            f"{shown(e)}; {d:.3g} out" if d > 0 else f"{shown(e)}; inside" for e, d in zip(trial.estimates, trial.distances, strict=True)
        ]
        stopped = "clearly out" if trial.stopped else ""
        rows.append([str(trial.number), settings_text(trial.settings), *figures, f"{trial.games:,}", stopped])
    headings = ["trial", "settings", *(f"{t.name} [{t.low:g}, {t.high:g}]" for t in found.targets), "games", "stopped early"]
    return html_table(headings, rows)


def confirmed_table(found: TuneResults) -> str:
    rows = []
    for kept in found.confirmed:
        figures = [shown(e) + ("" if inside else " (outside)") for e, inside in zip(kept.estimates, kept.inside, strict=True)]
        rows.append([str(kept.trial), settings_text(kept.settings), *figures])
    return html_table(["trial", "settings", *(f"{t.name} [{t.low:g}, {t.high:g}]" for t in found.targets)], rows)


def _commands(found: TuneResults) -> str:
    items = [f"<dt>reproduce trial {k.trial}</dt><dd><code>{escape(k.command)}</code></dd>" for k in found.confirmed]
    items.append(f"<dt>the tune</dt><dd><code>{escape(found.command)}</code></dd>")
    return "<dl>" + "".join(items) + "</dl>"


def tune_section(number: int, found: TuneResults) -> str:
    """A tune folder's section: the question, the trials (plot and table), the confirmation and the commands."""
    identity = found.manifest["identity"]
    bands = "; ".join(f"{t.name} in [{t.low:g}, {t.high:g}]" for t in found.targets)
    question = (
        f"Which settings of {', '.join(identity['space'])} put {bands}? {len(found.trials)} trials of at most "
        f"{identity['games']:,} games on the same seeds; the best {len(found.confirmed)} measured again on "
        f"{identity['confirm']:,} fresh games."
    )
    answer = "; ".join(
        f"trial {k.trial} ({settings_text(k.settings)}): "
        + ", ".join(f"{t.name} {shown(e)}" for t, e in zip(found.targets, k.estimates, strict=True))
        + (" - every target in its band" if all(k.inside) else " - not every target in its band")
        for k in found.confirmed
    )
    plot = _plotted(trials_svg, found) if found.trials else "<p>No trial has finished yet.</p>"
    return (
        f'<section id="study-{number}"><h2>Tune: {escape(found.folder.name)}</h2><p class="question">{escape(question)}</p>'
        f'<p class="answer">{escape(answer or "Not confirmed yet: run the same command again to finish.")}</p>'
        f"<h3>The best settings, confirmed on fresh seeds (95% intervals)</h3>{confirmed_table(found)}"
        f"<h3>The trials</h3>{plot}{trials_table(found)}"
        f"<h3>How these games were made</h3>{_commands(found)}</section>"
    )


def study_names(folders: Sequence[str | Path]) -> list[str]:
    """The names of the sweep and tune folders among ``folders`` (for the page's title)."""
    return [Path(f).name for f in folders if is_study_folder(f)]
