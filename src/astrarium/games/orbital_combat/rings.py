"""The rings around the black hole: the seed's ring table as data, and its geometry.

A position is a ring and a sector. Sectors are numbered clockwise; inside the
code a sector is its 0-based index (the seed's sector 1 is index 0), so the
seed's movement rule ``new_sector = (sector + velocity) mod sectors`` holds
exactly on indices. A position is also a point on the board in millimetres:
the middle of its sector's arc, at the ring's radius, angles measured
clockwise from the top of the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file
from astrarium.core.errors import DataError

PACKAGE = "astrarium.games.orbital_combat"
BUILT_IN = "rings.toml"
_RING_FIELDS = frozenset({"number", "velocity", "radius_mm", "sectors"})


@dataclass(frozen=True, slots=True)
class Ring:
    """One ring of the table."""

    number: int
    velocity: int
    radius_mm: float
    sectors: int

    @property
    def arc_mm(self) -> float:
        """The length of one sector's arc (the seed's "Sector Arc" column)."""
        return 2 * math.pi * self.radius_mm / self.sectors


class RingTable:
    """The rings, innermost first, with precomputed geometry.

    ``velocity[r]``, ``sectors[r]``, ``radius[r]`` are indexed by ring number
    (index 0 unused). ``xy[r][s]`` is the point of sector index ``s`` of ring
    ``r``; ``landing[a][b][s]`` is the sector index a ship at sector index ``s``
    of ring ``a`` lands on when it arrives in ring ``b`` (same angle).
    """

    def __init__(self, rings: tuple[Ring, ...], source: str) -> None:
        self.rings = rings
        self.source = source
        self.count = len(rings)
        self.innermost = 1
        self.outermost = len(rings)
        self.velocity = [0] + [r.velocity for r in rings]
        self.sectors = [0] + [r.sectors for r in rings]
        self.radius = [0.0] + [float(r.radius_mm) for r in rings]
        self.xy: list[list[tuple[float, float]]] = [[]]
        for r in rings:
            points = []
            for s in range(r.sectors):
                angle = 2 * math.pi * (s + 0.5) / r.sectors
                points.append((r.radius_mm * math.sin(angle), r.radius_mm * math.cos(angle)))
            self.xy.append(points)
        self.landing: list[list[list[int]]] = [[]]
        for a in rings:
            row: list[list[int]] = [[]]
            for b in rings:
                row.append([((2 * s + 1) * b.sectors) // (2 * a.sectors) for s in range(a.sectors)])
            self.landing.append(row)

    def to_json(self) -> list[dict[str, Any]]:
        """The table as JSON data (for views)."""
        return [{"ring": r.number, "velocity": r.velocity, "radius_mm": r.radius_mm, "sectors": r.sectors} for r in self.rings]

    def ring(self, number: int) -> Ring:
        return self.rings[number - 1]

    def distance(self, ring_a: int, sector_a: int, ring_b: int, sector_b: int) -> float:
        """Straight-line distance in millimetres between two positions, rounded to a micrometre.

        Rounding makes exact geometric distances (60 degrees apart on ring 4: 100 mm)
        come out exact, so range bands do not depend on floating-point noise.
        """
        ax, ay = self.xy[ring_a][sector_a]
        bx, by = self.xy[ring_b][sector_b]
        return round(math.hypot(ax - bx, ay - by), 3)

    def angle(self, ring: int, sector: int) -> float:
        """The clockwise angle of a sector's middle, in degrees from the top of the board."""
        return 360.0 * (sector + 0.5) / self.sectors[ring]


def parse_ring_table(data: Any, label: str) -> RingTable:
    """Validate parsed ring-table data; every error names the file and the ring."""
    if not isinstance(data, dict):
        raise DataError(label, "file", "expected a table with a [[ring]] list")
    no_unknown_fields(data, {"ring"}, file=label, entry="file")
    entries = field(data, "ring", list, file=label, entry="file")
    if len(entries) < 2:
        raise DataError(label, "ring", f"needs at least 2 rings, got {len(entries)}")
    rings: list[Ring] = []
    for i, entry in enumerate(entries):
        where = f"ring entry {i + 1}"
        if not isinstance(entry, dict):
            raise DataError(label, where, f"expected a table, got {entry!r}")
        no_unknown_fields(entry, _RING_FIELDS, file=label, entry=where)
        number = field(entry, "number", int, file=label, entry=where)
        where = f"ring {number}"
        velocity = field(entry, "velocity", int, file=label, entry=where)
        radius = field(entry, "radius_mm", (int, float), file=label, entry=where)
        sectors = field(entry, "sectors", int, file=label, entry=where)
        if number != i + 1:
            raise DataError(label, where, f"rings must be numbered 1, 2, 3... innermost first; expected {i + 1}")
        if velocity < 1:
            raise DataError(label, where, f"velocity must be at least 1, got {velocity}")
        if sectors <= velocity:
            raise DataError(label, where, f"sectors ({sectors}) must exceed velocity ({velocity})")
        if sectors % velocity:
            raise DataError(label, where, f"velocity {velocity} must divide sectors {sectors} evenly (seed: Key Properties)")
        if radius <= 0:
            raise DataError(label, where, f"radius_mm must be positive, got {radius}")
        if rings:
            inner = rings[-1]
            if radius <= inner.radius_mm:
                raise DataError(label, where, f"radius_mm {radius} must exceed ring {inner.number}'s {inner.radius_mm}")
            if velocity >= inner.velocity:
                raise DataError(
                    label, where, f"velocity {velocity} must be below ring {inner.number}'s {inner.velocity} (lower orbit = faster)"
                )
        rings.append(Ring(number, velocity, radius, sectors))
    return RingTable(tuple(rings), label)


@lru_cache(maxsize=16)
def load_ring_table(path: str = "") -> RingTable:
    """The built-in table (``path`` empty) or a designer's TOML/JSON file."""
    if path:
        label, data = read_data_file(path)
    else:
        label, data = read_data(PACKAGE, BUILT_IN)
    return parse_ring_table(data, label)
