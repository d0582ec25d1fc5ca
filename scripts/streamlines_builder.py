"""Compare two scripted teams on the same seeds: does laying streamlines pay? (rules.md, "Design notes")

    .venv/bin/python scripts/streamlines_builder.py --games 300
    .venv/bin/python scripts/streamlines_builder.py --games 300 --option free_lay=true

For each scenario and player count, the courier and the builder
(``astrarium.agents.streamlines_courier``) play the same seeded
games; the table gives each win rate with its 95% Wilson interval and the paired
difference (builder minus courier) with its 95% interval (the games one team won and
the other lost, as in McNemar's test).
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from astrarium.agents.streamlines_compare import parse_options
from astrarium.agents.streamlines_courier import won
from astrarium.core.stats import wilson_interval
from astrarium.games.streamlines.board import SCENARIO_NAMES


def paired(scenario: str, players: int, games: int, options: dict[str, Any]) -> tuple[int, int, float, float]:
    """(courier wins, builder wins, paired difference, half-width of its 95% interval) over seeds 0 .. games-1."""
    a = [won(scenario, players, seed, False, options) for seed in range(games)]
    b = [won(scenario, players, seed, True, options) for seed in range(games)]
    only_b = sum(y and not x for x, y in zip(a, b, strict=True))
    only_a = sum(x and not y for x, y in zip(a, b, strict=True))
    diff = (only_b - only_a) / games
    half = 1.96 * math.sqrt(max(0.0, only_a + only_b - (only_b - only_a) ** 2 / games)) / games
    return sum(a), sum(b), diff, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--scenario", choices=SCENARIO_NAMES, action="append", help="only these scenarios (default: all)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), action="append", help="only these player counts (default: 2, 3, 4)")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    args = parser.parse_args()
    options = parse_options(args.option)
    n = args.games
    print("| scenario | players | courier wins | builder wins | builder - courier (paired) |")
    print("| --- | --- | --- | --- | --- |")
    for scenario in args.scenario or SCENARIO_NAMES:
        for players in args.players or (2, 3, 4):
            a, b, diff, half = paired(scenario, players, n, options)
            (alo, ahi), (blo, bhi) = wilson_interval(a, n), wilson_interval(b, n)
            print(
                f"| {scenario} | {players} | {a / n:.1%} ({alo:.1%}..{ahi:.1%}) | {b / n:.1%} ({blo:.1%}..{bhi:.1%}) "
                f"| {diff:+.1%} ({diff - half:+.1%}..{diff + half:+.1%}) |",
                flush=True,
            )


if __name__ == "__main__":
    main()
