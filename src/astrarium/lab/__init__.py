"""``astrarium lab``: the one home for measuring games.

An experiment (a small TOML file, or the same fields inline) names a game, its
players and options, how many games and from which seed; :func:`run` plays it
with the arena into a results folder (``games.parquet``, one row a game, and
every game's record), resumable after any interruption; :func:`load` reads a
folder back. The lab reaches games only through the core API and plays them
only through :mod:`astrarium.agents.arena`. docs/lab.md describes it.

```python
from astrarium import lab
results = lab.run("experiments/celestials/mirror.toml", jobs=2, out="results/mirror")
results.table            # a pyarrow Table; results.to_pandas() / results.to_polars() when installed
results.summary().first_seat.score
```
"""

from astrarium.lab.experiment import Experiment, ExperimentFile, build_experiment, load_experiment
from astrarium.lab.runner import Results, load, run
from astrarium.lab.store import SCHEMA
from astrarium.lab.summary import Summary, Tally

__all__ = [
    "SCHEMA",
    "Experiment",
    "ExperimentFile",
    "Results",
    "Summary",
    "Tally",
    "build_experiment",
    "load",
    "load_experiment",
    "run",
]
