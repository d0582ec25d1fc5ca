"""Constellation cards: a colour sequence and a point value, written ``ryw/3``.

The shipped deck is a data table (``deck.toml``) made once by the simulation in
``scripts/constellations_deckgen.py``; a designer's own deck file in the
same format can be loaded with :func:`load_deck_file`. The file's shape is
declared once, as the schema :class:`DeckFile`, with a bound on every count, so
a bad or oversized file is refused when it is loaded, naming the file and the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from astrarium.core.data import DataModel, check_path, parse_data, read_data, read_text_file, validate
from astrarium.core.errors import short

CARD_COLOURS = "bgyrwk"
COLOUR_NAMES = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "w": "white", "k": "black"}
MIN_LENGTH, MAX_LENGTH = 1, 5
#: The most points one card may be worth (the shipped deck goes up to 12).
MAX_POINTS = 99
#: Limits of a deck file: copies of one entry, entries, and cards in all (the shipped deck has 40 cards).
MAX_COPIES = 20
MAX_DECK_ENTRIES = 200
MAX_DECK_CARDS = 400
#: Only ASCII letters and digits are read, so a digit such as '²' or '٣' never reaches int().
_CARD = re.compile(r"([a-z]+)/([0-9]+)")


class CardError(ValueError):
    """A card notation that cannot be read."""


def shown(value: object, limit: int = 40) -> str:
    """A field of an action or card as text for a message, even when it is of the wrong type or huge.

    ``repr`` keeps the type visible (``1.0``, ``True``, an IntEnum's ``<Kind.A: 1>``), which the
    exact legality check relies on; an int too long for ``repr`` is described instead of converted.
    """
    if isinstance(value, int) and value.bit_length() > 64:
        return f"<{type(value).__name__} of {value.bit_length()} bits>"
    try:
        return short(repr(value), limit)
    except Exception:  # a crafted value whose repr fails is still named
        return f"<{type(value).__name__}>"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A constellation card: the colours to find in a line, and the points per constellation found."""

    colours: str
    points: int

    def __str__(self) -> str:
        colours, points = self.colours, self.points
        if type(colours) is str and type(points) is int and points.bit_length() <= 64:
            return f"{colours}/{points}"
        return f"{shown(colours)}/{shown(points)}"

    def __repr__(self) -> str:
        if self.is_well_formed():
            return f"Card({str(self)!r})"
        return f"Card(colours={shown(self.colours)}, points={shown(self.points)})"

    def is_well_formed(self) -> bool:
        """Whether the fields are of the right types and ranges (a card built in code may not be)."""
        colours, points = self.colours, self.points
        return type(colours) is str and type(points) is int and colour_problem(colours) is None and 1 <= points <= MAX_POINTS

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``ryw/3``; raises CardError saying what is wrong."""
        if not isinstance(text, str):
            raise CardError(f"a card is text like 'ryw/3', not {shown(text)}")
        if not text.isascii():
            raise CardError(f"{short(text.strip())!r} is not a card: use the letters b g y r w k and the digits 0-9, like 'ryw/3'")
        return _parse_card(text.strip().lower())

    def score(self, found: int) -> int:
        """Points for playing this card when its constellation is found ``found`` times.

        Each constellation found is worth one more point than the one before:
        v + (v+1) + ... + (v+found-1).
        """
        return found * self.points + found * (found - 1) // 2


def colour_problem(colours: str) -> str | None:
    """What is wrong with a card's colour letters, or None."""
    bad = sorted(set(colours) - set(CARD_COLOURS))
    if bad:
        return f"unknown colour letter(s) {short(', '.join(bad), 30)} (use b g y r w k)"
    if not MIN_LENGTH <= len(colours) <= MAX_LENGTH:
        return f"a constellation has {MIN_LENGTH} to {MAX_LENGTH} colours, not {len(colours)}"
    return None


@lru_cache(maxsize=1024)
def _parse_card(text: str) -> Card:
    m = _CARD.fullmatch(text)
    if not m:
        raise CardError(f"{short(text)!r} is not a card: write its colours (b g y r w k) then /points, like 'ryw/3'")
    colours, digits = m.groups()
    problem = colour_problem(colours)
    if problem:
        raise CardError(f"{short(text)!r}: {problem}")
    # The digit count is checked before int(), so a thousand-digit number is never converted.
    if len(digits) > len(str(MAX_POINTS)) or not 1 <= int(digits) <= MAX_POINTS:
        raise CardError(f"{short(text)!r}: a card is worth 1 to {MAX_POINTS} points")
    return Card(colours, int(digits))


def check_card_list(value: list[Any]) -> str | None:
    """Option check for a list of card notations (None when fine)."""
    for k, text in enumerate(value):
        try:
            Card.parse(text)
        except CardError as exc:
            return f"entry {k + 1}: {exc}"
    return None


# -- deck files ------------------------------------------------------------------


class CardEntry(DataModel):
    """One ``[[card]]`` entry: a card and how many copies of it the deck holds."""

    colours: Annotated[str, Field(max_length=MAX_LENGTH * 4)]
    points: Annotated[int, Field(ge=1, le=MAX_POINTS)]
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1
    #: The share of random boards on which scripts/constellations_deckgen.py could make the card (documentation only).
    found_rate: Annotated[float, Field(ge=0, le=1)] = 0.0

    @field_validator("colours")
    @classmethod
    def _colours(cls, colours: str) -> str:
        problem = colour_problem(colours)
        if problem:
            raise ValueError(problem)
        return colours


class DeckFile(DataModel):
    """A deck file (``deck.toml``): an ``about`` line and the ``[[card]]`` list."""

    about: Annotated[str, Field(max_length=1000)] = ""
    card: Annotated[list[CardEntry], Field(min_length=1, max_length=MAX_DECK_ENTRIES)]

    @model_validator(mode="after")
    def _size(self) -> DeckFile:
        total = sum(entry.copies for entry in self.card)
        if total > MAX_DECK_CARDS:
            raise ValueError(f"the deck has {total} cards with its copies; at most {MAX_DECK_CARDS} are allowed")
        return self


def _deck_from(label: str, data: Any) -> tuple[Card, ...]:
    deck = validate(DeckFile, data, file=label)
    return tuple(Card(entry.colours, entry.points) for entry in deck.card for _ in range(entry.copies))


@lru_cache(maxsize=1)
def shipped_deck() -> tuple[Card, ...]:
    """The deck shipped with the game (deck.toml), in table order."""
    label, data = read_data(__package__, "deck.toml")
    return _deck_from(label, data)


def load_deck_file(path: str | Path) -> tuple[Card, ...]:
    """A designer's own deck file (same format as deck.toml); errors name the file and the card.

    The file is read every time (bounded by ``read_text_file``), and only the
    parsing is cached, keyed on the file's text: an edited file is read afresh,
    while the option check and the game setup share one parse.
    """
    label, text = read_text_file(path)
    return _deck_from_text(label, text, check_path(path).suffix)


@lru_cache(maxsize=8)
def _deck_from_text(label: str, text: str, suffix: str) -> tuple[Card, ...]:
    return _deck_from(label, parse_data(text, label, suffix))
