"""What each Constellations object, card and word on the screen means, in a player's words.

Every front end shows these texts: the terminal's ``card ryw/3`` and ``info THING``, the web table.
"""

from __future__ import annotations

from typing import Any

from astrarium.games.constellations.board import OBJECTS as BOARD_OBJECTS
from astrarium.games.constellations.cards import COLOUR_NAMES, Card, CardError, load_deck_file, shipped_deck

#: The objects of the board, by their letter and their name.
OBJECTS = {
    "P": ("planet", "a habitable planet (blue, b): constellations are read from it along its four lines. Not a star."),
    "G": ("gas giant", "green (g). Not a star: it moves only when a star's rings turn it."),
    "Y": ("yellow dwarf", "a star, yellow (y), range 3: 'rot' around it turns its rings 1 to 3 one step clockwise."),
    "R": ("red giant", "a star, red (r), range 4: 'rot' around it turns its rings 1 to 4 one step clockwise."),
    "N": ("neutron star", "a star, white (w), range 5: 'rot' around it turns its rings 1 to 5 one step clockwise."),
    "B": ("black hole", "a star, black (k), infinite range: 'rot' around it turns every ring that reaches the board."),
    "C": ("comet", "matches any colour while next to (within the 8 cells around) a yellow dwarf or red giant; otherwise none."),
}


#: The object that shows each colour of a card on the board, by the colour's letter.
_SHOWN_BY = {colour: f"{name} {letter}" for letter, (name, colour) in BOARD_OBJECTS.items() if letter != "C"}


def card_text(card: Card, state: Any = None) -> str:
    """What a constellation card asks for, what it is worth and how it is found (how often now, with a position)."""
    colours = ", ".join(f"{COLOUR_NAMES[c]} ({_SHOWN_BY[c]})" for c in card.colours)
    text = (
        f"a constellation card: {colours}, in this order in a row on a straight line running up, right, "
        f"down or left from a planet P, empty cells skipped (a comet C next to a Y or R matches any colour). "
        f"Worth {_points(card.score(1))} found once, {_points(card.score(2))} found twice, {_points(card.score(3))} "
        f"three times (each find is worth one point more). 'play {card}' scores it in your turn once it is found."
    )
    found = getattr(state, "found", None)
    if callable(found):
        times = int(found(card))
        often = {0: "", 1: "once", 2: "twice"}.get(times, f"{times} times")
        text += f" Found {often} on this board now: {_points(card.score(times))}." if times else " Not found on this board now."
    return text


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _deck(state: Any) -> tuple[Card, ...]:
    """Every card of the game's deck (the ``deck`` or ``deck_file`` option, else the shipped deck); never the order."""
    options = getattr(state, "options", None) or {}
    try:
        if options.get("deck") is not None:
            return tuple(Card.parse(text) for text in options["deck"])
        if options.get("deck_file"):
            return load_deck_file(options["deck_file"])
    except (CardError, ValueError):
        pass
    return shipped_deck()


def cards(state: Any = None) -> dict[str, str]:
    """Every card of the deck by its notation (``gk/1``): its colours in order, its points, how it is found."""
    hands = getattr(state, "hands", None) or []
    every = {*_deck(state), *(c for hand in hands for c in hand if isinstance(c, Card))}
    return {str(card): card_text(card, state) for card in sorted(every, key=lambda c: (len(c.colours), c.colours, c.points))}


def things(state: Any = None) -> dict[str, str]:
    """The objects (by letter and by name) and the words of the screen."""
    out: dict[str, str] = {}
    for letter, (name, text) in OBJECTS.items():
        out[name] = f"{letter} on the board: {text}"
        out[letter] = f"the {name}: {text}"
    out.update(
        {
            "card": "a constellation card such as ryw/3: red, yellow, white in a row, read outward from a planet, worth 3 "
            "points, more when it is found several times ('play ryw/3' scores it).",
            "found": "a card is found once in every line from a planet (up, right, down, left) where its colours appear in a "
            "row, empty cells skipped; a card of v points found n times scores v + (v+1) + ... + (v+n-1).",
            "rotation": "'rot c4' turns every ring around the star at c4 one step clockwise; the star stays put.",
            "ring": "the cells at the same distance from a star (ring 1: the 8 cells around it).",
            "end": "keep the playable cards in your hand for later and end the turn; the hand is refilled.",
            "pass": "only when no star can move anything: the turn goes on without a rotation.",
            "round": "every player's turn once; after 12 rounds (or when the deck and the hands run out) the most points win.",
        }
    )
    return out
