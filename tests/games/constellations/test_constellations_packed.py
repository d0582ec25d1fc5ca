"""The board read as integers (what the compiled build asks) answers exactly as the board read as strings.

The compiled build asks :func:`board.star_cells`, :func:`board.packed_lines` and
:func:`board.packed_found` where the interpreted one asks :func:`board.star_moves`,
:func:`board.colour_lines` / :func:`board.joined_colour_lines` and
:func:`board.found_count` / :func:`board.is_found`. Both readings are checked
here against the plain cell-by-cell definitions, on random boards of every
size a game allows, and whole seeded games are played both ways through the
public API and must show the same legal actions, views and outcomes (in the
compiled build the state's choice is fixed when it is compiled, so there both
runs take the integer reading, which ``tests/test_speed_equivalence.py``
checks against the recorded games).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng
from astrarium.games.constellations import board as B
from astrarium.games.constellations import state as S
from astrarium.games.constellations.board import geometry, parse_board
from helpers import examples
from test_speed_equivalence import plain_colour_lines

Board = tuple[int, int, tuple[str, ...]]


def plain_star_moves(cells: tuple[str, ...], geo: B.Geometry) -> list[int]:
    """Stars whose rotation moves an object: every star, every cell its rotation affects."""
    return [
        i
        for i, ch in enumerate(cells)
        if ch in B.STAR_RANGES and any(cells[j] != B.EMPTY for j in geo.rotation(i, geo.radius_of(ch)).affected)
    ]


def plain_count(lines: list[str], pattern: str) -> int:
    """Lines showing the pattern at some place, a wild comet matching any colour."""
    n = len(pattern)
    return sum(1 for line in lines if any(all(line[s + k] in (B.WILD, pattern[k]) for k in range(n)) for s in range(len(line) - n + 1)))


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board of any size up to 26x26 (a given board's limit), from sparse to full, with every kind of object."""
    height, width = draw(st.integers(1, B.MAX_SIDE)), draw(st.integers(1, B.MAX_SIDE))
    letters = draw(st.sampled_from([".PGYRNBC", "..........PGYRNBC", "PC.YR", "PPC..", "B.P", "PGGCY"]))
    cells = draw(st.lists(st.sampled_from(letters), min_size=height * width, max_size=height * width))
    return height, width, tuple(cells)


#: Card colours only: the state asks about the colours of cards, which are always of these letters.
CARD_PATTERNS = st.text("bgyrwk", min_size=1, max_size=5)


@settings(max_examples=examples(60), deadline=None)
@given(boards(), st.booleans(), st.lists(CARD_PATTERNS, min_size=1, max_size=8))
def test_integer_reading_answers_as_the_plain_definitions(board: Board, own_blue: bool, patterns: list[str]) -> None:
    """A sample here; three hundred boards in the slow suite."""
    check_integer_reading(board, own_blue, patterns)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(boards(), st.booleans(), st.lists(CARD_PATTERNS, min_size=1, max_size=8))
def test_integer_reading_answers_as_the_plain_definitions_on_many_boards(board: Board, own_blue: bool, patterns: list[str]) -> None:
    check_integer_reading(board, own_blue, patterns)


def check_integer_reading(board: Board, own_blue: bool, patterns: list[str]) -> None:
    height, width, cells = board
    geo = geometry(height, width)
    assert B.star_cells(cells, geo) == plain_star_moves(cells, geo) == B.star_moves(cells, geo)
    lines = list(plain_colour_lines(cells, geo, own_blue))
    packed = B.packed_lines(cells, geo, own_blue)
    assert len(packed) == 3 * len(lines)
    assert [packed[i + 2] for i in range(0, len(packed), 3)] == [len(line) for line in lines]
    for pattern in patterns:
        count = plain_count(lines, pattern)
        assert B.packed_found(packed, pattern) == count == B.found_count(B.colour_lines(cells, geo, own_blue), pattern)
        assert B.packed_found(packed, pattern, every=False) == (1 if count else 0)


def test_a_line_longer_than_a_machine_word_is_read_whole() -> None:
    """A 26-wide given board has lines of 25 objects (100 bits packed): the integers grow, the answers stay exact."""
    height, width, cells = parse_board("P" + "GYRNBG" * 4 + "C\n" + "." * 26)
    geo = geometry(height, width)
    packed = B.packed_lines(cells, geo)
    right = 3  # the planet's second line (up, right, down, left)
    assert packed[right + 2] == 25 and packed[right] >= 1 << 64
    lines = list(plain_colour_lines(cells, geo, False))
    for pattern in ("g", "gyrwk", "kg", "kgy", "gk", "kk"):
        assert B.packed_found(packed, pattern) == plain_count(lines, pattern)


def test_a_comet_next_to_a_sun_matches_any_colour_and_a_lone_comet_none() -> None:
    # The planet's line to the right: a comet beside a yellow dwarf (wild), then the dwarf; its line down: a comet with
    # no sun next to it (dead), then a gas giant.
    height, width, cells = parse_board("PCY\nC..\nG..")
    geo = geometry(height, width)
    assert B.colour_lines(cells, geo) == ("", "?y", "-g", "")
    packed = B.packed_lines(cells, geo)
    assert B.packed_found(packed, "ky") == 1  # the wild comet as black, then the dwarf's yellow
    assert B.packed_found(packed, "g") == 2  # the wild comet as green, and the gas giant
    assert B.packed_found(packed, "kg") == 0  # the dead comet is no black
    assert B.packed_found(packed, "yk") == 0  # a pattern is read outward from the planet only
    own_blue = B.packed_lines(cells, geo, True)
    assert B.packed_found(own_blue, "bk") == 1 and B.packed_found(packed, "bk") == 0  # the planet's blue only with planet_in_line


CASES: list[tuple[int, dict[str, Any], int]] = [
    (1, {}, 12),
    (2, {"swap": True}, 8),
    (3, {"planet_in_line": True, "comets": 6, "hand_size": 4}, 6),
    (4, {"width": 5, "height": 4, "gas_giants": 3, "yellow_dwarfs": 2, "red_giants": 1, "neutron_stars": 1, "comets": 4}, 6),
    (2, {"width": 15, "height": 15, "planets": 6, "black_holes": 3, "comets": 8, "max_rounds": 4}, 4),
]


def game_digests(players: int, options: dict[str, Any], games: int) -> list[str]:
    """One digest per seeded random game: every position's legal actions, views and evaluation, and the end."""
    game = astrarium.get_game("constellations")
    digests = []
    for seed in range(games):
        state = game.new_game(players, seed, options)
        chooser = Rng(7 * seed + 1)
        digest = hashlib.sha256()
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            for value in ([str(a) for a in legal], state.full_view(), state.view(seat), state.evaluate(seat)):
                digest.update(json.dumps(value, sort_keys=True).encode())
            state.apply(legal[chooser.below(len(legal))])
        for value in (state.to_record(), state.returns()):
            digest.update(json.dumps(value, sort_keys=True).encode())
        digests.append(digest.hexdigest())
    return digests


@pytest.mark.parametrize(("players", "options", "games"), CASES)
def test_games_play_the_same_with_either_reading(
    players: int, options: dict[str, Any], games: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state's rules read the board as strings or as integers (the compiled build's way): the same games."""
    monkeypatch.setattr(S, "COMPILED", False)
    as_strings = game_digests(players, options, games)
    monkeypatch.setattr(S, "COMPILED", True)
    as_integers = game_digests(players, options, games)
    assert as_integers == as_strings
