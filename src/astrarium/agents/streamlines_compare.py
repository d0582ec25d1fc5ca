"""Compare a Streamlines computer team with the scripted courier on the same seeds (the game's rules, "Balance").

    python -m astrarium.agents.streamlines_compare --games 200 --team sl-search
    python -m astrarium.agents.streamlines_compare --games 200 --team greedy --scenario standard --players 2

For each scenario and player count, a team (every seat the player ``--team``
names, seat *s* of game *g* seeded ``1000 g + s``) and the courier
(``sl-courier``) play the games seeded 0, 1, ... (the seeds of
``scripts/streamlines_builder.py`` and ``scripts/streamlines_measure.py``, so
the courier's column is the rules' courier figure). The table gives each win rate with its 95% Wilson interval
and the paired difference (team minus courier) with its 95% interval, from the
games one side won and the other lost (as in McNemar's test), and the team's
thinking time a move (processor time, so that other work on the machine does not
count; mean and longest).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

from astrarium.agents.base import make_agent
from astrarium.agents.streamlines_courier import won as courier_won
from astrarium.core import get_game
from astrarium.core.stats import wilson_interval
from astrarium.games.streamlines.board import SCENARIO_NAMES

GAME_ID = "streamlines"


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["events=collapse", "free_lay=true"]`` as game options (true/false, integers, else text)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        words = {"true": True, "false": False}
        options[key] = words[value] if value in words else int(value) if value.lstrip("-").isdigit() else value
    return options


def team_won(team: str, scenario: str, players: int, seed: int, options: dict[str, Any], times: list[float] | None = None) -> bool:
    """Whether a team of ``team`` players wins the game of this seed (each move's processor seconds added to ``times``)."""
    state = get_game(GAME_ID).new_game(players, seed, {"scenario": scenario, **options})
    agents = [make_agent(team, seed * 1000 + seat, game=GAME_ID) for seat in range(players)]
    while (seat := state.current_player) is not None:
        started = time.process_time()
        action = agents[seat].choose(state)
        if times is not None:
            times.append(time.process_time() - started)
        state.apply(action)
    return bool(state.outcome and state.outcome.winners)


def paired_difference(team: list[bool], courier: list[bool]) -> tuple[float, float]:
    """(team minus courier win rate, half-width of its 95% interval) over games played on the same seeds."""
    n = len(team)
    only_team = sum(t and not c for t, c in zip(team, courier, strict=True))
    only_courier = sum(c and not t for t, c in zip(team, courier, strict=True))
    diff = (only_team - only_courier) / n
    half = 1.96 * math.sqrt(max(0.0, only_team + only_courier - (only_team - only_courier) ** 2 / n)) / n
    return diff, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--team", default="sl-search", help="the player spec of every seat of the team")
    parser.add_argument("--scenario", choices=SCENARIO_NAMES, action="append", help="only these scenarios (default: all)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), action="append", help="only these player counts (default: 2, 3, 4)")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    parser.add_argument(
        "--each", action="store_true", help="also write each game to stderr: scenario, players, seed, courier won, team won"
    )
    args = parser.parse_args()
    make_agent(args.team, game=GAME_ID)  # a bad spec is refused before any game is played
    options = parse_options(args.option)
    n = args.games
    seeds = range(args.first, args.first + n)
    print(f"| scenario | players | sl-courier | {args.team} | team - courier (paired) | team's time a move (mean, longest) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for scenario in args.scenario or SCENARIO_NAMES:
        for players in args.players or (2, 3, 4):
            courier = [courier_won(scenario, players, seed, False, options) for seed in seeds]
            times: list[float] = []
            team = []
            for seed, courier_result in zip(seeds, courier, strict=True):
                team.append(team_won(args.team, scenario, players, seed, options, times))
                if args.each:
                    print(scenario, players, seed, int(courier_result), int(team[-1]), file=sys.stderr, flush=True)
            a, b = sum(courier), sum(team)
            mean_ms = 1000 * sum(times) / max(1, len(times))
            (alo, ahi), (blo, bhi) = wilson_interval(a, n), wilson_interval(b, n)
            diff, half = paired_difference(team, courier)
            print(
                f"| {scenario} | {players} | {a / n:.1%} ({alo:.1%}..{ahi:.1%}) | {b / n:.1%} ({blo:.1%}..{bhi:.1%}) "
                f"| {diff:+.1%} ({diff - half:+.1%}..{diff + half:+.1%}) | {mean_ms:.0f} ms, {max(times, default=0.0) * 1000:.0f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
