"""The benchmark script's measuring code runs on every game (figures are printed by `make bench`, never asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import astrarium

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from engine import measure_game  # noqa: E402


@pytest.mark.parametrize("game_id", astrarium.list_games())
def test_engine_figures_are_measured_for_every_game(game_id: str) -> None:
    figures = measure_game(astrarium.get_game(game_id), seconds=0.02, mcts_seconds=0.02)
    assert figures.games_played >= 3 and figures.moves_per_second > 0
    for value in (figures.step_us, figures.legal_actions_us, figures.apply_us, figures.clone_us, figures.state_kib):
        assert value > 0
    assert figures.mcts_start_sims > 0 and figures.mcts_mid_sims > 0
