"""The heuristic value of a position for computer players (documented in rules.md, "Evaluation").

Besides health, material and cards in hand, it values where a player stands in
its phase cycle: a board that can strike is worth more the closer its owner is
to the Damage phase, a card in hand is worth more when the current phase lets
it be played, and a phase whose start does something (the Dusk's burn, the
Waning's healing) is worth what it will do next turn. Without that term an
Advance Phase card only cost a card, so a one-step player never advanced and
never reached its Damage phase.

:func:`material`, :func:`striking_power`, :func:`cycle` and their helpers are
the definition, term by term. :func:`evaluate`, which a search calls at the end
of every rollout, computes the same figures from :class:`Tables`: what the terms
read of the cards and phases, turned into numbers once per game's rules, and one
pass over the board for both seats. It adds the same numbers in the same order,
so its value is the definition's to the last bit (``tests/games/celestials``
checks it on random positions).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Effect, Kind, PhaseKind, Target
from astrarium.games.celestials.state import CelestialsState, Rules

if TYPE_CHECKING:
    from astrarium.games.celestials.cards import Deck, Phase

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


def defined_evaluate(state: CelestialsState, seat: int) -> float:
    """The evaluation as defined, term by term (:func:`evaluate` is the same value, computed from :class:`Tables`)."""
    if state.outcome is not None:
        return state.returns()[seat]
    other = 1 - seat
    score = HEALTH_WEIGHT * (state.hp[seat] - state.hp[other])
    score += material(state, seat) - material(state, other)
    score += HAND_WEIGHT * (len(state.hands[seat]) - len(state.hands[other]))
    score += cycle(state, seat, own=True) - cycle(state, other, own=False)
    return math.tanh(score / SCALE) * 0.99


class Tables:
    """What the evaluation reads of one game's cards and phases, as numbers, indexed by catalog card, seat and phase."""

    def __init__(self, rules: Rules) -> None:
        catalog = rules.catalog
        self.rules: Rules = rules  # kept so that the cache below never answers for another object at the same address
        self.owner: tuple[int, ...] = rules.owner
        self.worth: tuple[float, ...] = tuple(1.5 * card.damage for card in catalog)
        self.creature: tuple[bool, ...] = tuple(card.kind is Kind.CREATURE for card in catalog)
        self.strike: tuple[int, ...] = tuple(card.damage if card.on_activate is None else max(1, card.damage) for card in catalog)
        self.advance: tuple[tuple[float, ...], ...] = tuple(_advance_worth(seat) for seat in (0, 1))
        decks = rules.decks
        self.decay: tuple[tuple[float, ...], ...] = tuple(
            tuple(STRIKE_DECAY ** phases_to_damage(deck, phase) for phase in range(len(deck.phases))) for deck in decks
        )
        self.playable: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
            tuple(
                tuple(card.kind is not Kind.ADVANCE and (card.phases is None or phase in card.phases) for card in catalog)
                for phase in range(len(deck.phases))
            )
            for deck in decks
        )
        self.start: tuple[tuple[tuple[tuple[bool, int], ...], ...], ...] = tuple(
            tuple(_start_steps(phase) for phase in deck.phases) for deck in decks
        )

    def board(self, state: CelestialsState) -> tuple[list[float], list[int]]:
        """Both seats' :func:`material` and :func:`striking_power`, in one pass over the board."""
        owner, worth, creature, strike = self.owner, self.worth, self.creature, self.strike
        sun_advance, moon_advance = self.advance[0], self.advance[1]
        cell_hp = state.cell_hp
        # Each seat's sums in locals (native numbers once compiled, where list items are boxed objects): the same
        # additions in the same order as one list entry per seat.
        sun, moon = 0.0, 0.0
        sun_power, moon_power = 0, 0
        for at, c in enumerate(state.cell_card):
            if c >= 0:
                if owner[c] == 0:
                    sun += CARD_WEIGHT * (cell_hp[at] + worth[c])
                    if creature[c]:
                        sun += sun_advance[at]
                    sun_power += strike[c]
                else:
                    moon += CARD_WEIGHT * (cell_hp[at] + worth[c])
                    if creature[c]:
                        moon += moon_advance[at]
                    moon_power += strike[c]
        return [sun, moon], [sun_power, moon_power]

    def cycle(self, state: CelestialsState, seat: int, power: int, own: bool) -> float:
        """:func:`cycle`, given ``seat``'s striking power."""
        phase = state.phase[seat]
        value = STRIKE_WEIGHT * power * self.decay[seat][phase]
        if own:
            playable = self.playable[seat][phase]
            for c in state.hands[seat]:
                if playable[c]:
                    value += PLAYABLE_WEIGHT
        room = state.rules.health - state.hp[seat]
        start = 0.0
        for heal, amount in self.start[seat][phase]:
            start += min(amount, room) if heal else amount
        return value + START_WEIGHT * start


def _advance_worth(seat: int) -> tuple[float, ...]:
    """What a creature of ``seat`` on each location adds for the steps it has come (the last term of :func:`material`)."""
    target = B.DEFENCE_POS[1 - seat]
    span = abs(target - B.DEFENCE_POS[seat])
    return tuple(ADVANCE_WEIGHT * max(0, span - abs(at % B.WIDTH - target)) for at in range(B.SIZE))


def _start_steps(phase: Phase) -> tuple[tuple[bool, int], ...]:
    """The steps of a phase's start that :func:`start_value` counts, as (heals the owner, amount), in order."""
    out: list[tuple[bool, int]] = []
    for step in phase.start:
        if step.target is Target.OWN_PLAYER and step.effect is Effect.HEAL:
            out.append((True, step.amount))
        elif step.target is Target.ENEMY_PLAYER and step.effect is Effect.DAMAGE:
            out.append((False, step.amount))
    return tuple(out)


#: Tables already made, by the identity of their rules (rules are made once per pair of decks and options, then shared).
_TABLES: dict[int, Tables] = {}
_TABLES_KEPT = 16


def tables(rules: Rules) -> Tables:
    """The evaluation's tables for ``rules`` (made once, then shared by every position of those rules)."""
    found = _TABLES.get(id(rules))
    if found is not None and found.rules is rules:
        return found
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    made = _TABLES[id(rules)] = Tables(rules)
    return made


def evaluate(state: CelestialsState, seat: int) -> float:
    """The position's value for ``seat`` in [-1, 1]: :func:`defined_evaluate`, computed from :class:`Tables`."""
    if state.outcome is not None:
        return state.returns()[seat]
    t = tables(state.rules)
    other = 1 - seat
    hp = state.hp
    totals, power = t.board(state)
    score = HEALTH_WEIGHT * (hp[seat] - hp[other])
    score += totals[seat] - totals[other]
    score += HAND_WEIGHT * (len(state.hands[seat]) - len(state.hands[other]))
    score += t.cycle(state, seat, power[seat], True) - t.cycle(state, other, power[other], False)
    return math.tanh(score / SCALE) * 0.99
