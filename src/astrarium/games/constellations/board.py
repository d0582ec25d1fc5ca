"""The board of Constellations: objects on a grid, rings, rotations and constellation lines.

A board is a tuple of one-character cells in row-major order (``.`` empty, or an
object letter); its text notation is one line per row. Everything that depends
only on the board's size (the rings around every cell, the permutation a
rotation applies, the four lines out of every cell) is computed once per size
and cached in a :class:`Geometry`.

The three questions every turn asks (which stars can turn, what every planet's
lines show, whether a card is found) are the game's hot path, so they work on
the board joined into one string: C-level ``str`` methods (``translate``,
``find``, slicing, ``in``) do the per-cell work, and whether a star's rotation
moves anything is one AND of the board's occupancy bits with a per-size mask.
``tests/test_speed_equivalence.py`` holds the plain cell-by-cell definitions
they are checked against.

The compiled build asks the same questions of the board read cell by cell as
small integers (:func:`star_cells`, :func:`packed_lines`, :func:`packed_found`):
mypyc turns that into native code, while it cannot make the string methods
any faster (they are C already, and were most of a compiled step). Interpreted,
the string reading is the faster one, so the state picks by :data:`COMPILED`;
``tests/games/constellations/test_constellations_packed.py`` checks that both
give the same answers and play the same games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from operator import itemgetter
from typing import Final

EMPTY = "."

#: Object letter -> (name, colour letter used by cards).
OBJECTS: dict[str, tuple[str, str]] = {
    "P": ("habitable planet", "b"),
    "G": ("gas giant", "g"),
    "Y": ("yellow dwarf", "y"),
    "R": ("red giant", "r"),
    "N": ("neutron star", "w"),
    "B": ("black hole", "k"),
    "C": ("comet", "?"),
}
#: The stellar objects that may start a rotation, and their ranges (None: infinite).
STAR_RANGES: dict[str, int | None] = {"Y": 3, "R": 4, "N": 5, "B": None}
#: The suns that make a comet count as any colour when within range 1.
COMET_SUNS = frozenset("YR")
#: The star letters, in the order ``star_moves`` looks for them.
STAR_LETTERS = tuple(STAR_RANGES)
#: A comet out of range of a sun matches no colour.
WILD = "?"
DEAD = "-"
COLOURS = {letter: colour for letter, (_, colour) in OBJECTS.items() if letter != "C"}
MAX_SIDE = 26  # columns are named a..z
#: A cell's letter -> its colour on a line; a comet reads as dead until a sun next to it makes it wild.
_COLOUR_OF = str.maketrans({**COLOURS, "C": DEAD})
#: A cell's letter -> "1" when it holds an object, "0" when empty: the board's occupancy bits.
_OCCUPANCY = str.maketrans({EMPTY: "0", **dict.fromkeys(OBJECTS, "1")})
#: A cell's letter -> "1" for a sun that makes a comet next to it wild, else "0".
_SUN_BITS = str.maketrans({EMPTY: "0", **{letter: "1" if letter in COMET_SUNS else "0" for letter in OBJECTS}})
#: The colours a card may ask for, so a pattern of only these never meets a line's separator or wild mark.
_CARD_COLOURS = frozenset(COLOURS.values())
#: Lines joined for one search are separated by this (never a colour, so no match runs across two lines).
SEPARATOR = "|"

# The board read cell by cell as small integers (what :func:`packed_lines` and :func:`star_cells` work on, and what
# the compiled build turns into native code): ``ord`` of a cell's letter indexes these 128-entry tables.
#: Bits per object in a packed line: a line of up to 15 objects (every random board, at most 15x15) fits a machine word.
_BITS: Final = 4
#: ``ord`` of a cell's letter -> its colour code on a line: 0 empty, 1-6 the colours b g y r w k, 7 a comet.
_CELL_CODE: Final[tuple[int, ...]] = tuple({"P": 1, "G": 2, "Y": 3, "R": 4, "N": 5, "B": 6, "C": 7}.get(chr(o), 0) for o in range(128))
_COMET_CODE: Final = 7
_PLANET_ORD: Final = ord("P")
_EMPTY_ORD: Final = ord(EMPTY)
#: ``ord`` of a card's colour letter -> its code (as :data:`_CELL_CODE` codes the object of that colour); any other
#: character gets 15, which no line position holds, so it never matches.
_CARD_CODE: Final[tuple[int, ...]] = tuple({"b": 1, "g": 2, "y": 3, "r": 4, "w": 5, "k": 6}.get(chr(o), 15) for o in range(128))
#: ``ord`` of a cell's letter -> 1 for a sun that makes a comet next to it wild (yellow dwarf, red giant), else 0.
_SUN: Final[tuple[int, ...]] = tuple(1 if chr(o) in COMET_SUNS else 0 for o in range(128))
#: ``ord`` of a cell's letter -> 1 + the star's place in :data:`STAR_LETTERS` for a star, else 0.
_STAR: Final[tuple[int, ...]] = tuple(STAR_LETTERS.index(chr(o)) + 1 if chr(o) in STAR_RANGES else 0 for o in range(128))


class BoardError(ValueError):
    """A board notation that cannot be read; the message names the row and column."""


def column_name(col: int) -> str:
    return chr(ord("a") + col)


def cell_name(row: int, col: int) -> str:
    """A cell's name: column letter, row number counted from 1 at the top (``c4``)."""
    return f"{column_name(col)}{row + 1}"


def parse_board(text: str) -> tuple[int, int, tuple[str, ...]]:
    """Read a board notation; returns (height, width, cells). Raises BoardError naming row and column.

    Only ASCII is read (rows split at ``\\n``, spaces and tabs around a row ignored),
    so a Unicode space or line separator is refused as an unknown character rather
    than quietly changing the rows; the size is checked before any cell is read.
    """
    if not isinstance(text, str):
        raise BoardError(f"a board is text, one line per row, not {type(text).__name__}")
    rows = [line.strip(" \t\r") for line in text.strip(" \t\r\n").split("\n")]
    if not rows[0]:
        raise BoardError("the board is empty")
    width = len(rows[0])
    if width > MAX_SIDE or len(rows) > MAX_SIDE:
        raise BoardError(f"the board is {width}x{len(rows)}; at most {MAX_SIDE} rows and columns are supported")
    for r, line in enumerate(rows):
        if len(line) != width:
            raise BoardError(f"row {r + 1} has {len(line)} cells but row 1 has {width}: every row needs the same length")
        for c, ch in enumerate(line):
            if ch != EMPTY and ch not in OBJECTS:
                known = ", ".join([EMPTY, *OBJECTS])
                raise BoardError(f"row {r + 1}, column {c + 1} ({cell_name(r, c)}): unknown character {ascii(ch)} (use {known})")
    return len(rows), width, tuple("".join(rows))


def format_board(cells: tuple[str, ...], width: int) -> str:
    return "\n".join("".join(cells[i : i + width]) for i in range(0, len(cells), width))


def ring_cells(row: int, col: int, radius: int, height: int, width: int) -> tuple[int, ...]:
    """The on-board cells at Chebyshev distance ``radius`` from (row, col), in clockwise order.

    The order starts at the cell straight above the centre (the seed's ``1``) and
    goes clockwise; a tile moves one step along it per rotation. Cells off the
    board are skipped, so a tile jumps to the next on-board cell of its ring.
    """
    d = radius
    path: list[tuple[int, int]] = []
    path += [(row - d, c) for c in range(col, col + d + 1)]  # top, centre to right corner
    path += [(r, col + d) for r in range(row - d + 1, row + d + 1)]  # right side, down
    path += [(row + d, c) for c in range(col + d - 1, col - d - 1, -1)]  # bottom, right to left
    path += [(r, col - d) for r in range(row + d - 1, row - d - 1, -1)]  # left side, up
    path += [(row - d, c) for c in range(col - d + 1, col)]  # top, left corner to centre
    return tuple(r * width + c for r, c in path if 0 <= r < height and 0 <= c < width)


@dataclass(frozen=True, slots=True)
class Rotation:
    """What rotating around one cell with one range does: rings, affected cells, the permutation."""

    rings: tuple[tuple[int, ...], ...]
    affected: tuple[int, ...]
    source: tuple[int, ...]  # new_board[i] = old_board[source[i]]

    @property
    def period(self) -> int:
        """How many rotations bring every tile back: the lcm of the rings' on-board lengths."""
        return lcm(*[len(ring) for ring in self.rings]) if self.rings else 1


class Geometry:
    """Tables for one board size: rotations per (cell, range), lines and neighbours per cell."""

    def __init__(self, height: int, width: int) -> None:
        self.height = height
        self.width = width
        self.size = height * width
        self.max_radius = max(height, width) - 1
        self._rotations: dict[tuple[int, int], Rotation] = {}
        self._getters: dict[tuple[int, int], itemgetter] = {}
        n = self.size
        #: For each cell, its four lines outward (up, right, down, left), nearest cell first.
        self.lines: tuple[tuple[tuple[int, ...], ...], ...] = tuple(self._lines_from(i) for i in range(n))
        #: Per cell, and without/with the planet's own blue first: a getter that cuts the cell's four lines out of
        #: the board's colour string (followed by the separator and "b") as one text, "up|right|down|left".
        self._line_getters: tuple[list[itemgetter | None], list[itemgetter | None]] = ([None] * n, [None] * n)
        #: For each cell, the (up to 8) cells at Chebyshev distance 1.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(ring_cells(i // width, i % width, 1, height, width) for i in range(n))
        #: The same neighbours as board bits (bit ``size - 1 - j`` for cell j), as :func:`star_moves` reads the board.
        self.neighbour_bits: tuple[int, ...] = tuple(sum(1 << (n - 1 - j) for j in near) for near in self.neighbours)
        #: Each star letter's range on this board.
        self.radius: dict[str, int] = {star: self.radius_of(star) for star in STAR_RANGES}
        #: Per star letter and cell: the occupancy bits of the cells its rotation moves (-1: not computed yet).
        self._star_masks: dict[str, list[int]] = {star: [-1] * n for star in STAR_RANGES}
        #: Per star (its place in STAR_LETTERS) and cell, at ``star * size + cell``: the cells its rotation moves,
        #: nearest ring first (None: not computed yet), as :func:`star_cells` reads them.
        self._moved: list[tuple[int, ...] | None] = [None] * (len(STAR_LETTERS) * n)

    def _lines_from(self, i: int) -> tuple[tuple[int, ...], ...]:
        r, c, w = i // self.width, i % self.width, self.width
        up = tuple(rr * w + c for rr in range(r - 1, -1, -1))
        right = tuple(r * w + cc for cc in range(c + 1, w))
        down = tuple(rr * w + c for rr in range(r + 1, self.height))
        left = tuple(r * w + cc for cc in range(c - 1, -1, -1))
        return (up, right, down, left)

    def line_getter(self, cell: int, planet_in_line: bool) -> itemgetter:
        """The getter of ``cell``'s four lines (see ``_line_getters``); index ``size`` is the separator, ``size + 1`` a blue."""
        getters = self._line_getters[1 if planet_in_line else 0]
        getter = getters[cell]
        if getter is None:
            separator, blue = self.size, self.size + 1
            picks: list[int] = []
            for k, line in enumerate(self.lines[cell]):
                if k:
                    picks.append(separator)
                if planet_in_line:
                    picks.append(blue)
                picks += line
            getter = getters[cell] = itemgetter(*picks)
        return getter

    def star_mask(self, star: str, cell: int) -> int:
        """The occupancy bits of the cells that rotating the ``star`` on ``cell`` moves (bit ``size - 1 - j`` for cell j)."""
        masks = self._star_masks[star]
        mask = masks[cell]
        if mask < 0:
            top = self.size - 1
            mask = 0
            for j in self.rotation(cell, self.radius[star]).affected:
                mask |= 1 << (top - j)
            masks[cell] = mask
        return mask

    def moved_cells(self, star: int, cell: int) -> tuple[int, ...]:
        """The cells that rotating star number ``star`` (its place in STAR_LETTERS) on ``cell`` moves, nearest ring first."""
        moved = self._moved[star * self.size + cell]
        if moved is None:
            rings = self.rotation(cell, self.radius[STAR_LETTERS[star]]).rings
            moved = self._moved[star * self.size + cell] = tuple(i for ring in rings for i in ring)
        return moved

    def radius_of(self, star: str) -> int:
        rng = STAR_RANGES[star]
        return self.max_radius if rng is None else min(rng, self.max_radius)

    def rotation(self, cell: int, radius: int) -> Rotation:
        key = (cell, radius)
        rot = self._rotations.get(key)
        if rot is None:
            row, col = divmod(cell, self.width)
            rings = tuple(ring for d in range(1, radius + 1) if (ring := ring_cells(row, col, d, self.height, self.width)))
            source = list(range(self.size))
            for ring in rings:
                for k, dst in enumerate(ring):
                    source[dst] = ring[k - 1]
            rot = Rotation(rings, tuple(sorted(i for ring in rings for i in ring)), tuple(source))
            self._rotations[key] = rot
        return rot

    def rotate(self, cells: tuple[str, ...], cell: int, radius: int) -> tuple[str, ...]:
        """The board after rotating every ring 1..radius around ``cell`` one step clockwise."""
        key = (cell, radius)
        getter = self._getters.get(key)
        if getter is None:
            source = self.rotation(cell, radius).source
            if len(source) == 1:
                return cells
            getter = self._getters[key] = itemgetter(*source)
        return getter(cells)


@lru_cache(maxsize=64)
def geometry(height: int, width: int) -> Geometry:
    return Geometry(height, width)


def star_moves(cells: tuple[str, ...], geo: Geometry) -> list[int]:
    """The cells holding a star whose rotation would move at least one object, in board order."""
    board = "".join(cells)
    occupied = int(board.translate(_OCCUPANCY), 2)
    found: list[int] = []
    for star in STAR_LETTERS:
        i = board.find(star)
        if i < 0:
            continue
        masks = geo._star_masks[star]
        while i >= 0:
            mask = masks[i]
            if mask < 0:
                mask = geo.star_mask(star, i)
            if occupied & mask:
                found.append(i)
            i = board.find(star, i + 1)
    found.sort()
    return found


def star_cells(cells: tuple[str, ...], geo: Geometry) -> list[int]:
    """:func:`star_moves` read cell by cell: the same cells, in board order.

    Each star's moved cells are tried nearest ring first, so the test usually
    stops at the first neighbour. Typed integer work, which the compiled build
    makes native code; ``star_moves`` does the same with C-level string methods,
    which is faster when interpreted.
    """
    found: list[int] = []
    size = geo.size
    moved_table = geo._moved
    for i in range(size):
        star = _STAR[ord(cells[i])]
        if star:
            moved = moved_table[(star - 1) * size + i]
            if moved is None:
                moved = geo.moved_cells(star - 1, i)
            for j in moved:
                if ord(cells[j]) != _EMPTY_ORD:
                    found.append(i)
                    break
    return found


def packed_lines(cells: tuple[str, ...], geo: Geometry, planet_in_line: bool = False) -> list[int]:
    """:func:`colour_lines` as integers: three per line (colours, wild positions, length), in the same order.

    A line's colours are packed :data:`_BITS` bits an object, nearest the planet
    in the lowest bits (codes 1-6 for b g y r w k; 0 for a comet, whether dead
    or wild); its wild positions are all ones in the same places. A line of up
    to 15 objects (any random board) is a machine word, so the compiled build
    reads, packs and matches lines in native integer code instead of building
    and searching strings.
    """
    packed: list[int] = []
    size = geo.size
    lines = geo.lines
    near = geo.neighbours
    for p in range(size):
        if ord(cells[p]) != _PLANET_ORD:
            continue
        for line in lines[p]:
            value = 0
            wild = 0
            shift = 0
            if planet_in_line:
                value = 1
                shift = _BITS
            for j in line:
                code = _CELL_CODE[ord(cells[j])]
                if not code:
                    continue
                if code == _COMET_CODE:
                    for k in near[j]:
                        if _SUN[ord(cells[k])]:
                            wild |= 15 << shift
                            break
                else:
                    value |= code << shift
                shift += _BITS
            packed.append(value)
            packed.append(wild)
            packed.append(shift // _BITS)
    return packed


def packed_found(packed: list[int], colours: str, every: bool = True) -> int:
    """How many lines of :func:`packed_lines` show ``colours`` (with ``every`` false: 1 as soon as one does, else 0).

    ``colours`` are a card's (letters b g y r w k), as the state asks: at every
    offset a line matches when its colours equal the pattern's, except at wild
    positions; a dead comet (0) never equals a card colour (1-6), and any other
    letter (15) matches nothing (where :func:`found_count` would read ``?`` and
    ``-`` as the line's own marks).
    """
    m = len(colours)
    pattern = 0
    shift = 0
    for k in range(m):
        o = ord(colours[k])
        pattern |= (_CARD_CODE[o] if o < 128 else 15) << shift
        shift += _BITS
    full = (1 << shift) - 1
    count = 0
    for i in range(0, len(packed), 3):
        n = packed[i + 2]
        if n < m:
            continue
        value = packed[i]
        wild = packed[i + 1]
        for _ in range(n - m + 1):
            if (value ^ pattern) & full & ~wild == 0:
                count += 1
                if not every:
                    return 1
                break
            value >>= _BITS
            wild >>= _BITS
    return count


#: Whether this module runs compiled (a compiled function has no ``__code__``). The game's state then asks
#: :func:`star_cells` and :func:`packed_lines` / :func:`packed_found`, which compile to native integer code, instead of
#: :func:`star_moves` and :func:`joined_colour_lines` / :func:`is_found`, whose C-level string methods are the faster
#: of the two when interpreted; both give the same answers (``tests/games/constellations/test_constellations_packed.py``).
COMPILED: Final[bool] = not hasattr(star_cells, "__code__")


def joined_colour_lines(cells: tuple[str, ...], geo: Geometry, planet_in_line: bool = False) -> str:
    """:func:`colour_lines` joined by :data:`SEPARATOR` into one string ("" when there is no planet), made in one pass.

    The board becomes a string of colours (``.`` where empty) in one ``translate``;
    each planet's four lines are cut out of it by one precomputed getter, and the
    empty cells are dropped from all of them by one ``replace``.
    """
    board = "".join(cells)
    planet = board.find("P")
    if planet < 0:
        return ""
    colours = board.translate(_COLOUR_OF)
    comet = board.find("C")
    if comet >= 0:
        suns = int(board.translate(_SUN_BITS), 2)
        if suns:
            near = geo.neighbour_bits
            while comet >= 0:
                if suns & near[comet]:
                    colours = colours[:comet] + WILD + colours[comet + 1 :]
                comet = board.find("C", comet + 1)
    colours += SEPARATOR + "b"
    getters = geo._line_getters[1 if planet_in_line else 0]
    parts: list[str] = []
    while planet >= 0:
        getter = getters[planet]
        if getter is None:
            getter = geo.line_getter(planet, planet_in_line)
        parts.append("".join(getter(colours)))
        planet = board.find("P", planet + 1)
    return SEPARATOR.join(parts).replace(EMPTY, "")


def split_lines(joined: str) -> tuple[str, ...]:
    """The lines of :func:`joined_colour_lines` one by one."""
    return tuple(joined.split(SEPARATOR)) if joined else ()


def colour_lines(cells: tuple[str, ...], geo: Geometry, planet_in_line: bool = False) -> tuple[str, ...]:
    """The colour sequence of every line out of every habitable planet (4 per planet).

    A line lists the colours of the objects on it from the planet outward to the
    board's edge, skipping empty cells. A comet next to a yellow dwarf or red
    giant is ``?`` (any colour); any other comet is ``-`` (matches nothing).
    """
    return split_lines(joined_colour_lines(cells, geo, planet_in_line))


def line_has(line: str, pattern: str) -> bool:
    """Whether ``pattern`` (card colours) appears contiguously in ``line`` (a wild comet matches any colour)."""
    if WILD not in line:
        return pattern in line
    n = len(pattern)
    for start in range(len(line) - n + 1):
        for k in range(n):
            ch = line[start + k]
            if ch != WILD and ch != pattern[k]:
                break
        else:
            return True
    return False


_MATCHERS: dict[str, re.Pattern[str]] = {}


def _matcher(pattern: str) -> re.Pattern[str] | None:
    """A regular expression that finds ``pattern`` where a wild comet may stand for any colour (None: not card colours).

    Only patterns of 1 to 5 card colours get one (so the cache stays small and a
    pattern never contains the separator or the wild mark); anything else is
    answered by :func:`line_has` directly.
    """
    rx = _MATCHERS.get(pattern)
    if rx is None:
        if not 1 <= len(pattern) <= 5 or not _CARD_COLOURS.issuperset(pattern):
            return None
        rx = _MATCHERS[pattern] = re.compile("".join(f"[{c}{re.escape(WILD)}]" for c in pattern))
    return rx


def found_count(lines: tuple[str, ...], pattern: str) -> int:
    """How many lines show ``pattern`` (each line counts at most once)."""
    rx = _matcher(pattern)
    if rx is None:
        return sum(1 for line in lines if line_has(line, pattern))
    count = 0
    for line in lines:
        if pattern in line or (WILD in line and rx.search(line) is not None):
            count += 1
    return count


def is_found(joined: str, pattern: str) -> bool:
    """Whether any line shows ``pattern``: ``found_count(lines, pattern) > 0`` on the lines joined (one search, not one a line)."""
    rx = _matcher(pattern)
    if rx is None:
        return any(line_has(line, pattern) for line in joined.split(SEPARATOR)) if joined else False
    if pattern in joined:
        return True
    return WILD in joined and rx.search(joined) is not None
