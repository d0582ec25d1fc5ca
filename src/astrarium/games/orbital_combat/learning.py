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
ring, its transfer and its last target; then the round, the turn order and the
observer's seat number (targets are indexed by seat).
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
#: The numbers of the whole position after the ships: round, rounds left, round resolution.
GLOBAL_FEATURES = ("round", "rounds_left", "round_resolution")


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
    tail_high = np.array([(limit + 1) / limit, 1.0, 1.0] + [1.0] * players, np.float32)
    low = np.concatenate([np.tile(ship_low, players), np.zeros(len(tail_high), np.float32)])
    return low, np.concatenate([np.tile(ship_high, players), tail_high])


def encoder(players: int, options: Mapping[str, Any]) -> OrbitalEncoder:
    """The encoder for ``players`` ships and the resolved ``options`` (only the ring table changes its shape)."""
    return OrbitalEncoder(players, options)


def encode_view(view: Mapping[str, Any], seat: int, players: int) -> list[float]:
    """The observation of ``seat`` from its view (the view's ring table gives the geometry)."""
    rings: Sequence[Mapping[str, Any]] = view["rings"]
    radius = max(float(r["radius_mm"]) for r in rings)
    reach = max(float(view["weapon_range_mm"]), 1.0)
    start_hull = max(float(view["start_hull"]), 1.0)
    ships = view["ships"]
    me = ships[seat]
    mx, my = me["position_mm"]
    order = list(view["turn_order"])
    out: list[float] = []
    for k in range(players):
        ship = ships[(seat + k) % players]
        ring = int(ship["ring"])
        sectors = int(rings[ring - 1]["sectors"])
        angle = 2 * math.pi * (int(ship["sector"]) - 0.5) / sectors
        x, y = ship["position_mm"]
        distance = math.hypot(x - mx, y - my)
        last = _last_allocation(ship["last_allocation"]) if ship["last_allocation"] else None
        burn = last.burn if last is not None else None
        place = order.index(ship["seat"]) if ship["seat"] in order else players
        out += [
            float(ship["alive"]),
            min(max(x / radius, -1.0), 1.0),  # a position is on a ring, up to its rounding
            min(max(y / radius, -1.0), 1.0),
            math.sin(angle),
            math.cos(angle),
            float(ship["facing"] == "prograde"),
            ship["mass"] / MAX_MASS,
            max(ship["hull"], 0) / start_hull,  # a destroyed ship's hull may be below 0
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
    out += _one_hot(seat, players)
    return out


def is_out(state: OrbitalState, seat: int) -> bool:
    """A destroyed ship is out of the game: it allocates no more and cannot come back."""
    return not state.alive[seat]


@lru_cache(maxsize=4096)
def _last_allocation(notation: str) -> Allocation:
    """A ship's last allocation read from the view's notation (a few hundred different ones recur all game)."""
    return parse_allocation(notation)


def _one_hot(i: int, n: int) -> list[float]:
    row = [0.0] * n
    row[i] = 1.0
    return row


LEARNING = Learning(encoder=encoder, is_out=is_out)
