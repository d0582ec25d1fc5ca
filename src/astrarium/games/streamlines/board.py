"""The 9x9 board: square names, directions, streamline arrows, scenarios.

Squares are numbered ``row * 9 + col`` (row 0 is rank 1, col 0 is file a) and
named ``a1`` .. ``i9``. "Up" is towards rank 9 (north). A square's streamlines
are a bit mask of the directions its arrows point out of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file
from astrarium.core.errors import DataError

SIZE = 9
SQUARES = SIZE * SIZE
FILES = "abcdefghi"

NORTH, EAST, SOUTH, WEST = 1, 2, 4, 8
DIRECTIONS = (NORTH, EAST, SOUTH, WEST)
DIRECTION_LETTERS = {NORTH: "n", EAST: "e", SOUTH: "s", WEST: "w"}
LETTER_DIRECTIONS = {v: k for k, v in DIRECTION_LETTERS.items()}
OPPOSITE = {NORTH: SOUTH, EAST: WEST, SOUTH: NORTH, WEST: EAST}


def square_name(sq: int) -> str:
    return f"{FILES[sq % SIZE]}{sq // SIZE + 1}"


def parse_square(text: str) -> int:
    """The index of a square name like ``e5``; raises ValueError for anything else."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "123456789":
        raise ValueError(f"{text!r} is not a square (a1 .. i9)")
    return (int(t[1]) - 1) * SIZE + FILES.index(t[0])


def _neighbour(sq: int, d: int) -> int:
    row, col = divmod(sq, SIZE)
    if d == NORTH:
        row += 1
    elif d == SOUTH:
        row -= 1
    elif d == EAST:
        col += 1
    else:
        col -= 1
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else -1


#: NEIGHBOUR[sq][i] is the square one step in DIRECTIONS[i] (or -1 off the board).
NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(tuple(_neighbour(s, d) for d in DIRECTIONS) for s in range(SQUARES))
#: For each arrow mask, the (direction index, direction bit, opposite bit) of its arrows.
ARROWS_OF: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((i, d, OPPOSITE[d]) for i, d in enumerate(DIRECTIONS) if mask & d) for mask in range(16)
)


def rotate_cw(mask: int) -> int:
    return ((mask << 1) | (mask >> 3)) & 15


def rotate_ccw(mask: int) -> int:
    return ((mask >> 1) | (mask << 3)) & 15


def arrows_text(mask: int) -> str:
    """``"nw"`` for a streamline pointing north and west (letters in the order n e s w)."""
    return "".join(DIRECTION_LETTERS[d] for d in DIRECTIONS if mask & d)


def parse_arrows(text: str) -> int:
    mask = 0
    for ch in text.strip().lower():
        d = LETTER_DIRECTIONS.get(ch)
        if d is None or mask & d:
            raise ValueError(f"{text!r} is not a set of arrows (letters n, e, s, w, each at most once)")
        mask |= d
    return mask


@dataclass(frozen=True, slots=True)
class Scenario:
    """A map: where planets, escapes and ships are, how many refugees win, streamlines already laid."""

    name: str
    description: str
    planets: tuple[int, ...]
    escapes: tuple[int, ...]
    starts: tuple[int, ...]
    required: dict[int, int]
    streamlines: tuple[tuple[int, int], ...]  # (square, arrow mask)
    collapse_cards: int
    file: str


SCENARIO_NAMES = ("introductory", "standard", "hard")
_FIELDS = frozenset({"name", "description", "planets", "escapes", "starts", "required", "collapse_cards", "streamlines"})


def _squares(data: dict[str, Any], name: str, file: str) -> tuple[int, ...]:
    values = field(data, name, list, file=file, entry=name)
    if not values:
        raise DataError(file, name, "needs at least one square")
    out: list[int] = []
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise DataError(file, f"{name}[{i}]", f"expected a square name, got {value!r}")
        try:
            sq = parse_square(value)
        except ValueError:
            raise DataError(file, f"{name}[{i}]", f"unknown square {value!r} (squares are a1 .. i9)") from None
        if sq in out:
            raise DataError(file, f"{name}[{i}]", f"square {value} is listed twice")
        out.append(sq)
    return tuple(out)


def parse_scenario(data: Any, file: str) -> Scenario:
    """Check a scenario table and build it; every problem raises DataError naming the file and the field."""
    if not isinstance(data, dict):
        raise DataError(file, "file", "expected a table of fields")
    no_unknown_fields(data, _FIELDS, file=file, entry="scenario")
    name = field(data, "name", str, file=file, entry="name")
    description = field(data, "description", str, file=file, entry="description", default="")
    planets = _squares(data, "planets", file)
    escapes = _squares(data, "escapes", file)
    starts = _squares(data, "starts", file)
    both = sorted(set(planets) & set(escapes))
    if both:
        names = ", ".join(square_name(s) for s in both)
        raise DataError(file, "escapes", f"square(s) {names} are both planet and escape squares")
    table = field(data, "required", dict, file=file, entry="required")
    required: dict[int, int] = {}
    for players in (2, 3, 4):
        value = field(table, str(players), int, file=file, entry="required")
        if value < 1:
            raise DataError(file, f"required.{players}", f"needs at least 1 refugee, got {value}")
        required[players] = value
    no_unknown_fields(table, {"2", "3", "4"}, file=file, entry="required")
    collapse = field(data, "collapse_cards", int, file=file, entry="collapse_cards", default=2 * len(planets))
    if collapse < 2 * len(planets):
        raise DataError(file, "collapse_cards", f"{len(planets)} planets need at least {2 * len(planets)} Collapse cards")
    laid: list[tuple[int, int]] = []
    for i, entry in enumerate(field(data, "streamlines", list, file=file, entry="streamlines", default=[])):
        label = f"streamlines[{i}]"
        no_unknown_fields(entry, {"square", "arrows"}, file=file, entry=label)
        text = field(entry, "square", str, file=file, entry=label)
        try:
            sq = parse_square(text)
        except ValueError:
            raise DataError(file, f"{label}.square", f"unknown square {text!r} (squares are a1 .. i9)") from None
        arrows = field(entry, "arrows", str, file=file, entry=label)
        try:
            mask = parse_arrows(arrows)
        except ValueError as exc:
            raise DataError(file, f"{label}.arrows", str(exc)) from None
        if mask in (0, 15):
            raise DataError(file, f"{label}.arrows", f"{arrows!r} is no streamline card (one to three arrows)")
        if sq in planets or sq in escapes or any(s == sq for s, _ in laid):
            raise DataError(file, f"{label}.square", f"{text} is not an empty square")
        laid.append((sq, mask))
    return Scenario(name, description, planets, escapes, starts, required, tuple(laid), collapse, file)


@cache
def builtin_scenario(name: str) -> Scenario:
    label, data = read_data(__package__, f"scenarios/{name}.toml")
    return parse_scenario(data, label)


def load_scenario(name: str, path: str = "") -> Scenario:
    """The scenario a game uses: a designer's file when ``path`` is given, else a built-in one."""
    if path:
        label, data = read_data_file(path)
        return parse_scenario(data, label)
    return builtin_scenario(name)
