"""The card tables and the maps of Connected Worlds, read from data files and validated.

Cards and maps are plain data: ``cards.toml`` holds the seed's two card tables and
the starting deck; ``maps/default-<n>p.toml`` the shipped maps. A designer's own
files load the same way (the ``cards`` and ``map`` options take a path). Every
error is a :class:`DataError` naming the file and the entry.

A map becomes a :class:`Board`: every hex of space and of every planet gets one
integer id ("cell"), with its neighbours, its territory (the hex and the hexes
around it) and its links between a planet and its hex in space precomputed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from astrarium.core.data import field, no_unknown_fields, read_data, read_data_file
from astrarium.core.errors import DataError

PACKAGE = "astrarium.games.connected_worlds"
SPACE = "S"
# Axial neighbour offsets, clockwise from east.
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Special(Enum):
    """The special action printed at the bottom of an action card."""

    RESEARCH = "research"
    BUILD_UNITS = "build units"
    CONNECT_BASES = "connect bases"
    GATHER_RESOURCES = "gather resources"


@dataclass(frozen=True, slots=True)
class Card:
    """One card type. Action cards have ``movement`` and ``special``; unit cards ``strength``."""

    index: int
    slug: str
    name: str
    cost: int
    is_unit: bool
    movement: int = 0
    special: Special | None = None
    resources: int = 0
    strength: int = 0
    is_base: bool = False


@dataclass(frozen=True, slots=True)
class CardTable:
    file: str
    cards: tuple[Card, ...]
    by_slug: Mapping[str, int]
    starting_deck: tuple[int, ...]

    def lookup(self, name: str, *, file: str, entry: str) -> int:
        """The index of the card called ``name`` (slug or printed name, any case), or DataError."""
        key = name.strip().lower().replace(" ", "-")
        if key not in self.by_slug:
            known = ", ".join(c.slug for c in self.cards)
            raise DataError(file, entry, f"unknown card {name!r}; known cards: {known}")
        return self.by_slug[key]

    def deck_from(self, table: Any, *, file: str, entry: str) -> tuple[int, ...]:
        """A deck given as ``{card = count}`` or as a list of card names."""
        if isinstance(table, Mapping):
            deck: list[int] = []
            for name, count in table.items():
                index = self.lookup(name, file=file, entry=f"{entry}.{name}")
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise DataError(file, f"{entry}.{name}", f"a card count must be a whole number >= 0, got {count!r}")
                deck += [index] * count
            return tuple(deck)
        if isinstance(table, list):
            return tuple(self.lookup(str(n), file=file, entry=f"{entry}[{i}]") for i, n in enumerate(table))
        raise DataError(file, entry, f"a deck is a table of card = count or a list of card names, got {table!r}")


_ACTION_FIELDS = frozenset({"name", "cost", "movement", "action", "resources"})
_UNIT_FIELDS = frozenset({"name", "cost", "strength", "base"})


def parse_cards(label: str, data: Any) -> CardTable:
    no_unknown_fields(data, {"action", "unit", "starting_deck"}, file=label, entry="top level")
    cards: list[Card] = []
    actions = field(data, "action", dict, file=label, entry="top level")
    units = field(data, "unit", dict, file=label, entry="top level")
    for slug, row in actions.items():
        entry = f"action.{slug}"
        no_unknown_fields(row, _ACTION_FIELDS, file=label, entry=entry)
        text = field(row, "action", str, file=label, entry=entry)
        try:
            special = Special(text)
        except ValueError:
            raise DataError(label, entry, f"unknown action {text!r}; known: {', '.join(s.value for s in Special)}") from None
        resources = field(row, "resources", int, file=label, entry=entry, default=0)
        if special is Special.GATHER_RESOURCES and resources <= 0:
            raise DataError(label, entry, "a 'gather resources' card needs resources > 0")
        cards.append(
            Card(
                index=len(cards),
                slug=slug,
                name=field(row, "name", str, file=label, entry=entry),
                cost=_non_negative(row, "cost", label, entry),
                is_unit=False,
                movement=_non_negative(row, "movement", label, entry),
                special=special,
                resources=resources,
            )
        )
    for slug, row in units.items():
        entry = f"unit.{slug}"
        no_unknown_fields(row, _UNIT_FIELDS, file=label, entry=entry)
        strength = _non_negative(row, "strength", label, entry)
        if strength < 1:
            raise DataError(label, entry, "strength must be at least 1")
        cards.append(
            Card(
                index=len(cards),
                slug=slug,
                name=field(row, "name", str, file=label, entry=entry),
                cost=_non_negative(row, "cost", label, entry),
                is_unit=True,
                strength=strength,
                is_base=field(row, "base", bool, file=label, entry=entry, default=False),
            )
        )
    by_slug: dict[str, int] = {}
    for card in cards:
        for key in (card.slug.lower(), card.name.lower().replace(" ", "-")):
            if by_slug.get(key, card.index) != card.index:
                raise DataError(label, card.slug, f"the name {key!r} is used by two cards")
            by_slug[key] = card.index
    table = CardTable(label, tuple(cards), by_slug, ())
    deck = table.deck_from(field(data, "starting_deck", dict, file=label, entry="top level"), file=label, entry="starting_deck")
    if not deck:
        raise DataError(label, "starting_deck", "the starting deck is empty")
    return CardTable(label, tuple(cards), by_slug, deck)


def _non_negative(row: Mapping[str, Any], name: str, label: str, entry: str) -> int:
    value = field(row, name, int, file=label, entry=entry)
    if value < 0:
        raise DataError(label, entry, f"{name} must be >= 0, got {value}")
    return value


@functools.cache
def load_cards(path: str | None = None) -> CardTable:
    """The shipped card table, or a designer's own file at ``path``."""
    label, data = read_data(PACKAGE, "cards.toml") if path is None else read_data_file(path)
    return parse_cards(label, data)


# -- maps -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class World:
    key: str
    name: str
    kind: str
    space_cell: int
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """A map with every hex numbered; all tables are indexed by cell id."""

    file: str
    name: str
    players: tuple[int, ...]
    cell_names: tuple[str, ...]
    cell_ids: Mapping[str, int]
    coords: tuple[tuple[int, int], ...]
    board_of: tuple[int, ...]  # 0 = space, k = world k (1-based)
    neighbours: tuple[tuple[int, ...], ...]
    territory: tuple[tuple[int, ...], ...]  # the hex itself and its neighbours on the same board
    worlds: tuple[World, ...]  # worlds[k - 1] is world k
    world_below: tuple[int, ...]  # for a space cell: the world on it (k) or 0
    deck_names: Any  # a starting deck the map overrides (card names, resolved against the card table), or None

    @property
    def size(self) -> int:
        return len(self.cell_names)

    def board_key(self, k: int) -> str:
        return SPACE if k == 0 else self.worlds[k - 1].key


_MAP_FIELDS = frozenset({"name", "players", "space", "world", "deck"})
_SPACE_FIELDS = frozenset({"radius", "hexes", "homeworlds"})
_WORLD_FIELDS = frozenset({"key", "name", "kind", "radius", "hexes", "at"})


def _hex(value: Any, *, file: str, entry: str) -> tuple[int, int]:
    ok = isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if not ok:
        raise DataError(file, entry, f"a hex is written [q, r] with two whole numbers, got {value!r}")
    return value[0], value[1]


def _area(table: Mapping[str, Any], *, file: str, entry: str) -> list[tuple[int, int]]:
    """The hexes of a board: ``radius = n`` (a hexagon) or an explicit ``hexes`` list."""
    if "hexes" in table:
        raw = field(table, "hexes", list, file=file, entry=entry)
        hexes = [_hex(h, file=file, entry=f"{entry}.hexes[{i}]") for i, h in enumerate(raw)]
        seen: set[tuple[int, int]] = set()
        for i, h in enumerate(hexes):
            if h in seen:
                raise DataError(file, f"{entry}.hexes[{i}]", f"hex {list(h)} is listed twice")
            seen.add(h)
    else:
        radius = field(table, "radius", int, file=file, entry=entry)
        if not 0 <= radius <= 8:
            raise DataError(file, entry, f"radius must be 0..8, got {radius}")
        hexes = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1) if abs(q + r) <= radius]
    if not hexes:
        raise DataError(file, entry, "a board needs at least one hex")
    return hexes


def parse_map(label: str, data: Any) -> Board:
    no_unknown_fields(data, _MAP_FIELDS, file=label, entry="top level")
    name = field(data, "name", str, file=label, entry="top level")
    players = field(data, "players", list, file=label, entry="top level")
    if not players or not all(isinstance(p, int) and 2 <= p <= 4 for p in players):
        raise DataError(label, "players", f"players lists player counts from 2 to 4, got {players!r}")
    space = field(data, "space", dict, file=label, entry="top level")
    no_unknown_fields(space, _SPACE_FIELDS, file=label, entry="space")
    space_hexes = _area(space, file=label, entry="space")
    space_set = set(space_hexes)
    homeworlds: list[tuple[int, int]] = []
    for i, raw in enumerate(field(space, "homeworlds", list, file=label, entry="space")):
        h = _hex(raw, file=label, entry=f"space.homeworlds[{i}]")
        if h not in space_set:
            raise DataError(label, f"space.homeworlds[{i}]", f"hex {list(h)} is outside the space board")
        if h in homeworlds:
            raise DataError(label, f"space.homeworlds[{i}]", f"two homeworlds on one hex {list(h)}")
        homeworlds.append(h)
    worlds_raw = field(data, "world", list, file=label, entry="top level")
    if len(worlds_raw) < 3:
        raise DataError(label, "world", "a map needs at least 3 worlds (the expansion victory needs bases on three)")
    if len(worlds_raw) < max(players):
        raise DataError(label, "world", f"a map for {max(players)} players needs at least {max(players)} worlds")

    cell_names: list[str] = []
    coords: list[tuple[int, int]] = []
    board_of: list[int] = []
    for q, r in space_hexes:
        cell_names.append(f"{SPACE}:{q},{r}")
        coords.append((q, r))
        board_of.append(0)
    space_index = {h: i for i, h in enumerate(space_hexes)}
    world_meta: list[tuple[str, str, str, int, list[int]]] = []
    used_at: dict[tuple[int, int], str] = {}
    keys = {SPACE}
    for k, row in enumerate(worlds_raw, start=1):
        entry = f"world[{k - 1}]"
        no_unknown_fields(row, _WORLD_FIELDS, file=label, entry=entry)
        key = field(row, "key", str, file=label, entry=entry)
        entry = f"world {key!r}"
        if not (key.isalpha() and key.isupper() and len(key) <= 2) or key in keys:
            raise DataError(label, entry, "a world key is one or two capital letters, unique, and not 'S' (space)")
        keys.add(key)
        kind = field(row, "kind", str, file=label, entry=entry, default="neutral")
        if kind not in ("player", "neutral"):
            raise DataError(label, entry, f"kind is 'player' or 'neutral', got {kind!r}")
        at = _hex(field(row, "at", list, file=label, entry=entry), file=label, entry=f"{entry}.at")
        if at not in space_set:
            raise DataError(label, f"{entry}.at", f"hex {list(at)} is outside the space board")
        if at not in homeworlds:
            raise DataError(label, f"{entry}.at", f"hex {list(at)} is not a homeworld (H) hex")
        if at in used_at:
            raise DataError(label, f"{entry}.at", f"two homeworlds on one hex {list(at)}: {used_at[at]!r} is already there")
        used_at[at] = key
        cells = []
        for q, r in _area(row, file=label, entry=entry):
            cells.append(len(cell_names))
            cell_names.append(f"{key}:{q},{r}")
            coords.append((q, r))
            board_of.append(k)
        world_meta.append((key, field(row, "name", str, file=label, entry=entry), kind, space_index[at], cells))

    index = {(board_of[c], coords[c]): c for c in range(len(cell_names))}
    neighbours = tuple(
        tuple(n for dq, dr in HEX_DIRECTIONS if (n := index.get((board_of[c], (coords[c][0] + dq, coords[c][1] + dr)))) is not None)
        for c in range(len(cell_names))
    )
    worlds = tuple(World(key, wname, kind, at_cell, tuple(cells)) for key, wname, kind, at_cell, cells in world_meta)
    world_below = [0] * len(cell_names)
    for k, w in enumerate(worlds, start=1):
        world_below[w.space_cell] = k
    return Board(
        file=label,
        name=name,
        players=tuple(players),
        cell_names=tuple(cell_names),
        cell_ids={n: i for i, n in enumerate(cell_names)},
        coords=tuple(coords),
        board_of=tuple(board_of),
        neighbours=neighbours,
        territory=tuple((c, *neighbours[c]) for c in range(len(cell_names))),
        worlds=worlds,
        world_below=tuple(world_below),
        deck_names=data.get("deck"),
    )


def is_path(value: str) -> bool:
    return value.endswith((".toml", ".json")) or "/" in value or "\\" in value


@functools.cache
def load_map(value: str, players: int) -> Board:
    """The map the ``map`` option names: "default", a shipped map's name, or a path to a designer's file."""
    if is_path(value):
        label, data = read_data_file(Path(value))
    else:
        name = f"default-{players}p" if value == "default" else value
        try:
            label, data = read_data(PACKAGE, f"maps/{name}.toml")
        except FileNotFoundError:
            raise DataError(f"maps/{name}.toml", "file", f"no shipped map called {value!r}") from None
    return parse_map(label, data)


def shipped_maps() -> list[str]:
    from importlib import resources

    return sorted(p.name.removesuffix(".toml") for p in resources.files(PACKAGE).joinpath("maps").iterdir() if p.name.endswith(".toml"))
