"""What a sweep or a tune varies: a game option, a seat's player, or a number inside a data file an option names.

A key is written as the experiment file writes it:

* ``hull``: the game option of that name;
* ``"seats.0"``: the player in seat 0 (a player spec or a level);
* ``"deck.toml:cards.flare.power"``: a number inside the data file ``deck.toml``, which one of the
  experiment's ``[options]`` names (``sun_deck = "deck.toml"``); the path after the colon goes
  through the file's tables by key and through its lists by position (``ring.2.velocity``, from 0).
  The varied copy is written as JSON into the run's folder (``data/<option>.json``) and the option
  names the copy.

Every key and value is checked before any game is played; errors are DataErrors naming the
experiment file and the key.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from astrarium.core.data import read_data_file, write_text_file
from astrarium.core.errors import DataError, short
from astrarium.core.registry import get_game
from astrarium.lab.experiment import Experiment, build_experiment

#: The folder of a run where varied copies of data files are written.
DATA_FOLDER = "data"

PathStep = str | int


@dataclass(frozen=True, slots=True)
class Variable:
    """One key of a ``[sweep]`` or ``[tune.space]``: an option, a seat, or a number in the data file an option names."""

    key: str
    option: str | None = None
    seat: int | None = None
    file: str | None = None
    path: tuple[PathStep, ...] = ()

    @property
    def kind(self) -> str:
        """``option``, ``seat`` or ``file``."""
        return "seat" if self.seat is not None else "file" if self.file is not None else "option"


def _entry(block: str, key: str) -> str:
    return f"{block} {short(key, 80)!r}"


def parse_variable(key: str, base: Experiment, label: str, block: str) -> Variable:
    """The variable ``key`` names in an experiment (``block`` is where it is written: ``sweep``, ``tune.space``)."""
    entry = _entry(block, key)
    if key.startswith("seats."):
        number = key.removeprefix("seats.")
        if not number.isdigit() or int(number) >= base.players:
            raise DataError(label, entry, f"a seat is 'seats.N' with N from 0 to {base.players - 1}")
        return Variable(key, seat=int(number))
    if ":" in key:
        return _file_variable(key, base, label, entry)
    names = [o.name for o in get_game(base.game).options]
    if key not in names:
        raise DataError(
            label,
            entry,
            f"not an option of {base.game} (its options: {', '.join(names)}; a seat: 'seats.0'; a data file: 'FILE:path.to.number')",
        )
    return Variable(key, option=key)


def _file_variable(key: str, base: Experiment, label: str, entry: str) -> Variable:
    """A number inside a data file that one of the experiment's options names."""
    file, _, dotted = key.rpartition(":")
    options = [name for name, value in base.given_options.items() if value == file]
    if not options:
        raise DataError(
            label, entry, f"no option in [options] names the file {short(file, 80)!r}: name it there (e.g. deck = {short(file, 80)!r})"
        )
    if not dotted or any(not step for step in dotted.split(".")):
        raise DataError(label, entry, "after the colon comes the path to a number in the file, e.g. cards.flare.power")
    path = tuple(int(step) if step.isdigit() else step for step in dotted.split("."))
    try:
        _, data = read_data_file(file)
    except DataError as exc:
        raise DataError(label, entry, str(exc)) from None
    value = _at(data, path, label, entry)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(label, entry, f"{dotted} in {short(file, 80)} is {short(repr(value), 40)}, not a number")
    return Variable(key, option=options[0], file=file, path=path)


def _at(data: Any, path: tuple[PathStep, ...], label: str, entry: str) -> Any:
    """The value at ``path`` in parsed data; a DataError naming the first step that is not there."""
    here = data
    for depth, step in enumerate(path):
        if isinstance(here, dict) and str(step) in here:
            here = here[str(step)]
        elif isinstance(here, list) and isinstance(step, int) and step < len(here):
            here = here[step]
        else:
            walked = ".".join(str(s) for s in path[: depth + 1])
            raise DataError(label, entry, f"the file has no {short(walked, 80)!r}")
    return here


def _put(data: Any, path: tuple[PathStep, ...], value: Any) -> None:
    here = data
    for step in path[:-1]:
        here = here[step if isinstance(here, list) else str(step)]
    last = path[-1]
    here[last if isinstance(here, list) else str(last)] = value


def experiment_for(
    base: Experiment,
    settings: Mapping[Variable, Any],
    folder: Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    source: str | None = None,
    until: str | None = None,
) -> Experiment:
    """``base`` with ``settings`` applied: options and seats changed, varied data files written under ``folder``."""
    options = dict(base.given_options)
    lineup = list(base.lineup)
    files: dict[str, Any] = {}
    for variable, value in settings.items():
        if variable.seat is not None:
            lineup[variable.seat] = value
        elif variable.file is None:
            options[str(variable.option)] = value
        else:
            data = files.get(str(variable.option))
            if data is None:
                data = files[str(variable.option)] = copy.deepcopy(read_data_file(variable.file)[1])
            _put(data, variable.path, value)
    for option, data in files.items():
        copied = folder / DATA_FOLDER / f"{option}.json"
        copied.parent.mkdir(parents=True, exist_ok=True)
        write_text_file(copied, json.dumps(data, indent=1, ensure_ascii=False, default=str) + "\n")
        options[option] = str(copied)
    return build_experiment(
        base.game,
        lineup,
        games=base.games if games is None else games,
        seed=base.seed if seed is None else seed,
        options=options,
        rotate=base.rotate,
        source=source,
        until=until,
    )


def check_values(base: Experiment, values: Iterable[tuple[Variable, Iterable[Any]]], label: str, block: str) -> None:
    """Each variable's values tried one at a time on ``base`` (the game checks them); a DataError naming the key."""
    with tempfile.TemporaryDirectory(prefix="astrarium-lab-check-") as scratch:
        for variable, tried in values:
            for value in tried:
                try:
                    experiment_for(base, {variable: value}, Path(scratch))
                except (DataError, ValueError) as exc:
                    said = str(exc).removeprefix(f"{exc.file}: ") if isinstance(exc, DataError) else str(exc)
                    raise DataError(label, _entry(block, variable.key), f"{short(repr(value), 60)}: {said}") from None


def settings_text(settings: Mapping[str, Any]) -> str:
    """Settings in a line: ``hull=12, seats.0=mcts:iterations=50``."""
    return ", ".join(f"{key}={value}" for key, value in settings.items())
