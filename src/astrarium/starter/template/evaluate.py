"""The judgement the computer players read: who wins from here, when two play.

With two players and a limit of ``m`` stars a turn, a pile of ``n`` stars is
worth ``n mod (m + 1)``; the seat to move can force the win exactly when the
exclusive or of these values is not 0 (the theory of Nim). With more players
no seat can force anything alone, and the judgement says 0.
"""

from __future__ import annotations

from functools import reduce
from operator import xor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from astrarium.starter.template.state import PilesState

#: How sure the judgement is: a won position is worth this much (the end of the game is worth 1).
CONFIDENCE = 0.8


def evaluate(state: PilesState, seat: int, /) -> float:
    """A value in [-1, 1] of ``state`` for ``seat``: the result when over, the theory's answer for two players, else 0."""
    if state.is_over:
        return state.returns()[seat]
    if state.players != 2:
        return 0.0
    limit = state.max_take + 1
    mover_wins = reduce(xor, (pile % limit for pile in state.piles), 0) != 0
    return CONFIDENCE if mover_wins == (seat == state.turn) else -CONFIDENCE
