"""The lab's metrics, the games' own metrics, and comparing two folders on the same seeds."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import astrarium
from astrarium import lab
from astrarium.agents.arena import plan_matches, play_out
from astrarium.cli.app import app
from astrarium.core.errors import DataError
from astrarium.lab.metrics import balance, histogram
from astrarium.lab.trace import CACHE, things_named

runner = CliRunner()
GAMES = ("celestials", "connected-worlds", "constellations", "orbital-combat", "streamlines")


def orbital(tmp_path: Path, name: str, seats: list[str], games: int = 12) -> lab.Results:
    experiment = lab.build_experiment("orbital-combat", seats, games=games, seed=7, options={"round_limit": 5})
    return lab.run(experiment, out=tmp_path / name)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_its_own_metrics_and_the_lab_writes_them_as_columns(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    assert game.parts.metrics is not None
    state, _ = play_out(plan_matches(game_id, ["random", "random"], 1, seed=3)[0])
    found = game.parts.metrics(state)
    assert found and all(isinstance(v, float) and math.isfinite(v) for v in found.values())


def test_the_metrics_of_a_folder_have_intervals_that_hold_their_values(tmp_path: Path) -> None:
    results = orbital(tmp_path, "a", ["random", "greedy"])
    found = lab.metrics(results)
    names = found.as_dict()
    for name in ("AdvantageP1", "Balance", "Drawishness", "Completion", "Timeouts", "Duration moves", "win seat 0", "metric_hull_0"):
        estimate = names[name]
        assert estimate.low <= estimate.value <= estimate.high and estimate.games == 12, name
    assert names["AdvantageP1"].value == results.summary().first_seat.score
    assert names["Completion"].value + names["Timeouts"].value == pytest.approx(1.0)
    assert found.experiment == "inline" and found.command == results.command
    assert sum(found.histograms[0].counts) == 12


def test_the_replay_metrics_are_cached_in_the_folder(tmp_path: Path) -> None:
    results = lab.run(lab.build_experiment("celestials", ["greedy", "random"], games=4, options={"turn_limit": 4}), out=tmp_path / "c")
    found = lab.metrics(results, replay=True).as_dict()
    assert found["BranchingFactor"].value >= 1
    assert found["DecisionFactor"].value >= 2 and 0 <= found["LeadChange"].value <= 1
    assert (tmp_path / "c" / CACHE).exists()
    shutil.rmtree(tmp_path / "c" / "records")  # the second call reads the cache: no record is needed
    again = lab.metrics(tmp_path / "c", replay=True)
    assert again.as_dict()["BranchingFactor"] == found["BranchingFactor"]
    usage = {u.name: u for u in again.usage}
    assert "action:play" in usage and any(name.startswith("card:") for name in usage)
    assert all(0 <= u.chosen <= u.legal for u in usage.values())


def test_usage_names_the_action_kind_and_the_cards_of_a_notation() -> None:
    assert things_named("play solar-lion B1", frozenset({"solar-lion", "phoenix"})) == {"action:play", "card:solar-lion"}


def test_balance_is_the_largest_difference_of_seat_scores_with_a_bootstrap_interval(tmp_path: Path) -> None:
    results = orbital(tmp_path, "b", ["random", "random"])
    estimate = balance(results.table, 2)
    scores = results.summary().seats
    assert estimate.value == pytest.approx(abs(scores[0].score - scores[1].score))
    assert estimate.low <= estimate.value <= estimate.high and estimate.method == "bootstrap"


def test_histogram_bins_hold_every_value() -> None:
    found = histogram("x", [1, 2, 2, 3, 50])
    assert sum(found.counts) == 5 and found.edges[0] == 1 and found.edges[-1] > 50


def test_compare_pairs_by_seed_and_names_the_seeds_whose_winner_changed(tmp_path: Path) -> None:
    a = orbital(tmp_path, "a", ["random", "random"])
    same = lab.compare(a, orbital(tmp_path, "a2", ["random", "random"]))
    assert same.seeds == 12 and same.changed == [] and all(d.value == 0 for d in same.differences)
    other = lab.compare(a, orbital(tmp_path, "b", ["random", "greedy"]))
    assert other.changed and set(other.changed) <= set(a.table.column("seed").to_pylist())
    assert other.get("score player B").value > 0


def test_compare_refuses_folders_without_a_common_seed(tmp_path: Path) -> None:
    a = orbital(tmp_path, "a", ["random", "random"], games=2)
    later = lab.build_experiment("orbital-combat", ["random", "random"], games=2, seed=100, options={"round_limit": 5})
    b = lab.run(later, out=tmp_path / "b")
    with pytest.raises(DataError, match="no seed in common"):
        lab.compare(a, b)


def test_the_commands_print_the_metrics_and_the_comparison_naming_what_made_them(tmp_path: Path) -> None:
    a, b = orbital(tmp_path, "a", ["random", "random"], 4), orbital(tmp_path, "b", ["random", "greedy"], 4)
    shown = runner.invoke(app, ["lab", "metrics", str(a.folder)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert "AdvantageP1" in shown.output and "Wilson" in shown.output and f"command: {a.command}" in shown.output
    compared = runner.invoke(app, ["lab", "compare", str(a.folder), str(b.folder)], terminal_width=200)
    assert compared.exit_code == 0, compared.output
    assert "B minus A on 4 common seeds" in compared.output and "Winners changed on" in compared.output
    missing = runner.invoke(app, ["lab", "metrics", str(tmp_path / "nothing")])
    assert missing.exit_code != 0 and "Traceback" not in missing.output
