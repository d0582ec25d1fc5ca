"""The balance targets of docs/balance/orbital-combat.md, "Balance", at reduced game counts (slow: run in CI).

The full measurements are arena runs of 200 games (commands and figures in
docs/balance/orbital-combat.md, "Balance"); these play the first games of the same runs, seats
rotated and seeded as the arena rotates and seeds them, and hold each headline
to a stated tolerance (a little below its target, since 20 or 40 games vary
more than 200; the games are seeded, so a failure means the rules or the
players changed):

- a searching player beats every fixed policy, ``orbital-runner`` (which keeps
  out of range) included: ``mcts`` at the measured level wins at least 17 of
  the first 20 games against each (target: the policy avoids losing in at most
  10% of 200);
- duels are decided by play: at least 70% of the first 40 ``greedy`` mirrors
  and of the first 20 ``mcts`` mirrors end with one ship left, neither at the
  round limit nor with both ships destroyed together (target 80% over 200);
- no seat is favoured: the first seat's score (a win 1, a draw 1/2) is 30-70%
  in the 20 ``mcts`` mirrors (target 45-55% over 200; at 20 games the 95%
  interval alone is about 22 points wide). Not in the ``greedy`` mirrors: two
  greedy ships wear each other down at the same pace and the kill falls in the
  same round of every game, so the seat with the initiative in that round wins
  (docs/balance/orbital-combat.md, "Decisive duels").

Together they take about 50 s of processor time, the search mirrors about 20 s of it.
"""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import State
from helpers import play_rotated

GAME = astrarium.get_game("orbital-combat")
MCTS = "mcts:iterations=300,depth=0"
FIXED = ["orbital-turtle", "orbital-gunner", "orbital-scooper", "orbital-guard", "orbital-runner"]

pytestmark = pytest.mark.slow


def play(line_up: list[str], seed: int) -> State:
    """Game ``seed`` as the arena plays it (``helpers.play_rotated``)."""
    return play_rotated(GAME.id, line_up, seed)


def entry_return(state: State, entry: int, seed: int) -> float:
    return state.returns()[(entry + seed) % 2]


def decided_by_play(state: State) -> bool:
    """One ship left: not at the round limit, and not the last ships destroyed together."""
    return state.outcome is not None and "round limit" not in state.outcome.reason and len(state.outcome.winners) == 1


def first_seat_score(games: list[State]) -> float:
    return sum((state.returns()[0] + 1) / 2 for state in games) / len(games)


@pytest.mark.parametrize("policy", FIXED)
def test_balance_mcts_beats_every_fixed_policy(policy: str) -> None:
    wins = sum(entry_return(play([MCTS, policy], seed), 0, seed) > 0 for seed in range(20))
    assert wins >= 17, f"mcts won {wins} of 20 against {policy}"


def test_balance_greedy_mirror_is_decided_by_play() -> None:
    games = [play(["greedy", "greedy"], seed) for seed in range(40)]
    decided = sum(decided_by_play(state) for state in games)
    assert decided >= 28, f"{decided} of 40 greedy mirrors were decided by play"


def test_balance_mcts_mirror_is_decided_by_play_and_favours_no_seat() -> None:
    games = [play([MCTS, MCTS], seed) for seed in range(20)]
    decided = sum(decided_by_play(state) for state in games)
    assert decided >= 14, f"{decided} of 20 mcts mirrors were decided by play"
    score = first_seat_score(games)
    assert 0.3 <= score <= 0.7, f"the first seat scored {score:.0%}"
