"""Solo puzzles: a board, a target constellation, a number of rotations; and the solver that proves them.

A puzzle is played as a one-player game whose deck is the single target card,
with a hand of one card and as many rounds as rotations allowed. Because a
turn ends by itself when the card in hand is not on the board, every rotation
that does not make the constellation is one action, and the rotation that
makes it is followed by playing the card: a puzzle of ``k`` rotations takes
``k + 1`` actions. It is solved once the target card has been played.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any

from astrarium.core import Puzzle
from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file
from astrarium.core.errors import DataError
from astrarium.games.constellations.actions import Rotate
from astrarium.games.constellations.board import (
    BoardError,
    colour_lines,
    found_count,
    geometry,
    parse_board,
    star_moves,
)
from astrarium.games.constellations.cards import Card, CardError

_FIELDS = frozenset({"name", "board", "target", "rotations", "shortest", "difficulty"})


def solve(board: str, target: str, max_rotations: int = 8, planet_in_line: bool = False) -> list[Rotate] | None:
    """A shortest list of rotations after which ``target`` (colours) is found, by breadth-first search.

    Returns [] when the constellation is already on the board and None when no
    sequence of at most ``max_rotations`` rotations makes it.
    """
    height, width, start = parse_board(board)
    geo = geometry(height, width)

    def solved(cells: tuple[str, ...]) -> bool:
        return found_count(colour_lines(cells, geo, planet_in_line), target) > 0

    if solved(start):
        return []
    parent: dict[tuple[str, ...], tuple[tuple[str, ...], int] | None] = {start: None}
    frontier = deque([(start, 0)])
    while frontier:
        cells, depth = frontier.popleft()
        if depth >= max_rotations:
            continue
        for cell in star_moves(cells, geo):
            nxt = geo.rotate(cells, cell, geo.radius_of(cells[cell]))
            if nxt in parent:
                continue
            parent[nxt] = (cells, cell)
            if solved(nxt):
                path: list[Rotate] = []
                at: tuple[str, ...] = nxt
                while (link := parent[at]) is not None:
                    at, moved = link
                    path.append(Rotate(*divmod(moved, width)))
                path.reverse()
                return path
            frontier.append((nxt, depth + 1))
    return None


def puzzle_options(board: str, target: Card, rotations: int) -> dict[str, Any]:
    """The new_game options that set a puzzle up (one player)."""
    return {
        "board": board,
        "deck": [str(target)],
        "hand_size": 1,
        "max_rounds": rotations,
        "solo_target": 1,
    }


def _puzzles_from(label: str, data: Any) -> list[Puzzle]:
    if not isinstance(data, dict):
        raise DataError(label, "file", "expected a table with a [[puzzle]] list")
    no_unknown_fields(data, {"puzzle", "about"}, file=label, entry="file")
    entries = field(data, "puzzle", list, file=label, entry="file")
    puzzles = []
    for k, entry in enumerate(entries):
        entry_name = f"puzzle {k + 1}"
        no_unknown_fields(entry, _FIELDS, file=label, entry=entry_name)
        name = field(entry, "name", str, file=label, entry=entry_name)
        entry_name = f"puzzle {k + 1} ({name})"
        board = field(entry, "board", str, file=label, entry=entry_name).strip()
        target_text = field(entry, "target", str, file=label, entry=entry_name)
        rotations = field(entry, "rotations", int, file=label, entry=entry_name)
        shortest = field(entry, "shortest", int, file=label, entry=entry_name)
        difficulty = field(entry, "difficulty", str, file=label, entry=entry_name, default="")
        try:
            parse_board(board)
            target = Card.parse(target_text)
        except (BoardError, CardError) as exc:
            raise DataError(label, entry_name, str(exc)) from exc
        if not 1 <= shortest <= rotations:
            raise DataError(label, entry_name, f"needs 1 <= shortest ({shortest}) <= rotations ({rotations})")
        puzzles.append(
            Puzzle(
                number=k + 1,
                name=name,
                goal=f"make the constellation {target.colours} and play {target} within {rotations} rotations",
                options=puzzle_options(board, target, rotations),
                moves=rotations + 1,
                shortest=shortest + 1,
                difficulty=difficulty,
                extra={"target": str(target), "rotations": rotations, "shortest_rotations": shortest},
            )
        )
    return puzzles


@lru_cache(maxsize=1)
def _shipped() -> tuple[Puzzle, ...]:
    label, data = read_data(__package__, "puzzles.toml")
    return tuple(_puzzles_from(label, data))


def shipped_puzzles() -> list[Puzzle]:
    """The puzzles shipped with the game (puzzles.toml), easiest first."""
    return list(_shipped())


def load_puzzle_file(path: str | Path) -> list[Puzzle]:
    """A designer's own puzzle file (same format); errors name the file and the puzzle."""
    label, data = read_data_file(path)
    return _puzzles_from(label, data)


def is_solved(puzzle: Puzzle, played: list[list[Any]]) -> bool:
    target = puzzle.extra["target"]
    return any(card == target and found >= 1 for _, card, found, _ in played)
