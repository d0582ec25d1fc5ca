"""Tuning: Optuna searches an experiment's options (or players, or data-file numbers) for targets.

An experiment file's ``[tune]`` block names the space (``[tune.space]``: each key
a range or choices, :mod:`astrarium.lab.variables`) and the targets
(``[tune.targets]``: a figure the lab measures and the band it should fall
in). Each target is one objective, to be brought to 0: how far the trial's
estimate lies outside its band (0 inside), so several targets make a
multi-objective study whose best settings are its Pareto front.

Each trial is a lab run of at most ``games`` games into
``DIR/trials/<settings digest>``, every trial on the same seeds, stopped as
soon as a share's 95% confidence sequence (:mod:`astrarium.lab.sequential`)
lies wholly outside its band: the trial is then clearly out. The best
settings (up to ``best`` of the Pareto front, fewest targets missed first)
are measured again on fresh seeds, ``confirm`` games from the first seed
no trial used, into ``DIR/confirm/<digest>``, and reported with 95%
intervals. The study is kept in ``DIR/study.log`` (Optuna's journal file),
so running the same command again goes on from the trials already done.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from astrarium.core.data import check_path
from astrarium.core.errors import DataError, short
from astrarium.core.registry import get_game
from astrarium.lab.blocks import SpaceEntry, TuneBlock, read_manifest_file, write_manifest_file
from astrarium.lab.estimates import Estimate, mean_estimate, proportion
from astrarium.lab.experiment import Experiment, paired_games_problem, read_experiment_file
from astrarium.lab.runner import Results, load, run
from astrarium.lab.sequential import Answer, InOrder, Question, parse_until
from astrarium.lab.variables import Variable, check_values, experiment_for, parse_variable

FORMAT = "astrarium-lab-tune"
VERSION = 1
MANIFEST = "tune.json"
STUDY = "study.log"

#: The targets that are means of a column rather than shares of the games.
MEANS = {"mean moves": "moves", "mean rounds": "rounds"}
_SHARES = "'seat 0 score', 'seat 1 wins', 'player B score', 'decided' or 'draws' (a band within 0..1), 'mean moves' or 'mean rounds'"


@dataclass(frozen=True)
class Target:
    """A figure the lab measures and the band it should fall in; a share has its stopping question."""

    name: str
    low: float
    high: float
    question: Question | None = None
    column: str | None = None

    def estimate(self, table: pa.Table) -> Estimate:
        """The figure over a results table, with its 95% interval (Wilson for a share, normal for a mean)."""
        if self.question is not None:
            outcomes = [self.question.outcome(row) for row in table.select(["returns", "entries", "ended_by"]).to_pylist()]
            return proportion(self.name, sum(outcomes), len(outcomes))
        values = [float(v) for v in table.column(str(self.column)).to_pylist() if v is not None]
        return mean_estimate(self.name, values)

    def distance(self, value: float) -> float:
        """How far ``value`` lies outside the band (0 inside)."""
        return max(self.low - value, value - self.high, 0.0)

    @property
    def width(self) -> float:
        """The band's width (at least a hair), which makes distances of different units comparable."""
        return max(self.high - self.low, 1e-9)


def make_target(name: str, low: float, high: float, players: int) -> Target:
    """A target from its name and band (a ValueError for a name the lab cannot measure)."""
    if name in MEANS:
        return Target(name, low, high, column=MEANS[name])
    question = parse_until(f"{name} in 0..1", players)  # a name the stopping rules do not know is refused here
    return Target(name, low, high, question=replace(question, text=f"{name} in {low:g}..{high:g}", low=low, high=high))


@dataclass(frozen=True)
class Tune:
    """A checked tune: the experiment it varies, the space, the targets and the block's counts."""

    base: Experiment
    block: TuneBlock
    variables: tuple[tuple[Variable, SpaceEntry], ...]
    targets: tuple[Target, ...]
    source: str

    def command(self, out: str | Path) -> str:
        return shlex.join(["astrarium", "lab", "run", self.source, "--out", str(out)])

    def identity(self) -> dict[str, Any]:
        """What must match for a folder to go on with this tune (all but the number of trials)."""
        return {
            "experiment": self.base.identity(),
            "space": {v.key: entry.model_dump() for v, entry in self.variables},
            "targets": {t.name: [t.low, t.high] for t in self.targets},
            "games": self.block.games,
            "confirm": self.block.confirm,
            "best": self.block.best,
            "sampler_seed": self.block.sampler_seed,
        }

    @property
    def confirm_seed(self) -> int:
        """The first seed of the confirmation: after every seed a trial plays."""
        return self.base.seed + self.block.games


@dataclass(frozen=True)
class Trial:
    """A finished trial: its settings, each target's estimate and distance, games played, whether stopped early."""

    number: int
    settings: dict[str, Any]
    estimates: list[Estimate]
    distances: list[float]
    games: int
    stopped: bool
    folder: str

    def rank(self, targets: Sequence[Target]) -> tuple[int, float, int, int]:
        """Fewest targets missed, then the smallest distance in band widths, then more games, then the earliest."""
        missed = sum(d > 0 for d in self.distances)
        return missed, sum(d / t.width for d, t in zip(self.distances, targets, strict=True)), -self.games, self.number


@dataclass(frozen=True)
class Confirmed:
    """One of the best settings measured again on fresh seeds."""

    trial: int
    settings: dict[str, Any]
    estimates: list[Estimate]
    inside: list[bool]
    folder: Path
    command: str


@dataclass
class TuneResults:
    """A tune folder read back: the targets, every finished trial, the confirmed best settings."""

    folder: Path
    manifest: Mapping[str, Any]
    targets: list[Target]
    trials: list[Trial]
    confirmed: list[Confirmed]

    @property
    def command(self) -> str:
        return str(self.manifest.get("command", ""))

    @property
    def best(self) -> list[int]:
        """The trial numbers that were confirmed."""
        return [c.trial for c in self.confirmed]


def load_tune(path: str | Path) -> Tune:
    """Read and check an experiment file with a ``[tune]`` block; a DataError names the file and the key."""
    spec, base = read_experiment_file(path)
    label = short(str(path), 200)
    if spec.tune is None:
        raise DataError(label, "tune", "the file has no [tune] block")
    block = spec.tune
    for key, games in (("tune.games", block.games), ("tune.confirm", block.confirm)):
        problem = paired_games_problem(base.rotate, games, base.players)
        if problem is not None:
            raise DataError(label, key, f"{games:,}: {problem}")
    variables = tuple((parse_variable(key, base, label, "tune.space"), entry) for key, entry in block.space.items())
    for variable, entry in variables:
        if variable.kind == "file" and entry.choices is not None and not all(_number(c) for c in entry.choices):
            raise DataError(label, f"tune.space {variable.key!r}", "a number in a data file takes numbers")
    check_values(base, ((v, entry.choices or [entry.low, entry.high]) for v, entry in variables), label, "tune.space")
    targets = tuple(_target(name, band, base, label) for name, band in block.targets.items())
    return Tune(base, block, variables, targets, str(path))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _target(name: str, band: Sequence[float], base: Experiment, label: str) -> Target:
    entry = f"tune.targets {short(name, 80)!r}"
    low, high = float(band[0]), float(band[1])
    if low > high:
        raise DataError(label, entry, f"the band is [low, high], low first (got [{band[0]}, {band[1]}])")
    try:
        target = make_target(" ".join(name.split()), low, high, base.players)
    except ValueError as exc:
        said = "" if "not understood" in str(exc) else f" ({str(exc).removeprefix('until ')})"
        raise DataError(label, entry, f"the lab cannot measure this{said}; it measures {_SHARES}") from None
    if target.question is not None and not 0 <= low <= high <= 1:
        raise DataError(label, entry, f"a share's band lies within 0..1 (got [{band[0]}, {band[1]}])")
    if target.column == "rounds" and "round" not in get_game(base.game).new_game(base.players, base.seed, base.given_options).full_view():
        raise DataError(label, entry, f"{base.game} counts no rounds (its games' rounds column is empty): try 'mean moves'")
    return target


def digest(settings: Mapping[str, Any]) -> str:
    """A short name for a set of settings: the same settings always land in the same folder."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()[:12]


class _ClearlyOut:
    """The run's ``stop`` hook for a trial: each share target's confidence sequence, fed in plan order.

    It says stop once one lies wholly outside its band: the trial is clearly out.
    A paired run's rotations of one seed count as one outcome (``group``).
    """

    def __init__(self, targets: Sequence[Target], group: int = 1) -> None:
        self.feeds = [InOrder(Answer(t.question), group) for t in targets if t.question is not None]

    def __call__(self, row: Mapping[str, Any]) -> bool:
        return any([feed.add(row) is False for feed in self.feeds])  # a list: every feed takes the game


def _trial_run(tune: Tune, settings: dict[str, Any], folder: Path, runner: Mapping[str, Any]) -> tuple[Results, bool]:
    """One trial's lab run, stopped once clearly out; its results and whether it stopped early."""
    chosen = {v: settings[v.key] for v, _ in tune.variables}
    experiment = experiment_for(tune.base, chosen, folder, games=tune.block.games, source=tune.source)
    clearly_out = _ClearlyOut(tune.targets, experiment.players if experiment.paired else 1)
    results = run(experiment, out=folder, command=tune.command(runner["out"]), stop=clearly_out, **runner["play"])
    return results, results.stopped


def _suggest(trial: Any, key: str, entry: SpaceEntry) -> Any:
    if entry.choices is not None:
        return trial.suggest_categorical(key, entry.choices)
    if entry.whole:
        return trial.suggest_int(key, int(entry.low or 0), int(entry.high or 0), log=entry.log)
    return trial.suggest_float(key, float(entry.low or 0), float(entry.high or 0), log=entry.log)


def tune(
    tune_or_path: Tune | str | Path,
    *,
    out: str | Path,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    on_trial: Callable[[Trial], None] | None = None,
    on_confirm: Callable[[Trial], None] | None = None,
) -> TuneResults:
    """Run (or go on with) a tune into ``out``: the trials, then the best settings confirmed on fresh seeds.

    ``on_trial`` is called with each finished trial, ``on_confirm`` with each
    trial about to be confirmed. ``jobs``, ``backend`` and ``address`` are
    :func:`astrarium.lab.run`'s. Bad input raises a DataError naming file and key.
    """
    import optuna

    chosen = tune_or_path if isinstance(tune_or_path, Tune) else load_tune(tune_or_path)
    folder = check_path(out, "results folder")
    manifest = _open_manifest(chosen, folder)
    runner = {"out": out, "play": {"jobs": jobs, "backend": backend, "address": address}}
    with _quiet_optuna():
        study = _study(chosen, folder)
        _requeue(study)

        def objective(trial: Any) -> list[float]:
            settings = {v.key: _suggest(trial, v.key, entry) for v, entry in chosen.variables}
            place = Path("trials") / digest(settings)
            results, stopped = _trial_run(chosen, settings, folder / place, runner)
            estimates = [t.estimate(results.table) for t in chosen.targets]
            trial.set_user_attr("estimates", [[e.value, e.low, e.high, e.method] for e in estimates])
            trial.set_user_attr("games", results.table.num_rows)
            trial.set_user_attr("stopped", stopped)
            trial.set_user_attr("folder", str(place))
            distances = [t.distance(e.value) for t, e in zip(chosen.targets, estimates, strict=True)]
            if on_trial is not None:
                on_trial(Trial(trial.number, settings, estimates, distances, results.table.num_rows, stopped, str(place)))
            return distances

        done = len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)))
        if done < chosen.block.trials:
            study.optimize(objective, n_trials=chosen.block.trials - done)
    trials = _trials(study, chosen.targets)
    best = sorted(_pareto(study, trials), key=lambda t: t.rank(chosen.targets))[: chosen.block.best]
    manifest["confirm"] = [_confirm(chosen, folder, t, runner, on_confirm) for t in best]
    write_manifest_file(folder / MANIFEST, manifest)
    return load_tune_results(folder)


def _open_manifest(chosen: Tune, folder: Path) -> dict[str, Any]:
    """The folder's ``tune.json``, made if new; a folder of another tune is refused."""
    identity = json.loads(json.dumps(chosen.identity(), default=str))
    if (folder / MANIFEST).exists():
        before = read_tune_manifest(folder)
        if before.get("identity") != identity:
            raise DataError(
                short(str(folder / MANIFEST), 200),
                "identity",
                "this folder holds another tune (other experiment, space, targets or counts): choose another --out",
            )
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "source": chosen.source,
        "command": chosen.command(folder),
        "identity": identity,
        "confirm": [],
    }
    write_manifest_file(folder / MANIFEST, manifest)
    return manifest


@contextmanager
def _quiet_optuna() -> Iterator[None]:
    """Optuna's own log lines off while tuning (the lab prints each trial)."""
    import optuna

    before = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        yield
    finally:
        optuna.logging.set_verbosity(before)


def open_study(folder: Path, targets: int, sampler_seed: int = 0) -> Any:
    """The study kept in ``folder/study.log`` (made if new)."""
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    storage = JournalStorage(JournalFileBackend(str(folder / STUDY)))
    sampler = optuna.samplers.TPESampler(seed=sampler_seed, n_startup_trials=5)
    return optuna.create_study(study_name="tune", storage=storage, sampler=sampler, directions=["minimize"] * targets, load_if_exists=True)


def _study(chosen: Tune, folder: Path) -> Any:
    return open_study(folder, len(chosen.targets), chosen.block.sampler_seed)


def _requeue(study: Any) -> None:
    """Trials an interruption left unfinished are marked failed and their settings queued again (their games are kept)."""
    from optuna.trial import TrialState

    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)
    trials = study.get_trials(deepcopy=False)
    queued = {digest(t.params) for t in trials if t.state in (TrialState.COMPLETE, TrialState.WAITING)}
    for trial in trials:
        if trial.state == TrialState.FAIL and digest(trial.params) not in queued:
            study.enqueue_trial(trial.params)
            queued.add(digest(trial.params))


def _trials(study: Any, targets: Sequence[Target]) -> list[Trial]:
    """The study's finished trials, in order."""
    from optuna.trial import TrialState

    found = []
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        attrs = trial.user_attrs
        estimates = [Estimate(t.name, e[0], e[1], e[2], e[3], attrs["games"]) for t, e in zip(targets, attrs["estimates"], strict=True)]
        found.append(
            Trial(trial.number, dict(trial.params), estimates, list(trial.values), attrs["games"], attrs["stopped"], attrs["folder"])
        )
    return found


def _pareto(study: Any, trials: Sequence[Trial]) -> list[Trial]:
    """The finished trials on the study's Pareto front (the best, for one target), each settings once."""
    front = {t.number for t in study.best_trials}
    seen: set[str] = set()
    chosen = []
    for trial in trials:
        key = digest(trial.settings)
        if trial.number in front and key not in seen:
            seen.add(key)
            chosen.append(trial)
    return chosen


def _confirm(
    chosen: Tune, folder: Path, trial: Trial, runner: Mapping[str, Any], on_confirm: Callable[[Trial], None] | None
) -> dict[str, Any]:
    """One best setting measured on fresh seeds; what the manifest keeps of it."""
    if on_confirm is not None:
        on_confirm(trial)
    place = Path("confirm") / digest(trial.settings)
    settings = {v: trial.settings[v.key] for v, _ in chosen.variables}
    experiment = experiment_for(chosen.base, settings, folder / place, games=chosen.block.confirm, seed=chosen.confirm_seed)
    command = experiment.command(folder / place)
    run(experiment, out=folder / place, command=command, **runner["play"])
    return {"trial": trial.number, "settings": trial.settings, "folder": str(place), "command": command}


def read_tune_manifest(folder: Path) -> dict[str, Any]:
    """A tune folder's ``tune.json``; a DataError when it is missing or not a tune's."""
    return read_manifest_file(folder / MANIFEST, FORMAT, "tune")


def is_tune_folder(folder: str | Path) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def load_tune_results(folder: str | Path) -> TuneResults:
    """A tune folder read back: every finished trial from the study, the confirmed settings from their folders."""
    path = check_path(folder, "tune folder")
    manifest = read_tune_manifest(path)
    identity = manifest["identity"]
    players = len(identity["experiment"]["lineup"])
    targets = [make_target(name, band[0], band[1], players) for name, band in identity["targets"].items()]
    with _quiet_optuna():
        study = open_study(path, len(targets), int(identity["sampler_seed"]))
        trials = _trials(study, targets)
    confirmed = []
    for kept in manifest.get("confirm", []):
        place = path / kept["folder"]
        table = load(place).table
        estimates = [t.estimate(table) for t in targets]
        inside = [t.low <= e.value <= t.high for t, e in zip(targets, estimates, strict=True)]
        confirmed.append(Confirmed(int(kept["trial"]), dict(kept["settings"]), estimates, inside, place, str(kept["command"])))
    return TuneResults(path, manifest, targets, trials, confirmed)
