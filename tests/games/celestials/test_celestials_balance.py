"""The headline figures of rules.md ("Balance", "Design notes") at reduced game counts, with stated tolerances.

Each test plays a few seeded mirror games through scripts/card_usage.py (the
report of rules.md) and checks the figure the full run measured, with a margin
wide enough for the smaller count; each stays under about a minute of CPU time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import astrarium

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import card_usage  # noqa: E402 - the report script lives outside the package

pytestmark = pytest.mark.slow

GAME = astrarium.get_game("celestials")


def report(spec: str, games: int) -> dict:
    tallies = [card_usage.play_game(seed, spec, GAME.parse_options({})) for seed in range(games)]
    first = GAME.new_game(2, 0, {})
    return card_usage.summarise(tallies, first.rules.decks)


def test_balance_the_easy_player_uses_every_card_and_its_damage_phase() -> None:
    """40 greedy mirror games (rules.md: 200 games). Before the phase term: 0 advances in 40 games, no Zenith ever."""
    summary = report("greedy", 40)
    assert summary["advances"] >= 80  # the full run: 2.6 advances a game
    for card in summary["cards"]:
        assert card["drawn"] == 0 or card["rate"] >= card_usage.USAGE_TARGET, card
    damage = {p["phase"]: p["rate"] for p in summary["phases"] if p["kind"] == "damage"}
    assert damage["Zenith"] >= 0.9 and damage["Full Moon"] >= 0.6, damage
    assert 0.15 <= summary["sun_wins"] / summary["games"] <= 0.7  # the full run (200 games): Sun 58.5%


def test_balance_the_search_mirror_uses_the_phase_cycle() -> None:
    """3 games of the search (rules.md's mcts mirror) at its documented budget: both sides advance and strike."""
    summary = report("mcts:iterations=150,depth=10", 3)
    assert summary["advances"] >= 3
    damage = {p["phase"]: p["entered"] for p in summary["phases"] if p["kind"] == "damage"}
    assert damage["Zenith"] == 3 and damage["Full Moon"] >= 2, damage
    assert summary["reskins"] == []
