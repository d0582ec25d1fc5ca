"""Starter Game: piles of stars; each seat in turn takes 1 to 3 stars from one pile, and whoever takes the last star wins.

A small complete game to start a design from (``astrarium new-game`` writes it
out under a new name). The piles and the most stars a turn may take come from
the data file ``layouts.toml``; the rules are in ``rules.md``, the short
version in ``howto.md``. The game declares what it provides besides its rules
as ``parts`` (the contract, ``astrarium.core.contract``), and its package
declares the game as an entry point of the group ``astrarium.games``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from astrarium.core import Game, Option
from astrarium.core.contract import Help, Parts, Picture, search_levels
from astrarium.starter.template import evaluate, help, render, svg, words
from astrarium.starter.template.actions import NOTATION
from astrarium.starter.template.layouts import load_layouts
from astrarium.starter.template.state import PilesState

#: The search players' settings: none beyond their defaults (a search ``depth=N`` would go here).
SEARCH = ""
#: The layout a game starts from unless told otherwise.
DEFAULT_LAYOUT = "small"


class StarterGame(Game):
    """The game: its description, its options and its parts; the rules are :class:`PilesState`."""

    id = "starter-game"
    title = "Starter Game"
    min_players = 2
    max_players = 4
    notation_help = NOTATION
    options = (
        Option("layout", DEFAULT_LAYOUT, "the piles to start from (layouts.toml)", str, choices=tuple(load_layouts())),
        Option("first", 0, "the seat that takes first", int, minimum=0, maximum=3),
    )
    state_class = PilesState
    package = __name__
    # Everything the game provides besides its rules (docs/adding-a-game.md says which front end reads each part).
    parts = Parts(
        # The picture (web table, `astrarium show`, the HTML replay) and how clicks on it become actions.
        picture=Picture(render_svg=svg.render_svg, action_tokens=svg.action_tokens, button_tokens=svg.BUTTON_TOKENS),
        describe=words.describe,  # an action in words: every event log
        render=render.render,  # the text board at its full size
        render_fit=render.render_fit,  # the text board at any terminal size
        help=Help(cards=None, things=help.things),  # `info THING`; no cards in this game
        evaluate=evaluate.evaluate,  # the judgement the greedy and search players read
        levels=search_levels(SEARCH, hidden_or_chance=False),  # easy, medium, hard: the usual players
        search=SEARCH,
        guide=None,  # no player guides the searches
        players={},  # no scripted players of its own
    )

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """Every action takes at least one star, so a game lasts at most as many actions as there are stars."""
        return sum(load_layouts()[options["layout"]].piles)
