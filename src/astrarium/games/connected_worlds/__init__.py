"""Connected Worlds: a deck-building 4X space game on hex maps (seed 003_cb429260b882439f)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import DataError, Game, Option, OptionError, register
from astrarium.games.connected_worlds.actions import NOTATION_HELP
from astrarium.games.connected_worlds.data import load_cards, load_map
from astrarium.games.connected_worlds.state import ConnectedWorldsState


class ConnectedWorldsGame(Game):
    id = "connected-worlds"
    title = "Connected Worlds"
    min_players = 2
    max_players = 4
    hidden_information = True
    hidden = ("each player's hand (seen only by its owner)", "the order of every deck")
    chance = True
    notation_help = NOTATION_HELP
    options = (
        Option("victory", "expansion", "how the game is won", str, choices=("expansion", "capture", "annihilation")),
        Option("round_limit", 30, "the game ends after this round; the tie-break decides", int, minimum=1, maximum=500),
        Option("map", "default", "'default' (the shipped map for the player count), a shipped map's name, or a path to a map file", str),
        Option("cards", None, "a path to a card table file (None: the built-in cards)", str, nullable=True),
        Option("hand_size", 5, "cards drawn up to at the end of each turn", int, minimum=1, maximum=10),
        Option("combat", "end-of-turn", "when combat in a hex is resolved", str, choices=("end-of-turn", "on-entry")),
        Option(
            "landing",
            "beachhead",
            "where a unit or base from space may land where its player holds no territory on the planet",
            str,
            choices=("beachhead", "territory-or-any", "territory"),
        ),
        Option("launch", "territory", "where on a planet a unit may launch into space from", str, choices=("territory", "anywhere")),
        Option("worlds_needed", 3, "worlds with a base needed for the expansion victory", int, minimum=1, maximum=8),
        Option("first_base", 3, "the strength of each player's first base (3: an Outpost; 1: a Standard Base)", int, minimum=1, maximum=99),
        Option("gather", "base", "'base': gathering needs a base of yours on the map; 'anywhere'", str, choices=("base", "anywhere")),
        Option("elimination", True, "a player without pieces takes no more turns; the last player with pieces wins", bool),
        Option("deploy_moves", True, "a unit may move in the turn it is deployed", bool),
        Option(
            "victory_check",
            "round",
            "'round': victory is checked at the end of each round; 'answered': it stands once every other player could undo it",
            str,
            choices=("round", "answered"),
        ),
        Option(
            "tiebreak",
            "round-end",
            "when the tie-break figures are taken at the round limit: 'round-end' (after the last seat's turn) or 'own-turn' "
            "(each player's at the end of their own last turn)",
            str,
            choices=("round-end", "own-turn"),
        ),
        Option("scenario", None, "a starting position as TOML text or a path (None: the normal setup)", str, nullable=True),
    )
    state_class = ConnectedWorldsState
    package = "astrarium.games.connected_worlds"

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        board = load_map(options["map"], players)
        if players not in board.players:
            raise OptionError("map", f"the map {board.name!r} ({board.file}) is for {board.players} players, not {players}")
        if options["worlds_needed"] > len(board.worlds):
            raise OptionError("worlds_needed", f"the map has only {len(board.worlds)} worlds")
        cards = load_cards(options["cards"])
        if board.deck is not None and not cards.deck_from(board.deck, file=board.file, entry="deck"):
            raise DataError(board.file, "deck", "the starting deck is empty")

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """Setup (one base each) + every turn: each card played with at most 1 + movement actions, and 'end'."""
        try:
            cards = load_cards(options["cards"])
        except DataError:
            return 0
        movement = max((c.movement for c in cards.cards if not c.is_unit), default=0)
        per_turn = options["hand_size"] * (1 + movement) + 1
        return players + options["round_limit"] * players * per_turn


register(ConnectedWorldsGame)
