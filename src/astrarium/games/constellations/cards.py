"""Constellation cards: a colour sequence and a point value, written ``ryw/3``.

The shipped deck is a data table (``deck.toml``) made once by the simulation in
:mod:`astrarium.games.constellations.deckgen`; a designer's own deck file in the
same format can be loaded with :func:`load_deck_file`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file
from astrarium.core.errors import DataError

CARD_COLOURS = "bgyrwk"
COLOUR_NAMES = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "w": "white", "k": "black"}
MIN_LENGTH, MAX_LENGTH = 1, 5
_CARD = re.compile(r"^([a-z]+)/(\d+)$")


class CardError(ValueError):
    """A card notation that cannot be read."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A constellation card: the colours to find in a line, and the points per constellation found."""

    colours: str
    points: int

    def __str__(self) -> str:
        return f"{self.colours}/{self.points}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``ryw/3``; raises CardError saying what is wrong."""
        if not isinstance(text, str):
            raise CardError(f"a card is text like 'ryw/3', not {text!r}")
        return _parse_card(text.strip().lower())

    def score(self, found: int) -> int:
        """Points for playing this card when its constellation is found ``found`` times.

        Each constellation found is worth one more point than the one before:
        v + (v+1) + ... + (v+found-1).
        """
        return found * self.points + found * (found - 1) // 2


@lru_cache(maxsize=1024)
def _parse_card(text: str) -> Card:
    m = _CARD.match(text)
    if not m:
        raise CardError(f"{text!r} is not a card: write its colours (b g y r w k) then /points, like 'ryw/3'")
    colours, points = m.group(1), int(m.group(2))
    bad = sorted(set(colours) - set(CARD_COLOURS))
    if bad:
        raise CardError(f"{text!r}: unknown colour letter(s) {', '.join(bad)} (use b g y r w k)")
    if not MIN_LENGTH <= len(colours) <= MAX_LENGTH:
        raise CardError(f"{text!r}: a constellation has {MIN_LENGTH} to {MAX_LENGTH} colours, not {len(colours)}")
    if points < 1:
        raise CardError(f"{text!r}: a card is worth at least 1 point")
    return Card(colours, points)


def check_card_list(value: list[Any]) -> str | None:
    """Option check for a list of card notations (None when fine)."""
    for k, text in enumerate(value):
        try:
            Card.parse(text)
        except CardError as exc:
            return f"entry {k + 1}: {exc}"
    return None


_DECK_FIELDS = frozenset({"colours", "points", "copies", "found_rate"})


def _deck_from(label: str, data: Any) -> tuple[Card, ...]:
    if not isinstance(data, dict):
        raise DataError(label, "file", "expected a table with a [[card]] list")
    no_unknown_fields(data, {"card", "about"}, file=label, entry="file")
    entries = field(data, "card", list, file=label, entry="file")
    if not entries:
        raise DataError(label, "card", "the deck has no cards")
    cards: list[Card] = []
    for k, entry in enumerate(entries):
        name = f"card {k + 1}"
        no_unknown_fields(entry, _DECK_FIELDS, file=label, entry=name)
        colours = field(entry, "colours", str, file=label, entry=name)
        points = field(entry, "points", int, file=label, entry=name)
        copies = field(entry, "copies", int, file=label, entry=name, default=1)
        field(entry, "found_rate", (int, float), file=label, entry=name, default=0.0)
        if copies < 1:
            raise DataError(label, f"{name} ({colours})", f"copies must be at least 1, got {copies}")
        try:
            card = Card.parse(f"{colours}/{points}")
        except CardError as exc:
            raise DataError(label, f"{name} ({colours})", str(exc)) from exc
        cards += [card] * copies
    return tuple(cards)


@lru_cache(maxsize=1)
def shipped_deck() -> tuple[Card, ...]:
    """The deck shipped with the game (deck.toml), in table order."""
    label, data = read_data(__package__, "deck.toml")
    return _deck_from(label, data)


def load_deck_file(path: str | Path) -> tuple[Card, ...]:
    """A designer's own deck file (same format as deck.toml); errors name the file and the card."""
    label, data = read_data_file(path)
    return _deck_from(label, data)
