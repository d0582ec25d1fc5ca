"""Streamlines: a cooperative rescue game for 2-4 players on a 9x9 board (seed 001_22f34110b448c808).

Ships carry Refugees from Planet squares to Escape squares, laying Streamline
cards that speed their movement, while Collapse cards turn the planets into
black holes. The rules as implemented are in rules.md beside this file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import Game, Option, OptionError, register
from astrarium.games.streamlines.actions import NOTATION_HELP
from astrarium.games.streamlines.board import SCENARIO_NAMES, load_scenario
from astrarium.games.streamlines.cards import (
    ACTION,
    CARGO,
    COLLAPSE,
    GATES,
    KIND_OF_NAME,
    POWERS,
    REFUGEE,
    card_counts,
    unknown_card_names,
)
from astrarium.games.streamlines.state import StreamlinesState


def _count(name: str, default: int, help: str, lo: int, hi: int) -> Option:
    return Option(name, default, help, int, minimum=lo, maximum=hi)


class StreamlinesGame(Game):
    id = "streamlines"
    title = "Streamlines"
    min_players = 2
    max_players = 4
    cooperative = True
    hidden_information = True
    hidden = ("deck order",)
    chance = True
    notation_help = NOTATION_HELP
    options = (
        Option("scenario", "standard", "the built-in scenario (map) to play", str, choices=SCENARIO_NAMES),
        Option("scenario_file", "", "path of a designer's own scenario file (.toml or .json); overrides scenario", str),
        Option(
            "required", None, "refugees the team must rescue (default: the scenario's number)", int, minimum=1, maximum=40, nullable=True
        ),
        _count("action_cards", 8, "Action cards in the game", 2, 20),
        _count("cargo_cards", 8, "Cargo cards in the game", 2, 20),
        _count("pickup_cards", 3, "Pickup cards in the game", 0, 10),
        _count("extra_move_cards", 4, "Extra Move cards in the game", 0, 10),
        _count("engineering_cards", 3, "Engineering cards in the game", 0, 10),
        _count("gate_pairs", 2, "pairs of matching Gate cards in the game", 0, 4),
        _count("straight_cards", 6, "streamline cards with one arrow", 0, 20),
        _count("line_cards", 4, "streamline cards with two opposite arrows", 0, 20),
        _count("corner_cards", 6, "streamline cards with two arrows at a right angle", 0, 20),
        _count("tee_cards", 4, "streamline cards with three arrows", 0, 20),
        _count("refugee_cards", 14, "Refugee cards in the game", 1, 40),
        Option(
            "deck",
            [],
            "a stacked deck for tutorials and tests: card names; the first four per ship are its "
            "Powers, the rest the deck, top first, unshuffled (replaces every card count)",
            list,
            check=unknown_card_names,
        ),
        Option(
            "collapse_cards",
            None,
            "Collapse event cards in the game (default: the scenario's number)",
            int,
            minimum=2,
            maximum=24,
            nullable=True,
        ),
    )
    state_class = StreamlinesState
    package = "astrarium.games.streamlines"

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        scenario = load_scenario(options["scenario"], options["scenario_file"])
        counts = card_counts(options, scenario.collapse_cards)
        if options["deck"]:
            self._check_stacked_deck(players, options["deck"])
        if counts[ACTION] < players:
            raise OptionError("action_cards", f"each of the {players} ships starts with an Action card")
        if counts[CARGO] < players:
            raise OptionError("cargo_cards", f"each of the {players} ships starts with a Cargo card")
        powers = sum(counts[k] for k in POWERS)
        if powers < 4 * players:
            raise OptionError("action_cards", f"{players} ships are dealt 4 Power cards each, but there are {powers}")
        planets = len(scenario.planets)
        if counts[COLLAPSE] < 2 * planets:
            where = "deck" if options["deck"] else "collapse_cards"
            raise OptionError(where, f"{scenario.name} has {planets} planets: the game needs at least {2 * planets} Collapse cards")
        required = options["required"] if options["required"] is not None else scenario.required[players]
        if counts[REFUGEE] < required:
            where = "deck" if options["deck"] else "refugee_cards"
            raise OptionError(where, f"the team must rescue {required} refugees, but there are only {counts[REFUGEE]}")

    def _check_stacked_deck(self, players: int, names: list[str]) -> None:
        if len(names) < 4 * players:
            raise OptionError("deck", f"the first {4 * players} cards are the ships' Powers; the list has {len(names)}")
        for seat in range(players):
            group = names[4 * seat : 4 * seat + 4]
            if "action" not in group or "cargo" not in group or any(KIND_OF_NAME[n] not in POWERS for n in group):
                raise OptionError(
                    "deck",
                    f"cards {4 * seat + 1}-{4 * seat + 4} (ship {seat}'s Powers) must be Power "
                    f"cards with an action and a cargo among them, not {group}",
                )
        for kind in GATES:
            name = [n for n, k in KIND_OF_NAME.items() if k == kind][0]
            if names.count(name) not in (0, 2):
                raise OptionError("deck", f"Gate cards come in matching pairs: {names.count(name)} {name}")

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """A true bound: see "Why every game ends" in rules.md."""
        scenario = load_scenario(options["scenario"], options["scenario_file"])
        counts = card_counts(options, scenario.collapse_cards)
        cards = sum(counts)
        planets = len(scenario.planets)
        turns = 3 * planets * (2 * cards + players + 3) + 1
        per_turn = 4 * (counts[ACTION] + 1) * (cards + 2)
        return turns * per_turn


register(StreamlinesGame)
