"""The game's own rules, one test a rule (the conformance suite checks the rest: test_conformance.py)."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import DataError, IllegalAction
from astrarium.core.data import validate
from astrarium.starter.template.layouts import LayoutFile, load_layouts

GAME_ID = "starter-game"


def test_the_game_is_installed_and_its_layouts_load() -> None:
    game = astrarium.get_game(GAME_ID)
    assert game.default_options()["layout"] in load_layouts()


def test_a_turn_takes_stars_from_one_pile_and_passes_on() -> None:
    state = astrarium.get_game(GAME_ID).new_game(2, seed=1)
    state.apply("take 2 b")
    assert state.view()["piles"] == [3, 2, 5]
    assert state.current_player == 1


def test_taking_more_than_the_limit_or_than_the_pile_holds_is_refused() -> None:
    state = astrarium.get_game(GAME_ID).new_game(2, seed=1)
    with pytest.raises(IllegalAction, match="1 to 3"):
        state.apply("take 4 c")
    with pytest.raises(IllegalAction, match="no pile"):
        state.apply("take 1 z")


def test_whoever_takes_the_last_star_wins() -> None:
    state = astrarium.get_game(GAME_ID).new_game(2, seed=1, options={"layout": "single"})
    for notation in ["take 3 a"] * 5:
        state.apply(notation)
    assert state.is_over and state.outcome is not None and state.outcome.winners == (0,)


def test_a_wrong_layout_names_the_file_and_the_layout() -> None:
    with pytest.raises(DataError, match=r"layouts.toml.*wide.*max_take"):
        validate(LayoutFile, {"layouts": {"wide": {"piles": [3], "max_take": 0}}}, file="layouts.toml", entry="layout 'wide'")
