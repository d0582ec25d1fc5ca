"""An experiment on Constellations: how far ahead must a player look to beat random play 9 times in 10?

The *lookahead* player chooses its rotation by searching its own rotations only
(breadth first, ``--depth`` rotations after the one it makes, the opponent
ignored) and scoring each board by what its hand would score on the nearest
board that shows each card, discounted by ``--gamma`` per rotation; then it plays
every card found. It never sees the other hand or the deck. It is the shipped
``constellations-lookahead`` player (docs/agents.md), the yardstick of the search players.

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
from astrarium.agents.scripted_constellations import LookaheadPlayer
from astrarium.core.stats import wilson_interval
from astrarium.games.constellations.actions import END, PASS, Play
from astrarium.games.constellations.board import found_count
from astrarium.games.constellations.cards import Card, shipped_deck

Board = tuple[str, ...]


class Lookahead(LookaheadPlayer):
    """The shipped ``constellations-lookahead`` player, with this experiment's extras.

    ``replies`` averages each rotation over the opponent's answering rotations;
    ``distance`` counts the rotations to the nearest board that shows a card.
    """

    def __init__(self, depth: int, gamma: float, replies: bool = False) -> None:
        super().__init__(0, depth=depth, gamma=gamma)
        self.replies = replies

    def attach(self, state: Any) -> None:
        """Read the board's shape and the line rule of ``state`` (the memos hold for one shape)."""
        if state.geo is not self._geo:
            self._geo = state.geo
            self._lines.clear()
            self._next.clear()
        self._planet_in_line = bool(state.options["planet_in_line"])

    def choose(self, state: Any) -> Any:
        if not self.replies:
            return super().choose(state)
        legal = state.legal_actions()
        if state.phase == "play":
            plays = [a for a in legal if isinstance(a, Play)]
            return plays[0] if plays else END
        if legal == [PASS]:
            return PASS
        self.attach(state)
        hand = state.hands[state.current_player]
        best, best_value = legal[0], -1.0
        for action in legal:
            after = state.clone()
            after.apply(action)
            value = self.answered(after.board, hand)
            if value > best_value:
                best, best_value = action, value
        return best

    def answered(self, board: Board, hand: Iterable[Card]) -> float:
        """Points the hand makes on ``board`` now, plus the mean look-ahead after each opponent rotation."""
        lines = self.lines(board)
        now, rest = 0, []
        for card in hand:
            found = found_count(lines, card.colours)
            if found:
                now += card.score(found)
            else:
                rest.append(card)
        answers = self.successors(board) or (board,)
        return now + sum(self.outlook(b, rest) for b in answers) / len(answers)

    def distance(self, board: Board, card: Card, limit: int) -> int:
        """Rotations (of any star) to the nearest board showing ``card``; ``limit + 1`` if none within ``limit``."""
        frontier, seen = [board], {board}
        for d in range(limit + 1):
            if any(found_count(self.lines(b), card.colours) for b in frontier):
                return d
            frontier = self.ring(frontier, seen)
        return limit + 1


def measure_disruption(boards: int, limit: int) -> None:
    """How much of one rotation's progress towards a hard card survives the opponent's answer."""
    game = astrarium.get_game("constellations")
    hard = [card for card in shipped_deck() if card.points >= 7]
    pick = random.Random(1)
    before, ours, answered, near, answers = [], [], [], 0, 0
    for seed in range(1000, 1000 + boards):
        state = game.new_game(2, seed, {})
        probe = Lookahead(limit, 0.5)
        probe.attach(state)
        card = pick.choice(hard)
        d = probe.distance(state.board, card, limit)
        if not 2 <= d <= limit:
            continue
        step = min(probe.successors(state.board), key=lambda b: probe.distance(b, card, limit))
        after = [probe.distance(b, card, limit) for b in probe.successors(step)]
        before.append(d)
        ours.append(probe.distance(step, card, limit))
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
