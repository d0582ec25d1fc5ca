"""An experiment: which game, who sits where, with which options, how many games from which seed.

An experiment is a small TOML file checked against :class:`ExperimentFile`
(unknown keys refused, every error naming the file and the key), or the same
fields given on the command line (``astrarium lab run --game ... --seat ...``).
It becomes the arena's plan of games (:func:`astrarium.agents.arena.plan_matches`):
game ``g`` has seed ``seed + g`` and, unless ``rotate = false``, the line-up
rotated by ``g``.

```toml
game = "celestials"
seats = ["greedy", "random"]   # player specs or levels (easy, medium, hard), seat 0 first
games = 100
seed = 0
[options]
turn_limit = 30
```
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from astrarium.agents.arena import MAX_GAMES, Match, Plan, plan_matches
from astrarium.agents.levels import is_level, table_spec
from astrarium.core.data import DataModel, read_data_file, validate
from astrarium.core.errors import AstrariumError, DataError, short
from astrarium.core.registry import get_game
from astrarium.lab.blocks import SweepBlock, TuneBlock
from astrarium.lab.sequential import parse_until

#: The longest line-up an experiment may name (no game seats more).
MAX_SEATS = 16

#: The longest player spec, in characters.
MAX_SPEC_CHARS = 200

OptionValue = bool | int | float | str | list[Any]


class ExperimentFile(DataModel):
    """The schema of an experiment file (``experiments/<game>/<name>.toml``)."""

    game: Annotated[str, Field(min_length=1, max_length=64)]
    seats: Annotated[list[Annotated[str, Field(min_length=1, max_length=MAX_SPEC_CHARS)]], Field(min_length=1, max_length=MAX_SEATS)]
    players: Annotated[int, Field(ge=1, le=MAX_SEATS)] | None = None
    rotate: bool = True
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 100
    seed: Annotated[int, Field(ge=0, le=2**62)] = 0
    options: dict[str, OptionValue] = Field(default_factory=dict)
    until: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    sweep: SweepBlock | None = None
    """A grid of options, players or data-file numbers: one run a point (:mod:`astrarium.lab.sweep`)."""
    tune: TuneBlock | None = None
    """A search of options for targets (:mod:`astrarium.lab.tune`)."""


@dataclass(frozen=True)
class Experiment:
    """A checked experiment: the line-up resolved to player specs, the options to the game's values.

    ``source`` is the experiment file it came from (None for one given inline);
    every figure the lab prints names it and :meth:`command`.
    """

    game: str
    lineup: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    rotate: bool = True
    source: str | None = None
    given_options: Mapping[str, Any] = field(default_factory=dict)
    """The options as written (the command repeats these, not the game's defaults)."""
    until: str | None = None
    """A stopping rule (``seat 0 score in 0.45..0.55``): stop once it is answered (:mod:`astrarium.lab.sequential`)."""

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def name(self) -> str:
        """What the figures call this experiment: its file, or ``inline``."""
        return self.source if self.source is not None else "inline"

    def with_games(self, games: int | None) -> Experiment:
        """The same experiment with another game count (``--games``); checked like the file's."""
        if games is None or games == self.games:
            return self
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise ValueError(f"--games {short(repr(games), 40)}: from 1 to {MAX_GAMES:,}")
        return replace(self, games=games)

    def with_until(self, until: str | None) -> Experiment:
        """The same experiment with another stopping rule (``--until``); checked against the line-up."""
        if until is None or until == self.until:
            return self
        parse_until(until, self.players)
        return replace(self, until=until)

    def identity(self) -> dict[str, Any]:
        """What must match for a results folder to go on with this experiment (all but the game count)."""
        return {"game": self.game, "lineup": list(self.lineup), "seed": self.seed, "options": dict(self.options), "rotate": self.rotate}

    def plan(self) -> Sequence[Match]:
        """The games to play, lazily (the arena's plan; seats kept in place when ``rotate`` is off)."""
        plan = plan_matches(self.game, self.lineup, self.games, seed=self.seed, options=self.options)
        return plan if self.rotate else FixedPlan(plan)

    def command(self, out: str | Path | None = None) -> str:
        """The ``astrarium lab run`` command that runs this experiment (jobs left out: they change no result)."""
        if self.source is not None:
            words = ["astrarium", "lab", "run", self.source, "--games", str(self.games)]
        else:
            words = ["astrarium", "lab", "run", "--game", self.game]
            words += [f"--seat={s}={spec}" for s, spec in enumerate(self.lineup)]
            words += [f"--option={name}={_option_text(value)}" for name, value in self.given_options.items()]
            words += ["--games", str(self.games), "--seed", str(self.seed)]
            if not self.rotate:
                words.append("--no-rotate")
        if self.until is not None:
            words += ["--until", self.until]
        if out is not None:
            words += ["--out", str(out)]
        return shlex.join(words)


@dataclass(frozen=True, slots=True)
class FixedPlan(Sequence[Match]):
    """The arena's plan with every seat kept in place (no rotation): seat ``s`` is always entry ``s``."""

    rotated: Plan

    def __len__(self) -> int:
        return len(self.rotated)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[g] for g in range(*index.indices(len(self)))]
        match = self.rotated[index]
        return replace(match, seats=self.rotated.lineup, entries=tuple(range(match.players)))


def _option_text(value: Any) -> str:
    """An option value as the command line writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file; a DataError names the file and the key.

    A file with a ``[sweep]`` or ``[tune]`` block is refused: ``lab.sweep`` and ``lab.tune`` run those.
    """
    spec, experiment = read_experiment_file(path)
    for block, runner in (("sweep", "lab.sweep"), ("tune", "lab.tune")):
        if getattr(spec, block) is not None:
            raise DataError(
                short(str(path), 200), block, f"a file with a [{block}] block is run by {runner}(FILE) or `astrarium lab run FILE`"
            )
    return experiment


def read_experiment_file(path: str | Path) -> tuple[ExperimentFile, Experiment]:
    """An experiment file's checked contents and its experiment (its ``[sweep]`` or ``[tune]`` block not applied)."""
    label, data = read_data_file(path)
    spec = validate(ExperimentFile, data, file=label)
    if spec.sweep is not None and spec.tune is not None:
        raise DataError(label, "tune", "a file has a [sweep] block or a [tune] block, not both")
    return spec, build_experiment(
        spec.game,
        spec.seats,
        games=spec.games,
        seed=spec.seed,
        options=spec.options,
        players=spec.players,
        rotate=spec.rotate,
        source=str(path),
        until=spec.until,
    )


def build_experiment(
    game_id: str,
    seats: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    players: int | None = None,
    rotate: bool = True,
    source: str | None = None,
    until: str | None = None,
) -> Experiment:
    """An experiment checked against the game: player count, seats, options and player specs.

    Errors are DataErrors naming ``source`` (or ``experiment``) and the key at fault.
    """
    file = short(source, 200) if source is not None else "experiment"
    try:
        game = get_game(game_id)
    except AstrariumError as exc:
        raise DataError(file, "game", str(exc)) from None
    count = len(seats) if players is None else players
    if count != len(seats):
        raise DataError(file, "seats", f"{len(seats)} seat(s) named for {players} players: name one player per seat")
    try:
        game.check_players(count)
    except AstrariumError as exc:
        raise DataError(file, "seats", str(exc)) from None
    lineup = tuple(_seat_spec(spec, game.hidden_information or game.chance, game.id) for spec in seats)
    given = dict(options or {})
    try:
        resolved = game.resolve_options(count, given)
    except AstrariumError as exc:
        raise DataError(file, "options", str(exc)) from None
    if until is not None:
        try:
            parse_until(until, count)
        except ValueError as exc:
            raise DataError(file, "until", str(exc)) from None
    experiment = Experiment(game.id, lineup, games, seed, resolved, rotate, source, given, until)
    try:
        experiment.plan()  # every player spec checked now, before any game
    except ValueError as exc:
        raise DataError(file, "seats", str(exc)) from None
    return experiment


def _seat_spec(spec: str, hidden_or_chance: bool, game_id: str) -> str:
    """A seat's player: a level (``easy``, ``medium``, ``hard``) becomes the spec it plays at a table."""
    return table_spec(spec, hidden_or_chance, game_id) if is_level(spec) else spec.strip()
