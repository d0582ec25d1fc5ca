"""Seed section 3 (rotation) and section 4 (objects and their ranges), from board notations."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import IllegalAction

GAME = astrarium.get_game("constellations")


def new(board: str, deck: list[str] | None = None, players: int = 1, **options):
    return GAME.new_game(players, 0, {"board": board, "deck": deck or ["kkkkk/1"] * 12, **options})


def rotated(board: str, cell: str) -> str:
    state = new(board)
    state.apply(f"rot {cell}")
    return state.view(0)["board"]


def test_section3_rotation_range_1_diagram() -> None:
    # 8 1 2 / 7 o 3 / 6 5 4: every tile moves to the next number, 8 goes to 1.
    # Ring labels 1..8 hold P G R N B C Y . around the yellow dwarf at b2.
    before = ".PG\nYYR\nCBN"
    after = "Y.P\nCYG\nBNR"
    assert rotated(before, "b2") == after


RANGE_2_DIAGRAM = """
FG123
E...4
D.o.5
C...6
BA987
"""
RING_2_LABELS = "123456789ABCDEFG"


def _cell_of(label: str) -> tuple[int, int]:
    rows = RANGE_2_DIAGRAM.strip().splitlines()
    for r, line in enumerate(rows):
        if label in line:
            return r, line.index(label)
    raise AssertionError(label)


def _board_with_planet_at(label: str) -> str:
    rows = [["."] * 5 for _ in range(5)]
    rows[2][2] = "Y"
    r, c = _cell_of(label)
    rows[r][c] = "P"
    return "\n".join("".join(row) for row in rows)


@pytest.mark.parametrize("k", range(16))
def test_section3_rotation_range_2_diagram(k: int) -> None:
    # The yellow dwarf (range 3) on a 5x5 board turns rings 1 and 2; ring 2 follows 1..9, A..G, G -> 1.
    label, following = RING_2_LABELS[k], RING_2_LABELS[(k + 1) % 16]
    assert rotated(_board_with_planet_at(label), "c3") == _board_with_planet_at(following)


def test_section3_range_2_turns_the_lower_ring_too() -> None:
    before = "G....\n.P...\n..Y..\n.....\n....."
    after = ".G...\n..P..\n..Y..\n.....\n....."
    assert rotated(before, "c3") == after


def test_section3_ring_cut_by_the_board_edge_skips_missing_cells() -> None:
    # 5 1 2 / 4 o 3 / x x x: the tile at 3 jumps straight to 4.
    before = "GPR\n.YC"
    after = ".GP\nCYR"
    assert rotated(before, "b2") == after


def test_section3_rotation_of_only_empty_cells_is_not_a_move() -> None:
    state = new("...\n.Y.\n...")
    assert [str(a) for a in state.legal_actions()] == ["pass"]
    with pytest.raises(IllegalAction, match="empty"):
        state.apply("rot b2")
    state.apply("pass")


def test_section3_object_out_of_range_makes_the_rotation_empty() -> None:
    # The only object is at distance 4 from a yellow dwarf (range 3).
    board = "P........\n" + ".........\n" * 3 + "....Y....\n" + ".........\n" * 3 + "........."
    state = new(board)
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_section3_pass_is_illegal_while_a_star_can_rotate() -> None:
    state = new("P..\n.Y.\n...")
    with pytest.raises(IllegalAction, match="a star can still rotate"):
        state.apply("pass")


def test_section3_the_star_itself_does_not_move_and_other_stars_do() -> None:
    assert rotated("R..\n.Y.\n...", "b2") == ".R.\n.Y.\n..."


@pytest.mark.parametrize("star,reach", [("Y", 3), ("R", 4), ("N", 5)])
def test_section4_star_ranges(star: str, reach: int) -> None:
    # An object at distance `reach` moves one step clockwise; one at distance reach+1 stays.
    size = 2 * reach + 3
    centre = size // 2
    rows = [["."] * size for _ in range(size)]
    rows[centre][centre] = star
    rows[centre - reach][centre] = "P"  # top middle of ring `reach`
    rows[centre][centre + reach + 1] = "G"  # right middle of ring reach+1
    before = "\n".join("".join(r) for r in rows)
    rows[centre - reach][centre] = "."
    rows[centre - reach][centre + 1] = "P"
    after = "\n".join("".join(r) for r in rows)
    cell = f"{chr(ord('a') + centre)}{centre + 1}"
    assert rotated(before, cell) == after


def test_section4_black_hole_has_infinite_range() -> None:
    assert rotated("B........\n........P", "a1") == "B.......P\n........."
    # A neutron star (range 5) in the same place cannot reach the planet 8 columns away.
    state = new("N........\n........P")
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_section3_only_stars_start_a_rotation() -> None:
    state = new("PG.\n.Y.\n...")
    with pytest.raises(IllegalAction, match="only stars"):
        state.apply("rot b1")
    with pytest.raises(IllegalAction, match="empty cell"):
        state.apply("rot c1")


def test_section5_exactly_one_rotation_per_turn() -> None:
    # After the rotation the hand's g/1 is playable, so the turn waits for plays: no second rotation.
    state = new("PG.\n.Y.\n...", deck=["g/1"] * 6)
    state.apply("rot b2")
    assert state.view(0)["phase"] == "play"
    with pytest.raises(IllegalAction, match="already rotated"):
        state.apply("rot b2")
