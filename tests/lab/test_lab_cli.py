"""``astrarium lab run``: the file and inline forms, the summary naming what made it, one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_helpers import ORBITAL_RANDOM, write_experiment
from typer.testing import CliRunner

from astrarium import lab
from astrarium.cli.app import app

runner = CliRunner()
PAIR = ["--game", "orbital-combat", "--seat", "0=random", "--seat", "1=random"]


def test_an_experiment_file_runs_and_the_summary_names_the_file_and_the_command(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, ORBITAL_RANDOM.format(games=4, seed=0))
    out = tmp_path / "out"
    result = runner.invoke(app, ["lab", "run", str(path), "--games", "3", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"experiment: {path}\n" in result.output
    assert f"command: astrarium lab run {path} --games 3 --out {out}\n" in result.output
    text = " ".join(result.output.split())
    assert "seat 0" in text and "player 0" in text and "Decided in play" in text and "mean rounds" in text
    assert lab.load(out).table.num_rows == 3


def test_the_inline_form_runs_the_same_games_as_the_file(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, ORBITAL_RANDOM.format(games=3, seed=5))
    runner.invoke(app, ["lab", "run", str(path), "--jobs", "1", "--out", str(tmp_path / "file")])
    inline = ["lab", "run", "--game", "orbital-combat", "--seat", "0=random", "--seat", "1=random", "--option", "round_limit=5"]
    result = runner.invoke(app, [*inline, "--games", "3", "--seed", "5", "--jobs", "1", "--out", str(tmp_path / "inline")])
    assert result.exit_code == 0, result.output
    assert "experiment: inline" in result.output
    same = [lab.load(tmp_path / name).table.drop_columns(["think_seconds"]) for name in ("file", "inline")]
    assert same[0].equals(same[1])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "orbital-combat", "--seat", "0=random", "--seat", "1=random"], "needs --out"),
        (["--game", "orbital-combat", "--seat", "1=random", "--out", "x"], "seat 0 is not named"),
        (["--game", "orbital-combat", "--seat", "0random", "--out", "x"], "should look like"),
        (["--game", "orbital-combat", "--seat", "0=random", "--option", "round_limit=0", "--out", "x"], "round_limit"),
        (["--game", "chess", "--seat", "0=random", "--out", "x"], "chess"),
        (["--out", "x"], "give an experiment file"),
        (["missing.toml", "--out", "x"], "missing.toml"),
        (["missing.toml", "--game", "celestials"], "not both"),
        (["missing.toml", "--paired"], "not both"),
        ([*PAIR, "--paired", "--games", "5", "--out", "x"], "multiple of 2"),
        ([*PAIR, "--paired", "--no-rotate", "--out", "x"], "--no-rotate"),
    ],
)
def test_bad_input_is_one_line_on_standard_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["lab", "run", *args])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x").exists()


def test_a_paired_inline_run_prints_seat_0s_score_over_the_deals_and_its_command_says_paired(tmp_path: Path) -> None:
    inline = ["lab", "run", "--game", "orbital-combat", "--seat", "0=greedy", "--seat", "1=random", "--option", "round_limit=5"]
    result = runner.invoke(app, [*inline, "--paired", "--games", "6", "--jobs", "1", "--out", str(tmp_path / "out")], terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Over 3 deals, each played in every seating: seat 0's score" in text and "95% bootstrap over the deals" in text
    assert "--games 6 --seed 0 --paired --out" in text
    assert lab.load(tmp_path / "out").paired
