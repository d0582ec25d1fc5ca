"""`astrarium show` draws a position; `astrarium replay --html` writes a web page that replays a game."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

import astrarium
from astrarium.cli import app

runner = CliRunner()


def test_show_writes_the_picture_of_the_position_the_moves_reach(tmp_path: Path) -> None:
    out = tmp_path / "pos.svg"
    page = tmp_path / "pos.html"
    result = runner.invoke(
        app, ["show", "celestials", "--seed", "4", "--moves", "play phoenix A1; end", "--svg", str(out), "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    state = astrarium.get_game("celestials").new_game(2, 4)
    state.apply("play phoenix A1")
    state.apply("end")
    assert out.read_text(encoding="utf-8") == state.render_svg(state.current_player) + "\n"
    ET.fromstring(out.read_text(encoding="utf-8"))
    assert "play" in page.read_text(encoding="utf-8") and "<svg" in page.read_text(encoding="utf-8")


def test_show_as_a_spectator_and_bad_input_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "s.svg"
    assert runner.invoke(app, ["show", "orbital-combat", "--seat", "-1", "--svg", str(out)]).exit_code == 0
    assert "seat" not in json.dumps(ET.fromstring(out.read_text(encoding="utf-8")).attrib)
    for args, words in (
        (["show", "celestials", "--moves", "fly away", "--svg", str(out)], "move 1"),
        (["show", "nope", "--svg", str(out)], "no game called"),
        (["show", "streamlines", "--seat", "7", "--svg", str(out)], "seats 0 to"),
        (["show", "streamlines"], "--svg FILE"),
        (["show", "streamlines", "--svg", str(tmp_path / "missing" / "x.svg")], "does not exist"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output and "Traceback" not in result.output


def test_replay_html_of_a_finished_game_and_of_an_unfinished_one(tmp_path: Path) -> None:
    game = astrarium.get_game("streamlines")
    state = game.new_game(2, 3)
    for _ in range(8):
        state.apply(state.legal_actions()[0])
    full = tmp_path / "game.json"
    full.write_text(json.dumps(state.to_record()), encoding="utf-8")
    page = tmp_path / "game.html"
    result = runner.invoke(app, ["replay", str(full), "--html", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert '"seed"' not in html and "deck_order" not in html
    result = runner.invoke(app, ["replay", str(full), "--html", str(page), "--seat", "0"])
    assert result.exit_code == 2 and "not over" in result.output
    shared = tmp_path / "share.json"
    shared.write_text(json.dumps(state.to_record(public=True)), encoding="utf-8")
    assert runner.invoke(app, ["replay", str(shared), "--html", str(page)]).exit_code == 0
