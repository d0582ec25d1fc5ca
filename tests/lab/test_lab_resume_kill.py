"""A run killed with SIGKILL part-way resumes with the same command: every planned game once, as an uninterrupted run.

A paired run (every seed in every rotation) likewise ends with each seed and rotation once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lab_helpers import ORBITAL_RANDOM, comparable, write_experiment

from astrarium import lab

GAMES = 150


def games_done(out: Path) -> int:
    try:
        return int(json.loads((out / "manifest.json").read_text(encoding="utf-8"))["games_done"])
    except (OSError, ValueError, KeyError):
        return 0


def command(path: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "astrarium", "lab", "run", str(path), "--out", str(out), "--jobs", "1", "--batch", "1"]


def killed_after_five(path: Path, out: Path) -> int:
    """Run the experiment in a subprocess, SIGKILL it once five games are saved; the games it saved."""
    process = subprocess.Popen(command(path, out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while games_done(out) < 5 and process.poll() is None:
            time.sleep(0.002)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return games_done(out)


PAIRED = ORBITAL_RANDOM.replace("games =", 'rotate = "paired"\ngames =')


def test_a_killed_run_resumes_to_exactly_the_planned_seeds(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, ORBITAL_RANDOM.format(games=GAMES, seed=1000))
    out = tmp_path / "out"
    killed_at = killed_after_five(path, out)
    assert 5 <= killed_at < GAMES, "the run was killed part-way"

    resumed = subprocess.run(command(path, out), capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert f"experiment: {path}\n" in resumed.stdout

    seeds = lab.load(out).table.column("seed").to_pylist()
    assert len(seeds) == len(set(seeds)) == GAMES
    assert set(seeds) == set(range(1000, 1000 + GAMES))
    assert sorted(p.name for p in (out / "records").iterdir()) == sorted(f"{s}.json.gz" for s in seeds)
    whole = lab.run(path, out=tmp_path / "whole")
    assert comparable(lab.load(out).table) == comparable(whole.table)


def test_a_killed_paired_run_resumes_to_exactly_the_planned_games(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, PAIRED.format(games=GAMES, seed=1000))
    out = tmp_path / "out"
    assert 5 <= killed_after_five(path, out) < GAMES, "the run was killed part-way"
    resumed = subprocess.run(command(path, out), capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr

    table = lab.load(out).table
    keys = list(zip(table.column("seed").to_pylist(), table.column("rotation").to_pylist(), strict=True))
    assert sorted(keys) == [(seed, rotation) for seed in range(1000, 1000 + GAMES // 2) for rotation in (0, 1)]
    assert sorted(p.name for p in (out / "records").iterdir()) == sorted(f"{s}-{r}.json.gz" for s, r in keys)
    assert comparable(table) == comparable(lab.run(path, out=tmp_path / "whole").table)
