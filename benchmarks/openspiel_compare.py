"""Side by side with OpenSpiel (needs the ``bench`` extra: ``pip install -e '.[bench]'``).

1. MCTS on ``connect_four``: OpenSpiel's own Python ``MCTSBot`` (uct_c=2, one
   random rollout per simulation, ``solve=False`` so every simulation is a plain
   one, as ours) against our ``mcts`` with the same settings, on the same
   pyspiel forward model through ``spiel_adapter``. Simulations per second and
   the ratio.
2. Random-playout speed of OpenSpiel's pure-Python games, the yardstick in the
   performance targets.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np
import pyspiel
from open_spiel.python import games as _python_games  # noqa: F401  (registers the python_* games)
from open_spiel.python.algorithms import mcts as spiel_mcts
from spiel_adapter import SpielGame

from astrarium.agents import MCTSAgent

PYTHON_GAMES = ("python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker", "python_block_dominoes")


@dataclass(slots=True)
class MCTSComparison:
    game: str
    simulations: int
    openspiel_sims_per_second: float
    ours_sims_per_second: float

    @property
    def ratio(self) -> float:
        return self.ours_sims_per_second / self.openspiel_sims_per_second


def compare_mcts(simulations: int = 2000, rounds: int = 3, game_name: str = "connect_four") -> MCTSComparison:
    """Best of ``rounds`` searches of ``simulations`` each, from the start and from a middle position."""
    adapted = SpielGame(game_name)
    spiel_game = adapted.spiel_game
    starts = [[], [3, 3, 2, 4, 2, 5]]  # the opening, and a position six moves in
    theirs = ours = 0.0
    for moves in starts:
        spiel_state = spiel_game.new_initial_state()
        our_state = adapted.new_state()
        for move in moves:
            spiel_state.apply_action(move)
            our_state.apply(move)
        for r in range(rounds):
            bot = spiel_mcts.MCTSBot(
                spiel_game,
                uct_c=2,
                max_simulations=simulations,
                evaluator=spiel_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(r)),
                solve=False,
                random_state=np.random.RandomState(r),
            )
            started = time.perf_counter()
            bot.step(spiel_state)
            theirs += time.perf_counter() - started
            agent = MCTSAgent(seed=r, iterations=simulations, c=2.0, rollout="random")
            started = time.perf_counter()
            agent.choose(our_state)
            ours += time.perf_counter() - started
    total = simulations * rounds * len(starts)
    return MCTSComparison(game_name, simulations, total / theirs, total / ours)


def best_comparison(runs: list[MCTSComparison]) -> MCTSComparison:
    """Each search at its best rate over several comparisons of the same run; the ratio is of those two bests."""
    first = runs[0]
    return MCTSComparison(
        first.game,
        first.simulations,
        max(r.openspiel_sims_per_second for r in runs),
        max(r.ours_sims_per_second for r in runs),
    )


def python_game_speed(name: str, seconds: float = 1.0, seed: int = 1) -> tuple[float, float]:
    """Random-playout moves per second and microseconds per move of an OpenSpiel Python game."""
    game = pyspiel.load_game(name)
    rand = random.Random(seed)
    moves = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        started = time.perf_counter()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rand.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand.random() * len(legal))])
            moves += 1
        elapsed += time.perf_counter() - started
    return moves / elapsed, elapsed / moves * 1e6
