"""``make bench``: engine speed of every game, and our MCTS beside OpenSpiel's.

Single core, one process. For each registered game: random-playout moves and
games per second, microseconds per random-playout step (legal_actions + apply),
per legal-action generation, per apply and per clone, the peak memory of
copying a state, and MCTS simulations per second at the start and mid-game.
Then, if open-spiel is installed (the ``bench`` extra), OpenSpiel's Python
MCTSBot and our mcts on connect_four through the same forward model, and the
random-playout speed of OpenSpiel's pure-Python games.

It measures the astrarium that the interpreter imports (the installed package,
else the sources beside this script) and says which build that is. Every
figure is the best of ``--repeat`` measurements, so a busy machine disturbs it
less. ``--both`` (what ``make bench`` runs) measures the pure-Python package
(this interpreter) and the compiled build (a virtual environment in
``build/bench-compiled``, installed with ``ASTRARIUM_COMPILE=require`` and
refreshed when the sources change) one after the other and prints them side by side.

Then each game at every player count it allows (``benchmarks/player_counts.py``:
step, clone and legal actions a decision). Last, the lab's own costs (``benchmarks/lab_bench.py``: the lab against the
bare arena, two workers against one, Ray against local processes; with
``--both``, the two builds interleaved round by round); ``--no-lab`` skips them.

    python benchmarks/run.py [--both] [--games ID,ID] [--seconds 2] [--mcts-seconds 1] [--sims 2000] [--repeat 3] [--no-lab] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import asdict, fields
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
try:
    import astrarium
except ImportError:  # a checkout without an install: the sources beside this script
    sys.path.insert(1, str(ROOT / "src"))
    import astrarium

import lab_bench  # noqa: E402
import player_counts  # noqa: E402
from engine import EngineFigures, measure_game  # noqa: E402

from astrarium.core.build import build_kind, compiled_modules  # noqa: E402

#: The performance targets (docs/performance.md), by build: a random-playout step and a clone, in microseconds;
#: MCTS against OpenSpiel's MCTSBot.
STEP_TARGET_US = {"pure": 13.0, "compiled": 8.0}
CLONE_TARGET_US = {"pure": 40.0, "compiled": 10.0}
MCTS_RATIO_TARGET = {"pure": 4.3, "compiled": 5.0}
#: Where ``--both`` keeps the compiled build.
COMPILED_VENV = ROOT / "build" / "bench-compiled"


def build() -> str:
    """``"compiled"`` when the rules' core runs compiled, else ``"pure"`` (which targets apply)."""
    return "compiled" if "astrarium.core.game" in compiled_modules() else "pure"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} ({platform.python_implementation()}), {platform.system()}"


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSES"


def best_of(runs: list[EngineFigures]) -> EngineFigures:
    """Each figure at its best over several measurements: the highest rates, the lowest times and sizes."""
    higher = {"moves_per_second", "games_per_second", "mcts_start_sims", "mcts_mid_sims"}
    values = {}
    for f in fields(EngineFigures):
        column = [getattr(run, f.name) for run in runs]
        if f.name in higher:
            values[f.name] = max(column)
        elif f.name.endswith(("_us", "_kib")):
            values[f.name] = min(column)
        else:
            values[f.name] = column[0]
    return EngineFigures(**values)


def print_engine(figures: list[EngineFigures]) -> None:
    header = (
        f"{'game':18} {'pl':>2} {'moves/s':>9} {'games/s':>8} {'step us':>8} {'legal us':>8} {'apply us':>8} "
        f"{'clone us':>8} {'state KiB':>9} {'mcts/s start':>12} {'mcts/s mid':>10} {'length':>7}  targets"
    )
    print(header)
    print("-" * len(header))
    kind = build()
    step_target, clone_target = STEP_TARGET_US[kind], CLONE_TARGET_US[kind]
    for f in figures:
        step_ok, clone_ok = mark(f.step_us <= step_target), mark(f.clone_us <= clone_target)
        verdict = f"step<={step_target:.0f}us {step_ok}, clone<={clone_target:.0f}us {clone_ok}"
        print(
            f"{f.game:18} {f.players:>2} {f.moves_per_second:>9,.0f} {f.games_per_second:>8,.1f} {f.step_us:>8.1f} "
            f"{f.legal_actions_us:>8.1f} {f.apply_us:>8.1f} {f.clone_us:>8.1f} {f.state_kib:>9.1f} "
            f"{f.mcts_start_sims:>12,.0f} {f.mcts_mid_sims:>10,.0f} {f.mean_length:>7.1f}  {verdict}"
        )


PICTURE_TARGET_MS = 2.0


def picture_ms(game_id: str, positions: int = 60) -> float:
    """Mean processor milliseconds to draw a position (``render_svg`` of the mover's picture view) over random positions."""
    import random
    import time

    game = astrarium.get_game(game_id)
    rng = random.Random(0)
    views = []
    seed = 0
    while len(views) < positions:
        state = game.new_game(max(2, game.min_players), seed)
        seed += 1
        for step in range(300):
            if state.is_over:
                break
            if step % 25 == 0:
                views.append(state.picture_view(state.current_player))
            state.apply_unchecked(rng.choice(state.legal_actions()))
    views = views[:positions]
    for view in views[:5]:  # warm the per-map and per-table caches, as a running table has them
        game.render_svg(view)
    start = time.process_time()
    for view in views:
        game.render_svg(view)
    return (time.process_time() - start) / len(views) * 1000


def print_pictures(game_ids: list[str]) -> None:
    print(f"{'game':18} {'picture ms':>10}  target")
    for game_id in game_ids:
        try:
            ms = picture_ms(game_id)
        except ModuleNotFoundError:
            print(f"{game_id:18} {'-':>10}  no pictures")
            continue
        print(f"{game_id:18} {ms:>10.2f}  <{PICTURE_TARGET_MS:.0f} ms {mark(ms < PICTURE_TARGET_MS)}")
    print("picture ms: mean processor time to draw one position as SVG (render_svg of a picture view), 60 random positions.")


def sources_digest() -> str:
    """A digest of everything the compiled build is made from (to know when it must be rebuilt)."""
    digest = hashlib.sha256()
    for path in sorted([*(ROOT / "src").rglob("*.py"), ROOT / "pyproject.toml", ROOT / "hatch_build.py"]):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_python(rebuild: bool) -> Path:
    """The interpreter of the compiled build's virtual environment, (re)built from this checkout when needed."""
    python = COMPILED_VENV / "bin" / "python"
    stamp = COMPILED_VENV / ".astrarium-sources"
    pip = [str(python), "-m", "pip", "install", "--quiet"]
    env = {**os.environ, "ASTRARIUM_COMPILE": "require"}
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(COMPILED_VENV)], check=True)
        print(f"building the compiled package into {COMPILED_VENV} (mypyc; a minute or two) ...", file=sys.stderr, flush=True)
        subprocess.run([*pip, f"{ROOT}[bench]"], env=env, check=True)
        stamp.write_text(sources_digest())
    elif rebuild or not stamp.exists() or stamp.read_text() != sources_digest():
        print(f"rebuilding the compiled package in {COMPILED_VENV} (the sources changed) ...", file=sys.stderr, flush=True)
        subprocess.run([*pip, f"{ROOT}[bench]"], env=env, check=True)  # a dependency added since the last build
        subprocess.run([*pip, "--force-reinstall", "--no-deps", str(ROOT)], env=env, check=True)
        stamp.write_text(sources_digest())
    return python


def run_both(args: argparse.Namespace, forwarded: list[str]) -> int:
    """Measure the pure-Python build (this interpreter) and the compiled one, then print them side by side."""
    forwarded = [a for i, a in enumerate(forwarded) if a != "--json" and (i == 0 or forwarded[i - 1] != "--json")]
    compiled = compiled_python(args.rebuild)
    lab = not args.no_lab
    forwarded.append("--no-lab")  # the lab's costs are measured below, both builds interleaved
    reports = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind, python in (("pure", Path(sys.executable)), ("compiled", compiled)):
            out = Path(folder) / f"{kind}.json"
            print(f"\n===== {kind} build =====", flush=True)
            subprocess.run([str(python), str(Path(__file__).resolve()), *forwarded, "--json", str(out)], check=True)
            reports[kind] = json.loads(out.read_text(encoding="utf-8"))
    if reports["pure"]["build"] != "pure" or reports["compiled"]["build"] != "compiled":
        print(f"warning: the builds measured are {reports['pure']['build_kind']} and {reports['compiled']['build_kind']}")
    print_side_by_side(reports["pure"], reports["compiled"])
    if lab:
        print()
        reports["lab"] = lab_bench.run({"pure": sys.executable, "compiled": str(compiled)}, args)
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


def print_side_by_side(pure: dict, compiled: dict) -> None:
    """Both builds' figures in one table, each compiled figure beside its pure-Python twin, with the targets."""
    print(f"\nSide by side (best of {pure['repeat']} each): {pure['machine']}")
    print(f"  pure: {pure['build_kind']}; compiled: {compiled['build_kind']}")
    header = (
        f"{'game':18} {'step us':>15} {'clone us':>15} {'legal us':>13} {'apply us':>13} "
        f"{'mcts/s start':>19} {'mcts/s mid':>19}  targets (step pure/compiled, clone compiled)"
    )
    print(header)
    pair, short_pair, rates = "pure  compiled", "pure  comp", "pure  compiled  x"
    print(f"{'':18} {pair:>15} {pair:>15} {short_pair:>13} {short_pair:>13} {rates:>19} {rates:>19}")
    print("-" * len(header))
    theirs = {g["game"]: g for g in compiled["games"]}
    for p in pure["games"]:
        c = theirs.get(p["game"])
        if c is None:
            continue
        ok = (
            f"{mark(p['step_us'] <= STEP_TARGET_US['pure'])}/{mark(c['step_us'] <= STEP_TARGET_US['compiled'])}, "
            f"{mark(c['clone_us'] <= CLONE_TARGET_US['compiled'])}"
        )
        print(
            f"{p['game']:18} {p['step_us']:>6.1f} {c['step_us']:>8.1f} {p['clone_us']:>6.1f} {c['clone_us']:>8.1f} "
            f"{p['legal_actions_us']:>5.1f} {c['legal_actions_us']:>7.1f} {p['apply_us']:>5.1f} {c['apply_us']:>7.1f} "
            f"{p['mcts_start_sims']:>6,.0f} {c['mcts_start_sims']:>7,.0f} {c['mcts_start_sims'] / p['mcts_start_sims']:>4.1f} "
            f"{p['mcts_mid_sims']:>6,.0f} {c['mcts_mid_sims']:>7,.0f} {c['mcts_mid_sims'] / p['mcts_mid_sims']:>4.1f}  {ok}"
        )
    ps, cs = pure.get("openspiel"), compiled.get("openspiel")
    if ps and cs:
        print(
            f"MCTS on {ps['game']} against OpenSpiel's MCTSBot (each run's own OpenSpiel figure):\n"
            f"  pure:     {ps['ours_sims_per_second']:>8,.0f} sims/s vs {ps['openspiel_sims_per_second']:>7,.0f}: {ps['ratio']:.2f}x "
            f"(target >= {MCTS_RATIO_TARGET['pure']:g}x: {mark(ps['ratio'] >= MCTS_RATIO_TARGET['pure'])})\n"
            f"  compiled: {cs['ours_sims_per_second']:>8,.0f} sims/s vs {cs['openspiel_sims_per_second']:>7,.0f}: {cs['ratio']:.2f}x "
            f"(target >= {MCTS_RATIO_TARGET['compiled']:g}x: {mark(cs['ratio'] >= MCTS_RATIO_TARGET['compiled'])})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="random-playout time per game")
    parser.add_argument("--mcts-seconds", type=float, default=1.0, help="MCTS search time per position")
    parser.add_argument("--sims", type=int, default=2000, help="simulations per search in the OpenSpiel comparison")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--no-rl", action="store_true", help="skip the learning environments' steps per second (benchmarks/rl_envs.py)")
    parser.add_argument("--repeat", type=int, default=3, help="measure everything this many times and keep each figure's best")
    parser.add_argument("--json", default="", help="also write the figures to this JSON file")
    parser.add_argument("--both", action="store_true", help="measure the pure-Python and the compiled build and compare them")
    parser.add_argument("--rebuild", action="store_true", help="with --both: rebuild the compiled build even if the sources are unchanged")
    parser.add_argument("--no-lab", action="store_true", help="skip the lab's own costs (benchmarks/lab_bench.py)")
    lab_bench.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.both:
        return run_both(args, [a for a in (argv if argv is not None else sys.argv[1:]) if a not in ("--both", "--rebuild")])
    repeat = max(1, args.repeat)

    kind = build()
    print(f"astrarium {astrarium.__version__} ({build_kind()}) benchmarks, single core, best of {repeat}: {machine()}")
    wanted = [g for g in args.games.split(",") if g] or astrarium.list_games()
    report: dict = {"machine": machine(), "build": kind, "build_kind": build_kind(), "repeat": repeat, "games": [], "openspiel": None}
    if not wanted:
        print("No games are registered yet: nothing to measure for the engine.")
    else:
        figures = []
        for game_id in wanted:
            print(f"measuring {game_id} ...", file=sys.stderr, flush=True)
            game = astrarium.get_game(game_id)
            figures.append(best_of([measure_game(game, args.seconds, args.mcts_seconds) for _ in range(repeat)]))
        print()
        print_engine(figures)
        report["games"] = [asdict(f) for f in figures]
        print("mcts/s: simulations per second of `mcts` (c=1.4, random rollouts to the end) at the start and mid-game.")
        print()
        print_pictures(wanted)
        print()
        counts = player_counts.measure_all(wanted, args.seconds / 2)
        player_counts.print_figures(counts)
        report["player_counts"] = [asdict(f) for f in counts]

    print()
    if args.no_openspiel:
        print("OpenSpiel comparison skipped (--no-openspiel).")
    else:
        try:
            import openspiel_compare as osc
        except ImportError as exc:
            print(f"open-spiel is missing ({exc}); install the bench extra (pip install -e '.[bench]') for the comparison.")
        else:
            print("OpenSpiel comparison (same machine, same run):", file=sys.stderr, flush=True)
            result = osc.best_comparison([osc.compare_mcts(args.sims) for _ in range(repeat)])
            target = MCTS_RATIO_TARGET[kind]
            print(
                f"MCTS on {result.game} ({result.simulations} simulations a search, uct_c=2, one random rollout, "
                "same pyspiel forward model):\n"
                f"  OpenSpiel MCTSBot (Python): {result.openspiel_sims_per_second:>9,.0f} simulations/s\n"
                f"  astrarium mcts:             {result.ours_sims_per_second:>9,.0f} simulations/s\n"
                f"  ratio: {result.ratio:.2f}x  (target >= {target:g}x for the {kind} build: {mark(result.ratio >= target)})"
            )
            speeds = {}
            print("OpenSpiel pure-Python games, random playout:")
            for name in osc.PYTHON_GAMES:
                moves, us = max(osc.python_game_speed(name) for _ in range(repeat))
                speeds[name] = {"moves_per_second": moves, "us_per_move": us}
                print(f"  {name:26} {moves:>9,.0f} moves/s  {us:6.1f} us/move")
            report["openspiel"] = {**asdict(result), "ratio": result.ratio, "python_games": speeds}
    print()
    if args.no_rl:
        print("Learning environments skipped (--no-rl).")
    else:
        try:
            import rl_envs

            env_figures = rl_envs.measure(rl_envs.learning_games(), args.seconds, repeat)
        except ImportError as exc:
            print(f"a learning environment's library is missing ({exc}); pip install -e '.[bench]' for their steps per second.")
        else:
            rl_envs.print_figures(env_figures)
            report["rl_envs"] = [asdict(f) for f in env_figures]
    print()
    if args.no_lab:
        print("The lab's own costs skipped (--no-lab).")
    else:
        report["lab"] = lab_bench.run({build(): sys.executable}, args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
