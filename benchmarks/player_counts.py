"""Engine speed by player count: every game at each number of players it allows (part of ``make bench``).

For each game and player count: microseconds per random-playout step
(``legal_actions()`` + ``apply()``), actions a game, microseconds per
``clone()`` of the positions of those games, and the legal actions a decision
(median, mean, largest). Random games from seeds 0, 1, ... for about
``seconds`` each; processor time of this process (``time.process_time``), so
other work on a shared machine inflates it less.

    python benchmarks/player_counts.py [--games ID,ID] [--seconds 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

try:
    import astrarium
except ImportError:  # a checkout without an install: the sources beside this script
    sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "src"))
    import astrarium

from astrarium.core import Game, Rng

#: The largest player count measured (no shipped game seats more than four).
MOST_PLAYERS = 4


@dataclass(frozen=True, slots=True)
class CountFigures:
    """One game at one player count."""

    game: str
    players: int
    games: int
    step_us: float
    steps_per_game: float
    clone_us: float
    legal_median: float
    legal_mean: float
    legal_max: int


def measure(game: Game, players: int, seconds: float) -> CountFigures:
    """Random games of ``game`` with ``players`` players for about ``seconds`` of processor time."""
    steps, games, step_time, clone_time, clones = 0, 0, 0.0, 0.0, 0
    counts: list[int] = []
    began = time.process_time()
    while games == 0 or time.process_time() - began < seconds:
        state = game.new_game(players, games)
        rng = Rng(games)
        while not state.is_over:
            legal = state.legal_actions()
            counts.append(len(legal))
            start = time.process_time()
            state.clone()
            clone_time += time.process_time() - start
            clones += 1
            start = time.process_time()
            state.apply(legal[rng.below(len(legal))])
            step_time += time.process_time() - start
            steps += 1
        games += 1
    return CountFigures(
        game.id,
        players,
        games,
        step_time / max(steps, 1) * 1e6,
        steps / games,
        clone_time / max(clones, 1) * 1e6,
        statistics.median(counts) if counts else 0.0,
        statistics.fmean(counts) if counts else 0.0,
        max(counts, default=0),
    )


def measure_all(game_ids: list[str], seconds: float) -> list[CountFigures]:
    """Every game named (all registered when empty) at every player count it allows, up to four."""
    figures = []
    for game_id in game_ids or astrarium.list_games():
        game = astrarium.get_game(game_id)
        for players in range(game.min_players, min(game.max_players, MOST_PLAYERS) + 1):
            figures.append(measure(game, players, seconds))
    return figures


def print_figures(figures: list[CountFigures]) -> None:
    header = f"{'game':18} {'players':>7} {'games':>6} {'step us':>8} {'steps/game':>10} {'clone us':>8} {'legal med/mean/max':>20}"
    print(header)
    print("-" * len(header))
    for f in figures:
        legal = f"{f.legal_median:.0f}/{f.legal_mean:.1f}/{f.legal_max}"
        print(f"{f.game:18} {f.players:>7} {f.games:>6} {f.step_us:>8.1f} {f.steps_per_game:>10.0f} {f.clone_us:>8.1f} {legal:>20}")
    print("by player count: random games, processor time; a step is legal_actions() + apply(); clone of every position played.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--seconds", type=float, default=1.0, help="processor seconds of random games per game and player count")
    args = parser.parse_args(argv)
    print_figures(measure_all([g for g in args.games.split(",") if g], args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
