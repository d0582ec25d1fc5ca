"""Tuning: the [tune] block's checks, a small real search that finds its band, early stopping, resuming, the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lab_helpers import write_experiment
from typer.testing import CliRunner

from astrarium.cli import app
from astrarium.core.errors import DataError
from astrarium.lab import TuneResults, load, load_tune, load_tune_results, tune
from astrarium.lab.report import write_report
from astrarium.lab.tune import Target, Trial, _trial_run

ROOT = Path(__file__).resolve().parents[2]
RINGS = ROOT / "src" / "astrarium" / "games" / "orbital_combat" / "rings.toml"

BASE = 'game = "orbital-combat"\nseats = ["random", "random"]\n[options]\nround_limit = 5\n'
# With random players and 5 rounds, the hull decides how often a ship is destroyed before the limit:
# nearly always at 1, about two games in three at 3, almost never from 8 up.
HULL = BASE + (
    "[tune]\ntrials = 10\ngames = 60\nconfirm = 100\nbest = 1\n"
    "[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\ndecided = [0.55, 0.75]\n"
)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> TuneResults:
    folder = tmp_path_factory.mktemp("tune")
    return tune(write_experiment(folder, HULL), out=folder / "out")


def test_a_small_tune_finds_the_hull_that_puts_the_decided_share_in_its_band(tuned: TuneResults) -> None:
    assert len(tuned.trials) == 10
    [best] = tuned.confirmed
    assert best.settings == {"hull": 3}
    assert best.inside == [True] and 0.55 <= best.estimates[0].value <= 0.75 and best.estimates[0].games == 100
    assert best.estimates[0].method == "Wilson" and best.estimates[0].low < best.estimates[0].value < best.estimates[0].high
    assert "--option=hull=3" in best.command and "--games 100 --seed 60" in best.command


def test_a_trial_clearly_outside_its_band_stops_early(tuned: TuneResults) -> None:
    stopped = [t for t in tuned.trials if t.stopped]
    assert stopped and all(t.games < 60 and t.distances[0] > 0 for t in stopped)
    assert all(t.estimates[0].high < 0.55 or t.estimates[0].low > 0.75 for t in stopped)
    assert all(t.games == 60 for t in tuned.trials if not t.stopped)


def test_the_best_settings_are_confirmed_on_seeds_no_trial_played(tuned: TuneResults) -> None:
    trial_seeds = {s for t in tuned.trials for s in load(tuned.folder / t.folder).table.column("seed").to_pylist()}
    confirm_seeds = set(load(tuned.confirmed[0].folder).table.column("seed").to_pylist())
    assert trial_seeds <= set(range(60)) and confirm_seeds == set(range(60, 160))


def test_the_report_shows_the_trials_and_the_confirmation(tuned: TuneResults, tmp_path: Path) -> None:
    page = write_report([tuned.folder], tmp_path / "report.html").read_text()
    assert "Tune: out" in page and "every target in its band" in page
    trials = page.split("<h3>The trials</h3>")[1].split("<h3>")[0]
    assert "<svg" in trials and trials.split("<table>")[1].count("<tr>") == 11  # headings and ten trials
    assert "reproduce trial" in page and "--option=hull=3" in page


def test_an_interrupted_tune_goes_on_from_its_finished_trials(tmp_path: Path) -> None:
    text = HULL.replace("trials = 10\ngames = 60\nconfirm = 100", "trials = 5\ngames = 20\nconfirm = 20")
    path = write_experiment(tmp_path, text.replace("decided = [0.55, 0.75]", 'decided = [0.55, 0.75]\n"mean moves" = [5, 9]'))
    seen: list[Trial] = []

    def stop_after_three(trial: Trial) -> None:
        seen.append(trial)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(path, out=tmp_path / "out", on_trial=stop_after_three)
    parts = {t.folder: json.loads((tmp_path / "out" / t.folder / "manifest.json").read_text())["parts"] for t in seen}
    found = tune(path, out=tmp_path / "out")
    assert len(found.trials) == 5 and [t.settings for t in found.trials[:2]] == [t.settings for t in seen[:2]]
    assert seen[2].settings in [t.settings for t in found.trials[2:]]  # the interrupted trial's settings run again
    for folder, before in parts.items():  # from the games already played: nothing played twice
        assert json.loads((tmp_path / "out" / folder / "manifest.json").read_text())["parts"] == before
    assert [t.name for t in found.targets] == ["decided", "mean moves"] and all(len(t.distances) == 2 for t in found.trials)
    assert found.confirmed and load_tune_results(tmp_path / "out").best == found.best


def test_a_number_in_a_data_file_is_tuned_through_a_copy_the_option_names(tmp_path: Path) -> None:
    table = tmp_path / "rings.toml"
    shutil.copy(RINGS, table)
    text = BASE.replace("round_limit = 5\n", f'round_limit = 5\nring_table = "{table}"\n')
    text += f'[tune]\ntrials = 2\ngames = 4\nconfirm = 4\n[tune.space]\n"{table}:ring.7.radius_mm" = {{low = 210, high = 240}}\n'
    text += "[tune.targets]\ndecided = [0.5, 1.0]\n"
    found = tune(write_experiment(tmp_path, text), out=tmp_path / "out")
    for trial in found.trials:
        copy = tmp_path / "out" / trial.folder / "data" / "ring_table.json"
        assert json.loads(copy.read_text())["ring"][7]["radius_mm"] == trial.settings[f"{table}:ring.7.radius_mm"]
        assert 210 <= trial.settings[f"{table}:ring.7.radius_mm"] <= 240
    assert f"--option=ring_table={tmp_path / 'out' / 'confirm'}" in found.confirmed[0].command


@pytest.mark.parametrize(
    ("tune_text", "words"),
    [
        ("trails = 3\n[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\ndecided = [0, 1]\n", "tune.trails: Extra inputs"),
        ("[tune.space]\nhull = {low = 8, high = 1}\n[tune.targets]\ndecided = [0, 1]\n", "low (8) must be below high (1)"),
        ("[tune.space]\nhull = {low = 1}\n[tune.targets]\ndecided = [0, 1]\n", "give low and high"),
        ("[tune.space]\nhull = {low = 1, high = 3, choices = [1]}\n[tune.targets]\ndecided = [0, 1]\n", "not both"),
        (
            "[tune.space]\nhul = {low = 1, high = 8}\n[tune.targets]\ndecided = [0, 1]\n",
            "tune.space 'hul': not an option of orbital-combat",
        ),
        (
            "[tune.space]\nhull = {low = 0, high = 8}\n[tune.targets]\ndecided = [0, 1]\n",
            "tune.space 'hull': 0: options: option 'hull': 0 is below",
        ),
        ("[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\nfun = [0, 1]\n", "tune.targets 'fun': the lab cannot measure this"),
        ("[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\ndecided = [0.5, 2]\n", "a share's band lies within 0..1"),
        ("[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\ndecided = [0.9, 0.1]\n", "low first"),
        ("[tune.space]\nhull = {low = 1, high = 8}\n[tune.targets]\n'seat 3 score' = [0, 1]\n", "there is no seat 3"),
        ("[tune.space]\nhull = {low = 1, high = 8}\n", "tune.targets: Field required"),
    ],
)
def test_a_bad_tune_names_the_file_and_the_key(tmp_path: Path, tune_text: str, words: str) -> None:
    path = write_experiment(tmp_path, BASE + "[tune]\n" + tune_text)
    with pytest.raises(DataError) as caught:
        load_tune(path)
    assert str(caught.value).startswith(str(path)) and words in str(caught.value)


def test_a_mean_of_rounds_is_refused_for_a_game_that_counts_none(tmp_path: Path) -> None:
    text = 'game = "celestials"\nseats = ["random", "random"]\n[tune]\n[tune.space]\nturn_limit = {low = 5, high = 30}\n'
    path = write_experiment(tmp_path, text + '[tune.targets]\n"mean rounds" = [5, 10]\n')
    with pytest.raises(DataError, match="tune.targets 'mean rounds': celestials counts no rounds"):
        load_tune(path)


def test_the_command_prints_each_trial_then_the_best_with_the_command_to_reproduce_it(tmp_path: Path) -> None:
    text = HULL.replace("trials = 10\ngames = 60\nconfirm = 100", "trials = 2\ngames = 10\nconfirm = 10")
    path = write_experiment(tmp_path, text)
    out = str(tmp_path / "out")
    result = CliRunner().invoke(app, ["lab", "run", str(path), "--jobs", "1", "--out", out])
    assert result.exit_code == 0, result.output
    said = result.output.replace("\n", "")
    assert "trial 0: hull=" in said and "trial 1: hull=" in said and "confirming trial" in said
    assert (
        "reproduce trial" in said
        and "astrarium lab run --game orbital-combat" in said
        and f"command: astrarium lab run {path} --out {out}" in said
    )
    refused = CliRunner().invoke(app, ["lab", "run", str(path), "--games", "5", "--out", out])
    assert refused.exit_code == 2 and "no --games or --until" in refused.output


def test_the_example_tune_varies_a_card_of_the_shipped_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the example names the deck from the checkout's root
    chosen = load_tune(ROOT / "experiments" / "celestials" / "sun-lion-tune.toml")
    [health, lion] = [variable for variable, _ in chosen.variables]
    assert health.kind == "option" and lion.kind == "file" and lion.option == "sun_deck"
    assert lion.path == ("cards", "solar-lion", "damage")
    assert [t.name for t in chosen.targets] == ["seat 0 score", "decided"] and chosen.confirm_seed == 200


@given(st.floats(-5, 5), st.floats(-5, 5), st.floats(-10, 10))
def test_a_targets_distance_is_zero_inside_its_band_and_the_gap_to_it_outside(a: float, b: float, value: float) -> None:
    low, high = min(a, b), max(a, b)
    target = Target("mean moves", low, high, column="moves")
    distance = target.distance(value)
    assert (distance == 0) == (low <= value <= high)
    assert distance == pytest.approx(min(abs(value - low), abs(value - high)) if distance else 0.0)


def test_a_trial_stopped_early_stops_at_once_when_run_again_with_the_same_games(tmp_path: Path) -> None:
    chosen = load_tune(write_experiment(tmp_path, HULL))
    runner = {"out": tmp_path / "out", "play": {"jobs": 1, "backend": "local", "address": None}}
    first, stopped = _trial_run(chosen, {"hull": 8}, tmp_path / "trial", runner)  # almost no game decided: clearly below the band
    assert stopped and 0 < first.table.num_rows < 60
    second, again = _trial_run(chosen, {"hull": 8}, tmp_path / "trial", runner)
    assert again and second.table.equals(first.table)  # the run's stop hook saw the saved games and played none


def test_a_paired_tune_counts_games_in_whole_seeds(tmp_path: Path) -> None:
    paired = HULL.replace('seats = ["random", "random"]\n', 'seats = ["random", "random"]\nrotate = "paired"\n')
    assert load_tune(write_experiment(tmp_path, paired)).base.paired
    with pytest.raises(DataError, match=r"exp.toml: tune.confirm: 101: rotate = \"paired\" .* multiple of 2"):
        load_tune(write_experiment(tmp_path, paired.replace("confirm = 100", "confirm = 101")))
