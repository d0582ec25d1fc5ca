"""The designed Event cards (``events.toml``): their schema, and the deck counts they give.

The seed promises Event cards of "good or bad news (usually bad)" and describes only
Collapse; the other events are the project's design, kept as data so that a designer
can change their numbers without touching the rules. What each one does is in
``state.py`` (``_event``) and rules.md ("Events").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field

from astrarium.core.data import DataModel, read_data, validate
from astrarium.core.errors import DataError

#: The effects the rules know, in card-kind order (``cards.CALM_STAR`` ..).
EFFECTS = ("calm-star", "tailwind", "salvage", "ion-storm")
#: The most cards of one event a deck may hold (the deck stays small, and bad news stays the more common).
MAX_EVENT_CARDS = 6


class EventEntry(DataModel):
    """One ``[[event]]`` table: an Event card, how many go into the deck, and why it is there."""

    effect: Literal["calm-star", "tailwind", "salvage", "ion-storm"]
    name: Annotated[str, Field(min_length=1, max_length=30)]
    news: Literal["good", "bad"]
    cards: Annotated[int, Field(ge=0, le=MAX_EVENT_CARDS)]
    purpose: Annotated[str, Field(min_length=1, max_length=160)]


class EventsFile(DataModel):
    """The schema of ``events.toml``."""

    event: Annotated[list[EventEntry], Field(min_length=1, max_length=len(EFFECTS))]


@dataclass(frozen=True, slots=True)
class EventCard:
    """A designed Event card as the rules use it."""

    effect: str
    name: str
    good: bool
    cards: int
    purpose: str


def parse_events(data: Any, file: str) -> tuple[EventCard, ...]:
    """Check an events table against the schema and that each effect appears once; DataError names file and entry."""
    spec = validate(EventsFile, data, file=file)
    seen: set[str] = set()
    out: list[EventCard] = []
    for i, entry in enumerate(spec.event):
        if entry.effect in seen:
            raise DataError(file, f"event.#{i + 1}.effect", f"{entry.effect!r} is listed twice")
        seen.add(entry.effect)
        out.append(EventCard(entry.effect, entry.name, entry.news == "good", entry.cards, entry.purpose))
    return tuple(out)


@cache
def designed_events() -> tuple[EventCard, ...]:
    """The packaged events (read once per process: the package's files do not change while it runs)."""
    label, data = read_data(__package__, "events.toml")
    return parse_events(data, label)
