"""``astrarium lab report --markdown`` and ``lab compare --markdown``: results as Markdown tables beside their commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_helpers import ORBITAL_RANDOM, write_experiment
from typer.testing import CliRunner

import astrarium
from astrarium import lab
from astrarium.cli.app import app
from astrarium.core.build import build_kind
from astrarium.lab.markdown import comparison_markdown, percent, results_markdown, table

runner = CliRunner()


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two runs of random Orbital Combat on seeds 0-5: round limit 5 (A) and 6 (B)."""
    root = tmp_path_factory.mktemp("md")
    a = write_experiment(root, ORBITAL_RANDOM.format(games=6, seed=0), "short.toml")
    b = write_experiment(root, ORBITAL_RANDOM.format(games=6, seed=0).replace("round_limit = 5", "round_limit = 6"), "longer.toml")
    lab.run(a, jobs=1, out=root / "short")
    lab.run(b, jobs=1, out=root / "longer")
    return root / "short", root / "longer"


def test_a_markdown_table_has_a_heading_row_a_rule_and_a_row_each_with_bars_escaped() -> None:
    text = table(["a", "b"], [["1", "x|y"]])
    assert text.splitlines() == ["| a | b |", "| --- | --- |", "| 1 | x\\|y |"]


def test_a_share_is_written_in_percent_with_its_interval() -> None:
    assert percent(0.52, (0.489, 0.551)) == "52.0% (48.9–55.1)"


def test_the_overview_has_a_row_a_folder_with_games_seeds_and_seat_0s_score(folders: tuple[Path, Path]) -> None:
    short, longer = folders
    summary = lab.load(short).summary()
    text = results_markdown([short, longer], brief=True)
    rows = [line for line in text.splitlines() if line.startswith("| short") or line.startswith("| longer")]
    assert len(rows) == 2
    assert "| 6 (0–5) |" in rows[0]
    assert percent(summary.first_seat.score, summary.first_seat.score_interval) in rows[0]
    assert "round_limit=5" in rows[0] and "round_limit=6" in rows[1]
    assert "#### short" not in text


def test_the_tables_name_the_commands_date_version_build_and_machine(folders: tuple[Path, Path]) -> None:
    short, _ = folders
    text = results_markdown([short], command="astrarium lab report X --markdown F")
    assert lab.load(short).command in text
    assert "astrarium lab report X --markdown F" in text
    assert f"astrarium {astrarium.__version__}, {build_kind()} build" in text
    assert "Games saved 20" in text and "CPUs" in text


def test_the_details_list_every_metric_and_a_game_metric_can_be_a_column(folders: tuple[Path, Path]) -> None:
    short, _ = folders
    text = results_markdown([short], metric_names=["destroyed"])
    assert "#### short" in text and "| AdvantageP1 |" in text and "| metric_hull_0 |" in text
    assert text.splitlines()[0].endswith("| destroyed |")


def test_a_game_metric_no_folder_has_is_one_line_naming_the_ones_there_are(folders: tuple[Path, Path]) -> None:
    short, _ = folders
    result = runner.invoke(app, ["lab", "report", str(short), "--markdown", "-", "--metric", "rescued"])
    assert result.exit_code == 2
    assert "no game metric 'rescued'" in result.output and "destroyed" in result.output and "Traceback" not in result.output


def test_report_markdown_writes_the_file_and_records_its_own_command(folders: tuple[Path, Path], tmp_path: Path) -> None:
    short, longer = folders
    out = tmp_path / "balance.md"
    result = runner.invoke(app, ["lab", "report", str(short), str(longer), "--markdown", str(out), "--brief", "--metric", "ships_flying"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert f"astrarium lab report {short} {longer} --markdown {out} --brief --metric ships_flying" in text


def test_report_without_html_or_markdown_is_refused_in_one_line(folders: tuple[Path, Path]) -> None:
    result = runner.invoke(app, ["lab", "report", str(folders[0])])
    assert result.exit_code == 2 and "--html FILE, --markdown FILE or both" in result.output


def test_a_comparison_row_is_b_minus_a_of_the_quantity_paired_by_seed(folders: tuple[Path, Path]) -> None:
    short, longer = folders
    expected = lab.compare(short, longer).get("Duration moves")
    text = comparison_markdown([short, longer], quantity="Duration moves")
    row = next(line for line in text.splitlines() if line.startswith("| short"))
    assert f"{expected.value:+.2f} ({expected.low:+.2f}–{expected.high:+.2f})" in row
    assert "| 6 |" in row


def test_compare_markdown_takes_folders_in_pairs_and_refuses_an_odd_count(folders: tuple[Path, Path]) -> None:
    short, longer = folders
    result = runner.invoke(app, ["lab", "compare", str(short), str(longer), str(short), "--markdown", "-"])
    assert result.exit_code == 2 and "in pairs" in result.output and "Traceback" not in result.output
    good = runner.invoke(app, ["lab", "compare", str(short), str(longer), str(longer), str(short), "--markdown", "-"])
    assert good.exit_code == 0, good.output
    assert good.output.count("| short | longer |") == 1 and good.output.count("| longer | short |") == 1


def test_an_unknown_quantity_is_one_line_naming_the_ones_there_are(folders: tuple[Path, Path]) -> None:
    short, longer = folders
    result = runner.invoke(app, ["lab", "compare", str(short), str(longer), "--markdown", "-", "--quantity", "elo"])
    assert result.exit_code == 2 and "no metric 'elo'" in result.output and "score seat 0" in result.output


def test_a_metric_kept_per_seat_is_given_per_line_up_entry_wherever_it_sat(folders: tuple[Path, Path]) -> None:
    short, _ = folders
    results = lab.load(short)
    rows = results.table.to_pylist()
    expected = [sum(row[f"metric_hull_{row['entries'].index(entry)}"] for row in rows) / len(rows) for entry in range(2)]
    header, _, row = results_markdown([short], metric_names=["hull"], brief=True).splitlines()[:3]
    assert header.endswith("| hull |")
    assert f"| A {expected[0]:.2f} (" in row and f"; B {expected[1]:.2f} (" in row
