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
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from astrarium.core import Puzzle
from astrarium.core.data import DataModel, read_data, read_data_file, validate
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
from astrarium.games.constellations.state import MAX_ROUNDS

#: Limits of a puzzle file: puzzles in it, and characters of one board (a 26x26 board needs 702).
MAX_PUZZLES = 200
MAX_BOARD_CHARS = 4096


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


class PuzzleEntry(DataModel):
    """One ``[[puzzle]]`` entry: a board, a target card, the rotations allowed and the proved shortest."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    board: Annotated[str, Field(max_length=MAX_BOARD_CHARS)]
    target: Annotated[str, Field(max_length=40)]
    rotations: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
    shortest: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
    difficulty: Annotated[str, Field(max_length=80)] = ""

    @field_validator("board")
    @classmethod
    def _board(cls, board: str) -> str:
        try:
            parse_board(board)
        except BoardError as exc:
            raise ValueError(str(exc)) from None
        return board.strip()

    @field_validator("target")
    @classmethod
    def _target(cls, target: str) -> str:
        try:
            return str(Card.parse(target))
        except CardError as exc:
            raise ValueError(str(exc)) from None

    @model_validator(mode="after")
    def _budget(self) -> PuzzleEntry:
        if self.shortest > self.rotations:
            raise ValueError(f"needs shortest ({self.shortest}) <= rotations ({self.rotations})")
        return self


class PuzzleFile(DataModel):
    """A puzzle file (``puzzles.toml``): an ``about`` line and the ``[[puzzle]]`` list."""

    about: Annotated[str, Field(max_length=1000)] = ""
    puzzle: Annotated[list[PuzzleEntry], Field(min_length=1, max_length=MAX_PUZZLES)]


def _puzzles_from(label: str, data: Any) -> list[Puzzle]:
    puzzles = []
    for k, entry in enumerate(validate(PuzzleFile, data, file=label).puzzle):
        target = Card.parse(entry.target)
        puzzles.append(
            Puzzle(
                number=k + 1,
                name=entry.name,
                goal=f"make the constellation {target.colours} and play {target} within {entry.rotations} rotations",
                options=puzzle_options(entry.board, target, entry.rotations),
                moves=entry.rotations + 1,
                shortest=entry.shortest + 1,
                difficulty=entry.difficulty,
                extra={"target": str(target), "rotations": entry.rotations, "shortest_rotations": entry.shortest},
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
