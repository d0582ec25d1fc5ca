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
from pathlib import Path
from typing import Any

from astrarium.core.data import field, no_unknown_fields, parse_data, read_data_file
from astrarium.core.errors import DataError
from astrarium.games.connected_worlds.data import Board, CardTable, is_path


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
    """Read the ``scenario`` option: inline TOML text, or a path to a TOML/JSON file."""
    if is_path(value) and "\n" not in value and "=" not in value:
        label, data = read_data_file(Path(value))
    else:
        label = "scenario"
        data = parse_data(value, label, suffix=".toml")
    no_unknown_fields(data, {"round", "turn", "base", "unit", "portal", "player"}, file=label, entry="top level")

    def cell(text: Any, entry: str) -> int:
        if not isinstance(text, str) or text.upper() not in board.cell_ids:
            raise DataError(label, entry, f"hex {text!r} is not on the map {board.name!r} (write e.g. 'S:0,0' or 'A:1,-1')")
        return board.cell_ids[text.upper()]

    def seat(row: Any, entry: str) -> int:
        owner = field(row, "owner", int, file=label, entry=entry)
        if not 0 <= owner < players:
            raise DataError(label, entry, f"owner {owner} is not a seat of this {players}-player game")
        return owner

    def strength(row: Any, entry: str) -> int:
        value = field(row, "strength", int, file=label, entry=entry)
        if value < 1:
            raise DataError(label, entry, "strength must be at least 1")
        return value

    bases: list[tuple[int, int, int]] = []
    for i, row in enumerate(field(data, "base", list, file=label, entry="top level", default=[])):
        entry = f"base[{i}]"
        no_unknown_fields(row, {"at", "owner", "strength"}, file=label, entry=entry)
        at = cell(field(row, "at", str, file=label, entry=entry), entry)
        if any(b[0] == at for b in bases):
            raise DataError(label, entry, f"two bases on one hex {board.cell_names[at]}")
        bases.append((at, seat(row, entry), strength(row, entry)))
    units: list[tuple[int, int, int]] = []
    for i, row in enumerate(field(data, "unit", list, file=label, entry="top level", default=[])):
        entry = f"unit[{i}]"
        no_unknown_fields(row, {"at", "owner", "strength"}, file=label, entry=entry)
        units.append((cell(field(row, "at", str, file=label, entry=entry), entry), seat(row, entry), strength(row, entry)))
    owners: dict[int, int] = {b[0]: b[1] for b in bases}
    for at, owner, _ in units:
        if owners.setdefault(at, owner) != owner:
            raise DataError(label, f"unit at {board.cell_names[at]}", "opposing pieces share a hex at the start of a turn")
    base_owner = {b[0]: b[1] for b in bases}
    portals: list[tuple[int, int]] = []
    for i, row in enumerate(field(data, "portal", list, file=label, entry="top level", default=[])):
        entry = f"portal[{i}]"
        no_unknown_fields(row, {"between"}, file=label, entry=entry)
        ends = field(row, "between", list, file=label, entry=entry)
        if len(ends) != 2:
            raise DataError(label, entry, "a portal is between exactly two bases")
        a, b = sorted(cell(e, entry) for e in ends)
        if a == b or a not in base_owner or b not in base_owner or base_owner[a] != base_owner[b]:
            raise DataError(label, entry, "a portal joins two different bases of the same player")
        portals.append((a, b))
    setups: list[PlayerSetup] | None = None
    rows = field(data, "player", list, file=label, entry="top level", default=None)
    if rows is not None:
        if len(rows) != players:
            raise DataError(label, "player", f"give one [[player]] table per seat ({players}), got {len(rows)}")
        setups = []
        for i, row in enumerate(rows):
            entry = f"player[{i}]"
            no_unknown_fields(row, {"resources", "hand", "deck", "discard"}, file=label, entry=entry)
            resources = field(row, "resources", int, file=label, entry=entry, default=0)
            if resources < 0:
                raise DataError(label, entry, "resources cannot be negative")
            hand = row.get("hand")
            deck = row.get("deck")
            hand_cards = None if hand is None else cards.deck_from(hand, file=label, entry=f"{entry}.hand")
            if hand_cards is not None and len(hand_cards) > hand_size:
                raise DataError(label, f"{entry}.hand", f"a hand holds at most {hand_size} cards")
            setups.append(
                PlayerSetup(
                    resources=resources,
                    hand=hand_cards,
                    deck=None if deck is None else cards.deck_from(deck, file=label, entry=f"{entry}.deck"),
                    discard=cards.deck_from(row.get("discard", []), file=label, entry=f"{entry}.discard"),
                )
            )
    turn = field(data, "turn", int, file=label, entry="top level", default=0)
    if not 0 <= turn < players:
        raise DataError(label, "turn", f"turn must be a seat 0..{players - 1}")
    rnd = field(data, "round", int, file=label, entry="top level", default=1)
    if rnd < 1:
        raise DataError(label, "round", "round must be at least 1")
    return Scenario(rnd, turn, tuple(bases), tuple(units), tuple(portals), None if setups is None else tuple(setups))
