"""Why an action is not legal in Constellations: the rule that forbids it, in a player's words (``parts.explain``)."""

from __future__ import annotations

from typing import Any

from astrarium.core.errors import short
from astrarium.games.constellations.actions import End, Pass, Play, Rotate, Swap
from astrarium.games.constellations.board import EMPTY, OBJECTS, STAR_RANGES, cell_name
from astrarium.games.constellations.cards import Card, shown
from astrarium.games.constellations.state import ROTATE, ConstellationsState


def explain(state: ConstellationsState, action: Any) -> str:
    """Why ``action`` is not legal here; never fails, even on an action built with fields of the wrong type."""
    hand = state.hands[state.turn]
    said = short(str(action), 60)
    kind = type(action)
    if kind is Rotate:
        row, col = action.row, action.col
        if type(row) is not int or type(col) is not int:
            return f"{said}: a cell is given by a whole row and column number, not {type(row).__name__} and {type(col).__name__}"
        if not (0 <= row < state.height and 0 <= col < state.width):
            last = cell_name(state.height - 1, state.width - 1)
            place = f"row {shown(row + 1)}, column {shown(col + 1)}"
            return f"{said}: {place} is off the {state.height}x{state.width} board (cells a1 to {last})"
        where = cell_name(row, col)
        if state.phase != ROTATE:
            return f"{said}: you have already rotated this turn; play a card or 'end'"
        obj = state.board[row * state.width + col]
        if obj not in STAR_RANGES:
            what = "an empty cell" if obj == EMPTY else f"a {OBJECTS[obj][0]}"
            return f"{said}: {where} holds {what}; only stars (Y, R, N, B) start a rotation"
        return f"{said}: every cell within the {OBJECTS[obj][0]}'s range at {where} is empty; that is no rotation"
    if kind is Play or kind is Swap:
        card = action.card
        if type(card) is not Card or not card.is_well_formed():
            return f"{said}: that is no card; a card is colours (b g y r w k) and points, like 'ryw/3'"
        shown_hand = " ".join(map(str, hand)) or "empty"
        if kind is Swap:
            if not state.options["swap"]:
                return f"{said}: swapping cards is a variant that is off in this game (option swap)"
            if state.phase != ROTATE:
                return f"{said}: a swap replaces the rotation, and you have already rotated this turn"
            return f"{said}: that card is not in your hand (hand: {shown_hand})"
        if state.phase == ROTATE:
            return f"{said}: a turn starts with a rotation; rotate first"
        if card not in hand:
            return f"{said}: that card is not in your hand (hand: {shown_hand})"
        return f"{said}: the constellation {card.colours} is not found from any habitable planet"
    if kind is Pass:
        if state.phase != ROTATE:
            return "pass: you have already rotated; play a card or 'end'"
        return "pass: a star can still rotate; a turn must start with a rotation"
    if kind is End:
        return "end: a turn starts with a rotation; rotate first"
    return f"{said} is not a legal action now"
