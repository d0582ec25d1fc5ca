"""Ship set-ups written as text, for the ``ships`` option and for tests.

One ship is written as space-separated tokens in any order::

    r<ring> s<sector> [pro|retro] [m<mass>] [h<hull>]

``r5 s12 retro m10`` is a ship on ring 5, sector 12 (sectors are numbered from
1, clockwise, as on the board), facing retrograde, with 10 reaction mass.
Facing defaults to prograde, mass and hull to the ``start_mass`` and ``hull``
options.
"""

from __future__ import annotations

from dataclasses import dataclass

from astrarium.games.orbital_combat.actions import MAX_MASS, Facing
from astrarium.games.orbital_combat.rings import RingTable


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """A ship's starting position and stores (sector is 1-based, as written)."""

    ring: int
    sector: int
    facing: Facing = Facing.PROGRADE
    mass: int | None = None
    hull: int | None = None

    def __str__(self) -> str:
        parts = [f"r{self.ring}", f"s{self.sector}", self.facing.word]
        if self.mass is not None:
            parts.append(f"m{self.mass}")
        if self.hull is not None:
            parts.append(f"h{self.hull}")
        return " ".join(parts)


def parse_ship(text: str, table: RingTable) -> ShipSpec:
    """Read one ship; raises ValueError saying what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"expected text like 'r5 s12 retro m10', got {text!r}")
    ring = sector = mass = hull = None
    facing = Facing.PROGRADE
    for token in text.lower().split():
        head, number = token[0], token[1:]
        if token in ("pro", "prograde"):
            facing = Facing.PROGRADE
        elif token in ("retro", "retrograde"):
            facing = Facing.RETROGRADE
        elif head in "rsmh" and number.isdigit():
            value = int(number)
            if head == "r":
                ring = value
            elif head == "s":
                sector = value
            elif head == "m":
                mass = value
            else:
                hull = value
        else:
            raise ValueError(f"{text!r}: cannot read {token!r} (write e.g. 'r5 s12 retro m10 h12')")
    if ring is None or sector is None:
        raise ValueError(f"{text!r}: a ship needs a ring and a sector, e.g. 'r5 s12'")
    if not table.innermost <= ring <= table.outermost:
        raise ValueError(f"{text!r}: ring {ring} does not exist (rings {table.innermost} to {table.outermost})")
    if not 1 <= sector <= table.sectors[ring]:
        raise ValueError(f"{text!r}: ring {ring} has sectors 1 to {table.sectors[ring]}, not {sector}")
    if mass is not None and mass > MAX_MASS:
        raise ValueError(f"{text!r}: reaction mass is capped at {MAX_MASS}, not {mass}")
    if hull is not None and hull < 1:
        raise ValueError(f"{text!r}: a ship starts with at least 1 hull")
    return ShipSpec(ring, sector, facing, mass, hull)
