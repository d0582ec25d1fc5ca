"""Invariants under random play: energy, mass, rings, sectors; games end within the round limit."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, Rng, State
from astrarium.games.orbital_combat import Allocation, Facing, Intensity

GAME = astrarium.get_game("orbital-combat")


def check_invariants(state: State) -> None:
    table = state.table  # type: ignore[attr-defined]
    for ship in state.view()["ships"]:
        assert 0 <= ship["mass"] <= 24
        assert ship["ring"] in range(1, 9)
        assert ship["sector"] in range(1, table.sectors[ship["ring"]] + 1)
        assert ship["in_transfer_to"] is None or 1 <= ship["in_transfer_to"] <= 8
        assert ship["hull"] >= 0 and (ship["hull"] > 0) == ship["alive"]
        assert 0 <= ship["defense"] <= 10


allocations = st.builds(
    Allocation,
    rotate=st.booleans(),
    burn=st.sampled_from([None, *Intensity]),
    direction=st.sampled_from([None, *Facing]),
    scoop=st.booleans(),
    weapons=st.integers(0, 12),
    defense=st.integers(0, 12),
    target=st.sampled_from([None, 0, 1, 2, 3, 4]),
)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(0, 120))
def test_property_energy_mass_rings_sectors_stay_in_bounds(seed: int, players: int, steps: int) -> None:
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert all(a.energy == 10 for a in legal)  # every point allocated, never more than 10
        state.apply(rng.choice(legal))
        check_invariants(state)


@settings(max_examples=150)
@given(seed=st.integers(0, 2**16), players=st.integers(2, 4), prefix=st.integers(0, 40), action=allocations)
def test_property_any_allocation_is_legal_exactly_when_listed(seed: int, players: int, prefix: int, action: Allocation) -> None:
    """Any allocation value at all: either listed and applied within bounds, or refused with a reason and nothing changed."""
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(prefix):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    if action in state.legal_actions():
        assert action.energy <= 10
        state.apply(str(action))
        check_invariants(state)
    else:
        before = json.dumps(state.full_view(), sort_keys=True)
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert str(action) in str(err.value)
        # Every refusal names a rule: an allocation breaking none would be missing from legal_actions().
        assert "is not a legal allocation now" not in str(err.value)
        assert json.dumps(state.full_view(), sort_keys=True) == before


def test_random_play_from_200_seeds_ends_within_the_round_limit() -> None:
    for seed in range(200):
        players = 2 + seed % 3
        state = GAME.new_game(players, seed)
        rng = Rng(seed)
        bound = GAME.max_moves(players, state.options)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            assert state.move_number <= bound
        assert state.view()["round"] <= state.options["round_limit"]
        assert state.outcome is not None and state.outcome.reason
        check_invariants(state)
