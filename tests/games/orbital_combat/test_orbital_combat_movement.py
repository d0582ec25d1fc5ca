"""The seed's movement system: burns, staging, rotation, scoop, sector movement, Examples 1-3, the cost matrix."""

from __future__ import annotations

import pytest

import astrarium
from astrarium.core import IllegalAction, State
from astrarium.games.orbital_combat import Allocation, Facing, Intensity, parse_allocation

GAME = astrarium.get_game("orbital-combat")
FAR = "r8 s26"  # an opponent on the far side of ring 8: out of range of ring 4 and below


@pytest.fixture(params=["round", "turn"], autouse=True)
def resolution(request: pytest.FixtureRequest) -> str:
    """Every movement rule holds alike whether a round or each ship's turn is the unit of resolution."""
    global RESOLUTION
    RESOLUTION = request.param
    return RESOLUTION


RESOLUTION = "round"


def game(*ships: str, **options: object) -> State:
    options.setdefault("zone_round", 0)  # the seed's movement alone: no ship is worn down by the closing zone
    options.setdefault("turn_order", "fixed")
    options.setdefault("resolution", RESOLUTION)
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def ship(state: State, seat: int) -> dict:
    return state.view()["ships"][seat]


def wait(state: State) -> None:
    """The other ship(s) coast, spending all energy on defense, until seat 0 is to move again."""
    while state.current_player != 0:
        state.apply("coast w0 d10")


def act(state: State, action: object) -> None:
    """Seat 0 plays ``action`` and the others coast, so the turn (or the round) has been resolved when this returns."""
    state.apply(action)
    wait(state)


# -- The Eight Rings: sector movement ---------------------------------------------------


SEED_RINGS = [(1, 12, 24), (2, 10, 30), (3, 8, 32), (4, 6, 48), (5, 4, 56), (6, 3, 54), (7, 2, 58), (8, 1, 50)]


@pytest.mark.parametrize("ring,velocity,sectors", SEED_RINGS)
def test_the_eight_rings_move_by_their_velocity_each_turn(ring: int, velocity: int, sectors: int) -> None:
    state = game(f"r{ring} s1", FAR if ring != 8 else "r4 s25")
    act(state, "coast w0 d10")
    assert ship(state, 0)["sector"] == 1 + velocity
    assert ship(state, 0)["ring"] == ring


def test_turn_resolution_phase5_new_sector_wraps_mod_sectors() -> None:
    state = game("r1 s21", FAR)  # index 20 + 12 = 32 mod 24 = 8: sector 9
    act(state, "coast w0 d10")
    assert ship(state, 0)["sector"] == 9


@pytest.mark.parametrize("ring", range(1, 9))
def test_the_eight_rings_full_orbit_takes_sectors_over_velocity_turns(ring: int) -> None:
    table = GAME.new_game(2, 0).table  # type: ignore[attr-defined]
    state = game(f"r{ring} s1", "r8 s26" if ring < 8 else "r1 s1", round_limit=60)
    turns = table.sectors[ring] // table.velocity[ring]
    for _ in range(turns):
        act(state, "coast w0 d10")
        wait(state)
    assert ship(state, 0)["sector"] == 1


# -- Burn Staging System ---------------------------------------------------------


def test_burn_staging_ship_stays_in_ring_this_turn_and_arrives_next_turn() -> None:
    state = game("r4 s1", FAR)
    act(state, "burn pro soft w0 d9")
    assert (ship(state, 0)["ring"], ship(state, 0)["in_transfer_to"]) == (4, 5)
    wait(state)
    act(state, "coast w0 d10")
    assert (ship(state, 0)["ring"], ship(state, 0)["in_transfer_to"]) == (5, None)


def test_burn_staging_arrived_ship_may_burn_again_that_turn() -> None:
    state = game("r4 s1", FAR)
    act(state, "burn pro soft w0 d9")
    wait(state)
    act(state, "burn pro soft w0 d9")
    assert (ship(state, 0)["ring"], ship(state, 0)["in_transfer_to"]) == (5, 6)


def test_burn_staging_limits_are_checked_from_the_arrival_ring() -> None:
    state = game("r2 s1 retro", FAR)
    act(state, "burn retro soft w0 d9")  # to ring 1
    wait(state)
    with pytest.raises(IllegalAction, match="pass ring 1"):
        state.apply("burn retro soft w0 d9")
    assert not any(a.burn and a.direction == Facing.RETROGRADE for a in state.legal_actions())


def test_burn_staging_landing_keeps_the_angle() -> None:
    # Ring 8 sector 50 (index 49, 356.4 degrees) lands on ring 5's last sector (index 55), then moves 4.
    state = game("r8 s49 retro", "r4 s1")
    act(state, "burn retro extreme w0 d7")  # moves to sector 50 of ring 8, transfer to ring 5
    assert ship(state, 0)["sector"] == 50
    wait(state)
    act(state, "coast w0 d10")
    assert ship(state, 0)["ring"] == 5
    assert ship(state, 0)["sector"] == (55 + 4) % 56 + 1


def test_burn_staging_transfer_cannot_be_cancelled() -> None:
    state = game("r4 s1", FAR)
    act(state, "burn pro hard w0 d8")
    wait(state)
    act(state, "rot coast w0 d9")  # flipping does not stop the arrival
    assert ship(state, 0)["ring"] == 6


# -- Ship Systems: rotational thrusters and the torch ------------------------------------


def test_rotational_thrusters_sequence_example() -> None:
    """Turn 1 burn retro: rotate + burn (2E); turn 2 burn retro: no rotation (1E); turn 3 burn pro: rotate + burn."""
    state = game("r6 s1", FAR)
    first = parse_allocation("rot burn retro soft w0 d8")
    assert first.maneuver_energy == 2
    act(state, first)
    wait(state)
    with pytest.raises(IllegalAction, match="face"):
        state.apply("rot burn retro soft w0 d8")
    second = parse_allocation("burn retro soft w0 d9")
    assert second.maneuver_energy == 1
    act(state, second)
    wait(state)
    third = parse_allocation("rot burn pro soft w0 d8")
    assert third.maneuver_energy == 2
    act(state, third)
    assert ship(state, 0)["facing"] == "prograde"
    assert (ship(state, 0)["ring"], ship(state, 0)["in_transfer_to"]) == (4, 5)


def test_fusion_torch_cannot_burn_facing_the_wrong_way() -> None:
    state = game("r4 s1", FAR)
    with pytest.raises(IllegalAction, match="add 'rot'"):
        state.apply("burn retro soft w0 d9")


def test_ship_facing_persists_until_rotated() -> None:
    state = game("r4 s1", FAR)
    act(state, "rot coast w0 d9")
    for _ in range(3):
        wait(state)
        act(state, "coast w0 d10")
        assert ship(state, 0)["facing"] == "retrograde"


@pytest.mark.parametrize("intensity,rings", [("soft", 1), ("hard", 2), ("extreme", 3)])
def test_burn_intensities_retrograde_inward_prograde_outward(intensity: str, rings: int) -> None:
    inward = game("r4 s1 retro", FAR)
    act(inward, f"burn retro {intensity} w0 d{10 - rings}")
    assert ship(inward, 0)["in_transfer_to"] == 4 - rings
    outward = game("r4 s1", FAR)
    act(outward, f"burn pro {intensity} w0 d{10 - rings}")
    assert ship(outward, 0)["in_transfer_to"] == 4 + rings


def test_one_burn_per_turn() -> None:
    state = game("r4 s1", FAR)
    with pytest.raises(IllegalAction, match="one burn"):
        state.apply("burn pro soft burn pro soft w0 d8")
    burns = {(a.rotate, a.burn, a.direction) for a in state.legal_actions() if a.burn}
    assert burns == {(False, k, Facing.PROGRADE) for k in Intensity} | {(True, k, Facing.RETROGRADE) for k in Intensity}
    assert state.history == []


# -- Fuel Scoop -------------------------------------------------------------------------


@pytest.mark.parametrize("ring,gain", [(1, 12), (2, 10), (3, 8), (4, 6), (5, 4), (6, 3), (7, 2), (8, 1)])
def test_scoop_efficiency_by_ring(ring: int, gain: int) -> None:
    state = game(f"r{ring} s1 m8", FAR if ring != 8 else "r4 s25")
    act(state, "coast scoop w0 d5")
    assert ship(state, 0)["mass"] == 8 + gain


def test_scoop_recovery_capped_at_24() -> None:
    state = game("r1 s1 m20", FAR)
    act(state, "coast scoop w0 d5")
    assert ship(state, 0)["mass"] == 24


def test_scoop_after_arrival_recovers_the_new_rings_sectors_moved() -> None:
    state = game("r4 s1 retro m8", FAR)
    act(state, "burn retro hard w0 d8")  # to ring 2; mass 6
    wait(state)
    act(state, "coast scoop w0 d5")
    assert ship(state, 0)["mass"] == 6 + 10


# -- Examples -------------------------------------------------------------------------


def test_example1_hard_burn_multi_ring_jump() -> None:
    # You: ring 5, facing retrograde; an opponent on ring 5 in range.
    state = game("r5 s1 retro m10", "r5 s10")
    action = parse_allocation("burn retro hard w5 d3")
    assert (action.rotate, action.burn, action.scoop, action.weapons, action.defense) == (False, Intensity.HARD, False, 5, 3)
    assert action.maneuver_energy == 2 and 10 - action.maneuver_energy == 8  # "2E (engines) = 8E remaining"
    assert action in state.legal_actions()
    act(state, action)
    me = ship(state, 0)
    assert me["ring"] == 5 and me["in_transfer_to"] == 3  # still in ring 5, in transfer to ring 3
    assert me["sector"] == 1 + 4  # moved 4 sectors at ring 5's velocity
    assert me["mass"] == 8  # reaction mass -2
    assert me["facing"] == "retrograde"
    wait(state)
    act(state, "coast w0 d10")
    # Arrived in ring 3 at the same angle (index 4 of 56 -> index 2 of 32), then moved 8.
    assert ship(state, 0)["ring"] == 3 and ship(state, 0)["sector"] == 2 + 8 + 1


def test_example2_extreme_burn_last_resort_escape() -> None:
    state = game("r3 s1 retro m10", "r3 s12")
    action = parse_allocation("rot burn pro extreme w2 d4")
    assert action.maneuver_energy == 1 + 3 == 4
    # The seed writes "(7E remaining)": 10 - 4 is 6, exactly what weapons 2 + defense 4 spend.
    assert 10 - action.maneuver_energy == 6 == action.weapons + action.defense
    with pytest.raises(IllegalAction, match="spends 11 energy"):
        state.apply("rot burn pro extreme w3 d4")  # spending the "7 remaining" goes over 10
    act(state, action)
    me = ship(state, 0)
    assert me["facing"] == "prograde"
    assert me["ring"] == 3 and me["in_transfer_to"] == 6
    assert me["sector"] == 1 + 8  # still in ring 3: moved 8 sectors
    assert me["mass"] == 7


def test_example3_sequential_burn_intensity_advantage() -> None:
    # Seat 0 is the opponent (ahead of you on ring 4, moves first); seat 1 is you, facing prograde.
    state = game("r4 s5", "r4 s1")
    state.apply("rot burn retro hard w4 d3")
    # You see the opponent's whole allocation before you decide (seed: Sequential Turn Advantage).
    seen = state.view(1)["ships"][0]
    assert seen["last_allocation"] == "rot burn retro hard w4 d3"
    seen_action = parse_allocation(seen["last_allocation"])
    assert seen_action.rotate and seen_action.burn == Intensity.HARD and not seen_action.scoop
    # You can burn prograde without rotating.
    assert parse_allocation("burn pro hard w5 d3") in state.legal_actions()
    state.apply("burn pro hard w5 d3")
    me, opponent = ship(state, 1), ship(state, 0)
    assert me["in_transfer_to"] == 6 and me["facing"] == "prograde"
    assert opponent["in_transfer_to"] == 2 and opponent["facing"] == "retrograde"
    assert me["mass"] == opponent["mass"] == 8


# -- Cost Matrix ------------------------------------------------------------------------

COST_MATRIX = [
    # (row, start facing, allocation without w/d, energy, mass, ring after 1 turn, ring after 2 turns)
    ("coast same direction", "pro", "coast", 0, 0, 4, 4),
    ("coast + scoop active", "pro", "coast scoop", 5, 0, 4, 4),
    ("coast + change direction", "pro", "rot coast", 1, 0, 4, 4),
    ("soft burn same direction", "pro", "burn pro soft", 1, 1, 4, 5),
    ("soft burn change direction", "retro", "rot burn pro soft", 2, 1, 4, 5),
    ("hard burn same direction", "pro", "burn pro hard", 2, 2, 4, 6),
    ("hard burn change direction", "retro", "rot burn pro hard", 3, 2, 4, 6),
    ("extreme burn same direction", "pro", "burn pro extreme", 3, 3, 4, 7),
    ("extreme burn change direction", "retro", "rot burn pro extreme", 4, 3, 4, 7),
]


@pytest.mark.parametrize("row,facing,maneuver,energy,mass,ring1,ring2", COST_MATRIX, ids=[r[0] for r in COST_MATRIX])
def test_cost_matrix_single_maneuvers(row: str, facing: str, maneuver: str, energy: int, mass: int, ring1: int, ring2: int) -> None:
    state = game(f"r4 s1 {facing} m10", FAR)
    action = parse_allocation(f"{maneuver} w0 d{10 - energy}")
    assert action.maneuver_energy == energy and action.mass == mass
    assert action in state.legal_actions()
    with pytest.raises(IllegalAction, match="more than the 10"):
        state.apply(f"{maneuver} w0 d{11 - energy}")
    act(state, action)
    scooped = 6 if "scoop" in maneuver else 0
    assert ship(state, 0)["mass"] == 10 - mass + scooped
    assert ship(state, 0)["ring"] == ring1
    wait(state)
    act(state, "coast w0 d10")
    assert ship(state, 0)["ring"] == ring2  # burns take 2 turns: the burn turn and the arrival turn
    assert ship(state, 0)["in_transfer_to"] is None


def _chain(burns: list[str]) -> tuple[State, int, int]:
    state = game("r4 s1 m10", FAR, round_limit=10)
    energy = 0
    for burn in burns:
        action = parse_allocation(f"burn pro {burn}")
        energy += action.maneuver_energy
        act(state, action)
        wait(state)
    act(state, "coast w0 d10")  # the arrival at the start of the turn after the last burn
    return state, energy, 10 - ship(state, 0)["mass"]


def test_cost_matrix_escape_3_rings_soft_chain() -> None:
    state, energy, mass = _chain(["soft", "soft", "soft"])
    assert (ship(state, 0)["ring"], energy, mass) == (7, 3, 3)


def test_cost_matrix_mixed_chain_hard_plus_soft_is_3_rings_for_3() -> None:
    # The seed's row "Escape 4 rings (mixed chain) | 2+3 | 2+3 | 2 | Hard + soft burns" is a slip: see rules.md.
    state, energy, mass = _chain(["hard", "soft"])
    assert (ship(state, 0)["ring"], energy, mass) == (7, 3, 3)


def test_cost_matrix_escape_4_rings_in_two_burns_costs_4() -> None:
    state, energy, mass = _chain(["hard", "hard"])
    assert (ship(state, 0)["ring"], energy, mass) == (8, 4, 4)


def test_allocation_notation_round_trips() -> None:
    for text in ["coast w0 d10", "rot burn pro extreme w2 d4", "burn retro hard w5 d3", "coast scoop w3 d2 @2"]:
        assert str(parse_allocation(text)) == text
    assert parse_allocation("burn retrograde 2 w5") == Allocation(False, Intensity.HARD, Facing.RETROGRADE, False, 5, 3)


# -- Power Allocation System examples --------------------------------------------------------


@pytest.mark.parametrize(
    "name,text",
    [
        ("aggressive pursuit", "rot burn pro hard w6 d1"),
        ("desperate escape", "rot burn pro extreme w2 d4"),
        ("defensive recovery", "coast scoop w3 d2"),
    ],
)
def test_power_allocation_examples_spend_exactly_10(name: str, text: str) -> None:
    state = game("r4 s1 retro", "r4 s9")
    action = parse_allocation(text)
    assert action.energy == 10
    assert action in state.legal_actions()


def test_power_allocation_balanced_operation_scoops_while_burning() -> None:
    # The seed's "Balanced operation" (rotate 1, engines 1, scoop 5, weapons 2, defense 1) burns and scoops
    # in one turn, which its Fuel Scoop constraint forbids: the constraint wins (see rules.md).
    state = game("r4 s1 retro", "r4 s9")
    action = parse_allocation("rot burn pro soft scoop w2 d1")
    assert action.energy == 10
    assert action not in state.legal_actions()
    with pytest.raises(IllegalAction, match="cannot be activated while burning"):
        state.apply(action)
