"""The judgement the computer players read (``State.evaluate``): score and the hand's promise against the rivals.

Declared as the game's ``parts.evaluate``; rules.md, "How the computer players
judge a position", says the same in words.
"""

from __future__ import annotations

import math

from astrarium.games.constellations.board import found_count
from astrarium.games.constellations.state import ConstellationsState


def evaluate(state: ConstellationsState, seat: int) -> float:
    """Score (plus half of what the seat's hand could score on this board) against the rivals; see rules.md."""
    if state.is_over:
        return state.returns()[seat]
    lines = state.lines()
    potential = sum(c.score(found_count(lines, c.colours)) for c in state.hands[seat])
    mine = state.scores[seat] + 0.5 * potential
    if state.players == 1:
        target = state.options["solo_target"]
        return math.tanh((mine - target) / max(10.0, float(target)))
    rival = max(s for k, s in enumerate(state.scores) if k != seat)
    return math.tanh((mine - rival) / 20.0)
