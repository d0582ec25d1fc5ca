"""The API contract, tested once for every registered game.

Every game gets these tests for free by registering itself: the checks of
``astrarium.testing`` (random play ends within the game's bound, the same seed
and actions give the same game, records replay, illegal actions change nothing,
views are JSON and keep secrets, the parts draw and describe every position,
...), each check of seeded games run on hypothesis's seeds for every player count.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
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
#: Every game and player count gets a sample of seeds in the quick suite and the profile's full count in the slow one:
#: with its fewest players :data:`FEWEST_PLAYERS_EXAMPLES`, with more players (the same rules over more seats)
#: :data:`MORE_PLAYERS_EXAMPLES`, with an option that changes what a position is :data:`OPTION_EXAMPLES` (of
#: :data:`OPTION_FULL_EXAMPLES` in the slow suite).
FEWEST = [(g, n) for g, n in CASES if n == player_counts(g)[0]]
MORE = [(g, n) for g, n in CASES if n != player_counts(g)[0]]
FEWEST_PLAYERS_EXAMPLES = 10
MORE_PLAYERS_EXAMPLES = 4
OPTION_EXAMPLES = 2
OPTION_FULL_EXAMPLES = 8
#: Options that change what a position is, not only a number of it: each is checked as the game's default too
#: (Connected Worlds with a move, portal or deployment chosen a part at a time; the seed's fixed order of play;
#: Orbital Combat with the least hull first, whose order follows the hulls, with the first seat drawn by lot at
#: set-up, and with every round's first seat drawn by lot, a draw on chance after set-up), with the fewest and most
#: players.
VARIANTS = [
    ("connected-worlds", "choices", "steps"),
    ("connected-worlds", "turn_order", "fixed"),
    ("orbital-combat", "turn_order", "behind"),
    ("orbital-combat", "turn_order", "drawn"),
    ("orbital-combat", "turn_order", "rolled"),
]
VARIANT_CASES = [(*v, n) for v in VARIANTS for n in sorted({player_counts(v[0])[0], player_counts(v[0])[-1]})]
GAME_CHECKS = [c for c in CHECKS if c.per == "game"]
ID_CHECKS = [c for c in CHECKS if c.per == "id"]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,players", FEWEST)
@settings(max_examples=FEWEST_PLAYERS_EXAMPLES)
@given(seed=seeds)
def test_seeded_games(check: Check, game_id: str, players: int, seed: int) -> None:
    check.run(game_id, players, seed)


@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,players", MORE)
@settings(max_examples=MORE_PLAYERS_EXAMPLES)
@given(seed=seeds)
def test_seeded_games_of_more_players(check: Check, game_id: str, players: int, seed: int) -> None:
    check.run(game_id, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_seeded_games_of_every_player_count_at_the_profiles_count(check: Check, game_id: str, players: int, seed: int) -> None:
    check.run(game_id, players, seed)


@pytest.mark.parametrize("check", ID_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_game(check: Check, game_id: str) -> None:
    if game_id in TEST_ONLY and check.run.__name__ == "rules_document_has_decisions":
        assert astrarium.get_game(game_id).rules_text().startswith("#")
        return
    check.run(game_id)


@contextmanager
def option_default(game_id: str, name: str, value: object) -> Iterator[None]:
    """The game's option ``name`` defaults to ``value`` while the checks (which start games with the defaults) run."""
    game = astrarium.get_game(game_id)
    kept = game.options
    game.options = tuple(dataclasses.replace(o, default=value) if o.name == name else o for o in kept)
    try:
        yield
    finally:
        game.options = kept


@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,option,value,players", VARIANT_CASES)
@settings(max_examples=OPTION_EXAMPLES)
@given(seed=seeds)
def test_seeded_games_of_an_option(check: Check, game_id: str, option: str, value: object, players: int, seed: int) -> None:
    with option_default(game_id, option, value):
        check.run(game_id, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("check", GAME_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,option,value,players", VARIANT_CASES)
@settings(max_examples=OPTION_FULL_EXAMPLES)
@given(seed=seeds)
def test_seeded_games_of_an_option_at_the_full_count(
    check: Check, game_id: str, option: str, value: object, players: int, seed: int
) -> None:
    with option_default(game_id, option, value):
        check.run(game_id, players, seed)


@pytest.mark.parametrize("check", ID_CHECKS, ids=lambda c: c.run.__name__)
@pytest.mark.parametrize("game_id,option,value", VARIANTS)
def test_the_game_with_an_option(check: Check, game_id: str, option: str, value: object) -> None:
    with option_default(game_id, option, value):
        check.run(game_id)
