"""The card tables and the maps of Connected Worlds, read from data files and validated.

Cards and maps are plain data: ``cards.toml`` holds the seed's two card tables and
the starting deck; ``maps/default-<n>p.toml`` the shipped maps. A designer's own
files load the same way (the ``cards`` and ``map`` options take a path). Each
file's shape is declared once as a pydantic schema (:class:`CardsFile`,
:class:`MapFile`) with a bound on every number and size (the ``MAX_*`` limits
below, listed in rules.md); what a schema cannot say (a hex outside its board, a
card named twice, an unknown card in a deck) is checked by hand. Every error is a
:class:`DataError` naming the file and the entry, raised when the file is loaded,
never later in play.

Names that appear in the action notation (card slugs, world keys) must survive the
notation's round trip (``str(action)`` read back by ``apply``, which ignores case):
slugs are lower-case ASCII, world keys upper-case ASCII letters. Any other letter
could change under ``lower()``/``upper()`` (the Kelvin sign ``K`` becomes ``k``),
and a record naming it would not replay.

A map becomes a :class:`Board`: every hex of space and of every planet gets one
integer id ("cell"), with its neighbours, its territory (the hex and the hexes
around it) and its links between a planet and its hex in space precomputed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Discriminator, Field, StringConstraints, Tag, model_validator

from astrarium.core.data import DataModel, check_path, describe_location, names_file, parse_data, read_data, read_text_file, validate
from astrarium.core.errors import DataError, short

PACKAGE = "astrarium.games.connected_worlds"
SPACE = "S"
# Axial neighbour offsets, clockwise from east.
HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# -- limits (generous above the shipped data; documented in rules.md, "Data files and limits") ------

#: Card types in one card table (the seed has 14).
MAX_CARD_TYPES = 40
#: The cost of a card (the seed's dearest is 40).
MAX_COST = 1000
#: An action card's movement (the seed's highest is 3); it bounds the actions of a turn.
MAX_MOVEMENT = 10
#: Resources one 'gather resources' card brings (the seed's most is 5).
MAX_GATHER = 1000
#: The strength of a unit or base (the seed's strongest is 5); written with at most two digits (``u12``).
MAX_STRENGTH = 99
#: Cards in one deck, hand or discard pile given as data (the starting deck holds 10).
MAX_DECK = 200
#: Characters in a printed name (of a card, a world, a map).
MAX_NAME_CHARS = 40
#: The radius of a hexagonal board (shipped: 3 for space, 2 for planets).
MAX_RADIUS = 8
#: Hexes in one board given as a list (a hexagon of radius 8 has 217).
MAX_BOARD_HEXES = 217
#: The largest coordinate |q| or |r| of a hex in a list.
MAX_COORD = 20
#: Worlds (planet boards) on one map (shipped: at most 6).
MAX_WORLDS = 20
#: Resources a scenario gives a player.
MAX_RESOURCES = 100_000


def _written(pattern: str, rule: str) -> AfterValidator:
    """A check that text matches ``pattern`` (whole), failing with ``rule`` in a designer's words."""
    compiled = re.compile(pattern)

    def check(text: str) -> str:
        if compiled.fullmatch(text) is None:
            raise ValueError(rule)
        return text

    return AfterValidator(check)


#: A card slug as the notation writes it: lower-case ASCII letters, digits and '-'.
Slug = Annotated[
    str,
    StringConstraints(max_length=32),
    _written(r"[a-z][a-z0-9-]*", "a card's slug is lower-case ASCII letters a-z, digits and '-', starting with a letter"),
]
#: A world key: one or two upper-case ASCII letters (the notation upper-cases hex names, so nothing else round-trips).
WorldKey = Annotated[str, _written(r"[A-Z]{1,2}", "a world key is one or two capital ASCII letters A-Z")]
#: A printed name: letters, digits, spaces and plain punctuation (no brackets: names are shown in Rich markup).
Name = Annotated[
    str,
    StringConstraints(max_length=MAX_NAME_CHARS),
    _written(r"\w[\w '.,!?&+-]*", "a name is letters, digits, spaces and the punctuation ' . , ! ? & + -, starting with a letter or digit"),
]
CardRef = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME_CHARS)]
Count = Annotated[int, Field(ge=0, le=MAX_DECK)]
Coord = Annotated[int, Field(ge=-MAX_COORD, le=MAX_COORD)]
Hex = Annotated[list[Coord], Field(min_length=2, max_length=2)]
HexList = Annotated[list[Hex], Field(min_length=1, max_length=MAX_BOARD_HEXES)]
Radius = Annotated[int, Field(ge=0, le=MAX_RADIUS)]


def _deck_form(value: Any) -> str | None:
    return "table" if isinstance(value, dict) else "list" if isinstance(value, list) else None


#: A deck: ``{card = count}`` or a list of card names (slug or printed name).
Deck = Annotated[
    Annotated[dict[CardRef, Count], Field(max_length=MAX_CARD_TYPES), Tag("table")]
    | Annotated[list[CardRef], Field(max_length=MAX_DECK), Tag("list")],
    Discriminator(_deck_form, custom_error_type="deck", custom_error_message="a deck is a table of card = count or a list of card names"),
]


class Special(Enum):
    """The special action printed at the bottom of an action card."""

    RESEARCH = "research"
    BUILD_UNITS = "build units"
    CONNECT_BASES = "connect bases"
    GATHER_RESOURCES = "gather resources"


# -- the card table file --------------------------------------------------------------------------


class ActionCardRow(DataModel):
    """``[action.<slug>]``: an action card (movement or its special action)."""

    name: Name
    cost: Annotated[int, Field(ge=0, le=MAX_COST)]
    movement: Annotated[int, Field(ge=0, le=MAX_MOVEMENT)]
    action: Literal["research", "build units", "connect bases", "gather resources"]
    resources: Annotated[int, Field(ge=0, le=MAX_GATHER)] = 0

    @model_validator(mode="after")
    def _resources_only_for_gathering(self) -> ActionCardRow:
        if (self.action == "gather resources") != (self.resources > 0):
            raise ValueError("a 'gather resources' card needs resources > 0, and only such a card has resources")
        return self


class UnitCardRow(DataModel):
    """``[unit.<slug>]``: a unit card (deployed as a unit, or as a base when ``base = true``)."""

    name: Name
    cost: Annotated[int, Field(ge=0, le=MAX_COST)]
    strength: Annotated[int, Field(ge=1, le=MAX_STRENGTH)]
    base: bool = False


class CardsFile(DataModel):
    """A card table: ``cards.toml`` or a designer's file given by the ``cards`` option."""

    action: Annotated[dict[Slug, ActionCardRow], Field(max_length=MAX_CARD_TYPES)]
    unit: Annotated[dict[Slug, UnitCardRow], Field(max_length=MAX_CARD_TYPES)]
    starting_deck: Deck


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
    by_slug: Mapping[str, int]  # slugs and printed names (lower case, '-' for spaces) -> card index
    starting_deck: tuple[int, ...]

    def lookup(self, name: str, *, file: str, entry: str) -> int:
        """The index of the card called ``name`` (slug or printed name, any case), or DataError."""
        key = name.strip().lower().replace(" ", "-")
        if key not in self.by_slug:
            known = ", ".join(c.slug for c in self.cards)
            raise DataError(file, entry, f"unknown card {short(name, 40)!r}; known cards: {known}")
        return self.by_slug[key]

    def deck_from(self, deck: dict[str, int] | list[str], *, file: str, entry: str) -> tuple[int, ...]:
        """A deck (already checked by the :data:`Deck` schema) as card indices, at most MAX_DECK cards."""
        if isinstance(deck, dict):
            total = sum(deck.values())
            if total > MAX_DECK:
                raise DataError(file, entry, f"holds {total:,} cards; a deck holds at most {MAX_DECK}")
            out: list[int] = []
            for name, count in deck.items():
                out += [self.lookup(name, file=file, entry=f"{entry}.{short(name, 40)}")] * count
            return tuple(out)
        return tuple(self.lookup(n, file=file, entry=f"{entry}.{describe_location((i,))}") for i, n in enumerate(deck))


def parse_cards(label: str, data: Any) -> CardTable:
    """A card table from parsed data: the schema, then the cross-checks it cannot express."""
    rows = validate(CardsFile, data, file=label)
    if len(rows.action) + len(rows.unit) > MAX_CARD_TYPES:
        raise DataError(label, "file", f"a card table holds at most {MAX_CARD_TYPES} card types")
    cards: list[Card] = []
    for slug, a in rows.action.items():
        special = Special(a.action)
        cards.append(Card(len(cards), slug, a.name, a.cost, False, movement=a.movement, special=special, resources=a.resources))
    for slug, u in rows.unit.items():
        cards.append(Card(len(cards), slug, u.name, u.cost, True, strength=u.strength, is_base=u.base))
    by_slug: dict[str, int] = {}
    for card in cards:
        kind = "unit" if card.is_unit else "action"
        for key in (card.slug, card.name.lower().replace(" ", "-")):
            if by_slug.get(key, card.index) != card.index:
                raise DataError(label, f"{kind}.{card.slug}", f"the name {key!r} is used by two cards")
            by_slug[key] = card.index
    table = CardTable(label, tuple(cards), by_slug, ())
    deck = table.deck_from(rows.starting_deck, file=label, entry="starting_deck")
    if not deck:
        raise DataError(label, "starting_deck", "the starting deck is empty")
    return CardTable(label, tuple(cards), by_slug, deck)


@functools.cache
def _shipped_cards() -> CardTable:
    label, data = read_data(PACKAGE, "cards.toml")
    return parse_cards(label, data)


@functools.lru_cache(maxsize=32)
def _cards_from_text(label: str, text: str, suffix: str) -> CardTable:
    """Cached on the file's content, so an edited file is read again and an unchanged one is parsed once."""
    return parse_cards(label, parse_data(text, label, suffix=suffix))


def load_cards(path: str | None = None) -> CardTable:
    """The shipped card table, or a designer's own file at ``path`` (read afresh on every call)."""
    if path is None:
        return _shipped_cards()
    label, text = read_text_file(path)
    return _cards_from_text(label, text, check_path(path).suffix)


# -- the map file ---------------------------------------------------------------------------------


class _Area(DataModel):
    """A board's hexes: ``radius = n`` (a hexagon) or an explicit ``hexes`` list, exactly one of them."""

    radius: Radius | None = None
    hexes: HexList | None = None

    @model_validator(mode="after")
    def _one_shape(self) -> _Area:
        if (self.radius is None) == (self.hexes is None):
            raise ValueError("give the board's hexes either as 'radius' or as a 'hexes' list (exactly one of them)")
        return self

    def cells(self) -> list[tuple[int, int]]:
        if self.hexes is not None:
            return [(q, r) for q, r in self.hexes]
        n = self.radius or 0
        return [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n]


class SpaceRow(_Area):
    """``[space]``: the space board and its homeworld (H) hexes."""

    homeworlds: Annotated[list[Hex], Field(min_length=1, max_length=MAX_WORLDS)]


class WorldRow(_Area):
    """``[[world]]``: one planet board and the homeworld hex its counter sits on."""

    key: WorldKey
    name: Name
    kind: Literal["player", "neutral"] = "neutral"
    at: Hex


class MapFile(DataModel):
    """A map: ``maps/*.toml`` or a designer's file given by the ``map`` option."""

    name: Name
    players: Annotated[list[Annotated[int, Field(ge=2, le=4)]], Field(min_length=1, max_length=3)]
    space: SpaceRow
    world: Annotated[list[WorldRow], Field(min_length=3, max_length=MAX_WORLDS)]
    deck: Deck | None = None


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
    deck: dict[str, int] | list[str] | None  # a starting deck the map overrides (resolved against the card table)

    @property
    def size(self) -> int:
        return len(self.cell_names)

    def board_key(self, k: int) -> str:
        return SPACE if k == 0 else self.worlds[k - 1].key


def _distinct(hexes: list[tuple[int, int]], *, file: str, entry: str) -> list[tuple[int, int]]:
    seen: set[tuple[int, int]] = set()
    for i, h in enumerate(hexes):
        if h in seen:
            raise DataError(file, f"{entry}.{describe_location((i,))}", f"hex {list(h)} is listed twice")
        seen.add(h)
    return hexes


def _homeworlds(raw: list[list[int]], space: Mapping[tuple[int, int], int], *, file: str) -> list[tuple[int, int]]:
    """The homeworld (H) hexes: each on the space board, no two on one hex."""
    out: list[tuple[int, int]] = []
    for i, (q, r) in enumerate(raw):
        entry = f"space.homeworlds.{describe_location((i,))}"
        if (q, r) not in space:
            raise DataError(file, entry, f"hex {[q, r]} is outside the space board")
        if (q, r) in out:
            raise DataError(file, entry, f"two homeworlds on one hex {[q, r]}")
        out.append((q, r))
    return out


def parse_map(label: str, data: Any) -> Board:
    """A board from parsed map data: the schema, then the cross-checks between its entries."""
    m = validate(MapFile, data, file=label)
    space_hexes = _distinct(m.space.cells(), file=label, entry="space.hexes")
    space_index = {h: i for i, h in enumerate(space_hexes)}
    homeworlds = _homeworlds(m.space.homeworlds, space_index, file=label)
    if len(m.world) < max(m.players):
        raise DataError(label, "world", f"a map for {max(m.players)} players needs at least {max(m.players)} worlds")

    cell_names = [f"{SPACE}:{q},{r}" for q, r in space_hexes]
    coords = list(space_hexes)
    board_of = [0] * len(space_hexes)
    worlds: list[World] = []
    used_at: dict[tuple[int, int], str] = {}
    for k, w in enumerate(m.world, start=1):
        entry = f"world {w.key!r}"
        if w.key == SPACE or any(o.key == w.key for o in worlds):
            raise DataError(label, entry, f"world keys are unique and not {SPACE!r} (space)")
        at = (w.at[0], w.at[1])
        if at not in space_index:
            raise DataError(label, f"{entry}.at", f"hex {list(at)} is outside the space board")
        if at not in homeworlds:
            raise DataError(label, f"{entry}.at", f"hex {list(at)} is not a homeworld (H) hex")
        if at in used_at:
            raise DataError(label, f"{entry}.at", f"two homeworlds on one hex {list(at)}: {used_at[at]!r} is already there")
        used_at[at] = w.key
        start = len(cell_names)
        for q, r in _distinct(w.cells(), file=label, entry=f"{entry}.hexes"):
            cell_names.append(f"{w.key}:{q},{r}")
            coords.append((q, r))
            board_of.append(k)
        worlds.append(World(w.key, w.name, w.kind, space_index[at], tuple(range(start, len(cell_names)))))

    index = {(board_of[c], coords[c]): c for c in range(len(cell_names))}
    neighbours = tuple(
        tuple(n for dq, dr in HEX_DIRECTIONS if (n := index.get((board_of[c], (coords[c][0] + dq, coords[c][1] + dr)))) is not None)
        for c in range(len(cell_names))
    )
    world_below = [0] * len(cell_names)
    for k, world in enumerate(worlds, start=1):
        world_below[world.space_cell] = k
    return Board(
        file=label,
        name=m.name,
        players=tuple(m.players),
        cell_names=tuple(cell_names),
        cell_ids={n: i for i, n in enumerate(cell_names)},
        coords=tuple(coords),
        board_of=tuple(board_of),
        neighbours=neighbours,
        territory=tuple((c, *neighbours[c]) for c in range(len(cell_names))),
        worlds=tuple(worlds),
        world_below=tuple(world_below),
        deck=m.deck,
    )


@functools.cache
def shipped_maps() -> tuple[str, ...]:
    """The names of the maps shipped in the package (``default-2p``, ...)."""
    folder = resources.files(PACKAGE).joinpath("maps")
    return tuple(sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")))


@functools.cache
def _shipped_map(name: str) -> Board:
    label, data = read_data(PACKAGE, f"maps/{name}.toml")
    return parse_map(label, data)


@functools.lru_cache(maxsize=32)
def _map_from_text(label: str, text: str, suffix: str) -> Board:
    """Cached on the file's content, so an edited file is read again and an unchanged one is parsed once."""
    return parse_map(label, parse_data(text, label, suffix=suffix))


def load_map(value: str, players: int) -> Board:
    """The map the ``map`` option names: "default", a shipped map's name, or a path to a designer's file."""
    if names_file(value):
        label, text = read_text_file(value)
        return _map_from_text(label, text, check_path(value).suffix)
    name = f"default-{players}p" if value == "default" else value
    if name not in shipped_maps():
        raise DataError(
            short(f"maps/{name}.toml"), "file", f"no shipped map called {short(value, 40)!r}; shipped: {', '.join(shipped_maps())}"
        )
    return _shipped_map(name)


# -- the public data every view carries ------------------------------------------------------------------------------
_PUBLIC_DATA: dict[int, tuple[object, Any]] = {}


def public_data(obj: object, make: Callable[[], Any]) -> Any:
    """The JSON of a map or card table, built once per loaded object (held with it, so an id is never reused)."""
    held = _PUBLIC_DATA.get(id(obj))
    if held is None or held[0] is not obj:
        if len(_PUBLIC_DATA) > 64:
            _PUBLIC_DATA.clear()
        held = _PUBLIC_DATA[id(obj)] = (obj, make())
    return held[1]


def boards_json(board: Board) -> list[dict[str, Any]]:
    """Every board of the map as public data: key, name, kind, the space hex it lies over, its hexes (axial q, r)."""
    coords = board.coords
    out: list[dict[str, Any]] = [
        {
            "key": SPACE,
            "name": "Space",
            "kind": "space",
            "over": None,
            "hexes": [list(coords[c]) for c in range(board.size) if board.board_of[c] == 0],
        }
    ]
    for w in board.worlds:
        out.append(
            {
                "key": w.key,
                "name": w.name,
                "kind": w.kind,
                "over": board.cell_names[w.space_cell],
                "hexes": [list(coords[c]) for c in w.cells],
            }
        )
    return out


def cards_json(table: CardTable) -> list[dict[str, Any]]:
    """The card table as public data: what every card is, costs and does."""
    return [
        {
            "slug": c.slug,
            "name": c.name,
            "cost": c.cost,
            "unit": c.is_unit,
            "base": c.is_base,
            "strength": c.strength,
            "movement": c.movement,
            "special": None if c.special is None else c.special.value,
            "resources": c.resources,
        }
        for c in table.cards
    ]
