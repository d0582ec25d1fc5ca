"""Screens that fit: every game's position, with the play loop's lines around it, fits 80x24 and 120x40.

Positions come from random play of seeded games at every player count (early,
middle and late positions, finished ones too). Each is drawn as the play loop
draws a turn (the header, the board, the actions, a line left for the prompt)
on a console of that size, and the board alone is checked against the space
it was given, measured in terminal cells (wide characters count two).
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

import astrarium
from astrarium.cli.session import ACTION_ROWS, show_position
from astrarium.core.game import State
from astrarium.core.layout import BOARD_HEIGHT, BOARD_WIDTH

GAMES = [g for g in astrarium.list_games() if not g.startswith("toy")]
SIZES = [(80, 24), (120, 40)]
POSITIONS = 200
#: The positions the quick suite checks, the first of :data:`POSITIONS`.
QUICK_POSITIONS = 50
#: Random play stops here: long enough for the maps to fill and the fleets to spread.
MOVES = 300


def positions(game_id: str, count: int = POSITIONS) -> list[State]:
    """``count`` positions of random games, spread over every player count and over each game's length."""
    game = astrarium.get_game(game_id)
    counts = list(range(game.min_players, game.max_players + 1))
    found: list[State] = []
    seed = 0
    while len(found) < count:
        players = counts[seed % len(counts)]
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        actions: list[Any] = []
        while not state.is_over and len(actions) < MOVES:
            actions.append(rng.choice(state.legal_actions()))
            state.apply(actions[-1])
        # Ten positions a game, evenly spread from the first move to the last (which may be the end).
        picks = {round(i * len(actions) / 9) for i in range(10)}
        again = game.new_game(players, seed)
        for number, action in enumerate([*actions, None]):
            if number in picks:
                found.append(again.clone())
            if action is not None:
                again.apply(action)
        seed += 1
    return found[:count]


def plain_lines(markup: str) -> list[str]:
    return Text.from_markup(markup).plain.split("\n")


def screen(state: State, width: int, height: int) -> tuple[list[str], str]:
    """What the play loop prints for one turn on a terminal of this size (the prompt's line is left free), and its board."""
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None, legacy_windows=False)
    seat = state.current_player
    assert seat is not None
    title = f"{state.game.title}: move {state.move_number + 1}, seat {seat}"
    board = show_position(console, state, seat, state.legal_actions(), title)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text.rstrip("\n").split("\n"), board


@pytest.mark.parametrize("game_id", GAMES)
def test_every_screen_fits_80x24_and_120x40(game_id: str) -> None:
    """The first :data:`QUICK_POSITIONS` positions; the rest in the slow suite."""
    check_screens_fit(game_id, positions(game_id, QUICK_POSITIONS))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_the_rest_of_the_screens_fit_80x24_and_120x40(game_id: str) -> None:
    check_screens_fit(game_id, positions(game_id)[QUICK_POSITIONS:])


def check_screens_fit(game_id: str, states: list[State]) -> None:
    for state in states:
        for width, height in SIZES:
            where = f"{game_id}, {state.players} players, move {state.move_number}, {width}x{height}"
            if state.is_over:  # the end screen: the picture, then the result, a line a seat, length, seed, save
                board = plain_lines(state.render_fit(None, width=width, height=height - state.players - 6))
                assert len(board) <= height - state.players - 6, where
                assert max(map(cell_len, board)) <= width, where
                continue
            lines, drawn = screen(state, width, height)
            assert len(lines) <= height - 1, f"{where}: {len(lines)} lines"
            assert max(map(cell_len, lines)) <= width, where
            board = plain_lines(drawn)
            assert len(board) <= height - 2 - min(ACTION_ROWS, len(state.legal_actions())), where
            widest = max(board, key=cell_len)
            assert cell_len(widest) <= width, f"{where}: {widest!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_plain_render_fits_a_120x40_screen_with_room_for_the_actions(game_id: str) -> None:
    for state in positions(game_id, 20):
        for seat in (state.current_player, None):
            lines = plain_lines(state.render(seat))
            assert len(lines) <= BOARD_HEIGHT <= 40 - 2 - ACTION_ROWS
            assert max(map(cell_len, lines)) <= BOARD_WIDTH


# -- boards a person can read ------------------------------------------------------------------


def column(line: str, text: str) -> int:
    assert line.count(text) == 1, (line, text)
    return line.index(text)


def test_connected_worlds_maps_number_both_coordinates() -> None:
    """Rows carry r at the left; q is numbered above the top row and below the bottom row, over its hexes."""
    scenario = (
        '[[base]]\nat = "A:1,-2"\nowner = 0\nstrength = 1\n[[base]]\nat = "A:-2,2"\nowner = 1\nstrength = 3\n[[player]]\n[[player]]\n'
    )
    state = astrarium.get_game("connected-worlds").new_game(2, 1, {"scenario": scenario})
    for width, height in [(BOARD_WIDTH, BOARD_HEIGHT), (80, 18)]:
        lines = plain_lines(state.render_fit(0, width=width, height=height))
        title = next(i for i, line in enumerate(lines) if "World A" in line)
        at = lines[title].index("World A")
        end = lines[title].find("World", at + 1)  # the next map on the shelf, if any
        top, *rows, bottom = [line[at : end if end > 0 else None] for line in lines[title + 1 : title + 8]]
        assert [row.split()[0] for row in rows] == ["-2", "-1", "0", "1", "2"]
        assert top.split() == ["q↘", "0", "1", "2"] and bottom.split() == ["q↖", "-2", "-1", "0"]
        # The base on A:1,-2 stands under the top ruler's 1; the one on A:-2,2 over the bottom ruler's -2.
        assert column(rows[0], "0B1") == column(top, " 1 ")
        assert column(rows[4], "1B3") == column(bottom, "-2")


def test_orbital_combat_ring_numbers_stay_apart_from_ships() -> None:
    """On the round map ships are letters (as in the log and the picture) and only ring numbers are digits, in the margin;
    the unrolled map labels its lines."""
    game = astrarium.get_game("orbital-combat")
    state = game.new_game(4, 0, {"ships": ["r4 s1", "r4 s2", "r1 s1", "r8 s30"], "turn_order": "fixed"})
    lines = plain_lines(state.render_fit(0))
    board = lines[: next(i for i, line in enumerate(lines) if line.startswith("Rings are numbered"))]
    margin = [line[:3].strip() for line in board if line[:3].strip()]
    assert margin == ["8", "7", "6", "5", "4", "3", "2", "1"]
    assert not any(ch.isdigit() for line in board for ch in line[3:])
    assert sorted(ch for line in board for ch in line[3:] if ch.isalpha()) == ["A", "B", "C", "D"]
    small = plain_lines(state.render_fit(0, width=80, height=18))
    rings = [line for line in small if line.startswith("ring ")]
    assert [line.split()[1] for line in rings] == ["8", "7", "6", "5", "4", "3", "2", "1"]
    assert sorted(ch for line in rings for ch in line.partition("|")[2] if ch.isalnum()) == ["A", "B", "C", "D"]


STREAMLINES_SCENARIO = """name = "shared"
planets = ["e5"]
escapes = ["i1"]
starts = ["c3", "c4"]
[required]
2 = 3
3 = 3
4 = 3
"""
POWERS = ["action", "cargo", "action", "cargo"]


def test_streamlines_shows_ships_that_share_a_square_with_its_name_and_a_legend(tmp_path: Path) -> None:
    path = tmp_path / "shared.toml"
    path.write_text(STREAMLINES_SCENARIO, encoding="utf-8")
    deck = POWERS * 2 + ["straight"] * 40 + ["refugee"] * 6 + ["collapse"] * 2
    state = astrarium.get_game("streamlines").new_game(2, 0, {"scenario_file": str(path), "deck": deck})
    state.apply("move c4")  # ship A joins ship B
    tall = plain_lines(state.render_fit(0))
    assert any("c4" in line and "A,B" in line for line in tall)  # the square's name beside both ships
    assert any(line.startswith("Legend:") for line in tall)
    assert any("ship A at c4 with ship B" in line for line in tall)
    assert any("ship B at c4 with ship A" in line for line in tall)
    small = plain_lines(state.render_fit(0, width=80, height=18))
    rank = next(line for line in small if line.startswith("4 |"))
    assert rank.split("|")[3].split() == ["AB"] and small[0].split()[2] == "c"  # file c of rank 4
    assert any("ship A at c4 with ship B" in line for line in small)


# -- one name per ship: the picture's letter, with its seat beside it where a seat is named ---------------------------


def seats_only_beside_their_ships(text: str) -> bool:
    """Whether every "seat N" in ``text`` stands beside its ship's letter, "ship A (seat 0)"; ships are never digits."""
    bare = re.sub(r"\bship ([A-D]) \(seat (\d)\)", lambda m: "" if "ABCD"[int(m.group(2))] == m.group(1) else m.group(0), text, flags=re.I)
    return not re.search(r"\bseat \d|\bship \d", bare, flags=re.I)


@pytest.mark.parametrize("game_id", ["streamlines", "orbital-combat"])
def test_a_seat_number_only_ever_appears_beside_its_ships_letter_on_the_board_at_80x24_and_120x40(game_id: str) -> None:
    for state in positions(game_id, 60):
        for width, height in SIZES:
            where = f"{game_id}, {state.players} players, move {state.move_number}, {width}x{height}"
            if state.is_over:
                board = "\n".join(plain_lines(state.render_fit(None, width=width, height=height - state.players - 6)))
            else:
                board = "\n".join(plain_lines(screen(state, width, height)[1]))
            assert seats_only_beside_their_ships(board), f"{where}:\n{board}"


def test_streamlines_ships_are_letters_on_the_board_in_the_list_of_ships_and_in_what_just_happened() -> None:
    for state in positions("streamlines", 40):
        letters = ["ABCD"[s] for s in range(state.players)]
        for width, height in SIZES:
            lines = plain_lines(state.render_fit(0, width=width, height=height))
            ships = [line for line in lines if re.match(r"^[> ] ship [A-D] at ", line)]
            assert [line[7] for line in ships] == letters
            on_board = [s for s in range(state.players) if state.pos[s] >= 0]  # type: ignore[attr-defined]
            cells = "".join(line for line in lines if line.startswith("|") or line[:1].isdigit())
            shared = "all" in cells and len(on_board) == 4  # four ships on one square, in the small layout
            assert shared or all("ABCD"[s] in cells for s in on_board)
            assert not any(line.startswith("Recent:") and re.search(r"\bship \d", line) for line in lines)


def test_orbital_combat_names_the_last_ship_flying_by_its_letter_in_the_result_and_its_picture() -> None:
    """The end screen prints the result's reason under the picture when the picture has no room for it: it names the
    ship as the picture does, and where the picture shows it, it shows it word for word."""
    ended = [state for state in positions("orbital-combat", 200) if state.is_over and len(state.outcome.winners) == 1]  # type: ignore[union-attr]
    lasts = [state for state in ended if "last ship flying" in state.outcome.reason]  # type: ignore[union-attr]
    assert lasts
    for state in lasts:
        winner = state.outcome.winners[0]  # type: ignore[union-attr]
        assert state.outcome.reason == f"ship {'ABCD'[winner]} is the last ship flying"  # type: ignore[union-attr]
        for width, height in SIZES:
            picture = Text.from_markup(state.render_fit(None, width=width, height=height - state.players - 6)).plain
            assert "last ship flying" not in picture or state.outcome.reason in picture  # type: ignore[union-attr]
