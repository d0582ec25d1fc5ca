"""Celestials: the Sun against the Moon, a lane card game for two.

Seat 0 plays the Sun, seat 1 the Moon. Each draws from its own deck (a data
file: three Advance Phase cards plus two copies of each listed card), summons
creatures and structures onto 4 lane pairs, and brings the other to 0 health.
"""

from __future__ import annotations

from typing import Any

from astrarium.core import Game
from astrarium.core.contract import Help, Parts, Picture, search_levels
from astrarium.core.options import Option
from astrarium.games.celestials import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.celestials.actions import NOTATION
from astrarium.games.celestials.cards import ADVANCE_COPIES, COPIES
from astrarium.games.celestials.position import parse_position
from astrarium.games.celestials.state import CelestialsState, rules_for

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "depth=10"
#: Actions of one turn besides plays, activations and reshuffle answers: draw, advance/end, discard.
_TURN_OVERHEAD = 4


class CelestialsGame(Game):
    id = "celestials"
    title = "Celestials"
    min_players = 2
    max_players = 2
    hidden_information = True
    hidden = ("each player's hand (its owner sees it)", "the order of both draw piles")
    chance = True
    notation_help = NOTATION
    options = (
        Option("health", 20, "each player's starting health", int, minimum=1, maximum=99),
        Option("start_hand", 5, "cards dealt to each hand at the start", int, minimum=0, maximum=10),
        Option("hand_limit", 5, "most cards a hand may hold after a draw", int, minimum=1, maximum=10),
        Option("turn_limit", 30, "turns each player takes before the tie-break decides", int, minimum=1, maximum=200),
        Option("first", "sun", "who takes the first turn", str, choices=("sun", "moon")),
        Option("sun_deck", "", "path to a Sun deck file (TOML/JSON); empty: the built-in deck", str, names_file=True),
        Option("moon_deck", "", "path to a Moon deck file (TOML/JSON); empty: the built-in deck", str, names_file=True),
        Option("position", "", "a starting position as text (see the full rules, 'Positions'); empty: a normal deal", str),
    )
    state_class = CelestialsState
    package = "astrarium.games.celestials"
    parts = Parts(
        picture=Picture(render_svg=svg.render_svg, action_tokens=svg.action_tokens, button_tokens=svg.BUTTON_TOKENS),
        describe=words.describe,
        render=render.render,
        render_fit=render.render_fit,
        help=Help(cards=help.cards, things=help.things),
        evaluate=evaluate.evaluate,
        explain=explain.explain,
        levels=search_levels(SEARCH, hidden_or_chance=True),
        search=SEARCH,
        guide=None,
        players={},
        metrics=metrics.final_metrics,
        learning=learning.LEARNING,
    )

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        rules = rules_for(options)  # a bad deck file raises DataError naming the file and the card
        pools = [[rules.advance[seat] + i for i in deck.cards_list()] for seat, deck in enumerate(rules.decks)]
        parse_position(options["position"], rules, pools, options)  # a bad position raises OptionError

    def max_moves(self, players: int, options: Any) -> int:
        """A true bound, turn by turn.

        In one turn every card instance is played at most once (played cards go to
        the board or the graveyard; Advance Phase ends the plays) and acts at most
        once (activating and manoeuvring exhaust, and nothing readies a card); a
        turn draws at most deck + 2 cards, and each draw asks at most 2 answers.
        """
        rules = rules_for(options)
        deck = max(ADVANCE_COPIES + COPIES * (len(d.cards) - 1) for d in rules.decks)
        per_turn = 2 * deck + 2 * (deck + 2) + _TURN_OVERHEAD
        return 2 * options["turn_limit"] * per_turn + 2
