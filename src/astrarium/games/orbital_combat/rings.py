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
from functools import lru_cache
from typing import Annotated, Any

from pydantic import Field

from astrarium.core.data import DataModel, check_path, parse_data, read_data, read_text_file, validate
from astrarium.core.errors import DataError

PACKAGE = "astrarium.games.orbital_combat"
BUILT_IN = "rings.toml"

MAX_RINGS = 12
"""Most rings a table may have (the seed has 8; ``start_ring`` goes up to 12)."""
MAX_SECTORS = 360
"""Most sectors a ring may have (the seed's largest is 58): one a degree. Keeps the landing table under 52,000 entries."""
MAX_RADIUS_MM = 5000.0
"""Largest ring radius in millimetres (the seed's board is 500 mm across; 235 mm is its outermost ring)."""


class Ring(DataModel):
    """One ring of the table, as written in the file (bounds are the schema's; order is checked by the table)."""

    number: Annotated[int, Field(ge=1, le=MAX_RINGS)]
    velocity: Annotated[int, Field(ge=1, le=MAX_SECTORS)]
    radius_mm: Annotated[float, Field(gt=0, le=MAX_RADIUS_MM)]
    sectors: Annotated[int, Field(ge=2, le=MAX_SECTORS)]

    @property
    def arc_mm(self) -> float:
        """The length of one sector's arc (the seed's "Sector Arc" column)."""
        return 2 * math.pi * self.radius_mm / self.sectors


class RingFile(DataModel):
    """A ring-table file: ``[[ring]]`` entries, innermost first."""

    ring: Annotated[list[Ring], Field(min_length=2, max_length=MAX_RINGS)]


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
        #: The same points as views show them (to a tenth of a millimetre).
        self.shown: list[list[tuple[float, float]]] = [[(round(x, 1), round(y, 1)) for x, y in points] for points in self.xy]
        self.landing: list[list[list[int]]] = [[]]
        for a in rings:
            row: list[list[int]] = [[]]
            for b in rings:
                row.append([((2 * s + 1) * b.sectors) // (2 * a.sectors) for s in range(a.sectors)])
            self.landing.append(row)
        #: Two ships' distance after a round's movement and whether their paths meet, by (ring, sector, ring, sector,
        #: collision distance) at the start of the movement; filled in by the game as positions come up.
        self.pairs: dict[tuple[int, int, int, int, float], tuple[float, bool]] = {}
        self._json: list[dict[str, Any]] | None = None

    def to_json(self) -> list[dict[str, Any]]:
        """The table as JSON data (for views): built once and shared by every view, so read, never changed."""
        if self._json is None:
            self._json = [{"ring": r.number, "velocity": r.velocity, "radius_mm": r.radius_mm, "sectors": r.sectors} for r in self.rings]
        return self._json

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
    """Validate parsed ring-table data: the schema, then the cross-checks between rings; errors name the file and the ring."""
    rings = validate(RingFile, data, file=label).ring
    for i, ring in enumerate(rings):
        where = f"ring {ring.number}"
        if ring.number != i + 1:
            raise DataError(label, where, f"rings must be numbered 1, 2, 3... innermost first; expected {i + 1}")
        if ring.sectors <= ring.velocity:
            raise DataError(label, where, f"sectors ({ring.sectors}) must exceed velocity ({ring.velocity})")
        if ring.sectors % ring.velocity:
            raise DataError(
                label, where, f"velocity {ring.velocity} must divide sectors {ring.sectors} evenly (a ship's move must end on a sector)"
            )
        if i:
            inner = rings[i - 1]
            if ring.radius_mm <= inner.radius_mm:
                raise DataError(label, where, f"radius_mm {ring.radius_mm:g} must exceed ring {inner.number}'s {inner.radius_mm:g}")
            if ring.velocity >= inner.velocity:
                raise DataError(
                    label, where, f"velocity {ring.velocity} must be below ring {inner.number}'s {inner.velocity} (lower orbit = faster)"
                )
    return RingTable(tuple(rings), label)


@lru_cache(maxsize=1)
def _built_in_table() -> RingTable:
    label, data = read_data(PACKAGE, BUILT_IN)
    return parse_ring_table(data, label)


@lru_cache(maxsize=8)
def _table_from_text(label: str, text: str, suffix: str) -> RingTable:
    """A designer's table, cached on the file's content (an edited file is a new key, so it is read afresh)."""
    return parse_ring_table(parse_data(text, label, suffix=suffix), label)


def load_ring_table(path: str = "") -> RingTable:
    """The built-in table (``path`` empty) or a designer's TOML/JSON file.

    The packaged table is read once per process. A designer's file is read
    again each time (at most 1 MiB, regular files only) and parsed again only
    when its content changed, so a table edited between games is played as edited.
    """
    if not path:
        return _built_in_table()
    label, text = read_text_file(path)
    return _table_from_text(label, text, check_path(path).suffix)
