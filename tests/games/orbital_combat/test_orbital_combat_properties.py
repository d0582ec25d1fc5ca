"""Invariants under random play: energy, mass, rings, sectors; games end within the round limit."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, Rng, State
from astrarium.games.orbital_combat import Allocation, Facing, Intensity
from helpers import examples

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


@settings(max_examples=examples(60))
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


@settings(max_examples=examples(150))
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


def _closest_approach(table: object, paths: list[tuple[int, int]], steps: int = 720) -> float:
    """The least distance between two ships moving together over a round, each given as (ring, sector index after
    landing), found by sampling both paths at the same moments: an independent check of the game's exact one."""
    best = math.inf
    for k in range(steps + 1):
        t = k / steps
        points = []
        for ring, start in paths:
            sectors, velocity, radius = table.sectors[ring], table.velocity[ring], table.radius[ring]  # type: ignore[attr-defined]
            angle = 2 * math.pi * (start + 0.5 + velocity * t) / sectors
            points.append((radius * math.sin(angle), radius * math.cos(angle)))
        best = min(best, math.dist(*points))
    return best


ship_texts = st.builds(lambda ring, where: (ring, where), st.integers(1, 4), st.floats(0, 1, exclude_max=True))


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**16), ships=st.lists(ship_texts, min_size=2, max_size=4), rounds=st.integers(1, 8))
def test_property_whole_games_report_collisions_exactly_where_the_true_paths_meet(
    seed: int, ships: list[tuple[int, float]], rounds: int
) -> None:
    """Over random rounds of ships crowded on the inner rings, burning and arriving, a collision is
    reported between two ships if and only if their true paths that round come within the collision distance."""
    table = GAME.new_game(2, 0).table  # type: ignore[attr-defined]
    placed = [f"r{ring} s{int(where * table.sectors[ring]) + 1}" for ring, where in ships]
    state = GAME.new_game(len(placed), seed, {"ships": placed, "weapon_range_mm": 0, "collision_damage": 1})
    rng = Rng(seed)
    for _ in range(rounds):
        if state.is_over:
            break
        before = state.view()
        paths = {}
        for ship in before["ships"]:
            if ship["alive"]:
                ring, sector = ship["ring"], ship["sector"] - 1
                if ship["in_transfer_to"]:
                    sector, ring = table.landing[ring][ship["in_transfer_to"]][sector], ship["in_transfer_to"]
                paths[ship["seat"]] = (ring, sector)
        while state.view()["round"] == before["round"] and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        reported = {tuple(sorted(map(int, e.split()[1::4]))) for e in state.view()["events"] if "collides" in e}
        for a in paths:
            for b in paths:
                if a < b:
                    closest = _closest_approach(table, [paths[a], paths[b]])
                    if closest > 10.01:
                        assert (a, b) not in reported, (placed, before["round"], a, b, closest)
                    if closest < 9.99:
                        assert (a, b) in reported, (placed, before["round"], a, b, closest)
