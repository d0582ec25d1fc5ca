"""The schemas of an experiment file's ``[sweep]`` and ``[tune]`` blocks, and the manifests their folders keep.

```toml
[sweep]                          # one run a grid point, every point on the same seeds
hull = [12, 18, 24, 30]          # a game option
"seats.0" = ["mcts:iterations=50", "mcts:iterations=200"]      # a seat's player
"deck.toml:cards.flare.power" = [1, 2, 3]                      # a number inside a data file an option names

[tune]                           # a search of the options for targets (Optuna)
trials = 30
games = 200                      # a trial's games at most: it stops once clearly outside a band
confirm = 400                    # the best settings measured again on fresh seeds
[tune.space]
hull = {low = 10, high = 40}     # whole numbers; low/high with a fraction: real numbers; or choices = [...]
[tune.targets]
"seat 0 score" = [0.45, 0.55]
```

What each key may name is checked against the game by :mod:`astrarium.lab.variables`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, model_validator

from astrarium.agents.arena import MAX_GAMES
from astrarium.core.data import DataModel, read_text_file, write_text_file
from astrarium.core.errors import DataError

#: The most values one key of a sweep takes, and the most points a grid has.
MAX_SWEEP_VALUES = 100
MAX_SWEEP_POINTS = 1000
#: The most trials a tune runs, and the most of its best settings it confirms.
MAX_TRIALS = 10_000
MAX_BEST = 20
#: The most keys a sweep or a tune varies, and the most targets a tune has.
MAX_KEYS = 16

Value = bool | int | float | str | list[Any]
Key = Annotated[str, Field(min_length=1, max_length=300)]

SweepBlock = Annotated[
    dict[Key, Annotated[list[Value], Field(min_length=1, max_length=MAX_SWEEP_VALUES)]], Field(min_length=1, max_length=MAX_KEYS)
]


class SpaceEntry(DataModel):
    """Where one tuned key may go: ``low``..``high`` (whole numbers when both are, real numbers otherwise), or ``choices``."""

    low: int | float | None = None
    high: int | float | None = None
    log: bool = False
    choices: Annotated[list[bool | int | float | str], Field(min_length=1, max_length=MAX_SWEEP_VALUES)] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> SpaceEntry:
        if self.choices is not None:
            if self.low is not None or self.high is not None or self.log:
                raise ValueError("give low and high, or choices, not both")
            return self
        if self.low is None or self.high is None:
            raise ValueError("give low and high (a range), or choices = [...]")
        if isinstance(self.low, bool) or isinstance(self.high, bool):
            raise ValueError("low and high are numbers")
        if self.low >= self.high:
            raise ValueError(f"low ({self.low}) must be below high ({self.high})")
        if self.log and self.low <= 0:
            raise ValueError("a range searched on a log scale (log = true) starts above 0")
        return self

    @property
    def whole(self) -> bool:
        """Whether the range is of whole numbers (both ends written without a fraction)."""
        return isinstance(self.low, int) and isinstance(self.high, int)


Band = Annotated[list[int | float], Field(min_length=2, max_length=2)]


class TuneBlock(DataModel):
    """The ``[tune]`` block: the space searched, the targets, how many trials and games."""

    trials: Annotated[int, Field(ge=1, le=MAX_TRIALS)] = 30
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 200
    confirm: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 400
    best: Annotated[int, Field(ge=1, le=MAX_BEST)] = 3
    sampler_seed: Annotated[int, Field(ge=0, le=2**32 - 1)] = 0
    space: Annotated[dict[Key, SpaceEntry], Field(min_length=1, max_length=MAX_KEYS)]
    targets: Annotated[dict[Key, Band], Field(min_length=1, max_length=MAX_KEYS)]


def read_manifest_file(path: Path, form: str, what: str) -> dict[str, Any]:
    """A sweep's or a tune's manifest (JSON of format ``form``); a DataError when it is missing or not one."""
    label, text = read_text_file(path)
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(label, "file", f"not JSON: {exc.msg}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != form:
        raise DataError(label, "format", f"not a {what} folder's manifest ({form})")
    return manifest


def write_manifest_file(path: Path, manifest: Mapping[str, Any]) -> None:
    """A sweep's or a tune's manifest written as JSON."""
    write_text_file(path, json.dumps(manifest, indent=1, ensure_ascii=False, default=str) + "\n")
