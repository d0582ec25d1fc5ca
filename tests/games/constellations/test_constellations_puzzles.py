"""Puzzles: shipped data, proved by the breadth-first solver, playable through the puzzle hooks."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import astrarium
from astrarium.cli.session import play_puzzle
from astrarium.core import DataError
from astrarium.games.constellations import puzzlegen
from astrarium.games.constellations.puzzles import load_puzzle_file, solve

GAME = astrarium.get_game("constellations")
PUZZLES = GAME.puzzles()
PACKAGE = Path(puzzlegen.__file__).parent


def test_at_least_20_puzzles_each_within_its_budget() -> None:
    puzzles = astrarium.get_game("constellations").puzzles()
    assert len(puzzles) >= 20
    assert all(p.shortest <= p.moves for p in puzzles)
    assert [p.number for p in puzzles] == list(range(1, len(puzzles) + 1))


def test_puzzles_are_ordered_by_difficulty() -> None:
    lengths = [p.extra["shortest_rotations"] for p in PUZZLES]
    assert lengths == sorted(lengths)
    assert lengths[0] == 1 and lengths[-1] >= 6


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.number}-{p.name}")
def test_solver_proves_each_recorded_shortest_length(puzzle) -> None:
    target = puzzle.extra["target"].partition("/")[0]
    shortest = puzzle.extra["shortest_rotations"]
    # Not solvable in fewer rotations...
    assert solve(puzzle.options["board"], target, max_rotations=shortest - 1) is None
    # ...and solvable in exactly that many; the solution, played in the game, solves the puzzle.
    path = solve(puzzle.options["board"], target, max_rotations=shortest)
    assert path is not None and len(path) == shortest == puzzle.shortest - 1
    state = GAME.new_game(1, 0, dict(puzzle.options))
    assert not GAME.puzzle_solved(puzzle, state)
    for action in path:
        assert not GAME.puzzle_solved(puzzle, state)
        state.apply(action)
    state.apply(f"play {puzzle.extra['target']}")
    assert GAME.puzzle_solved(puzzle, state)
    assert state.move_number == puzzle.shortest <= puzzle.moves


def test_running_out_of_rotations_ends_the_puzzle_unsolved() -> None:
    puzzle = PUZZLES[-1]
    state = GAME.new_game(1, 0, dict(puzzle.options))
    while not state.is_over:
        legal = state.legal_actions()
        # Avoid playing the target even if a rotation happens to make it.
        state.apply(legal[-1] if str(legal[-1]) == "end" else legal[0])
    assert state.move_number <= puzzle.moves
    assert not GAME.puzzle_solved(puzzle, state)
    assert f"{puzzle.extra['rotations']} rounds" in state.outcome.reason


def test_cli_puzzle_loop_reports_solved() -> None:
    puzzle = PUZZLES[3]
    path = solve(puzzle.options["board"], puzzle.extra["target"].partition("/")[0])
    script = iter([str(a) for a in path] + [f"play {puzzle.extra['target']}"])
    out = io.StringIO()
    assert play_puzzle(GAME, puzzle, Console(file=out, width=120), lambda prompt: next(script))
    assert "Solved in" in out.getvalue()


def test_puzzlegen_reproduces_the_shipped_file() -> None:
    text = puzzlegen.puzzles_toml(puzzlegen.generate(puzzlegen.PER_DEPTH))
    assert text == (PACKAGE / "puzzles.toml").read_text(encoding="utf-8")


BAD_PUZZLES = [
    ('[[puzzle]]\nname = "A"\nboard = "PG\\nY"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.board", "row 2"),
    ('[[puzzle]]\nname = "B"\nboard = "PX"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.board", "'X'"),
    ('[[puzzle]]\nname = "C"\nboard = "PG"\ntarget = "q/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.target", "colour"),
    ('[[puzzle]]\nname = "D"\nboard = "PG"\ntarget = "g/1"\nrotations = 1\nshortest = 3\n', "puzzle.#1", "shortest"),
    ('[[puzzle]]\nname = "E"\nboard = "PG"\ntarget = "g/1"\nshortest = 1\n', "puzzle.#1.rotations", "required"),
    ('[[puzzle]]\nname = "F"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\nmoves = 4\n', "puzzle.#1.moves", "not permitted"),
]


@pytest.mark.parametrize("text,entry,problem", BAD_PUZZLES)
def test_bad_puzzle_file_names_the_file_and_the_puzzle(tmp_path: Path, text: str, entry: str, problem: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_puzzle_file(path)
    message = str(err.value)
    assert str(path) in message and entry in message and problem in message
