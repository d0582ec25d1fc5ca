"""The judgement the computer players read (``State.evaluate``): hull and reaction-mass leads, a round worked out first.

Declared as the game's ``parts.evaluate``; rules.md, "How the computer players
judge a position", says the same in words.
"""

from __future__ import annotations

import math

from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS
from astrarium.games.orbital_combat.state import OrbitalState, shot_damage

EVAL_SHARPNESS = 3.0
"""Slope of the hull-lead term of ``evaluate`` (through tanh)."""


def evaluate(state: OrbitalState, seat: int) -> float:
    """Hull lead over the strongest opponent (90%) and reaction-mass lead (10%), in [-1, 1].

    In the middle of a round (round resolution) the allocations made so far
    have not acted yet, so the round is first worked out: each ship still
    to allocate is assumed to coast and answer them with its best split of
    weapons (at ``seat`` when it may) and defense, so a first mover's
    allocation is scored against the answer it invites rather than
    against nothing.
    """
    if state.is_over:
        return state.returns()[seat]
    if state.by_round and state.turn_index > 0:
        return _projected_value(state, seat)
    return _static_value(state, seat, state.hull, state.mass, state.alive)


def _projected_value(state: OrbitalState, seat: int) -> float:
    """``evaluate`` after the current round, worked out arithmetically from the round's plan (no copy of the state)."""
    n = state.players
    flying = [s for s in range(n) if state.alive[s]]
    hull, mass = state.hull.copy(), state.mass.copy()
    for a, b in state.plan.bumps:
        hull[a] -= state.collision_damage
        hull[b] -= state.collision_damage
    weapons, defense, target = _allocations_made(state, flying, mass)
    # every ship still to allocate, with a ship in range, coasts and answers with its best split, at ``seat`` if it may
    in_range = state.plan.in_range
    for s in flying:
        if state.pending[s] is None and in_range[s] and hull[s] > 0:
            options = in_range[s]
            t = seat if seat in options else options[0]
            weapons[s], defense[s] = _best_answer(state, s, t, hull, weapons, defense, target)
            target[s] = t
    # the shots (ships destroyed by a bump neither fire nor are fired at), the zone, then the hulls after them
    damage = _shots(state, flying, hull, weapons, defense, target)
    alive = [False] * n
    for s in flying:
        hull[s] = max(0, hull[s] - damage[s])
        alive[s] = hull[s] > 0
    left = [s for s in flying if alive[s]]
    if len(left) <= 1 or state.round + 1 >= state.round_limit:
        return _final_value(state, seat, flying, left, hull, mass)
    return _static_value(state, seat, hull, mass, alive)


def _shots(state: OrbitalState, flying: list[int], hull: list[int], weapons: list[int], defense: list[int], target: list[int]) -> list[int]:
    """The round's shots as the fire order lands them, and the closing zone: the damage each ship takes (shots in turn
    order are taken off ``hull`` at once, and a ship destroyed first does not fire)."""
    damage = [0] * state.players
    band, per_point, cap = state.plan.band, state.shield_per_point, state.shield_cap
    in_turn = state.fire_in_turn
    for s in state.order if in_turn else flying:
        t = target[s]
        if t >= 0 and hull[s] > 0 and hull[t] > 0:
            hit = shot_damage(weapons[s] - band[s][t], defense[t], per_point, cap)
            if in_turn:
                hull[t] -= hit
            else:
                damage[t] += hit
    zone, ring = state.zone_edge(), state.plan.ring
    for s in flying:
        if ring[s] > zone:
            damage[s] += state.zone_damage
    return damage


def _allocations_made(state: OrbitalState, flying: list[int], mass: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The weapons, defense and target (-1: none) of every ship this round so far, a ship still to allocate all
    defense; the burns and scoops made are taken off or added to ``mass``."""
    n = state.players
    weapons, defense, target = [0] * n, [0] * n, [-1] * n
    velocity = state.table.velocity
    ring = state.plan.ring
    for s in flying:
        action = state.pending[s]
        if action is None:
            defense[s] = ENERGY
            continue
        weapons[s], defense[s] = action.weapons, action.defense
        if action.weapons:
            target[s] = action.target if action.target is not None else next(o for o in flying if o != s)
        if action.burn:
            mass[s] -= action.burn
        elif action.scoop:
            mass[s] = min(MAX_MASS, mass[s] + velocity[ring[s]])
    return weapons, defense, target


def _final_value(state: OrbitalState, seat: int, flying: list[int], left: list[int], hull: list[int], mass: list[int]) -> float:
    """The return of ``seat`` when the round ends the game: the one ship left wins, or at the round limit the most
    hull, then mass (all destroyed: every ship that flew draws)."""
    if len(left) > 1:  # the round limit's tie-break
        best = max((hull[s], mass[s]) for s in left)
        winners = [s for s in left if (hull[s], mass[s]) == best]
    else:
        winners = left or flying
    if len(winners) == state.players:
        return 0.0
    return 1.0 if seat in winners else -1.0


def _best_answer(
    state: OrbitalState, seat: int, target: int, hull: list[int], weapons: list[int], defense: list[int], aims: list[int]
) -> tuple[int, int]:
    """The weapons-defense split a coasting ``seat`` would answer the allocations made so far with (for ``evaluate``).

    It fires at ``target`` and weighs what it deals against what the shots
    already allocated at it would do: destroying the target counts most,
    being destroyed least, then the damage balance; ties go to more defense.
    The answer depends only on distance bands, defenses and hulls up to
    the most one shot can do, so it is worked out once per situation.
    """
    band = state.plan.band
    incoming = tuple(sorted((weapons[s], band[s][seat]) for s in range(state.players) if aims[s] == seat and hull[s] > 0))
    key = (
        state.fire_in_turn,
        state.shield_per_point,
        state.shield_cap,
        band[seat][target],
        defense[target] if hull[target] > 0 else -1,
        min(hull[target], ENERGY + 1),
        min(hull[seat], ENERGY * len(incoming) + 1),
        incoming,
    )
    answer = _ANSWERS.get(key)
    if answer is None:
        answer = _ANSWERS[key] = _answer(*key)
    return answer


def _static_value(state: OrbitalState, seat: int, hull: list[int], mass: list[int], alive: list[bool]) -> float:
    if not alive[seat]:
        return -1.0
    top = state.start_hull or 1
    strongest = -1
    others = total_mass = 0
    for s in range(state.players):
        h = hull[s]
        if h > top:
            top = h
        if s != seat and alive[s]:
            if h > strongest:
                strongest = h
            others += 1
            total_mass += mass[s]
    hull_lead = (hull[seat] - strongest) / top
    mass_lead = (mass[seat] - total_mass / others) / MAX_MASS
    return max(-1.0, min(1.0, 0.9 * math.tanh(EVAL_SHARPNESS * hull_lead) + 0.1 * mass_lead))


_ANSWERS: dict[tuple, tuple[int, int]] = {}


def _answer(
    after: bool,
    per_point: int,
    cap: int,
    band: int,
    target_defense: int,
    target_hull: int,
    hull: int,
    incoming: tuple[tuple[int, int], ...],
) -> tuple[int, int]:
    """The (weapons, defense) a coasting ship answers with (see ``_best_answer``); ``target_defense`` -1: no target left;
    ``after``: its shot lands after the incoming ones (``fire_order = initiative``), so it deals nothing if they destroy it."""
    best, best_score = (0, ENERGY), -math.inf
    for w in range(ENERGY + 1):
        d = ENERGY - w
        dealt = shot_damage(w - band, target_defense, per_point, cap) if target_defense >= 0 else 0
        taken = sum(shot_damage(shot - shot_band, d, per_point, cap) for shot, shot_band in incoming)
        if after and taken >= hull:
            dealt = 0
        score = dealt - taken + (100 if target_defense >= 0 and dealt >= target_hull else 0) - (100 if taken >= hull else 0)
        if score > best_score:
            best, best_score = (w, d), float(score)  # a float throughout, as the compiled build requires
    return best
