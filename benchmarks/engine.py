"""Engine figures for one astrarium game, single core.

Everything goes through the public State API except ``_legal_actions`` (the
game's own move generation, timed without the cache that ``legal_actions``
keeps per position).
"""

from __future__ import annotations

import time
import tracemalloc
from dataclasses import dataclass
from typing import Any

from astrarium.agents import MCTSAgent
from astrarium.core import Game, Rng, State


@dataclass(slots=True)
class EngineFigures:
    game: str
    players: int
    games_played: int
    moves_per_second: float
    games_per_second: float
    step_us: float
    legal_actions_us: float
    apply_us: float
    clone_us: float
    state_kib: float
    mcts_start_sims: float
    mcts_mid_sims: float
    mean_length: float


def random_playouts(game: Game, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Random games (legal_actions + apply, public API) for about ``seconds``: games, moves, seconds."""
    rng = Rng(seed)
    games = moves = 0
    elapsed = 0.0
    clock = time.perf_counter
    while elapsed < seconds or games < 3:
        state = game.new_game(players, seed + games)
        started = clock()
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            moves += 1
        elapsed += clock() - started
        games += 1
    return games, moves, elapsed


def sample_positions(game: Game, players: int, games: int = 12, every: int = 5, seed: int = 101) -> list[State]:
    """Positions spread over a few random games (clones; none over)."""
    rng = Rng(seed)
    positions = []
    for g in range(games):
        state = game.new_game(players, seed + g)
        while not state.is_over:
            if state.move_number % every == 0:
                positions.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return positions


def per_call_us(positions: list[State], repeat: int = 3) -> tuple[float, float, float]:
    """Microseconds per legal-action generation, per apply, per clone, over sampled positions."""
    clock = time.perf_counter
    live = [p for p in positions if not p.is_over]
    best_legal = best_apply = best_clone = float("inf")
    rng = Rng(7)
    chosen = [p.legal_actions()[rng.below(len(p.legal_actions()))] for p in live]
    for _ in range(repeat):
        started = clock()
        for p in live:
            p._legal_actions()
        best_legal = min(best_legal, (clock() - started) / len(live))
        started = clock()
        copies = [p.clone() for p in live]
        best_clone = min(best_clone, (clock() - started) / len(live))
        for c in copies:
            c.legal_actions()  # the cache a real step fills first; apply's legality check then costs what it costs in play
        started = clock()
        for c, action in zip(copies, chosen, strict=True):
            c.apply(action)
        best_apply = min(best_apply, (clock() - started) / len(live))
    return best_legal * 1e6, best_apply * 1e6, best_clone * 1e6


def state_kib(positions: list[State]) -> float:
    """Peak memory (KiB) allocated to copy the largest sampled state (tracemalloc)."""
    peak_bytes = 0
    for p in positions[:: max(1, len(positions) // 30)]:
        tracemalloc.start()
        copy = p.clone()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del copy
        peak_bytes = max(peak_bytes, peak)
    return peak_bytes / 1024


def mcts_rate(state: State, seconds: float, seed: int = 3, **options: Any) -> float:
    """Our MCTS's simulations per second from ``state`` within ``seconds`` (the bare search: no guide, see agents/mcts.py)."""
    options.setdefault("guide", "none")
    agent = MCTSAgent(seed=seed, seconds=seconds, **options)
    agent.search(state)
    return agent.last_iterations / agent.last_seconds if agent.last_seconds else float("nan")


def measure_game(game: Game, seconds: float = 2.0, mcts_seconds: float = 1.0) -> EngineFigures:
    players = game.min_players
    games, moves, elapsed = random_playouts(game, players, seconds)
    positions = sample_positions(game, players)
    legal_us, apply_us, clone_us = per_call_us(positions)
    start = game.new_game(players, 11)
    mid = game.new_game(players, 11)
    length = games and moves / games
    rng = Rng(5)
    for _ in range(int(length // 2)):
        if mid.is_over:
            break
        legal = mid.legal_actions()
        mid.apply(legal[rng.below(len(legal))])
    if mid.is_over:
        mid = start
    return EngineFigures(
        game=game.id,
        players=players,
        games_played=games,
        moves_per_second=moves / elapsed,
        games_per_second=games / elapsed,
        step_us=elapsed / moves * 1e6,
        legal_actions_us=legal_us,
        apply_us=apply_us,
        clone_us=clone_us,
        state_kib=state_kib(positions),
        mcts_start_sims=mcts_rate(start, mcts_seconds),
        mcts_mid_sims=mcts_rate(mid, mcts_seconds),
        mean_length=length,
    )
