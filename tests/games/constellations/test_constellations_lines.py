"""Seed section 2 (constellation forming) and the comet of section 4, from board notations."""

from __future__ import annotations

import pytest

import astrarium

GAME = astrarium.get_game("constellations")


def found(board: str, colours: str, **options) -> int:
    state = GAME.new_game(1, 0, {"board": board, "deck": ["g/1"], **options})
    return state.found(colours)


def test_section2_line_lists_colours_outward_skipping_empty_cells() -> None:
    assert found("P.G.Y", "gy") == 1
    assert found("P.G.Y", "g") == 1


def test_section2_order_matters() -> None:
    assert found("P.G.Y", "yg") == 0
    assert found("Y.G.P", "gy") == 1  # read leftward from the planet: g then y


def test_section2_sequence_must_be_contiguous() -> None:
    assert found("PGNY", "gy") == 0
    assert found("PGNY", "gwy") == 1


def test_section2_only_straight_lines_no_diagonals() -> None:
    assert found("P..\n.G.\n..Y", "g") == 0
    assert found("P..\n...\nG..", "g") == 1  # straight down


def test_section2_counts_once_per_line() -> None:
    assert found("PGYGY", "gy") == 1


def test_section2_same_planet_counts_in_several_directions() -> None:
    assert found(".G.\nGPG\n.G.", "g") == 4


def test_section2_every_planet_counts() -> None:
    # Two planets each see the gas giant between them (and each sees the other planet's blue).
    assert found("PGP", "g") == 2
    assert found("PGP", "gb") == 2


def test_section2_line_runs_over_other_planets_to_the_edge() -> None:
    assert found("PPG", "bg") == 1


def test_section2_planet_own_blue_is_not_in_its_lines_by_default() -> None:
    assert found("PG", "bg") == 0
    assert found("PG", "bg", planet_in_line=True) == 1


def test_section2_no_planet_no_constellation() -> None:
    assert found("GGY\nRNB", "g") == 0


@pytest.mark.parametrize("colour", list("bgyrwk"))
def test_section4_comet_next_to_a_sun_counts_as_any_colour(colour: str) -> None:
    assert found("PCY", colour + "y") == 1


def test_section4_comet_diagonally_next_to_a_red_giant_is_wild() -> None:
    assert found("PC.\n..R", "k") == 1


def test_section4_comet_away_from_suns_matches_no_colour() -> None:
    assert found("PC.Y", "gy") == 0
    assert found("PC.Y", "y") == 1


@pytest.mark.parametrize("star", ["N", "B"])
def test_section4_comet_next_to_a_neutron_star_or_black_hole_is_not_wild(star: str) -> None:
    colour = "w" if star == "N" else "k"
    assert found(f"PC{star}", "g" + colour) == 0


def test_section4_object_colours() -> None:
    assert found("PPGYRNB", "bgyrwk") == 1
