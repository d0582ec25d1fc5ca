"""An experiment on Constellations: how far ahead must a player look to beat random play 9 times in 10?

The *lookahead* player chooses its rotation by searching its own rotations only
(breadth first, ``--depth`` rotations after the one it makes, the opponent
ignored) and scoring each board by what its hand would score on the nearest
board that shows each card, discounted by ``--gamma`` per rotation; then it plays
every card found. It never sees the other hand or the deck. It is a yardstick
for the search players (docs/agents.md), not one of them.

With ``--replies`` it also reckons with the opponent: each rotation is worth the
points of the cards it makes now plus the mean, over every rotation the
opponent could answer with (all equally likely, as a random player makes them),
of the look-ahead from the board that answer leaves.

    .venv/bin/python scripts/constellations_lookahead.py --games 100 --depth 4
    .venv/bin/python scripts/constellations_lookahead.py --games 100 --depth 2 --replies

``--disruption N`` measures instead why looking further ahead barely helps: on N
random default boards it picks a card worth 7 or more points that is 2 to
``--depth`` rotations away, makes the rotation that brings it nearest, and
measures how far it is after each rotation the opponent could answer with.

Plays the lookahead player against ``random`` with seats alternating (game g:
lookahead on seat g % 2, seed g) and prints its wins with a 95% Wilson interval
and both sides' mean scores.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterable
from typing import Any

import astrarium
from astrarium.agents import make_agent
from astrarium.agents.arena import wilson_interval
from astrarium.games.constellations.actions import END, PASS, Play
from astrarium.games.constellations.board import colour_lines, found_count, star_moves
from astrarium.games.constellations.cards import Card, shipped_deck

Board = tuple[str, ...]


class Lookahead:
    """Own-rotation breadth-first look-ahead with memoized board lines and successors."""

    def __init__(self, depth: int, gamma: float, replies: bool = False) -> None:
        self.depth = depth
        self.gamma = gamma
        self.replies = replies
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
            value = self.answered(state, after.board, hand) if self.replies else self.outlook(state, after.board, hand)
            if value > best_value:
                best, best_value = action, value
        return best

    def answered(self, state: Any, board: Board, hand: Iterable[Card]) -> float:
        """Points the hand makes on ``board`` now, plus the mean look-ahead after each opponent rotation."""
        lines = self.lines(state, board)
        now, rest = 0, []
        for card in hand:
            found = found_count(lines, card.colours)
            if found:
                now += card.score(found)
            else:
                rest.append(card)
        answers = self.successors(state, board) or (board,)
        return now + sum(self.outlook(state, b, rest) for b in answers) / len(answers)

    def lines(self, state: Any, board: Board) -> tuple[str, ...]:
        lines = self._lines.get(board)
        if lines is None:
            lines = self._lines[board] = colour_lines(board, state.geo, state.options["planet_in_line"])
        return lines

    def successors(self, state: Any, board: Board) -> tuple[Board, ...]:
        after = self._next.get(board)
        if after is None:
            geo = state.geo
            after = self._next[board] = tuple(geo.rotate(board, c, geo.radius_of(board[c])) for c in star_moves(board, geo))
        return after

    def ring(self, state: Any, frontier: list[Board], seen: set[Board]) -> list[Board]:
        """The boards one rotation beyond ``frontier`` not yet in ``seen`` (which gains them)."""
        nxt = []
        for b in frontier:
            for nb in self.successors(state, b):
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        return nxt

    def distance(self, state: Any, board: Board, card: Card, limit: int) -> int:
        """Rotations (of any star) to the nearest board showing ``card``; ``limit + 1`` if none within ``limit``."""
        frontier, seen = [board], {board}
        for d in range(limit + 1):
            if any(found_count(self.lines(state, b), card.colours) for b in frontier):
                return d
            frontier = self.ring(state, frontier, seen)
        return limit + 1

    def outlook(self, state: Any, board: Board, cards: Iterable[Card]) -> float:
        """Each card's best score on the nearest board showing it, times gamma per rotation."""
        pending, total, weight = list(cards), 0.0, 1.0
        frontier, seen = [board], {board}
        for d in range(self.depth + 1):
            best = [0] * len(pending)
            for b in frontier:
                lines = self.lines(state, b)
                for k, card in enumerate(pending):
                    found = found_count(lines, card.colours)
                    if found:
                        best[k] = max(best[k], card.score(found))
            total += weight * sum(best)
            pending = [card for k, card in enumerate(pending) if not best[k]]
            if not pending or d == self.depth:
                break
            weight *= self.gamma
            frontier = self.ring(state, frontier, seen)
        if len(self._lines) > 200_000:
            self._lines.clear()
            self._next.clear()
        return total


def measure_disruption(boards: int, limit: int) -> None:
    """How much of one rotation's progress towards a hard card survives the opponent's answer."""
    game = astrarium.get_game("constellations")
    hard = [card for card in shipped_deck() if card.points >= 7]
    pick = random.Random(1)
    before, ours, answered, near, answers = [], [], [], 0, 0
    for seed in range(1000, 1000 + boards):
        state = game.new_game(2, seed, {})
        probe = Lookahead(limit, 0.5)
        card = pick.choice(hard)
        d = probe.distance(state, state.board, card, limit)
        if not 2 <= d <= limit:
            continue
        step = min(probe.successors(state, state.board), key=lambda b: probe.distance(state, b, card, limit))
        after = [probe.distance(state, b, card, limit) for b in probe.successors(state, step)]
        before.append(d)
        ours.append(probe.distance(state, step, card, limit))
        answered.append(statistics.mean(after))
        near += sum(a <= 1 for a in after)
        answers += len(after)
    print(
        f"{len(before)} of {boards} boards had a 7- to 12-point card 2 to {limit} rotations away "
        f"(beyond {limit} counts as {limit + 1}): mean distance {statistics.mean(before):.2f}, "
        f"{statistics.mean(ours):.2f} after the best own rotation, {statistics.mean(answered):.2f} after "
        f"the opponent's answer; {near / answers:.0%} of answers leave it within one rotation"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=4, help="own rotations looked at after the one made")
    parser.add_argument("--gamma", type=float, default=0.5, help="discount per rotation")
    parser.add_argument("--replies", action="store_true", help="average over the opponent's answering rotations")
    parser.add_argument("--disruption", type=int, metavar="N", help="measure on N boards how an answer undoes progress")
    args = parser.parse_args()
    if args.disruption:
        measure_disruption(args.disruption, args.depth)
        return
    game = astrarium.get_game("constellations")
    wins, mine, theirs = 0, [], []
    started = time.perf_counter()
    for g in range(args.first_seed, args.first_seed + args.games):
        me = g % 2
        state = game.new_game(2, g, {})
        players = {me: Lookahead(args.depth, args.gamma, args.replies), 1 - me: make_agent("random", seed=g * 1000 + 1 - me)}
        while not state.is_over:
            state.apply(players[state.current_player].choose(state))
        wins += state.scores[me] > state.scores[1 - me]
        mine.append(state.scores[me])
        theirs.append(state.scores[1 - me])
    low, high = wilson_interval(wins, args.games)
    print(
        f"lookahead depth {args.depth}, gamma {args.gamma}{', replies' if args.replies else ''} against random, seeds {args.first_seed}.."
        f"{args.first_seed + args.games - 1}: won {wins}/{args.games} = {wins / args.games:.0%} ({low:.0%}-{high:.0%}); "
        f"mean score {statistics.mean(mine):.1f} against {statistics.mean(theirs):.1f}; "
        f"{time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
