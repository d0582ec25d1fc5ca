"""The heuristic value of a position for computer players (documented in rules.md, "Evaluation").

Besides health, material and cards in hand, it values where a player stands in
its phase cycle: a board that can strike is worth more the closer its owner is
to the Damage phase, a card in hand is worth more when the current phase lets
it be played, and a phase whose start does something (the Dusk's burn, the
Waning's healing) is worth what it will do next turn. Without that term an
Advance Phase card only cost a card, so a one-step player never advanced and
never reached its Damage phase.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Effect, Kind, PhaseKind, Target
from astrarium.games.celestials.state import CelestialsState

if TYPE_CHECKING:
    from astrarium.games.celestials.cards import Deck

HEALTH_WEIGHT = 1.0  # per point of player health difference
CARD_WEIGHT = 0.35  # per point of (health + 1.5 x Damage) of a card on the board
ADVANCE_WEIGHT = 0.3  # per step a creature has come towards the opponent's defence position
HAND_WEIGHT = 0.5  # per card in hand
PLAYABLE_WEIGHT = 0.25  # more per card in hand that the current phase lets the player play
STRIKE_WEIGHT = 0.5  # per point of striking power on the board while in a Damage phase
STRIKE_DECAY = 0.5  # the striking power counts this much less per phase still to go before the Damage phase
START_WEIGHT = 0.5  # per point of health the current phase's start will heal or burn next turn
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


def striking_power(state: CelestialsState, seat: int) -> int:
    """The Damage of ``seat``'s cards that can be activated (its shots count as 1 each at least)."""
    catalog, owner = state.rules.catalog, state.rules.owner
    total = 0
    for c in state.cell_card:
        if c < 0 or owner[c] != seat:
            continue
        card = catalog[c]
        if card.on_activate is not None:
            total += max(1, card.damage)
        else:
            total += card.damage
    return total


def phases_to_damage(deck: Deck, phase: int) -> int:
    """How many phase steps ``phase`` is from the next Damage phase of ``deck`` (0: it is one)."""
    n = len(deck.phases)
    for steps in range(n):
        if deck.phases[(phase + steps) % n].kind is PhaseKind.DAMAGE:
            return steps
    return n  # a deck always has a Damage phase (cards.py checks it)


def start_value(state: CelestialsState, seat: int) -> float:
    """What the start of ``seat``'s current phase will do for it next turn, in points of health."""
    deck = state.rules.decks[seat]
    room = state.options["health"] - state.hp[seat]
    value = 0.0
    for step in deck.phases[state.phase[seat]].start:
        if step.target is Target.OWN_PLAYER and step.effect is Effect.HEAL:
            value += min(step.amount, room)
        elif step.target is Target.ENEMY_PLAYER and step.effect is Effect.DAMAGE:
            value += step.amount
    return value


def cycle(state: CelestialsState, seat: int, *, own: bool) -> float:
    """What ``seat``'s place in its phase cycle is worth: striking power near Damage, playable cards, the phase's start.

    ``own``: the seat is the one evaluating, so its hand may be read; of the
    opponent's hand nothing but its size is public, so it counts no playable cards.
    """
    deck = state.rules.decks[seat]
    phase = state.phase[seat]
    value = STRIKE_WEIGHT * striking_power(state, seat) * STRIKE_DECAY ** phases_to_damage(deck, phase)
    if own:
        catalog = state.rules.catalog
        for c in state.hands[seat]:
            card = catalog[c]
            if card.kind is not Kind.ADVANCE and (card.phases is None or phase in card.phases):
                value += PLAYABLE_WEIGHT
    return value + START_WEIGHT * start_value(state, seat)


def evaluate(state: CelestialsState, seat: int) -> float:
    if state.outcome is not None:
        return state.returns()[seat]
    other = 1 - seat
    score = HEALTH_WEIGHT * (state.hp[seat] - state.hp[other])
    score += material(state, seat) - material(state, other)
    score += HAND_WEIGHT * (len(state.hands[seat]) - len(state.hands[other]))
    score += cycle(state, seat, own=True) - cycle(state, other, own=False)
    return math.tanh(score / SCALE) * 0.99
