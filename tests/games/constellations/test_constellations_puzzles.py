"""Puzzles: graded packs of shipped data, proved and rated by the solver, playable through the puzzle hooks."""

from __future__ import annotations

import io
import math
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import astrarium
from astrarium.cli.puzzles import play_puzzle
from astrarium.core import DataError
from astrarium.games import constellations
from astrarium.games.constellations.puzzles import (
    analyse,
    grade,
    load_puzzle_file,
    packs,
    puzzle_header,
    puzzle_of_the_day,
    rate,
    solve,
)
from helpers import load_script

GAME = astrarium.get_game("constellations")
PUZZLES = GAME.puzzles()
PACKAGE = Path(constellations.__file__).parent
puzzlegen = load_script("constellations_puzzlegen")  # the generator that made puzzles.toml


def target_colours(puzzle) -> str:
    return puzzle.extra["target"].partition("/")[0]


# -- the set as a whole ------------------------------------------------------------------------------------


def test_at_least_60_puzzles_in_graded_packs() -> None:
    assert len(PUZZLES) >= 60
    assert [p.number for p in PUZZLES] == list(range(1, len(PUZZLES) + 1))
    graded = packs()
    assert len(graded) >= 5
    assert [g for g, _, _ in graded] == sorted(g for g, _, _ in graded)
    # Every puzzle is in a pack, and the packs follow one another in the file, easiest pack first.
    numbers = [n for _, _, ns in graded for n in ns]
    assert numbers == [p.number for p in PUZZLES]


def test_each_pack_rises_in_rating_and_the_packs_rise_on_average() -> None:
    means = []
    for _, _, numbers in packs():
        ratings = [PUZZLES[n - 1].extra["rating"] for n in numbers]
        assert ratings == sorted(ratings)
        means.append(sum(ratings) / len(ratings))
    assert means == sorted(means)
    assert PUZZLES[0].extra["rating"] <= 2 and PUZZLES[-1].extra["rating"] >= 9


def test_every_object_appears_black_holes_and_comets_included() -> None:
    boards = [p.options["board"] for p in PUZZLES]
    assert set("PGYRNBC") <= set("".join(boards))
    assert sum("B" in b for b in boards) >= 12
    assert sum("C" in b for b in boards) >= 12


def test_targets_have_2_to_5_colours_and_green_is_not_everywhere() -> None:
    lengths = [len(target_colours(p)) for p in PUZZLES]
    assert set(lengths) == {2, 3, 4, 5}
    assert sum(n == 5 for n in lengths) >= 3
    assert sum("g" in target_colours(p) for p in PUZZLES) <= 0.3 * len(PUZZLES)
    assert len({target_colours(p) for p in PUZZLES}) == len(PUZZLES)


def test_difficulty_is_rated_by_more_than_length() -> None:
    by_length: dict[int, set[int]] = {}
    for p in PUZZLES:
        by_length.setdefault(p.extra["shortest_rotations"], set()).add(p.extra["rating"])
    # Puzzles of one length get different ratings (solutions, first moves, repeated stars decide).
    assert any(len(ratings) >= 3 for ratings in by_length.values())
    assert any(p.extra["repeats"] for p in PUZZLES)
    assert sum(p.extra["repeats"] for p in PUZZLES) <= len(PUZZLES) // 4


# -- each puzzle proved ------------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.number}-{p.name}")
def test_solver_proves_each_recorded_shortest_length(puzzle) -> None:
    target = target_colours(puzzle)
    shortest = puzzle.extra["shortest_rotations"]
    # Not solvable in fewer rotations...
    assert solve(puzzle.options["board"], target, max_rotations=shortest - 1) is None
    # ...and solvable in exactly that many; the solution, played in the game, solves the puzzle on its last rotation.
    path = solve(puzzle.options["board"], target, max_rotations=shortest)
    assert path is not None and len(path) == shortest == puzzle.shortest <= puzzle.moves == puzzle.extra["rotations"]
    state = GAME.new_game(1, 0, dict(puzzle.options))
    for action in path:
        assert not GAME.puzzle_solved(puzzle, state)
        state.apply(action)
    assert GAME.puzzle_solved(puzzle, state)
    assert state.move_number == puzzle.shortest
    state.apply(f"play {puzzle.extra['target']}")
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert state.outcome.reason == f"{puzzle.extra['target']} was made and played: solved"


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.number}-{p.name}")
def test_every_stored_count_and_rating_is_proved_again(puzzle) -> None:
    extra = puzzle.extra
    proof = analyse(puzzle.options["board"], target_colours(puzzle), extra["rotations"])
    assert proof is not None
    assert proof.shortest == extra["shortest_rotations"]
    assert (proof.sequences, proof.solutions) == (extra["sequences"], extra["solutions"])
    assert (proof.first_moves, proof.good_first_moves) == (extra["first_moves"], extra["good_first_moves"])
    assert proof.repeats == extra["repeats"]
    assert (
        rate(proof.shortest, proof.sequences, proof.solutions, proof.first_moves, proof.good_first_moves, proof.repeats) == extra["rating"]
    )
    # What each pack is about is used: the comet pack's comets, the black holes and neutron stars turned or asked for.
    pack = extra["pack"]
    if pack == "Comet Trails":
        assert proof.comet_needed
    if pack in ("White Fire", "Event Horizon"):
        star = "N" if pack == "White Fire" else "B"
        assert star in proof.stars or {"N": "w", "B": "k"}[star] in target_colours(puzzle)


def count_by_playing(puzzle) -> tuple[int, int, int, int]:
    """(sequences, solutions, first moves, good first moves) by playing every rotation sequence through the game."""
    shortest, budget = puzzle.extra["shortest_rotations"], puzzle.extra["rotations"]
    colours = target_colours(puzzle)

    def paths(state, depth: int) -> tuple[int, int]:
        if depth == 0:
            return 1, int(state.found(colours) > 0)
        total = solved = 0
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            t, s = paths(after, depth - 1)
            total, solved = total + t, solved + s
        return total, solved

    def can_solve(state, budget: int) -> bool:
        if state.found(colours) > 0:
            return True
        if budget == 0 or state.is_over:
            return False
        return any(can_solve(after, budget - 1) for after in successors(state))

    def successors(state):
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            yield after

    start = GAME.new_game(1, 0, {**puzzle.options, "max_rounds": 100})
    sequences, solutions = paths(start, shortest)
    firsts = list(successors(start))
    return sequences, solutions, len(firsts), sum(can_solve(s, budget - 1) for s in firsts)


@pytest.mark.parametrize("number", [1, 5, 13, 20, 25, 30])
def test_the_counts_agree_with_playing_every_sequence_through_the_game(number: int) -> None:
    puzzle = PUZZLES[number - 1]
    extra = puzzle.extra
    assert extra["shortest_rotations"] <= 3
    assert count_by_playing(puzzle) == (extra["sequences"], extra["solutions"], extra["first_moves"], extra["good_first_moves"])


def test_a_comet_is_needed_exactly_when_the_target_cannot_be_made_without_it() -> None:
    board_colours = {"P": "b", "G": "g", "Y": "y", "R": "r", "N": "w", "B": "k"}
    comets = [p for p in PUZZLES if set(target_colours(p)) - {board_colours[o] for o in p.options["board"] if o in board_colours}]
    assert comets, "some comet puzzle asks for a colour no object on its board has"
    for puzzle in comets[:3]:
        proof = analyse(puzzle.options["board"], target_colours(puzzle), puzzle.extra["rotations"])
        assert proof is not None and proof.comet_needed
    plain = next(p for p in PUZZLES if "C" not in p.options["board"])
    proof = analyse(plain.options["board"], target_colours(plain), plain.extra["rotations"])
    assert proof is not None and not proof.comet_needed


# -- rating and words --------------------------------------------------------------------------------------


def test_rating_rises_with_length_rarer_solutions_a_single_opening_and_a_repeated_star() -> None:
    base = rate(2, 16, 4, 4, 2, False)
    assert rate(3, 64, 4, 4, 2, False) > base  # longer
    assert rate(2, 16, 1, 4, 2, False) > base  # one solution instead of four
    assert rate(2, 16, 4, 4, 1, False) > base  # a single first rotation can lead to a solution
    assert rate(2, 16, 4, 4, 2, True) > base  # every solution turns one star twice
    assert rate(1, 2, 2, 2, 2, False) == 1 and rate(8, 4**8, 1, 4, 1, True) == 10


@given(
    st.integers(1, 8),
    st.integers(1, 10**6),
    st.integers(1, 10**6),
    st.integers(1, 9),
    st.integers(1, 9),
    st.booleans(),
)
def test_rating_stays_within_1_to_10(shortest: int, sequences: int, solutions: int, firsts: int, good: int, repeats: bool) -> None:
    rating = rate(shortest, max(sequences, solutions), min(sequences, solutions), max(firsts, good), min(firsts, good), repeats)
    assert 1 <= rating <= 10
    assert grade(rating) in ("easy", "medium", "hard", "expert", "master")


def test_the_header_shows_goal_pack_and_difficulty_in_one_unit() -> None:
    for puzzle in (PUZZLES[0], PUZZLES[-1]):
        header = puzzle_header(puzzle)
        text = "\n".join(header)
        assert header[0].startswith("Goal: make the constellation")
        assert f"within {puzzle.moves} rotation" in text and f"it can be done in {puzzle.shortest}" in text
        assert f"difficulty {puzzle.extra['rating']}/10 ({grade(puzzle.extra['rating'])})" in text.lower()
        assert f"of the {puzzle.extra['sequences']}" in text
        assert puzzle.extra["pack"] in text
        assert "move" not in header[0]  # the budget is told in rotations only
        assert f"{puzzle.extra['rating']}/10" in puzzle.goal and puzzle.difficulty.startswith(f"{puzzle.extra['rating']}/10")


def test_the_header_says_solves_for_a_single_solution() -> None:
    single = next(p for p in PUZZLES if p.extra["solutions"] == 1)
    assert f"1 of the {single.extra['sequences']}" in "\n".join(puzzle_header(single))
    assert " solves it" in "\n".join(puzzle_header(single))


# -- puzzle of the day -------------------------------------------------------------------------------------


def test_the_puzzle_of_the_day_is_the_same_all_day_and_harder_as_the_week_goes_on() -> None:
    monday = date(2026, 11, 23)
    assert monday.weekday() == 0
    graded = packs()
    for week in range(8):
        for day in range(7):
            when = monday + timedelta(days=7 * week + day)
            chosen = puzzle_of_the_day(when)
            assert chosen == puzzle_of_the_day(date.fromisoformat(when.isoformat()))
            if day < 5:
                _, _, numbers = graded[day * len(graded) // 5]
                assert chosen.number in numbers
    month = {puzzle_of_the_day(monday + timedelta(days=k)).number for k in range(28)}
    assert len(month) >= 15


def test_the_puzzle_of_the_day_of_unpacked_puzzles_draws_from_all(tmp_path: Path) -> None:
    entry = '[[puzzle]]\nname = "{n}"\nboard = "PGY"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n'
    path = tmp_path / "mine.toml"
    path.write_text("".join(entry.format(n=k) for k in range(5)), encoding="utf-8")
    mine = load_puzzle_file(path)
    assert {puzzle_of_the_day(date(2026, 1, 1) + timedelta(days=k), mine).number for k in range(40)} == {1, 2, 3, 4, 5}
    with pytest.raises(ValueError, match="no puzzles"):
        puzzle_of_the_day(date(2026, 1, 1), [])


# -- playing -----------------------------------------------------------------------------------------------


def test_running_out_of_rotations_ends_the_puzzle_unsolved() -> None:
    puzzle = PUZZLES[-1]
    state = GAME.new_game(1, 0, dict(puzzle.options))
    target = target_colours(puzzle)
    while not state.is_over:
        legal = state.legal_actions()
        # Never play the target, even when a rotation happens to make it.
        state.apply(legal[-1] if str(legal[-1]) == "end" else legal[0])
    assert state.move_number >= puzzle.moves
    played = [card for _, card, _, _ in state.played]
    assert puzzle.extra["target"] not in played
    rounds = puzzle.extra["rotations"]
    assert state.outcome is not None and state.outcome.winners == ()
    assert state.outcome.reason == f"{rounds} round{'s were' if rounds > 1 else ' was'} played without playing {puzzle.extra['target']}"
    assert len(target) >= 4


def test_a_one_round_solo_game_says_round_in_the_singular() -> None:
    state = GAME.new_game(1, 0, {"max_rounds": 1, "board": "PG.\n...\n..Y", "deck": ["kkkk/1", "r/1"], "hand_size": 1})
    state.apply("rot c3")
    assert state.outcome is not None and state.outcome.reason.startswith("1 round was played; 0 points missed")


def test_cli_puzzle_loop_reports_solved_after_the_last_rotation() -> None:
    puzzle = PUZZLES[3]
    path = solve(puzzle.options["board"], target_colours(puzzle))
    assert path is not None
    script = iter([str(a) for a in path])
    out = io.StringIO()
    assert play_puzzle(GAME, puzzle, Console(file=out, width=120), lambda prompt: next(script))
    assert "Solved in" in out.getvalue()


@pytest.mark.slow
def test_puzzlegen_reproduces_the_shipped_file() -> None:
    text = puzzlegen.puzzles_toml(puzzlegen.generate())
    assert text == (PACKAGE / "puzzles.toml").read_text(encoding="utf-8")


def test_the_rating_words_cover_every_band() -> None:
    assert [grade(r) for r in range(1, 11)] == ["easy"] * 2 + ["medium"] * 2 + ["hard"] * 2 + ["expert"] * 2 + ["master"] * 2
    assert math.isclose(math.log2(1024 / 1), 10.0)


# -- bad files ---------------------------------------------------------------------------------------------

PACK = '[[pack]]\nname = "Easy"\ngrade = 1\nabout = "first steps"\n'
RATED = "sequences = 4\nsolutions = 1\nfirst_moves = 2\ngood_first_moves = 1\nrepeats = false\nrating = 3\n"
BAD_PUZZLES = [
    ('[[puzzle]]\nname = "A"\nboard = "PG\\nY"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.board", "row 2"),
    ('[[puzzle]]\nname = "B"\nboard = "PX"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.board", "'X'"),
    ('[[puzzle]]\nname = "C"\nboard = "PG"\ntarget = "q/1"\nrotations = 2\nshortest = 1\n', "puzzle.#1.target", "colour"),
    ('[[puzzle]]\nname = "D"\nboard = "PG"\ntarget = "g/1"\nrotations = 1\nshortest = 3\n', "puzzle.#1", "shortest"),
    ('[[puzzle]]\nname = "E"\nboard = "PG"\ntarget = "g/1"\nshortest = 1\n', "puzzle.#1.rotations", "required"),
    ('[[puzzle]]\nname = "F"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\nmoves = 4\n', "puzzle.#1.moves", "not permitted"),
    (
        PACK + '[[puzzle]]\nname = "G"\npack = "Hard"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n',
        "puzzle.#1.pack",
        "'Hard'",
    ),
    ('[[puzzle]]\nname = "H"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\nrating = 3\n', "puzzle.#1", "counts"),
    (
        '[[puzzle]]\nname = "I"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n'
        + RATED.replace("solutions = 1", "solutions = 9"),
        "puzzle.#1",
        "solutions",
    ),
    (
        '[[puzzle]]\nname = "J"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n' + RATED.replace("rating = 3", "rating = 11"),
        "puzzle.#1.rating",
        "10",
    ),
    (PACK + PACK + '[[puzzle]]\nname = "K"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n', "pack.#2.name", "twice"),
    (
        '[[pack]]\nname = "Easy"\ngrade = 1\n[[puzzle]]\nname = "L"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n',
        "pack.#1.about",
        "required",
    ),
    ('[[puzzle]]\nname = "M"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\nrepeats = "no"\n', "puzzle.#1.repeats", "bool"),
]


@pytest.mark.parametrize("text,entry,problem", BAD_PUZZLES)
def test_bad_puzzle_file_names_the_file_and_the_puzzle(tmp_path: Path, text: str, entry: str, problem: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_puzzle_file(path)
    message = str(err.value)
    assert str(path) in message and entry in message and problem in message


def test_a_rated_designer_puzzle_in_a_pack_loads_with_its_header(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(PACK + '[[puzzle]]\nname = "Mine"\npack = "Easy"\nboard = "PG"\ntarget = "g/1"\nrotations = 2\nshortest = 1\n' + RATED)
    (puzzle,) = load_puzzle_file(path)
    assert puzzle.difficulty == "3/10 medium" and puzzle.extra["pack"] == "Easy"
    assert "Pack 1, Easy. First steps." in puzzle_header(puzzle)


def test_the_game_offers_the_puzzle_of_the_day() -> None:
    day = date(2026, 11, 27)
    assert GAME.puzzle_of_the_day(day) == puzzle_of_the_day(day)
    assert GAME.puzzle_of_the_day(day) in PUZZLES
