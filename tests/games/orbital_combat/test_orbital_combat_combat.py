"""House rules for what the seed leaves "Not Yet Defined": combat, collisions, set-up, turn order, the end."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import IllegalAction, State
from astrarium.games.orbital_combat import parse_allocation

GAME = astrarium.get_game("orbital-combat")


def game(*ships: str, **options: object) -> State:
    options.setdefault("turn_order", "fixed")
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def hull(state: State, seat: int) -> int:
    return state.view()["ships"][seat]["hull"]


# -- Weapons: range, falloff, defense ---------------------------------------------------------


@pytest.mark.parametrize(
    "target_sector,strength_lost",
    [(9, 0), (11, 1), (15, 2)],  # seat 0 moves to sector 7 of ring 4: 2, 4, 8 sectors = 26, 52, 100 mm away
)
def test_combat_weapons_lose_one_strength_per_full_50mm(target_sector: int, strength_lost: int) -> None:
    state = game("r4 s1", f"r4 s{target_sector}")
    distance = state.table.distance(4, 6, 4, target_sector - 1)  # type: ignore[attr-defined]
    assert int(distance // 50) == strength_lost
    state.apply("coast w6 d4")
    assert hull(state, 1) == 12 - (6 - strength_lost)


def test_combat_no_weapons_beyond_range() -> None:
    state = game("r4 s1", "r4 s25")  # 200 mm apart after the move (ring 4 diameter)
    assert all(a.weapons == 0 for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="weapon range"):
        state.apply("coast w5 d5")


def test_combat_weapon_range_option() -> None:
    state = game("r4 s1", "r4 s25", weapon_range_mm=200)
    assert any(a.weapons for a in state.legal_actions())


def test_combat_defense_stops_damage_point_for_point_until_next_turn() -> None:
    state = game("r4 s9", "r4 s1")  # seat 0 defends first
    state.apply("coast w0 d10")  # seat 0 now on sector 15; seat 1 will move to sector 7: 8 sectors, 100 mm
    state.apply("coast w10 d0")  # strength 10 - 2 = 8, defense 10: no damage
    assert hull(state, 0) == 12
    state.apply("coast w0 d10")  # seat 0's next turn, defense renewed
    state.apply("coast w10 d0")
    assert hull(state, 0) == 12
    state.apply("coast scoop w0 d5")  # seat 0 lowers its defense to 5
    state.apply("coast w10 d0")
    assert hull(state, 0) == 12 - (8 - 5)


def test_combat_three_ships_name_the_target() -> None:
    state = game("r4 s1", "r4 s9", "r4 s11")
    with pytest.raises(IllegalAction, match="name the target"):
        state.apply("coast w6 d4")
    targets = {a.target for a in state.legal_actions() if a.weapons}
    assert targets == {1, 2}
    state.apply("coast w6 d4 @2")
    assert (hull(state, 1), hull(state, 2)) == (12, 12 - 5)


def test_combat_one_opponent_target_goes_without_saying() -> None:
    state = game("r4 s1", "r4 s9")
    with pytest.raises(IllegalAction, match="leave out @1"):
        state.apply("coast w6 d4 @1")
    assert all(a.target is None for a in state.legal_actions())


def test_combat_destroyed_ship_loses_and_last_ship_flying_wins() -> None:
    state = game("r4 s1", "r4 s9 h3")
    state.apply("coast w10 d0")
    assert state.is_over and state.outcome.winners == (0,)
    assert "last ship" in state.outcome.reason
    assert state.returns() == [1.0, -1.0]
    assert state.view()["ships"][1]["alive"] is False


def test_combat_destroyed_ship_is_skipped_and_cannot_be_targeted() -> None:
    state = game("r4 s1", "r4 s9 h3", "r4 s11")
    state.apply("coast w10 d0 @1")
    assert not state.is_over
    assert state.current_player == 2
    with pytest.raises(IllegalAction, match="destroyed"):
        state.apply("coast w5 d5 @1")
    assert state.view()["turn_order"] == [0, 1, 2]
    state.apply("coast w0 d10")
    assert state.current_player == 0  # the next round has only seats 0 and 2
    assert state.view()["turn_order"] == [0, 2]


# -- Collisions ------------------------------------------------------------------------------


def test_collision_same_sector_both_ships_lose_hull() -> None:
    state = game("r4 s1", "r4 s7")
    state.apply("coast w0 d10")  # seat 0 ends on sector 7 too
    assert (hull(state, 0), hull(state, 1)) == (10, 10)
    assert any("collides" in e for e in state.view()["events"])


def test_collision_neighbouring_sectors_of_ring_1_overlap() -> None:
    state = game("r1 s1", "r1 s14")  # seat 0 moves to sector 13: 7.8 mm from sector 14
    state.apply("coast w0 d10")
    assert hull(state, 1) == 10


def test_collision_neighbouring_sectors_of_ring_3_do_not_touch() -> None:
    state = game("r3 s1", "r3 s10")  # seat 0 moves to sector 9: 13.3 mm from sector 10
    state.apply("coast w0 d10")
    assert hull(state, 1) == 12


def test_collision_options() -> None:
    state = game("r4 s1", "r4 s7", collision_damage=5)
    state.apply("coast w0 d10")
    assert hull(state, 1) == 7
    state = game("r4 s1", "r4 s7", collision_mm=0)
    state.apply("coast w0 d10")
    assert hull(state, 1) == 12


def test_collision_destroying_both_last_ships_shares_the_result() -> None:
    state = game("r4 s1 h2", "r4 s7 h2")
    state.apply("coast w0 d10")
    assert state.is_over and set(state.outcome.winners) == {0, 1}
    assert state.returns() == [0.0, 0.0]


def test_collision_destroyed_mover_does_not_fire() -> None:
    state = game("r4 s1 h2", "r4 s7 h9", "r4 s25")
    state.apply("coast w10 d0 @1")
    assert hull(state, 1) == 7  # the collision only, no shot
    assert state.view()["ships"][0]["alive"] is False


# -- Set-up, turn order, round limit --------------------------------------------------------


@pytest.mark.parametrize("players,sectors", [(2, [1, 25]), (3, [1, 17, 33]), (4, [1, 13, 25, 37])])
def test_setup_ships_evenly_spaced_on_ring_4(players: int, sectors: list[int]) -> None:
    state = GAME.new_game(players, 0)
    ships = state.view()["ships"]
    assert [s["sector"] for s in ships] == sectors
    assert {(s["ring"], s["facing"], s["mass"], s["hull"]) for s in ships} == {(4, "prograde", 10, 12)}


def test_setup_start_options() -> None:
    state = GAME.new_game(2, 0, {"start_ring": 6, "start_mass": 12, "hull": 20})
    assert {(s["ring"], s["mass"], s["hull"]) for s in state.view()["ships"]} == {(6, 12, 20)}


def test_turn_order_rotates_the_first_mover_each_round() -> None:
    state = GAME.new_game(3, 0)
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


def test_round_limit_tie_break_most_hull() -> None:
    state = game("r4 s1", "r4 s9", round_limit=1)
    state.apply("coast w6 d4")  # 26 mm: 6 damage
    state.apply("coast w0 d10")
    assert state.is_over and state.outcome.winners == (0,)
    assert "round limit" in state.outcome.reason


def test_round_limit_tie_break_then_most_mass() -> None:
    state = game("r4 s1", "r4 s25", round_limit=1)
    state.apply("coast w0 d10")
    state.apply("coast scoop w0 d5")
    assert state.outcome.winners == (1,)


def test_round_limit_full_tie_is_shared() -> None:
    state = game("r4 s1", "r4 s25", round_limit=1)
    state.apply("coast w0 d10")
    state.apply("coast w0 d10")
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
    assert me["defense"] == 6 and me["in_transfer_to"] == 5
    assert state.full_view() == views[0]
    assert [r["velocity"] for r in views[0]["rings"]] == [12, 10, 8, 6, 4, 3, 2, 1]


def test_render_shows_rings_ships_and_status_table() -> None:
    state = game("r4 s1", "r2 s9")
    state.apply("burn pro hard w0 d8")
    text = state.render(1)
    for word in ("ring", "sector", "facing", "mass", "hull", "transfer", "-> 6", "burn pro hard w0 d8"):
        assert word in text
    assert "●" in text


def test_evaluate_prefers_the_ship_with_more_hull() -> None:
    state = game("r4 s1", "r4 s9")
    assert state.evaluate(0) == pytest.approx(0.0)
    state.apply("coast w6 d4")
    assert state.evaluate(0) > 0 > state.evaluate(1)
    assert -1.0 <= state.evaluate(1) <= 1.0


def test_allocations_in_the_view_parse_back() -> None:
    state = game("r4 s1", "r4 s9")
    state.apply("coast scoop w3 d2")
    assert parse_allocation(state.view()["ships"][0]["last_allocation"]) == parse_allocation("coast scoop w3 d2")
