"""The lab's own costs: the lab against the bare arena, two workers against one, Ray against local processes.

Four commands play the same games (same line-up, seeds 0 to N-1, seats rotated):

- ``astrarium arena GAME ... --jobs 1``: the bare arena, one process;
- ``astrarium lab run --game GAME ... --jobs 1``: the lab, one process (a record and a row a game, the summary);
- ``astrarium lab run ... --jobs 2``: the lab, two worker processes;
- ``astrarium lab run ... --jobs 2 --backend ray``: the lab on a local Ray instance of 2 CPUs, started by the run;
- ``astrarium lab run ... --backend ray --address ADDRESS``: the lab on a Ray instance already running, as on a
  cluster started once (``ray up``): by default the benchmark starts one (``ray start --head --num-cpus 2``)
  before the timed command and stops it after, untimed; ``--ray-address`` names one you started yourself.

Each figure is the wall time of the whole command, start-up included, each
lab run into a fresh folder; the arena and the lab on one process are also
timed in processor seconds (user and system), which
a machine shared with other work disturbs less than the wall clock (the
command's process and the processes it waited for). Rounds
interleave the builds and the commands, so a load that comes and goes falls on
all of them alike, and each round prints the load average. The targets
(docs/performance.md): the lab costs at most 5% over the arena, two workers
give at least 1.8 times one worker's speed, Ray at least 90% of the local
back-end's (both Ray figures are printed: started by the run, and running already).

``make bench`` runs it through ``benchmarks/run.py`` (both builds side by
side, unless ``--no-lab``); alone:

    python benchmarks/lab_bench.py [--python pure=PATH] [--python compiled=PATH] [--game celestials]
        [--lab-seat 0=SPEC --lab-seat 1=SPEC] [--lab-games 60] [--lab-rounds 2] [--no-ray] [--ray-address ADDRESS]
        [--json FILE]

The default line-up is a small search in both seats (``mcts:iterations=20,depth=5``, under a second a game):
a lab run is hundreds of such games, and with a cheaper player the start-up of each command (imports,
worker processes, Ray) would be most of what is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: The targets: the lab's cost over the bare arena, two workers against one, Ray against local processes.
LAB_OVERHEAD_MAX = 0.05
SCALING_MIN = 1.8
RAY_MIN = 0.9
#: The player in both seats unless ``--lab-seat`` says otherwise.
DEFAULT_PLAYER = "mcts:iterations=20,depth=5"
#: The commands, in the order each round runs them.
COMMANDS = ("arena", "lab", "lab-2", "ray-2", "ray-up")
#: The Ray commands: started by the run, and on a Ray instance running already.
RAY_COMMANDS = ("ray-2", "ray-up")


@dataclass
class Timing:
    """One command's wall and processor seconds, one entry a round."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def mean_wall(self) -> float:
        return sum(self.wall) / len(self.wall) if self.wall else float("nan")

    @property
    def mean_cpu(self) -> float:
        return sum(self.cpu) / len(self.cpu) if self.cpu else float("nan")


@dataclass
class BuildFigures:
    """Every command's timings for one build, and what the targets ask of them."""

    build: str
    python: str
    timings: dict[str, Timing]

    def overhead(self, clock: str = "wall") -> float:
        """The lab's cost over the bare arena on one process, as a fraction (0.02: 2% more)."""
        lab, arena = self.timings["lab"], self.timings["arena"]
        if clock == "cpu":
            return lab.mean_cpu / arena.mean_cpu - 1
        return lab.mean_wall / arena.mean_wall - 1

    def scaling(self) -> float:
        """How many times one worker's speed two workers reach."""
        return self.timings["lab"].mean_wall / self.timings["lab-2"].mean_wall

    def ray_share(self, name: str = "ray-2") -> float | None:
        """Ray's speed (``ray-2``: started by the run, ``ray-up``: running already) as a share of the local back-end's, or None."""
        ray = self.timings.get(name)
        if ray is None or not ray.wall:
            return None
        return self.timings["lab-2"].mean_wall / ray.mean_wall


def command(name: str, game: str, seats: list[str], games: int, out: Path, address: str = "auto") -> list[str]:
    """The arguments after ``python -m astrarium`` for the command ``name`` (``address``: the running Ray of ``ray-up``)."""
    lineup = [a for s in seats for a in ("--seat", s)]
    if name == "arena":
        return ["arena", game, *lineup, "--games", str(games), "--jobs", "1"]
    jobs = "1" if name == "lab" else "2"
    args = ["lab", "run", "--game", game, *lineup, "--games", str(games), "--jobs", jobs, "--out", str(out)]
    if name == "ray-up":
        return [*args, "--backend", "ray", "--address", address]
    return [*args, "--backend", "ray"] if name == "ray-2" else args


def ray_cli(python: str, *args: str) -> None:
    """Run ``ray ARGS`` with the Ray of the interpreter ``python`` (its ``ray`` command beside it); a RuntimeError if it fails."""
    done = subprocess.run([str(Path(python).parent / "ray"), *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ray {' '.join(args)} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-400:]}")


def timed_on_ray(python: str, args: list[str], address: str | None) -> tuple[float, float]:
    """:func:`timed` on a Ray instance running already: ``address``'s, or one started (2 CPUs) before and stopped after, untimed."""
    if address is not None:
        return timed(python, args)
    ray_cli(python, "start", "--head", "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats")
    try:
        return timed(python, args)
    finally:
        ray_cli(python, "stop")


def timed(python: str, args: list[str]) -> tuple[float, float]:
    """Run ``python -m astrarium ARGS`` to its end: (wall seconds, processor seconds of it and the processes it waited for)."""
    started = time.perf_counter()
    child = subprocess.Popen([python, "-m", "astrarium", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({child.returncode}): {error.strip()[-400:]}")
    return wall, usage.ru_utime + usage.ru_stime


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def measure(
    pythons: dict[str, str],
    *,
    game: str,
    seats: list[str],
    games: int,
    rounds: int,
    ray: bool,
    ray_address: str | None = None,
    say=print,
) -> list[BuildFigures]:
    """Every command with every build's interpreter, ``rounds`` times, interleaved; one :class:`BuildFigures` a build.

    ``ray_address``: a Ray instance running already for ``ray-up`` (None: one started and stopped around each such command).
    """
    names = [n for n in COMMANDS if ray or n not in RAY_COMMANDS]
    figures = [BuildFigures(build, python, {n: Timing() for n in names}) for build, python in pythons.items()]
    with tempfile.TemporaryDirectory(prefix="lab-bench-") as folder:
        for r in range(rounds):
            say(f"round {r + 1} of {rounds}: {load()}")
            for f in figures:
                for name in names:
                    out = Path(folder) / f"{f.build}-{name}-{r}"
                    args = command(name, game, seats, games, out, ray_address or "auto")
                    wall, cpu = timed_on_ray(f.python, args, ray_address) if name == "ray-up" else timed(f.python, args)
                    f.timings[name].wall.append(wall)
                    f.timings[name].cpu.append(cpu)
                    say(f"  {f.build:9} {name:6} {wall:7.2f} s wall, {cpu:7.2f} s processor")
        say(f"after the last round: {load()}")
    return figures


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSES"


def print_figures(figures: list[BuildFigures], *, game: str, seats: list[str], games: int) -> None:
    print(f"The lab's own costs: {game}, {' '.join(seats)}, {games} games, seeds 0..{games - 1}, wall time of each command")
    rounds = len(next(iter(figures[0].timings.values())).wall)
    heads = " ".join(f"{'round ' + str(r + 1):>9}" for r in range(rounds))
    print(f"{'build':9} {'command':7} {heads} {'mean':>9} {'processor':>10}")
    for f in figures:
        for name, t in f.timings.items():
            cpu = f"{t.mean_cpu:9.2f}s" if name in ("arena", "lab") else ""
            print(f"{f.build:9} {name:7} " + " ".join(f"{w:8.2f}s" for w in t.wall) + f" {t.mean_wall:8.2f}s {cpu:>10}")
    for f in figures:
        over, over_cpu, scale = f.overhead(), f.overhead("cpu"), f.scaling()
        rays = [(how, f.ray_share(name)) for name, how in (("ray-2", "started by the run"), ("ray-up", "running already"))]
        print(
            f"{f.build}: lab over arena {over:+.1%} wall, {over_cpu:+.1%} processor (target <= {LAB_OVERHEAD_MAX:.0%}: "
            f"{mark(over <= LAB_OVERHEAD_MAX)}); 2 workers {scale:.2f}x one (target >= {SCALING_MIN:g}x: {mark(scale >= SCALING_MIN)})"
            + "".join(
                f"; Ray {how} {share:.0%} of local (target >= {RAY_MIN:.0%}: {mark(share >= RAY_MIN)})"
                for how, share in rays
                if share is not None
            )
        )


def report(figures: list[BuildFigures]) -> list[dict]:
    """The figures as JSON-ready data, with the three ratios."""
    return [
        {
            **asdict(f),
            "overhead_wall": f.overhead(),
            "overhead_cpu": f.overhead("cpu"),
            "scaling": f.scaling(),
            "ray_share": f.ray_share(),
            "ray_share_running": f.ray_share("ray-up"),
        }
        for f in figures
    ]


def run(pythons: dict[str, str], args: argparse.Namespace) -> list[dict]:
    """Measure and print (what ``benchmarks/run.py`` calls); the figures as data."""
    seats = args.lab_seat or [f"{seat}={DEFAULT_PLAYER}" for seat in (0, 1)]
    ray = not args.no_ray
    if ray:
        try:
            import ray as _  # noqa: F401
        except ImportError:
            print("Ray is missing (pip install -e '.[lab]'): the Ray back-end is not measured.")
            ray = False
    figures = measure(
        pythons, game=args.lab_game, seats=seats, games=args.lab_games, rounds=args.lab_rounds, ray=ray, ray_address=args.ray_address
    )
    print_figures(figures, game=args.lab_game, seats=seats, games=args.lab_games)
    return report(figures)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options this benchmark takes (``benchmarks/run.py`` takes them too)."""
    parser.add_argument("--lab-game", default="celestials", help="the lab benchmark's game")
    parser.add_argument("--lab-seat", action="append", default=[], help=f"0=SPEC, the line-up (default {DEFAULT_PLAYER} in both)")
    parser.add_argument("--lab-games", type=int, default=60, help="games a command of the lab benchmark plays")
    parser.add_argument("--lab-rounds", type=int, default=2, help="rounds of the lab benchmark")
    parser.add_argument("--no-ray", action="store_true", help="the lab benchmark without the Ray back-end")
    parser.add_argument(
        "--ray-address",
        default=None,
        help="a Ray instance running already (auto, HOST:PORT) for the 'ray-up' figure; default: one started around each such run",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", action="append", default=[], help="NAME=PATH: a build's interpreter (default: this one)")
    parser.add_argument("--json", default="", help="also write the figures to this JSON file")
    add_arguments(parser)
    args = parser.parse_args(argv)
    pythons = dict(p.split("=", 1) for p in args.python) or {"this": sys.executable}
    figures = run(pythons, args)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
