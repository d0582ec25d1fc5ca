"""The lab benchmark (benchmarks/lab_bench.py): the commands it times and the ratios its targets read."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import lab_bench  # noqa: E402


def test_the_four_commands_play_the_same_games_and_differ_only_in_where() -> None:
    seats = ["0=greedy", "1=random"]
    arena = lab_bench.command("arena", "celestials", seats, 40, Path("out"))
    one, two, ray = (lab_bench.command(n, "celestials", seats, 40, Path("out")) for n in ("lab", "lab-2", "ray-2"))
    assert arena == ["arena", "celestials", "--seat", "0=greedy", "--seat", "1=random", "--games", "40", "--jobs", "1"]
    assert one[:2] == ["lab", "run"] and one[one.index("--jobs") + 1] == "1" and "--backend" not in one
    assert two[two.index("--jobs") + 1] == "2" and ray[-2:] == ["--backend", "ray"]
    assert all(c[c.index("--games") + 1] == "40" for c in (arena, one, two, ray))


def test_the_targets_read_the_mean_of_the_rounds() -> None:
    timings = {
        "arena": lab_bench.Timing([10.0, 12.0], [9.0, 11.0]),
        "lab": lab_bench.Timing([11.0, 11.0], [10.0, 11.0]),
        "lab-2": lab_bench.Timing([6.0, 5.0], [10.0, 10.0]),
        "ray-2": lab_bench.Timing([11.0, 11.0], [1.0, 1.0]),
    }
    figures = lab_bench.BuildFigures("pure", sys.executable, timings)
    assert figures.overhead() == 0.0
    assert abs(figures.overhead("cpu") - 0.05) < 1e-12
    assert figures.scaling() == 2.0
    assert figures.ray_share() == 0.5


def test_without_ray_the_share_is_not_measured() -> None:
    timings = {name: lab_bench.Timing([1.0], [1.0]) for name in ("arena", "lab", "lab-2")}
    assert lab_bench.BuildFigures("compiled", sys.executable, timings).ray_share() is None


def test_ray_is_timed_both_started_by_the_run_and_running_already() -> None:
    seats = ["0=greedy", "1=random"]
    cold = lab_bench.command("ray-2", "celestials", seats, 40, Path("out"))
    running = lab_bench.command("ray-up", "celestials", seats, 40, Path("out"), "10.0.0.5:6379")
    assert running[-4:] == ["--backend", "ray", "--address", "10.0.0.5:6379"] and "--address" not in cold
    assert running[: running.index("--backend")] == cold[: cold.index("--backend")]
    timings = {name: lab_bench.Timing([4.0], [1.0]) for name in ("arena", "lab", "lab-2")}
    timings |= {"ray-2": lab_bench.Timing([8.0], [1.0]), "ray-up": lab_bench.Timing([5.0], [1.0])}
    figures = lab_bench.BuildFigures("compiled", sys.executable, timings)
    assert figures.ray_share() == 0.5 and figures.ray_share("ray-up") == 0.8
