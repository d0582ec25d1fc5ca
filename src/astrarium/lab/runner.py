"""Running an experiment into a results folder, and reading one back.

``run`` plans the games with the arena, plays those the folder does not hold
yet (on ``jobs`` local processes or a Ray cluster: :mod:`astrarium.lab.backends`)
and saves them as they finish: each game's record at once, its row in batches
(:mod:`astrarium.lab.store`), so the same call after an interruption finishes
only the missing seeds. Every game's result depends only on its seed and
seats, so neither the back-end nor the number of processes changes a result
(only the seconds spent thinking).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from astrarium.core.data import check_path
from astrarium.lab.backends import check_backend, play_games
from astrarium.lab.experiment import Experiment, load_experiment
from astrarium.lab.play import Played, save_record
from astrarium.lab.sequential import Answer, InOrder, parse_until
from astrarium.lab.store import Store, open_store, read_manifest, read_parts
from astrarium.lab.summary import Summary, summarise

#: Finished games are saved at least this often (games), and at least every FLUSH_SECONDS.
BATCH = 256
FLUSH_SECONDS = 2.0


@dataclass
class Results:
    """A results folder read back: ``table`` holds one row a game (the schema of ``games.parquet``)."""

    table: pa.Table
    folder: Path
    manifest: Mapping[str, Any]
    answer: Answer | None = None
    """The stopping rule's answer, when the run had one (``until``)."""

    @property
    def experiment(self) -> str:
        """The experiment file the games came from, or ``inline``."""
        source = self.manifest.get("source")
        return str(source) if source else "inline"

    @property
    def command(self) -> str:
        """The command that made these results (the last run into the folder)."""
        return str(self.manifest.get("command", ""))

    @property
    def lineup(self) -> list[str]:
        return list(self.manifest["experiment"]["lineup"])

    def summary(self) -> Summary:
        """Per seat win/draw/loss rates with 95% intervals, seat 0's score, decided-in-play share, mean length."""
        return summarise(self.table, len(self.lineup), experiment=self.experiment, command=self.command, lineup=self.lineup)

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (needs pandas installed)."""
        return self.table.to_pandas()

    def to_polars(self) -> Any:
        """The table as a polars DataFrame (needs polars installed)."""
        import polars

        return polars.from_arrow(self.table)


def run(
    experiment: Experiment | str | Path,
    *,
    jobs: int = 1,
    out: str | Path | None = None,
    games: int | None = None,
    command: str | None = None,
    on_start: Callable[[pa.Table, int], None] | None = None,
    on_game: Callable[[Mapping[str, Any]], None] | None = None,
    batch: int = BATCH,
    until: str | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Results:
    """Run ``experiment`` (or the experiment file at that path) into ``out`` and return every game in it.

    ``out`` is the results folder (a new temporary folder when None); a folder
    holding an earlier, unfinished run of the same experiment is finished, not
    started again. ``games`` overrides the experiment's game count; ``command``
    is what the figures name as having made them (by default the equivalent
    ``astrarium lab run`` command); ``on_start`` is called once with the
    games already in the folder and the number there will be at the end,
    ``on_game`` with each game's row as it finishes. ``until`` (or the
    experiment's) is a stopping rule: the run stops as soon as it is answered
    (:mod:`astrarium.lab.sequential`), the games up to ``games`` being the most
    it plays. ``backend`` is ``"local"`` (``jobs`` processes) or ``"ray"``
    (a Ray cluster at ``address``, or a local Ray instance with ``jobs`` CPUs
    when it is None); the results are the same. Bad input raises a ValueError
    (DataError naming file and key).
    """
    chosen = check_backend(backend, address)
    if not isinstance(experiment, Experiment):
        experiment = load_experiment(experiment)
    experiment = experiment.with_games(games).with_until(until)
    folder = Path(tempfile.mkdtemp(prefix="astrarium-lab-")) if out is None else check_path(out, "results folder")
    store = open_store(folder, experiment, command or experiment.command(folder))
    remaining = [match for match in experiment.plan() if match.seed not in store.done]
    if on_start is not None:
        on_start(store.table(), len(store.done) + len(remaining))
    stopper = _stopper(experiment, store)
    if stopper is None or stopper.answer.verdict is None:
        _play_into(store, play_games(remaining, jobs=jobs, backend=chosen, address=address), on_game, batch, stopper)
    return Results(store.table(), store.folder, store.manifest, None if stopper is None else stopper.answer)


def _stopper(experiment: Experiment, store: Store) -> InOrder | None:
    """The stopping rule fed in plan order, with the games already in the folder counted first (None without a rule)."""
    if experiment.until is None:
        return None
    stopper = InOrder(Answer(parse_until(experiment.until, experiment.players)))
    for row in store.table().sort_by("game_index").to_pylist():
        stopper.add(row)
    return stopper


def _play_into(
    store: Store,
    games: Iterator[Played],
    on_game: Callable[[Mapping[str, Any]], None] | None,
    batch: int,
    stopper: InOrder | None = None,
) -> None:
    """Save games as they come (the record at once, the rows in batches) until the stopping rule is answered.

    A seed already saved, or handed back twice (a lost worker's game played
    again), is kept once. What was finished is saved even when the run is
    stopped or fails.
    """
    waiting: list[dict[str, Any]] = []
    taken: set[int] = set()
    last = time.monotonic()
    try:
        for row, record in games:
            seed = int(row["seed"])
            if seed in taken or seed in store.done:
                continue
            taken.add(seed)
            save_record(store.folder, seed, record)
            waiting.append(row)
            if on_game is not None:
                on_game(row)
            if stopper is not None and stopper.add(row) is not None:
                break
            if len(waiting) >= batch or time.monotonic() - last >= FLUSH_SECONDS:
                store.append(waiting)
                waiting = []
                last = time.monotonic()
    finally:
        close = getattr(games, "close", None)
        if close is not None:  # a stopped generator ends its worker processes now
            close()
        store.append(waiting)


def load(folder: str | Path) -> Results:
    """The results in a folder made by :func:`run` (or ``astrarium lab run``); a DataError if it is not one."""
    path = check_path(folder, "results folder")
    manifest = read_manifest(path)
    return Results(read_parts(path, manifest["parts"]), path, manifest)
