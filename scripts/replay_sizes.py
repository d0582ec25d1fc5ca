"""How big the HTML replay of a long game is, for every game: bytes in total and per move.

Usage: ``python scripts/replay_sizes.py [--moves N] [--seed S] [--tries T] [--out DIR]``.
For each registered game it plays ``T`` seeded random games from seed ``S``
(two players, every limit raised to its maximum), each until it ends or
reaches ``--moves`` actions (default 600), keeps the longest, writes its
replay with :func:`astrarium.pictures.record_to_html` and prints the moves, the page's size in bytes, bytes a move and the seconds it
took to write. ``--out DIR`` keeps the pages.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import astrarium
from astrarium.pictures import record_to_html

#: Options that let a game run long: every turn or round limit at its maximum.
LONG = {
    "celestials": {"turn_limit": 200},
    "connected-worlds": {"round_limit": 500},
    "constellations": {"max_rounds": 100, "width": 15, "height": 15},
    "orbital-combat": {"round_limit": 500},
}


def long_record(game_id: str, seed: int, moves: int, tries: int = 1) -> dict[str, Any]:
    """The longest record of seeded random games (seeds ``seed`` on, ``tries`` of them) of at most ``moves`` actions."""
    records = [_random_record(game_id, s, moves) for s in range(seed, seed + tries)]
    return max(records, key=lambda r: len(r["actions"]))


def _random_record(game_id: str, seed: int, moves: int) -> dict[str, Any]:
    """The record of a seeded random game of at most ``moves`` actions (public while unfinished)."""
    game = astrarium.get_game(game_id)
    state = game.new_game(max(2, game.min_players), seed, LONG.get(game_id, {}))
    rng = random.Random(seed)
    while not state.is_over and state.move_number < moves:
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record(public=not state.is_over)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=5, help="seeds tried per game; the longest game is kept")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--games", default=",".join(g for g in astrarium.list_games() if g != "toy-pile"))
    args = parser.parse_args()
    print(f"{'game':18} {'moves':>6} {'bytes':>12} {'bytes/move':>11} {'seconds':>8}")
    for game_id in args.games.split(","):
        record = long_record(game_id, args.seed, args.moves, args.tries)
        start = time.perf_counter()
        page = record_to_html(record).encode("utf-8")
        seconds = time.perf_counter() - start
        moves = len(record["actions"])
        print(f"{game_id:18} {moves:>6} {len(page):>12,} {len(page) // max(moves, 1):>11,} {seconds:>8.1f}", flush=True)
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{game_id}.html").write_bytes(page)


if __name__ == "__main__":
    main()
