"""Results as Markdown tables, for documents that keep each figure beside the command that made it.

``astrarium lab report DIR... --markdown FILE`` writes one table with a row a
results folder (the experiment, its line-up and changed options, games and
seeds, each seat's wins, seat 0's and each player's score, the share decided
in play, the mean length, and the means of the game metrics asked for), then,
unless ``brief``, each folder's metrics and, when its records were replayed
(``astrarium lab metrics DIR --replay``), the usage of every action kind and
card. ``astrarium lab compare A B [A B ...] --markdown FILE`` writes one row a
pair of folders: a quantity's paired difference, B minus A.

Every table is followed by what made it: the commands the lab recorded, the
date the games were saved, astrarium's version and build, Python, and the
machine writing the tables (a results folder does not record the machine its
games were played on; write the tables where the games were played).

```python
from astrarium.lab.markdown import results_markdown, comparison_markdown
text = results_markdown(["results/a", "results/b"], metric_names=["rescued"])
```
"""

from __future__ import annotations

import datetime as dt
import os
import platform
from collections.abc import Sequence
from pathlib import Path

import astrarium
from astrarium.core.build import build_kind
from astrarium.core.errors import DataError
from astrarium.core.registry import get_game
from astrarium.lab.compare import Comparison, compare
from astrarium.lab.estimates import Estimate, mean_estimate
from astrarium.lab.metrics import MetricsTable, Usage, entry_letter, metrics
from astrarium.lab.play import METRIC_PREFIX
from astrarium.lab.runner import Results, load
from astrarium.lab.summary import Interval, Summary

#: The quantity a comparison row shows when none is asked for.
DEFAULT_QUANTITY = "score seat 0"


# -- cells -------------------------------------------------------------------------------------------------------


def cell(text: object) -> str:
    """Text safe in a Markdown table cell (a ``|`` escaped, no line breaks)."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def percent(rate: float, interval: Interval) -> str:
    """``52.0% (48.9–55.1)``: a share and its 95% interval, in percent."""
    return f"{rate * 100:.1f}% ({interval[0] * 100:.1f}–{interval[1] * 100:.1f})"


def estimate_text(estimate: Estimate) -> str:
    """A mean and its interval (``6.52 (6.21–6.83)``), or a share as :func:`percent` for the shares the lab names."""
    if estimate.games == 0:
        return "—"
    if estimate.method == "Wilson":
        return percent(estimate.value, estimate.interval)
    if estimate.low == estimate.high:
        return f"{estimate.value:.2f}"
    return f"{estimate.value:.2f} ({estimate.low:.2f}–{estimate.high:.2f})"


def signed(estimate: Estimate, *, share: bool) -> str:
    """A paired difference with its interval: ``+3.3% (−1.9–+8.5)`` for shares, ``+0.52 (−0.10–+1.14)`` otherwise."""
    if share:
        return f"{estimate.value * 100:+.1f}% ({estimate.low * 100:+.1f}–{estimate.high * 100:+.1f})"
    return f"{estimate.value:+.2f} ({estimate.low:+.2f}–{estimate.high:+.2f})"


def table(headings: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A GitHub-flavoured Markdown table."""
    lines = ["| " + " | ".join(cell(h) for h in headings) + " |", "| " + " | ".join("---" for _ in headings) + " |"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# -- what made the figures ---------------------------------------------------------------------------------------


def saved_on(results: Results) -> str:
    """The UTC date the folder's last counted games were saved (its newest part file), ``YYYY-MM-DD``."""
    parts = [results.folder / "games.parquet" / name for name in results.manifest.get("parts", [])]
    times = [p.stat().st_mtime for p in parts if p.exists()]
    if not times:
        return "no games"
    return dt.datetime.fromtimestamp(max(times), tz=dt.UTC).date().isoformat()


def machine_line() -> str:
    """astrarium's version and build, Python, the platform and the CPU count of the machine writing the tables."""
    return (
        f"astrarium {astrarium.__version__}, {build_kind()} build, Python {platform.python_version()}, "
        f"{platform.platform()}, {os.cpu_count()} CPUs"
    )


def made_by(results_list: Sequence[Results], command: str) -> str:
    """The lines under a table: the commands that played the games, when they were saved, and what wrote the table."""
    dates = sorted({saved_on(r) for r in results_list})
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    lines = ["```", *(r.command for r in results_list)]
    if command:
        lines.append(command)
    lines.append("```")
    lines.append(f"Games saved {when} (UTC); tables written with {machine_line()}.")
    return "\n".join(lines)


# -- one row a folder --------------------------------------------------------------------------------------------


def changed_options(results: Results) -> str:
    """The options that differ from the game's defaults, ``name=value`` (``—`` when none)."""
    identity = results.manifest["experiment"]
    options = dict(identity.get("options", {}))
    try:
        defaults = get_game(identity["game"]).resolve_options(len(identity["lineup"]), {})
    except (ValueError, KeyError):
        defaults = {}
    changed = [f"{k}={v}" for k, v in options.items() if defaults.get(k, object()) != v]
    return ", ".join(changed) or "—"


def lineup_text(lineup: Sequence[str]) -> str:
    """``greedy`` ×2, or ``mcts:iterations=300,depth=0`` – ``orbital-turtle``."""
    if len(set(lineup)) == 1:
        return f"`{lineup[0]}` ×{len(lineup)}"
    return " – ".join(f"`{spec}`" for spec in lineup)


def scores_by_player(summary: Summary) -> str:
    """Each line-up entry's score wherever it sat (``—`` for one player against itself)."""
    if len(set(summary.lineup)) == 1:
        return "—"
    return "; ".join(f"{entry_letter(p.index)} {percent(p.score, p.score_interval)}" for p in summary.players)


def metric_mean(results: Results, found: MetricsTable, name: str) -> str:
    """The mean of the game's metric ``name`` (``rescued`` or ``metric_rescued``) with its interval, ``—`` if absent.

    A metric kept per seat (``reached_0``, ``reached_1``, ...) asked for without its seat (``reached``) is given
    per line-up entry, wherever it sat: ``A 0.97 (0.94–0.99); B 0.00 (0.00–0.00)``.
    """
    column = name if name.startswith(METRIC_PREFIX) else METRIC_PREFIX + name
    by_name = found.as_dict()
    if column in by_name:
        return estimate_text(by_name[column])
    by_entry = entry_means(results, column)
    return "; ".join(f"{entry_letter(k)} {estimate_text(e)}" for k, e in enumerate(by_entry)) or "—"


def entry_means(results: Results, column: str) -> list[Estimate]:
    """The per-seat columns ``column_<seat>`` read per line-up entry (through each game's ``entries``), means each."""
    players = len(results.lineup)
    names = [f"{column}_{seat}" for seat in range(players)]
    if not all(n in results.table.column_names for n in names):
        return []
    values: list[list[float]] = [[] for _ in range(players)]
    seated = results.table.column("entries").to_pylist()
    by_seat = [results.table.column(n).to_pylist() for n in names]
    for game, entries in enumerate(seated):
        for seat, entry in enumerate(entries):
            value = by_seat[seat][game]
            if value is not None:
                values[entry].append(float(value))
    return [mean_estimate(f"{column} {entry_letter(k)}", v) for k, v in enumerate(values)]


def overview_row(results: Results, metric_names: Sequence[str]) -> list[str]:
    """One folder's main figures."""
    summary = results.summary()
    seeds = results.table.column("seed").to_pylist()
    found = metrics(results) if metric_names else None
    rounds = "—" if summary.mean_rounds is None else f"{summary.mean_rounds:.1f}"
    row = [
        Path(results.experiment).stem if results.experiment != "inline" else results.folder.name,
        lineup_text(summary.lineup),
        changed_options(results),
        f"{summary.games:,} ({min(seeds)}–{max(seeds)}{', paired' if results.paired else ''})" if seeds else "0",
        ", ".join(f"{s.wins / s.games * 100:.1f}%" if s.games else "—" for s in summary.seats),
        percent(summary.first_seat.score, summary.first_seat.score_interval),
        scores_by_player(summary),
        percent(*summary.by_play_rate),
        f"{summary.mean_moves:.1f}",
        rounds,
    ]
    return row + [metric_mean(results, found, name) if found is not None else "—" for name in metric_names]


OVERVIEW_HEADINGS = (
    "experiment",
    "line-up",
    "options",
    "games (seeds)",
    "wins by seat (seat 0 first)",
    "seat 0 score (95%)",
    "score by player (95%)",
    "decided in play (95%)",
    "mean moves",
    "mean rounds",
)


def overview(results_list: Sequence[Results], metric_names: Sequence[str] = ()) -> str:
    """The table with a row a folder; ``metric_names`` adds a column for each game metric's mean."""
    headings = [*OVERVIEW_HEADINGS, *(name.removeprefix(METRIC_PREFIX) for name in metric_names)]
    return table(headings, [overview_row(r, metric_names) for r in results_list])


# -- one folder in full ------------------------------------------------------------------------------------------


def estimates_table(found: MetricsTable) -> str:
    """Every metric of a folder with its interval and how the interval was made."""
    rows = [[e.name, estimate_text(e), e.method, f"{e.games:,}"] for e in found.estimates]
    return table(["metric", "value (95%)", "interval", "games"], rows)


def usage_table(usage: Sequence[Usage]) -> str:
    """How often each action kind and card was chosen when legal, and the score with and without it."""
    rows = [
        [
            u.name,
            f"{u.legal:,}",
            percent(u.rate.value, u.rate.interval),
            estimate_text(u.with_it),
            estimate_text(u.without),
            signed(u.difference, share=True),
        ]
        for u in usage
    ]
    return table(["action or card", "legal in", "chosen when legal", "score played", "score not played", "difference"], rows)


def replayed(results: Results) -> bool:
    """Whether the folder's records were replayed (``astrarium lab metrics DIR --replay``) and cached."""
    return (results.folder / "metrics" / "replay.json.gz").exists()


def details(results: Results) -> str:
    """One folder's metrics and, when its records were replayed, its usage table."""
    found = metrics(results, replay=replayed(results))
    parts = [f"#### {cell(Path(results.experiment).stem)}", "", estimates_table(found)]
    if found.usage:
        parts += ["", usage_table(found.usage)]
    return "\n".join(parts)


def results_markdown(folders: Sequence[str | Path], *, command: str = "", metric_names: Sequence[str] = (), brief: bool = False) -> str:
    """The Markdown of results folders: the overview, each folder's details unless ``brief``, and what made them."""
    results_list = [load(folder) for folder in folders]
    _check_metrics(results_list, metric_names)
    parts = [overview(results_list, metric_names)]
    if not brief:
        parts += [details(r) for r in results_list]
    parts.append(made_by(results_list, command))
    return "\n\n".join(parts) + "\n"


def _check_metrics(results_list: Sequence[Results], metric_names: Sequence[str]) -> None:
    """A DataError naming a metric asked for that no folder has (by itself, or per seat as ``name_0``, ``name_1``, ...)."""
    columns = {c for r in results_list for c in r.table.column_names if c.startswith(METRIC_PREFIX)}
    for name in metric_names:
        column = name if name.startswith(METRIC_PREFIX) else METRIC_PREFIX + name
        if column not in columns and f"{column}_0" not in columns:
            known = ", ".join(sorted(c.removeprefix(METRIC_PREFIX) for c in columns)) or "none"
            raise DataError(str(results_list[0].folder), "--metric", f"no game metric {name!r} in these folders (there are: {known})")


# -- paired comparisons ------------------------------------------------------------------------------------------


def comparison_row(found: Comparison, a: Results, b: Results, quantity: str) -> list[str]:
    """One pair: A's and B's experiments, the seeds both hold, B − A of ``quantity`` and the seeds whose winners changed.

    Paired folders are compared game by game (seed and rotation): the counts then say ``games``.
    """
    difference = found.get(quantity)
    share = quantity.startswith(("score ", "win ")) or quantity in ("Drawishness", "Completion")
    return [
        Path(a.experiment).stem,
        Path(b.experiment).stem,
        f"{found.seeds:,}{' games' if found.by_rotation else ''}",
        signed(difference, share=share),
        f"{len(found.changed):,}{' games' if found.by_rotation else ''}",
    ]


def comparison_markdown(folders: Sequence[str | Path], *, quantity: str = DEFAULT_QUANTITY, command: str = "") -> str:
    """Pairs of folders (A, B, A, B, ...) as one table: B minus A of ``quantity``, paired by seed, with its 95% interval."""
    if len(folders) < 2 or len(folders) % 2:
        raise DataError("compare", "folders", f"give folders in pairs, A then B; got {len(folders)}")
    results_list = [load(folder) for folder in folders]
    rows = []
    for a, b in zip(results_list[::2], results_list[1::2], strict=True):
        found = compare(a, b)
        try:
            rows.append(comparison_row(found, a, b, quantity))
        except KeyError as exc:
            raise DataError(str(b.folder), "--quantity", str(exc.args[0])) from None
    headings = ["A", "B", "seeds in both", f"B − A: {quantity} (95%)", "seeds whose winners changed"]
    return table(headings, rows) + "\n\n" + made_by(results_list, command) + "\n"


def write_markdown(text: str, out: str | Path) -> Path | None:
    """Write ``text`` to ``out`` (``-``: standard output, returning None)."""
    if str(out) == "-":
        print(text, end="")
        return None
    path = Path(out)
    path.write_text(text, encoding="utf-8")
    return path
