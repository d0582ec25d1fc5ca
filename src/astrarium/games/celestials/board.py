"""The Celestials board: 4 lane pairs (A-D) of 6 positions, as precomputed tables.

A location is an index ``lane * 6 + position``; its notation is the lane
letter and the position digit (``B4``). Positions 0-2 are the Sun's half
(Structure 1, Defence 1, Offence 1), positions 5-3 the Moon's half
(Structure 2, Defence 2, Offence 2).
"""

from __future__ import annotations

LANES = "ABCD"
WIDTH = 6
SIZE = len(LANES) * WIDTH
POSITION_DIGITS = "012345"
POSITION_NAMES = ("Structure 1", "Defence 1", "Offence 1", "Offence 2", "Defence 2", "Structure 2")

SUN, MOON = 0, 1
STRUCTURE_POS = (0, 5)  # by seat
DEFENCE_POS = (1, 4)
OFFENCE_POS = (2, 3)


def loc(lane: int, pos: int) -> int:
    return lane * WIDTH + pos


def lane_of(location: int) -> int:
    return location // WIDTH


def pos_of(location: int) -> int:
    return location % WIDTH


def name(location: int) -> str:
    return f"{LANES[location // WIDTH]}{location % WIDTH}"


def parse_location(text: str) -> int | None:
    """The location written as ``text`` (``B1``, any case), or None.

    The position digit must be an ASCII digit 0-5: ``str.isdigit`` also accepts
    ``²`` and other digits that ``int`` refuses.
    """
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in LANES or text[1] not in POSITION_DIGITS:
        return None
    return loc(LANES.index(text[0]), POSITION_DIGITS.index(text[1]))


def side_of(location: int) -> int:
    """The seat whose half (friendly territory) the location is in."""
    return SUN if location % WIDTH < 3 else MOON


def is_structure_slot(location: int) -> bool:
    return location % WIDTH in (0, 5)


NAMES = tuple(name(i) for i in range(SIZE))
#: Orthogonal neighbours: the next positions in the lane pair and the same position in the next lanes.
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        loc(lane + dl, pos + dp) for dl, dp in ((0, -1), (0, 1), (-1, 0), (1, 0)) if 0 <= lane + dl < len(LANES) and 0 <= pos + dp < WIDTH
    )
    for lane in range(len(LANES))
    for pos in range(WIDTH)
)
LANE_CELLS: tuple[tuple[int, ...], ...] = tuple(tuple(loc(lane_of(i), p) for p in range(WIDTH)) for i in range(SIZE))


def _moves(location: int, seat: int) -> tuple[int, ...]:
    """Where a creature of ``seat`` may manoeuvre from ``location`` on an empty board."""
    out = list(ADJACENT[location])
    if side_of(location) == seat:
        pos = pos_of(location)
        out += [loc(lane, pos) for lane in range(len(LANES)) if lane != lane_of(location)]
    return tuple(sorted(set(out)))


#: MOVES[seat][location]: manoeuvre destinations before occupancy is checked.
MOVES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_moves(i, s) for i in range(SIZE)) for s in (SUN, MOON))
#: The creature summoning spots (defence positions) and structure spots, by seat.
DEFENCE_CELLS = tuple(tuple(loc(lane, DEFENCE_POS[s]) for lane in range(len(LANES))) for s in (SUN, MOON))
STRUCTURE_CELLS = tuple(tuple(loc(lane, STRUCTURE_POS[s]) for lane in range(len(LANES))) for s in (SUN, MOON))
#: FACE_GUARD[seat][location]: for a location on the opponent's defensive position, the opponent's structure
#: slot of that lane (a structure there blocks a direct attack); -1 for every other location.
FACE_GUARD: tuple[tuple[int, ...], ...] = tuple(
    tuple(loc(lane_of(at), STRUCTURE_POS[1 - s]) if pos_of(at) == DEFENCE_POS[1 - s] else -1 for at in range(SIZE)) for s in (SUN, MOON)
)
