"""The interactive menu ``make play`` opens: choose a game, the players, who sits where."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import astrarium
from astrarium.agents import agent_names
from astrarium.agents.levels import LEVELS, PLAY_SECONDS, SEARCH_KINDS
from astrarium.cli.common import SEED_RANGE, fresh_seed, parse_number
from astrarium.cli.session import HUMAN, Ask, PlayLoop, QuitGame, build_agents

#: The level a computer seat gets when the person presses Enter.
DEFAULT_LEVEL = "medium"
#: What the kinds of player other than the levels are, in a line (scripted strategies are named by their own names).
KIND_WORDS = {
    HUMAN: "a person at this terminal",
    "random": "plays any legal action",
    "greedy": "the easy level: looks one action ahead",
    **{kind: f"searches {PLAY_SECONDS:g} s a move" for kind in SEARCH_KINDS},
}


def seat_kinds(game_id: str) -> list[str]:
    """The players the menu offers for ``game_id``: a person, every kind that plays it, then the levels.

    A search is offered by its plain name; the table gives it about a second
    a move (:func:`astrarium.agents.levels.table_spec`).
    """
    return [HUMAN, *agent_names(game_id), *LEVELS]


def _kinds_table(kinds: list[str]) -> Table:
    table = Table(show_header=True, title="Who sits where")
    table.add_column("#", style="cyan", justify="right")
    table.add_column("player")
    table.add_column("plays")
    for i, kind in enumerate(kinds, start=1):
        level = LEVELS.get(kind)
        table.add_row(str(i), escape(kind), escape(level.summary if level else KIND_WORDS.get(kind, "a fixed strategy of this game")))
    return table


def _choose_int(ask: Ask, console: Console, prompt: str, low: int, high: int, default: int | None) -> int | None:
    """A number from ``low`` to ``high`` typed at the prompt; Enter gives ``default``."""
    shown = "a random one" if default is None else str(default)
    while True:
        text = ask(f"{prompt} [{low}-{high}, Enter for {shown}]: ").strip()
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
        kinds = seat_kinds(game.id)
        console.print(_kinds_table(kinds))
        seats: dict[int, str] = {}
        for seat in range(players):
            default = 1 if seat == 0 else kinds.index(DEFAULT_LEVEL) + 1
            kind = _choose(ask, console, f"Seat {seat}", 1, len(kinds), default)
            seats[seat] = kinds[kind - 1]
        chosen = _choose_int(ask, console, "Seed", 0, SEED_RANGE - 1, None)
        seed = fresh_seed() if chosen is None else chosen  # a fresh game each time unless a seed is asked for
        state = game.new_game(players, seed)
        PlayLoop(state, seats, console, ask, agents=build_agents(seats, seed, game.id)).run()
        again = ask("Play again? [y/N]: ").strip().lower()
        if again not in ("y", "yes"):
            console.print("Goodbye.")
            return
