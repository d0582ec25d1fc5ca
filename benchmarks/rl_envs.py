"""Environment steps per second of the PettingZoo adapter (astrarium.rl) beside PettingZoo's own connect_four_v3.

One loop, the same for every environment, as a learner's rollout runs it:
``env.last()`` (the observation and the action mask), a uniformly random legal
action from the mask, ``env.step``; a new game (``reset``) when one ends.
Also the microseconds of each part of a step for our games: the mask, the
observation tensor, the action's look-up and the rules' own apply. Single
core, one process; ``make bench`` runs it (benchmarks/run.py), or alone:

    python benchmarks/rl_envs.py [--seconds 2] [--repeat 3] [--games ID,ID]

``--lengths N`` prints instead the games' lengths beside their bound
(``Game.max_moves``) and the environments' episode limit (the learning
part's ``episode_limit`` where a game declares one, as Streamlines does;
docs/learning.md, "The bound on a game's length"):
the mean and longest of N random games, ``--greedy-games`` games of two
``greedy`` players and ``--stall-games`` games of a stalling player (random,
but never an action that ends a turn while it has another), seeds 0 upwards.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: The options a game's action space needs (Connected Worlds chooses a move, portal or deployment a part at a time).
ENV_OPTIONS: dict[str, dict[str, Any]] = {"connected-worlds": {"choices": "steps"}}


@dataclass(frozen=True)
class EnvSpeed:
    """One environment's figures: steps and games per second, and (ours) the parts of a step in microseconds."""

    name: str
    steps_per_second: float
    games_per_second: float
    mask_us: float = 0.0
    observation_us: float = 0.0
    action_us: float = 0.0
    apply_us: float = 0.0
    #: Steps a second over connect_four_v3's in the same round (the median over the rounds).
    ratio: float = 1.0


def aec_speed(name: str, make: Callable[[], Any], seconds: float) -> EnvSpeed:
    """Random masked play through an AEC environment for ``seconds``: steps and games per second."""
    import numpy as np

    env = make()
    env.reset(seed=0)
    pick = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            games += 1
            if time.perf_counter() > deadline:
                break
            env.reset()
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[int(pick.random() * len(legal))]))
        steps += 1
    elapsed = time.perf_counter() - start
    return EnvSpeed(name, steps / elapsed, games / elapsed)


def step_parts(game_id: str, positions: int = 2000) -> tuple[float, float, float, float]:
    """Microseconds of the mask, one observation tensor, the index's action and the rules' apply, over random play."""
    from astrarium.core import get_game

    game = get_game(game_id)
    pick = random.Random(1)
    seed = 0
    options = ENV_OPTIONS.get(game_id, {})
    state = game.new_game(2, seed, options)
    space = game.action_space(2, state.options)
    mask_t = obs_t = act_t = apply_t = 0.0
    for _ in range(positions):
        if state.is_over:
            seed += 1
            state = game.new_game(2, seed, options)
        t0 = time.perf_counter()
        mask = state.legal_action_mask()
        t1 = time.perf_counter()
        state.observation_tensor(state.current_player)
        t2 = time.perf_counter()
        legal = mask.nonzero()[0]
        action = space.action(int(legal[int(pick.random() * len(legal))]), state)
        t3 = time.perf_counter()
        state.apply_unchecked(action)
        t4 = time.perf_counter()
        mask_t, obs_t, act_t, apply_t = mask_t + t1 - t0, obs_t + t2 - t1, act_t + t3 - t2, apply_t + t4 - t3
    scale = 1e6 / positions
    return mask_t * scale, obs_t * scale, act_t * scale, apply_t * scale


def measure(game_ids: list[str], seconds: float = 2.0, repeat: int = 3) -> list[EnvSpeed]:
    """``repeat`` rounds, each running connect_four_v3 and then every game's AEC environment (2 players) once.

    Each environment keeps its best run; its ratio to connect_four_v3 is the median over the rounds of its
    steps a second over connect_four_v3's in the same round, so that a busy moment slows both sides of a ratio.
    """
    import statistics

    from pettingzoo.classic import connect_four_v3

    from astrarium.rl import pettingzoo_env

    makers: dict[str, Callable[[], Any]] = {"pettingzoo connect_four_v3": connect_four_v3.env}
    for game_id in game_ids:
        makers[f"astrarium {game_id}"] = lambda g=game_id: pettingzoo_env(g, options=ENV_OPTIONS.get(g))
    runs: dict[str, list[EnvSpeed]] = {name: [] for name in makers}
    for _ in range(repeat):
        for name, make in makers.items():
            runs[name].append(aec_speed(name, make, seconds))
    reference = runs["pettingzoo connect_four_v3"]
    out = []
    for name, speeds in runs.items():
        best = max(speeds, key=lambda s: s.steps_per_second)
        ratio = statistics.median(s.steps_per_second / r.steps_per_second for s, r in zip(speeds, reference, strict=True))
        game_id = name.removeprefix("astrarium ")
        parts = min((step_parts(game_id) for _ in range(repeat)), key=sum) if game_id != name else (0.0, 0.0, 0.0, 0.0)
        out.append(EnvSpeed(best.name, best.steps_per_second, best.games_per_second, *parts, ratio=ratio))
    return out


#: The first word of the actions that end a turn (or a step of it), which the stalling player avoids.
TURN_ENDING = {"end", "advance", "keep", "nodraw", "pass", "swap"}


def game_length(game_id: str, players: int, seed: int, kind: str) -> int:
    """The actions of one game of ``players``: ``random``, ``stall`` or an agent spec in every seat."""
    from astrarium.agents import make_agent
    from astrarium.core import get_game

    state = get_game(game_id).new_game(players, seed)
    pick = random.Random(seed)
    agents = [make_agent(kind, seed * 10 + i, game_id) for i in range(players)] if kind not in ("random", "stall") else []
    while not state.is_over:
        legal = state.legal_actions()
        if agents:
            state.apply(agents[state.current_player].choose(state))
            continue
        if kind == "stall":
            legal = [a for a in legal if str(a).split()[0] not in TURN_ENDING and "advance" not in str(a)] or legal
        state.apply_unchecked(pick.choice(legal))
    return state.move_number


def limit_of(game_id: str, players: int) -> int | None:
    """The environments' episode limit (``astrarium.rl.common.episode_limit``, with the options the action space needs);
    None for a game without the learning part."""
    from astrarium.core import get_game
    from astrarium.rl.common import episode_limit

    game = get_game(game_id)
    if game.parts.learning is None:
        return None
    return episode_limit(game, players, game.resolve_options(players, ENV_OPTIONS.get(game_id, {})))


def print_lengths(game_ids: list[str], games: int, greedy_games: int, stall_games: int, players: int = 2) -> None:
    from astrarium.core import get_game

    print(f"Game lengths in actions (mean / longest) beside the bound, {players} players, default options, seeds 0 upwards;")
    print("the episode limit is where the learning environments truncate (with the options their action space needs):")
    print(f"  {'game':16} {'bound':>11} {'episode limit':>13} {'random':>14} {'greedy':>14} {'stalling':>14}")
    for game_id in game_ids:
        game = get_game(game_id)
        bound = game.max_moves(players, game.resolve_options(players, {}))
        limit = limit_of(game_id, players)
        cells = []
        for kind, n in (("random", games), ("greedy", greedy_games), ("stall", stall_games)):
            lengths = [game_length(game_id, players, seed, kind) for seed in range(n)]
            cells.append(f"{sum(lengths) / len(lengths):.1f} / {max(lengths)}" if lengths else "-")
        shown = "-" if limit is None else f"{limit:,}"
        print(f"  {game_id:16} {bound:>11,} {shown:>13} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14}", flush=True)


def learning_games() -> list[str]:
    """The registered games that declare the learning part."""
    from astrarium.core import get_game, list_games

    return [i for i in list_games() if get_game(i).parts.learning is not None]


def print_figures(figures: list[EnvSpeed]) -> None:
    print("PettingZoo AEC environments, random masked play (env.last, a random legal action, env.step):")
    head = f"  {'environment':30} {'steps/s':>9} {'vs c4':>6} {'games/s':>8}   {'mask us':>7}"
    head += f" {'obs us':>7} {'action us':>9} {'apply us':>8}"
    print(head)
    for f in figures:
        parts = f"   {f.mask_us:7.1f} {f.observation_us:7.1f} {f.action_us:9.1f} {f.apply_us:8.1f}" if f.mask_us else ""
        print(f"  {f.name:30} {f.steps_per_second:>9,.0f} {f.ratio:>6.0%} {f.games_per_second:>8,.1f}{parts}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="random play per environment and run")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of runs (every environment once a round); the best is kept")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game with the learning part)")
    parser.add_argument("--lengths", type=int, default=0, help="print N random games' lengths beside the bound instead")
    parser.add_argument("--greedy-games", type=int, default=60, help="with --lengths: games of two greedy players")
    parser.add_argument("--stall-games", type=int, default=200, help="with --lengths: games of the stalling player")
    parser.add_argument("--players", type=int, default=2, help="with --lengths: seats")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g] or learning_games()
    if args.lengths:
        print_lengths(games, args.lengths, args.greedy_games, args.stall_games, args.players)
        return 0
    print_figures(measure(games, args.seconds, args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
