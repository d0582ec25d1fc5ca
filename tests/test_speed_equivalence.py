"""The speed work changes how the rules compute, never what they decide.

Many seeded random games of Constellations and Celestials, over several player
counts and options, are played through the public API; every position's legal
action notations (in order), its full view, the mover's view and evaluation,
a re-sampled world, and every game's outcome and returns are hashed. The
digests in ``tests/data/speed_fingerprints.json`` were recorded from the rules
before their hot paths were rewritten (and before any compiled build existed),
so the same digests prove that the faster rules (pure Python or compiled)
play exactly the same games. Every game has its own short digest, so a
difference names the first game (its seed) that plays differently.

Constellations' board questions are also checked on random boards against
their plain cell-by-cell definitions (the code they replaced), written out here.

To record the file again (only for a deliberate change of the rules)::

    python tests/test_speed_equivalence.py --record
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from astrarium.games.constellations import board as B
from helpers import RecordedDigests, game_digest

DATA = Path(__file__).parent / "data" / "speed_fingerprints.json"

#: case name -> (game id, players, options, games). Seeds are 0..games-1.
CASES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "constellations-solo": ("constellations", 1, {}, 150),
    "constellations-2-swap": ("constellations", 2, {"swap": True}, 80),
    "constellations-3-planet-in-line": ("constellations", 3, {"planet_in_line": True, "comets": 6, "hand_size": 4}, 50),
    "constellations-4-small-board": (
        "constellations",
        4,
        {"width": 5, "height": 4, "gas_giants": 3, "yellow_dwarfs": 2, "red_giants": 1, "neutron_stars": 1, "comets": 4},
        50,
    ),
    "constellations-2-wide-board": (
        "constellations",
        2,
        {"width": 11, "height": 6, "planets": 4, "black_holes": 2, "comets": 5, "hand_size": 5, "max_rounds": 6},
        50,
    ),
    "celestials-default": ("celestials", 2, {}, 80),
    "celestials-moon-first": ("celestials", 2, {"first": "moon", "start_hand": 3, "hand_limit": 7, "turn_limit": 25}, 70),
    "celestials-short-position": (
        "celestials",
        2,
        {"turn_limit": 12, "health": 9, "position": "sun phase Zenith; sun board B1 solar-lion; moon board C4 night-wolf 2 exhausted"},
        150,
    ),
}


DIGESTS = RecordedDigests(DATA, CASES, lambda name, seed: game_digest(*CASES[name][:3], seed))


@pytest.mark.parametrize("name", sorted(CASES))
def test_random_games_play_exactly_as_recorded(name: str) -> None:
    """The first quarter of each case's games; the rest in the slow suite (and in ``make test-compiled``)."""
    DIGESTS.check(name, "the moves, views and results", DIGESTS.split(name)[0])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rest_of_the_random_games_play_exactly_as_recorded(name: str) -> None:
    DIGESTS.check(name, "the moves, views and results", DIGESTS.split(name)[1])


def test_every_case_is_recorded() -> None:
    assert sorted(DIGESTS.recorded()) == sorted(CASES)


# -- Constellations' board questions, against their plain definitions ------------------------------------


def plain_star_moves(cells: tuple[str, ...], geo: B.Geometry) -> list[int]:
    """Stars whose rotation moves an object: every star, every cell its rotation affects."""
    moves = []
    for i, ch in enumerate(cells):
        if ch in B.STAR_RANGES and any(cells[j] != B.EMPTY for j in geo.rotation(i, geo.radius_of(ch)).affected):
            moves.append(i)
    return moves


def plain_colour_lines(cells: tuple[str, ...], geo: B.Geometry, planet_in_line: bool) -> tuple[str, ...]:
    """Every planet's four lines, object by object outward, comets wild next to a sun."""
    out = []
    for i, ch in enumerate(cells):
        if ch != "P":
            continue
        for line in geo.lines[i]:
            parts = ["b"] if planet_in_line else []
            for j in line:
                obj = cells[j]
                if obj == "C":
                    parts.append(B.WILD if any(cells[k] in B.COMET_SUNS for k in geo.neighbours[j]) else B.DEAD)
                elif obj != B.EMPTY:
                    parts.append(B.COLOURS[obj])
            out.append("".join(parts))
    return tuple(out)


def plain_found(line: str, pattern: str) -> bool:
    """The pattern at some place of the line, a wild comet matching any colour."""
    n = len(pattern)
    return any(all(line[s + k] in (B.WILD, pattern[k]) for k in range(n)) for s in range(len(line) - n + 1))


Board = tuple[int, int, tuple[str, ...]]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board of any size up to 9x9, from sparse to full, with every kind of object."""
    height, width = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    letters = draw(st.sampled_from([".PGYRNBC", "..........PGYRNBC", "PC.YR", "PPC..", "B.P"]))
    cells = draw(st.lists(st.sampled_from(letters), min_size=height * width, max_size=height * width))
    return height, width, tuple(cells)


PATTERNS = st.one_of(st.text("bgyrwk", min_size=1, max_size=5), st.text("bgyrwk?-|x", max_size=6))


@given(boards(), st.booleans(), st.lists(PATTERNS, max_size=6))
def test_board_questions_answer_as_their_plain_definitions(board: Board, own_blue: bool, patterns: list[str]) -> None:
    height, width, cells = board
    geo = B.geometry(height, width)
    assert B.star_moves(cells, geo) == plain_star_moves(cells, geo)
    lines = B.colour_lines(cells, geo, own_blue)
    assert lines == plain_colour_lines(cells, geo, own_blue)
    joined = B.joined_colour_lines(cells, geo, own_blue)
    for pattern in patterns:
        count = sum(1 for line in lines if plain_found(line, pattern))
        assert B.found_count(lines, pattern) == count
        assert B.is_found(joined, pattern) == (count > 0)


if __name__ == "__main__":
    DIGESTS.record(sys.argv[1:])
