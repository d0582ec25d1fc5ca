"""An experiment on Constellations: how far ahead must a player look to beat random play 9 times in 10?

The *lookahead* player chooses its rotation by searching its own rotations only
(breadth first, ``--depth`` rotations after the one it makes, the opponent
ignored) and scoring each board by what its hand would score on the nearest
board that shows each card, discounted by ``--gamma`` per rotation; then it plays
every card found. It never sees the other hand or the deck. It is a yardstick
for the search players (docs/agents.md), not one of them.

    .venv/bin/python scripts/constellations_lookahead.py --games 80 --depth 4
    .venv/bin/python scripts/constellations_lookahead.py --games 40 --depth 3

Plays the lookahead player against ``random`` with seats alternating (game g:
lookahead on seat g % 2, seed g) and prints its wins with a 95% Wilson interval
and both sides' mean scores.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable
from typing import Any

import astrarium
from astrarium.agents import make_agent
from astrarium.agents.arena import wilson_interval
from astrarium.games.constellations.actions import END, PASS, Play
from astrarium.games.constellations.board import colour_lines, found_count, star_moves
from astrarium.games.constellations.cards import Card

Board = tuple[str, ...]


class Lookahead:
    """Own-rotation breadth-first look-ahead with memoized board lines and successors."""

    def __init__(self, depth: int, gamma: float) -> None:
        self.depth = depth
        self.gamma = gamma
        self._lines: dict[Board, tuple[str, ...]] = {}
        self._next: dict[Board, tuple[Board, ...]] = {}

    def choose(self, state: Any) -> Any:
        legal = state.legal_actions()
        if state.phase == "play":
            plays = [a for a in legal if isinstance(a, Play)]
            return plays[0] if plays else END
        if legal == [PASS]:
            return PASS
        hand = state.hands[state.current_player]
        best, best_value = legal[0], -1.0
        for action in legal:
            after = state.clone()
            after.apply(action)
            value = self.outlook(state, after.board, hand)
            if value > best_value:
                best, best_value = action, value
        return best

    def outlook(self, state: Any, board: Board, cards: Iterable[Card]) -> float:
        """Each card's best score on the nearest board showing it, times gamma per rotation."""
        pending, total, weight = list(cards), 0.0, 1.0
        frontier, seen = [board], {board}
        for d in range(self.depth + 1):
            best = [0] * len(pending)
            for b in frontier:
                lines = self._lines.get(b)
                if lines is None:
                    lines = self._lines[b] = colour_lines(b, state.geo, state.options["planet_in_line"])
                for k, card in enumerate(pending):
                    found = found_count(lines, card.colours)
                    if found:
                        best[k] = max(best[k], card.score(found))
            total += weight * sum(best)
            pending = [card for k, card in enumerate(pending) if not best[k]]
            if not pending or d == self.depth:
                break
            weight *= self.gamma
            nxt = []
            for b in frontier:
                after = self._next.get(b)
                if after is None:
                    geo = state.geo
                    after = self._next[b] = tuple(geo.rotate(b, c, geo.radius_of(b[c])) for c in star_moves(b, geo))
                for nb in after:
                    if nb not in seen:
                        seen.add(nb)
                        nxt.append(nb)
            frontier = nxt
        if len(self._lines) > 200_000:
            self._lines.clear()
            self._next.clear()
        return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=4, help="own rotations looked at after the one made")
    parser.add_argument("--gamma", type=float, default=0.5, help="discount per rotation")
    args = parser.parse_args()
    game = astrarium.get_game("constellations")
    wins, mine, theirs = 0, [], []
    started = time.perf_counter()
    for g in range(args.first_seed, args.first_seed + args.games):
        me = g % 2
        state = game.new_game(2, g, {})
        players = {me: Lookahead(args.depth, args.gamma), 1 - me: make_agent("random", seed=g * 1000 + 1 - me)}
        while not state.is_over:
            state.apply(players[state.current_player].choose(state))
        wins += state.scores[me] > state.scores[1 - me]
        mine.append(state.scores[me])
        theirs.append(state.scores[1 - me])
    low, high = wilson_interval(wins, args.games)
    print(
        f"lookahead depth {args.depth}, gamma {args.gamma} against random, seeds {args.first_seed}.."
        f"{args.first_seed + args.games - 1}: won {wins}/{args.games} = {wins / args.games:.0%} ({low:.0%}-{high:.0%}); "
        f"mean score {statistics.mean(mine):.1f} against {statistics.mean(theirs):.1f}; "
        f"{time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
