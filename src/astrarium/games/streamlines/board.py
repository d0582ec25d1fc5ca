"""The 9x9 board: square names, directions, streamline arrows, scenarios.

Squares are numbered ``row * 9 + col`` (row 0 is rank 1, col 0 is file a) and
named ``a1`` .. ``i9``. "Up" is towards rank 9 (north). A square's streamlines
are a bit mask of the directions its arrows point out of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from astrarium.core.data import DataModel, read_data, read_data_file, validate
from astrarium.core.errors import DataError, short

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
        raise ValueError(f"{short(text, 20)!r} is not a square (a1 .. i9)")
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
            raise ValueError(f"{short(text, 20)!r} is not a set of arrows (letters n, e, s, w, each at most once)")
        mask |= d
    return mask


# -- scenarios ------------------------------------------------------------------------

#: Limits of a scenario file (documented in rules.md, "Data files and limits"). Each is
#: generous beside the built-in scenarios (at most 4 planets, 1 escape, 8 Collapse cards,
#: 6 laid streamlines) and keeps a game small: the Clock draws one card per planet a turn.
MAX_PLANETS = 12
MAX_ESCAPES = 12
MAX_STARTS = 4  # one per ship at most
MAX_COLLAPSE_CARDS = 24  # the same bound as the collapse_cards option: two per planet
MAX_REQUIRED = 40  # the same bound as the required option and the refugee_cards option
MAX_NAME_CHARS = 60
MAX_DESCRIPTION_CHARS = 300


def _check_square(text: str) -> str:
    parse_square(text)
    return text


def _check_arrows(text: str) -> str:
    if parse_arrows(text) in (0, 15):
        raise ValueError("a streamline card has one to three arrows")
    return text


def _distinct(names: list[str]) -> list[str]:
    squares = [parse_square(n) for n in names]
    for i, sq in enumerate(squares):
        if sq in squares[:i]:
            raise ValueError(f"square {square_name(sq)} is listed twice")
    return names


SquareName = Annotated[str, Field(max_length=4), AfterValidator(_check_square)]
Refugees = Annotated[int, Field(ge=1, le=MAX_REQUIRED)]
Planets = Annotated[list[SquareName], Field(min_length=1, max_length=MAX_PLANETS), AfterValidator(_distinct)]
Escapes = Annotated[list[SquareName], Field(min_length=1, max_length=MAX_ESCAPES), AfterValidator(_distinct)]
Starts = Annotated[list[SquareName], Field(min_length=1, max_length=MAX_STARTS), AfterValidator(_distinct)]


class LaidStreamline(DataModel):
    """A streamline card already on the board: ``square = "d3"``, ``arrows = "e"``."""

    square: SquareName
    arrows: Annotated[str, Field(min_length=1, max_length=4), AfterValidator(_check_arrows)]


class RequiredRefugees(DataModel):
    """``[required]``: the refugees to rescue with 2, 3 and 4 players."""

    two: Refugees = Field(alias="2")
    three: Refugees = Field(alias="3")
    four: Refugees = Field(alias="4")


class ScenarioFile(DataModel):
    """The schema of a scenario file (the built-in ones and a designer's ``scenario_file``)."""

    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]
    description: Annotated[str, Field(max_length=MAX_DESCRIPTION_CHARS)] = ""
    planets: Planets
    escapes: Escapes
    starts: Starts
    required: RequiredRefugees
    collapse_cards: Annotated[int, Field(ge=2, le=MAX_COLLAPSE_CARDS)] | None = None
    streamlines: Annotated[list[LaidStreamline], Field(max_length=SQUARES)] = []


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


def parse_scenario(data: Any, file: str) -> Scenario:
    """Check a scenario table against the schema, then the cross-checks it cannot say; DataError names file and entry."""
    spec = validate(ScenarioFile, data, file=file)
    planets = tuple(parse_square(s) for s in spec.planets)
    escapes = tuple(parse_square(s) for s in spec.escapes)
    starts = tuple(parse_square(s) for s in spec.starts)
    both = sorted(set(planets) & set(escapes))
    if both:
        names = ", ".join(square_name(s) for s in both)
        raise DataError(file, "escapes", f"square(s) {names} are both planet and escape squares")
    collapse = spec.collapse_cards if spec.collapse_cards is not None else 2 * len(planets)
    if collapse < 2 * len(planets):
        raise DataError(file, "collapse_cards", f"{len(planets)} planets need at least {2 * len(planets)} Collapse cards, not {collapse}")
    laid: list[tuple[int, int]] = []
    for i, entry in enumerate(spec.streamlines):
        sq = parse_square(entry.square)
        if sq in planets or sq in escapes or any(s == sq for s, _ in laid):
            raise DataError(file, f"streamlines.#{i + 1}.square", f"{square_name(sq)} is not an empty square")
        laid.append((sq, parse_arrows(entry.arrows)))
    required = {2: spec.required.two, 3: spec.required.three, 4: spec.required.four}
    return Scenario(spec.name, spec.description, planets, escapes, starts, required, tuple(laid), collapse, file)


@cache
def builtin_scenario(name: str) -> Scenario:
    """A packaged scenario (cached: the package's files do not change while it runs)."""
    label, data = read_data(__package__, f"scenarios/{name}.toml")
    return parse_scenario(data, label)


def load_scenario(name: str, path: str = "") -> Scenario:
    """The scenario a game uses: a designer's file when ``path`` is given, else a built-in one.

    A designer's file is read again on every call (bounded by ``read_data_file``), never
    cached by its path, so an edited file is what the next game plays.
    """
    if path:
        label, data = read_data_file(path)
        return parse_scenario(data, label)
    if name not in SCENARIO_NAMES:
        raise DataError("scenario", "name", f"no built-in scenario {short(name, 40)!r} (known: {', '.join(SCENARIO_NAMES)})")
    return builtin_scenario(name)
