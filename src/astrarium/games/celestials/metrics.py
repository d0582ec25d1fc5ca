"""Celestials' own measurements of a finished game (the lab's ``metric_<name>`` columns).

Read from the final position: ``health_<seat>`` (each side's health at the end; seat 0
the Sun, seat 1 the Moon), ``turns`` (the turns played by both sides together),
``knockout`` (1: a side's health ran out, 0: the turn limit's tie-break decided).

Counted by replaying the game's actions from its start, the balance targets of
docs/balance/celestials.md game by game:

- ``advances``: Advance Phase cards played, both sides together;
- ``entered_<side>_<phase>``: 1 when the side entered the phase (its first phase counts
  as entered), else 0; the mean over games is the share of games it was entered in;
- ``used_<side>_<card>``: 1 when the card was played (an Advance Phase card: an
  ``advance``) or activated in a game where it was in its side's hand at some point, 0
  when it was drawn and never used, and none (left out of the mean) when it was never
  drawn; the mean is the share of the games it was drawn in that it was used in.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astrarium.core.game import State
from astrarium.games.celestials import actions as A

if TYPE_CHECKING:
    from astrarium.games.celestials.state import CelestialsState

#: The reason a game ended at the turn limit begins with these words (the game's outcome).
TURN_LIMIT_REASON = "turn limit"


def slug(name: str) -> str:
    """A name as a column's word: ``Full Moon`` -> ``full_moon``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _note(state: CelestialsState, drawn: list[set[str]], entered: list[set[str]]) -> None:
    catalog = state.rules.catalog
    for seat in (0, 1):
        drawn[seat].update(catalog[c].key for c in state.hands[seat])
        entered[seat].add(state.phase_name(seat))


def _used_key(state: CelestialsState, action: object) -> str | None:
    """The key of the card an action plays or activates (``advance`` for an Advance Phase card), else None."""
    if isinstance(action, A.Play):
        return action.card
    if isinstance(action, A.Advance):
        return "advance"
    if isinstance(action, A.Activate):
        card = state.card_at(action.at)
        return None if card is None else card.key
    return None


def replayed_usage(final: CelestialsState) -> tuple[list[set[str]], list[set[str]], list[set[str]], int]:
    """Per seat: the card keys drawn, the card keys used, the phases entered; and the advances, over the whole game."""
    state: CelestialsState = final.game.new_game(final.players, final.seed, final.options)  # type: ignore[assignment]
    drawn: list[set[str]] = [set(), set()]
    used: list[set[str]] = [set(), set()]
    entered: list[set[str]] = [set(), set()]
    advances = 0
    for action in final.actions:
        _note(state, drawn, entered)
        seat = state.current_player
        key = _used_key(state, action)
        if key is not None and seat is not None:
            used[seat].add(key)
            advances += key == "advance"
        state.apply_unchecked(action)
    _note(state, drawn, entered)
    return drawn, used, entered, advances


def final_metrics(state: State) -> dict[str, float | None]:
    """Health, turns and how the game ended from the final position; advances, phases entered and cards used by replay."""
    final: CelestialsState = state  # type: ignore[assignment]
    view = final.full_view()
    found: dict[str, float | None] = {f"health_{seat}": float(side["health"]) for seat, side in enumerate(view["players"])}
    found["turns"] = float(view["turns_done"])
    outcome = final.outcome
    found["knockout"] = None if outcome is None else float(not outcome.reason.startswith(TURN_LIMIT_REASON))
    drawn, used, entered, advances = replayed_usage(final)
    found["advances"] = float(advances)
    for seat, deck in enumerate(final.rules.decks):
        side = slug(deck.character)
        for phase in deck.phases:
            found[f"entered_{side}_{slug(phase.name)}"] = float(phase.name in entered[seat])
        for card in deck.cards:
            found[f"used_{side}_{slug(card.key)}"] = float(card.key in used[seat]) if card.key in drawn[seat] else None
    return found
