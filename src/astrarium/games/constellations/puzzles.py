"""Solo puzzles: a board, a target constellation, a number of rotations; the solver that proves them and rates them.

A puzzle is played as a one-player game whose deck is the single target card,
with a hand of one card and as many rounds as rotations allowed. Because a
turn ends by itself when the card in hand is not on the board, every rotation
that does not make the constellation is one action. The puzzle is solved as
soon as a rotation makes the constellation (playing the card afterwards only
scores it), so a puzzle's moves are its rotations, and its budget and its
shortest solution are counted in the same unit.

Puzzles come in packs of rising difficulty (``[[pack]]`` in ``puzzles.toml``).
Each puzzle stores what :func:`analyse` proves about it: the shortest number of
rotations, how many rotation sequences of that length there are and how many
of them solve it, how many first rotations can still lead to a solution
within the budget, and whether every shortest solution turns the star on one
cell twice. :func:`rate` turns those into a rating from 1 to 10 that the
player sees in the puzzle's header, and :func:`puzzle_of_the_day` picks one
puzzle from a date.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from astrarium.core import DataError, Puzzle
from astrarium.core.data import DataModel, read_data, read_data_file, validate
from astrarium.games.constellations.actions import Rotate
from astrarium.games.constellations.board import (
    DEAD,
    WILD,
    BoardError,
    Geometry,
    colour_lines,
    found_count,
    geometry,
    parse_board,
    star_moves,
)
from astrarium.games.constellations.cards import Card, CardError
from astrarium.games.constellations.state import MAX_ROUNDS

#: Limits of a puzzle file: puzzles in it, packs, and characters of one board (a 26x26 board needs 702).
MAX_PUZZLES = 200
MAX_PACKS = 20
MAX_BOARD_CHARS = 4096
#: The longest puzzle :func:`analyse` counts every rotation sequence of (the count grows as the stars' number to this power).
MAX_ANALYSED_ROTATIONS = 8
#: Rating bands, 1 to 10, and the word a player reads for each.
GRADES = ((2, "easy"), (4, "medium"), (6, "hard"), (8, "expert"), (10, "master"))


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


COLOUR_NAMES = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "w": "white", "k": "black"}


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the exhaustive search proves about a puzzle (every count is over legal rotations only).

    ``sequences`` counts every sequence of ``shortest`` rotations from the start
    (a rotation back to an earlier board counts as a new sequence, as a player
    trying moves would meet it); ``solutions`` those after which the target is
    found. ``first_moves`` is how many rotations the start offers and
    ``good_first_moves`` how many of them still allow a solution within the
    budget. ``repeats`` is true when every shortest solution turns the star on
    one cell more than once: a solution that is easy to miss, since a star
    turned twice moves its rings two steps. ``stars`` are the star letters that
    every shortest solution turns, and ``comet_needed`` says that on every
    solving board the target is found only thanks to a wild comet.
    """

    shortest: int
    sequences: int
    solutions: int
    first_moves: int
    good_first_moves: int
    repeats: bool
    stars: frozenset[str]
    comet_needed: bool


class _Searcher:
    """Memoized successors and solved-tests of the boards of one puzzle."""

    def __init__(self, geo: Geometry, target: str, planet_in_line: bool) -> None:
        self.geo = geo
        self.target = target
        self.planet_in_line = planet_in_line
        self._next: dict[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]] = {}
        self._solved: dict[tuple[str, ...], bool] = {}
        self._distance: dict[tuple[tuple[str, ...], int], bool] = {}

    def successors(self, cells: tuple[str, ...]) -> tuple[tuple[int, tuple[str, ...]], ...]:
        after = self._next.get(cells)
        if after is None:
            geo = self.geo
            after = self._next[cells] = tuple((c, geo.rotate(cells, c, geo.radius_of(cells[c]))) for c in star_moves(cells, geo))
        return after

    def solved(self, cells: tuple[str, ...]) -> bool:
        done = self._solved.get(cells)
        if done is None:
            done = self._solved[cells] = found_count(colour_lines(cells, self.geo, self.planet_in_line), self.target) > 0
        return done

    def reachable(self, cells: tuple[str, ...], budget: int) -> bool:
        """Whether the target is found on ``cells`` or within ``budget`` more rotations."""
        if self.solved(cells):
            return True
        if budget <= 0:
            return False
        key = (cells, budget)
        known = self._distance.get(key)
        if known is None:
            known = self._distance[key] = any(self.reachable(nxt, budget - 1) for _, nxt in self.successors(cells))
        return known

    def needs_comet(self, cells: tuple[str, ...]) -> bool:
        """Whether the target is found on ``cells`` only because a comet next to a sun counts as any colour."""
        lines = tuple(line.replace(WILD, DEAD) for line in colour_lines(cells, self.geo, self.planet_in_line))
        return found_count(lines, self.target) == 0


def analyse(board: str, target: str, rotations: int, planet_in_line: bool = False) -> Analysis | None:
    """Prove a puzzle: its shortest solution and the counts its rating is made of; None when it has no solution.

    ``target`` is the card's colours; ``rotations`` the budget. A puzzle already
    solved at the start, or whose shortest solution needs more than
    ``rotations`` (or :data:`MAX_ANALYSED_ROTATIONS`) rotations, gives None.
    """
    height, width, start = parse_board(board)
    search = _Searcher(geometry(height, width), target, planet_in_line)
    path = solve(board, target, max_rotations=min(rotations, MAX_ANALYSED_ROTATIONS), planet_in_line=planet_in_line)
    if not path:
        return None
    shortest = len(path)
    sequences = solutions = repeating = 0
    stars: set[str] | None = None
    comet_needed = True

    def walk(cells: tuple[str, ...], depth: int, turned: tuple[int, ...], letters: frozenset[str]) -> None:
        nonlocal sequences, solutions, repeating, stars, comet_needed
        if depth == shortest:
            sequences += 1
            if search.solved(cells):
                solutions += 1
                repeating += len(set(turned)) < len(turned)
                stars = set(letters) if stars is None else stars & letters
                comet_needed = comet_needed and search.needs_comet(cells)
            return
        for cell, nxt in search.successors(cells):
            walk(nxt, depth + 1, (*turned, cell), letters | {cells[cell]})

    walk(start, 0, (), frozenset())
    firsts = search.successors(start)
    good = sum(1 for _, nxt in firsts if search.reachable(nxt, rotations - 1))
    return Analysis(
        shortest=shortest,
        sequences=sequences,
        solutions=solutions,
        first_moves=len(firsts),
        good_first_moves=good,
        repeats=repeating == solutions,
        stars=frozenset(stars or ()),
        comet_needed=comet_needed,
    )


def rate(shortest: int, sequences: int, solutions: int, first_moves: int, good_first_moves: int, repeats: bool) -> int:
    """A puzzle's difficulty from 1 to 10, from more than its length.

    - every rotation beyond the first is one more step to plan (0.8 each);
    - ``log2(sequences / solutions)``, the bits a player must find among the
      sequences of that length (0.5 each): one solution in 64 is 6 bits, one in 2
      is 1 bit, so a puzzle with many solutions is easier than one with a single
      solution of the same length;
    - 1 more when only one first rotation can lead to a solution (from two
      first rotations on, the opening is not a single guess);
    - 1 more when every shortest solution turns one star twice.
    """
    bits = math.log2(sequences / max(1, solutions))
    score = 0.8 * (shortest - 1) + 0.5 * bits + (1.0 if good_first_moves == 1 < first_moves else 0.0) + (1.0 if repeats else 0.0)
    return max(1, min(10, 1 + round(score)))


def grade(rating: int) -> str:
    """The word for a rating: easy (1-2), medium (3-4), hard (5-6), expert (7-8), master (9-10)."""
    for top, word in GRADES:
        if rating <= top:
            return word
    return GRADES[-1][1]


def puzzle_options(board: str, target: Card, rotations: int) -> dict[str, Any]:
    """The new_game options that set a puzzle up (one player)."""
    return {
        "board": board,
        "deck": [str(target)],
        "hand_size": 1,
        "max_rounds": rotations,
        "solo_target": 1,
    }


Count = Annotated[int, Field(ge=0, le=10**9)]


class PackEntry(DataModel):
    """One ``[[pack]]`` entry: a named set of puzzles, its grade (packs are played in rising grade) and its purpose."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    grade: Annotated[int, Field(ge=1, le=MAX_PACKS)]
    about: Annotated[str, Field(min_length=1, max_length=200)]


class PuzzleEntry(DataModel):
    """One ``[[puzzle]]`` entry: a board, a target card, the rotations allowed, the proved shortest and its rating."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    board: Annotated[str, Field(max_length=MAX_BOARD_CHARS)]
    target: Annotated[str, Field(max_length=40)]
    rotations: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
    shortest: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]
    difficulty: Annotated[str, Field(max_length=80)] = ""
    pack: Annotated[str, Field(max_length=40)] = ""
    rating: Annotated[int, Field(ge=1, le=10)] | None = None
    sequences: Count | None = None
    solutions: Count | None = None
    first_moves: Count | None = None
    good_first_moves: Count | None = None
    repeats: bool | None = None

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
        counts = (self.sequences, self.solutions, self.first_moves, self.good_first_moves, self.repeats)
        if self.rating is not None and None in counts:
            raise ValueError("a rating needs the counts it is made of: sequences, solutions, first_moves, good_first_moves, repeats")
        if self.solutions is not None and self.sequences is not None and not 1 <= self.solutions <= self.sequences:
            raise ValueError(f"needs 1 <= solutions ({self.solutions}) <= sequences ({self.sequences})")
        if self.good_first_moves is not None and self.first_moves is not None and not 1 <= self.good_first_moves <= self.first_moves:
            raise ValueError(f"needs 1 <= good_first_moves ({self.good_first_moves}) <= first_moves ({self.first_moves})")
        return self


class PuzzleFile(DataModel):
    """A puzzle file (``puzzles.toml``): an ``about`` line, the ``[[pack]]`` list (optional) and the ``[[puzzle]]`` list."""

    about: Annotated[str, Field(max_length=1000)] = ""
    pack: Annotated[list[PackEntry], Field(max_length=MAX_PACKS)] = []
    puzzle: Annotated[list[PuzzleEntry], Field(min_length=1, max_length=MAX_PUZZLES)]


def colour_words(colours: str) -> str:
    """``ryw`` as ``red, yellow, white``."""
    return ", ".join(COLOUR_NAMES.get(c, c) for c in colours)


def _rating_text(entry: PuzzleEntry) -> str:
    """The rating and what it is made of, in words, or "" for an unrated puzzle."""
    if entry.rating is None:
        return ""
    assert entry.sequences is not None and entry.solutions is not None
    assert entry.first_moves is not None and entry.good_first_moves is not None
    n = entry.shortest
    rotations = "rotation" if n == 1 else f"{n} rotations"
    sequences = f"{entry.solutions} of the {entry.sequences} {'rotations' if n == 1 else 'sequences of ' + rotations} solve it"
    if entry.solutions == 1:
        sequences = f"1 of the {entry.sequences} {'rotations' if n == 1 else 'sequences of ' + rotations} solves it"
    text = f"difficulty {entry.rating}/10 ({grade(entry.rating)}): {sequences}"
    if n > 1:
        firsts = f"{entry.good_first_moves} of the {entry.first_moves} first rotations can lead to a solution"
        text += f"; {firsts}"
    if entry.repeats:
        text += "; every solution turns one star twice"
    return text


def _puzzles_from(label: str, data: Any) -> list[Puzzle]:
    parsed = validate(PuzzleFile, data, file=label)
    packs = {p.name: p for p in parsed.pack}
    if len(packs) < len(parsed.pack):
        names = [p.name for p in parsed.pack]
        twice = next(n for n in names if names.count(n) > 1)
        raise DataError(label, f"pack.#{names.index(twice, names.index(twice) + 1) + 1}.name", f"the pack {twice!r} is declared twice")
    puzzles = []
    for k, entry in enumerate(parsed.puzzle):
        if entry.pack and entry.pack not in packs:
            known = ", ".join(repr(name) for name in packs) or "none"
            raise DataError(label, f"puzzle.#{k + 1}.pack", f"{entry.pack!r} is not a declared [[pack]] (packs: {known})")
        target = Card.parse(entry.target)
        rated = _rating_text(entry)
        n = entry.shortest
        goal = (
            f"make the constellation {target.colours} ({colour_words(target.colours)}) seen from a planet within "
            f"{entry.rotations} rotation{'s' if entry.rotations != 1 else ''}; it can be done in {n}"
        )
        if entry.rating is not None:
            goal += f"; difficulty {entry.rating}/10"
        difficulty = entry.difficulty or (f"{entry.rating}/10 {grade(entry.rating)}" if entry.rating is not None else "")
        pack = packs.get(entry.pack)
        header = [f"Goal: {goal}."]
        if pack is not None:
            header.append(f"Pack {pack.grade}, {pack.name}. {pack.about[0].upper()}{pack.about[1:]}.")
        if rated:
            header.append(rated[0].upper() + rated[1:] + ".")
        header.append(f"Then play {target} to score it. Each rotation is one move.")
        puzzles.append(
            Puzzle(
                number=k + 1,
                name=entry.name,
                goal=goal,
                options=puzzle_options(entry.board, target, entry.rotations),
                moves=entry.rotations,
                shortest=n,
                difficulty=difficulty,
                extra={
                    "target": str(target),
                    "rotations": entry.rotations,
                    "shortest_rotations": n,
                    "pack": entry.pack,
                    "pack_grade": pack.grade if pack is not None else 0,
                    "rating": entry.rating,
                    "sequences": entry.sequences,
                    "solutions": entry.solutions,
                    "first_moves": entry.first_moves,
                    "good_first_moves": entry.good_first_moves,
                    "repeats": entry.repeats,
                    "header": tuple(header),
                },
            )
        )
    return puzzles


@lru_cache(maxsize=1)
def _shipped() -> tuple[Puzzle, ...]:
    label, data = read_data(__package__, "puzzles.toml")
    return tuple(_puzzles_from(label, data))


def shipped_puzzles() -> list[Puzzle]:
    """The puzzles shipped with the game (puzzles.toml): pack by pack, easiest pack first, each pack easiest first."""
    return list(_shipped())


def load_puzzle_file(path: str | Path) -> list[Puzzle]:
    """A designer's own puzzle file (same format); errors name the file and the puzzle."""
    label, data = read_data_file(path)
    return _puzzles_from(label, data)


def puzzle_header(puzzle: Puzzle) -> list[str]:
    """The lines a front end shows above a puzzle: the goal, its pack, its difficulty and why, and what a move is."""
    header = puzzle.extra.get("header")
    if isinstance(header, tuple | list) and header:
        return [str(line) for line in header]
    return [f"Goal: {puzzle.goal}."]


def packs(puzzles: list[Puzzle] | None = None) -> list[tuple[int, str, list[int]]]:
    """The packs as (grade, name, puzzle numbers), easiest first; puzzles without a pack are left out."""
    found: dict[str, tuple[int, list[int]]] = {}
    for puzzle in shipped_puzzles() if puzzles is None else puzzles:
        name = puzzle.extra.get("pack") or ""
        if name:
            found.setdefault(name, (int(puzzle.extra.get("pack_grade") or 0), []))[1].append(puzzle.number)
    return sorted((g, name, numbers) for name, (g, numbers) in found.items())


def puzzle_of_the_day(day: date, puzzles: list[Puzzle] | None = None) -> Puzzle:
    """The puzzle for a date: the same all day for everyone, harder as the week goes on.

    Monday to Friday draw from the packs in rising grade (Monday the easiest
    pack, Friday the hardest); Saturday and Sunday from every puzzle. Within
    the pool the date's own hash chooses, so no clock or state is kept.
    """
    pool = list(shipped_puzzles() if puzzles is None else puzzles)
    if not pool:
        raise ValueError("there are no puzzles to choose from")
    graded = packs(pool)
    weekday = day.weekday()
    if graded and weekday < 5:
        _, _, numbers = graded[min(weekday * len(graded) // 5, len(graded) - 1)]
        pool = [p for p in pool if p.number in numbers]
    digest = hashlib.sha256(f"constellations puzzle of {day.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def is_solved(puzzle: Puzzle, state: Any) -> bool:
    """Solved once the target constellation is on the board (or its card has been played)."""
    target = puzzle.extra["target"]
    if any(card == target and found >= 1 for _, card, found, _ in state.played):
        return True
    return bool(state.found(Card.parse(target)) > 0)
