"""Constellations: rotate rings of tiles around stars to line up colours seen from habitable planets.

Seed: 000_89cc40da44a626f0.txt. The rules as implemented are in rules.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from astrarium.core import DataError, Game, Option, OptionError, Puzzle, State
from astrarium.core.contract import SLIPPING_EASY, Help, Parts, Picture, lookahead_levels
from astrarium.games.constellations import evaluate, explain, help, learning, metrics, render, svg, words
from astrarium.games.constellations.board import BoardError, parse_board
from astrarium.games.constellations.cards import check_card_list
from astrarium.games.constellations.puzzles import is_solved, puzzle_of_the_day, shipped_puzzles
from astrarium.games.constellations.state import MAX_ROUNDS, OBJECT_COUNTS, ConstellationsState

#: The search players' settings the strength runs found best (docs/agents.md, "Strength").
SEARCH = "rollout=heuristic,depth=2,c=0.5"
#: The levels. More search than the tuned search's 300 iterations does not play better here (the opponent's rotation
#: undoes most plans; docs/agents.md, "Strength"), so the levels step down from it rather than up: ``hard`` is that
#: search, ``medium`` the one rotation of lookahead (``greedy``), and ``easy`` the same lookahead slipping to any
#: move half the time, so that each level beats the one below it (docs/agents.md, "Levels").
LEVELS = lookahead_levels(f"mcts:{SEARCH},iterations=300,seconds=2")
#: What each level plays, in the words a person reads in the menu.
LEVEL_SUMMARIES = {
    "easy": SLIPPING_EASY,
    "medium": "answers at once; the rotation that scores its hand best one move ahead",
    "hard": "searches 300 positions a move, reckoning with your answers",
}


def _check_board(text: str) -> str | None:
    try:
        parse_board(text)
    except BoardError as exc:
        return str(exc)
    return None


def _count(name: str, default: int, what: str, maximum: int = 20) -> Option:
    return Option(name, default, f"{what} on a random board", int, minimum=0, maximum=maximum)


def _options() -> tuple[Option, ...]:
    return (
        Option(
            "board",
            None,
            "a starting board in text notation (rows joined by newlines); none: a seeded random board",
            str,
            nullable=True,
            check=_check_board,
        ),
        Option("width", 7, "columns of a random board", int, minimum=3, maximum=15),
        Option("height", 7, "rows of a random board", int, minimum=3, maximum=15),
        _count("planets", 3, "habitable planets"),
        _count("gas_giants", 6, "gas giants"),
        _count("yellow_dwarfs", 3, "yellow dwarfs"),
        _count("red_giants", 2, "red giants"),
        _count("neutron_stars", 2, "neutron stars"),
        _count("black_holes", 1, "black holes"),
        _count("comets", 3, "comets"),
        Option(
            "deck",
            None,
            "constellation cards in draw order, like ['ryw/3', 'g/1']; none: the shuffled shipped deck",
            list,
            nullable=True,
            minimum=1,
            maximum=200,
            check=check_card_list,
        ),
        Option(
            "deck_file",
            None,
            "a designer's deck file (TOML/JSON, in the built-in deck's format), shuffled; none: the shipped deck",
            str,
            nullable=True,
            names_file=True,
        ),
        Option("hand_size", 3, "cards in each hand", int, minimum=1, maximum=6),
        Option("max_rounds", 12, "the game ends after this many rounds at the latest", int, minimum=1, maximum=MAX_ROUNDS),
        Option("planet_in_line", False, "whether a planet's own blue starts each of its four lines", bool),
        Option(
            "swap",
            False,
            "variant: instead of rotating, a player may discard a card and refill",
            bool,
        ),
        Option("solo_target", 30, "points a solo player needs to win the score attack", int, minimum=0, maximum=1000),
    )


class ConstellationsGame(Game):
    id = "constellations"
    title = "Constellations"
    min_players = 1
    max_players = 4
    options = _options()
    hidden_information = True
    hidden = ("the other players' hands", "the order of the deck")
    cooperative = False
    chance = True
    notation_help = "rot c4 (rotate around the star at column c, row 4) | play ryw/3 | end | pass | swap ryw/3 (variant)"
    state_class = ConstellationsState
    package = "astrarium.games.constellations"
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
        players={"constellations-lookahead": "astrarium.agents.scripted_constellations:LookaheadPlayer"},
        metrics=metrics.final_metrics,
        learning=learning.LEARNING,
    )

    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """A true bound: a turn has one rotation (or pass, or swap) and at most one ``end`` besides its plays, and
        every card is played at most once in the whole game (played cards are discarded, the deck is never
        refilled), so the plays are at most the deck, and at most a hand a turn."""
        turns = players * options["max_rounds"]
        return 2 * turns + min(len(learning.deck_cards(options)), turns * options["hand_size"])

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        if options["board"] is None:
            total = sum(options[name] for name, _ in OBJECT_COUNTS)
            cells = options["width"] * options["height"]
            if total > cells:
                raise OptionError("planets", f"{total} objects do not fit on a {options['width']}x{options['height']} board")
            if options["planets"] < 1:
                raise OptionError("planets", "a random board needs at least one habitable planet")
        if options["deck_file"] is not None and options["deck"] is not None:
            raise OptionError("deck_file", "give either 'deck' or 'deck_file', not both")
        if options["deck_file"] is not None:
            from astrarium.games.constellations.cards import load_deck_file

            try:
                load_deck_file(options["deck_file"])
            except DataError as exc:
                raise OptionError("deck_file", str(exc)) from exc

    def puzzles(self) -> list[Puzzle]:
        return shipped_puzzles()

    def puzzle_solved(self, puzzle: Puzzle, state: State) -> bool:
        assert isinstance(state, ConstellationsState)
        return is_solved(puzzle, state)

    def puzzle_of_the_day(self, day: date) -> Puzzle:
        """The puzzle for ``day``: the same for everyone, from the easiest pack on Mondays to the hardest on Fridays."""
        return puzzle_of_the_day(day)
