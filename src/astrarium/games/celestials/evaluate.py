"""The heuristic value of a position for computer players (documented in rules.md, "Evaluation")."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind

if TYPE_CHECKING:
    from astrarium.games.celestials.state import CelestialsState

HEALTH_WEIGHT = 1.0  # per point of player health difference
CARD_WEIGHT = 0.35  # per point of (health + 1.5 x Damage) of a card on the board
ADVANCE_WEIGHT = 0.3  # per step a creature has come towards the opponent's defence position
HAND_WEIGHT = 0.5  # per card in hand
SCALE = 12.0  # tanh scale: a 12-point lead is worth about 0.76


def material(state: CelestialsState, seat: int) -> float:
    """What ``seat``'s cards on the board are worth."""
    catalog, owner = state.rules.catalog, state.rules.owner
    target = B.DEFENCE_POS[1 - seat]
    span = abs(target - B.DEFENCE_POS[seat])
    total = 0.0
    for at, c in enumerate(state.cell_card):
        if c < 0 or owner[c] != seat:
            continue
        card = catalog[c]
        total += CARD_WEIGHT * (state.cell_hp[at] + 1.5 * card.damage)
        if card.kind is Kind.CREATURE:
            total += ADVANCE_WEIGHT * max(0, span - abs(at % B.WIDTH - target))
    return total


def evaluate(state: CelestialsState, seat: int) -> float:
    if state.outcome is not None:
        return state.returns()[seat]
    other = 1 - seat
    score = HEALTH_WEIGHT * (state.hp[seat] - state.hp[other])
    score += material(state, seat) - material(state, other)
    score += HAND_WEIGHT * (len(state.hands[seat]) - len(state.hands[other]))
    return math.tanh(score / SCALE) * 0.99
