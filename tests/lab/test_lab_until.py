"""Stopping rules: the questions ``until`` reads, the confidence sequence on simulated coin flips, a run that stops."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from astrarium import lab
from astrarium.core.errors import DataError
from astrarium.lab.sequential import ConfidenceSequence, Question, parse_until

#: Simulated runs per case.
RUNS = 1000


def simulate(question: Question, p: float, seed: int, most: int) -> list[bool | None]:
    """The verdict of RUNS runs of coin flips with success ``p`` (None: not answered within ``most`` flips)."""
    rand = random.Random(seed)
    verdicts = []
    for _ in range(RUNS):
        sequence, verdict = ConfidenceSequence(), None
        for _ in range(most):
            sequence.add(1.0 if rand.random() < p else 0.0)
            verdict = question.verdict(sequence.low, sequence.high)
            if verdict is not None:
                break
        verdicts.append(verdict)
    return verdicts


def test_a_fair_coin_is_declared_outside_045_055_at_most_5_percent_of_the_time() -> None:
    verdicts = simulate(parse_until("seat 0 score in 0.45..0.55", 2), 0.5, seed=1, most=1500)
    assert verdicts.count(False) / RUNS <= 0.05
    assert verdicts.count(True) / RUNS >= 0.6  # most runs answer "inside" within 1,500 games (the median run takes about 1,200)


def test_a_coin_of_06_is_declared_b_beats_a_and_never_the_other_way() -> None:
    verdicts = simulate(parse_until("B beats A", 2), 0.6, seed=2, most=1500)
    assert verdicts.count(False) / RUNS <= 0.05 and verdicts.count(True) / RUNS >= 0.95


def test_a_fair_coin_is_wrongly_declared_above_a_half_at_most_5_percent_of_the_time() -> None:
    verdicts = simulate(parse_until("seat 0 score > 0.5", 2), 0.5, seed=3, most=1000)  # true answer: no; "yes" is the error
    assert verdicts.count(True) / RUNS <= 0.05


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("seat 0 score in 0.45..0.55", 0.45, 0.55), ("decided >= 0.8", 0.8, 1.0), ("player A score < 0.4", 0.0, 0.4), ("B beats A", 0.5, 1.0)],
)
def test_until_reads_the_region_asked_about(text: str, low: float, high: float) -> None:
    question = parse_until(text, 2)
    assert (question.low, question.high) == (low, high)


@pytest.mark.parametrize("text", ["seat 2 score > 0.5", "C beats A", "seat 0 score in 0.6..0.4", "who wins"])
def test_until_refuses_what_it_cannot_answer(text: str) -> None:
    with pytest.raises(ValueError, match="until"):
        parse_until(text, 2)


def test_a_run_stops_once_answered_and_says_after_how_many_games(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["random", "greedy"], games=400, options={"round_limit": 5}, until="B beats A")
    results = lab.run(experiment, out=tmp_path / "r", batch=8)
    answer = results.answer
    assert answer is not None and answer.verdict is True and answer.games < 400
    assert answer.games <= results.table.num_rows < 400
    assert "yes, answered after" in answer.text() and "--until 'B beats A'" in results.command
    again = lab.run(experiment, out=tmp_path / "r")  # the folder already answers it: nothing more is played
    assert again.table.num_rows == results.table.num_rows and again.answer is not None and again.answer.games == answer.games


def test_an_experiment_file_may_ask_until_and_a_bad_question_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text('game = "orbital-combat"\nseats = ["random", "random"]\nuntil = "seat 0 score in 0.4..0.6"\n', encoding="utf-8")
    assert lab.load_experiment(path).until == "seat 0 score in 0.4..0.6"
    path.write_text('game = "orbital-combat"\nseats = ["random", "random"]\nuntil = "seat 5 wins > 0.5"\n', encoding="utf-8")
    with pytest.raises(DataError, match="until"):
        lab.load_experiment(path)
