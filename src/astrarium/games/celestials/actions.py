"""Celestials actions: frozen values whose ``str()`` is the notation ``parse_action`` reads back.

Anyone may build an action object, with any field values (``Play("phoenix", 1.0)``,
``Move(99, True)``); the engine refuses those (only exact legal actions are
applied), but their ``str()`` and ``repr()`` still run on the refusal path, in
the reason given. So both are written to work for every field value: a field
that is not what the rules use is shown as its ``repr``, never looked up.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TypeGuard

from astrarium.core import IllegalAction
from astrarium.core.errors import short
from astrarium.games.celestials.board import NAMES, SIZE, parse_location

FACE = -2  # the target of a direct attack on the opponent (not a location, and not EMPTY)


def is_location(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a location index exactly (an int, not a bool, float or IntEnum, on the board)."""
    return type(value) is int and 0 <= value < SIZE


def show(value: object) -> str:
    """``repr(value)``, cut short, and safe for every value an action may be built with.

    Python refuses to write integers of more than 4,300 digits (``ValueError``),
    so those are described by their size instead.
    """
    if isinstance(value, int) and value.bit_length() > 64:
        return f"<{type(value).__name__} of {value.bit_length()} bits>"
    try:
        return short(repr(value), 40)
    except ValueError:  # a container holding such an integer
        return f"<{type(value).__name__}>"


def where(value: object) -> str:
    """A location's notation (``B1``); anything else as :func:`show` writes it."""
    return NAMES[value] if is_location(value) else show(value)


def card_word(value: object) -> str:
    """A card key as written in the notation; anything that is not text as :func:`show` writes it."""
    return short(value, 40) if isinstance(value, str) else show(value)


class _SafeRepr:
    """A ``repr`` like the dataclass one (type and every field's repr), that works for any field value."""

    __slots__ = ()

    def __repr__(self) -> str:
        parts = ", ".join(f"{f.name}={show(getattr(self, f.name))}" for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({parts})"


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


@dataclass(frozen=True, slots=True, repr=False)
class Play(_SafeRepr):
    """Play a card from the hand: a creature or structure onto ``at``, a spell at its chosen target (or none)."""

    card: str
    at: int | None = None

    def __str__(self) -> str:
        return f"play {card_word(self.card)}" if self.at is None else f"play {card_word(self.card)} {where(self.at)}"


@dataclass(frozen=True, slots=True, repr=False)
class Activate(_SafeRepr):
    """Activate the card on ``at`` (Damage phase); ``target`` is a location, FACE, or None."""

    at: int
    target: int | None = None

    def __str__(self) -> str:
        if self.target is None:
            return f"activate {where(self.at)}"
        target = "face" if type(self.target) is int and self.target == FACE else where(self.target)
        return f"activate {where(self.at)} {target}"


@dataclass(frozen=True, slots=True, repr=False)
class Move(_SafeRepr):
    """Manoeuvre the creature on ``src`` to the empty ``dst``."""

    src: int
    dst: int

    def __str__(self) -> str:
        return f"move {where(self.src)} {where(self.dst)}"


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


@dataclass(frozen=True, slots=True, repr=False)
class Discard(_SafeRepr):
    """Turn step 4: discard ``card`` from the hand, then draw a card."""

    card: str

    def __str__(self) -> str:
        return f"discard {card_word(self.card)}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Turn step 4, skipped: the turn passes."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True, repr=False)
class Reshuffle(_SafeRepr):
    """A player's answer when both draw piles have run out."""

    yes: bool

    def __str__(self) -> str:
        if type(self.yes) is not bool:
            return f"reshuffle {show(self.yes)}"
        return f"reshuffle {'yes' if self.yes else 'no'}"


Action = Draw | NoDraw | Play | Activate | Move | Advance | End | Discard | Keep | Reshuffle

# The actions the rules offer, made once and shared by every legal list: building a frozen
# dataclass costs more than the rest of a legal-action list, and searches ask for millions.
DRAW, NO_DRAW, ADVANCE, END, KEEP = Draw(), NoDraw(), Advance(), End(), Keep()
RESHUFFLE = (Reshuffle(True), Reshuffle(False))
#: ``MOVES[src][dst]``: every manoeuvre between two locations.
MOVES: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(src, dst) for dst in range(SIZE)) for src in range(SIZE))
#: ``ACTIVATIONS[at][target - FACE]``: an activation at a location or the opponent's face; ``ACTIVATE_ALONE[at]``: no target.
ACTIVATIONS: tuple[tuple[Activate, ...], ...] = tuple(tuple(Activate(at, t) for t in range(FACE, SIZE)) for at in range(SIZE))
ACTIVATE_ALONE: tuple[Activate, ...] = tuple(Activate(at) for at in range(SIZE))

_WORDS: dict[str, Action] = {"draw": DRAW, "nodraw": NO_DRAW, "advance": ADVANCE, "end": END, "keep": KEEP}
NOTATION = (
    "draw | nodraw | play CARD [LOC] | activate LOC [LOC|face] | move LOC LOC | advance | end | "
    "discard CARD | keep | reshuffle yes|no   (LOC: lane A-D + position 0-5, e.g. B1)"
)


def _location(text: str, whole: str) -> int:
    at = parse_location(text)
    if at is None:
        raise IllegalAction(f"{short(whole.strip())!r}: {short(text, 20)!r} is not a location (lane A-D and position 0-5, e.g. B1)")
    return at


def parse(text: str) -> Action:
    """The action written as ``text``; unreadable text raises IllegalAction saying what was expected."""
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction(f"{short(text)!r} is not an action: {NOTATION}")
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
    raise IllegalAction(f"{short(text.strip())!r} is not an action: {NOTATION}")
