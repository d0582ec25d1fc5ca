"""The Ray back-end: a cluster of two nodes started here, one node lost mid-run; the results are the local back-end's.

The run is paired (every seed in both rotations), so two games share each seed: each is kept once, by seed and rotation.

Ray is in the ``lab`` extra, which the ``test`` extra installs: these tests fail, not skip, without it. The cluster
test starts Ray twice (about 15 s), so it runs with the slow suite (``make test-slow``, which CI runs too); Ray is
imported where the cluster starts, not when the tests are collected.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lab_helpers import comparable, write_experiment

from astrarium import lab

GAMES = 60
EXPERIMENT = f'game = "celestials"\nseats = ["greedy", "greedy"]\nrotate = "paired"\ngames = {GAMES}\nseed = 700\n'


@pytest.fixture
def cluster() -> Iterator[Any]:
    """A head of one CPU and a second node of two, on this machine, without the dashboard."""
    import ray.cluster_utils

    made = ray.cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        yield made
    finally:
        made.shutdown()


def games_done(out: Path) -> int:
    try:
        return int(json.loads((out / "manifest.json").read_text(encoding="utf-8"))["games_done"])
    except (OSError, ValueError, KeyError):
        return 0


@pytest.mark.slow
def test_a_run_on_a_cluster_that_loses_a_node_gives_the_local_results_once(tmp_path: Path, cluster: Any) -> None:
    node = cluster.add_node(num_cpus=2)
    cluster.wait_for_nodes()
    path = write_experiment(tmp_path, EXPERIMENT)
    out = tmp_path / "ray"
    command = [sys.executable, "-m", "astrarium", "lab", "run", str(path), "--out", str(out), "--batch", "1"]
    process = subprocess.Popen(
        [*command, "--backend", "ray", "--address", cluster.address], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        while games_done(out) < 5 and process.poll() is None:
            time.sleep(0.01)
        removed_at = games_done(out)
        cluster.remove_node(node)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr
    assert 5 <= removed_at < GAMES, "the node was lost part-way"
    assert f"on the Ray cluster at {cluster.address}" in " ".join(stdout.split())

    results = lab.load(out)
    keys = list(zip(results.table.column("seed").to_pylist(), results.table.column("rotation").to_pylist(), strict=True))
    assert keys == [(seed, rotation) for seed in range(700, 700 + GAMES // 2) for rotation in (0, 1)], "every planned game once"
    local = lab.run(path, jobs=2, out=tmp_path / "local")
    assert comparable(results.table) == comparable(local.table)
    for row in results.table.to_pylist():
        assert results.record_path(row).read_bytes() == local.record_path(row).read_bytes()


def test_the_test_extra_installs_ray() -> None:
    assert importlib.util.find_spec("ray") is not None, "Ray is missing: pip install -e '.[test]'"


def test_without_ray_the_backend_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    experiment = lab.build_experiment("celestials", ["random", "random"], games=2)
    with pytest.raises(ValueError, match=r"^--backend ray needs Ray, in the 'lab' extra: pip install 'astrarium\[lab\]'$"):
        lab.run(experiment, out=tmp_path / "out", backend="ray")
