"""``astrarium lab``: the one home for measuring games.

An experiment (a small TOML file, or the same fields inline) names a game, its
players and options, how many games and from which seed; :func:`run` plays it
with the arena, on local processes or a Ray cluster, into a results folder (``games.parquet``, one row a game, and
every game's record), resumable after any interruption; :func:`load` reads a
folder back. The lab reaches games only through the core API and plays them
only through :mod:`astrarium.agents.arena`. docs/lab.md describes it.

```python
from astrarium import lab
results = lab.run("experiments/celestials/mirror.toml", jobs=2, out="results/mirror")
results.table            # a pyarrow Table; results.to_pandas() / results.to_polars() when installed
results.summary().first_seat.score
lab.metrics(results).get("AdvantageP1")     # every metric with its 95% interval (replay=True: LeadChange, Drama, ...)
lab.compare("results/a", "results/b")         # B minus A, paired by seed
lab.run(experiment, until="seat 0 score in 0.45..0.55")  # stop once answered (results.answer)
lab.run(experiment, backend="ray", address="auto")       # on a Ray cluster: the same results
lab.sweep("sweep.toml", out="results/sweep")             # a [sweep] block: one run a grid point, the same seeds
lab.tune("tune.toml", out="results/tune")                # a [tune] block: Optuna searches for the target bands
lab.import_games("data/astrarium.db", out="results/people")  # the web table's finished games, read-only: people's playtests
```
"""

from astrarium.lab.compare import Comparison, compare
from astrarium.lab.experiment import Experiment, ExperimentFile, build_experiment, load_experiment
from astrarium.lab.metrics import Estimate, MetricsTable, metrics
from astrarium.lab.playtests import Imported, import_games
from astrarium.lab.runner import Results, load, run
from astrarium.lab.sequential import Answer, ConfidenceSequence, parse_until
from astrarium.lab.store import SCHEMA
from astrarium.lab.study import load_study
from astrarium.lab.summary import Summary, Tally
from astrarium.lab.sweep import Sweep, SweepResults, load_sweep, load_sweep_results, sweep
from astrarium.lab.tune import Tune, TuneResults, load_tune, load_tune_results, tune

__all__ = [
    "SCHEMA",
    "Answer",
    "Comparison",
    "ConfidenceSequence",
    "Estimate",
    "Experiment",
    "ExperimentFile",
    "Imported",
    "MetricsTable",
    "Results",
    "Summary",
    "Sweep",
    "SweepResults",
    "Tally",
    "Tune",
    "TuneResults",
    "build_experiment",
    "compare",
    "import_games",
    "load",
    "load_experiment",
    "load_study",
    "load_sweep",
    "load_sweep_results",
    "load_tune",
    "load_tune_results",
    "metrics",
    "parse_until",
    "run",
    "sweep",
    "tune",
]
