"""Celestials: the Sun against the Moon, a lane card game for two.

Seat 0 plays the Sun, seat 1 the Moon. Each draws from its own deck (a data
file: three Advance Phase cards plus two copies of each listed card), summons
creatures and structures onto 4 lane pairs, and brings the other to 0 health.
"""

from __future__ import annotations

from typing import Any

from astrarium.core import Game
from astrarium.core.contract import SLIPPING_EASY, Help, Parts, Picture, lookahead_levels
from astrarium.core.options import Option
from astrarium.games.celestials import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.celestials.actions import NOTATION
from astrarium.games.celestials.board import SIZE
from astrarium.games.celestials.cards import Deck, Effect, Kind, Step
from astrarium.games.celestials.position import parse_position
from astrarium.games.celestials.state import CelestialsState, rules_for

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "depth=10"
#: The levels. One step of lookahead (``greedy``) already plays Celestials well, and a search beats it mostly at the
#: turn limit, not by play, so the levels step down from the lookahead: ``easy`` slips to any move half the time,
#: ``medium`` one move in five, and ``hard`` is the search with 1000 simulations a move (at most 2 s);
#: docs/agents.md, "Levels", has how each level fares against the one below.
LEVELS = lookahead_levels(f"mcts:{SEARCH},iterations=1000,seconds=2", medium="greedy:epsilon=0.2")
#: What each level plays, in the words a person reads in the menu.
LEVEL_SUMMARIES = {
    "easy": SLIPPING_EASY,
    "medium": "answers at once; the move whose result looks best one move ahead, one move in five at random",
    "hard": "searches 1000 positions a move (2 s at most), ten moves deep",
}
#: Actions of one turn besides plays, activations and reshuffle answers: draw or not, advance or end, discard or keep.
_TURN_OVERHEAD = 3


def _drawn(steps: tuple[Step, ...] | None) -> int:
    return sum(step.amount for step in steps or () if step.effect is Effect.DRAW)


def _turn_bound(deck: Deck, hand: int) -> int:
    """The most actions one turn of ``deck``'s player can take (``CelestialsGame.max_moves``)."""
    cards = [deck.cards[i] for i in deck.cards_list()]
    drawn_in_plays = sum(_drawn(card.on_play) + _drawn(card.on_activate) for card in cards)
    drawn_at_start = sum(_drawn(card.on_turn_start) for card in cards) + sum(_drawn(p.start) + _drawn(p.enter) for p in deck.phases)
    plays = min(len(cards), hand + drawn_in_plays)
    acts = min(SIZE, sum(card.kind in (Kind.CREATURE, Kind.STRUCTURE) for card in cards))
    draws = 2 + drawn_in_plays + drawn_at_start  # the draw step, the discard's draw and the cards' and phases' draws
    return _TURN_OVERHEAD + plays + acts + 2 * draws


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
        levels=LEVELS,
        level_summaries=LEVEL_SUMMARIES,
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
        """A true bound, turn by turn: each player's turns times the most actions one of its turns can take.

        A hand never holds more than ``max(start_hand, hand_limit)`` cards (a draw stops at the hand limit), so a
        turn's plays are at most that many plus the cards its plays and activations draw, and never more than the
        deck. Each of the player's cards on the board acts (activates or manoeuvres) at most once a turn: both
        exhaust it, and nothing readies a card before the turn ends. Besides: draw or not, advance or end, discard
        or keep; and every draw may ask the reshuffle question, two answers at most.
        """
        rules = rules_for(options)
        hand = max(options["start_hand"], options["hand_limit"])
        return options["turn_limit"] * sum(_turn_bound(deck, hand) for deck in rules.decks)
