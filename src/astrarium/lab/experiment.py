"""An experiment: which game, who sits where, with which options, how many games from which seed.

An experiment is a small TOML file checked against :class:`ExperimentFile`
(unknown keys refused, every error naming the file and the key), or the same
fields given on the command line (``astrarium lab run --game ... --seat ...``).
It becomes the arena's plan of games (:func:`astrarium.agents.arena.plan_matches`):
game ``g`` has seed ``seed + g`` and, unless ``rotate = false``, the line-up
rotated by ``g``. With ``rotate = "paired"`` every seed is played once in every
rotation of the line-up: game ``g`` has seed ``seed + g // players`` and the
line-up rotated by ``g % players``, so the seats meet the same deals.

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
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from astrarium.agents.arena import MAX_GAMES, Match, Plan, plan_matches
from astrarium.agents.levels import measured_spec
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

#: ``rotate = "paired"``: every seed played once in every rotation of the line-up.
PAIRED = "paired"
#: How the seats are filled: rotated every game (True), kept in place (False), or every seed in every rotation (paired).
Rotate = bool | Literal["paired"]


class ExperimentFile(DataModel):
    """The schema of an experiment file (``experiments/<game>/<name>.toml``)."""

    game: Annotated[str, Field(min_length=1, max_length=64)]
    seats: Annotated[list[Annotated[str, Field(min_length=1, max_length=MAX_SPEC_CHARS)]], Field(min_length=1, max_length=MAX_SEATS)]
    players: Annotated[int, Field(ge=1, le=MAX_SEATS)] | None = None
    rotate: Rotate = True
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)] = 100
    seed: Annotated[int, Field(ge=0, le=2**62)] = 0
    options: dict[str, OptionValue] = Field(default_factory=dict)
    until: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    sweep: SweepBlock | None = None
    """A grid of options, players or data-file numbers: one run a point (:mod:`astrarium.lab.sweep`)."""
    tune: TuneBlock | None = None
    """A search of options for targets (:mod:`astrarium.lab.tune`)."""

    @field_validator("rotate", mode="before")
    @classmethod
    def _rotate_value(cls, value: Any) -> Any:
        if value is True or value is False or value == PAIRED:
            return value
        raise ValueError(f'true, false or "paired" (every seed played once in every rotation), not {short(repr(value), 40)}')


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
    rotate: Rotate = True
    """True: the line-up rotated every game; False: seats kept in place; ``"paired"``: every seed in every rotation."""
    source: str | None = None
    given_options: Mapping[str, Any] = field(default_factory=dict)
    """The options as written (the command repeats these, not the game's defaults)."""
    until: str | None = None
    """A stopping rule (``seat 0 score in 0.45..0.55``): stop once it is answered (:mod:`astrarium.lab.sequential`)."""

    @property
    def players(self) -> int:
        return len(self.lineup)

    @property
    def paired(self) -> bool:
        """Whether every seed is played once in every rotation of the line-up (``rotate = "paired"``)."""
        return self.rotate == PAIRED

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
        problem = paired_games_problem(self.rotate, games, self.players)
        if problem is not None:
            raise ValueError(f"--games {games}: {problem}")
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
        """The games to play, lazily: the arena's plan, seats kept in place without ``rotate``, every seed in every rotation when paired."""
        plan = plan_matches(self.game, self.lineup, self.games, seed=self.seed, options=self.options)
        if self.paired:
            return PairedPlan(plan)
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
            if self.paired:
                words.append("--paired")
            elif not self.rotate:
                words.append("--no-rotate")
        if self.until is not None:
            words += ["--until", self.until]
        if out is not None:
            words += ["--out", str(out)]
        return shlex.join(words)


def paired_games_problem(rotate: Rotate, games: int, players: int) -> str | None:
    """What is wrong with ``games`` for a paired run (a whole number of seeds, each in every rotation), or None."""
    if rotate != PAIRED or games % players == 0:
        return None
    below = games - games % players
    nearest = f"{below:,} or {below + players:,}" if below else f"{players:,}"
    return (
        f'rotate = "paired" plays every seed once in each of the {players} rotations of the line-up: '
        f"games counts games, so it must be a multiple of {players} (try {nearest})"
    )


@dataclass(frozen=True, slots=True)
class SeatedPlan(Sequence[Match]):
    """The arena's plan with the seats filled another way (:meth:`game`), made one game at a time as the arena's is."""

    rotated: Plan

    def __len__(self) -> int:
        return len(self.rotated)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[g] for g in range(*index.indices(len(self)))]
        return self.game(range(len(self))[index])

    def game(self, g: int) -> Match:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class FixedPlan(SeatedPlan):
    """The arena's plan with every seat kept in place (no rotation): seat ``s`` is always entry ``s``."""

    def game(self, g: int) -> Match:
        match = self.rotated.match(g)
        return replace(match, seats=self.rotated.lineup, entries=tuple(range(match.players)))


@dataclass(frozen=True, slots=True)
class PairedPlan(SeatedPlan):
    """The arena's plan with every seed played once in every rotation of the line-up.

    Game ``g`` has seed ``seed + g // players`` and the line-up rotated by
    ``g % players`` (entry ``k`` at seat ``(k + g) % players``, as the arena's
    game ``g``): the ``players`` games of a seed are consecutive, so a run
    stopped early has whole seeds but for the last.
    """

    def game(self, g: int) -> Match:
        players = len(self.rotated.lineup)
        deal, seating = self.rotated.match(g // players), self.rotated.match(g % players)
        return replace(deal, index=g, seats=seating.seats, entries=seating.entries)


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
    rotate: Rotate = True,
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
    problem = paired_games_problem(rotate, games, count)
    if problem is not None:
        raise DataError(file, "games", f"{games:,}: {problem}")
    experiment = Experiment(game.id, lineup, games, seed, resolved, rotate, source, given, until)
    try:
        experiment.plan()  # every player spec checked now, before any game
    except ValueError as exc:
        raise DataError(file, "seats", str(exc)) from None
    return experiment


def _seat_spec(spec: str, hidden_or_chance: bool, game_id: str) -> str:
    """A seat's player: a level (``easy``, ``medium``, ``hard``) becomes the spec it plays, by its iteration budget."""
    return measured_spec(spec, hidden_or_chance, game_id)
