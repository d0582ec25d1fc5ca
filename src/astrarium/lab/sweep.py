"""Sweeps: an experiment run at every point of a grid of options, players or data-file numbers.

An experiment file's ``[sweep]`` block lists values for each key
(:mod:`astrarium.lab.variables`); the grid is every combination, in the
order the file writes the keys and values (the last key varying fastest).
Each point is an ordinary lab run into its own folder, ``DIR/point-000``,
``DIR/point-001``, ..., all on the experiment's seeds (common random numbers:
the points meet the same deals and dice), and ``DIR/sweep.json`` lists the
points and their settings. Running the sweep again finishes only the
missing points and games.
"""

from __future__ import annotations

import itertools
import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from astrarium.core.data import check_path
from astrarium.core.errors import DataError, short
from astrarium.lab.blocks import MAX_SWEEP_POINTS, read_manifest_file, write_manifest_file
from astrarium.lab.estimates import Estimate
from astrarium.lab.experiment import Experiment, read_experiment_file
from astrarium.lab.runner import Results, load, run
from astrarium.lab.tune import make_target
from astrarium.lab.variables import Variable, check_values, experiment_for, parse_variable

FORMAT = "astrarium-lab-sweep"
VERSION = 1
MANIFEST = "sweep.json"


@dataclass(frozen=True)
class Sweep:
    """A checked sweep: the experiment it varies, its variables and each one's values."""

    base: Experiment
    variables: tuple[Variable, ...]
    values: tuple[tuple[Any, ...], ...]
    source: str

    def grid(self) -> list[dict[str, Any]]:
        """Every point's settings (key as written -> value), the last key varying fastest."""
        keys = [v.key for v in self.variables]
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*self.values)]

    def with_games(self, games: int | None) -> Sweep:
        return replace(self, base=self.base.with_games(games))

    def with_until(self, until: str | None) -> Sweep:
        return replace(self, base=self.base.with_until(until))

    def command(self, out: str | Path) -> str:
        """The command that runs (or finishes) the whole sweep into ``out``."""
        words = ["astrarium", "lab", "run", self.source, "--games", str(self.base.games)]
        if self.base.until is not None:
            words += ["--until", self.base.until]
        return shlex.join([*words, "--out", str(out)])


@dataclass(frozen=True)
class Point:
    """One grid point: its number, settings, folder and the experiment run there."""

    number: int
    settings: dict[str, Any]
    folder: Path
    experiment: Experiment


@dataclass
class SweepResults:
    """A sweep folder read back: each point's settings and results, in grid order."""

    folder: Path
    manifest: Mapping[str, Any]
    points: list[tuple[dict[str, Any], Results]]

    @property
    def keys(self) -> list[str]:
        return list(self.manifest["keys"])

    @property
    def command(self) -> str:
        return str(self.manifest.get("command", ""))


def load_sweep(path: str | Path) -> Sweep:
    """Read and check an experiment file with a ``[sweep]`` block; a DataError names the file and the key."""
    spec, base = read_experiment_file(path)
    label = short(str(path), 200)
    if spec.sweep is None:
        raise DataError(label, "sweep", "the file has no [sweep] block")
    variables = tuple(parse_variable(key, base, label, "sweep") for key in spec.sweep)
    values = tuple(tuple(spec.sweep[v.key]) for v in variables)
    points = 1
    for tried in values:
        points *= len(tried)
    if points > MAX_SWEEP_POINTS:
        raise DataError(label, "sweep", f"the grid has {points:,} points; the most is {MAX_SWEEP_POINTS:,}")
    check_values(base, zip(variables, values, strict=True), label, "sweep")
    return Sweep(base, variables, values, str(path))


def prepare_sweep(sweep: Sweep, out: str | Path) -> list[Point]:
    """The sweep's points, their folders made under ``out`` and listed in ``sweep.json``.

    A folder that holds another sweep (other keys or values) is refused with a DataError.
    """
    folder = check_path(out, "results folder")
    grid = sweep.grid()
    names = [f"point-{n:03d}" for n in range(len(grid))]
    listed = [{"folder": name, "settings": settings} for name, settings in zip(names, grid, strict=True)]
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "source": sweep.source,
        "command": sweep.command(out),
        "keys": [v.key for v in sweep.variables],
        "points": listed,
    }
    earlier = folder / MANIFEST
    if earlier.exists():
        before = read_sweep_manifest(folder)
        if json.loads(json.dumps(listed)) != before["points"]:
            raise DataError(
                short(str(earlier), 200), "points", "this folder holds another sweep (other keys or values): choose another --out"
            )
    folder.mkdir(parents=True, exist_ok=True)
    write_manifest_file(earlier, manifest)
    points = []
    for number, settings in enumerate(grid):
        place = folder / names[number]
        chosen = {v: settings[v.key] for v in sweep.variables}
        experiment = experiment_for(sweep.base, chosen, place, source=sweep.source, until=sweep.base.until)
        points.append(Point(number, settings, place, experiment))
    return points


def read_sweep_manifest(folder: Path) -> dict[str, Any]:
    """A sweep folder's ``sweep.json``; a DataError when it is missing or not a sweep's."""
    return read_manifest_file(folder / MANIFEST, FORMAT, "sweep")


def is_sweep_folder(folder: str | Path) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def sweep(
    sweep_or_path: Sweep | str | Path,
    *,
    out: str | Path,
    jobs: int = 1,
    games: int | None = None,
    until: str | None = None,
    backend: str = "local",
    address: str | None = None,
    on_point: Callable[[Point], None] | None = None,
) -> SweepResults:
    """Run every point of a sweep into ``out`` (each its own folder; an interrupted sweep is finished, not restarted).

    ``on_point`` is called before each point runs. The other arguments are :func:`astrarium.lab.run`'s.
    """
    chosen = sweep_or_path if isinstance(sweep_or_path, Sweep) else load_sweep(sweep_or_path)
    chosen = chosen.with_games(games).with_until(until)
    command = chosen.command(out)
    for point in prepare_sweep(chosen, out):
        if on_point is not None:
            on_point(point)
        run(point.experiment, jobs=jobs, out=point.folder, command=command, backend=backend, address=address)
    return load_sweep_results(out)


def load_sweep_results(folder: str | Path) -> SweepResults:
    """A sweep folder read back (points not run yet are left out); a DataError if it is not one."""
    path = check_path(folder, "sweep folder")
    manifest = read_sweep_manifest(path)
    points: list[tuple[dict[str, Any], Results]] = []
    for listed in manifest["points"]:
        place = path / str(listed["folder"])
        if (place / "manifest.json").is_file():
            points.append((dict(listed["settings"]), load(place)))
    return SweepResults(path, manifest, points)


#: The figures a sweep's table and plots show for each point (the names a tune's targets use).
FIGURES = ("seat 0 score", "decided", "mean moves", "mean rounds")


def point_figures(results: Results) -> list[Estimate]:
    """A point's figures (:data:`FIGURES`), each with its 95% interval: Wilson for a share, normal for a mean."""
    players = len(results.lineup)
    return [make_target(name, 0.0, 1.0, players).estimate(results.table) for name in FIGURES]


def numeric(values: Sequence[Any]) -> bool:
    """Whether a key's values are all numbers (a sweep curve then has a numeric axis)."""
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
