"""Orbital Combat for learning agents: a fixed index for every allocation, and the observation of one seat.

**Actions.** An allocation is the product of its parts, and the product is
small enough to be listed whole, so no choice is split into steps: the index is

    ((rotate * ENGINES + engine) * WEAPON_LEVELS + weapons) * TARGET_SLOTS + target

``rotate`` is 0 or 1; ``engine`` is one of :data:`ENGINES` (coast, coast with the
scoop, a burn of each intensity prograde, then retrograde); ``weapons`` is 0 to
the 10 energy of a turn; ``target`` is 0 when none is named, else 1 + the seat
fired at (seats as numbered at the table: an allocation names its target by
seat, and an index is a function of the allocation alone). Defense is never
chosen: it takes the energy the rest leaves, as every legal allocation does. With
4 ships the space has 2 x 8 x 11 x 5 = 880 indices; with 2, 528.

**Observation.** A flat vector built from ``view(seat)`` alone (the game has no
secrets, but the encoder reads nothing else): the observer's own ship first,
then the others in seat order after it, each as :data:`SHIP_FEATURES` plus its
ring, its transfer and its last target; then the round, the closing zone
(:data:`GLOBAL_FEATURES`) and the observer's seat number (targets are indexed by
seat).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from astrarium.core.contract import Learning
from astrarium.core.errors import IllegalAction, short
from astrarium.games.orbital_combat.actions import ENERGY, MAX_MASS, Allocation, Facing, Intensity, parse_allocation
from astrarium.games.orbital_combat.rings import load_ring_table
from astrarium.games.orbital_combat.state import OrbitalState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The engine orders, in index order: (burn intensity or None, direction or None, scoop).
ENGINES: tuple[tuple[Intensity | None, Facing | None, bool], ...] = (
    (None, None, False),
    (None, None, True),
    *((level, Facing.PROGRADE, False) for level in Intensity),
    *((level, Facing.RETROGRADE, False) for level in Intensity),
)
_ENGINE_INDEX = {engine: i for i, engine in enumerate(ENGINES)}
#: Weapons levels an allocation can hold: 0 to a turn's whole energy.
WEAPON_LEVELS = ENERGY + 1
#: The numbers each ship is described by, besides its ring, transfer and last target (in this order).
SHIP_FEATURES = (
    "alive",
    "x",
    "y",
    "angle_sin",
    "angle_cos",
    "prograde",
    "mass",
    "hull",
    "defense",
    "allocated_this_round",
    "to_move",
    "order_position",
    "distance",
    "in_range",
    "last_rotate",
    "last_coast",
    "last_scoop",
    "last_soft",
    "last_hard",
    "last_extreme",
    "last_retrograde",
    "last_weapons",
    "last_defense",
)
#: The most allocation objects an action space remembers by identity.
_BY_ID_MOST = 100_000
#: The numbers of the whole position after the ships: round, rounds left, round resolution, then the closing
#: zone: its outermost safe ring this round and the next (each over the ring count; a ship on a higher ring
#: takes the zone's damage at the end of the round) and its damage (over the starting hull, at most 1).
GLOBAL_FEATURES = ("round", "rounds_left", "round_resolution", "zone_safe_ring", "zone_next_safe_ring", "zone_damage")


def allocation_at(players: int, i: int) -> Allocation:
    """The allocation index ``i`` stands for in a game of ``players`` ships, defense taking the energy left."""
    slots = players + 1
    rest, target = divmod(i, slots)
    rest, weapons = divmod(rest, WEAPON_LEVELS)
    rotate, engine = divmod(rest, len(ENGINES))
    burn, direction, scoop = ENGINES[engine]
    spent = rotate + (int(burn) if burn else 0) + (5 if scoop else 0) + weapons
    return Allocation(bool(rotate), burn, direction, scoop, weapons, max(0, ENERGY - spent), None if target == 0 else target - 1)


def space_size(players: int) -> int:
    """Rotation x engine order x weapons x target (none or a seat)."""
    return 2 * len(ENGINES) * WEAPON_LEVELS * (players + 1)


class AllocationSpace:
    """Every allocation of a game of ``players`` ships as one index (see the module's description)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.allocations: tuple[Allocation, ...] = tuple(allocation_at(players, i) for i in range(space_size(players)))
        self.labels: tuple[str, ...] = tuple(str(a) for a in self.allocations)
        self._by_label = {label: i for i, label in enumerate(self.labels)}
        #: The same look-up by the allocation's value (a mask sets hundreds of indices: hashing beats writing notations).
        self._by_value = {a: i for i, a in enumerate(self.allocations)}
        #: And by the object itself: the rules hand out the same allocation objects again and again (their legal lists
        #: are cached), and hashing an allocation hashes its enums in Python. Each entry keeps its object alive, so an
        #: id is never reused while it is here; the table stops growing at ``_BY_ID_MOST`` entries.
        self._by_id: dict[int, tuple[Allocation, int]] = {}
        self._masks: dict[int, tuple[Sequence[Allocation], npt.NDArray[np.intp]]] = {}

    @property
    def size(self) -> int:
        """How many indices the space has (the mask's length, a policy's output size)."""
        return len(self.labels)

    def index(self, action: Any) -> int:
        """The index of ``action`` (an allocation or its notation); ValueError for one outside the space."""
        known = self._by_id.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        found = self._by_value.get(action) if type(action) is Allocation else None
        if found is not None and len(self._by_id) < _BY_ID_MOST:
            self._by_id[id(action)] = (action, found)
        if found is None:
            found = self._by_label.get(str(action) if isinstance(action, Allocation) else str(parse_allocation(str(action))))
        if found is None:
            raise ValueError(f"{short(str(action))!r} is outside the action space ({self.size} allocations)")
        return found

    def mask_of(self, legal: Sequence[Allocation]) -> npt.NDArray[np.bool_]:
        """The mask of ``legal`` as a state keeps it: the rules share a few hundred such lists, so each one's indices are
        found once and kept with the list (which is never changed), and a mask is then one array write."""
        import numpy as np

        mask = np.zeros(self.size, dtype=np.bool_)
        if not legal:
            return mask
        known = self._masks.get(id(legal))
        if known is None or known[0] is not legal:
            indices = np.fromiter((self.index(a) for a in legal), dtype=np.intp, count=len(legal))
            known = (legal, indices)
            if len(self._masks) < _BY_ID_MOST:
                self._masks[id(legal)] = known
        mask[known[1]] = True
        return mask

    def action(self, index: int, state: OrbitalState) -> Allocation:
        """The legal allocation of ``state`` at ``index`` (the legal list's own value); IllegalAction when it is not legal."""
        if not isinstance(index, int) or not 0 <= index < self.size:
            raise IllegalAction(f"action index {short(repr(index))} is outside the action space (0 to {self.size - 1})")
        wanted = self.allocations[index]
        for legal in state.legal_actions():
            if legal == wanted:
                return legal  # type: ignore[no-any-return]
        raise IllegalAction(f"action index {index} ({self.labels[index]!r}) is not legal now")


class OrbitalEncoder:
    """The encoding of one configuration (a player count and a ring table): the allocations' space and the observations."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.rings = load_ring_table(options["ring_table"]).count
        self.actions = AllocationSpace(players)
        #: Each ship: its features, its ring (one-hot), its transfer (none or a ring), its last target (none or a seat, relative).
        self.ship_size = len(SHIP_FEATURES) + self.rings + (self.rings + 1) + (players + 1)
        self.observation_shape: tuple[int, ...] = (players * self.ship_size + len(GLOBAL_FEATURES) + players,)
        self.global_shape: tuple[int, ...] = self.observation_shape
        self.observation_bounds = ship_bounds(players, self.ship_size, options)

    def observe(self, view: Mapping[str, Any], seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation, from its view alone."""
        import numpy as np

        return np.asarray(encode_view(view, seat, self.players), dtype=np.float32)

    def observe_global(self, full_view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        """The game has no secrets: the whole position is seat 0's observation."""
        return self.observe(full_view, 0)


def ship_bounds(players: int, ship_size: int, options: Mapping[str, Any]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Every feature's true range: positions within the outermost ring, distances across it, the round up to one past the limit."""
    import numpy as np

    table = load_ring_table(options["ring_table"])
    radius = max(float(table.radius[r]) for r in range(1, table.count + 1))
    reach = max(float(options["weapon_range_mm"]), 1.0)
    ship_low, ship_high = np.zeros(ship_size, np.float32), np.ones(ship_size, np.float32)
    for name in ("x", "y", "angle_sin", "angle_cos"):
        ship_low[SHIP_FEATURES.index(name)] = -1.0
    ship_high[SHIP_FEATURES.index("distance")] = 2 * radius / reach
    limit = max(int(options["round_limit"]), 1)
    tail_high = np.array([(limit + 1) / limit, 1.0, 1.0, 1.0, 1.0, 1.0] + [1.0] * players, np.float32)
    low = np.concatenate([np.tile(ship_low, players), np.zeros(len(tail_high), np.float32)])
    return low, np.concatenate([np.tile(ship_high, players), tail_high])


def encoder(players: int, options: Mapping[str, Any]) -> OrbitalEncoder:
    """The encoder for ``players`` ships and the resolved ``options`` (only the ring table changes its shape)."""
    return OrbitalEncoder(players, options)


def encode_view(view: Mapping[str, Any], seat: int, players: int) -> list[float]:
    """The observation of ``seat`` from its view (the view's ring table gives the geometry).

    Laid out as the module's description says, written into one list at known
    offsets: a ship's features, then its ring, its transfer and its last target
    one-hot (the ring table's derived numbers are worked out once per table).
    """
    rings: Sequence[Mapping[str, Any]] = view["rings"]
    count, radius, trig = _geometry(rings)
    reach = max(float(view["weapon_range_mm"]), 1.0)
    start_hull = max(float(view["start_hull"]), 1.0)
    ships = view["ships"]
    mx, my = ships[seat]["position_mm"]
    order = view["turn_order"]
    places = [players] * players
    for place, who in enumerate(order):
        places[who] = place
    to_move = view["to_move"]
    features = len(SHIP_FEATURES)
    ship_size = features + count + (count + 1) + (players + 1)
    out = [0.0] * (players * ship_size + len(GLOBAL_FEATURES) + players)
    base = 0
    for k in range(players):
        who = (seat + k) % players
        ship = ships[who]
        ring = ship["ring"]
        x, y = ship["position_mm"]
        distance = math.hypot(x - mx, y - my)
        alive = ship["alive"]
        sine, cosine = trig[ring][ship["sector"]]
        out[base] = float(alive)
        out[base + 1] = min(max(x / radius, -1.0), 1.0)  # a position is on a ring, up to its rounding
        out[base + 2] = min(max(y / radius, -1.0), 1.0)
        out[base + 3] = sine
        out[base + 4] = cosine
        out[base + 5] = float(ship["facing"] == "prograde")
        out[base + 6] = ship["mass"] / MAX_MASS
        hull = ship["hull"]
        out[base + 7] = (hull if hull > 0 else 0) / start_hull  # a destroyed ship's hull may be below 0
        out[base + 8] = ship["defense"] / ENERGY
        out[base + 9] = float(ship["allocated_this_round"])
        out[base + 10] = float(to_move == who)
        out[base + 11] = places[who] / players
        out[base + 12] = min(distance, 2 * radius) / reach
        out[base + 13] = float(k > 0 and alive and distance <= reach)
        target = None
        written = ship["last_allocation"]
        if written:
            last = _last_allocation(written)
            burn = last.burn
            out[base + 14] = float(last.rotate)
            out[base + 15] = float(burn is None)
            out[base + 16] = float(last.scoop)
            out[base + 17] = float(burn is Intensity.SOFT)
            out[base + 18] = float(burn is Intensity.HARD)
            out[base + 19] = float(burn is Intensity.EXTREME)
            out[base + 20] = float(last.direction is Facing.RETROGRADE)
            out[base + 21] = last.weapons / ENERGY
            out[base + 22] = last.defense / ENERGY
            target = last.target
        at = base + features
        out[at + ring - 1] = 1.0
        at += count
        transfer = ship["in_transfer_to"]
        out[at + (0 if transfer is None else transfer)] = 1.0
        at += count + 1
        out[at + (0 if target is None else 1 + (target - seat) % players)] = 1.0
        base += ship_size
    limit = max(int(view["round_limit"]), 1)
    round_ = view["round"]
    out[base] = round_ / limit
    out[base + 1] = (limit - round_ + 1) / limit
    out[base + 2] = float(view["resolution"] == "round")
    zone = view["zone"]
    out[base + 3] = zone["safe_to_ring"] / count
    out[base + 4] = zone["next_round_safe_to_ring"] / count
    out[base + 5] = min(zone["damage"] / start_hull, 1.0)
    out[base + len(GLOBAL_FEATURES) + seat] = 1.0
    return out


#: The derived numbers of ring tables met in views, by the table's list (views share one list per table).
_GEOMETRY: dict[int, tuple[Sequence[Mapping[str, Any]], tuple[int, float, list[list[tuple[float, float]]]]]] = {}


def _geometry(rings: Sequence[Mapping[str, Any]]) -> tuple[int, float, list[list[tuple[float, float]]]]:
    """A view's ring table: its ring count, its outermost radius, and ``trig[ring][sector]`` (the sector's sine and cosine)."""
    known = _GEOMETRY.get(id(rings))
    if known is not None and known[0] is rings:
        return known[1]
    radius = max(float(r["radius_mm"]) for r in rings)
    trig: list[list[tuple[float, float]]] = [[]]
    for r in rings:
        sectors = int(r["sectors"])
        angles = [2 * math.pi * (sector - 0.5) / sectors for sector in range(sectors + 1)]
        trig.append([(math.sin(a), math.cos(a)) for a in angles])
    found = (len(rings), radius, trig)
    if len(_GEOMETRY) < 64:
        _GEOMETRY[id(rings)] = (rings, found)
    return found


def is_out(state: OrbitalState, seat: int) -> bool:
    """A destroyed ship is out of the game: it allocates no more and cannot come back."""
    return not state.alive[seat]


@lru_cache(maxsize=4096)
def _last_allocation(notation: str) -> Allocation:
    """A ship's last allocation read from the view's notation (a few hundred different ones recur all game)."""
    return parse_allocation(notation)


LEARNING = Learning(encoder=encoder, is_out=is_out)
