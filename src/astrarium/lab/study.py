"""One entry for an experiment file of any kind: a plain experiment, a sweep (``[sweep]``) or a tune (``[tune]``)."""

from __future__ import annotations

from pathlib import Path

from astrarium.lab.experiment import Experiment, read_experiment_file
from astrarium.lab.sweep import Sweep, load_sweep
from astrarium.lab.tune import Tune, load_tune


def load_study(path: str | Path) -> Experiment | Sweep | Tune:
    """The experiment file at ``path`` checked as what it is; a DataError names the file and the key."""
    spec, experiment = read_experiment_file(path)
    if spec.sweep is not None:
        return load_sweep(path)
    if spec.tune is not None:
        return load_tune(path)
    return experiment
