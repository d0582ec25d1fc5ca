"""Sweeps: the [sweep] block's checks, the grid, the same seeds at every point, resuming, the table and the curves."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from lab_helpers import write_experiment
from typer.testing import CliRunner

from astrarium.cli import app
from astrarium.core.errors import DataError
from astrarium.lab import Sweep, build_experiment, load_experiment, load_sweep, load_sweep_results, run, sweep
from astrarium.lab.report import write_report
from astrarium.lab.sweep import Point, prepare_sweep
from astrarium.lab.variables import Variable
from helpers import examples

ROOT = Path(__file__).resolve().parents[2]
RINGS = ROOT / "src" / "astrarium" / "games" / "orbital_combat" / "rings.toml"

BASE = 'game = "orbital-combat"\nseats = ["random", "random"]\ngames = 4\n[options]\nround_limit = 5\n'
MIRROR = build_experiment("orbital-combat", ["random", "random"], games=4)
GRID = BASE + '[sweep]\nhull = [1, 3]\n"seats.1" = ["random", "greedy"]\n'


def test_the_grid_is_every_combination_the_last_key_fastest(tmp_path: Path) -> None:
    chosen = load_sweep(write_experiment(tmp_path, GRID))
    assert chosen.grid() == [
        {"hull": 1, "seats.1": "random"},
        {"hull": 1, "seats.1": "greedy"},
        {"hull": 3, "seats.1": "random"},
        {"hull": 3, "seats.1": "greedy"},
    ]
    points = prepare_sweep(chosen, tmp_path / "out")
    assert [p.folder.name for p in points] == ["point-000", "point-001", "point-002", "point-003"]
    assert [(p.experiment.options["hull"], p.experiment.lineup) for p in points] == [
        (1, ("random", "random")),
        (1, ("random", "greedy")),
        (3, ("random", "random")),
        (3, ("random", "greedy")),
    ]
    assert all(p.experiment.options["round_limit"] == 5 for p in points)


def test_every_point_plays_the_same_seeds(tmp_path: Path) -> None:
    found = sweep(write_experiment(tmp_path, GRID), out=tmp_path / "out")
    seeds = [sorted(results.table.column("seed").to_pylist()) for _, results in found.points]
    assert len(seeds) == 4 and all(s == [0, 1, 2, 3] for s in seeds)
    first = found.points[0][1].table.sort_by("seed").column("seats").to_pylist()
    assert first == [["random", "random"]] * 4


def test_an_interrupted_sweep_is_finished_without_playing_a_game_twice(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, GRID)
    out = tmp_path / "out"

    def stop_at_the_third(point: Point) -> None:
        if point.number == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(path, out=out, on_point=stop_at_the_third)
    assert [settings for settings, _ in load_sweep_results(out).points] == [
        {"hull": 1, "seats.1": "random"},
        {"hull": 1, "seats.1": "greedy"},
    ]
    kept = {name: (out / name / "manifest.json").read_text() for name in ("point-000", "point-001")}
    found = sweep(path, out=out, games=6)
    assert len(found.points) == 4 and all(results.table.num_rows == 6 for _, results in found.points)
    for name, before in kept.items():  # the first four games are the parts written before; two more were added
        parts = json.loads((out / name / "manifest.json").read_text())["parts"]
        assert parts[: len(json.loads(before)["parts"])] == json.loads(before)["parts"] and len(parts) == 2
    assert all(sorted(r.table.column("seed").to_pylist()) == list(range(6)) for _, r in found.points)


def test_a_folder_of_another_sweep_is_refused(tmp_path: Path) -> None:
    sweep(write_experiment(tmp_path, GRID), out=tmp_path / "out")
    other = write_experiment(tmp_path, BASE + "[sweep]\nhull = [2, 3]\n", name="other.toml")
    with pytest.raises(DataError, match="another sweep"):
        sweep(other, out=tmp_path / "out")


def test_a_number_in_a_data_file_is_varied_in_a_copy_the_option_names(tmp_path: Path) -> None:
    shutil.copy(RINGS, tmp_path / "rings.toml")
    text = BASE.replace("round_limit = 5\n", f'round_limit = 5\nring_table = "{tmp_path / "rings.toml"}"\n')
    text += f'[sweep]\n"{tmp_path / "rings.toml"}:ring.7.radius_mm" = [215, 245]\n'
    found = sweep(write_experiment(tmp_path, text), out=tmp_path / "out")
    for (settings, results), radius in zip(found.points, (215, 245), strict=True):
        copy = results.folder / "data" / "ring_table.json"
        assert json.loads(copy.read_text())["ring"][7]["radius_mm"] == radius
        assert results.manifest["experiment"]["options"]["ring_table"] == str(copy)
        assert list(settings.values()) == [radius] and results.table.num_rows == 4


@pytest.mark.parametrize(
    ("sweep_text", "words"),
    [
        ("hul = [1, 2]\n", "sweep 'hul': not an option of orbital-combat"),
        ("hull = []\n", "sweep.hull: List should have at least 1 item"),
        ("hull = [0, 5]\n", "sweep 'hull': 0: options: option 'hull': 0 is below the minimum 1"),
        ('"seats.2" = ["random"]\n', "sweep 'seats.2': a seat is 'seats.N' with N from 0 to 1"),
        ('"seats.0" = ["wizard"]\n', "sweep 'seats.0': 'wizard'"),
        ('"deck.toml:cards.x.power" = [1]\n', "sweep 'deck.toml:cards.x.power': no option in [options] names the file 'deck.toml'"),
        ("hull = [1]\n[tune]\ntrials = 2\n[tune.space]\nhull = {low = 1, high = 2}\n[tune.targets]\ndecided = [0, 1]\n", "not both"),
        ("hull = " + repr(list(range(1, 102))) + "\n", "List should have at most 100 items"),
    ],
)
def test_a_bad_sweep_names_the_file_and_the_key(tmp_path: Path, sweep_text: str, words: str) -> None:
    path = write_experiment(tmp_path, BASE + "[sweep]\n" + sweep_text)
    with pytest.raises(DataError) as caught:
        load_sweep(path)
    assert str(caught.value).startswith(str(path)) and words in str(caught.value)


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("ring.9.velocity", "the file has no 'ring.9'"),
        ("ring.7.colour", "the file has no 'ring.7.colour'"),
        ("ring", "is [{"),
        ("ring.7.velocity", "sweep '"),
    ],
)
def test_a_bad_data_file_key_names_the_entry(tmp_path: Path, key: str, words: str) -> None:
    shutil.copy(RINGS, tmp_path / "rings.toml")
    table = tmp_path / "rings.toml"
    values = "[3]" if key == "ring.7.velocity" else "[1]"  # 3 does not divide the ring's 50 sectors
    text = BASE.replace("round_limit = 5\n", f'round_limit = 5\nring_table = "{table}"\n') + f'[sweep]\n"{table}:{key}" = {values}\n'
    path = write_experiment(tmp_path, text)
    with pytest.raises(DataError) as caught:
        load_sweep(path)
    assert str(caught.value).startswith(str(path)) and words in str(caught.value)


def test_a_sweep_file_is_not_run_as_a_single_experiment(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, GRID)
    with pytest.raises(DataError, match="sweep: a file with a \\[sweep\\] block is run by lab.sweep"):
        load_experiment(path)
    with pytest.raises(DataError, match="sweep"):
        run(path, out=tmp_path / "out")


def test_the_command_runs_every_point_and_prints_a_row_a_point(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, BASE + "[sweep]\nhull = [1, 6]\n")
    result = CliRunner().invoke(app, ["lab", "run", str(path), "--jobs", "1", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "point 1 of 2" in result.output and "point 2 of 2" in result.output
    said = " ".join(result.output.split())
    assert "a row a point" in said and f"astrarium lab run {path} --games 4 --out" in result.output.replace("\n", "")
    again = CliRunner().invoke(app, ["lab", "run", str(path), "--jobs", "1", "--out", str(tmp_path / "out"), "--seat", "0=random"])
    assert again.exit_code == 2 and "not both" in again.output


def test_the_report_of_a_sweep_has_a_row_a_point_and_the_curves(tmp_path: Path) -> None:
    sweep(write_experiment(tmp_path, GRID), out=tmp_path / "out")
    page = write_report([tmp_path / "out"], tmp_path / "report.html").read_text()
    table = page.split("<h3>A row a point</h3>")[1].split("</table>")[0]
    assert table.count("<tr>") == 5  # the headings and four points
    assert "<th>hull</th><th>seats.1</th><th>games</th><th>seat 0 score</th>" in table
    curves = page.split("<h3>The sweep's curves</h3>")[1].split("<h3>")[0]
    assert "<svg" in curves and "decided (95% intervals)" in curves
    assert "astrarium lab run" in page and "common random numbers" in page


def test_the_example_sweep_has_a_point_for_each_hull_and_second_player() -> None:
    chosen = load_sweep(ROOT / "experiments" / "orbital-combat" / "hull-sweep.toml")
    assert len(chosen.grid()) == 8 and chosen.grid()[1] == {"hull": 6, "seats.1": "greedy"}
    assert chosen.base.lineup == ("greedy", "random") and not chosen.base.rotate


@given(st.lists(st.lists(st.integers(1, 99), min_size=1, max_size=4, unique=True), min_size=1, max_size=3))
@hypothesis_settings(max_examples=examples(40))
def test_the_grid_holds_each_combination_once_the_last_key_fastest(values: list[list[int]]) -> None:
    keys = ["hull", "round_limit", "start_ring"][: len(values)]
    chosen = Sweep(MIRROR, tuple(Variable(k, option=k) for k in keys), tuple(tuple(v) for v in values), "grid.toml")
    grid = chosen.grid()
    assert len(grid) == math.prod(len(v) for v in values)
    assert len({tuple(point.values()) for point in grid}) == len(grid)
    assert all(point[k] in v for point in grid for k, v in zip(keys, values, strict=True))
    assert [point[keys[-1]] for point in grid[: len(values[-1])]] == values[-1]
