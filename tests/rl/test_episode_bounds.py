"""Every game ends within ``Game.max_moves`` (the adapters' episode bound; docs/learning.md, "The bound on a game's length").

Random players and a stalling player (it takes any action but the ones that
end a turn, while it has one) over hypothesis-drawn options that stretch the
games: bigger hands, longer limits, the Constellations swap variant. The
stalling player plays the longest turns the rules allow it to find.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from astrarium.core import get_game

#: The first word of the actions that end a turn (or a step of it), which the stalling player avoids.
TURN_ENDING = {"end", "advance", "keep", "nodraw", "pass", "swap"}


def _play_out(game_id: str, players: int, seed: int, options: dict[str, Any], stall: bool) -> tuple[int, int]:
    game = get_game(game_id)
    state = game.new_game(players, seed, options)
    bound = game.max_moves(players, state.options)
    pick = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        slow = [a for a in legal if str(a).split()[0] not in TURN_ENDING and "advance" not in str(a)] if stall else legal
        state.apply_unchecked(pick.choice(slow or legal))
        assert state.move_number <= bound, f"{game_id} passed its bound of {bound} actions"
    return state.move_number, bound


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    stall=st.booleans(),
    start_hand=st.integers(0, 10),
    hand_limit=st.integers(1, 10),
    turn_limit=st.integers(1, 12),
)
def test_celestials_ends_within_its_bound(seed: int, stall: bool, start_hand: int, hand_limit: int, turn_limit: int) -> None:
    options = {"start_hand": start_hand, "hand_limit": hand_limit, "turn_limit": turn_limit}
    moves, bound = _play_out("celestials", 2, seed, options, stall)
    assert 0 < moves <= bound


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(1, 4),
    stall=st.booleans(),
    hand_size=st.integers(1, 6),
    max_rounds=st.integers(1, 20),
    swap=st.booleans(),
)
def test_constellations_ends_within_its_bound(seed: int, players: int, stall: bool, hand_size: int, max_rounds: int, swap: bool) -> None:
    options = {"hand_size": hand_size, "max_rounds": max_rounds, "swap": swap}
    moves, bound = _play_out("constellations", players, seed, options, stall)
    assert 0 < moves <= bound


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), stall=st.booleans(), round_limit=st.integers(1, 40))
def test_orbital_combat_ends_within_its_bound(seed: int, players: int, stall: bool, round_limit: int) -> None:
    moves, bound = _play_out("orbital-combat", players, seed, {"round_limit": round_limit}, stall)
    assert 0 < moves <= bound


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), stall=st.booleans())
def test_streamlines_ends_within_its_bound(seed: int, players: int, stall: bool) -> None:
    moves, bound = _play_out("streamlines", players, seed, {}, stall)
    assert 0 < moves <= bound
