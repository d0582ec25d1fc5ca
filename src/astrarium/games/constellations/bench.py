"""Quick timings of the game API for Constellations (not a test; numbers vary with the machine).

    python -m astrarium.games.constellations.bench [--seeds 200]

Prints the mean time of a random-playout step (``legal_actions()`` + ``apply()``)
over random games of 1 to 4 players, and of ``clone()`` on positions from them.
"""

from __future__ import annotations

import argparse
import time

from astrarium.core import Rng, get_game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args(argv)
    game = get_game("constellations")
    steps, step_time, clones, clone_time = 0, 0.0, 0, 0.0
    for seed in range(args.seeds):
        state = game.new_game(seed % 4 + 1, seed)
        rng = Rng(seed)
        start = time.perf_counter()
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        step_time += time.perf_counter() - start
        positions = [game.new_game(seed % 4 + 1, seed)]
        start = time.perf_counter()
        for _ in range(100):
            positions[0].clone()
        clone_time += time.perf_counter() - start
        clones += 100
    print(f"random-playout step: {step_time / steps * 1e6:.1f} us over {steps} steps ({args.seeds} games)")
    print(f"clone() of starting positions (the fullest deck): {clone_time / clones * 1e6:.2f} us over {clones} clones")


if __name__ == "__main__":
    main()
