"""A worker process killed mid-run (local back-end): the pool is started again and every planned seed is played once."""

from __future__ import annotations

import gzip
import multiprocessing
import os
import signal
from pathlib import Path

import pytest
from lab_helpers import comparable

from astrarium import lab
from astrarium.lab.backends import check_backend

GAMES = 40


def test_a_killed_worker_process_loses_no_game_and_counts_none_twice(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["random", "random"], games=GAMES, seed=500, options={"round_limit": 20})
    seen: list[int] = []
    before: set[int] = set()
    after: set[int] = set()

    def kill_one(row: object) -> None:
        seen.append(row["seed"])  # type: ignore[index]
        children = {child.pid for child in multiprocessing.active_children()}
        if len(seen) == 3:
            before.update(children)
            os.kill(min(children), signal.SIGKILL)
        elif before:
            after.update(children)

    results = lab.run(experiment, jobs=2, out=tmp_path / "killed", on_game=kill_one)
    assert before, "a worker process was killed"
    assert after - before, "a new pool played the rest"
    seeds = results.table.column("seed").to_pylist()
    assert seeds == list(range(500, 500 + GAMES))
    assert sorted(seen) == seeds, "each game was handed on once"
    whole = lab.run(experiment, jobs=1, out=tmp_path / "whole")
    assert comparable(results.table) == comparable(whole.table)
    for seed in seeds:
        first, second = ((tmp_path / name / "records" / f"{seed}.json.gz").read_bytes() for name in ("killed", "whole"))
        assert gzip.decompress(first) == gzip.decompress(second)


def test_an_address_is_for_ray_and_a_backend_is_one_of_two() -> None:
    with pytest.raises(ValueError, match="--address is the address of a Ray cluster"):
        check_backend("local", "auto")
    with pytest.raises(ValueError, match="backend 'spark' is not one of: local, ray"):
        check_backend("spark", None)
