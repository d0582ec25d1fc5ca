"""What a run found: per seat win, draw and loss rates with 95% Wilson intervals, and a few totals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pyarrow as pa

from astrarium.core.stats import wilson_interval
from astrarium.lab.deals import Deals, deals

Interval = tuple[float, float]


@dataclass(slots=True)
class Tally:
    """The results of one seat (with seats rotated, every player sits there in turn) or one player of the line-up."""

    index: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, value: float) -> None:
        self.games += 1
        if value > 0:
            self.wins += 1
        elif value < 0:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def score_interval(self) -> Interval:
        return wilson_interval(self.wins + self.draws / 2, self.games)

    def rate(self, count: int) -> tuple[float, Interval]:
        """A count of these games as a rate with its 95% interval."""
        return (count / self.games if self.games else 0.0), wilson_interval(count, self.games)


@dataclass(slots=True)
class Summary:
    """The figures ``astrarium lab run`` prints at the end, with what made them."""

    experiment: str
    command: str
    games: int
    seats: list[Tally]
    players: list[Tally]
    """One per line-up entry (the players as the experiment lists them), wherever they sat."""
    by_play: int
    mean_moves: float
    mean_rounds: float | None
    lineup: list[str] = field(default_factory=list)
    deals: Deals | None = None
    """When every seed was played in every rotation (paired): seat 0's score over the deals, the deals the seating changed."""

    @property
    def first_seat(self) -> Tally:
        return self.seats[0]

    @property
    def by_play_rate(self) -> tuple[float, Interval]:
        """The share of games decided in play (not at a turn or round limit) with its 95% interval."""
        return (self.by_play / self.games if self.games else 0.0), wilson_interval(self.by_play, self.games)


def seat_stats(returns: Sequence[Sequence[float]], players: int) -> list[Tally]:
    """Each seat's wins, draws and losses over games given as their returns."""
    seats = [Tally(s) for s in range(players)]
    for game in returns:
        for seat, value in enumerate(game):
            seats[seat].add(value)
    return seats


def player_stats(returns: Sequence[Sequence[float]], entries: Sequence[Sequence[int]], players: int) -> list[Tally]:
    """Each line-up entry's wins, draws and losses, from the seat it had in each game."""
    tallies = [Tally(k) for k in range(players)]
    for game, sitting in zip(returns, entries, strict=True):
        for value, entry in zip(game, sitting, strict=True):
            tallies[entry].add(value)
    return tallies


def summarise(table: pa.Table, players: int, *, experiment: str, command: str, lineup: Sequence[str] = (), paired: bool = False) -> Summary:
    """The summary of a results table (one row a game, as in ``games.parquet``); ``paired`` adds the deals' figures."""
    returns = table.column("returns").to_pylist()
    moves = table.column("moves").to_pylist()
    rounds = [r for r in table.column("rounds").to_pylist() if r is not None]
    n = table.num_rows
    return Summary(
        experiment=experiment,
        command=command,
        games=n,
        seats=seat_stats(returns, players),
        players=player_stats(returns, table.column("entries").to_pylist(), players),
        by_play=table.column("ended_by").to_pylist().count("play"),
        mean_moves=sum(moves) / n if n else 0.0,
        mean_rounds=sum(rounds) / len(rounds) if rounds else None,
        lineup=list(lineup),
        deals=deals(table, players) if paired else None,
    )
