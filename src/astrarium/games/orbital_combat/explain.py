"""Why an allocation is not legal in Orbital Combat: every rule it breaks, in the game's own words (``parts.explain``)."""

from __future__ import annotations

from typing import Any

from astrarium.core.svg import SEAT_MARKS
from astrarium.games.orbital_combat.actions import ENERGY, Allocation, Facing, safe_repr
from astrarium.games.orbital_combat.state import OrbitalState


def explain(state: OrbitalState, action: Any) -> str:
    """Every rule the allocation breaks, in the game's own words (the design document's sections stay in rules.md)."""
    if not isinstance(action, Allocation):
        return f"{safe_repr(action)} is not an allocation; {state._legal_hint()}"
    malformed = action.malformed()
    if malformed is not None:
        return f"{action!r} is not an allocation a ship can make: {malformed}"
    seat = state.order[state.turn_index]
    ring, _, moved, targets, opponents = state.situation(seat)
    problems = _maneuver_problems(state, action, seat, ring)
    if action.energy > ENERGY:
        spent = f"spends {action.energy} energy ({_breakdown(action)})"
        problems.insert(0, f"{spent}, more than the {ENERGY} a ship has each turn")
    elif action.energy < ENERGY:
        problems.append(
            f"leaves {ENERGY - action.energy} of the {ENERGY} energy unassigned; every point is allocated each turn "
            "(house rule: put what is left into defense)"
        )
    weapons = _weapons_problem(state, action, seat, ring, moved, targets, opponents)
    if weapons:
        problems.append(weapons)
    if not problems:
        return f"{action} is not a legal allocation now; {state._legal_hint()}"
    return f"{action}: " + "; ".join(problems)


def _maneuver_problems(state: OrbitalState, action: Allocation, seat: int, ring: int) -> list[str]:
    table = state.table
    facing = Facing(state.facing[seat])
    heading = facing.flipped if action.rotate else facing
    mass = state.mass[seat]
    if action.burn is None:
        return ["a coast has no direction"] if action.direction is not None else []
    if action.direction is None:
        return ["a burn needs a direction, pro or retro"]
    problems = []
    word = action.burn.word
    ship = f"ship {SEAT_MARKS[seat % 4]}"
    if action.direction != heading:
        fix = "drop 'rot'" if action.rotate else "add 'rot' (1 energy)"
        problems.append(
            f"{ship} faces {facing.name.lower()}{' and would rotate to ' + heading.name.lower() if action.rotate else ''} "
            f"but burns {action.direction.name.lower()}; a ship burns only the way it faces: {fix}"
        )
    if action.direction == Facing.RETROGRADE and ring - int(action.burn) < table.innermost:
        problems.append(f"from ring {ring} a {word} retrograde burn would pass ring {table.innermost}, the innermost ring")
    if action.direction == Facing.PROGRADE and ring + int(action.burn) > table.outermost:
        problems.append(f"from ring {ring} a {word} prograde burn would pass ring {table.outermost}, the outermost ring")
    if action.mass > mass:
        problems.append(f"a {word} burn needs {action.mass} reaction mass and {ship} has {mass}; no burn without the mass for it")
    if action.scoop:
        problems.append("the fuel scoop cannot be activated while burning")
    return problems


def _weapons_problem(
    state: OrbitalState, action: Allocation, seat: int, ring: int, moved: int, targets: tuple[int, ...], opponents: int
) -> str | None:
    t = action.target
    if action.weapons == 0:
        return None if t is None else "a target needs weapons energy (w1 or more)"
    if not targets:
        return (
            f"no opponent is within weapon range ({state.weapon_range:g} mm) of sector {moved + 1} of ring {ring}; "
            "put the energy into defense or systems"
        )
    if t is None:
        if opponents > 1:
            return f"{opponents} opponents are left; name the target with @seat (in range: {_seats(targets)})"
        return None
    if opponents == 1 and t in targets:
        return f"with one opponent left the target goes without saying: leave out @{t}"
    if not 0 <= t < state.players or t == seat:
        return f"@{t} is not an opponent's seat"
    if not state.alive[t]:
        return f"ship {SEAT_MARKS[t % 4]} (seat {t}) has been destroyed"
    if t not in targets:
        t_ring, t_sector = (state.plan.ring[t], state.plan.end[t]) if state.by_round else (state.ring[t], state.sector[t])
        d = state.table.distance(ring, moved, t_ring, t_sector)
        return f"ship {SEAT_MARKS[t % 4]} (seat {t}) will be {d:.0f} mm away, beyond weapon range ({state.weapon_range:g} mm)"
    return None


def _breakdown(action: Allocation) -> str:
    parts = []
    if action.rotate:
        parts.append("rotation 1")
    if action.burn:
        parts.append(f"engines {int(action.burn)}")
    if action.scoop:
        parts.append("scoop 5")
    parts += [f"weapons {action.weapons}", f"defense {action.defense}"]
    return " + ".join(parts)


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(f"@{s}" for s in seats) or "none"
