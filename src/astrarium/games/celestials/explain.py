"""Why an action is not legal: the rule that forbids it, in a player's words.

The action may be anything a caller built, so its fields are checked first
(:func:`malformed`): only actions whose fields have the types the rules use
reach the rule-by-rule reasons, which may then look them up safely.
"""

from __future__ import annotations

from typing import Any

from astrarium.core.errors import short
from astrarium.games.celestials import actions as A
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind
from astrarium.games.celestials.state import DISCARD, DRAW, EMPTY, MAIN, CelestialsState

_ACTIONS = (A.Draw, A.NoDraw, A.Play, A.Activate, A.Move, A.Advance, A.End, A.Discard, A.Keep, A.Reshuffle)
_LOCATION = "a location (lane A-D and position 0-5, written like B1)"


def explain(state: CelestialsState, action: Any) -> str:
    if type(action) not in _ACTIONS:
        return f"{A.show(action)} is not a Celestials action: {A.NOTATION}"
    return f"{short(str(action))}: {malformed(action) or _reason(state, action)}"


def malformed(action: Any) -> str | None:
    """What is wrong with the action's fields themselves, whatever the position (None: nothing)."""
    if isinstance(action, A.Play):
        if not isinstance(action.card, str):
            return f"the card is named by its key (text), not {A.show(action.card)}"
        if action.at is not None and not A.is_location(action.at):
            return f"the place to play on is {_LOCATION}, not {A.show(action.at)}"
    elif isinstance(action, A.Discard) and not isinstance(action.card, str):
        return f"the card is named by its key (text), not {A.show(action.card)}"
    elif isinstance(action, A.Activate):
        if not A.is_location(action.at):
            return f"the card to activate stands on {_LOCATION}, not {A.show(action.at)}"
        target = action.target
        if target is not None and not A.is_location(target) and not (type(target) is int and target == A.FACE):
            return f"the target is {_LOCATION} or the opponent ('face'), not {A.show(target)}"
    elif isinstance(action, A.Move):
        for name, value in (("from", action.src), ("to", action.dst)):
            if not A.is_location(value):
                return f"a manoeuvre goes from and to {_LOCATION}; {name!r} is {A.show(value)}"
    elif isinstance(action, A.Reshuffle) and type(action.yes) is not bool:
        return f"the answer is yes or no (True or False), not {A.show(action.yes)}"
    return None


def _reason(s: CelestialsState, action: Any) -> str:
    if s.votes:
        who = s.rules.decks[s.votes[0]].character
        if isinstance(action, A.Reshuffle):
            return "not legal now"
        return f"both draw piles have run out: {who} must first answer 'reshuffle yes' or 'reshuffle no'"
    seat = s.turn
    me = s.rules.decks[seat].character
    step = s.step
    if isinstance(action, A.Reshuffle):
        return "the reshuffle question is asked only right after the last card of both draw piles is drawn"
    if isinstance(action, (A.Draw, A.NoDraw)):
        if step != DRAW:
            return "drawing is the first step of a turn, and that step is over"
        return "not legal now"
    if isinstance(action, (A.Discard, A.Keep)):
        if step != DISCARD:
            return "discard-and-draw is the last step of a turn: first 'advance' or 'end' the turn's plays"
        if isinstance(action, A.Discard) and _hand_index(s, seat, action.card) is None:
            return f"{me} holds no card {A.card_word(action.card)!r}"
        return "not legal now"
    if step != MAIN:
        if step == DRAW:
            return "the turn begins with its draw step: 'draw' or 'nodraw' first"
        return "the plays of this turn are over: 'discard CARD' or 'keep'"
    if isinstance(action, A.Advance):
        return f"{me} holds no Advance Phase card"
    if isinstance(action, A.End):
        return "not legal now"
    if isinstance(action, A.Play):
        return _play_reason(s, seat, action)
    if isinstance(action, A.Activate):
        return _activate_reason(s, seat, action)
    if isinstance(action, A.Move):
        return _move_reason(s, seat, action)
    return "not legal now"


def _hand_index(s: CelestialsState, seat: int, key: str) -> int | None:
    c = s.rules.index[seat].get(key)
    return c if c is not None and c in s.hands[seat] else None


def _play_reason(s: CelestialsState, seat: int, action: A.Play) -> str:
    me = s.rules.decks[seat].character
    c = _hand_index(s, seat, action.card)
    if c is None:
        return f"{me} holds no card {A.card_word(action.card)!r}"
    card = s.rules.catalog[c]
    if card.kind is Kind.ADVANCE:
        return "an Advance Phase card is played with 'advance'"
    if card.phases is not None and s.phase[seat] not in card.phases:
        allowed = ", ".join(s.rules.decks[seat].phases[p].name for p in sorted(card.phases))
        return f"{card.name} may be played only in {allowed}; {me} is in {s.phase_name(seat)}"
    if card.kind is Kind.SPELL:
        chosen = card.chooses
        if chosen is None:
            return f"{card.name} takes no target: write 'play {card.key}'"
        if action.at is None:
            return f"{card.name} needs a target ({chosen.value.replace('_', ' ')})"
        return f"{B.NAMES[action.at]} is not a valid target for {card.name} ({chosen.value.replace('_', ' ')})"
    if action.at is None:
        return f"a {card.kind.value} needs a location"
    if card.kind is Kind.CREATURE and action.at not in B.DEFENCE_CELLS[seat]:
        return f"creatures are summoned on {me}'s defensive position (position {B.DEFENCE_POS[seat]} of a lane)"
    if card.kind is Kind.STRUCTURE and action.at not in B.STRUCTURE_CELLS[seat]:
        return f"structures stand only at the back of a lane (position {B.STRUCTURE_POS[seat]})"
    if s.cell_card[action.at] != EMPTY:
        return f"{B.NAMES[action.at]} is occupied"
    return "not legal now"


def _activate_reason(s: CelestialsState, seat: int, action: A.Activate) -> str:
    me = s.rules.decks[seat].character
    if not s.in_damage_phase(seat):
        return f"cards activate only in the Damage phase; {me} is in {s.phase_name(seat)}"
    card = s.card_at(action.at)
    if card is None or s.owner_at(action.at) != seat:
        return f"{me} has no card on {B.NAMES[action.at]}"
    if s.cell_exh[action.at]:
        return f"{card.name} on {B.NAMES[action.at]} is exhausted"
    if action.target == A.FACE:
        if card.kind is not Kind.CREATURE or card.damage == 0:
            return f"only a creature with Damage attacks the opponent directly; {card.name} cannot"
        return "a direct attack needs the creature on the opponent's defensive position in a lane without an opposing structure"
    if card.on_activate is None:
        if card.damage == 0:
            return f"{card.name} has no Damage and no activation"
        return f"{card.name} attacks only an orthogonally adjacent card"
    return f"that is not a valid target for {card.name}'s activation"


def _move_reason(s: CelestialsState, seat: int, action: A.Move) -> str:
    me = s.rules.decks[seat].character
    card = s.card_at(action.src)
    if card is None or s.owner_at(action.src) != seat:
        return f"{me} has no card on {B.NAMES[action.src]}"
    if card.kind is not Kind.CREATURE:
        return f"only creatures manoeuvre; {card.name} is a {card.kind.value}"
    if s.cell_exh[action.src]:
        return f"{card.name} is exhausted (a creature manoeuvres once a turn)"
    if s.cell_card[action.dst] != EMPTY:
        return f"{B.NAMES[action.dst]} is occupied"
    return "creatures step orthogonally, or, in friendly territory, to another lane at the same position"


__all__ = ["explain"]
