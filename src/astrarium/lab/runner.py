"""Running an experiment into a results folder, and reading one back.

``run`` plans the games with the arena, plays those the folder does not hold
yet (on ``jobs`` local processes or a Ray cluster: :mod:`astrarium.lab.backends`)
and saves them as they finish: each game's record at once (local workers
write it themselves), its row in batches (:mod:`astrarium.lab.store`), so the same call after an interruption finishes
only the missing games (each known by its seed and rotation). Every game's
result depends only on its seed and seats, so neither the back-end nor the
number of processes changes a result (only the seconds spent thinking). A
``stop`` hook may end a run cleanly after any saved game.
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
from astrarium.lab.play import GameKey, Played, match_key, row_key
from astrarium.lab.sequential import Answer, InOrder, parse_until
from astrarium.lab.store import Store, game_record_path, is_paired, open_store, read_manifest, read_parts
from astrarium.lab.summary import Summary, summarise

#: A stop hook: called with a saved game's row, True to end the run there.
Stop = Callable[[Mapping[str, Any]], bool]

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
    stopped: bool = False
    """Whether the run's ``stop`` hook ended it (the games saved until then are in ``table``)."""

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

    @property
    def paired(self) -> bool:
        """Whether every seed was played once in every rotation of the line-up (``rotate = "paired"``)."""
        return is_paired(self.manifest)

    def record_path(self, row: Mapping[str, Any]) -> Path:
        """Where the record of the game of ``row`` is kept (``records/<seed>.json.gz``, or ``<seed>-<rotation>`` when paired)."""
        return game_record_path(self.folder, self.manifest, row)

    def summary(self) -> Summary:
        """Per seat win/draw/loss rates with 95% intervals, seat 0's score, decided-in-play share, mean length.

        When paired, also seat 0's score over the deals, each seed's rotations averaged (``Summary.deals``).
        """
        return summarise(
            self.table, len(self.lineup), experiment=self.experiment, command=self.command, lineup=self.lineup, paired=self.paired
        )

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
    stop: Stop | None = None,
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
    when it is None); the results are the same.

    ``stop`` is consulted after every saved game: it is called with the game's
    row once its record is written (after ``on_game``), and first, in plan
    order, with the row of every game the folder already holds, so a resumed
    run stops where it stopped before. When it returns True the run ends
    there, cleanly: the games finished so far are saved, the workers stopped,
    and the results say ``stopped``; the same call later resumes it (and asks
    ``stop`` again). Bad input raises a ValueError (DataError naming file and
    key).
    """
    chosen = check_backend(backend, address)
    if not isinstance(experiment, Experiment):
        experiment = load_experiment(experiment)
    experiment = experiment.with_games(games).with_until(until)
    folder = Path(tempfile.mkdtemp(prefix="astrarium-lab-")) if out is None else check_path(out, "results folder")
    store = open_store(folder, experiment, command or experiment.command(folder))
    remaining = [match for match in experiment.plan() if match_key(match) not in store.done]
    if on_start is not None:
        on_start(store.table(), len(store.done) + len(remaining))
    stopper = _stopper(experiment, store)
    stopped = stop is not None and any(stop(row) for row in store.table().sort_by("game_index").to_pylist())
    if not stopped and (stopper is None or stopper.answer.verdict is None):
        played = play_games(remaining, jobs=jobs, backend=chosen, address=address, records=(store.folder, store.paired))
        stopped = _play_into(store, played, on_game, batch, _ends(stopper, stop))
    answer = None if stopper is None else stopper.answer
    return Results(store.table(), store.folder, store.manifest, answer, stopped=stopped)


def _stopper(experiment: Experiment, store: Store) -> InOrder | None:
    """The stopping rule fed in plan order, with the games already in the folder counted first (None without a rule).

    When paired, the rotations of one seed make one outcome (:class:`~astrarium.lab.sequential.InOrder`'s ``group``).
    """
    if experiment.until is None:
        return None
    group = experiment.players if experiment.paired else 1
    stopper = InOrder(Answer(parse_until(experiment.until, experiment.players)), group)
    for row in store.table().sort_by("game_index").to_pylist():
        stopper.add(row)
    return stopper


def _ends(stopper: InOrder | None, stop: Stop | None) -> Callable[[Mapping[str, Any]], str | None]:
    """What ends the run after a saved game: ``"answered"`` (the stopping rule), ``"stopped"`` (the hook) or None."""

    def ends(row: Mapping[str, Any]) -> str | None:
        answered = stopper is not None and stopper.add(row) is not None
        if stop is not None and stop(row):  # consulted after every saved game, the last one answering the rule too
            return "stopped"
        return "answered" if answered else None

    return ends


def _play_into(
    store: Store,
    games: Iterator[Played],
    on_game: Callable[[Mapping[str, Any]], None] | None,
    batch: int,
    ends: Callable[[Mapping[str, Any]], str | None],
) -> bool:
    """Save games as they come (the record at once, the rows in batches) until ``ends`` says why to stop.

    A game (seed and rotation) already saved, or handed back twice (a lost
    worker's game played again), is kept once. What was finished is saved
    even when the run is stopped or fails. Returns whether the stop hook
    ended it.
    """
    waiting: list[dict[str, Any]] = []
    taken: set[GameKey] = set()
    last = time.monotonic()
    why = None
    try:
        for row, record in games:
            key = row_key(row)
            if key in taken or key in store.done:
                continue
            taken.add(key)
            if record is not None:  # None: the worker wrote it
                store.save_record(key, record)
            waiting.append(row)
            if on_game is not None:
                on_game(row)
            why = ends(row)
            if why is not None:
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
        store.drop_unsaved_records()  # a run ended early (stopped, answered, Ctrl-C): workers still playing wrote them
    return why == "stopped"


def load(folder: str | Path) -> Results:
    """The results in a folder made by :func:`run` (or ``astrarium lab run``); a DataError if it is not one."""
    path = check_path(folder, "results folder")
    manifest = read_manifest(path)
    return Results(read_parts(path, manifest["parts"]), path, manifest)
