"""``astrarium lab report``: one self-contained page naming the question, the answer with its interval and the command.

Two small results folders (Celestials greedy against random, where random is
measurably weaker, and an Orbital Combat mirror) are reported: the page names
the command the lab recorded and the answer's interval, holds the tables, two
inline SVG plots each and the notable games' replays; in headless Chromium it
renders with no console error and no request leaving the page (a route fails
any), and an embedded replay steps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lab_helpers import report_page, step_replay
from typer.testing import CliRunner

from astrarium import lab
from astrarium.cli import app
from astrarium.lab import report
from helpers import BROWSER_ARTIFACTS, open_offline

runner = CliRunner()


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two results folders: Celestials greedy against random (30 games, short), an Orbital Combat mirror (6 games)."""
    root = tmp_path_factory.mktemp("report")
    greedy = lab.build_experiment("celestials", ["greedy", "random"], games=30, options={"turn_limit": 10})
    mirror = lab.build_experiment("orbital-combat", ["random", "random"], games=6, seed=3, options={"round_limit": 5})
    lab.run(greedy, out=root / "greedy")
    lab.run(mirror, out=root / "mirror")
    return [root / "greedy", root / "mirror"]


@pytest.fixture(scope="module")
def page(folders: list[Path]) -> str:
    return report_page(folders, folders[0].parent / "report.html")


def test_the_report_names_the_question_the_answer_with_its_interval_and_the_command(folders: list[Path], page: str) -> None:
    greedy = lab.load(folders[0])
    seat = greedy.summary().first_seat
    low, high = seat.score_interval
    assert f"Seat 0 scores {seat.score * 100:.1f}% ({low * 100:.1f}-{high * 100:.1f}%) over 30 games" in page
    assert "How does greedy against random fare at celestials" in page and "turn_limit=10" in page
    for folder in folders:
        assert lab.load(folder).command in page.replace("&#x27;", "'")
    assert "seeds 0 to 29" in page and "seeds 3 to 8" in page
    assert "Side by side" in page and "astrarium lab report" in page
    assert "pure Python" in page or "compiled" in page


def test_the_report_shows_the_notable_games_and_tells_an_upset_only_when_it_can(page: str) -> None:
    assert "the longest" in page and "the shortest" in page and "a typical game" in page
    assert "the biggest upset: player 1 (random)" in page
    assert "no player is measurably weaker" in page  # the mirror
    assert page.count("<iframe") >= 4 and "Replays embedded here" in page


def test_replays_too_big_to_embed_are_written_beside_the_report(folders: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "EMBED_LIMIT", 1)
    out = folders[0].parent / "linked.html"
    report.write_report(folders[:1], out)
    text = out.read_text(encoding="utf-8")
    written = sorted((folders[0].parent / "linked-replays").glob("*.html"))
    assert written and "<iframe" not in text and "written as files beside this report" in text
    for path in written:
        assert f'href="linked-replays/{path.name}"' in text


def test_a_folder_that_is_not_results_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["lab", "report", str(tmp_path), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "manifest.json" in result.output and "Traceback" not in result.output


def test_the_report_renders_offline_in_chromium_with_inline_svg_plots(browser: Any, page: str) -> None:
    tab, errors, requests = open_offline(browser, page, "lab-report")
    assert tab.locator("section .plots > svg").count() == 4  # win rates and lengths, for each folder
    assert tab.locator("section .plots svg text").count() > 20 and tab.locator("img, object, embed").count() == 0
    assert "Seat 0 scores" in tab.inner_text("#results-0 .answer")
    tab.locator("#results-0 details summary").first.click()
    assert step_replay(tab.frame_locator("#results-0 details iframe").first).startswith("after move ")
    tab.screenshot(path=str(BROWSER_ARTIFACTS / "lab-report.png"), full_page=False)
    assert not errors, errors
    assert not requests, requests
    tab.close()
