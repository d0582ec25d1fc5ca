"""What each Celestials card, phase and place on the board does, in a player's words.

The card texts are made from the decks themselves (a designer's deck given as
an option is described as it is), so they never disagree with the rules.
Every front end shows them: the terminal's ``card NAME`` and ``info THING``,
the web table.
"""

from __future__ import annotations

from typing import Any

from astrarium.games.celestials.cards import ADVANCE, Card, Deck, Kind, builtin_deck
from astrarium.games.celestials.state import CelestialsState

SIDES = ("Sun", "Moon")


def _decks(state: Any) -> tuple[Deck, Deck]:
    if isinstance(state, CelestialsState):
        return state.rules.decks
    return builtin_deck("sun"), builtin_deck("moon")


def _steps(steps: tuple[Any, ...]) -> str:
    return "; ".join(step.describe() for step in steps)


def card_line(card: Card, deck: Deck, side: str) -> str:
    """One card in words: whose it is, what kind, when it may be played, its numbers, its effects and its purpose."""
    if card.kind is Kind.ADVANCE:
        return "Advance Phase: play it ('advance') to move to your next phase; it ends your plays this turn."
    phases = "any phase" if card.phases is None else ", ".join(deck.phases[i].name for i in sorted(card.phases))
    defence, back = (1, 0) if side == SIDES[0] else (4, 5)
    parts = [f"{card.name}, the {side}'s {card.kind.value}, played in {phases}"]
    if card.kind is Kind.CREATURE:
        parts.append(f"Damage {card.damage}, health {card.health}; summoned on the {side}'s defence position ({defence}) of a lane")
    elif card.kind is Kind.STRUCTURE:
        parts.append(f"Health {card.health}; placed at the back of a lane (position {back}), never moves, blocks direct attacks there")
    if card.on_play:
        parts.append(f"When played: {_steps(card.on_play)}")
    if card.kind is not Kind.SPELL:
        if card.on_activate is not None:
            parts.append(f"Activated (in a Damage phase): {_steps(card.on_activate)}")
        elif card.damage:
            parts.append(f"Activated (in a Damage phase): {card.damage} damage to an orthogonally adjacent card")
    if card.on_turn_start:
        parts.append(f"At the start of each of its owner's turns: {_steps(card.on_turn_start)}")
    text = ". ".join(parts) + "."
    return f"{text} {card.purpose}" if card.purpose else text


def cards(state: Any = None) -> dict[str, str]:
    """Every card of both decks by its key (``solar-lion``), and ``advance``."""
    out: dict[str, str] = {ADVANCE.key: "Advance Phase: move to your next phase; playing it ends your plays this turn."}
    for side, deck in zip(SIDES, _decks(state), strict=True):
        for card in deck.cards:
            if card.kind is not Kind.ADVANCE:
                out[card.key] = card_line(card, deck, side)
    return out


def things(state: Any = None) -> dict[str, str]:
    """The phases of both decks, the places on the board and the words the screen uses."""
    out: dict[str, str] = {}
    for side, deck in zip(SIDES, _decks(state), strict=True):
        for number, phase in enumerate(deck.phases, start=1):
            start = f" At the start of each {side} turn in it: {_steps(phase.start)}." if phase.start else ""
            start += f" When the {side} enters it: {_steps(phase.enter)}." if phase.enter else ""
            damage = " Cards may be activated only in this kind of phase." if phase.kind.value == "damage" else ""
            out[phase.name] = f"the {side}'s phase {number} of {len(deck.phases)}, of kind {phase.kind.value}.{damage}{start}"
    out.update(
        {
            "lane": "one of the four rows A-D; each has six positions 0-5, the Sun's half 0-2 and the Moon's 3-5.",
            "location": "a lane letter and a position digit, such as B1: how cards and targets are named in actions.",
            "structure position": "position 0 (the Sun's) or 5 (the Moon's) of a lane, where structures are placed.",
            "defence position": "position 1 (the Sun's) or 4 (the Moon's) of a lane, where creatures are summoned.",
            "offence position": "position 2 (the Sun's) or 3 (the Moon's) of a lane: the front of each half, where the two halves meet.",
            "exhausted": "a card marked z: it cannot activate or manoeuvre until the end of its owner's turn.",
            "face": "'activate LOC face': a creature on the opponent's defence position attacks the opponent directly, "
            "when the opponent has no structure in that lane.",
            "health": "a player at 0 health loses; a card at 0 health goes to the graveyard.",
            "turn limit": "after each player's 30th turn the player with more health wins (then more health on the board).",
            "draw": "step 1 of a turn: 'draw' takes a card, 'nodraw' does not (offered only with room in the hand).",
            "discard": "step 4 of a turn: 'discard CARD' swaps a card of your hand for a new one; 'keep' skips it.",
        }
    )
    return out
