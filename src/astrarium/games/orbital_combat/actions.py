"""One turn's power allocation as a value, and its notation.

Notation (tokens separated by spaces, canonical order shown)::

    [rot] coast|burn <pro|retro> <soft|hard|extreme> [scoop] w<N> d<N> [@<seat>]

``rot`` spends 1 energy on the rotational thrusters (flip facing); ``coast``
or ``burn`` is the engine order; ``scoop`` spends 5 energy on the fuel scoop;
``wN`` and ``dN`` put N energy into weapons and defense; ``@S`` names the seat
fired at (only written when more than one opponent is left). Examples:
``burn retro hard w5 d3``, ``rot burn pro extreme w2 d4``, ``coast scoop w3 d2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from astrarium.core.errors import IllegalAction

ENERGY = 10
"""Energy per turn (seed: Player Resources)."""
MAX_MASS = 24
"""Reaction mass capacity (seed: Player Resources)."""
ROTATION_COST = 1
SCOOP_COST = 5


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

    def __str__(self) -> str:
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
    """
    tokens = text.strip().lower().replace(",", " ").split()
    if not tokens:
        raise IllegalAction("an empty action: write e.g. 'coast w5 d5' or 'burn retro hard w5 d3'")
    rotate = scoop = False
    burn: Intensity | None = None
    direction: Facing | None = None
    weapons: int | None = None
    defense: int | None = None
    target: int | None = None
    engines_given = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("rot", "rotate"):
            rotate = True
        elif token == "coast":
            if engines_given:
                raise IllegalAction(f"{text.strip()!r}: one engine order a turn (coast or one burn; seed: One Burn Per Turn)")
            engines_given = True
        elif token == "burn":
            if engines_given and burn is None:
                raise IllegalAction(f"{text.strip()!r}: one engine order a turn (coast or one burn; seed: One Burn Per Turn)")
            if engines_given:
                raise IllegalAction(f"{text.strip()!r}: only one burn can be allocated per turn (seed: One Burn Per Turn)")
            engines_given = True
            facing = _FACING_WORDS.get(tokens[i + 1]) if i + 1 < len(tokens) else None
            level = _INTENSITY_WORDS.get(tokens[i + 2]) if i + 2 < len(tokens) else None
            if facing is None or level is None:
                raise IllegalAction(f"{text.strip()!r}: write a burn as 'burn pro|retro soft|hard|extreme'")
            direction, burn = facing, level
            i += 2
        elif token == "scoop":
            scoop = True
        elif token[0] in "wd" and token[1:].isdigit():
            value = int(token[1:])
            if token[0] == "w":
                if weapons is not None:
                    raise IllegalAction(f"{text.strip()!r}: weapons given twice")
                weapons = value
            else:
                if defense is not None:
                    raise IllegalAction(f"{text.strip()!r}: defense given twice")
                defense = value
        elif token[0] == "@" and token[1:].isdigit():
            target = int(token[1:])
        else:
            raise IllegalAction(
                f"{text.strip()!r}: cannot read {token!r}; write e.g. 'coast w5 d5', 'burn retro hard w5 d3', "
                "'rot burn pro soft scoop ...' with w<weapons> d<defense> and @<seat> for a target"
            )
        i += 1
    if not engines_given:
        raise IllegalAction(f"{text.strip()!r}: say 'coast' or 'burn <pro|retro> <soft|hard|extreme>'")
    weapons = weapons or 0
    if defense is None:
        spent = (ROTATION_COST if rotate else 0) + (int(burn) if burn else 0) + (SCOOP_COST if scoop else 0) + weapons
        defense = max(0, ENERGY - spent)
    return Allocation(rotate, burn, direction, scoop, weapons, defense, target)
