"""Streamlines: a cooperative rescue game for 2-4 players on a 9x9 board (seed 001_22f34110b448c808).

Ships carry Refugees from Planet squares to Escape squares, laying Streamline
cards that speed their movement, while Collapse cards turn the planets into
black holes. The rules as implemented are in rules.md beside this file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import Game, Option
from astrarium.core.contract import Help, Parts, Picture
from astrarium.games.streamlines import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.streamlines.actions import NOTATION_HELP
from astrarium.games.streamlines.board import MAX_COLLAPSE_CARDS, MAX_REQUIRED, SCENARIO_NAMES
from astrarium.games.streamlines.cards import ACTION, CALM_STAR, MAX_DECK, checked_setup, unknown_card_names
from astrarium.games.streamlines.state import StreamlinesState

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "rollout=heuristic,depth=4"
#: The levels. The rollout player over the scripted courier (``sl-search``) rescues more often than the courier on the
#: introductory and standard maps and about as often on the hard one, while the tuned search rescues far less often
#: than the courier (see docs/agents.md, "Levels"; docs/balance/streamlines.md, "Design notes", 4); it is budgeted in
#: re-sampled decks, not seconds: 4 a move at ``medium``, 12 at ``hard`` (their time a move: docs/agents.md,
#: "Streamlines scripted teams").
LEVELS = {"easy": "greedy", "medium": "sl-search", "hard": "sl-search:samples=12"}
#: What the medium and hard levels play, in the words a person reads in the menu.
LEVEL_SUMMARIES = {
    "medium": "tries each action against the scripted courier on 4 re-dealt decks",
    "hard": "tries each action against the scripted courier on 12 re-dealt decks",
}
#: The scripted players (their code is in astrarium.agents): the courier, the builder, and the search over the courier.
PLAYERS = {
    "sl-courier": "astrarium.agents.scripted_streamlines:CourierPlayer",
    "sl-builder": "astrarium.agents.scripted_streamlines:BuilderPlayer",
    "sl-search": "astrarium.agents.scripted_streamlines:SearchPlayer",
}


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
        Option(
            "movement",
            "rule",
            "how streamlines move ships: rule (never enter a square against its streamline) "
            "or carried (a ship carried by an arrow may enter a square against its streamline)",
            str,
            choices=("rule", "carried"),
        ),
        Option(
            "events",
            "designed",
            "the Event cards in the deck: designed (Collapse and the designed Event cards) or collapse (Collapse only)",
            str,
            choices=("designed", "collapse"),
        ),
        Option(
            "free_lay",
            False,
            "house rule: laying a Streamline or Gate card costs no action (normally one action)",
            bool,
        ),
        Option("scenario_file", "", "path of a designer's own scenario file (.toml or .json); overrides scenario", str, names_file=True),
        Option(
            "required",
            None,
            "refugees the team must rescue (default: the scenario's number)",
            int,
            minimum=1,
            maximum=MAX_REQUIRED,
            nullable=True,
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
        _count("refugee_cards", 14, "Refugee cards in the game", 1, MAX_REQUIRED),
        Option(
            "deck",
            [],
            "a stacked deck for tutorials and tests: card names; the first four per ship are its "
            "Powers, the rest the deck, top first, unshuffled (replaces every card count)",
            list,
            maximum=MAX_DECK,
            check=unknown_card_names,
        ),
        Option(
            "collapse_cards",
            None,
            "Collapse event cards in the game (default: the scenario's number)",
            int,
            minimum=2,
            maximum=MAX_COLLAPSE_CARDS,
            nullable=True,
        ),
    )
    state_class = StreamlinesState
    package = "astrarium.games.streamlines"
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
        guide=None,
        players=PLAYERS,
        metrics=metrics.final_metrics,
        learning=learning.LEARNING,
    )

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        checked_setup(players, options)

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """A true bound: see "Why every game ends" in rules.md."""
        scenario, counts = checked_setup(players, options)
        cards = sum(counts)
        planets = len(scenario.planets)
        # Some planet moves on a stage within every window of 2N + players + 3 turns; the planets have 3 stages each to
        # pass, and each Calm Star can undo one warning once (it leaves the game when drawn), adding one stage to pass.
        turns = (3 * planets + counts[CALM_STAR]) * (2 * cards + players + 3) + 1
        per_turn = 4 * (counts[ACTION] + 1) * (cards + 2)
        return turns * per_turn
