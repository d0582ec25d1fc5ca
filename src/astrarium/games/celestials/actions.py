"""Celestials actions: frozen values whose ``str()`` is the notation ``parse_action`` reads back."""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.core import IllegalAction
from astrarium.games.celestials.board import NAMES, parse_location

FACE = -2  # the target of a direct attack on the opponent (not a location, and not EMPTY)


@dataclass(frozen=True, slots=True)
class Draw:
    """Turn step 1: draw a card."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class NoDraw:
    """Turn step 1, skipped."""

    def __str__(self) -> str:
        return "nodraw"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from the hand: a creature or structure onto ``at``, a spell at its chosen target (or none)."""

    card: str
    at: int | None = None

    def __str__(self) -> str:
        return f"play {self.card}" if self.at is None else f"play {self.card} {NAMES[self.at]}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate the card on ``at`` (Damage phase); ``target`` is a location, FACE, or None."""

    at: int
    target: int | None = None

    def __str__(self) -> str:
        if self.target is None:
            return f"activate {NAMES[self.at]}"
        return f"activate {NAMES[self.at]} {'face' if self.target == FACE else NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class Move:
    """Manoeuvre the creature on ``src`` to the empty ``dst``."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"move {NAMES[self.src]} {NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class Advance:
    """Turn step 3: play an Advance Phase card (ends the acting part of the turn)."""

    def __str__(self) -> str:
        return "advance"


@dataclass(frozen=True, slots=True)
class End:
    """End the acting part of the turn without advancing."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Discard:
    """Turn step 4: discard ``card`` from the hand, then draw a card."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Turn step 4, skipped: the turn passes."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """A player's answer when both draw piles have run out."""

    yes: bool

    def __str__(self) -> str:
        return f"reshuffle {'yes' if self.yes else 'no'}"


Action = Draw | NoDraw | Play | Activate | Move | Advance | End | Discard | Keep | Reshuffle

_WORDS = {"draw": Draw(), "nodraw": NoDraw(), "advance": Advance(), "end": End(), "keep": Keep()}
NOTATION = (
    "draw | nodraw | play CARD [LOC] | activate LOC [LOC|face] | move LOC LOC | advance | end | "
    "discard CARD | keep | reshuffle yes|no   (LOC: lane A-D + position 0-5, e.g. B1)"
)


def _location(text: str, whole: str) -> int:
    at = parse_location(text)
    if at is None:
        raise IllegalAction(f"{whole!r}: {text!r} is not a location (lane A-D and position 0-5, e.g. B1)")
    return at


def parse(text: str) -> Action:
    """The action written as ``text``; unreadable text raises IllegalAction saying what was expected."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction(f"{text!r} is not an action: {NOTATION}")
    head, rest = words[0], words[1:]
    if head in _WORDS and not rest:
        return _WORDS[head]
    if head == "play" and 1 <= len(rest) <= 2:
        return Play(rest[0], _location(rest[1], text) if len(rest) == 2 else None)
    if head == "activate" and 1 <= len(rest) <= 2:
        at = _location(rest[0], text)
        if len(rest) == 1:
            return Activate(at)
        return Activate(at, FACE if rest[1] == "face" else _location(rest[1], text))
    if head == "move" and len(rest) == 2:
        return Move(_location(rest[0], text), _location(rest[1], text))
    if head == "discard" and len(rest) == 1:
        return Discard(rest[0])
    if head == "reshuffle" and len(rest) == 1 and rest[0] in ("yes", "no"):
        return Reshuffle(rest[0] == "yes")
    raise IllegalAction(f"{text!r} is not an action: {NOTATION}")
