"""The interactive menu ``make play`` opens: choose a game, the players, its options, who sits where."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import astrarium
from astrarium.agents import agent_names
from astrarium.agents.levels import LEVELS, PLAY_SECONDS, level_summary
from astrarium.cli.common import SEED_RANGE, fresh_seed, parse_number
from astrarium.cli.session import HUMAN, Ask, PlayLoop, QuitGame, build_agents
from astrarium.core.errors import OptionError
from astrarium.core.game import Game
from astrarium.core.options import Option

#: The question after a game, and what each answer does (anything else: back to the menu).
PLAY_AGAIN = "Play again with the same players? y: a new deal, Enter or n: back to the menu, q: quit [y/N/q]: "
AFTER_GAME = {"y": "again", "yes": "again", "q": "quit", "quit": "quit", "exit": "quit"}
#: The level a computer seat gets when the person presses Enter.
DEFAULT_LEVEL = "medium"
#: What the kinds of player other than the levels are, in a line (scripted strategies are named by their own names).
KIND_WORDS = {
    HUMAN: "a person at this terminal",
    "random": "plays any legal action, at random: for trying the rules",
    "greedy": "one step of lookahead: takes the action that scores best one step ahead",
    "rollout": "tries each action, then lets a base player (greedy unless told) play on",
    "mcts": f"tree search, {PLAY_SECONDS:g} s a move, seeing only what its seat may see",
    "ismcts": f"tree search over re-dealt hidden cards, {PLAY_SECONDS:g} s a move",
    "learned": "a small neural policy trained by imitation and policy gradient (make learn)",
    "constellations-lookahead": "looks through its own rotations for the most points (fixed plan)",
    "cw-rusher": "fixed plan: every fighting unit at the nearest enemy base",
    "cw-expander": "fixed plan: bases on three worlds, the most territory",
    "cw-general": "the player behind medium: guards what is threatened, strikes with the rest",
    "orbital-turtle": "fixed plan: full defense, never fires, never moves",
    "orbital-gunner": "fixed plan: every weapon at the weakest ship in range",
    "orbital-scooper": "fixed plan: gathers reaction mass, defends with the rest",
    "orbital-guard": "fixed plan: full defense when an enemy is in range, else gathers mass",
    "orbital-runner": "fixed plan: burns outward, out of range, whenever an enemy could fire",
    "sl-courier": "fixed plan: carries refugees, never lays a streamline",
    "sl-builder": "fixed plan: carries refugees, lays one-way lanes towards the escape",
    "sl-search": "the player behind medium and hard: tries each action with couriers playing on",
}
#: The line of a kind no line is written for.
OTHER_KIND = "a fixed strategy written for this game"


def seat_kinds(game_id: str) -> list[str]:
    """The players the menu offers for ``game_id``: a person, the levels, then every kind that plays it.

    The levels come first (what a newcomer should choose); a search is offered
    by its plain name and the table gives it about a second a move
    (:func:`astrarium.agents.levels.table_spec`).
    """
    return [HUMAN, *LEVELS, *agent_names(game_id)]


def _kinds_table(kinds: list[str], game_id: str | None = None) -> Table:
    table = Table(show_header=True, title="Who sits where")
    table.add_column("#", style="cyan", justify="right")
    table.add_column("player")
    table.add_column("plays")
    for i, kind in enumerate(kinds, start=1):
        words = level_summary(kind, game_id) if kind in LEVELS else KIND_WORDS.get(kind, OTHER_KIND)
        table.add_row(str(i), escape(kind), escape(words))
    return table


def _choose_int(ask: Ask, console: Console, prompt: str, low: int, high: int, default: int | None, enter: str = "") -> int | None:
    """A number from ``low`` to ``high`` typed at the prompt; Enter gives ``default`` (``enter`` says what Enter does)."""
    shown = enter or ("Enter for a random one" if default is None else f"Enter for {default}")
    while True:
        text = ask(f"{prompt} [{low}-{high}, {shown}]: ").strip()
        if not text:
            return default
        if text.lower() in ("q", "quit", "exit"):
            raise QuitGame
        number = parse_number(text)
        if number is not None and low <= number <= high:
            return number
        console.print(f"[red]Please type a number from {low} to {high}.[/]")


def _choose(ask: Ask, console: Console, prompt: str, low: int, high: int, default: int) -> int:
    choice = _choose_int(ask, console, prompt, low, high, default)
    return default if choice is None else choice


def menu_options(game: Game) -> list[Option]:
    """The options the menu offers: the game's modes, scenarios and variant switches (a choice or on/off).

    Numbers, file paths and whole positions are set on the command line
    (``--option name=value``), where they can be typed and checked at once.
    """
    return [option for option in game.options if option.choices or option.kind is bool]


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _options_table(offered: list[Option], values: dict[str, Any]) -> Table:
    table = Table(show_header=True, title="Options")
    table.add_column("#", style="cyan", justify="right")
    table.add_column("option")
    table.add_column("now", style="bold")
    table.add_column("what it does", no_wrap=True, overflow="ellipsis")  # one line an option, so the table fits a screen
    for i, option in enumerate(offered, start=1):
        choices = f" ({', '.join(_shown(c) for c in option.choices)})" if option.choices else ""
        table.add_row(str(i), escape(option.name), escape(_shown(values[option.name])), escape(option.help + choices))
    return table


def choose_options(ask: Ask, console: Console, game: Game, players: int) -> dict[str, Any]:
    """Let the person change the game's modes and variants before play; Enter plays with what is shown.

    Each option is shown with its one-line description. A choice is picked
    from its list, a switch is turned on or off; every change is checked with
    the game's own option checks, and one the game refuses is not kept.
    """
    offered = menu_options(game)
    if not offered:
        return {}
    chosen: dict[str, Any] = {}
    while True:
        values = {**game.default_options(), **chosen}
        console.print(_options_table(offered, values))
        number = _choose_int(ask, console, "Option to change", 1, len(offered), None, enter="Enter to play with these")
        if number is None:
            return chosen
        option = offered[number - 1]
        console.print(f"{escape(option.name)}: {escape(option.help)}")  # the whole line the table cut
        if option.kind is bool:
            value: Any = not values[option.name]
        else:
            assert option.choices is not None
            listed = ", ".join(f"{i} {_shown(c)}" for i, c in enumerate(option.choices, start=1))
            console.print(f"{escape(option.name)}: {escape(listed)}")
            current = option.choices.index(values[option.name]) + 1 if values[option.name] in option.choices else 1
            value = option.choices[_choose(ask, console, option.name, 1, len(option.choices), current) - 1]
        try:
            game.resolve_options(players, {**chosen, option.name: value})
        except OptionError as exc:
            console.print(f"[red]{escape(str(exc))}[/]", soft_wrap=True)
            continue
        chosen[option.name] = value


def run_menu(console: Console, ask: Ask) -> None:
    try:
        _menu(console, ask)
    except QuitGame:
        console.print("Goodbye.")
    except (EOFError, KeyboardInterrupt):
        console.print("\nGoodbye.")


def _menu(console: Console, ask: Ask) -> None:
    ids = astrarium.list_games()
    console.rule("[bold]astrarium[/]")
    if not ids:
        console.print("No games are installed yet.")
        return
    while True:
        table = Table(show_header=True)
        table.add_column("#", style="cyan", justify="right")
        table.add_column("game")
        table.add_column("players", justify="center")
        for i, game_id in enumerate(ids, start=1):
            game = astrarium.get_game(game_id)
            count = str(game.min_players) if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
            table.add_row(str(i), escape(game.title), count)
        console.print(table)
        choice = _choose(ask, console, "Game (q to quit)", 1, len(ids), 1)
        game = astrarium.get_game(ids[choice - 1])
        players = game.min_players
        if game.max_players > game.min_players:
            players = _choose(ask, console, "Players", game.min_players, game.max_players, game.min_players)
        options = choose_options(ask, console, game, players)
        kinds = seat_kinds(game.id)
        console.print(_kinds_table(kinds, game.id))
        seats: dict[int, str] = {}
        for seat in range(players):
            default = 1 if seat == 0 else kinds.index(DEFAULT_LEVEL) + 1
            kind = _choose(ask, console, f"Seat {seat}", 1, len(kinds), default)
            seats[seat] = kinds[kind - 1]
        chosen = _choose_int(ask, console, "Seed", 0, SEED_RANGE - 1, None)
        seed = fresh_seed() if chosen is None else chosen  # a fresh game each time unless a seed is asked for
        while True:
            state = game.new_game(players, seed, options)
            PlayLoop(state, seats, console, ask, agents=build_agents(seats, seed, game.id)).run()
            again = AFTER_GAME.get(ask(PLAY_AGAIN).strip().lower(), "menu")
            if again == "quit":
                console.print("Goodbye.")
                return
            if again == "menu":
                break
            seed = fresh_seed()
