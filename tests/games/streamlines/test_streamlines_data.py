"""Scenarios as data: the three built-in ones, a designer's own file, and the errors a bad file gives."""

from __future__ import annotations

import pytest
from streamlines_fixtures import GAME, ONE_EACH, new_game, scenario_text, stacked, write_scenario

from astrarium.core import DataError, OptionError
from astrarium.games.streamlines.board import SCENARIO_NAMES, SIZE, builtin_scenario, square_name

GOOD = scenario_text(["c3", "g7"], ["e5"], ["e5"])


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_scenarios_builtin_load_and_play(name: str) -> None:
    scenario = builtin_scenario(name)
    assert scenario.name == name and scenario.description
    assert set(scenario.required) == {2, 3, 4}
    for players in (2, 3, 4):
        state = GAME.new_game(players, 1, {"scenario": name})
        assert state.view()["required"] == scenario.required[players]
        assert [p["square"] for p in state.view()["planets"]] == [f"{'abcdefghi'[sq % 9]}{sq // 9 + 1}" for sq in scenario.planets]


def distance(a: int, b: int) -> int:
    """Steps up, down, left and right between two squares."""
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


def _farthest_planet(name: str) -> int:
    scenario = builtin_scenario(name)
    return max(distance(planet, escape) for planet in scenario.planets for escape in scenario.escapes)


def test_scenarios_differ_in_difficulty() -> None:
    intro, standard, hard = (builtin_scenario(n) for n in SCENARIO_NAMES)
    assert intro.streamlines and not standard.streamlines and not hard.streamlines
    assert len(intro.planets) < len(standard.planets) < len(hard.planets)
    assert _farthest_planet("standard") < _farthest_planet("hard")
    assert all(intro.required[p] <= standard.required[p] <= hard.required[p] for p in (2, 3, 4))
    assert all(intro.required[p] < hard.required[p] for p in (2, 3))


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_scenarios_refugees_needed_do_not_grow_with_the_player_count(name: str) -> None:
    """Decisions 20: the turns before the collapse are shared among more ships, so more ships never need more."""
    required = builtin_scenario(name).required
    assert required[2] >= required[3] >= required[4]


def test_scenarios_hard_planets_lie_six_moves_from_the_escape() -> None:
    hard = builtin_scenario("hard")
    assert [square_name(sq) for sq in hard.planets] == ["b2", "h2", "b8", "h8"]
    assert {distance(planet, hard.escapes[0]) for planet in hard.planets} == {6}
    assert hard.required == {2: 5, 3: 4, 4: 3} and hard.collapse_cards == 8


def test_scenarios_designer_file_is_used(tmp_path) -> None:
    state = new_game(2, scenario_file=write_scenario(tmp_path, GOOD))
    assert state.view()["scenario"] == "test"
    assert [p["square"] for p in state.view()["planets"]] == ["c3", "g7"]


def test_scenarios_json_file_works(tmp_path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"name": "j", "planets": ["a1"], "escapes": ["i9"], "starts": ["e5"], "required": {"2": 1, "3": 1, "4": 1}}')
    assert new_game(2, scenario_file=str(path)).view()["scenario"] == "j"


@pytest.mark.parametrize(
    "text,where,what",
    [
        (GOOD.replace('"g7"', '"j7"'), "planets.#2", "'j7' is not a square"),
        (GOOD.replace('escapes = ["e5"]', 'escapes = ["c3"]'), "escapes", "both planet and escape"),
        (GOOD.replace('planets = ["c3", "g7"]\n', ""), "planets", "Field required"),
        (GOOD.replace("4 = 3\n", ""), "required.4", "Field required"),
        (GOOD.replace('starts = ["e5"]', 'starts = ["e10"]'), "starts.#1", "not a square"),
        (GOOD + '[[streamlines]]\nsquare = "c3"\narrows = "n"\n', "streamlines.#1.square", "not an empty square"),
        (GOOD + '[[streamlines]]\nsquare = "d4"\narrows = "nesw"\n', "streamlines.#1.arrows", "one to three arrows"),
        (GOOD + '[[streamlines]]\nsquare = "d4"\narrows = "up"\n', "streamlines.#1.arrows", "not a set of arrows"),
        ('colour = "red"\n' + GOOD, "colour", "Extra inputs are not permitted"),
        ("collapse_cards = 3\n" + GOOD, "collapse_cards", "need at least 4"),
        (GOOD.replace('name = "test"', "name = 1"), "name", "valid string"),
    ],
)
def test_scenarios_bad_file_names_the_file_and_the_field(tmp_path, text: str, where: str, what: str) -> None:
    path = write_scenario(tmp_path, text, "bad.toml")
    with pytest.raises(DataError) as err:
        new_game(2, scenario_file=path)
    assert err.value.file == path and err.value.entry == where
    assert what in str(err.value) and "bad.toml" in str(err.value)


def test_scenarios_unreadable_file(tmp_path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        new_game(2, scenario_file=str(tmp_path / "missing.toml"))
    with pytest.raises(DataError, match="syntax"):
        new_game(2, scenario_file=write_scenario(tmp_path, "name = = 1"))


@pytest.mark.parametrize(
    "options,name",
    [
        ({"scenario": "impossible"}, "scenario"),
        ({"collapse_cards": 4, "scenario": "hard"}, "collapse_cards"),
        ({"refugee_cards": 2}, "refugee_cards"),
        ({"action_cards": 2}, "action_cards"),
        ({"cargo_cards": 2}, "cargo_cards"),
        ({"gate_pairs": 5}, "gate_pairs"),
        ({"deck": ["action", "cargo", "warp-drive"]}, "deck"),
        ({"deck": ["refugee"] * 8}, "deck"),
        ({"deck": stacked([ONE_EACH, ["cargo", "pickup", "engineering", "cargo"]], [])}, "deck"),
        ({"deck": stacked([ONE_EACH, ONE_EACH], ["gate-a"])}, "deck"),
        ({"deck": stacked([ONE_EACH, ONE_EACH], [], refugees=0)}, "deck"),
    ],
)
def test_options_bad_values_name_the_option(options: dict, name: str) -> None:
    with pytest.raises(OptionError, match=f"option '{name}'"):
        GAME.new_game(3, 0, options)


def test_options_required_overrides_the_scenario() -> None:
    assert GAME.new_game(2, 0, {"required": 9}).view()["required"] == 9
