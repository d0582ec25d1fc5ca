"""House rules for what the seed leaves "Not Yet Defined": combat, collisions, set-up, turn order, the end,
and the two that make duels decisive: the closing zone and the fire order.

The default resolution is the round: ships allocate one after another (each
seeing the allocations before it), then the round resolves for all of them.
The rules of ``resolution = turn`` (each ship's turn resolved at once) are
checked at the end of this file.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.agents import make_agent
from astrarium.core import IllegalAction, State
from astrarium.games.orbital_combat import parse_allocation
from astrarium.games.orbital_combat.metrics import final_metrics
from astrarium.games.orbital_combat.state import shot_damage
from helpers import examples

GAME = astrarium.get_game("orbital-combat")
HULL = 24


def game(*ships: str, **options: object) -> State:
    options.setdefault("turn_order", "fixed")
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def hull(state: State, seat: int) -> int:
    return state.view()["ships"][seat]["hull"]


def play_round(state: State, *allocations: str) -> None:
    """Every ship allocates, in this round's order; the round resolves after the last."""
    for allocation in allocations:
        state.apply(allocation)


# -- Weapons: range, falloff, shields -----------------------------------------------------------


@pytest.mark.parametrize(
    "gap,strength_lost",
    [(2, 0), (4, 1), (8, 2)],  # both ships move 6 sectors of ring 4: 2, 4, 8 sectors apart = 26, 52, 100 mm
)
def test_combat_weapons_lose_one_strength_per_full_50mm(gap: int, strength_lost: int) -> None:
    state = game("r4 s1", f"r4 s{1 + gap}")
    assert int(state.table.distance(4, 6, 4, 6 + gap) // 50) == strength_lost  # type: ignore[attr-defined]
    play_round(state, "coast w6 d4", "coast w10 d0")
    assert hull(state, 1) == HULL - (6 - strength_lost)  # no defense: the whole strength
    assert hull(state, 0) == HULL - shot_damage(10 - strength_lost, 4, 2, 75)


@pytest.mark.parametrize(
    "weapons,defense,damage",
    [
        (10, 0, 10),
        (10, 2, 6),  # 2 points stop 4
        (10, 3, 4),  # 3 points would stop 6, the most is 7 (75% of 10)
        (10, 10, 3),  # full defense stops 7 of 10: never immunity
        (6, 10, 2),  # 75% of 6 is 4.5: 4 stopped
        (1, 10, 1),  # 75% of 1 rounds down to 0: a one-point shot always gets through
    ],
)
def test_combat_defense_stops_two_a_point_but_at_most_three_quarters(weapons: int, defense: int, damage: int) -> None:
    state = game("r4 s1", "r4 s3")  # 26 mm apart after moving: full strength
    play_round(state, f"coast w{10 - defense} d{defense}", f"coast w{weapons} d{10 - weapons}")
    assert hull(state, 0) == HULL - damage


def test_combat_full_defense_is_not_immunity() -> None:
    # Under the old rules a ship always at 'coast w0 d10' never lost hull. Now every round under full fire costs it.
    state = game("r3 s1", "r3 s17")  # opposite on ring 3: 136 mm, strength 10 - 2
    for round_number in range(1, 4):
        play_round(state, "coast w0 d10", "coast w10 d0")
        assert hull(state, 0) == HULL - 2 * round_number  # 8 less 6 stopped (75% of 8)
    assert hull(state, 1) == HULL


def test_combat_defense_option_point_for_point_makes_full_defense_immune() -> None:
    # The rule before the change, kept as options: one damage a point, no cap.
    state = game("r3 s1", "r3 s17", defense_per_point=1, defense_max_percent=100)
    play_round(state, "coast w0 d10", "coast w10 d0")
    assert hull(state, 0) == HULL


def test_combat_no_weapons_beyond_range() -> None:
    state = game("r4 s1", "r4 s25")  # 200 mm apart after moving (ring 4's diameter)
    assert all(a.weapons == 0 for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="weapon range"):
        state.apply("coast w5 d5")


def test_combat_range_is_measured_between_positions_after_everyone_moves() -> None:
    # Ring 1 goes 12 sectors (180 degrees) a round, ring 4 six (45 degrees): before moving they are 70 mm
    # apart, after moving 128 mm; range is from where both will be.
    state = game("r1 s1", "r4 s1")
    end = state.table.distance(1, 12, 4, 6)  # type: ignore[attr-defined]
    assert end > 100
    assert {a.weapons for a in state.legal_actions()} == set(range(11))
    play_round(state, "coast w10 d0", "coast w0 d10")
    assert hull(state, 1) == HULL - shot_damage(10 - int(end // 50), 10, 2, 75)


def test_combat_weapon_range_option() -> None:
    state = game("r4 s1", "r4 s25", weapon_range_mm=200)
    assert any(a.weapons for a in state.legal_actions())


def test_combat_defense_protects_only_in_the_round_it_is_allocated() -> None:
    state = game("r3 s1", "r3 s17")
    play_round(state, "coast w0 d10", "coast w10 d0")
    assert state.view()["ships"][0]["defense"] == 0  # a new round: no defense until allocated
    play_round(state, "coast w9 d1", "coast w10 d0")  # defense 1 stops 2 of 8
    assert hull(state, 0) == HULL - 2 - 6


def test_combat_fire_order_together_shots_are_simultaneous_and_both_ships_can_be_destroyed() -> None:
    state = game("r4 s1 h4", "r4 s3 h4", fire_order="together")
    play_round(state, "coast w10 d0", "coast w10 d0")
    assert state.is_over and set(state.outcome.winners) == {0, 1}
    assert "destroyed together" in state.outcome.reason
    assert state.returns() == [0.0, 0.0]


def test_combat_fire_order_together_a_ship_destroyed_by_a_shot_still_fires_that_round() -> None:
    state = game("r4 s1 h2", "r4 s3", fire_order="together")
    play_round(state, "coast w10 d0", "coast w5 d5")
    assert state.is_over and state.outcome.winners == (1,)
    assert hull(state, 1) == HULL - shot_damage(10, 5, 2, 75)


def test_combat_three_ships_name_the_target() -> None:
    state = game("r4 s1", "r4 s3", "r4 s5")
    with pytest.raises(IllegalAction, match="name the target"):
        state.apply("coast w6 d4")
    targets = {a.target for a in state.legal_actions() if a.weapons}
    assert targets == {1, 2}
    play_round(state, "coast w6 d4 @2", "coast w0 d10", "coast w0 d10")
    assert (hull(state, 1), hull(state, 2)) == (HULL, HULL - shot_damage(6 - 1, 10, 2, 75))  # 52 mm: strength 5


def test_combat_one_opponent_target_goes_without_saying() -> None:
    state = game("r4 s1", "r4 s9")
    with pytest.raises(IllegalAction, match="leave out @1"):
        state.apply("coast w6 d4 @1")
    assert all(a.target is None for a in state.legal_actions())


def test_combat_destroyed_ship_loses_and_last_ship_flying_wins() -> None:
    state = game("r4 s1", "r4 s3 h3")
    play_round(state, "coast w10 d0", "coast w0 d10")
    assert state.is_over and state.outcome.winners == (0,)
    assert "last ship" in state.outcome.reason
    assert state.returns() == [1.0, -1.0]
    assert state.view()["ships"][1]["alive"] is False


def test_combat_destroyed_ship_is_skipped_and_cannot_be_targeted() -> None:
    state = game("r4 s1", "r4 s3 h3", "r4 s5")
    play_round(state, "coast w10 d0 @1", "coast w0 d10", "coast w0 d10")
    assert not state.is_over
    assert state.view()["turn_order"] == [0, 2]  # the next round has only seats 0 and 2
    assert state.current_player == 0
    with pytest.raises(IllegalAction, match="destroyed"):
        state.apply("coast w5 d5 @1")


# -- Sequential visibility and tempo ------------------------------------------------------------


def test_sequential_visibility_the_next_ship_sees_an_allocation_before_it_acts() -> None:
    # Seed, Sequential Turn Advantage: the opponent's allocation is shown before you decide; nothing acts yet.
    state = game("r3 s1", "r3 s17")
    before = state.view()["ships"]
    state.apply("rot burn retro hard w4 d3")
    seen = state.view(1)["ships"][0]
    assert seen["last_allocation"] == "rot burn retro hard w4 d3" and seen["allocated_this_round"] is True
    assert seen["defense"] == 3
    for key in ("ring", "sector", "facing", "mass", "hull", "in_transfer_to"):
        assert seen[key] == before[0][key]
    assert state.view(1)["ships"][1]["allocated_this_round"] is False
    state.apply("coast w10 d0")
    after = state.view()["ships"][0]
    assert (after["facing"], after["in_transfer_to"], after["mass"]) == ("retrograde", 1, 8)
    assert after["allocated_this_round"] is False


def test_tempo_two_allocations_in_a_row_never_fire_twice_into_one_defense() -> None:
    # Under the old rules, with the rotating order a seat moves last in one round and first in the next, and used to fire
    # twice into the same defense. Each shot now meets the defense its target allocated for that round.
    state = game("r3 s1", "r3 s17", turn_order="rotate")
    play_round(state, "coast w0 d10", "coast w10 d0")  # round 1: seat 0, then seat 1
    assert hull(state, 0) == HULL - 2
    assert state.current_player == 1  # round 2 starts with seat 1: its second allocation in a row
    state.apply("coast w10 d0")
    assert hull(state, 0) == HULL - 2  # nothing fires until seat 0 has allocated too
    state.apply("coast w9 d1")
    assert hull(state, 0) == HULL - 2 - 6  # against the defense of round 2 (1 point stops 2 of 8)


# -- Collisions ------------------------------------------------------------------------------


def test_collision_lockstep_orbits_never_collide() -> None:
    # Under the old rules, ships on ring 4 at sectors 1 and 7 (76 mm) were reported colliding when seat 0 coasted.
    state = game("r4 s1", "r4 s7", round_limit=20, zone_round=0)
    for _ in range(16):
        play_round(state, "coast w0 d10", "coast w0 d10")
        assert not any("collides" in e for e in state.view()["events"])
    assert hull(state, 0) == hull(state, 1) == HULL
    ring1 = game("r1 s1", "r1 s13", round_limit=20)  # opposite sides of ring 1
    for _ in range(6):
        play_round(ring1, "coast w0 d10", "coast w0 d10")
    assert hull(ring1, 0) == hull(ring1, 1) == HULL


def test_collision_arriving_on_another_ships_path() -> None:
    # Seat 0 burns from ring 4 sector 1 (index 0, moving to 6) to ring 3, landing on index 4 (the same angle);
    # seat 1 is on ring 3 at index 28 and moves 8 a round, to index 4: they share a sector and collide.
    state = game("r4 s1 retro", "r3 s29")
    play_round(state, "burn retro soft w0 d9", "coast w0 d10")
    assert hull(state, 0) == hull(state, 1) == HULL
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert any("collides" in e for e in state.view()["events"])
    assert hull(state, 0) == hull(state, 1) == HULL - 2
    play_round(state, "coast w0 d10", "coast w0 d10")  # still overlapping: they grind on
    assert hull(state, 0) == HULL - 4


def test_collision_neighbouring_sectors_of_ring_1_overlap() -> None:
    state = game("r1 s1", "r1 s2")  # 7.8 mm apart, and they stay so
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 0) == hull(state, 1) == HULL - 2


def test_collision_neighbouring_sectors_of_ring_3_do_not_touch() -> None:
    state = game("r3 s1", "r3 s2")  # 13.3 mm apart
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 1) == HULL


def test_collision_options() -> None:
    state = game("r1 s1", "r1 s2", collision_damage=5)
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 1) == HULL - 5
    state = game("r1 s1", "r1 s2", collision_mm=0)
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 1) == HULL


def test_collision_destroying_both_last_ships_shares_the_result() -> None:
    state = game("r1 s1 h2", "r1 s2 h2")
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert state.is_over and set(state.outcome.winners) == {0, 1}
    assert state.returns() == [0.0, 0.0]


def test_collision_destroyed_ship_does_not_fire() -> None:
    state = game("r1 s1 h2", "r1 s2 h9", "r1 s13")
    play_round(state, "coast w10 d0 @2", "coast w0 d10", "coast w0 d10")
    assert hull(state, 2) == HULL  # seat 0 was destroyed by the collision before phase 6
    assert hull(state, 1) == 7 and state.view()["ships"][0]["alive"] is False


def _closest_on_paths(table: object, ring_a: int, start_a: int, ring_b: int, start_b: int, steps: int = 720) -> float:
    """The least distance between two ships moving together over a round, found by sampling their paths."""
    best = math.inf
    for k in range(steps + 1):
        t = k / steps
        points = []
        for ring, start in ((ring_a, start_a), (ring_b, start_b)):
            sectors, velocity, radius = table.sectors[ring], table.velocity[ring], table.radius[ring]  # type: ignore[attr-defined]
            angle = 2 * math.pi * (start + 0.5 + velocity * t) / sectors
            points.append((radius * math.sin(angle), radius * math.cos(angle)))
        best = min(best, math.dist(*points))
    return best


@settings(max_examples=examples(200))
@given(
    ring_a=st.integers(1, 8),
    ring_b=st.integers(1, 8),
    where_a=st.floats(0, 1, exclude_max=True),
    where_b=st.floats(0, 1, exclude_max=True),
)
def test_property_collisions_only_when_the_paths_come_within_the_collision_distance(
    ring_a: int, ring_b: int, where_a: float, where_b: float
) -> None:
    table = GAME.new_game(2, 0).table  # type: ignore[attr-defined]
    start_a, start_b = int(where_a * table.sectors[ring_a]), int(where_b * table.sectors[ring_b])
    state = game(f"r{ring_a} s{start_a + 1}", f"r{ring_b} s{start_b + 1}", weapon_range_mm=0)
    play_round(state, "coast w0 d10", "coast w0 d10")
    collided = any("collides" in e for e in state.view()["events"])
    closest = _closest_on_paths(table, ring_a, start_a, ring_b, start_b)
    if closest > 10.01:
        assert not collided, closest
    if closest < 9.99:
        assert collided, closest


@settings(max_examples=examples(60))
@given(ring=st.integers(2, 7), start=st.integers(0, 47), other_ring=st.integers(1, 8), where=st.floats(0, 1, exclude_max=True))
def test_property_collisions_after_an_arrival_follow_the_paths_from_the_landing_sector(
    ring: int, start: int, other_ring: int, where: float
) -> None:
    table = GAME.new_game(2, 0).table  # type: ignore[attr-defined]
    start %= table.sectors[ring]
    other = int(where * table.sectors[other_ring])
    state = game(f"r{ring} s{start + 1}", f"r{other_ring} s{other + 1}", weapon_range_mm=0, collision_mm=0)
    play_round(state, "burn pro soft w0 d9", "coast w0 d10")  # seat 0 arrives on ring + 1 next round
    ship, rival = state.view()["ships"]
    landed = table.landing[ring][ring + 1][ship["sector"] - 1]
    closest = _closest_on_paths(table, ring + 1, landed, other_ring, rival["sector"] - 1)
    with_collisions = game(f"r{ring} s{start + 1}", f"r{other_ring} s{other + 1}", weapon_range_mm=0)
    play_round(with_collisions, "burn pro soft w0 d9", "coast w0 d10")
    hulls = (hull(with_collisions, 0), hull(with_collisions, 1))
    play_round(with_collisions, "coast w0 d10", "coast w0 d10")
    collided = any("collides" in e for e in with_collisions.view()["events"])
    if closest > 10.01:
        assert not collided
    if closest < 9.99:
        assert collided and (hull(with_collisions, 0), hull(with_collisions, 1)) == (hulls[0] - 2, hulls[1] - 2)


# -- Set-up, turn order, round limit --------------------------------------------------------


@pytest.mark.parametrize("players,sectors", [(2, [1, 17]), (3, [1, 11, 22]), (4, [1, 9, 17, 25])])
def test_setup_ships_evenly_spaced_on_ring_3_and_in_range(players: int, sectors: list[int]) -> None:
    state = GAME.new_game(players, 0)
    ships = state.view()["ships"]
    assert [s["sector"] for s in ships] == sectors
    assert {(s["ring"], s["facing"], s["mass"], s["hull"]) for s in ships} == {(3, "prograde", 10, HULL)}
    assert any(a.weapons for a in state.legal_actions())  # the first ship to allocate can already fire


def test_setup_start_options() -> None:
    state = GAME.new_game(2, 0, {"start_ring": 6, "start_mass": 12, "hull": 20})
    assert {(s["ring"], s["mass"], s["hull"]) for s in state.view()["ships"]} == {(6, 12, 20)}


def test_turn_order_rotates_the_first_mover_each_round() -> None:
    state = GAME.new_game(3, 0, {"ships": ["r4 s1", "r8 s1", "r8 s26"]})  # out of each other's range
    firsts = []
    for _ in range(4):
        firsts.append(state.current_player)
        for _ in range(3):
            state.apply("coast w0 d10")
    assert firsts == [0, 1, 2, 0]


def test_turn_order_fixed_keeps_seat_0_first() -> None:
    state = GAME.new_game(2, 0, {"turn_order": "fixed"})
    for _ in range(3):
        assert state.current_player == 0
        state.apply("coast w0 d10")
        state.apply("coast w0 d10")


def test_turn_order_drawn_draws_the_first_seat_by_lot_then_rotates() -> None:
    ships = ["r4 s1", "r8 s1", "r8 s26"]  # out of each other's range
    starters = set()
    for seed in range(30):
        state = GAME.new_game(3, seed, {"ships": ships, "turn_order": "drawn"})
        again = GAME.new_game(3, seed, {"ships": ships, "turn_order": "drawn"})
        first = state.current_player
        assert again.current_player == first  # the game's seed draws it: the same seed, the same first seat
        starters.add(first)
        assert state.view()["turn_order"] == [first, (first + 1) % 3, (first + 2) % 3]
        play_round(state, "coast w0 d10", "coast w0 d10", "coast w0 d10")
        assert state.current_player == (first + 1) % 3  # round 2 starts with the next seat, as rotating
    assert starters == {0, 1, 2}


def test_turn_order_rolled_draws_every_rounds_first_seat_by_lot() -> None:
    ships = ["r4 s1", "r8 s1", "r8 s26"]  # out of each other's range
    sequences = set()
    for seed in range(20):
        state = GAME.new_game(3, seed, {"ships": ships, "turn_order": "rolled"})
        again = GAME.new_game(3, seed, {"ships": ships, "turn_order": "rolled"})
        assert state.draws_chance() and not GAME.new_game(3, seed, {"ships": ships}).draws_chance()
        firsts = []
        for _ in range(6):
            first = state.current_player
            assert state.view()["turn_order"] == [first, (first + 1) % 3, (first + 2) % 3]  # then in number order
            firsts.append(first)
            play_round(state, "coast w0 d10", "coast w0 d10", "coast w0 d10")
            play_round(again, "coast w0 d10", "coast w0 d10", "coast w0 d10")
        assert again.current_player == state.current_player  # the game's seed draws them: the same seed, the same order
        sequences.add(tuple(firsts))
    assert len(sequences) > 10 and {f for seq in sequences for f in seq} == {0, 1, 2}  # drawn anew each round


def test_turn_order_rolled_draws_only_among_the_ships_flying() -> None:
    plays = {0: "coast w0 d10", 1: "coast w10 d0 @0", 2: "coast w0 d10"}  # seat 1 destroys seat 0 in round 1
    seconds = set()
    for seed in range(16):
        state = GAME.new_game(3, seed, {"ships": ["r4 s1 h2", "r4 s3", "r8 s26"], "turn_order": "rolled"})
        for _ in range(3):
            state.apply(plays[state.current_player])
        assert not state.view()["ships"][0]["alive"]
        order = state.view()["turn_order"]
        assert sorted(order) == [1, 2]  # the lot is drawn among the two ships left
        seconds.add(tuple(order))
    assert seconds == {(1, 2), (2, 1)}


def test_first_mover_score_is_the_result_of_the_seat_that_started_round_1() -> None:
    for seed in range(6):
        state = GAME.new_game(2, seed, {"ships": ["r4 s1 h4", "r4 s3 h4"], "turn_order": "drawn"})
        first = state.current_player
        play_round(state, "coast w10 d0", "coast w10 d0")  # within range, fire in turn order: the first shot wins
        assert state.is_over and state.outcome.winners == (first,)
        assert final_metrics(state)["first_mover_score"] == 1.0
    state = game("r4 s1 h1", "r4 s3 h4", turn_order="rotate")
    play_round(state, "coast w0 d10", "coast w10 d0")  # seat 0 starts and holds its fire; seat 1's shot goes through
    assert state.outcome.winners == (1,) and final_metrics(state)["first_mover_score"] == 0.0


def test_turn_order_behind_puts_the_ship_with_the_least_hull_first() -> None:
    state = game("r8 s1 h20", "r8 s17 h12", "r8 s9 h16", turn_order="behind")  # out of each other's range
    assert state.view()["turn_order"] == [1, 2, 0] and state.current_player == 1
    play_round(state, "coast w0 d10", "coast w0 d10", "coast w0 d10")
    assert state.view()["turn_order"] == [1, 2, 0]  # hulls unchanged: the same order, not the rotation's


def test_turn_order_behind_breaks_equal_hulls_by_the_rotation_and_fires_in_that_order() -> None:
    state = game("r4 s1 h4", "r4 s3 h4", turn_order="behind")
    assert state.current_player == 0  # round 1, equal hulls: the rotation's first seat
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert state.current_player == 1  # round 2, still equal: seat 1 first, as rotating
    play_round(state, "coast w10 d0", "coast w10 d0")
    assert state.is_over and state.outcome.winners == (1,)


def test_turn_order_behind_gives_the_first_shot_to_the_ship_that_is_behind() -> None:
    state = game("r4 s1 h10", "r4 s3 h4", turn_order="behind")
    assert state.current_player == 1
    play_round(state, "coast w10 d0", "coast w10 d0")  # seat 1 allocates and fires first: seat 0 loses 10
    assert state.is_over and state.outcome.winners == (1,)


def test_round_limit_tie_break_most_hull() -> None:
    state = game("r4 s1", "r4 s3", round_limit=1)
    play_round(state, "coast w6 d4", "coast w0 d10")
    assert state.is_over and state.outcome.winners == (0,)
    assert "round limit" in state.outcome.reason


def test_round_limit_tie_break_then_most_mass() -> None:
    state = game("r4 s1", "r4 s25", round_limit=1)
    play_round(state, "coast w0 d10", "coast scoop w0 d5")
    assert state.outcome.winners == (1,)


def test_round_limit_full_tie_is_shared() -> None:
    state = game("r4 s1", "r4 s25", round_limit=1)
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert set(state.outcome.winners) == {0, 1} and state.returns() == [0.0, 0.0]


def test_round_limit_bounds_max_moves() -> None:
    assert GAME.max_moves(3, {**GAME.default_options(), "round_limit": 7}) == 21


# -- Views (perfect information, sequential visibility) ------------------------------------------


def test_views_show_everything_to_everyone() -> None:
    state = game("r4 s1", "r4 s9", "r6 s3")
    state.apply("burn pro soft w3 d6 @1")
    views = [state.view(seat) for seat in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    me = views[0]["ships"][0]
    assert me["last_allocation"] == "burn pro soft w3 d6 @1"
    assert me["defense"] == 6 and me["allocated_this_round"] is True
    assert views[0]["resolution"] == "round"
    assert state.full_view() == views[0]
    assert [r["velocity"] for r in views[0]["rings"]] == [12, 10, 8, 6, 4, 3, 2, 1]
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert state.view()["ships"][0]["in_transfer_to"] == 5
    assert any("fires 3 at seat 1" in e for e in state.view()["events"])


def test_render_shows_rings_ships_and_status_table() -> None:
    state = game("r4 s1", "r2 s9")
    play_round(state, "burn pro hard w0 d8", "coast w0 d10")
    text = state.render(1)
    for word in ("ring", "sector", "facing", "mass", "hull", "transfer", "-> 6", "burn pro hard w0 d8"):
        assert word in text
    assert "●" in text
    state.apply("coast w0 d10")
    assert "allocated" in state.render(1)


def test_evaluate_prefers_the_ship_with_more_hull() -> None:
    state = game("r4 s1", "r4 s3")
    assert state.evaluate(0) == pytest.approx(0.0)
    play_round(state, "coast w6 d4", "coast w0 d10")
    assert state.evaluate(0) > 0 > state.evaluate(1)
    assert -1.0 <= state.evaluate(1) <= 1.0


def test_evaluate_in_the_middle_of_a_round_expects_the_answer() -> None:
    # A first mover that drops its defense invites a full shot: the evaluation sees it before the round resolves.
    balanced, reckless = game("r3 s1", "r3 s17"), game("r3 s1", "r3 s17")
    balanced.apply("coast w7 d3")
    reckless.apply("coast w10 d0")
    assert balanced.evaluate(0) > reckless.evaluate(0)
    assert hull(balanced, 0) == hull(reckless, 0) == HULL  # nothing has acted yet


def test_allocations_in_the_view_parse_back() -> None:
    state = game("r4 s1", "r4 s9")
    state.apply("coast scoop w3 d2")
    assert parse_allocation(state.view()["ships"][0]["last_allocation"]) == parse_allocation("coast scoop w3 d2")


# -- resolution = turn: each ship's six phases in its own turn (the rules before the round) ------------------


def turn_game(*ships: str, **options: object) -> State:
    return game(*ships, resolution="turn", **options)


def test_turn_resolution_defense_lasts_until_the_ships_next_turn() -> None:
    state = turn_game("r4 s9", "r4 s1", defense_per_point=1, defense_max_percent=100)  # seat 0 defends first
    state.apply("coast w0 d10")  # seat 0 now on sector 15; seat 1 will move to sector 7: 8 sectors, 100 mm
    state.apply("coast w10 d0")  # strength 10 - 2 = 8, defense 10: no damage
    assert hull(state, 0) == HULL
    state.apply("coast scoop w0 d5")  # seat 0 lowers its defense to 5
    state.apply("coast w10 d0")
    assert hull(state, 0) == HULL - (8 - 5)


def test_turn_resolution_fires_at_where_the_others_are_now() -> None:
    state = turn_game("r4 s1", "r4 s9")  # seat 0 moves to sector 7; seat 1 has not moved: 26 mm
    state.apply("coast w6 d4")
    assert hull(state, 1) == HULL - 6


def test_turn_resolution_collisions_compare_the_movers_end_with_the_others_now() -> None:
    # Documented limitation of this option: the lockstep pair (ring 4, sectors 1 and 7) is reported colliding when seat 0 moves.
    state = turn_game("r4 s1", "r4 s7")
    state.apply("coast w0 d10")
    assert hull(state, 0) == hull(state, 1) == HULL - 2


def test_turn_resolution_destroyed_mover_does_not_fire() -> None:
    state = turn_game("r4 s1 h2", "r4 s7 h9", "r4 s25")
    state.apply("coast w10 d0 @1")
    assert hull(state, 1) == 7  # the collision only, no shot
    assert state.view()["ships"][0]["alive"] is False


# -- The closing zone ----------------------------------------------------------------------------


def test_closing_zone_is_every_ring_until_zone_round_then_one_ring_fewer_a_round_down_to_zone_ring() -> None:
    state = game("r3 s1", "r3 s17", zone_round=3)
    edges = [state.zone_edge(r) for r in range(10)]  # type: ignore[attr-defined]
    assert edges == [8, 8, 7, 6, 5, 4, 3, 3, 3, 3]  # rounds 1-10
    assert game("r3 s1", "r3 s17", zone_round=0).zone_edge(30) == 8  # type: ignore[attr-defined]
    assert game("r3 s1", "r3 s17", zone_round=1, zone_ring=5).zone_edge(9) == 5  # type: ignore[attr-defined]


def test_closing_zone_a_ship_beyond_it_loses_zone_damage_at_the_end_of_the_round_whatever_its_defense() -> None:
    state = game("r8 s1", "r7 s1", zone_round=1, zone_damage=3)  # round 1: rings 1-7 are safe
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 0) == HULL - 3
    assert hull(state, 1) == HULL
    assert "seat 0 is outside the zone on ring 8: 3 damage" in state.events  # type: ignore[attr-defined]


def test_closing_zone_a_ship_in_transfer_counts_on_the_ring_it_moved_on() -> None:
    state = game("r6 s1 retro", "r3 s1", zone_round=1)  # round 1: rings 1-7, round 2: rings 1-6, round 3: rings 1-5
    play_round(state, "coast w0 d10", "coast w0 d10")
    play_round(state, "burn retro soft w0 d9", "coast w0 d10")  # round 2: still on ring 6 this round, inside
    assert hull(state, 0) == HULL
    play_round(state, "coast w0 d10", "coast w0 d10")  # round 3: arrived on ring 5, inside
    assert hull(state, 0) == HULL


def test_closing_zone_can_destroy_a_ship_and_end_the_game_by_play() -> None:
    state = game("r8 s1 h2", "r3 s1", zone_round=1)
    play_round(state, "coast w0 d10", "coast w0 d10")
    assert state.is_over and state.outcome.winners == (1,)
    assert "round limit" not in state.outcome.reason


def test_closing_zone_in_turn_resolution_hits_the_ship_at_the_end_of_its_own_turn() -> None:
    state = game("r8 s1", "r3 s1", zone_round=1, resolution="turn")
    state.apply("coast w0 d10")
    assert hull(state, 0) == HULL - 2 and hull(state, 1) == HULL


def test_closing_zone_is_in_the_view_the_words_and_the_picture() -> None:
    state = game("r5 s1", "r3 s17", zone_round=1)
    zone = state.view()["zone"]
    assert zone == {"safe_to_ring": 7, "next_round_safe_to_ring": 6, "closes_from_round": 1, "stops_at_ring": 3, "damage": 2}
    assert 'class="zone"' in state.render_svg(0) and 'class="zone-next"' in state.render_svg(0)
    before = state.picture_view(0)
    play_round(state, "coast w0 d10")
    lines = GAME.describe(before, "coast w0 d10", state.picture_view(0))
    state.apply("coast w0 d10")
    assert "zone" in GAME.things(state)
    assert "zone rings 1-6" in state.render(0)
    after = state.picture_view(0)
    assert lines and after["zone"]["safe_to_ring"] == 6


def test_closing_zone_words_tell_it_closing() -> None:
    state = game("r5 s1", "r3 s17", zone_round=2)
    state.apply("coast w0 d10")
    before = state.picture_view(1)
    state.apply("coast w0 d10")
    lines = GAME.describe(before, "coast w0 d10", state.picture_view(1))
    assert "The zone closes to rings 1-7: a ship beyond them loses 2 hull at the end of the round." in lines
    assert "Next round the zone closes to rings 1-6." in lines


def test_closing_zone_zero_keeps_the_rules_before() -> None:
    state = game("r8 s1", "r8 s26", zone_round=0)
    for _ in range(30):
        play_round(state, "coast w0 d10", "coast w0 d10")
    assert hull(state, 0) == hull(state, 1) == HULL


# -- Fire order ------------------------------------------------------------------------------------


def test_fire_order_initiative_the_first_ship_of_the_round_fires_first_and_a_ship_it_destroys_does_not_fire() -> None:
    state = game("r4 s1 h4", "r4 s3 h4")  # default fire_order = initiative; fixed order: seat 0 first
    play_round(state, "coast w10 d0", "coast w10 d0")
    assert state.is_over and state.outcome.winners == (0,)
    assert hull(state, 0) == 4
    assert [e for e in state.events if "fires" in e] == ["seat 0 fires 10 at seat 1 (26 mm): 10 damage"]  # type: ignore[attr-defined]


def test_fire_order_initiative_follows_the_rotating_turn_order() -> None:
    state = game("r4 s1 h4", "r4 s3 h4", turn_order="rotate")
    play_round(state, "coast w0 d10", "coast w0 d10")  # round 1: seat 0 first
    play_round(state, "coast w10 d0", "coast w10 d0")  # round 2: seat 1 first, its shot lands first
    assert state.is_over and state.outcome.winners == (1,)


def test_fire_order_initiative_a_surviving_second_ship_still_fires() -> None:
    state = game("r4 s1", "r4 s3")
    play_round(state, "coast w6 d4", "coast w7 d3")
    assert hull(state, 1) == HULL - shot_damage(6, 3, 2, 75)
    assert hull(state, 0) == HULL - shot_damage(7, 4, 2, 75)


def test_fire_order_together_keeps_simultaneous_shots() -> None:
    state = game("r4 s1 h4", "r4 s3 h4", fire_order="together")
    play_round(state, "coast w10 d0", "coast w10 d0")
    assert state.is_over and set(state.outcome.winners) == {0, 1}


@settings(max_examples=examples(40), deadline=None)
@given(hulls=st.tuples(st.integers(1, 12), st.integers(1, 12)), weapons=st.tuples(st.integers(0, 10), st.integers(0, 10)))
def test_fire_order_initiative_two_ships_are_never_destroyed_together_by_shots(hulls: tuple[int, int], weapons: tuple[int, int]) -> None:
    state = game(f"r4 s1 h{hulls[0]}", f"r4 s3 h{hulls[1]}", collision_mm=0)
    play_round(state, f"coast w{weapons[0]} d{10 - weapons[0]}", f"coast w{weapons[1]} d{10 - weapons[1]}")
    assert sum(ship["alive"] for ship in state.view()["ships"]) >= 1


def test_fire_order_the_judgement_foresees_that_a_destroyed_ship_does_not_fire() -> None:
    state = game("r4 s1 h4", "r4 s3 h3")
    state.apply("coast w10 d0")  # a full shot does at least 3 whatever the defense: seat 1 dies before it fires
    assert state.evaluate(0) == 1.0 and state.evaluate(1) == -1.0
    together = game("r4 s1 h4", "r4 s3 h3", fire_order="together")
    together.apply("coast w10 d0")  # all at once, seat 1 takes seat 0 down with it
    assert together.evaluate(0) < 1.0


def test_fire_order_the_judgement_sees_a_second_ship_that_survives_and_answers() -> None:
    state = game("r4 s1 h4", "r4 s3 h4")
    state.apply("coast w10 d0")  # defense 4 holds the shot to 3: seat 1 survives on 1 hull and fires 6 back
    assert state.evaluate(0) == -1.0


# -- A fixed policy that runs: orbital-runner --------------------------------------------------------


def test_runner_burns_outward_when_an_opponent_is_in_range_and_scoops_when_none_is() -> None:
    runner = make_agent("orbital-runner")
    assert str(runner.choose(game("r3 s1", "r3 s17"))) == "burn pro soft w0 d9"
    assert str(runner.choose(game("r3 s1 retro", "r3 s17"))) == "rot burn pro soft w0 d8"
    assert str(runner.choose(game("r6 s1", "r6 s28"))) == "coast scoop w0 d5"
    assert str(runner.choose(game("r8 s1", "r8 s2"))) == "coast w0 d10"  # in range on the outermost ring: all defense


@pytest.mark.parametrize("zone_round,runner_loses_by_play", [(0, False), (12, True)])
def test_runner_against_the_search_lasts_to_the_round_limit_only_without_the_zone(zone_round: int, runner_loses_by_play: bool) -> None:
    state = GAME.new_game(2, 0, {"zone_round": zone_round})
    players = [make_agent("mcts:iterations=100,depth=0,expand=greedy", 0), make_agent("orbital-runner")]
    while not state.is_over:
        state.apply(players[state.current_player].choose(state))
    assert state.outcome.winners == (0,)
    assert ("round limit" not in state.outcome.reason) is runner_loses_by_play
