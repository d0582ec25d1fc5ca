"""Helpers shared by the tests: random play and position sampling over the core API."""

from __future__ import annotations

from astrarium.core import Rng, State


def play_randomly(state: State, seed: int, steps: int | None = None) -> State:
    """Play random legal actions on ``state`` (in place) until it ends or ``steps`` actions were played."""
    rng = Rng(seed)
    played = 0
    while not state.is_over and (steps is None or played < steps):
        legal = state.legal_actions()
        assert legal, f"no legal actions while the game is not over: {state!r}"
        state.apply(rng.choice(legal))
        played += 1
    return state


def sample_positions(state: State, seed: int, count: int) -> list[State]:
    """Up to ``count`` positions from one random game, spread over its length (clones)."""
    rng = Rng(seed)
    positions = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        positions.append(state.clone())
    if len(positions) <= count:
        return positions
    step = len(positions) / count
    return [positions[int(i * step)] for i in range(count)]
