"""Strength of ``mcts`` per game, measured with the arena (the figures in docs/agents.md).

For each competitive game: ``mcts`` at the game's budget against ``random`` and
against ``greedy``, ``--games`` games each, seats rotated. For a cooperative
game: a team of ``mcts`` against a team of ``random`` players, same seeds.
Prints the equivalent ``astrarium arena`` command for every run and a
Markdown table.

    python benchmarks/strength.py [--games 100] [--jobs 2] [--only ID,ID] [--out-dir DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import astrarium  # noqa: E402
from astrarium.agents.arena import Summary, plan_matches, run_matches, summarise, write_results  # noqa: E402

#: The mcts budget per game (small enough that 100 games take minutes on 2 cores); see docs/agents.md.
BUDGETS: dict[str, str] = {
    "celestials": "mcts:iterations=150,depth=10",
    "connected-worlds": "mcts:iterations=60,depth=20,guide=none",
    "constellations": "mcts:iterations=300,rollout=heuristic,depth=2,c=0.5",
    "orbital-combat": "mcts:iterations=200,rollout=heuristic,depth=4",
    "streamlines": "mcts:iterations=200,rollout=heuristic,depth=4",
}
DEFAULT_BUDGET = "mcts:iterations=200,rollout=heuristic,depth=4"
#: Options per game for the strength runs (the introductory scenario where a game has several).
OPTIONS: dict[str, dict[str, str]] = {"streamlines": {"scenario": "introductory"}}


def command(game_id: str, lineup: list[str], games: int, jobs: int, options: dict[str, str], out: str) -> str:
    seats = " ".join(f"--seat {s}={spec}" for s, spec in enumerate(lineup))
    opts = "".join(f" --option {k}={v}" for k, v in options.items())
    return f"astrarium arena {game_id} --games {games} {seats}{opts} --jobs {jobs} --out {out}"


def run(game_id: str, lineup: list[str], games: int, jobs: int, options: dict[str, str], out_dir: Path) -> tuple[Summary, float, str]:
    game = astrarium.get_game(game_id)
    tag = "-vs-".join(spec.split(":")[0] for spec in dict.fromkeys(lineup))
    out = out_dir / f"strength-{game_id}-{tag}.json"
    print(command(game_id, lineup, games, jobs, options, str(out)), flush=True)
    started = time.perf_counter()
    plan = plan_matches(game_id, lineup, games, seed=0, options=game.parse_options(options))
    summary = summarise(game_id, lineup, run_matches(plan, jobs=jobs))
    elapsed = time.perf_counter() - started
    write_results(summary, out)
    return summary, elapsed, str(out)


def row(summary: Summary, entry: int, opponent: str, elapsed: float) -> str:
    e = summary.entries[entry]
    lo, hi = e.win_ci
    return (
        f"| {summary.game} | `{e.spec}` | {opponent} | {summary.games} | {e.wins}-{e.draws}-{e.losses} | "
        f"{e.win_rate:.0%} ({lo:.0%}-{hi:.0%}) | {summary.mean_length:.0f} | {elapsed:.0f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated game ids")
    parser.add_argument("--versus", default="random,greedy", help="opponents of mcts in competitive games")
    parser.add_argument("--out-dir", default="strength-results")
    args = parser.parse_args(argv)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for game_id in [g for g in args.only.split(",") if g] or astrarium.list_games():
        game = astrarium.get_game(game_id)
        spec = BUDGETS.get(game_id, DEFAULT_BUDGET)
        options = OPTIONS.get(game_id, {})
        players = max(2, game.min_players)
        if game.cooperative:
            for team in (spec, "random"):
                summary, elapsed, _ = run(game_id, [team] * players, args.games, args.jobs, options, out_dir)
                lo, hi = summary.team_win_ci
                rows.append(
                    f"| {game_id} | team of `{team}` | (cooperative) | {summary.games} | {summary.team_wins} won | "
                    f"{summary.team_wins / summary.games:.0%} ({lo:.0%}-{hi:.0%}) | {summary.mean_length:.0f} | {elapsed:.0f} s |"
                )
                print(rows[-1], flush=True)
            continue
        for opponent in args.versus.split(","):
            lineup = [spec] + [opponent] * (players - 1)
            summary, elapsed, _ = run(game_id, lineup, args.games, args.jobs, options, out_dir)
            rows.append(row(summary, 0, opponent, elapsed))
            print(rows[-1], flush=True)
    print()
    print("| game | player | against | games | won-drawn-lost | win rate (95% CI) | mean length | time |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for line in rows:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
