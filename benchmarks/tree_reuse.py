"""How much of a search's tree the same seat's next search could keep: the most that keeping the tree saves.

Plays games of one search player in every seat (default the Celestials mirror at its documented budget,
``mcts:iterations=50,depth=10``). At each search it follows, from the root of the same seat's previous
search, the actions played since (its own and the others'); the node reached holds the simulations that
passed through that line, which a search keeping its tree would not have to run again. The sum of those
over the sum of all simulations run is the largest share of the work that keeping the tree between moves
could save, if the kept simulations counted towards the budget (and the choices changed accordingly).

    python benchmarks/tree_reuse.py [--game celestials] [--player SPEC] [--games 100]
"""

from __future__ import annotations

import argparse
from typing import Any


def reusable(game_id: str, spec: str, games: int, players: int = 2) -> tuple[int, int, int]:
    """(searches, simulations run, simulations a kept tree would already hold) over ``games`` seeded games."""
    from astrarium.agents import make_agent
    from astrarium.core import get_game

    game = get_game(game_id)
    searches = run = kept = 0
    for seed in range(games):
        state = game.new_game(players, seed)
        agents = [make_agent(spec, seed * players + seat, game_id) for seat in range(players)]
        last: list[tuple[Any, int] | None] = [None] * players
        while not state.is_over:
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            agent = agents[seat]
            root = agent.search(state)
            searches += 1
            run += agent.last_iterations
            kept += _visits_along(last[seat], state.actions)
            last[seat] = (root, len(state.actions))
            state.apply(agent.best_action(root, legal))
    return searches, run, kept


def _visits_along(previous: tuple[Any, int] | None, actions: list[Any]) -> int:
    """The visits of the node the actions played since ``previous``'s search lead to from its root (0: none kept)."""
    if previous is None:
        return 0
    node, at = previous
    for action in actions[at:]:
        children = node.children
        child = children.get(action) if isinstance(children, dict) else next((c for c in children or () if c.action == action), None)
        if child is None:
            return 0
        node = child
    return int(node.visits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="celestials")
    parser.add_argument("--player", default="mcts:iterations=50,depth=10", help="the search in every seat")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args(argv)
    searches, run, kept = reusable(args.game, args.player, args.games)
    print(f"{args.game}, {args.player} in both seats, {args.games} games (seeds 0-{args.games - 1}): {searches:,} searches,")
    print(f"{run:,} simulations run, {kept:,} of them already in the tree a kept tree would start from: {kept / max(run, 1):.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
