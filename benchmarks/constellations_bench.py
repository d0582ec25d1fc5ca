"""Quick timings of the game API for Constellations (not a test; numbers vary with the machine).

    .venv/bin/python benchmarks/constellations_bench.py [--seeds 200]

Prints the mean time of a random-playout step (``legal_actions()`` + ``apply()``)
over random games of 1 to 4 players, and of ``clone()`` on positions from them.
With ``--greedy N`` it also plays N solo games (seeds 0..N-1) with a one-step
greedy player and prints their scores (how ``solo_target`` was chosen).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from astrarium.core import Rng, get_game
from astrarium.games.constellations.actions import Play
from astrarium.games.constellations.state import ConstellationsState


def greedy_choice(state: ConstellationsState) -> Any:
    """Play the best-scoring playable card; else end; else the rotation that leaves the most points on hand."""
    legal = state.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return max(plays, key=lambda a: a.card.score(state.found(a.card)))
    if state.phase == "play":
        return legal[-1]
    seat = state.turn

    def value(action: Any) -> int:
        after = state.clone()
        assert isinstance(after, ConstellationsState)
        after.apply(action)
        return after.scores[seat] + sum(c.score(after.found(c)) for c in after.hands[seat])

    return max(legal, key=value)


def greedy_scores(games: int) -> list[int]:
    game = get_game("constellations")
    scores = []
    for seed in range(games):
        state = game.new_game(1, seed)
        assert isinstance(state, ConstellationsState)
        while not state.is_over:
            state.apply(greedy_choice(state))
        scores.append(state.scores[0])
    return scores


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--greedy", type=int, default=0, help="also play this many solo games with a greedy player")
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

    if args.greedy:
        scores = greedy_scores(args.greedy)
        print(
            f"greedy solo scores over seeds 0-{args.greedy - 1}: median {statistics.median(scores)}, "
            f"mean {statistics.mean(scores):.1f}, max {max(scores)}"
        )


if __name__ == "__main__":
    main()
