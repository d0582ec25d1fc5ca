"""The API contract, tested once for every registered game.

Every game gets these tests for free by registering itself: the checks of
``astrarium.testing`` (random play ends within the game's bound, the same seed
and actions give the same game, records replay, illegal actions change nothing,
views are JSON and keep secrets, the parts draw and describe every position,
...), each check of seeded games run on hypothesis's seeds for every player count.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium.testing import CHECKS, Check

GAMES = astrarium.list_games()
#: The games of the tests alone, which have no rules document with Decisions.
TEST_ONLY = {"toy-pile"}


def player_counts(game_id: str) -> list[int]:
    game = astrarium.get_game(game_id)
    return list(range(game.min_players, game.max_players + 1))


CASES = [(g, n) for g in GAMES for n in player_counts(g)]
GAME_CHECKS = [c for c in CHECKS if c.per == "game"]
ID_CHECKS = [c for c in CHECKS if c.per == "id"]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_seeded_games(check: Check, game_id: str, players: int, seed: int) -> None:
    check.run(game_id, players, seed)


@pytest.mark.parametrize("check", ID_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_game(check: Check, game_id: str) -> None:
    if game_id in TEST_ONLY and check.run.__name__ == "rules_document_has_decisions":
        assert astrarium.get_game(game_id).rules_text().startswith("#")
        return
    check.run(game_id)
