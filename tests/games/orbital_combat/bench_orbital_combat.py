"""Timing of random playouts and clones for orbital-combat (a script, not a test).

CPU time of this process (time.process_time), so other jobs on a shared machine inflate it less.

Run from the repository root: ``.venv/bin/python tests/games/orbital_combat/bench_orbital_combat.py``
"""

from __future__ import annotations

import time

import astrarium
from astrarium.core import Rng


def measure(players: int, games: int = 300) -> str:
    game = astrarium.get_game("orbital-combat")
    steps = 0
    elapsed = 0.0
    for seed in range(games):
        state = game.new_game(players, seed)
        rng = Rng(seed)
        start = time.process_time()
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1
        elapsed += time.process_time() - start
    counts: list[int] = []
    clone_time = 0.0
    for seed in range(games // 6):
        state = game.new_game(players, seed)
        rng = Rng(seed)
        while not state.is_over:
            counts.append(len(state.legal_actions()))
            start = time.process_time()
            state.clone()
            clone_time += time.process_time() - start
            state.apply(rng.choice(state.legal_actions()))
    counts.sort()
    return (
        f"{players} ships: step {elapsed / steps * 1e6:.1f} us ({steps} steps, {steps / games:.0f} per game); "
        f"clone {clone_time / len(counts) * 1e6:.1f} us; legal actions median {counts[len(counts) // 2]}, "
        f"mean {sum(counts) / len(counts):.0f}, max {counts[-1]}"
    )


if __name__ == "__main__":
    for n in (2, 3, 4):
        print(measure(n))
