"""What the searching players rely on from ``determinize``: re-sampled worlds they can search in.

The conformance tests prove a seat's view is the same in every re-sampled
world. The players also need: the same legal actions for the seat to move (the
root of the search), the hidden cards keeping the same multiset (a world is a
re-deal of the same cards, not new cards), and worlds that play on to the end.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import astrarium
from astrarium.core import Rng
from helpers import play_randomly, sample_positions

SECRET_GAMES = [g for g in astrarium.list_games() if astrarium.get_game(g).hidden_information]
#: Each secret game with its defaults, and the options under which its positions differ (Connected Worlds' actions
#: chosen a part at a time hold a card aside from the hand).
SECRET_CASES = [(g, None) for g in SECRET_GAMES] + [("connected-worlds", {"choices": "steps"})]


def scalars(data: Any) -> Counter:
    """Every number and string in a JSON value, counted (a multiset that ignores where things are)."""
    found: Counter = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        else:
            found[repr(item)] += 1
    return found


@pytest.mark.parametrize("game_id,options", SECRET_CASES)
def test_a_world_keeps_the_hidden_cards_and_the_movers_choices(game_id: str, options: dict[str, str] | None) -> None:
    game = astrarium.get_game(game_id)
    for players in sorted({game.min_players, game.max_players}):
        for state in sample_positions(game.new_game(players, 3, options), seed=3, count=8):
            if state.is_over:
                continue
            seat = state.current_player
            everything = scalars(state.full_view())
            legal = [str(a) for a in state.legal_actions()]
            for k in range(3):
                world = state.determinize(seat, Rng(100 + k))
                assert scalars(world.full_view()) == everything, "a re-sampled world has other cards than the real one"
                assert [str(a) for a in world.legal_actions()] == legal, "the seat to move has other choices in a world"
                assert world.current_player == seat


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_worlds_play_on_to_the_end(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    for state in sample_positions(game.new_game(game.min_players, 8), seed=8, count=5):
        if state.is_over:
            continue
        before = state.full_view()
        world = state.determinize(state.current_player, Rng(5))
        play_randomly(world, seed=5)
        assert world.is_over
        assert state.full_view() == before, "playing in a world changed the real position"
