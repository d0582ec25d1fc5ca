"""Invariants (hypothesis): rotations permute tiles and cycle back; found counts are bounded; games end."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng
from astrarium.games.constellations.board import (
    STAR_RANGES,
    colour_lines,
    format_board,
    found_count,
    geometry,
    parse_board,
)
from helpers import examples

GAME = astrarium.get_game("constellations")
CELL = st.sampled_from(list("......PGYRNBC"))


@st.composite
def boards_with_a_star(draw: st.DrawFn) -> tuple[str, int]:
    height = draw(st.integers(1, 8))
    width = draw(st.integers(1, 8))
    cells = draw(st.lists(CELL, min_size=height * width, max_size=height * width))
    star_at = draw(st.integers(0, height * width - 1))
    cells[star_at] = draw(st.sampled_from(sorted(STAR_RANGES)))
    return format_board(tuple(cells), width), star_at


@settings(max_examples=examples(150))
@given(boards_with_a_star())
def test_rotation_permutes_tiles(case: tuple[str, int]) -> None:
    text, star = case
    h, w, cells = parse_board(text)
    geo = geometry(h, w)
    after = geo.rotate(cells, star, geo.radius_of(cells[star]))
    assert Counter(after) == Counter(cells)
    assert after[star] == cells[star]
    # Cells outside the rings are untouched.
    moved = set(geo.rotation(star, geo.radius_of(cells[star])).affected)
    assert all(after[i] == cells[i] for i in range(len(cells)) if i not in moved)


@settings(max_examples=examples(100))
@given(boards_with_a_star())
def test_rotating_lcm_of_ring_lengths_times_restores_the_board(case: tuple[str, int]) -> None:
    text, star = case
    h, w, cells = parse_board(text)
    geo = geometry(h, w)
    radius = geo.radius_of(cells[star])
    board = cells
    for _ in range(geo.rotation(star, radius).period):
        board = geo.rotate(board, star, radius)
    assert board == cells


@settings(max_examples=examples(100))
@given(boards_with_a_star())
def test_each_rotation_moves_every_ring_one_step_along_itself(case: tuple[str, int]) -> None:
    # With every tile distinct, after j rotations the tile from ring[k] sits at ring[(k + j) % len].
    text, star = case
    h, w, cells = parse_board(text)
    geo = geometry(h, w)
    radius = geo.radius_of(cells[star])
    labels = tuple(str(i) for i in range(h * w))
    board = labels
    longest = max((len(r) for r in geo.rotation(star, radius).rings), default=1)
    for j in range(1, longest + 1):
        board = geo.rotate(board, star, radius)
        for ring in geo.rotation(star, radius).rings:
            n = len(ring)
            assert all(board[ring[(k + j) % n]] == labels[ring[k]] for k in range(n))


@settings(max_examples=examples(150))
@given(boards_with_a_star(), st.text(alphabet="bgyrwk", min_size=1, max_size=5), st.booleans())
def test_found_count_never_exceeds_planets_times_four(case: tuple[str, int], colours: str, own_blue: bool) -> None:
    text, _ = case
    h, w, cells = parse_board(text)
    lines = colour_lines(cells, geometry(h, w), own_blue)
    assert 0 <= found_count(lines, colours) <= cells.count("P") * 4
    assert len(lines) == cells.count("P") * 4


def test_random_play_from_200_seeds_ends_without_error() -> None:
    for seed in range(200):
        players = seed % 4 + 1
        state = GAME.new_game(players, seed, {"swap": seed % 3 == 0})
        rng = Rng(seed)
        total_cards = sum(state.view(None)["hand_sizes"]) + state.view(None)["deck"]
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            view = state.view(None)
            # Cards are conserved: hands + deck + played + swapped away (variant swap).
            assert sum(view["hand_sizes"]) + view["deck"] + len(view["played"]) + len(view["swapped"]) == total_cards
        assert state.move_number <= GAME.max_moves(players, state.options)
        assert sum(p[3] for p in state.view(None)["played"]) == sum(state.view(None)["scores"])
