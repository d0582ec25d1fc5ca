"""Ship set-ups written as text, for the ``ships`` option and for tests.

One ship is written as space-separated tokens in any order, each at most once::

    r<ring> s<sector> [pro|retro] [m<mass>] [h<hull>]

``r5 s12 retro m10`` is a ship on ring 5, sector 12 (sectors are numbered from
1, clockwise, as on the board), facing retrograde, with 10 reaction mass.
Facing defaults to prograde, mass and hull to the ``start_mass`` and ``hull``
options.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from astrarium.core.data import DataModel, validate
from astrarium.core.errors import DataError, OptionError, short
from astrarium.games.orbital_combat.actions import MAX_MASS, Facing
from astrarium.games.orbital_combat.rings import MAX_RINGS, MAX_SECTORS, RingTable

MAX_HULL = 99
"""Most hull a ship may start with (the ``hull`` option's upper bound too)."""
_NUMBER_TOKEN = re.compile(r"([rsmh])([0-9]+)", re.ASCII)
_MAX_DIGITS = 4
_NUMBER_FIELDS = {"r": "ring", "s": "sector", "m": "mass", "h": "hull"}
_FACING_WORDS = {"pro": Facing.PROGRADE, "prograde": Facing.PROGRADE, "retro": Facing.RETROGRADE, "retrograde": Facing.RETROGRADE}
_EXAMPLE = "write e.g. 'r5 s12 retro m10 h12'"


class ShipSpec(DataModel):
    """A ship's starting position and stores (sector is 1-based, as written); the bounds hold for any ring table."""

    ring: Annotated[int, Field(ge=1, le=MAX_RINGS)]
    sector: Annotated[int, Field(ge=1, le=MAX_SECTORS)]
    facing: Facing = Facing.PROGRADE
    mass: Annotated[int, Field(ge=0, le=MAX_MASS)] | None = None
    hull: Annotated[int, Field(ge=1, le=MAX_HULL)] | None = None

    def __str__(self) -> str:
        parts = [f"r{self.ring}", f"s{self.sector}", self.facing.word]
        if self.mass is not None:
            parts.append(f"m{self.mass}")
        if self.hull is not None:
            parts.append(f"h{self.hull}")
        return " ".join(parts)


def parse_ship(text: Any, table: RingTable) -> ShipSpec:
    """Read one ship and check it against the ring table; raises OptionError (option ``ships``) saying what is wrong."""
    if not isinstance(text, str):
        raise OptionError("ships", f"expected text like 'r5 s12 retro m10', got {short(type(text).__name__)}")
    shown = repr(short(text.strip(), 60))
    given: dict[str, Any] = {}
    for token in text.lower().split():
        number = _NUMBER_TOKEN.fullmatch(token)
        value: Facing | int
        if token in _FACING_WORDS:
            name, value = "facing", _FACING_WORDS[token]
        elif number is not None:
            name = _NUMBER_FIELDS[number[1]]
            if len(number[2]) > _MAX_DIGITS:
                raise OptionError("ships", f"{shown}: {short(token, 12)} is too large for a {name}")
            value = int(number[2])
        else:
            raise OptionError("ships", f"{shown}: cannot read {short(token, 20)!r} ({_EXAMPLE}, numbers in digits 0-9)")
        if name in given:
            raise OptionError("ships", f"{shown}: {name} given twice")
        given[name] = value
    if "ring" not in given or "sector" not in given:
        raise OptionError("ships", f"{shown}: a ship needs a ring and a sector, e.g. 'r5 s12'")
    try:
        spec = validate(ShipSpec, given, file=shown)
    except DataError as exc:
        raise OptionError("ships", str(exc)) from None
    if spec.ring > table.outermost:
        raise OptionError("ships", f"{shown}: ring {spec.ring} does not exist (rings {table.innermost} to {table.outermost})")
    if spec.sector > table.sectors[spec.ring]:
        raise OptionError("ships", f"{shown}: ring {spec.ring} has sectors 1 to {table.sectors[spec.ring]}, not {spec.sector}")
    return spec


def starting_ships(table: RingTable, players: int, options: Mapping[str, Any]) -> list[ShipSpec]:
    """The ships of a new game on ``table``: the ``ships`` option, or (when it is empty) all on ``start_ring`` evenly spaced.

    Checked against the same table the game is set up on, so the option
    checks and the set-up can never disagree (even if a ring-table file
    changes between them).
    """
    ships = options["ships"]
    if not ships:
        start = options["start_ring"]
        if start > table.outermost:
            raise OptionError("start_ring", f"the ring table has rings 1 to {table.outermost}, not {start}")
        return [ShipSpec(ring=start, sector=1 + seat * table.sectors[start] // players) for seat in range(players)]
    if len(ships) != players:
        raise OptionError("ships", f"give one ship per seat: {players} seats, {len(ships)} ships")
    return [parse_ship(text, table) for text in ships]
