"""The judgement the computer players read (``State.evaluate``): progress of the rescue against the danger.

Declared as the game's ``parts.evaluate``; rules.md, "How the computer players
judge a position", says the same in words.
"""

from __future__ import annotations

from astrarium.games.streamlines.board import SIZE
from astrarium.games.streamlines.cards import REFUGEE
from astrarium.games.streamlines.movement import moves_to
from astrarium.games.streamlines.state import BLACK_HOLE, COLLAPSING, StreamlinesState


def evaluate(state: StreamlinesState, seat: int) -> float:
    """Refugees rescued and aboard, the ships' way to their next errand, against the planets' danger and ships lost."""
    if state.is_over:
        return state.returns()[seat]
    aboard = sum(c.count(REFUGEE) for s, c in enumerate(state.cargo) if state.pos[s] >= 0)
    progress = min(1.0, (state.rescued + 0.5 * aboard) / state.required)
    danger = sum(state.stage) / (3 * len(state.stage))
    ships = sum(p >= 0 for p in state.pos) / state.players
    value = 0.8 * progress + 0.15 * _travel(state) - 0.6 * danger - 0.3 * (1 - ships)
    return max(-0.95, min(0.95, value))


def _travel(state: StreamlinesState) -> float:
    """How close the ships are to their next errand, 0..1: an escape with refugees aboard, else a planet.

    Counted in moves on the board as it is (streamlines followed, black holes avoided), so a
    search sees a lane that carries a ship home, and one that would carry it the wrong way; the
    planet is the nearest one not collapsing (any live one when every planet is collapsing).
    """
    alive = [sq for i, sq in enumerate(state.scenario.planets) if state.stage[i] != BLACK_HOLE]
    planets = [sq for i, sq in enumerate(state.scenario.planets) if state.stage[i] < COLLAPSING] or alive
    to_escape = moves_to(state, state.scenario.escapes)
    to_planet = moves_to(state, planets) if planets else None
    far_limit = 2 * (SIZE - 1)
    total = 0.0
    for seat, sq in enumerate(state.pos):
        if sq < 0:
            continue
        far = to_escape if REFUGEE in state.cargo[seat] else to_planet
        if far is not None:
            total += 1.0 - min(far[sq], far_limit) / far_limit
    return total / state.players
