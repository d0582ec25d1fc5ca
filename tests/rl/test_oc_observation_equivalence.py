"""Orbital Combat's observation and mask are computed faster, never differently.

The encoder writes its vector at known offsets with each ring table's sines
and cosines worked out once, and the action space keeps each shared legal
list's indices; here the plain definitions they replaced (a list of numbers
per ship with one-hot lists appended, a mask set one legal action at a time)
are written out, and on many positions (seeded random games over the player
counts, both resolutions, a designer's ring table, and games where ships are
destroyed) every seat's observation must be the same to the bit and every
mask the same.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from astrarium.core import get_game
from astrarium.core.learning import encoder_for, legal_action_mask
from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS, Facing, Intensity, parse_allocation

GAME = get_game("orbital-combat")


# -- the plain definitions --------------------------------------------------------------------------------------------
def _one_hot(i: int, n: int) -> list[float]:
    row = [0.0] * n
    row[i] = 1.0
    return row


def plain_observation(view: Mapping[str, Any], seat: int, players: int) -> list[float]:
    rings: Sequence[Mapping[str, Any]] = view["rings"]
    radius = max(float(r["radius_mm"]) for r in rings)
    reach = max(float(view["weapon_range_mm"]), 1.0)
    start_hull = max(float(view["start_hull"]), 1.0)
    ships = view["ships"]
    mx, my = ships[seat]["position_mm"]
    order = list(view["turn_order"])
    out: list[float] = []
    for k in range(players):
        ship = ships[(seat + k) % players]
        ring = int(ship["ring"])
        sectors = int(rings[ring - 1]["sectors"])
        angle = 2 * math.pi * (int(ship["sector"]) - 0.5) / sectors
        x, y = ship["position_mm"]
        distance = math.hypot(x - mx, y - my)
        last = parse_allocation(ship["last_allocation"]) if ship["last_allocation"] else None
        burn = last.burn if last is not None else None
        place = order.index(ship["seat"]) if ship["seat"] in order else players
        out += [
            float(ship["alive"]),
            min(max(x / radius, -1.0), 1.0),
            min(max(y / radius, -1.0), 1.0),
            math.sin(angle),
            math.cos(angle),
            float(ship["facing"] == "prograde"),
            ship["mass"] / MAX_MASS,
            max(ship["hull"], 0) / start_hull,
            ship["defense"] / ENERGY,
            float(ship["allocated_this_round"]),
            float(view["to_move"] == ship["seat"]),
            place / players,
            min(distance, 2 * radius) / reach,
            float(k > 0 and ship["alive"] and distance <= reach),
            float(last is not None and last.rotate),
            float(last is not None and burn is None),
            float(last is not None and last.scoop),
            float(burn is Intensity.SOFT),
            float(burn is Intensity.HARD),
            float(burn is Intensity.EXTREME),
            float(last is not None and last.direction is Facing.RETROGRADE),
            last.weapons / ENERGY if last is not None else 0.0,
            last.defense / ENERGY if last is not None else 0.0,
        ]
        out += _one_hot(ring - 1, len(rings))
        transfer = ship["in_transfer_to"]
        out += _one_hot(0 if transfer is None else int(transfer), len(rings) + 1)
        target = None if last is None else last.target
        out += _one_hot(0 if target is None else 1 + (target - seat) % players, players + 1)
    limit = max(int(view["round_limit"]), 1)
    out += [view["round"] / limit, (limit - view["round"] + 1) / limit, float(view["resolution"] == "round")]
    zone = view["zone"]
    out += [zone["safe_to_ring"] / len(rings), zone["next_round_safe_to_ring"] / len(rings), min(zone["damage"] / start_hull, 1.0)]
    out += _one_hot(seat, players)
    return out


def plain_mask(state: Any, space: Any) -> np.ndarray:
    mask = np.zeros(space.size, dtype=np.bool_)
    for action in state.legal_actions():
        mask[space.index(action)] = True
    return mask


# -- the comparison ---------------------------------------------------------------------------------------------------
SMALL_TABLE = """
[[ring]]
number = 1
velocity = 3
radius_mm = 40
sectors = 6

[[ring]]
number = 2
velocity = 2
radius_mm = 80
sectors = 10

[[ring]]
number = 3
velocity = 1
radius_mm = 130
sectors = 14
"""


def _compare_over_a_game(players: int, seed: int, options: dict[str, Any]) -> tuple[int, Any]:
    state = GAME.new_game(players, seed, options)
    encoder = encoder_for(GAME, players, state.options)
    pick = random.Random(seed)
    positions = 0
    while True:
        for seat in range(players):
            view = state.view(seat)
            fast = state.observation_tensor(seat)
            plain = np.asarray(plain_observation(view, seat, players), dtype=np.float32)
            assert fast.tobytes() == plain.tobytes(), f"seat {seat}'s observation differs after {len(state.actions)} actions"
        assert np.array_equal(legal_action_mask(state), plain_mask(state, encoder.actions))
        positions += 1
        if state.is_over:
            return positions, state
        state.apply(pick.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("resolution", ["round", "turn"])
def test_observation_and_mask_equal_the_plain_definitions(players: int, resolution: str) -> None:
    seen = sum(_compare_over_a_game(players, seed, {"resolution": resolution, "round_limit": 25})[0] for seed in range(6))
    assert seen > 6 * 10


def test_a_designers_ring_table_gives_the_same_observation(tmp_path: Path) -> None:
    table = tmp_path / "rings.toml"
    table.write_text(SMALL_TABLE)
    assert _compare_over_a_game(2, 5, {"ring_table": str(table), "round_limit": 20})[0] > 10


def test_destroyed_ships_give_the_same_observation() -> None:
    # Small hulls end games by destruction, so a ship's last allocation, hull below 0 and the terminal mask are met.
    destroyed = 0
    for seed in range(12):
        _, state = _compare_over_a_game(3, seed, {"hull": 6, "round_limit": 40})
        destroyed += sum(not ship["alive"] for ship in state.view(None)["ships"])
    assert destroyed > 0
