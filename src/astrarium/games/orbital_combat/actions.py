"""One turn's power allocation as a value, and its notation.

Notation (tokens separated by spaces, canonical order shown)::

    [rot] coast|burn <pro|retro> <soft|hard|extreme> [scoop] w<N> d<N> [@<seat>]

``rot`` spends 1 energy on the rotational thrusters (flip facing); ``coast``
or ``burn`` is the engine order; ``scoop`` spends 5 energy on the fuel scoop;
``wN`` and ``dN`` put N energy into weapons and defense; ``@S`` names the seat
fired at (only written when more than one opponent is left). Examples:
``burn retro hard w5 d3``, ``rot burn pro extreme w2 d4``, ``coast scoop w3 d2``.
Each part is written at most once: a repeated token is refused, never merged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from astrarium.core.errors import IllegalAction, short

ENERGY = 10
"""Energy per turn (seed: Player Resources)."""
MAX_MASS = 24
"""Reaction mass capacity (seed: Player Resources)."""
ROTATION_COST = 1
SCOOP_COST = 5
MAX_DIGITS = 3
"""The longest number a notation may hold (``w999``): energy is 10 a turn and seats go up to 3."""
MAX_NUMBER = 10**MAX_DIGITS - 1
"""The largest weapons, defense or target number an allocation may hold, written or built."""
READING_EXAMPLES = "'coast w5 d5', 'burn retro hard w5 d3', 'rot coast scoop w2 d2'"
"""The allocations an unreadable notation is answered with: each spends exactly 10 energy and breaks no rule of
its own (a scoop never with a burn), so a player who copies one is refused only for where the ship is."""


class Facing(IntEnum):
    """Which way a ship points; a burn goes the way it faces."""

    PROGRADE = 0
    RETROGRADE = 1

    @property
    def word(self) -> str:
        return "pro" if self is Facing.PROGRADE else "retro"

    @property
    def flipped(self) -> Facing:
        return Facing.RETROGRADE if self is Facing.PROGRADE else Facing.PROGRADE


class Intensity(IntEnum):
    """Burn intensity: energy = reaction mass = rings crossed."""

    SOFT = 1
    HARD = 2
    EXTREME = 3

    @property
    def word(self) -> str:
        return self.name.lower()


_FACING_WORDS = {
    "pro": Facing.PROGRADE,
    "prograde": Facing.PROGRADE,
    "out": Facing.PROGRADE,
    "retro": Facing.RETROGRADE,
    "retrograde": Facing.RETROGRADE,
    "in": Facing.RETROGRADE,
}
_INTENSITY_WORDS = {
    "soft": Intensity.SOFT,
    "standard": Intensity.SOFT,
    "1": Intensity.SOFT,
    "hard": Intensity.HARD,
    "2": Intensity.HARD,
    "extreme": Intensity.EXTREME,
    "3": Intensity.EXTREME,
}
# A number token: its letter and ASCII digits only (str.isdigit() would let '²' through to int()).
_NUMBER_TOKEN = re.compile(r"([wd@])([0-9]+)", re.ASCII)
_NUMBER_PARTS = {"w": "weapons", "d": "defense", "@": "target"}


def safe_repr(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for any value at all.

    A crafted field can be an int too long for ``repr`` (Python refuses to
    print ints over 4,300 digits) or an object whose ``repr`` fails; the
    message about it must still be written.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**18:
        return f"<{type(value).__name__} of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return short(text, limit)


_PLAIN = frozenset({bool, int, type(None), Intensity, Facing})
"""Field types whose ``repr`` is short and safe (ints only while small)."""


@dataclass(frozen=True, slots=True)
class Allocation:
    """The whole allocation of one turn: rotation, engines, scoop, weapons, defense, target.

    ``burn`` is None for a coast; ``direction`` is the burn's direction
    (prograde = outward, retrograde = inward) and None for a coast. ``target``
    is the seat fired at, or None when weapons are 0 or only one opponent is left.
    """

    rotate: bool = False
    burn: Intensity | None = None
    direction: Facing | None = None
    scoop: bool = False
    weapons: int = 0
    defense: int = 0
    target: int | None = None

    @property
    def maneuver_energy(self) -> int:
        """Energy spent on rotation, engines and scoop (the seed's cost matrix "Energy")."""
        return (ROTATION_COST if self.rotate else 0) + (int(self.burn) if self.burn else 0) + (SCOOP_COST if self.scoop else 0)

    @property
    def energy(self) -> int:
        """All the energy this allocation spends."""
        return self.maneuver_energy + self.weapons + self.defense

    @property
    def mass(self) -> int:
        """Reaction mass the burn spends."""
        return int(self.burn) if self.burn else 0

    def malformed(self) -> str | None:
        """What makes this value no allocation at all (a field of the wrong type or out of range), or None.

        Values built from a notation or taken from ``legal_actions()`` are never
        malformed; one built by hand may hold anything, and the code that
        explains why it is refused must not trip over it.
        """
        for name in ("rotate", "scoop"):
            value = getattr(self, name)
            if type(value) is not bool:
                return f"{name} must be True or False, not {safe_repr(value)}"
        if self.burn is not None and type(self.burn) is not Intensity:
            return f"burn must be None (a coast) or an Intensity (soft, hard, extreme), not {safe_repr(self.burn)}"
        if self.direction is not None and type(self.direction) is not Facing:
            return f"direction must be None (a coast) or a Facing (pro, retro), not {safe_repr(self.direction)}"
        for name in ("weapons", "defense", "target"):
            value = getattr(self, name)
            if value is None and name == "target":
                continue
            if type(value) is not int or not 0 <= value <= MAX_NUMBER:
                return f"{name} must be a whole number from 0 to {MAX_NUMBER}, not {safe_repr(value)}"
        return None

    def __repr__(self) -> str:
        # Spells out every field's type (core matches actions on repr) and never fails on a crafted field.
        shown = (
            repr(v) if type(v) in _PLAIN and (type(v) is not int or -MAX_NUMBER <= v <= MAX_NUMBER) else safe_repr(v)
            for v in self._fields()
        )
        return "Allocation(rotate={}, burn={}, direction={}, scoop={}, weapons={}, defense={}, target={})".format(*shown)

    def _fields(self) -> tuple[Any, ...]:
        return (self.rotate, self.burn, self.direction, self.scoop, self.weapons, self.defense, self.target)

    def __str__(self) -> str:
        if self.malformed() is not None:
            return repr(self)  # no notation names it; say exactly what it holds
        parts = ["rot"] if self.rotate else []
        if self.burn is None:
            parts.append("coast")
        else:
            direction = self.direction if self.direction is not None else Facing.PROGRADE
            parts += ["burn", direction.word, self.burn.word]
        if self.scoop:
            parts.append("scoop")
        parts += [f"w{self.weapons}", f"d{self.defense}"]
        if self.target is not None:
            parts.append(f"@{self.target}")
        return " ".join(parts)


def parse_allocation(text: str) -> Allocation:
    """Read an allocation's notation. Readable but illegal allocations parse; unreadable text raises IllegalAction.

    ``dN`` may be left out: it then takes whatever energy the rest leaves (never below 0).
    Every part may be given once: a second ``rot``, ``scoop``, engine order,
    ``wN``, ``dN`` or ``@S`` is refused rather than silently merged or overriding the first.
    """
    tokens = text.strip().lower().replace(",", " ").split()
    if not tokens:
        raise IllegalAction("an empty action: write e.g. 'coast w5 d5' or 'burn retro hard w5 d3'")
    reading = _Reading(repr(short(text.strip())), tokens)
    i = 0
    while i < len(tokens):
        read = _WORDS.get(tokens[i], _read_number)
        i = read(reading, i) + 1
    return reading.allocation()


@dataclass
class _Reading:
    """An allocation read so far, token by token (``shown``: the text as an error message quotes it)."""

    shown: str
    tokens: list[str]
    rotate: bool = False
    scoop: bool = False
    burn: Intensity | None = None
    direction: Facing | None = None
    engines_given: bool = False
    numbers: dict[str, int] = field(default_factory=dict)

    def allocation(self) -> Allocation:
        """The allocation read; the defense, when not given, takes the energy the rest leaves."""
        if not self.engines_given:
            raise IllegalAction(f"{self.shown}: say 'coast' or 'burn <pro|retro> <soft|hard|extreme>'")
        numbers = self.numbers
        weapons = numbers.get("weapons", 0)
        defense = numbers.get("defense")
        if defense is None:
            burn = self.burn
            spent = (ROTATION_COST if self.rotate else 0) + (int(burn) if burn else 0) + (SCOOP_COST if self.scoop else 0) + weapons
            defense = max(0, ENERGY - spent)
        return Allocation(self.rotate, self.burn, self.direction, self.scoop, weapons, defense, numbers.get("target"))


# Each reader takes the allocation read so far and the index of its token, and returns the index of the last token it read.


def _read_rotate(reading: _Reading, i: int) -> int:
    return _switch_on(reading, i, "rotate", "'rot' given twice; the thrusters flip the ship once a turn (1 energy)")


def _read_coast(reading: _Reading, i: int) -> int:
    if reading.engines_given:
        raise IllegalAction(f"{reading.shown}: one engine order a turn (coast or one burn)")
    reading.engines_given = True
    return i


def _read_burn(reading: _Reading, i: int) -> int:
    shown, tokens = reading.shown, reading.tokens
    if reading.engines_given and reading.burn is None:
        raise IllegalAction(f"{shown}: one engine order a turn (coast or one burn)")
    if reading.engines_given:
        raise IllegalAction(f"{shown}: only one burn can be allocated per turn")
    reading.engines_given = True
    facing = _FACING_WORDS.get(tokens[i + 1]) if i + 1 < len(tokens) else None
    level = _INTENSITY_WORDS.get(tokens[i + 2]) if i + 2 < len(tokens) else None
    if facing is None or level is None:
        raise IllegalAction(f"{shown}: write a burn as 'burn pro|retro soft|hard|extreme'")
    reading.direction, reading.burn = facing, level
    return i + 2


def _read_scoop(reading: _Reading, i: int) -> int:
    return _switch_on(reading, i, "scoop", "'scoop' given twice; the fuel scoop is switched on once a turn (5 energy)")


def _switch_on(reading: _Reading, i: int, system: str, twice: str) -> int:
    """Switch on the ``system`` (``rotate`` or ``scoop``), which a turn allows once: a second time is refused (``twice``)."""
    if getattr(reading, system):
        raise IllegalAction(f"{reading.shown}: {twice}")
    setattr(reading, system, True)
    return i


def _read_number(reading: _Reading, i: int) -> int:
    """``wN``, ``dN`` or ``@S``, each once and of bounded length; any other token is unreadable."""
    shown, token, numbers = reading.shown, reading.tokens[i], reading.numbers
    number = _NUMBER_TOKEN.fullmatch(token)
    if number is None:
        raise IllegalAction(_unreadable(shown, token))
    letter, digits = number.groups()
    part = _NUMBER_PARTS[letter]
    if part in numbers:
        raise IllegalAction(f"{shown}: {part} given twice ({letter}{numbers[part]} and {short(token, 12)}); write each once")
    if len(digits) > MAX_DIGITS:
        raise IllegalAction(f"{shown}: {short(token, 12)} is too large; {part} is at most {MAX_NUMBER}")
    numbers[part] = int(digits)
    return i


def _unreadable(shown: str, token: str) -> str:
    """Why ``token`` cannot be read: a number part not written in the digits 0-9, or a word the notation lacks."""
    if token[0] in _NUMBER_PARTS and any(ch.isnumeric() for ch in token[1:]):
        part = _NUMBER_PARTS[token[0]]
        return f"{shown}: cannot read {short(token, 20)!r}; write the {part} number with the digits 0-9, e.g. {token[0]}5"
    return f"{shown}: cannot read {short(token, 20)!r}; write e.g. {READING_EXAMPLES}, with w<weapons> d<defense> and @<seat> for a target"


#: The readers of the notation's words; any other token is a number part or unreadable.
_WORDS: dict[str, Callable[[_Reading, int], int]] = {
    "rot": _read_rotate,
    "rotate": _read_rotate,
    "coast": _read_coast,
    "burn": _read_burn,
    "scoop": _read_scoop,
}
