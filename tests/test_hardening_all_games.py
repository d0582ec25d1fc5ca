"""Every game's options from a stranger: any text, any JSON value, only the project's own errors.

The per-game hardening tests cover each game's actions and data files; this
one holds every option of every game to the same rule, so an option added
later cannot forget it.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import AstrariumError
from helpers import examples

GAMES = [g for g in astrarium.list_games() if g != "toy-pile"]
TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["²", "٣", "nan", "inf", "-1", "9" * 5000, "[" * 500, "/dev/zero", "/dev/urandom", "\x00", "{}", "[]", "true"]),
)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=12,
)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_option_text_starts_a_game_or_is_a_clear_error(game_id: str, data) -> None:
    game = astrarium.get_game(game_id)
    option = data.draw(st.sampled_from(game.options))
    text = data.draw(TEXT)
    try:
        value = option.parse(text)
        game.new_game(max(2, game.min_players) if game.max_players >= 2 else 1, 1, {option.name: value})
    except AstrariumError as exc:
        assert len(str(exc)) < 2000


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_option_value_starts_a_game_or_is_a_clear_error(game_id: str, data) -> None:
    game = astrarium.get_game(game_id)
    option = data.draw(st.sampled_from(game.options))
    value = data.draw(VALUES)
    try:
        game.new_game(max(2, game.min_players) if game.max_players >= 2 else 1, 1, {option.name: value})
    except AstrariumError as exc:
        assert len(str(exc)) < 2000
