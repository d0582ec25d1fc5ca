"""Scenarios: a position written as data (TOML text or a file), for tests, puzzles and designers.

A scenario replaces setup steps 1-3 and 5 (no ``found`` phase, no random deal
unless a player's cards are left out)::

    round = 1            # optional, default 1
    turn = 0             # optional, the seat to play, default 0
    [[base]]
    at = "A:0,0"
    owner = 0
    strength = 1
    [[unit]]
    at = "S:-1,0"
    owner = 1
    strength = 2
    [[base]]
    at = "C:0,0"
    owner = 0
    strength = 2
    [[portal]]           # between two bases of one player
    between = ["A:0,0", "C:0,0"]
    [[player]]           # one per seat, in seat order (optional: left out, the usual deal)
    resources = 10
    hand = ["harvester", "portal"]
    deck = ["scientists"]    # top card first
    discard = []
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field, StringConstraints

from astrarium.core.data import DataModel, describe_location, names_file, parse_data, read_data_file, validate
from astrarium.core.errors import DataError, short
from astrarium.games.connected_worlds.data import MAX_RESOURCES, MAX_STRENGTH, Board, CardTable, Deck

#: Bases, units and portals a scenario may place (a shipped map has at most 151 hexes).
MAX_SCENARIO_BASES = 100
MAX_SCENARIO_UNITS = 200
MAX_SCENARIO_PORTALS = 100
#: The latest round a scenario may start in (the ``round_limit`` option's maximum).
MAX_ROUND = 500

HexName = Annotated[str, StringConstraints(min_length=1, max_length=16)]


class PieceRow(DataModel):
    """``[[base]]`` or ``[[unit]]``: a piece on a hex."""

    at: HexName
    owner: Annotated[int, Field(ge=0, le=3)]
    strength: Annotated[int, Field(ge=1, le=MAX_STRENGTH)]


class PortalRow(DataModel):
    """``[[portal]]``: a portal between two bases of one player."""

    between: Annotated[list[HexName], Field(min_length=2, max_length=2)]


class PlayerRow(DataModel):
    """``[[player]]``: one seat's pool and cards (a hand or deck left out: the usual shuffled deal)."""

    resources: Annotated[int, Field(ge=0, le=MAX_RESOURCES)] = 0
    hand: Deck | None = None
    deck: Deck | None = None
    discard: Deck = []


class ScenarioFile(DataModel):
    """A scenario: the ``scenario`` option's TOML text or file."""

    round: Annotated[int, Field(ge=1, le=MAX_ROUND)] = 1
    turn: Annotated[int, Field(ge=0, le=3)] = 0
    base: Annotated[list[PieceRow], Field(max_length=MAX_SCENARIO_BASES)] = []
    unit: Annotated[list[PieceRow], Field(max_length=MAX_SCENARIO_UNITS)] = []
    portal: Annotated[list[PortalRow], Field(max_length=MAX_SCENARIO_PORTALS)] = []
    player: Annotated[list[PlayerRow], Field(max_length=4)] | None = None


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    resources: int
    hand: tuple[int, ...] | None
    deck: tuple[int, ...] | None  # top card first
    discard: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Scenario:
    round: int
    turn: int
    bases: tuple[tuple[int, int, int], ...]  # (cell, owner, strength)
    units: tuple[tuple[int, int, int], ...]  # (cell, owner, strength)
    portals: tuple[tuple[int, int], ...]
    players: tuple[PlayerSetup, ...] | None


def load_scenario(value: str, board: Board, cards: CardTable, players: int, hand_size: int) -> Scenario:
    """Read the ``scenario`` option (inline TOML text, or a path to a TOML/JSON file): the schema, then the cross-checks."""
    if names_file(value):
        label, data = read_data_file(value)
    else:
        label = "scenario"
        data = parse_data(value, label, suffix=".toml")
    sc = validate(ScenarioFile, data, file=label)
    if sc.turn >= players:
        raise DataError(label, "turn", f"turn must be a seat 0..{players - 1}")
    check = _Checks(label, board, players)
    bases = check.pieces("base", sc.base)
    units = check.pieces("unit", sc.unit)
    owners: dict[int, int] = {at: owner for at, owner, _ in bases}
    for at, owner, _ in units:
        if owners.setdefault(at, owner) != owner:
            raise DataError(label, f"unit at {board.cell_names[at]}", "opposing pieces share a hex at the start of a turn")
    portals = check.portals(sc.portal, {at: owner for at, owner, _ in bases})
    setups = None if sc.player is None else check.players(sc.player, cards, hand_size)
    return Scenario(sc.round, sc.turn, bases, units, portals, setups)


@dataclass(frozen=True, slots=True)
class _Checks:
    """The cross-checks of a scenario against the map, the seats and the card table (what the schema cannot say)."""

    label: str
    board: Board
    seats: int

    def cell(self, text: str, entry: str) -> int:
        found = self.board.cell_ids.get(text.upper())
        if found is None:
            raise DataError(
                self.label, entry, f"hex {short(text, 20)!r} is not on the map {self.board.name!r} (write e.g. 'S:0,0' or 'A:1,-1')"
            )
        return found

    def pieces(self, kind: str, rows: list[PieceRow]) -> tuple[tuple[int, int, int], ...]:
        """Bases or units as (cell, owner, strength); two bases never share a hex."""
        out: list[tuple[int, int, int]] = []
        for i, row in enumerate(rows):
            entry = describe_location((kind, i))
            at = self.cell(row.at, f"{entry}.at")
            if row.owner >= self.seats:
                raise DataError(self.label, f"{entry}.owner", f"owner {row.owner} is not a seat of this {self.seats}-player game")
            if kind == "base" and any(b[0] == at for b in out):
                raise DataError(self.label, entry, f"two bases on one hex {self.board.cell_names[at]}")
            out.append((at, row.owner, row.strength))
        return tuple(out)

    def portals(self, rows: list[PortalRow], base_owner: dict[int, int]) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for i, portal in enumerate(rows):
            entry = describe_location(("portal", i))
            a, b = sorted(self.cell(e, f"{entry}.between") for e in portal.between)
            if a == b or a not in base_owner or base_owner[a] != base_owner.get(b):
                raise DataError(self.label, entry, "a portal joins two different bases of the same player")
            out.append((a, b))
        return tuple(out)

    def players(self, rows: list[PlayerRow], cards: CardTable, hand_size: int) -> tuple[PlayerSetup, ...]:
        if len(rows) != self.seats:
            raise DataError(self.label, "player", f"give one [[player]] table per seat ({self.seats}), got {len(rows)}")
        out = []
        for i, row in enumerate(rows):
            entry = describe_location(("player", i))
            hand = None if row.hand is None else cards.deck_from(row.hand, file=self.label, entry=f"{entry}.hand")
            if hand is not None and len(hand) > hand_size:
                raise DataError(self.label, f"{entry}.hand", f"a hand holds at most {hand_size} cards")
            deck = None if row.deck is None else cards.deck_from(row.deck, file=self.label, entry=f"{entry}.deck")
            out.append(PlayerSetup(row.resources, hand, deck, cards.deck_from(row.discard, file=self.label, entry=f"{entry}.discard")))
        return tuple(out)
