"""The headline figures of docs/balance/streamlines.md ("Balance", "Design notes") at reduced game counts (slow: run in CI).

The full measurements are 300 seeded games per scenario and player count
(the lab's experiments ``experiments/streamlines/{courier,builder}-<scenario>-<n>p.toml``); these
re-check each headline on the first 60 to 100 of the same seeds, with a stated
tolerance:

- the scenarios keep their order of difficulty for the best scripted team:
  introductory > standard > hard, two players, 100 games each;
- laying streamlines does not cost the builder against the courier: on the
  standard scenario, two players, the builder wins at least as many of 100
  games as the courier less 5 (full figure: +3.3 points, paired, 300 games);
- the designed events help the team: the courier wins more of 100
  introductory games with them than with Collapse alone (full figure: 57.7%
  against 76.0%, 300 games);
- the designer's switch changes play only where the example says: a courier
  team under ``movement=carried`` still wins the introductory scenario at
  least half of 60 games (its lanes have no arrow against another).
"""

from __future__ import annotations

import pytest

from astrarium import lab

pytestmark = pytest.mark.slow


def wins(player: str, scenario: str, games: int = 100, players: int = 2, **options: object) -> int:
    """Games a team of ``sl-<player>`` wins on seeds 0 .. games-1, played by the lab."""
    experiment = lab.build_experiment("streamlines", [f"sl-{player}"] * players, games=games, options={"scenario": scenario, **options})
    return lab.run(experiment, jobs=1).summary().first_seat.wins


def test_balance_scenarios_are_ordered_by_difficulty_for_the_best_team() -> None:
    intro, standard, hard = (wins("builder", name) for name in ("introductory", "standard", "hard"))
    assert intro > standard > hard, (intro, standard, hard)


def test_balance_laying_streamlines_does_not_cost_the_team() -> None:
    courier, builder = wins("courier", "standard"), wins("builder", "standard")
    assert builder >= courier - 5, (courier, builder)


def test_balance_designed_events_help_the_team() -> None:
    seed_only, designed = wins("courier", "introductory", events="collapse"), wins("courier", "introductory")
    assert designed > seed_only, (seed_only, designed)


def test_balance_carried_reading_keeps_the_introductory_scenario_winnable() -> None:
    assert wins("courier", "introductory", games=60, movement="carried") >= 30
