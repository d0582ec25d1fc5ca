"""The ``astrarium`` command."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

import astrarium
from astrarium.agents import agent_names
from astrarium.cli.arena import arena
from astrarium.cli.session import HUMAN, PlayLoop, build_agents, default_ask, parse_seats, play_puzzle, step_through
from astrarium.core.errors import AstrariumError
from astrarium.core.game import Game
from astrarium.core.records import load_record, replay

app = typer.Typer(
    help="astrarium: play, test and balance tabletop space games. Run with no command for the game menu.",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)


def fail(message: str) -> typer.Exit:
    """Print a one-line error (no traceback) and return the exit to raise."""
    console.print(f"[red]error:[/] {escape(message)}")
    return typer.Exit(2)


def _game(game_id: str) -> Game:
    try:
        return astrarium.get_game(game_id)
    except AstrariumError as exc:
        raise fail(str(exc)) from None


def _options(game: Game, pairs: list[str]) -> dict:
    raw: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq:
            raise fail(f"--option {pair!r} should look like name=value")
        raw[name.strip()] = value
    try:
        return game.parse_options(raw)
    except AstrariumError as exc:
        raise fail(str(exc)) from None


@app.callback(invoke_without_command=True)
def main_callback(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        from astrarium.cli.menu import run_menu

        run_menu(console, default_ask(console))


@app.command()
def games() -> None:
    """List the games with their titles and player counts."""
    table = Table(title="astrarium games")
    table.add_column("id", style="cyan")
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("kind")
    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        players = str(game.min_players) if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        kind = "cooperative" if game.cooperative else "competitive"
        if game.hidden_information:
            kind += ", hidden cards"
        table.add_row(game.id, game.title, players, kind)
    if not astrarium.list_games():
        console.print("No games are installed yet.")
        return
    console.print(table)


@app.command()
def rules(game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")]) -> None:
    """Print a game's rules as implemented, with its decisions and options."""
    game = _game(game_id)
    console.print(Markdown(game.rules_text()))
    if game.options:
        table = Table(title="options (--option name=value)")
        table.add_column("option", style="cyan")
        table.add_column("default")
        table.add_column("meaning")
        for option in game.options:
            table.add_row(option.name, escape(repr(option.default)), escape(option.describe()))
        console.print(table)


PLAYERS_HELP = "number of players (default: enough for every seat named, at least the game's minimum)"


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help=PLAYERS_HELP)] = None,
    seat: Annotated[list[str], typer.Option("--seat", "-s", help="who plays a seat: 0=human, 1=random, 1=mcts:iterations=500 ...")] = [],  # noqa: B006
    seed: Annotated[int, typer.Option(help="random seed: the same seed and moves give the same game")] = 0,
    option: Annotated[list[str], typer.Option("--option", "-o", help="a game option, name=value (see 'astrarium rules GAME')")] = [],  # noqa: B006
    load: Annotated[Optional[str], typer.Option(help="continue a saved game (a record file)")] = None,
) -> None:
    """Play a game at the terminal: hot-seat humans and computer players."""
    game = _game(game_id)
    try:
        if load:
            record = load_record(load)
            if record.get("game") != game.id:
                raise fail(f"{load} is a record of {record.get('game')!r}, not {game.id!r}")
            state = replay(record)
            saved = {int(k): v for k, v in (record.get("seats") or {}).items()}
            seats = parse_seats([f"{s}={w}" for s, w in {**saved, **dict(_split(seat))}.items()], state.players)
        else:
            count = players if players is not None else default_players(game, [s for s, _ in _split(seat)])
            state = game.new_game(count, seed, _options(game, option))
            seats = parse_seats(seat, count)
        agents = build_agents(seats, state.seed)
    except (AstrariumError, ValueError) as exc:
        raise fail(str(exc)) from None
    PlayLoop(state, seats, console, default_ask(console), agents=agents).run()


def default_players(game: Game, named: list[int]) -> int:
    """Without --players: enough seats for every seat named, at least the game's minimum, at most its maximum."""
    return min(max([game.min_players, *(s + 1 for s in named)]), game.max_players)


def _split(specs: list[str]) -> list[tuple[int, str]]:
    out = []
    for spec in specs:
        s, _, who = spec.partition("=")
        if not s.strip().isdigit():
            raise ValueError(f"--seat {spec!r} should look like 0=human")
        out.append((int(s), who))
    return out


@app.command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(help="a record file saved by 'save' or by the arena")],
    start: Annotated[int, typer.Option(help="first position to show (a move number)")] = 0,
    final: Annotated[bool, typer.Option("--final", help="only print the final position and result")] = False,
) -> None:
    """Step through a game record, position by position."""
    try:
        record = load_record(file)
        state = replay(record)
    except AstrariumError as exc:
        raise fail(str(exc)) from None
    if final:
        console.print(state.render(None))
        if state.outcome is not None:
            console.print(f"[bold]{escape(state.outcome.reason)}[/]")
        console.print(f"{state.move_number} moves.")
        return
    step_through(record, console, default_ask(console), start=start)


@app.command()
def puzzle(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game with puzzles, e.g. constellations")],
    number: Annotated[Optional[int], typer.Argument(help="puzzle number (omit to list them)")] = None,
) -> None:
    """Play one of a game's solo puzzles (omit the number to list them)."""
    game = _game(game_id)
    puzzles = game.puzzles()
    if not puzzles:
        raise fail(f"{game.id} has no puzzles")
    if number is None:
        table = Table(title=f"{game.title} puzzles")
        for col in ("#", "name", "difficulty", "moves", "goal"):
            table.add_column(col)
        for p in puzzles:
            table.add_row(str(p.number), escape(p.name), escape(p.difficulty), str(p.moves), escape(p.goal))
        console.print(table)
        console.print(f"Play one with: astrarium puzzle {game.id} N")
        return
    chosen = next((p for p in puzzles if p.number == number), None)
    if chosen is None:
        raise fail(f"{game.id} has puzzles 1 to {len(puzzles)}, not {number}")
    play_puzzle(game, chosen, console, default_ask(console))


@app.command()
def agents() -> None:
    """List the kinds of player a seat can have."""
    console.print(", ".join([HUMAN, *agent_names()]))


app.command("arena")(arena)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        console.print()
        sys.exit(130)
