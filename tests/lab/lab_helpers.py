"""Small, fast experiments for the lab's tests, and how to compare two runs' results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa

#: Columns that depend on the clock, not on the seeds: left out when runs are compared.
TIMED = ("think_seconds",)

ORBITAL_RANDOM = 'game = "orbital-combat"\nseats = ["random", "random"]\ngames = {games}\nseed = {seed}\n[options]\nround_limit = 5\n'


def write_experiment(folder: Path, text: str, name: str = "exp.toml") -> Path:
    """An experiment file in ``folder``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def comparable(table: pa.Table) -> list[dict[str, Any]]:
    """A results table's rows without the timed columns, in seed order."""
    return table.drop_columns(list(TIMED)).sort_by("seed").to_pylist()


def report_page(folders: list[Path], out: Path) -> str:
    """``astrarium lab report FOLDERS --html OUT`` run as a command; the page it wrote."""
    from typer.testing import CliRunner

    from astrarium.cli import app

    result = CliRunner().invoke(app, ["lab", "report", *map(str, folders), "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def step_replay(replay: Any) -> str:
    """In an embedded replay (a frame locator): wait until it is ready, go to the last position; where it says it is."""
    replay.locator("body[data-ready]").wait_for(timeout=20_000)
    replay.locator("#last").click()
    where: str = replay.locator("#where").inner_text()
    return where
