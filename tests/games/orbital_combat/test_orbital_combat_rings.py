"""The Eight Rings as data: the shipped table is the seed's; a designer's table is validated entry by entry."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import astrarium
from astrarium.core import DataError, OptionError
from astrarium.core.data import describe_location
from astrarium.games.orbital_combat.rings import load_ring_table

GAME = astrarium.get_game("orbital-combat")

# The seed's table: ring, velocity, radius (mm), sectors, sector arc (mm).
SEED_TABLE = [
    (1, 12, 30, 24, 7.9),
    (2, 10, 43, 30, 9.0),
    (3, 8, 68, 32, 13.4),
    (4, 6, 100, 48, 13.1),
    (5, 4, 140, 56, 15.7),
    (6, 3, 172, 54, 20.0),
    (7, 2, 205, 58, 22.2),
    (8, 1, 235, 50, 29.5),
]


def at(ring: int, key: str) -> str:
    """The entry a schema error names: ring ``ring`` (1-based, as in the file), field ``key``."""
    return describe_location(("ring", ring - 1, key))


GOOD = """
[[ring]]
number = 1
velocity = 6
radius_mm = 40
sectors = 24

[[ring]]
number = 2
velocity = 3
radius_mm = 90
sectors = 36

[[ring]]
number = 3
velocity = 1
radius_mm = 150
sectors = 40
"""


@pytest.mark.parametrize("ring,velocity,radius,sectors,arc", SEED_TABLE)
def test_the_eight_rings_table_is_the_seeds(ring: int, velocity: int, radius: int, sectors: int, arc: float) -> None:
    table = load_ring_table()
    data = table.ring(ring)
    assert (data.number, data.velocity, data.radius_mm, data.sectors) == (ring, velocity, radius, sectors)
    assert round(data.arc_mm, 1) == arc
    assert sectors % velocity == 0  # "no ambiguous wrap-around"


def test_the_eight_rings_fit_on_a_500mm_board() -> None:
    table = load_ring_table()
    assert table.count == 8
    assert 2 * table.radius[8] < 500


def test_board_layout_positions_are_sector_midpoints_clockwise_from_the_top() -> None:
    table = load_ring_table()
    x, y = table.xy[4][0]  # sector 1 of ring 4: 3.75 degrees clockwise of the top
    assert x == pytest.approx(100 * math.sin(math.radians(3.75)))
    assert y == pytest.approx(100 * math.cos(math.radians(3.75)))
    assert table.distance(4, 0, 4, 24) == 200.0  # opposite sides of ring 4: its diameter
    assert table.distance(4, 0, 4, 8) == 100.0  # 60 degrees apart: the radius


def _write(tmp_path: Path, text: str, name: str = "rings.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_designers_ring_table_can_be_played(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    state = GAME.new_game(2, 0, {"ring_table": path, "start_ring": 2})
    assert [s["ring"] for s in state.view()["ships"]] == [2, 2]
    assert state.table.outermost == 3  # type: ignore[attr-defined]
    burns = {(a.direction, a.burn) for a in state.legal_actions() if a.burn}
    assert {int(b) for _, b in burns} == {1}  # one ring either way: ring 3 is the outermost, ring 1 the innermost
    with pytest.raises(astrarium.core.IllegalAction, match="pass ring 3"):
        state.apply("burn pro hard w0 d8")


def test_a_designers_json_ring_table(tmp_path: Path) -> None:
    rings = [{"number": 1, "velocity": 4, "radius_mm": 50, "sectors": 20}, {"number": 2, "velocity": 2, "radius_mm": 120, "sectors": 40}]
    import json

    path = _write(tmp_path, json.dumps({"ring": rings}), "rings.json")
    assert load_ring_table(path).count == 2


def test_start_ring_beyond_the_table_names_the_option(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    with pytest.raises(OptionError, match="start_ring"):
        GAME.new_game(2, 0, {"ring_table": path, "start_ring": 4})  # start ring 4 > 3 rings


@pytest.mark.parametrize(
    "change,entry,message",
    [
        (("velocity = 3", "velocity = 5"), "ring 2", "must divide sectors"),
        (("radius_mm = 90", "radius_mm = 30"), "ring 2", "radius_mm 30 must exceed"),
        (("velocity = 3", "velocity = 36"), "ring 2", "must exceed velocity"),
        (("velocity = 1", "velocity = 4"), "ring 3", "must be below ring 2's 3"),
        (("number = 2", "number = 5"), "ring 5", "numbered 1, 2, 3"),
        (("sectors = 36", 'sectors = "many"'), at(2, "sectors"), "valid integer (got 'many')"),
        (("sectors = 36", "sectrs = 36"), at(2, "sectrs"), "Extra inputs are not permitted; and 1 more problem"),
        (("sectors = 36", "sectors = 36\ncolour = 'red'"), at(2, "colour"), "Extra inputs are not permitted"),
        (("velocity = 6", "velocity = 0"), at(1, "velocity"), "greater than or equal to 1"),
        (("radius_mm = 40", "radius_mm = -4"), at(1, "radius_mm"), "greater than 0"),
        (("radius_mm = 40\n", ""), at(1, "radius_mm"), "Field required"),
        (("[[ring]]\nnumber = 1", "[[ring]\nnumber = 1"), "syntax", ""),
    ],
)
def test_bad_ring_table_names_the_file_and_the_entry(tmp_path: Path, change: tuple[str, str], entry: str, message: str) -> None:
    old, new = change
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataError) as err:
        GAME.new_game(2, 0, {"ring_table": path, "start_ring": 1})
    assert err.value.file == path
    assert err.value.entry == entry
    assert message in str(err.value)


def test_ring_table_needs_two_rings_and_a_readable_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "[[ring]]\nnumber = 1\nvelocity = 1\nradius_mm = 10\nsectors = 4\n")
    with pytest.raises(DataError, match="at least 2 items"):
        load_ring_table(path)
    with pytest.raises(DataError, match="cannot read"):
        load_ring_table(str(tmp_path / "missing.toml"))
    with pytest.raises(DataError, match="ring: Field required"):
        load_ring_table(_write(tmp_path, "# no rings\n", "empty.toml"))
    with pytest.raises(DataError, match="unknown data format"):
        load_ring_table(_write(tmp_path, "ring = []", "rings.yaml"))
