"""What each Streamlines card and square does, in a player's words.

The Event cards' texts come from the designed events table (events.toml), so
they never disagree with it. Every front end shows these texts: the
terminal's ``card NAME`` and ``info THING``, the web table.
"""

from __future__ import annotations

from typing import Any

from astrarium.games.streamlines.events import designed_events

#: The cards of the seed, by the names actions use.
CARDS = {
    "action": "Power card: your ship gets one action each turn for every Action card it holds. Kept by the ship.",
    "cargo": "Power card: one cargo slot in your ship's hold for every Cargo card it holds. Kept by the ship.",
    "pickup": "Power card, used once ('pickup', no action): take the Streamline or Gate card on your ship's square into the hold.",
    "extra-move": "Power card, used once ('extra', no action): one move this turn that costs no action.",
    "engineering": "Power card, used once ('engineer cw' or 'engineer ccw', no action): turn the Streamline card on your "
    "ship's square a quarter turn.",
    "straight": "Streamline card with one arrow: cargo until laid ('lay n', 'lay e', ...) on an empty square; a ship that "
    "enters the square is carried on in the arrow's direction.",
    "line": "Streamline card with two opposite arrows ('lay ew', 'lay ns'): ships entering are carried on either way, "
    "never against an arrow.",
    "corner": "Streamline card with two arrows at a right angle ('lay nw', 'lay ne', ...): ships entering turn the corner.",
    "tee": "Streamline card with three arrows ('lay new', ...): ships entering choose one of the arrows.",
    "refugee": "Cargo: carry it to an Escape square and 'drop' it to rescue it. A dumped Refugee is lost for the game.",
    "collapse": "Event: the first Collapse on a planet is a warning; the second starts the collapse, and after every "
    "player's next turn the planet becomes a black hole.",
    "gate": "Gate cards come in matching pairs (gate-a .. gate-d): cargo until laid ('lay gate-a'); a ship arriving on a "
    "Gate whose partner is laid may jump to it ('move d4-g7=c8') and stops there.",
}


def cards(state: Any = None) -> dict[str, str]:
    """Every kind of card by the name actions use (``refugee``, ``gate-a``), the designed events included."""
    out = dict(CARDS)
    for pair in "abcd":
        out[f"gate-{pair}"] = CARDS["gate"]
    for event in designed_events():
        news = "good news" if event.good else "bad news"
        out[event.effect] = f"Event ({news}), {event.name}: {event.purpose}"
    return out


def things(state: Any = None) -> dict[str, str]:
    """The squares and words of the board."""
    return {
        "planet": "P on the board: a ship here may 'draw' (one action) to load cards. Each turn the Clock draws a card "
        "for every planet; two Collapses turn it into a black hole.",
        "escape": "ESC on the board: a ship here may 'drop' its refugees to rescue them.",
        "black hole": "BH or (BH) on the board: a collapsed planet: a ship that enters it, or stands on it when it forms, "
        "is lost with its cargo.",
        "warned": "a planet with one Collapse on it: the next Collapse starts its collapse.",
        "collapsing": "a planet that becomes a black hole after every player's next turn.",
        "clock": "the start of each turn: one card drawn for every planet; a Collapse acts on that planet, anything else is discarded.",
        "streamline": "a laid card's arrows: a ship entering the square is carried on along them as far as they go, and "
        "never enters a square against an arrow.",
        "move": "one step up, down, left or right, then the streamlines: written as every square entered, 'move c2-b2-b3'.",
        "hold": "your ship's cargo: one slot for every Cargo card; over-full after a draw, you 'dump' a card.",
        "square": "a1 .. i9: files a-i from the left, ranks 1-9 from the bottom.",
        "ship": "A, B, C or D on the board: one ship for each seat, lettered by seat, ship A (seat 0), ship B (seat 1) and "
        "so on; 'give refugee 1' gives to ship B (seat 1).",
    }
