"""A plain `pip install .` (not editable) gives a working astrarium with its data files, rules and pictures."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import astrarium, astrarium.pictures, pathlib, sys
assert pathlib.Path(astrarium.__file__).parent.parent.resolve() == pathlib.Path(sys.argv[1]).resolve(), astrarium.__file__
for game_id in astrarium.list_games():
    game = astrarium.get_game(game_id)
    state = game.new_game(max(2, game.min_players), 1)
    assert game.rules_text().strip()
    assert state.render_svg(state.current_player).startswith("<svg")
    state.apply(state.legal_actions()[0])
    assert astrarium.pictures.record_to_html(state.to_record(public=True)).startswith("<!doctype html>")
print("installed", len(astrarium.list_games()), "games")
"""


@pytest.mark.slow
def test_a_built_wheel_installs_and_plays_every_game_with_its_data(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if k != "ASTRARIUM_COMPILE"},
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = wheels.glob("astrarium-*.whl")
    # Without ASTRARIUM_COMPILE the build is the pure-Python package (what a machine without a compiler gets).
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("astrarium/py.typed", "astrarium/games/celestials/sun.toml", "astrarium/pictures/static/table.js"):
        assert needed in names, f"{needed} is not in the wheel"
    assert any(n.endswith("licenses/LICENSE") for n in names)
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([sys.executable, "-c", CHECK, str(target)], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "installed" in run.stdout
