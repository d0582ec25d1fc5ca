"""The position and the turn sequence: the seed's six phases, then combat.

Each ship's turn is one action, an :class:`Allocation` (phase 1). With
``resolution = round`` (the default) the ships allocate one after another in
the round's turn order, each seeing the allocations made before it, and once
the last ship has allocated, phases 2-6 are resolved for every ship together:
transfers arrive, rotations and burns, scoops, movement (collisions on the
ships' simultaneous paths), then every shot at once. With ``resolution =
turn`` each ship's six phases are resolved in its own turn, one ship after
another (the rules before the round was made the unit of resolution).
"""

from __future__ import annotations

import math
from typing import Any

from astrarium.core.game import State
from astrarium.core.outcome import Outcome
from astrarium.core.svg import SEAT_MARKS
from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS, Allocation, Facing, Intensity, parse_allocation
from astrarium.games.orbital_combat.fleet import starting_ships
from astrarium.games.orbital_combat.rings import RingTable, load_ring_table

# Legal allocation lists depend only on (facing, deepest inward burn, farthest
# outward burn, the targets in range, whether a target must be named); they are
# built once per key and shared.
_LEGAL_CACHE: dict[tuple, list[Allocation]] = {}
#: A facing's word in views, by its value.
_FACING_WORDS = tuple(facing.name.lower() for facing in Facing)
#: Allocations' notations by the allocation object (the rules hand out the same objects again and again); each entry
#: keeps its object alive, so an id is never reused while it is here, and the table stops growing at _NOTATIONS_MOST.
_NOTATIONS: dict[int, tuple[Allocation, str]] = {}
_NOTATIONS_MOST = 100_000


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


class RoundPlan:
    """What a round holds before anyone allocates (round resolution): positions, distances, targets in range, collisions.

    ``ring[s]`` is ship ``s``'s ring after its arrival, ``start[s]`` its sector
    after landing, ``end[s]`` its sector after moving; ``gap[a][b]`` the
    distance between two ships after moving (mm) and ``band[a][b]`` the
    strength a shot between them loses; ``in_range[s]`` the seats ``s`` may
    fire at; ``bumps`` the pairs whose paths meet. Built once a round and never
    changed, so copies of a position share it.
    """

    __slots__ = ("ring", "start", "end", "gap", "band", "in_range", "bumps")

    def __init__(
        self,
        ring: list[int],
        start: list[int],
        end: list[int],
        gap: list[list[float]],
        band: list[list[int]],
        in_range: list[tuple[int, ...]],
        bumps: list[tuple[int, int]],
    ) -> None:
        self.ring, self.start, self.end, self.gap, self.band, self.in_range, self.bumps = ring, start, end, gap, band, in_range, bumps


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
    pending: list[Allocation | None]
    round: int
    order: list[int]
    turn_index: int
    raw_events: list[tuple]

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
        self.by_round: bool = o["resolution"] == "round"
        self.rotating: bool = o["turn_order"] != "fixed"
        self.behind_first: bool = o["turn_order"] == "behind"
        #: ``rolled``: every round's first seat is drawn by lot among the ships flying, as the round starts.
        self.rolling: bool = o["turn_order"] == "rolled"
        #: The seat that starts round 1 (``drawn``: drawn by lot at set-up, from the game's seed); later rounds rotate from it.
        self.first_seat: int = self.rng.below(self.players) if o["turn_order"] == "drawn" else 0
        self.shield_per_point: int = o["defense_per_point"]
        self.shield_cap: int = o["defense_max_percent"]
        self.zone_round: int = o["zone_round"]
        self.zone_ring: int = o["zone_ring"]
        self.zone_damage: int = o["zone_damage"]
        self.fire_in_turn: bool = o["fire_order"] == "initiative"
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
        self.pending = [None] * n
        self.round = 0
        self.order = self._round_order()
        self.turn_index = 0
        self.raw_events = []
        self._plan: RoundPlan | None = None

    @property
    def plan(self) -> RoundPlan:
        """This round's :class:`RoundPlan`, worked out the first time it is needed.

        Neither positions nor distances depend on this round's allocations (an
        arrival was fixed by last round's burn; a burning ship still moves on
        its current ring), so with round resolution the positions every shot
        is fired from and at, the targets in range and the collisions are known
        before anyone allocates. A search that only scores the position after a
        round never needs the next round's plan, so it is not made until asked.
        """
        plan = self._plan
        if plan is None:
            plan = self._plan = self._make_plan()
        return plan

    def _make_plan(self) -> RoundPlan:
        table = self.table
        n = self.players
        rings, starts, ends = [], [], []
        for s in range(n):
            ring, sector, dest = self.ring[s], self.sector[s], self.dest[s]
            if dest:
                sector = table.landing[ring][dest][sector]
                ring = dest
            rings.append(ring)
            starts.append(sector)
            ends.append((sector + table.velocity[ring]) % table.sectors[ring])
        flying = [s for s in range(n) if self.alive[s]]
        gap = [[0.0] * n for _ in range(n)]
        bumps = []
        pairs = table.pairs
        collision = self.collision_mm
        for i, a in enumerate(flying):
            for b in flying[i + 1 :]:
                key = (rings[a], starts[a], rings[b], starts[b], collision)
                known = pairs.get(key)
                if known is None:
                    distance = _distance(table.xy, rings[a], ends[a], rings[b], ends[b])
                    meet = collision > 0 and paths_meet(table, rings[a], starts[a], rings[b], starts[b], self._collision2)
                    known = pairs[key] = (distance, meet)
                gap[a][b] = gap[b][a] = known[0]
                if known[1]:
                    bumps.append((a, b))
        reach, falloff = self.weapon_range, self.falloff
        band = [[int(d // falloff) for d in row] for row in gap]
        in_range = [tuple(b for b in flying if b != a and gap[a][b] <= reach) for a in range(n)]
        return RoundPlan(rings, starts, ends, gap, band, in_range, bumps)

    def _round_order(self) -> list[int]:
        """The seats still flying, in this round's order (``turn_order`` option): the rotating or fixed order (``drawn``:
        rotating from the seat drawn at set-up; ``rolled``: from a seat drawn by lot now, a draw on the game's chance),
        or (``behind``) the ships with the least hull first, equal hulls in the rotating order."""
        n, alive = self.players, self.alive
        if self.rolling:
            flying = [seat for seat in range(n) if alive[seat]]
            first = flying[self.rng.below(len(flying))]
        else:
            first = (self.round + self.first_seat) % n if self.rotating else 0
        order = [s % n for s in range(first, first + n) if alive[s % n]]
        if self.behind_first:
            hull = self.hull
            order.sort(key=lambda seat: hull[seat])
        return order

    def draws_chance(self) -> bool:
        """Only ``turn_order = rolled`` draws after set-up (every round's first seat): a search then re-samples it."""
        return self.rolling

    def zone_edge(self, round_index: int | None = None) -> int:
        """The outermost ring inside the zone in a round (0-based; default this one): every ring until ``zone_round``,
        then one ring fewer each round down to ``zone_ring`` (``zone_round`` 0: the zone never closes)."""
        r = self.round if round_index is None else round_index
        outermost = self.table.outermost
        if not self.zone_round or r + 1 < self.zone_round:
            return outermost
        edge = outermost - (r + 2 - self.zone_round)
        floor = self.zone_ring if self.zone_ring < outermost else outermost
        return edge if edge > floor else floor

    # -- who moves -----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self._outcome is not None:
            return None
        return self.order[self.turn_index]

    # -- the situation of the seat to move -------------------------------------
    def situation(self, seat: int) -> tuple[int, int, int, tuple[int, ...], int]:
        """(ring after transfer resolution, its sector, sector after movement, targets in range, opponents left).

        The phase-5 position does not depend on the allocation (a burning ship
        still moves at its current ring's velocity), so the targets in range
        are known when the allocation is made.
        """
        if self.by_round:  # everything was planned at the start of the round
            opponents = sum(self.alive) - 1
            plan = self.plan
            return plan.ring[seat], plan.start[seat], plan.end[seat], plan.in_range[seat], opponents
        table = self.table
        ring, sector, dest = self.ring[seat], self.sector[seat], self.dest[seat]
        if dest:
            sector = table.landing[ring][dest][sector]
            ring = dest
        moved = (sector + table.velocity[ring]) % table.sectors[ring]
        x, y = table.xy[ring][moved]
        xy, alive = table.xy, self.alive
        rings, sectors = self.ring, self.sector  # turn resolution fires at where the others are now
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
        ring, _, _, targets, opponents = self.situation(seat)
        mass = self.mass[seat]
        table = self.table
        # min(3, mass, rings to the edge), spelled out: compiled, these are native comparisons rather than calls of min().
        reach = 3 if mass > 3 else mass
        inward, outward = ring - table.innermost, table.outermost - ring
        max_in = reach if reach < inward else inward
        max_out = reach if reach < outward else outward
        named: tuple[int | None, ...] = targets if opponents > 1 else ((None,) if targets else ())
        key = (self.facing[seat], max_in, max_out, named)
        legal = _LEGAL_CACHE.get(key)
        if legal is None:
            legal = _LEGAL_CACHE[key] = _build_allocations(*key)
        return legal

    # -- notation and reasons ------------------------------------------------
    def parse_action(self, text: str) -> Allocation:
        return parse_allocation(text)

    # -- playing a turn --------------------------------------------------------
    def _apply(self, action: Allocation) -> None:
        if self.by_round:
            self._allocate(action)
        else:
            self._apply_turn(action)

    def _allocate(self, action: Allocation) -> None:
        """Round resolution, phase 1: the allocation is made and shown; the round resolves after the last ship's."""
        seat = self.order[self.turn_index]
        self.last[seat] = action
        self.pending[seat] = action
        self.defense[seat] = action.defense
        if self.turn_index + 1 < len(self.order):
            self.turn_index += 1
            return
        self._resolve_round()

    def _resolve_round(self) -> None:
        """Phases 2-6 for every ship together, in the seed's order, then the closing zone."""
        plan = self.plan
        velocity = self.table.velocity
        events: list[tuple] = []
        flying = [s for s in range(self.players) if self.alive[s]]
        pending, mass, dest = self.pending, self.mass, self.dest
        for seat in flying:
            action = pending[seat]
            assert action is not None  # every flying ship allocated this round
            # Phase 2: transfer resolution (the landing sector is in the plan).
            ring = plan.ring[seat]
            if dest[seat]:
                events.append(("arrives", seat, ring))
                self.ring[seat] = ring
                dest[seat] = 0
            # Phase 3: orientation and burn.
            if action.rotate:
                self.facing[seat] ^= 1
            if action.burn:
                mass[seat] -= action.burn
                dest[seat] = ring - action.burn if action.direction == Facing.RETROGRADE else ring + action.burn
            # Phase 4: the scoop recovers the sectors moved this round.
            elif action.scoop:
                mass[seat] = min(MAX_MASS, mass[seat] + velocity[ring])
            # Phase 5: movement (all ships move together).
            self.sector[seat] = plan.end[seat]
        # Proximity: ships whose paths this round come closer than a token's width collide (known from the plan).
        hull = self.hull
        for a, b in plan.bumps:
            events.append(("collides", a, b))
            hull[a] -= self.collision_damage
            hull[b] -= self.collision_damage
        # Phase 6: every shot, from and at the positions after movement.
        damage = self._fire(plan, flying, events)
        zone = self.zone_edge()
        for seat in flying:
            hull[seat] -= damage[seat]
            pending[seat] = None
            self.defense[seat] = 0  # a defense protects only in the round it was allocated for
            if plan.ring[seat] > zone:  # end of the round: the closing zone
                hull[seat] -= self.zone_damage
                events.append(("outside", seat, plan.ring[seat], self.zone_damage))
        self._plan = None
        self.turn_index = len(self.order) - 1  # _after_turn moves on to the next round
        self._after_turn(self.order[-1], events)

    def _fire(self, plan: RoundPlan, flying: list[int], events: list[tuple]) -> list[int]:
        """Phase 6 of a round: the shots all at once (returned as the damage each ship takes), or one by one in the
        round's turn order (``fire_order = initiative``: taken off the hulls at once, and a ship destroyed by an
        earlier shot does not fire)."""
        hull, pending = self.hull, self.pending
        damage = [0] * self.players
        in_turn = self.fire_in_turn
        for seat in self.order if in_turn else flying:
            action = pending[seat]
            assert action is not None
            if not action.weapons or hull[seat] <= 0:
                continue  # a ship destroyed by a collision (or by an earlier shot) does not fire
            target = action.target
            if target is None:
                target = next(s for s in flying if s != seat)
            if hull[target] <= 0:
                continue  # a ship destroyed before its shot is not shot
            hit = shot_damage(action.weapons - plan.band[seat][target], self.defense[target], self.shield_per_point, self.shield_cap)
            if in_turn:
                hull[target] -= hit
            else:
                damage[target] += hit
            events.append(("fires", seat, action.weapons, target, plan.gap[seat][target], hit))
        return damage

    def _damage(self, weapons: int, distance: float, defense: int) -> int:
        """A shot's damage: its strength after falloff, less what the defense stops (see :func:`shot_damage`)."""
        return shot_damage(weapons - int(distance // self.falloff), defense, self.shield_per_point, self.shield_cap)

    def _apply_turn(self, action: Allocation) -> None:
        """Turn resolution: this ship's six phases now, against the others where they are."""
        table = self.table
        seat = self.order[self.turn_index]
        events: list[tuple] = []
        # Phase 1: allocation (defense protects from now until this ship's next turn).
        self.last[seat] = action
        self.defense[seat] = action.defense
        # Phase 2: transfer resolution.
        ring, sector, dest = self.ring[seat], self.sector[seat], self.dest[seat]
        if dest:
            sector = table.landing[ring][dest][sector]
            events.append(("arrives", seat, dest))
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
                    events.append(("collides", seat, other))
                    self.hull[seat] -= self.collision_damage
                    self.hull[other] -= self.collision_damage
        # Phase 6: weapons fire.
        if action.weapons and self.hull[seat] > 0:
            target = action.target
            if target is None:
                target = next(s for s in range(self.players) if s != seat and self.alive[s])
            if self.hull[target] > 0:
                distance = table.distance(ring, sector, self.ring[target], self.sector[target])
                damage = self._damage(action.weapons, distance, self.defense[target])
                self.hull[target] -= damage
                events.append(("fires", seat, action.weapons, target, distance, damage))
        if ring > self.zone_edge():  # end of the turn: the closing zone
            self.hull[seat] -= self.zone_damage
            events.append(("outside", seat, ring, self.zone_damage))
        self._after_turn(seat, events)

    def _after_turn(self, seat: int, events: list[tuple]) -> None:
        destroyed = []
        alive, hull = self.alive, self.hull
        left = []
        for s in range(self.players):
            if alive[s]:
                if hull[s] <= 0:
                    hull[s] = 0
                    alive[s] = False
                    self.dest[s] = 0
                    destroyed.append(s)
                    events.append(("destroyed", s))
                else:
                    left.append(s)
        self.raw_events = events
        if len(left) <= 1:
            if left:
                reason = f"ship {SEAT_MARKS[left[0] % 4]} is the last ship flying"
                winners = tuple(left)
            else:
                winners = tuple(destroyed)
                reason = "the last ships were destroyed together: they share the result"
            self._outcome = Outcome(winners, reason, tuple(float(h) for h in self.hull))
            return
        index = self.turn_index + 1
        order = self.order
        while index < len(order) and not alive[order[index]]:
            index += 1
        if index < len(order):
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

    def _share_native_fields(self, new: State) -> None:
        """The compiled build's copy of the fields a copy shares: each named, so each is a native store.

        (The core's default copies a compiled state's fields by name through
        ``getattr``/``setattr``, which was most of a compiled clone and made it
        dearer than a pure one.) Every field ``_setup`` sets is stored here or in
        ``_copy_fields``; the pure build copies them all with the ``__dict__``.
        """
        assert isinstance(new, OrbitalState)
        new.table = self.table
        new.round_limit = self.round_limit
        new.weapon_range = self.weapon_range
        new.falloff = self.falloff
        new.collision_mm = self.collision_mm
        new.collision_damage = self.collision_damage
        new.start_hull = self.start_hull
        new.by_round = self.by_round
        new.rotating = self.rotating
        new.behind_first = self.behind_first
        new.rolling = self.rolling
        new.first_seat = self.first_seat
        new.shield_per_point = self.shield_per_point
        new.shield_cap = self.shield_cap
        new.zone_round = self.zone_round
        new.zone_ring = self.zone_ring
        new.zone_damage = self.zone_damage
        new.fire_in_turn = self.fire_in_turn
        new._range2 = self._range2
        new._collision2 = self._collision2
        new.round = self.round
        # order, raw_events and the plan are replaced, never changed in place: sharing them is safe.
        new.order = self.order
        new.turn_index = self.turn_index
        new.raw_events = self.raw_events
        new._plan = self._plan

    def _copy_fields(self, new: State) -> None:
        assert isinstance(new, OrbitalState)
        new.ring = self.ring.copy()
        new.sector = self.sector.copy()
        new.facing = self.facing.copy()
        new.mass = self.mass.copy()
        new.hull = self.hull.copy()
        new.defense = self.defense.copy()
        new.dest = self.dest.copy()
        new.alive = self.alive.copy()
        new.last = self.last.copy()
        new.pending = self.pending.copy()

    # -- what players see ----------------------------------------------------
    @property
    def events(self) -> list[str]:
        """What happened in the last turn (turn resolution) or round (round resolution), in words."""
        return [_event_text(event) for event in self.raw_events]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything (perfect information), including each ship's last allocation."""
        table = self.table
        ships = []
        for s in range(self.players):
            ring, sector = self.ring[s], self.sector[s]
            x, y = table.shown[ring][sector]
            last = self.last[s]
            ships.append(
                {
                    "seat": s,
                    "ring": ring,
                    "sector": sector + 1,
                    "facing": _FACING_WORDS[self.facing[s]],
                    "mass": self.mass[s],
                    "hull": self.hull[s],
                    "defense": self.defense[s],
                    "in_transfer_to": self.dest[s] or None,
                    "alive": self.alive[s],
                    "position_mm": [x, y],
                    "last_allocation": None if last is None else notation(last),
                    "allocated_this_round": self.pending[s] is not None,
                }
            )
        return {
            "round": self.round + 1,
            "round_limit": self.round_limit,
            "resolution": self.options["resolution"],
            "turn_order": list(self.order),
            "to_move": self.current_player,
            "ships": ships,
            "events": self.events,
            "rings": table.to_json(),
            "weapon_range_mm": self.options["weapon_range_mm"],
            "falloff_mm": self.options["falloff_mm"],
            "start_hull": self.options["hull"],
            "fire_order": self.options["fire_order"],
            "zone": self._zone_view(),
        }

    def _zone_view(self) -> dict[str, Any]:
        """The closing zone: the outermost safe ring this round and the next, when it starts closing, its damage."""
        return {
            "safe_to_ring": self.zone_edge(),
            "next_round_safe_to_ring": self.zone_edge(self.round + 1),
            "closes_from_round": self.zone_round or None,
            "stops_at_ring": self.zone_ring,
            "damage": self.zone_damage,
        }


def notation(allocation: Allocation) -> str:
    """``str(allocation)``, looked up by the object when it was written before."""
    known = _NOTATIONS.get(id(allocation))
    if known is not None and known[0] is allocation:
        return known[1]
    text = str(allocation)
    if len(_NOTATIONS) < _NOTATIONS_MOST:
        _NOTATIONS[id(allocation)] = (allocation, text)
    return text


def paths_meet(table: RingTable, ring_a: int, start_a: int, ring_b: int, start_b: int, limit2: float) -> bool:
    """Whether two ships moving together this round, from these sectors, come closer than ``sqrt(limit2)`` mm.

    Each ship goes round its ring at constant angular speed from its sector
    after landing to its sector after moving, and both move over the same
    time. Their distance is smallest when their angles are closest, so only
    the two ends and a moment where the angles coincide need checking: no
    sampling, and lockstep orbits that never come close never collide.
    """
    radius_a, radius_b = table.radius[ring_a], table.radius[ring_b]
    if (radius_a - radius_b) ** 2 >= limit2:
        return False  # rings farther apart than a token never touch
    turn = 2 * math.pi
    sectors_a, sectors_b = table.sectors[ring_a], table.sectors[ring_b]
    start = turn * ((start_b + 0.5) / sectors_b - (start_a + 0.5) / sectors_a)
    sweep = turn * (table.velocity[ring_b] / sectors_b - table.velocity[ring_a] / sectors_a)
    low, high = sorted((start, start + sweep))
    if math.floor(high / turn) * turn >= low - 1e-9:
        closest = 1.0  # the angles coincide at some moment: the ships are a ring's width apart
    else:
        closest = max(math.cos(low), math.cos(high))
    return radius_a * radius_a + radius_b * radius_b - 2 * radius_a * radius_b * closest < limit2


def _distance(xy: list[list[tuple[float, float]]], ring_a: int, sector_a: int, ring_b: int, sector_b: int) -> float:
    """``RingTable.distance`` from the table's points: the same arithmetic, so the same float.

    A plain function of this module, which the compiled build calls directly
    (the table's method is interpreted).
    """
    ax, ay = xy[ring_a][sector_a]
    bx, by = xy[ring_b][sector_b]
    return round(math.hypot(ax - bx, ay - by), 3)


def shot_damage(strength: int, defense: int, per_point: int, cap_percent: int) -> int:
    """Damage of a shot of ``strength`` (weapons less falloff) at a ship with ``defense``.

    Defense stops ``per_point`` damage a point, but never more than
    ``cap_percent`` of the shot: the rest always gets through.
    """
    if strength <= 0:
        return 0
    return strength - min(defense * per_point, strength * cap_percent // 100)


def _event_text(event: tuple) -> str:
    kind, seat, *rest = event
    if kind == "arrives":
        return f"seat {seat} arrives in ring {rest[0]}"
    if kind == "collides":
        return f"seat {seat} collides with seat {rest[0]}"
    if kind == "fires":
        weapons, target, distance, damage = rest
        return f"seat {seat} fires {weapons} at seat {target} ({distance:.0f} mm): {damage} damage"
    if kind == "outside":
        return f"seat {seat} is outside the zone on ring {rest[0]}: {rest[1]} damage"
    return f"seat {seat} is destroyed"
