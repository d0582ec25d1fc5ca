"""``astrarium new-game``: the starter is written, installed into an environment of its own, and every front end takes it.

The environment: a new virtual environment (``python -m venv --without-pip``,
no system packages) whose one ``.pth`` line adds this interpreter's
site-packages as a site folder, so astrarium (installed editable by ``make
test``) and its dependencies, pip and hatchling among them, come from the
project's environment without a download, while the designer's package is
installed (``pip install --no-deps --no-build-isolation --no-index -e``) into
the new environment alone: the project's own stays as it was, and the game is
found the way an installed game is, through its entry point. A venv made with
``--system-site-packages`` would not do: from a venv's interpreter it reaches
the base Python's packages, not the project's. Offline throughout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from astrarium.starter import StarterError, write_starter

GAME = "comet-race"
TIMEOUT = 120


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the new environment's python, the written project), the project installed editable into the environment."""
    root = tmp_path_factory.mktemp("starter")
    project = root / GAME
    write_starter(GAME, project)
    env = root / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=TIMEOUT)
    python = env / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True
    ).stdout.strip()
    Path(purelib, "astrarium-project.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    pip = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "-e", str(project)]
    subprocess.run(pip, check=True, timeout=TIMEOUT, cwd=root)
    return python, project


def run(python: Path, *args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python args`` in the new environment, with a wide plain terminal."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(COLUMNS="120", LINES="40", TERM="dumb", NO_COLOR="1")
    return subprocess.run([str(python), *args], input=stdin, capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=cwd)


def astrarium(python: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    result = run(python, "-m", "astrarium", *args, stdin=stdin)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result


@pytest.mark.slow
def test_the_installed_starter_is_a_game_every_front_end_takes(installed: tuple[Path, Path], tmp_path: Path) -> None:
    python, project = installed
    assert GAME in astrarium(python, "games").stdout
    assert "Comet Race" in astrarium(python, stdin="q\n").stdout  # the menu offers it
    # A whole game at the terminal, both seats typed: five turns of three stars empty the one pile, seat 0 takes the last.
    played = astrarium(
        python, "play", GAME, "--seat", "0=human", "--seat", "1=human", "--seed", "1", "-o", "layout=single", stdin="take 3 a\n" * 5
    )
    assert "seat 0 took the last star" in played.stdout
    picture = tmp_path / "x.svg"
    astrarium(python, "show", GAME, "--svg", str(picture), "--moves", "take 2 b")
    assert picture.read_text().startswith("<svg") and "Comet Race" in picture.read_text()
    for a, b in (("random", "greedy"), ("mcts:iterations=30", "ismcts:iterations=30")):
        arena = astrarium(python, "arena", GAME, "--seat", f"0={a}", "--seat", f"1={b}", "--games", "2", "--jobs", "1")
        assert "Mean game length" in arena.stdout
    checked = astrarium(python, "check", GAME, "--seeds", "2")
    assert "FAIL" not in checked.stdout and "Every check passed" in checked.stdout
    web = run(python, "-c", "from astrarium.web.catalogue import catalogue; print([g['id'] for g in catalogue()])")
    assert web.returncode == 0 and f"'{GAME}'" in web.stdout, web.stderr[-2000:]


def test_the_starter_passes_its_own_tests(installed: tuple[Path, Path]) -> None:
    python, project = installed
    result = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


@pytest.mark.parametrize(
    "name,out,problem",
    [
        ("Comet_Race", "new", "is not a game id"),
        ("9lives", "new", "is not a game id"),
        ("json", "new", "already uses"),
        ("streamlines", "new", "already installed"),
        ("comet-race", "full", "is not empty"),
    ],
)
def test_a_bad_name_or_a_full_folder_is_refused_before_writing(name: str, out: str, problem: str, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    with pytest.raises(StarterError, match=problem):
        write_starter(name, tmp_path / out)
    assert not (tmp_path / "new").exists() and [p.name for p in (tmp_path / "full").iterdir()] == ["notes.txt"]
