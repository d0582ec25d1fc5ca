"""The arena: many games between computer players, seats rotated, seeds recorded.

``plan_matches`` lays out the games: game ``g`` has seed ``seed + g`` and the
line-up rotated by ``g``, so entry ``k`` of the line-up sits at seat
``(k + g) % players``; over a multiple of ``players`` games every entry plays
every seat equally often. ``play_match`` plays one (in any process: it needs
only the registry), ``run_matches`` plays them all, on several processes when
asked, and ``summarise`` turns the results into win/draw/loss rates with 95%
Wilson intervals, the mean game length and the first seat's advantage.
"""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar, overload

from astrarium.agents.base import make_agent
from astrarium.agents.search import seat_to_act
from astrarium.core.data import check_path, write_text_file
from astrarium.core.errors import short
from astrarium.core.game import State
from astrarium.core.registry import get_game
from astrarium.core.stats import wilson_interval


@dataclass(frozen=True, slots=True)
class Match:
    """One game to play: which game, its seed, and who sits at each seat."""

    index: int
    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    entries: tuple[int, ...]
    """For each seat, the index of the line-up entry sitting there."""
    records: str | None = None


@dataclass(slots=True)
class MatchResult:
    """How one game went: per seat the return and the seconds spent choosing."""

    index: int
    seed: int
    seats: list[str]
    entries: list[int]
    returns: list[float]
    winners: list[int]
    reason: str
    length: int
    think_seconds: list[float]
    moves_by_seat: list[int]
    record: str | None = None


@dataclass(slots=True)
class EntryStats:
    """One line-up entry's results over the whole run."""

    entry: int
    spec: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    think_seconds: float = 0.0
    moves: int = 0
    win_ci: tuple[float, float] = (0.0, 0.0)
    draw_ci: tuple[float, float] = (0.0, 0.0)
    loss_ci: tuple[float, float] = (0.0, 0.0)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    @property
    def loss_rate(self) -> float:
        return self.losses / self.games if self.games else 0.0

    @property
    def seconds_per_move(self) -> float:
        return self.think_seconds / self.moves if self.moves else 0.0


@dataclass(slots=True)
class Summary:
    """What a run of the arena found."""

    game: str
    players: int
    games: int
    cooperative: bool
    entries: list[EntryStats]
    mean_length: float
    seat_wins: list[int]
    seat_win_ci: list[tuple[float, float]]
    first_seat_advantage: float
    """Seat 0's win rate minus the mean win rate of all seats (0 means no advantage)."""
    team_wins: int = 0
    team_win_ci: tuple[float, float] = (0.0, 0.0)
    results: list[MatchResult] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "cooperative": self.cooperative,
            "mean_length": self.mean_length,
            "seat_wins": self.seat_wins,
            "seat_win_ci": [list(ci) for ci in self.seat_win_ci],
            "first_seat_advantage": self.first_seat_advantage,
            "entries": [
                {
                    **asdict(e),
                    "win_rate": e.win_rate,
                    "draw_rate": e.draw_rate,
                    "loss_rate": e.loss_rate,
                    "seconds_per_move": e.seconds_per_move,
                }
                for e in self.entries
            ],
            "results": [asdict(r) for r in self.results],
        }
        if self.cooperative:
            data["team_wins"] = self.team_wins
            data["team_win_ci"] = list(self.team_win_ci)
        return data


R = TypeVar("R")


class MatchError(ValueError):
    """A game of the arena failed; the message names the game, its seed, the move and who sat where."""


#: The most games one run of the arena plays (a billion games would already take years).
MAX_GAMES = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Plan(Sequence[Match]):
    """The games of a run, made one at a time when asked for.

    A run of a hundred million games must start at once, not after building a
    hundred million :class:`Match` objects: the plan holds only what every game
    shares, and ``plan[g]`` (or iterating it) makes game ``g``'s match.
    """

    game: str
    lineup: tuple[str, ...]
    games: int
    seed: int
    options: Mapping[str, Any]
    records: str | None = None

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, index: int) -> Match: ...

    @overload
    def __getitem__(self, index: slice) -> list[Match]: ...

    def __getitem__(self, index: int | slice) -> Match | list[Match]:
        if isinstance(index, slice):
            return [self.match(g) for g in range(*index.indices(self.games))]
        g = index + self.games if index < 0 else index
        if not 0 <= g < self.games:
            raise IndexError(f"game {index} is not in a plan of {self.games} games")
        return self.match(g)

    def __iter__(self) -> Iterator[Match]:
        for g in range(self.games):
            yield self.match(g)

    def match(self, g: int) -> Match:
        """Game ``g``: seed ``seed + g``, the line-up rotated by ``g``."""
        players = len(self.lineup)
        entries = tuple((s - g) % players for s in range(players))
        seats = tuple(self.lineup[e] for e in entries)
        return Match(g, self.game, players, self.seed + g, self.options, seats, entries, self.records)


def plan_matches(
    game_id: str,
    lineup: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    records: str | Path | None = None,
) -> Plan:
    """``games`` matches of ``lineup`` (one agent spec per seat), seats rotated each game.

    Raises OptionError/UnknownGame for a bad game, player count or options, and
    ValueError for a bad agent spec, a game count out of range or a records
    folder that cannot be written, before any game is played. The plan is lazy
    (see :class:`Plan`), so its size costs nothing until the games are played.
    """
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"the arena plays from 1 to {MAX_GAMES:,} games, not {short(repr(games), 40)}")
    game = get_game(game_id)
    players = len(lineup)
    game.check_players(players)
    resolved = dict(game.resolve_options(players, options))
    game.new_game(players, seed, resolved)  # checks the player count and options now
    for k, spec in enumerate(lineup):
        make_agent(spec, seed=k, game=game.id)  # checks the spec now, not in a worker
    folder = None if records is None else str(prepare_folder(records))
    return Plan(game.id, tuple(lineup), games, seed, resolved, folder)


def prepare_folder(path: str | Path) -> Path:
    """The records folder, made if missing; a ValueError says why it cannot hold records (before any game)."""
    folder = check_path(path, "records folder")
    shown = short(str(folder))
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"cannot keep records in {shown!r}: it is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot make the records folder {shown!r}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write records in {shown!r}: permission denied")
    return folder


def play_match(match: Match) -> MatchResult:
    """Play one game of the plan to its end; save its record if the plan keeps records.

    Any failure (a game bug, an agent choosing an illegal action) is raised as
    :class:`MatchError` naming the seed, the move and the seats, so it can be replayed.
    """
    return play_out(match)[1]


def play_out(match: Match) -> tuple[State, MatchResult]:
    """:func:`play_match`, also handing back the final position (for measurements that read more of it)."""
    try:
        return _play(match)
    except MatchError:
        raise
    except Exception as exc:
        seats = ", ".join(f"{s}={spec}" for s, spec in enumerate(match.seats))
        raise MatchError(f"game {match.index} of {match.game} (seed {match.seed}; {seats}) failed: {type(exc).__name__}: {exc}") from None


def _play(match: Match) -> tuple[State, MatchResult]:
    game = get_game(match.game)
    state = game.new_game(match.players, match.seed, match.options)
    agents = [make_agent(spec, seed=match.seed * 1000 + match.entries[s], game=match.game) for s, spec in enumerate(match.seats)]
    think = [0.0] * match.players
    moves = [0] * match.players
    clock = time.perf_counter
    while not state.is_over:
        seat = seat_to_act(state)
        started = clock()
        action = agents[seat].choose(state)
        think[seat] += clock() - started
        moves[seat] += 1
        try:
            state.apply(action)
        except Exception as exc:
            raise MatchError(
                f"game {match.index} of {match.game} (seed {match.seed}): seat {seat} ({match.seats[seat]}) "
                f"played {action} at move {state.move_number + 1}: {exc}"
            ) from None
    outcome = state.outcome
    record_path = None
    if match.records is not None:
        record = state.to_record()
        record["seats"] = {str(s): spec for s, spec in enumerate(match.seats)}
        record["arena"] = {"game_index": match.index, "entries": list(match.entries)}
        path = Path(match.records) / f"{match.game}-{match.index:05d}-seed{match.seed}.json"
        record_path = str(write_text_file(path, json.dumps(record, indent=1) + "\n"))
    return state, MatchResult(
        index=match.index,
        seed=match.seed,
        seats=list(match.seats),
        entries=list(match.entries),
        returns=list(state.returns()),
        winners=list(outcome.winners) if outcome else [],
        reason=outcome.reason if outcome else "",
        length=state.move_number,
        think_seconds=think,
        moves_by_seat=moves,
        record=record_path,
    )


def run_matches(plan: Sequence[Match], jobs: int = 1, on_result: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Play every match, on ``jobs`` processes (1: in this process); results in plan order."""
    results: list[MatchResult] = []
    for result in played(plan, jobs, play_match):
        results.append(result)
        if on_result is not None:
            on_result(result)
    results.sort(key=lambda r: r.index)
    return results


def played(plan: Sequence[Match], jobs: int, play: Callable[[Match], R]) -> Iterator[R]:
    """``play(match)`` for every match, in the order the games finish, on ``jobs`` processes (1: in this process).

    ``play`` must be a module-level function (or a ``functools.partial`` of one)
    when ``jobs`` is above 1, so that the worker processes can be handed it.
    """
    if jobs <= 1 or len(plan) <= 1:
        for match in plan:
            yield play(match)
        return
    methods = multiprocessing.get_all_start_methods()
    # fork keeps games registered at run time (plug-ins, tests); spawn re-imports the registry.
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(min(jobs, len(plan))) as pool:
        yield from pool.imap_unordered(play, plan, chunksize=1)


def summarise(game_id: str, lineup: Sequence[str], results: Sequence[MatchResult]) -> Summary:
    """Win/draw/loss per line-up entry with 95% intervals, mean length, seat-0 advantage."""
    game = get_game(game_id)
    players = len(lineup)
    entries = [EntryStats(k, spec) for k, spec in enumerate(lineup)]
    seat_wins = [0] * players
    team_wins = 0
    for result in results:
        for seat, value in enumerate(result.returns):
            stats = entries[result.entries[seat]]
            stats.games += 1
            stats.think_seconds += result.think_seconds[seat]
            stats.moves += result.moves_by_seat[seat]
            if value > 0:
                stats.wins += 1
                seat_wins[seat] += 1
            elif value < 0:
                stats.losses += 1
            else:
                stats.draws += 1
        if game.cooperative and result.returns and result.returns[0] > 0:
            team_wins += 1
    n = len(results)
    for stats in entries:
        stats.win_ci = wilson_interval(stats.wins, stats.games)
        stats.draw_ci = wilson_interval(stats.draws, stats.games)
        stats.loss_ci = wilson_interval(stats.losses, stats.games)
    seat_rates = [w / n if n else 0.0 for w in seat_wins]
    advantage = seat_rates[0] - sum(seat_rates) / players if n else 0.0
    return Summary(
        game=game.id,
        players=players,
        games=n,
        cooperative=game.cooperative,
        entries=entries,
        mean_length=sum(r.length for r in results) / n if n else 0.0,
        seat_wins=seat_wins,
        seat_win_ci=[wilson_interval(w, n) for w in seat_wins],
        first_seat_advantage=advantage,
        team_wins=team_wins,
        team_win_ci=wilson_interval(team_wins, n),
        results=list(results),
    )


def write_results(summary: Summary, path: str | Path) -> Path:
    """Save a run: ``.json`` (the summary and every game) or ``.csv`` (one row per game and seat)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return write_text_file(path, json.dumps(summary.to_json(), indent=1) + "\n")
    if suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["game", "index", "seed", "seat", "entry", "agent", "return", "result", "length", "reason", "think_seconds"])
        for r in summary.results:
            for seat, value in enumerate(r.returns):
                result = "win" if value > 0 else "loss" if value < 0 else "draw"
                writer.writerow(
                    [
                        summary.game,
                        r.index,
                        r.seed,
                        seat,
                        r.entries[seat],
                        r.seats[seat],
                        value,
                        result,
                        r.length,
                        r.reason,
                        f"{r.think_seconds[seat]:.6f}",
                    ]
                )
        return write_text_file(path, buffer.getvalue())
    raise ValueError(f"--out {short(str(path))!r}: write results to a .json or .csv file")
