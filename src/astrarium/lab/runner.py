"""Running an experiment into a results folder, and reading one back.

``run`` plans the games with the arena, plays those the folder does not hold
yet (on ``jobs`` processes, the arena's :func:`~astrarium.agents.arena.played`)
and saves them in batches as they finish (:mod:`astrarium.lab.store`), so the
same call after an interruption finishes only the missing seeds. Every game's
result depends only on its seed and seats, so the number of processes changes
no result (only the seconds spent thinking).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa

from astrarium.agents.arena import played
from astrarium.core.data import check_path
from astrarium.lab.experiment import Experiment, load_experiment
from astrarium.lab.play import play_row
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
    it plays. Bad input raises a ValueError (DataError naming file and key).
    """
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
        play = partial(play_row, folder=str(store.folder))
        _play_into(store, played(remaining, jobs, play), on_game, batch, stopper)
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
    store: Store, rows: Any, on_game: Callable[[Mapping[str, Any]], None] | None, batch: int, stopper: InOrder | None = None
) -> None:
    """Save rows as they come, in batches, until the stopping rule is answered.

    What was finished is saved even when the run is stopped or fails.
    """
    waiting: list[dict[str, Any]] = []
    last = time.monotonic()
    try:
        for row in rows:
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
        close = getattr(rows, "close", None)
        if close is not None:  # a stopped generator ends its worker processes now
            close()
        store.append(waiting)


def load(folder: str | Path) -> Results:
    """The results in a folder made by :func:`run` (or ``astrarium lab run``); a DataError if it is not one."""
    path = check_path(folder, "results folder")
    manifest = read_manifest(path)
    return Results(read_parts(path, manifest["parts"]), path, manifest)
