"""``make bench``: engine speed of every game, and our MCTS beside OpenSpiel's.

Single core, one process. For each registered game: random-playout moves and
games per second, microseconds per random-playout step (legal_actions + apply),
per legal-action generation, per apply and per clone, the peak memory of
copying a state, and MCTS simulations per second at the start and mid-game.
Then, if open-spiel is installed (the ``bench`` extra), OpenSpiel's Python
MCTSBot and our mcts on connect_four through the same forward model, and the
random-playout speed of OpenSpiel's pure-Python games.

    python benchmarks/run.py [--games ID,ID] [--seconds 2] [--mcts-seconds 1] [--sims 2000] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from engine import EngineFigures, measure_game  # noqa: E402

import astrarium  # noqa: E402

STEP_TARGET_US = {"connected-worlds": 100.0}
DEFAULT_STEP_TARGET_US = 25.0
CLONE_TARGET_US = 40.0
MCTS_RATIO_TARGET = 3.0


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


def print_engine(figures: list[EngineFigures]) -> None:
    header = (
        f"{'game':18} {'pl':>2} {'moves/s':>9} {'games/s':>8} {'step us':>8} {'legal us':>8} {'apply us':>8} "
        f"{'clone us':>8} {'state KiB':>9} {'mcts/s start':>12} {'mcts/s mid':>10} {'length':>7}  targets"
    )
    print(header)
    print("-" * len(header))
    for f in figures:
        step_target = STEP_TARGET_US.get(f.game, DEFAULT_STEP_TARGET_US)
        step_ok = mark(f.step_us < step_target)
        verdict = f"step<{step_target:.0f}us {step_ok}, clone<{CLONE_TARGET_US:.0f}us {mark(f.clone_us < CLONE_TARGET_US)}"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="random-playout time per game")
    parser.add_argument("--mcts-seconds", type=float, default=1.0, help="MCTS search time per position")
    parser.add_argument("--sims", type=int, default=2000, help="simulations per search in the OpenSpiel comparison")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--json", default="", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)

    print(f"astrarium {astrarium.__version__} benchmarks, single core: {machine()}")
    wanted = [g for g in args.games.split(",") if g] or astrarium.list_games()
    report: dict = {"machine": machine(), "games": [], "openspiel": None}
    if not wanted:
        print("No games are registered yet: nothing to measure for the engine.")
    else:
        figures = []
        for game_id in wanted:
            print(f"measuring {game_id} ...", file=sys.stderr, flush=True)
            figures.append(measure_game(astrarium.get_game(game_id), args.seconds, args.mcts_seconds))
        print()
        print_engine(figures)
        report["games"] = [asdict(f) for f in figures]
        print("mcts/s: simulations per second of `mcts` (c=1.4, random rollouts to the end) at the start and mid-game.")
        print()
        print_pictures(wanted)

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
            result = osc.compare_mcts(args.sims)
            print(
                f"MCTS on {result.game} ({result.simulations} simulations a search, uct_c=2, one random rollout, "
                "same pyspiel forward model):\n"
                f"  OpenSpiel MCTSBot (Python): {result.openspiel_sims_per_second:>9,.0f} simulations/s\n"
                f"  astrarium mcts:             {result.ours_sims_per_second:>9,.0f} simulations/s\n"
                f"  ratio: {result.ratio:.2f}x  (target >= {MCTS_RATIO_TARGET:.0f}x: {mark(result.ratio >= MCTS_RATIO_TARGET)})"
            )
            speeds = {}
            print("OpenSpiel pure-Python games, random playout:")
            for name in osc.PYTHON_GAMES:
                moves, us = osc.python_game_speed(name)
                speeds[name] = {"moves_per_second": moves, "us_per_move": us}
                print(f"  {name:26} {moves:>9,.0f} moves/s  {us:6.1f} us/move")
            report["openspiel"] = {**asdict(result), "ratio": result.ratio, "python_games": speeds}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
