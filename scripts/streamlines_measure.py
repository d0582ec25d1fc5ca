"""Measure how often a scripted team wins each scenario (the figures in rules.md).

    .venv/bin/python scripts/streamlines_measure.py --games 500 --player random
    .venv/bin/python scripts/streamlines_measure.py --games 500 --player courier
    .venv/bin/python scripts/streamlines_measure.py --games 500 --player builder --option events=collapse

Each game uses seed 0, 1, ...; ``random``: every seat picks uniformly among the
legal actions with ``Rng(seed)`` (the choice the ``random`` agent makes).
``courier`` and ``builder`` are the scripted players of
``astrarium.agents.streamlines_courier`` (the
builder lays streamline lanes, the courier never does), shipped as the named
players ``sl-courier`` and ``sl-builder``. Each row gives the win rate with its
95% Wilson interval.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, cast

from astrarium.agents.streamlines_compare import parse_options
from astrarium.agents.streamlines_courier import courier
from astrarium.core import Rng, get_game
from astrarium.core.stats import wilson_interval
from astrarium.games.streamlines.board import SCENARIO_NAMES
from astrarium.games.streamlines.state import StreamlinesState


def uniform(state: StreamlinesState, rng: Rng) -> Any:
    return rng.choice(state.legal_actions())


PLAYERS: dict[str, Callable[[StreamlinesState, Rng], Any]] = {
    "random": uniform,
    "courier": lambda state, rng: courier(state),
    "builder": lambda state, rng: courier(state, lay=True),
}


def play_games(scenario: str, players: int, games: int, player: str = "random", options: dict[str, Any] | None = None) -> tuple[int, float]:
    """(games won, mean refugees rescued) over ``games`` games seeded 0, 1, ..."""
    game = get_game("streamlines")
    choose = PLAYERS[player]
    wins = rescued = 0
    for seed in range(games):
        state = cast(StreamlinesState, game.new_game(players, seed, {"scenario": scenario, **(options or {})}))
        rng = Rng(seed)
        while (outcome := state.outcome) is None:
            state.apply(choose(state, rng))
        wins += bool(outcome.winners)
        rescued += state.rescued
    return wins, rescued / games


def win_rate(scenario: str, players: int, games: int, player: str = "random", options: dict[str, Any] | None = None) -> tuple[float, float]:
    """(share of games won, mean refugees rescued) over ``games`` seeded games."""
    wins, mean = play_games(scenario, players, games, player, options)
    return wins / games, mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--player", choices=sorted(PLAYERS), default="random")
    parser.add_argument("--scenario", choices=SCENARIO_NAMES, action="append", help="only these scenarios (default: all)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), action="append", help="only these player counts (default: 2, 3, 4)")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value (strings and integers)")
    args = parser.parse_args()
    options = parse_options(args.option)
    print(f"| scenario | players | {args.player} wins (95% interval) | refugees rescued (mean) |")
    print("| --- | --- | --- | --- |")
    for scenario in args.scenario or SCENARIO_NAMES:
        for players in args.players or (2, 3, 4):
            wins, mean = play_games(scenario, players, args.games, args.player, options)
            lo, hi = wilson_interval(wins, args.games)
            print(f"| {scenario} | {players} | {wins / args.games:.1%} ({lo:.1%}..{hi:.1%}) of {args.games} | {mean:.2f} |", flush=True)


if __name__ == "__main__":
    main()
