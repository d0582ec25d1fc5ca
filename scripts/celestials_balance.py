"""Measure the balance of Celestials: Sun against Moon, both seats played by the same policy.

Policies: ``random`` (uniform among legal actions, the floor) and ``greedy``
(one step: try every legal action on a determinized copy, so it never sees hidden
cards, and keep the one whose position the game's ``evaluate()`` rates best for the
acting seat; when nothing improves the position it discards a card it cannot play
in its phase, else advances the phase, else ends the turn; it agrees to reshuffle).

    .venv/bin/python scripts/celestials_balance.py --games 4000 --policy greedy
    .venv/bin/python scripts/celestials_balance.py --games 4000 --policy random

Prints Sun's win rate with a 95% confidence interval (normal approximation).
Stronger players (MCTS) will re-measure this later.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import astrarium
from astrarium.core import Rng, State

PREFERRED = ("advance", "end", "reshuffle yes")


def unplayable_discard(state: Any, legal: list[Any]) -> Any | None:
    """A discard of a card the seat cannot play in its current phase (to dig for Advance Phase)."""
    seat = state.current_player
    for action in legal:
        if not str(action).startswith("discard "):
            continue
        card = state.rules.catalog[state.rules.index[seat][action.card]]
        if card.key != "advance" and card.phases is not None and state.phase[seat] not in card.phases:
            return action
    return None


def greedy(state: State, rng: Rng) -> Any:
    """One step of look-ahead on evaluate(), in a determinized copy (no peeking at hidden cards)."""
    seat = state.current_player
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    world = state.determinize(seat, rng)
    now = world.evaluate(seat)
    best: list[Any] = []
    best_value = -2.0
    for action in legal:
        child = world.clone()
        child.apply(action)
        value = child.evaluate(seat)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    if best_value <= now + 1e-9:
        dig = unplayable_discard(state, legal)
        if dig is not None:
            return dig
        for word in PREFERRED:
            for action in legal:
                if str(action) == word:
                    return action
    return rng.choice(best)


def random_policy(state: State, rng: Rng) -> Any:
    return rng.choice(state.legal_actions())


POLICIES = {"random": random_policy, "greedy": greedy}


def play(policy: str, seed: int, options: dict[str, Any]) -> State:
    state = astrarium.get_game("celestials").new_game(2, seed, options)
    choose = POLICIES[policy]
    rng = Rng(seed ^ 0x5EED)
    while not state.is_over:
        state.apply(choose(state, rng))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="greedy")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, as on the command line")
    args = parser.parse_args()
    game = astrarium.get_game("celestials")
    options = game.parse_options(dict(o.split("=", 1) for o in args.option))
    sun = moon = draw = 0
    reasons: dict[str, int] = {}
    moves = 0
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.games):
        state = play(args.policy, seed, options)
        winners = state.outcome.winners
        moves += state.move_number
        kind = state.outcome.reason.split(":")[0]
        reasons[kind] = reasons.get(kind, 0) + 1
        if winners == (0,):
            sun += 1
        elif winners == (1,):
            moon += 1
        else:
            draw += 1
    n = args.games
    p = sun / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    print(f"policy {args.policy}, {n} games (seeds {args.first_seed}..{args.first_seed + n - 1}), options {options}")
    print(f"Sun wins {sun} ({p:.1%} ± {half:.1%}, 95% CI {p - half:.1%}..{p + half:.1%}); Moon wins {moon} ({moon / n:.1%}); draws {draw}")
    print(f"average length {moves / n:.0f} actions; endings: {reasons}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
