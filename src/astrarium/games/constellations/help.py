"""What each Constellations object, card and word on the screen means, in a player's words.

Every front end shows these texts: the terminal's ``info THING``, the web table.
"""

from __future__ import annotations

from typing import Any

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
