"""Connected Worlds: a deck-building 4X space game on hex maps (seed 003_cb429260b882439f)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import DataError, Game, Option, OptionError
from astrarium.core.contract import Help, Parts, Picture
from astrarium.games.connected_worlds import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.connected_worlds.actions import NOTATION_HELP
from astrarium.games.connected_worlds.data import load_cards, load_map
from astrarium.games.connected_worlds.state import ConnectedWorldsState

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "depth=20"
#: The levels. The scripted general (``cw-general``: it guards the bases the enemy can strike next turn and sends the
#: rest at the bases it can take) beat the tuned search and answers at once, so it plays ``medium``; ``hard`` is the
#: rollout player over it, which tries every action with the general playing both sides for 20 actions on 2 re-dealt
#: worlds, reads the opponent's answer the general cannot, and beats the general (see docs/agents.md, "Levels";
#: docs/balance/connected-worlds.md, "The planning player"). Both break ties between equally valued moves at random
#: (seeded), so no map place is favoured by the order of hexes and a person meets varied games.
LEVELS = {
    "easy": "greedy",
    "medium": "cw-general:ties=random",
    "hard": "rollout:base=cw-general:ties=random,samples=2,depth=20,margin=0.1",
}
#: What the medium and hard levels play, in the words a person reads in the menu.
LEVEL_SUMMARIES = {
    "medium": "answers at once; guards what the enemy can strike next turn and attacks with the rest",
    "hard": "tries each action, then plays the medium plan for both sides 20 actions ahead",
}
#: The guide of a search by default: a turn is ten to twenty single steps and the evaluation cannot see the enemy's
#: next turn, so the unguided search lost most of its games to the scripted rusher; guided by the scripted general it
#: follows a plan and holds the rusher off (see docs/balance/connected-worlds.md, "The guided search").
GUIDE = "cw-general"
#: The scripted players (their code is in astrarium.agents): the balance and strength yardsticks, and the general.
PLAYERS = {
    "cw-rusher": "astrarium.agents.scripted_connected:RusherPlayer",
    "cw-expander": "astrarium.agents.scripted_connected:ExpanderPlayer",
    "cw-general": "astrarium.agents.scripted_connected:GeneralPlayer",
}


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
        Option("cards", None, "a path to a card table file (None: the built-in cards)", str, nullable=True, names_file=True),
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
        Option(
            "turn_order",
            "drawn",
            "the order of play in each round: 'drawn' at random as the round begins; 'fixed', seat 0, 1, 2, ... in every round; "
            "'rotating', round r begins with seat (r - 1) mod players",
            str,
            choices=("drawn", "fixed", "rotating"),
        ),
        Option("scenario", None, "a starting position as TOML text or a path (None: the normal setup)", str, nullable=True),
        Option(
            "choices",
            "whole",
            "'whole': a move, portal or deployment is one action (move CARD HEX PIECE); 'steps': it is chosen a part at a "
            "time (move CARD, at HEX, piece PIECE), the fixed action space learning agents need; the same game either way",
            str,
            choices=("whole", "steps"),
        ),
    )
    state_class = ConnectedWorldsState
    package = "astrarium.games.connected_worlds"
    parts = Parts(
        picture=Picture(render_svg=svg.render_svg, action_tokens=svg.action_tokens, button_tokens=svg.BUTTON_TOKENS),
        describe=words.describe,
        render=render.render,
        render_fit=render.render_fit,
        help=Help(cards=help.cards, things=help.things),
        evaluate=evaluate.evaluate,
        explain=explain.explain,
        levels=LEVELS,
        level_summaries=LEVEL_SUMMARIES,
        search=SEARCH,
        guide=GUIDE,
        players=PLAYERS,
        metrics=metrics.final_metrics,
        learning=learning.LEARNING,
    )

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
        """Setup (one base each) + every turn: each card played with at most 1 + movement actions, and 'end'.

        With ``choices = steps`` a card played takes up to three actions (a move's head, hex and piece, or a portal's
        head and two hexes) before its movement steps. A true bound, not a typical length: the rounds, the hand and the
        fastest card as the options and the card table allow them (docs/learning.md compares it with played games).
        """
        try:
            cards = load_cards(options["cards"])
        except DataError:
            return 0
        movement = max((c.movement for c in cards.cards if not c.is_unit), default=0)
        parts = 3 if options.get("choices") == "steps" else 1
        per_turn = options["hand_size"] * (parts + movement) + 1
        return players + options["round_limit"] * players * per_turn
