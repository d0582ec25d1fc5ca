"""Two results folders played on the same seeds (common random numbers), compared game by game.

Two rule sets, or two players, run on the same seeds meet the same deals and
the same chance: the difference of a metric is measured on each seed (B's
game minus A's) and averaged, which cancels much of the luck a comparison of
two separate averages would carry. Every paired difference comes with a 95%
normal interval (mean difference +- 1.96 standard errors of the differences),
and the seeds whose winners changed are listed.

Folders of one game a seed are paired by seed. When either folder plays every
seed in every rotation of the line-up (``rotate = "paired"``), games are
paired by seed and rotation: the same deal with the same seating.

```python
from astrarium import lab
found = lab.compare("results/rules-a", "results/rules-b")
found.get("score seat 0").value, found.changed
```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from astrarium.core.errors import DataError
from astrarium.lab.estimates import Estimate, game_scores, is_draw, mean_estimate
from astrarium.lab.metrics import entry_letter, named
from astrarium.lab.play import METRIC_PREFIX, row_key

if TYPE_CHECKING:
    from astrarium.lab.runner import Results

Row = Mapping[str, Any]
#: A per game quantity: a row of games.parquet to a number (None: the game has none).
Quantity = Callable[[Row], float | None]


@dataclass(slots=True)
class Comparison:
    """B minus A on the games both folders hold: the paired differences, and the games whose winners changed.

    ``seeds`` counts the pairs; ``changed`` holds their seeds, or (seed,
    rotation) keys when ``by_rotation`` (either folder paired).
    """

    a: str
    b: str
    command_a: str
    command_b: str
    seeds: int
    differences: list[Estimate]
    changed: list[int] | list[tuple[int, int]] = field(default_factory=list)
    by_rotation: bool = False

    def get(self, name: str) -> Estimate:
        """The paired difference called ``name`` (a KeyError naming the ones there are, if none is)."""
        return named(self.differences, name)


def quantities(players: int, metric_columns: Sequence[str]) -> dict[str, Quantity]:
    """Every per game quantity compared: seat and player scores, wins, draws, decided, length, the game's own metrics."""
    found: dict[str, Quantity] = {}
    for seat in range(players):
        found[f"score seat {seat}"] = _seat_score(seat)
        found[f"win seat {seat}"] = _seat_win(seat)
    for entry in range(players):
        found[f"score player {entry_letter(entry)}"] = _player_score(entry)
    found["Drawishness"] = lambda row: float(is_draw(row["returns"]))
    found["Completion"] = lambda row: float(row["ended_by"] == "play")
    found["Duration moves"] = lambda row: float(row["moves"])
    found["Duration rounds"] = lambda row: None if row["rounds"] is None else float(row["rounds"])
    for column in metric_columns:
        found[column] = _column(column)
    return found


def _seat_score(seat: int) -> Quantity:
    return lambda row: game_scores(row["returns"])[seat]


def _seat_win(seat: int) -> Quantity:
    return lambda row: float(row["returns"][seat] > 0)


def _player_score(entry: int) -> Quantity:
    return lambda row: game_scores(row["returns"])[list(row["entries"]).index(entry)]


def _column(name: str) -> Quantity:
    return lambda row: None if row.get(name) is None else float(row[name])


def paired_difference(name: str, pairs: Sequence[tuple[Row, Row]], quantity: Quantity) -> Estimate:
    """The mean over seeds of B's value minus A's, with its 95% normal interval (seeds where either lacks it left out)."""
    differences = []
    for a, b in pairs:
        x, y = quantity(a), quantity(b)
        if x is not None and y is not None:
            differences.append(y - x)
    return mean_estimate(name, differences)


def compare(a: Results | str | Path, b: Results | str | Path) -> Comparison:
    """B minus A for every metric, paired by seed (by seed and rotation when either is paired), and the games whose winners changed.

    A DataError if the folders share no game.
    """
    from astrarium.lab.runner import Results, load

    first = a if isinstance(a, Results) else load(a)
    second = b if isinstance(b, Results) else load(b)
    if len(first.lineup) != len(second.lineup):
        raise DataError(str(second.folder), "players", f"{len(second.lineup)} players against {len(first.lineup)}: not comparable")
    by_rotation = first.paired or second.paired
    rows_a = {_key(row, by_rotation): row for row in first.table.to_pylist()}
    rows_b = {_key(row, by_rotation): row for row in second.table.to_pylist()}
    shared = sorted(rows_a.keys() & rows_b.keys())
    if not shared:
        what = "game (seed and rotation)" if by_rotation else "seed"
        raise DataError(str(second.folder), "seeds", f"no {what} in common with {first.folder}: run both on the same seeds")
    pairs = [(rows_a[key], rows_b[key]) for key in shared]
    columns = [c for c in first.table.column_names if c.startswith(METRIC_PREFIX) and c in second.table.column_names]
    differences = [paired_difference(name, pairs, q) for name, q in quantities(len(first.lineup), columns).items()]
    changed = [key for key, (x, y) in zip(shared, pairs, strict=True) if sorted(x["winners"]) != sorted(y["winners"])]
    return Comparison(str(first.folder), str(second.folder), first.command, second.command, len(shared), differences, changed, by_rotation)


def _key(row: Row, by_rotation: bool) -> Any:
    """A game's pairing key: its seed, or its seed and rotation."""
    return row_key(row) if by_rotation else int(row["seed"])
