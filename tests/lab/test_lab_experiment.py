"""Experiment files: the schema, errors naming file and key, levels and options resolved."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_helpers import write_experiment

from astrarium.core.errors import DataError
from astrarium.core.registry import get_game
from astrarium.lab import build_experiment, load_experiment

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_experiment_loads() -> None:
    experiment = load_experiment(ROOT / "experiments" / "celestials" / "mirror.toml")
    assert experiment.game == "celestials"
    assert experiment.lineup == ("greedy", "greedy")
    assert experiment.rotate and experiment.games == 200 and experiment.seed == 0
    assert experiment.options["turn_limit"] == 30
    assert experiment.command().startswith("astrarium lab run ") and "mirror.toml --games 200" in experiment.command()


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ('game = "celestials"\nseats = ["random", "random"]\nspeed = 3\n', "speed", "Extra inputs"),
        ('game = "celestials"\n', "seats", "Field required"),
        ('game = "celestials"\nseats = ["random", "random"]\ngames = 0\n', "games", "greater than or equal to 1"),
        ('game = "celestials"\nseats = ["random", "random"]\ngames = "ten"\n', "games", "integer"),
        ('game = "chess"\nseats = ["random", "random"]\n', "game", "chess"),
        ('game = "celestials"\nseats = ["random"]\n', "seats", "player"),
        ('game = "celestials"\nseats = ["random", "random"]\nplayers = 3\n', "seats", "2 seat(s) named for 3 players"),
        ('game = "celestials"\nseats = ["random", "wizard"]\n', "seats", "wizard"),
        ('game = "celestials"\nseats = ["random", "random"]\n[options]\nturn_limit = 0\n', "options", "turn_limit"),
        ('game = "celestials"\nseats = ["random", "random"]\n[options]\ncolour = "red"\n', "options", "colour"),
        ('game = "celestials"\nseats = ["random", "random"\n', "", "TOML"),
    ],
)
def test_a_bad_experiment_names_the_file_and_the_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    path = write_experiment(tmp_path, text)
    with pytest.raises(DataError) as caught:
        load_experiment(path)
    message = str(caught.value)
    assert message.startswith(str(path)) or "exp.toml" in message
    assert key in message and words.lower() in message.lower()


def test_levels_become_the_players_they_name_and_options_are_resolved(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, 'game = "celestials"\nseats = ["easy", "random"]\n[options]\nturn_limit = 7\n')
    experiment = load_experiment(path)
    assert experiment.lineup[0] != "easy" and experiment.lineup[1] == "random"
    assert experiment.options["turn_limit"] == 7 and "health" in experiment.options
    assert experiment.given_options == {"turn_limit": 7}


def test_a_level_is_measured_by_its_iteration_budget_without_its_wall_clock_cap(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, 'game = "orbital-combat"\nseats = ["hard", "medium"]\n')
    hard, medium = load_experiment(path).lineup
    at_table = get_game("orbital-combat").parts.levels
    assert "seconds=" in at_table["hard"] and "seconds=" in at_table["medium"]
    assert "seconds=" not in hard and "seconds=" not in medium
    assert hard == at_table["hard"].replace(",seconds=2", "") and "iterations=" in medium


def test_seats_rotate_by_default_and_stay_in_place_when_asked() -> None:
    rotated = build_experiment("celestials", ["greedy", "random"], games=4).plan()
    assert [m.seats for m in rotated] == [("greedy", "random"), ("random", "greedy")] * 2
    assert [m.seed for m in rotated] == [0, 1, 2, 3]
    fixed = build_experiment("celestials", ["greedy", "random"], games=3, seed=10, rotate=False).plan()
    assert [m.seats for m in fixed] == [("greedy", "random")] * 3
    assert [m.entries for m in fixed] == [(0, 1)] * 3
    assert [m.seed for m in fixed] == [10, 11, 12]


def test_the_inline_command_names_everything_that_makes_the_results() -> None:
    experiment = build_experiment("celestials", ["greedy", "random"], games=5, seed=3, options={"turn_limit": 5}, rotate=False)
    assert experiment.name == "inline"
    assert experiment.command("out") == (
        "astrarium lab run --game celestials --seat=0=greedy --seat=1=random --option=turn_limit=5 --games 5 --seed 3 --no-rotate --out out"
    )
