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
