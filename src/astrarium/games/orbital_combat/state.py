"""The position and the turn sequence: six phases per ship turn, then combat.

Each ship's turn is one action, an :class:`Allocation`, resolved in the seed's
six phases: allocation, transfer resolution, orientation and burn, scoop,
sector movement (with the proximity check), other actions (weapons fire).
"""

from __future__ import annotations

from typing import Any

from astrarium.core.game import State
from astrarium.core.outcome import Outcome
from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS, Allocation, Facing, Intensity, parse_allocation, safe_repr
from astrarium.games.orbital_combat.fleet import starting_ships
from astrarium.games.orbital_combat.rings import RingTable, load_ring_table

# Legal allocation lists depend only on (facing, deepest inward burn, farthest
# outward burn, the targets in range, whether a target must be named); they are
# built once per key and shared.
_LEGAL_CACHE: dict[tuple, list[Allocation]] = {}


def _build_allocations(facing: int, max_in: int, max_out: int, targets: tuple[int | None, ...]) -> list[Allocation]:
    """Every full allocation for that situation, in a fixed order."""
    result: list[Allocation] = []
    for rotate in (False, True):
        heading = facing ^ 1 if rotate else facing
        reach = max_in if heading == Facing.RETROGRADE else max_out
        maneuvers: list[tuple[Intensity | None, Facing | None, bool]] = [(None, None, False), (None, None, True)]
        maneuvers += [(Intensity(k), Facing(heading), False) for k in range(1, reach + 1)]
        for burn, direction, scoop in maneuvers:
            left = ENERGY - (1 if rotate else 0) - (int(burn) if burn else 0) - (5 if scoop else 0)
            result.append(Allocation(rotate, burn, direction, scoop, 0, left))
            for weapons in range(1, left + 1):
                for target in targets:
                    result.append(Allocation(rotate, burn, direction, scoop, weapons, left - weapons, target))
    return result


class OrbitalState(State):
    """Ships on rings around a black hole. Per-ship data is kept in parallel lists indexed by seat."""

    table: RingTable
    ring: list[int]
    sector: list[int]
    facing: list[int]
    mass: list[int]
    hull: list[int]
    defense: list[int]
    dest: list[int]
    alive: list[bool]
    last: list[Allocation | None]
    round: int
    order: list[int]
    turn_index: int
    events: list[str]

    # -- setup -------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        table = self.table = load_ring_table(o["ring_table"])
        self.round_limit: int = o["round_limit"]
        self.weapon_range: float = o["weapon_range_mm"]
        self.falloff: float = o["falloff_mm"]
        self.collision_mm: float = o["collision_mm"]
        self.collision_damage: int = o["collision_damage"]
        self.start_hull: int = o["hull"]
        # Squared thresholds matching table.distance's rounding to a micrometre:
        # in range when the rounded distance <= range, colliding when it is < collision_mm.
        self._range2 = (self.weapon_range + 0.0005) ** 2
        self._collision2 = max(0.0, self.collision_mm - 0.0005) ** 2
        n = self.players
        ships = starting_ships(table, n, o)
        self.ring = [ship.ring for ship in ships]
        self.sector = [ship.sector - 1 for ship in ships]
        self.facing = [int(ship.facing) for ship in ships]
        self.mass = [o["start_mass"] if ship.mass is None else ship.mass for ship in ships]
        self.hull = [o["hull"] if ship.hull is None else ship.hull for ship in ships]
        self.defense = [0] * n
        self.dest = [0] * n
        self.alive = [True] * n
        self.last = [None] * n
        self.round = 0
        self.order = self._round_order()
        self.turn_index = 0
        self.events = []

    def _round_order(self) -> list[int]:
        """The seats still flying, in this round's order (``turn_order`` option)."""
        n = self.players
        first = self.round % n if self.options["turn_order"] == "rotate" else 0
        seats = [(first + k) % n for k in range(n)]
        return [s for s in seats if self.alive[s]]

    # -- who moves -----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self._outcome is not None:
            return None
        return self.order[self.turn_index]

    # -- the situation of the seat to move -------------------------------------
    def _situation(self, seat: int) -> tuple[int, int, int, tuple[int, ...], int]:
        """(ring after transfer resolution, its sector, sector after movement, targets in range, opponents left).

        The phase-5 position does not depend on the allocation (a burning ship
        still moves at its current ring's velocity), so the targets in range
        are known when the allocation is made.
        """
        table = self.table
        ring, sector, dest = self.ring[seat], self.sector[seat], self.dest[seat]
        if dest:
            sector = table.landing[ring][dest][sector]
            ring = dest
        moved = (sector + table.velocity[ring]) % table.sectors[ring]
        x, y = table.xy[ring][moved]
        xy, rings, sectors, alive = table.xy, self.ring, self.sector, self.alive
        limit2 = self._range2
        targets = []
        opponents = 0
        for other in range(self.players):
            if other == seat or not alive[other]:
                continue
            opponents += 1
            ox, oy = xy[rings[other]][sectors[other]]
            if (ox - x) * (ox - x) + (oy - y) * (oy - y) < limit2:
                targets.append(other)
        return ring, sector, moved, tuple(targets), opponents

    def _legal_actions(self) -> list[Any]:
        seat = self.order[self.turn_index]
        ring, _, _, targets, opponents = self._situation(seat)
        mass = self.mass[seat]
        max_in = min(3, mass, ring - self.table.innermost)
        max_out = min(3, mass, self.table.outermost - ring)
        named: tuple[int | None, ...] = targets if opponents > 1 else ((None,) if targets else ())
        key = (self.facing[seat], max_in, max_out, named)
        legal = _LEGAL_CACHE.get(key)
        if legal is None:
            legal = _LEGAL_CACHE[key] = _build_allocations(*key)
        return legal

    # -- notation and reasons ------------------------------------------------
    def parse_action(self, text: str) -> Allocation:
        return parse_allocation(text)

    def explain_illegal(self, action: Any) -> str:
        """Every rule the allocation breaks, in the seed's words where the seed has them."""
        if not isinstance(action, Allocation):
            return f"{safe_repr(action)} is not an allocation; {self._legal_hint()}"
        malformed = action.malformed()
        if malformed is not None:
            return f"{action!r} is not an allocation a ship can make: {malformed}"
        seat = self.order[self.turn_index]
        ring, _, moved, targets, opponents = self._situation(seat)
        problems = self._maneuver_problems(action, seat, ring)
        if action.energy > ENERGY:
            spent = f"spends {action.energy} energy ({_breakdown(action)})"
            problems.insert(0, f"{spent}, more than the {ENERGY} a ship has each turn (seed: Power Allocation)")
        elif action.energy < ENERGY:
            problems.append(
                f"leaves {ENERGY - action.energy} of the {ENERGY} energy unassigned; every point is allocated each turn "
                "(house rule: put what is left into defense)"
            )
        weapons = self._weapons_problem(action, seat, ring, moved, targets, opponents)
        if weapons:
            problems.append(weapons)
        if not problems:
            return f"{action} is not a legal allocation now; {self._legal_hint()}"
        return f"{action}: " + "; ".join(problems)

    def _maneuver_problems(self, action: Allocation, seat: int, ring: int) -> list[str]:
        table = self.table
        facing = Facing(self.facing[seat])
        heading = facing.flipped if action.rotate else facing
        mass = self.mass[seat]
        if action.burn is None:
            return ["a coast has no direction"] if action.direction is not None else []
        if action.direction is None:
            return ["a burn needs a direction, pro or retro"]
        problems = []
        word = action.burn.word
        if action.direction != heading:
            fix = "drop 'rot'" if action.rotate else "add 'rot' (1 energy)"
            problems.append(
                f"seat {seat} faces {facing.name.lower()}{' and would rotate to ' + heading.name.lower() if action.rotate else ''} "
                f"but burns {action.direction.name.lower()}; a ship burns only the way it faces: {fix} "
                "(seed: Rotational Thrusters, Fusion Torch Drive)"
            )
        if action.direction == Facing.RETROGRADE and ring - int(action.burn) < table.innermost:
            problems.append(
                f"from ring {ring} a {word} retrograde burn would pass ring {table.innermost}, the innermost ring "
                "(seed: Constraints: cannot transfer beyond Ring 1 or Ring 8)"
            )
        if action.direction == Facing.PROGRADE and ring + int(action.burn) > table.outermost:
            problems.append(
                f"from ring {ring} a {word} prograde burn would pass ring {table.outermost}, the outermost ring "
                "(seed: Constraints: cannot transfer beyond Ring 1 or Ring 8)"
            )
        if action.mass > mass:
            problems.append(
                f"a {word} burn needs {action.mass} reaction mass and seat {seat} has {mass}; "
                "no burn without the mass for it (seed: Fuel starvation)"
            )
        if action.scoop:
            problems.append("the fuel scoop cannot be activated while burning (seed: Fuel Scoop, Constraint)")
        return problems

    def _weapons_problem(
        self, action: Allocation, seat: int, ring: int, moved: int, targets: tuple[int, ...], opponents: int
    ) -> str | None:
        t = action.target
        if action.weapons == 0:
            return None if t is None else "a target needs weapons energy (w1 or more)"
        if not targets:
            return (
                f"no opponent is within weapon range ({self.weapon_range:g} mm) of sector {moved + 1} of ring {ring}; "
                "put the energy into defense or systems"
            )
        if t is None:
            if opponents > 1:
                return f"{opponents} opponents are left; name the target with @seat (in range: {_seats(targets)})"
            return None
        if opponents == 1 and t in targets:
            return f"with one opponent left the target goes without saying: leave out @{t}"
        if not 0 <= t < self.players or t == seat:
            return f"@{t} is not an opponent's seat"
        if not self.alive[t]:
            return f"seat {t} has been destroyed"
        if t not in targets:
            d = self.table.distance(ring, moved, self.ring[t], self.sector[t])
            return f"seat {t} will be {d:.0f} mm away, beyond weapon range ({self.weapon_range:g} mm)"
        return None

    # -- playing a turn --------------------------------------------------------
    def _apply(self, action: Allocation) -> None:
        table = self.table
        seat = self.order[self.turn_index]
        events: list[str] = []
        # Phase 1: allocation (defense protects from now until this ship's next turn).
        self.last[seat] = action
        self.defense[seat] = action.defense
        # Phase 2: transfer resolution.
        ring, sector, dest = self.ring[seat], self.sector[seat], self.dest[seat]
        if dest:
            sector = table.landing[ring][dest][sector]
            events.append(f"seat {seat} arrives in ring {dest}")
            ring = self.ring[seat] = dest
            self.dest[seat] = 0
        # Phase 3: orientation and burn.
        if action.rotate:
            self.facing[seat] ^= 1
        if action.burn:
            self.mass[seat] -= action.burn
            self.dest[seat] = ring - action.burn if action.direction == Facing.RETROGRADE else ring + action.burn
        # Phases 4 and 5: the scoop recovers the sectors moved; movement.
        velocity = table.velocity[ring]
        if action.scoop:
            self.mass[seat] = min(MAX_MASS, self.mass[seat] + velocity)
        sector = self.sector[seat] = (sector + velocity) % table.sectors[ring]
        x, y = table.xy[ring][sector]
        # Proximity: tokens that overlap collide.
        if self.collision_mm > 0:
            for other in range(self.players):
                if other == seat or not self.alive[other]:
                    continue
                ox, oy = table.xy[self.ring[other]][self.sector[other]]
                if (ox - x) * (ox - x) + (oy - y) * (oy - y) < self._collision2:
                    events.append(f"seat {seat} collides with seat {other}")
                    self.hull[seat] -= self.collision_damage
                    self.hull[other] -= self.collision_damage
        # Phase 6: weapons fire.
        if action.weapons and self.hull[seat] > 0:
            target = action.target
            if target is None:
                target = next(s for s in range(self.players) if s != seat and self.alive[s])
            if self.hull[target] > 0:
                distance = table.distance(ring, sector, self.ring[target], self.sector[target])
                damage = max(0, action.weapons - int(distance // self.falloff) - self.defense[target])
                self.hull[target] -= damage
                events.append(f"seat {seat} fires {action.weapons} at seat {target} ({distance:.0f} mm): {damage} damage")
        self._after_turn(seat, events)

    def _after_turn(self, seat: int, events: list[str]) -> None:
        destroyed = []
        for s in range(self.players):
            if self.alive[s] and self.hull[s] <= 0:
                self.hull[s] = 0
                self.alive[s] = False
                self.dest[s] = 0
                destroyed.append(s)
                events.append(f"seat {s} is destroyed")
        self.events = events
        left = [s for s in range(self.players) if self.alive[s]]
        if len(left) <= 1:
            if left:
                reason = f"seat {left[0]} is the last ship flying"
                winners = tuple(left)
            else:
                winners = tuple(destroyed)
                reason = "the last ships destroyed each other: they share the result"
            self._outcome = Outcome(winners, reason, tuple(float(h) for h in self.hull))
            return
        index = self.turn_index + 1
        while index < len(self.order) and not self.alive[self.order[index]]:
            index += 1
        if index < len(self.order):
            self.turn_index = index
            return
        if self.round + 1 >= self.round_limit:
            self._end_by_round_limit()
            return
        self.round += 1
        self.order = self._round_order()
        self.turn_index = 0

    def _end_by_round_limit(self) -> None:
        """Tie-break: most hull, then most reaction mass; ships still equal share the win."""
        left = [s for s in range(self.players) if self.alive[s]]
        best = max((self.hull[s], self.mass[s]) for s in left)
        winners = tuple(s for s in left if (self.hull[s], self.mass[s]) == best)
        reason = f"round limit {self.round_limit} reached: most hull ({best[0]}), then most reaction mass ({best[1]}) wins"
        self._outcome = Outcome(winners, reason, tuple(float(h) for h in self.hull))

    def _copy_fields(self, new: State) -> None:
        new.ring = self.ring.copy()  # type: ignore[attr-defined]
        new.sector = self.sector.copy()  # type: ignore[attr-defined]
        new.facing = self.facing.copy()  # type: ignore[attr-defined]
        new.mass = self.mass.copy()  # type: ignore[attr-defined]
        new.hull = self.hull.copy()  # type: ignore[attr-defined]
        new.defense = self.defense.copy()  # type: ignore[attr-defined]
        new.dest = self.dest.copy()  # type: ignore[attr-defined]
        new.alive = self.alive.copy()  # type: ignore[attr-defined]
        new.last = self.last.copy()  # type: ignore[attr-defined]
        # order and events are replaced, never changed in place: sharing them is safe.

    # -- what players see ----------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything (perfect information), including each ship's last allocation."""
        table = self.table
        ships = []
        for s in range(self.players):
            ring, sector = self.ring[s], self.sector[s]
            x, y = table.xy[ring][sector]
            last = self.last[s]
            ships.append(
                {
                    "seat": s,
                    "ring": ring,
                    "sector": sector + 1,
                    "facing": Facing(self.facing[s]).name.lower(),
                    "mass": self.mass[s],
                    "hull": self.hull[s],
                    "defense": self.defense[s],
                    "in_transfer_to": self.dest[s] or None,
                    "alive": self.alive[s],
                    "position_mm": [round(x, 1), round(y, 1)],
                    "last_allocation": None if last is None else str(last),
                }
            )
        return {
            "round": self.round + 1,
            "round_limit": self.round_limit,
            "turn_order": list(self.order),
            "to_move": self.current_player,
            "ships": ships,
            "events": list(self.events),
            "rings": table.to_json(),
            "weapon_range_mm": self.options["weapon_range_mm"],
            "falloff_mm": self.options["falloff_mm"],
            "start_hull": self.options["hull"],
        }

    def render(self, seat: int | None = None) -> str:
        from astrarium.games.orbital_combat.render import render_state

        return render_state(self, seat)

    # -- computer players ------------------------------------------------------
    def evaluate(self, seat: int) -> float:
        """Hull lead over the strongest opponent (90%) and reaction-mass lead (10%), in [-1, 1]."""
        if self._outcome is not None:
            return self.returns()[seat]
        if not self.alive[seat]:
            return -1.0
        others = [s for s in range(self.players) if s != seat and self.alive[s]]
        top = self.start_hull or 1
        hull_lead = (self.hull[seat] - max(self.hull[s] for s in others)) / max(top, *self.hull)
        mass_lead = (self.mass[seat] - sum(self.mass[s] for s in others) / len(others)) / MAX_MASS
        return max(-1.0, min(1.0, 0.9 * hull_lead + 0.1 * mass_lead))


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
