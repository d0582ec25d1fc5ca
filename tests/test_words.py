"""Every game's words (``Game.describe``) hold up on views that are damaged or from elsewhere.

The per-game tests check exact lines; this one proves for every game at once
that describing never raises, whatever keys a view lacks or holds with the
wrong type, and always gives at least one line.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng

GAMES = [g for g in astrarium.list_games() if g != "toy-pile"]
ODD_VALUES = st.sampled_from([None, 0, -1, "x", [], {}, [None], {"a": 1}, True, 2.5])


def damaged(value: Any, data: st.DataObject, depth: int = 0) -> Any:
    """``value`` with some keys dropped and some values replaced by values of the wrong type."""
    if depth > 2:
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            what = data.draw(st.sampled_from(["keep", "keep", "inside", "drop", "odd"]))
            if what == "odd":
                out[key] = data.draw(ODD_VALUES)
            elif what != "drop":
                out[key] = damaged(item, data, depth + 1) if what == "inside" else item
        return out
    if isinstance(value, list) and value and isinstance(value[0], dict | list):
        return [damaged(item, data, depth + 1) for item in value]
    return value


#: Damaged views a game in the quick suite, and in the slow suite.
QUICK_EXAMPLES, FULL_EXAMPLES = 15, 60


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=QUICK_EXAMPLES)
@given(seed=st.integers(0, 1_000), steps=st.integers(0, 60), data=st.data())
def test_damaged_views_fall_back_without_raising(game_id: str, seed: int, steps: int, data: st.DataObject) -> None:
    check_damaged_views(game_id, seed, steps, data)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=FULL_EXAMPLES)
@given(seed=st.integers(0, 1_000), steps=st.integers(0, 60), data=st.data())
def test_damaged_views_fall_back_without_raising_at_the_full_count(game_id: str, seed: int, steps: int, data: st.DataObject) -> None:
    check_damaged_views(game_id, seed, steps, data)


def check_damaged_views(game_id: str, seed: int, steps: int, data: st.DataObject) -> None:
    game = astrarium.get_game(game_id)
    state = game.new_game(max(2, game.min_players), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    before = state.picture_view(0)
    notation = str(rng.choice(state.legal_actions()))
    state.apply(notation)
    after = state.picture_view(0)
    lines = game.describe(damaged(before, data), notation, damaged(after, data))
    assert lines and all(isinstance(line, str) and line.strip() for line in lines)


def test_a_view_naming_a_negative_seat_is_described_without_raising() -> None:
    """A damaged view may name seat -1 as the mover; the words fall back instead of reading a hand size from the end."""
    game = astrarium.get_game("constellations")
    state = game.new_game(2, 3)
    rng = Rng(3)
    for _ in range(200):
        before = state.picture_view(0)
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        after = state.picture_view(0)
        if state.is_over or after.get("turn") != before.get("turn"):
            break
    damaged_before = {**before, "to_move": -1, "hand_sizes": []}
    lines = game.describe(damaged_before, notation, after)
    assert lines and all(isinstance(line, str) and line.strip() for line in lines)
