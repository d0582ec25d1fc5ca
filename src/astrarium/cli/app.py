"""The ``astrarium`` command."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import typer.core
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import astrarium
from astrarium.agents import agent_names
from astrarium.agents.base import agent_games
from astrarium.agents.levels import LEVELS
from astrarium.cli.arena import arena
from astrarium.cli.common import console, fail, fresh_seed, parse_number, parse_option_pairs, show_long
from astrarium.cli.pictures import show, write_replay_html
from astrarium.cli.puzzles import play_puzzle, show_puzzle_list, today_note
from astrarium.cli.rules_view import rules_markdown
from astrarium.cli.session import (
    HUMAN,
    PlayLoop,
    build_agents,
    default_ask,
    parse_seats,
    seats_of_record,
    show_public_record,
    step_through,
)
from astrarium.cli.starter import check, new_game
from astrarium.core.errors import AstrariumError, RecordError, short
from astrarium.core.game import Game, Puzzle, State
from astrarium.core.records import load_record, replay
from astrarium.core.registry import discovery_errors


def _plain_flags(command: Any, ctx: Any) -> None:
    """Show ``command``'s on/off flags as flags in its help (``--final``), not as ``--final <bool>``.

    The help lists an option's value type beside it; a flag takes no value,
    so it is given an empty one. The help option itself is made on demand,
    so it is fetched (and made) here too. (The command classes come from the
    command-line library's own copy of click, hence ``Any``.)
    """
    params = [*command.params, command.get_help_option(ctx)]
    for param in params:
        if isinstance(param, typer.core.TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""


class _Commands(typer.core.TyperGroup):
    """The command group: every command's help shows its flags without a value type."""

    def get_params(self, ctx: Any) -> Any:
        _plain_flags(self, ctx)
        return super().get_params(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_flags(command, ctx)
        return command


app = typer.Typer(
    cls=_Commands,
    help="astrarium: play, test and balance tabletop space games. Run with no command for the game menu.",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
)

#: The longest command-line argument accepted, in characters (a TOML-valued option fits easily).
MAX_ARGUMENT_CHARS = 10_000

__all__ = ["app", "console", "fail", "main"]


def _game(game_id: str) -> Game:
    try:
        return astrarium.get_game(game_id)
    except AstrariumError as exc:
        raise fail(str(exc)) from None


def _print_version(value: bool) -> None:
    if value:
        from astrarium.core.build import build_kind

        console.print(f"astrarium {astrarium.__version__} ({build_kind()}, Python {sys.version.split()[0]})", highlight=False)
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main_callback(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Say which astrarium is running (and whether it is the compiled build).",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    if ctx.invoked_subcommand is None:
        from astrarium.cli.menu import run_menu

        ask = default_ask(console)
        run_menu(console, ask)
        ask.exit_if_ended()


@app.command()
def games() -> None:
    """List the games with their titles and player counts (and, on standard error, any installed game that is refused)."""
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
    else:
        console.print(table)
    # An installed game that cannot be used (its entry point broken, its parts refused) is named, one line each.
    refusals = [fail(str(problem)) for problem in discovery_errors()]
    if refusals:
        raise refusals[0]


@app.command()
def rules(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    full: Annotated[bool, typer.Option("--full", help="the complete rules as implemented, with every decision and option")] = False,
) -> None:
    """How to play a game, in a page for a newcomer (--full: the complete rules as implemented, and the options)."""
    game = _game(game_id)
    if not full:
        show_long(console, Group(rules_markdown(game.how_to_play()), Text(f"\nThe complete rules: astrarium rules {game.id} --full")))
        return
    parts: list[RenderableType] = [rules_markdown(game.rules_text())]
    if game.options:
        table = Table(title="options (--option name=value)")
        table.add_column("option", style="cyan")
        table.add_column("default")
        table.add_column("meaning")
        for option in game.options:
            table.add_row(option.name, escape(repr(option.default)), escape(option.describe()))
        parts.append(table)
    show_long(console, Group(*parts))


PLAYERS_HELP = "number of players (default: enough for every seat named, at least the game's minimum)"
SEED_HELP = "random seed: the same seed and moves give the same game (default: a fresh one, shown at the end and kept in saves)"


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    players: Annotated[Optional[int], typer.Option("--players", "-p", help=PLAYERS_HELP)] = None,
    seat: Annotated[
        list[str],
        typer.Option(
            "--seat",
            "-s",
            metavar="SEAT=PLAYER",
            help="who plays a seat: 0=human, 1=easy, 1=medium, 1=hard, 1=random, 1=mcts:seconds=2 ...",
        ),
    ] = [],  # noqa: B006
    seed: Annotated[Optional[int], typer.Option(help=SEED_HELP)] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", metavar="NAME=VALUE", help="a game option (see 'astrarium rules GAME --full')")
    ] = [],  # noqa: B006
    load: Annotated[Optional[str], typer.Option(help="continue a saved game (a record file)")] = None,
) -> None:
    """Play a game at the terminal: hot-seat humans and computer players."""
    game = _game(game_id)
    try:
        if load is not None:
            if players is not None or seed is not None or option:
                raise ValueError("--load continues a saved game: its players, seed and options come from the record")
            state, saved = load_game(load, game)
            seats = parse_seats(seat, state.players, saved, game.id)
        else:
            count = players if players is not None else default_players(game, named_seats(seat))
            state = game.new_game(count, fresh_seed() if seed is None else seed, parse_option_pairs(game, option))
            seats = parse_seats(seat, count, game=game.id)
        agents = build_agents(seats, state.seed, game.id)
    except ValueError as exc:  # AstrariumError, and the seat and option parsers' own errors
        raise fail(str(exc)) from None
    ask = default_ask(console)
    PlayLoop(state, seats, console, ask, agents=agents).run()
    ask.exit_if_ended()


def load_game(path: str, game: Game) -> tuple[State, dict[int, str]]:
    """The saved game at ``path`` and who sat where, checked: a RecordError names the file and the field."""
    record = load_record(path)
    label = short(path)
    if record["game"] != game.id:
        raise RecordError(f"{label} is a record of {short(record['game'], 40)!r}, not {game.id!r}")
    try:
        state = replay(record)
    except RecordError as exc:
        raise RecordError(f"{label}: {exc}") from None
    return state, seats_of_record(record, state.players, label)


def default_players(game: Game, named: list[int]) -> int:
    """Without --players: enough seats for every seat named, at least the game's minimum, at most its maximum."""
    return min(max([game.min_players, *(s + 1 for s in named)]), game.max_players)


def named_seats(specs: list[str]) -> list[int]:
    """The seat numbers ``--seat`` names (one that is not a number is left for ``parse_seats`` to refuse)."""
    numbers = (parse_number(spec.partition("=")[0]) for spec in specs)
    return [n for n in numbers if n is not None]


@app.command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(help="a record file saved by 'save' or 'share', or by the arena")],
    start: Annotated[int, typer.Option(help="first position to show (a move number)")] = 0,
    final: Annotated[bool, typer.Option("--final", help="only print the final position and result")] = False,
    html: Annotated[str, typer.Option("--html", help="write one self-contained web page that replays the game to this file")] = "",
    seat: Annotated[
        Optional[int], typer.Option(help="with --html, a finished game from this seat's side (default: as a spectator)")
    ] = None,
) -> None:
    """Step through a game record, position by position (a public record: list its moves; --html: a web page)."""
    try:
        record = load_record(file)
        if html:
            write_replay_html(record, html, seat)
            return
        if record.get("public"):
            game = public_record_game(record)
        else:
            state = replay(record)
    except AstrariumError as exc:
        raise fail(str(exc)) from None
    sitting = seated_line(record)
    if sitting:
        console.print(escape(sitting))
    if record.get("public"):
        show_public_record(record, game, console, short(file))
        return
    if final:
        console.print(state.render(None))
        if state.outcome is not None:
            console.print(f"[bold]{escape(state.outcome.reason)}[/]")
        console.print(f"{state.move_number} moves.")
        return
    ask = default_ask(console)
    step_through(record, console, ask, start=start)
    ask.exit_if_ended()


def seated_line(record: dict[str, Any]) -> str:
    """Who sat in which seat of a recorded game, in a line (empty when the record does not say).

    The record's ``seats`` field is optional (records made elsewhere lack it);
    a field that is not an object of seats and players is not shown rather
    than trusted.
    """
    seats = record.get("seats")
    if not isinstance(seats, dict) or not seats:
        return ""
    named = [
        f"seat {short(str(seat), 4)} {short(who, 40)}"
        for seat, who in sorted(seats.items(), key=lambda item: str(item[0]))
        if isinstance(who, str)
    ]
    return "Players: " + ", ".join(named) + "." if named else ""


def public_record_game(record: dict[str, Any]) -> Game:
    """The game of a public record, with its players, options and length checked as a replay would."""
    try:
        game = astrarium.get_game(record["game"])
        players = record["players"]
        game.check_players(players)
        bound = game.max_moves(players, game.resolve_options(players, record.get("options") or None))
    except AstrariumError as exc:
        raise RecordError(f"cannot read the recorded game: {exc}") from exc
    if len(record["actions"]) > bound:
        raise RecordError(f"record has {len(record['actions']):,} actions; a game of {game.title} lasts at most {bound:,}")
    return game


app.command()(show)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on; 0.0.0.0 for every network (a LAN)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="port to listen on")] = 8000,
    data: Annotated[Optional[Path], typer.Option(help="folder of the SQLite database (default ~/.local/share/astrarium)")] = None,
    db: Annotated[Optional[str], typer.Option(help="a database URL instead, e.g. postgresql://user@host/astrarium")] = None,
    compress: Annotated[bool, typer.Option("--compress", help="compress WebSocket messages (for players on slow connections)")] = False,
    processes: Annotated[int, typer.Option(min=1, max=64, help="server processes sharing the port and the database")] = 1,
    connections_per_address: Annotated[
        Optional[int], typer.Option(min=1, max=1_000_000, help="WebSocket connections one address may hold open (default 32)")
    ] = None,
) -> None:
    """Run the web table: play in a browser with friends and computer players (docs/server.md)."""
    try:
        from astrarium.web.serve import run
    except ImportError as exc:
        raise fail(f"the web table needs its extra: pip install 'astrarium[web]' ({exc.name} is missing)") from exc
    run(host, port, data, db, compress=compress, processes=processes, connections_per_address=connections_per_address)


@app.command()
def puzzle(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game with puzzles, e.g. constellations")],
    number: Annotated[Optional[str], typer.Argument(metavar="[N|today]", help="a puzzle number, or today (omit to list)")] = None,
) -> None:
    """Play one of a game's solo puzzles, or the puzzle of the day (omit the number to list them)."""
    game = _game(game_id)
    puzzles = game.puzzles()
    if not puzzles:
        raise fail(f"{game.id} has no puzzles")
    if number is None:
        show_puzzle_list(console, game)
        return
    numbers = sorted(p.number for p in puzzles)
    easier: Puzzle | None = None
    if number.strip().lower() == "today":
        day = date.today()
        chosen = game.puzzle_of_the_day(day)
        note, easier = today_note(game, chosen, day)
        console.print(escape(note))
    else:
        wanted = parse_number(number.strip()) if number.strip().isdigit() else None
        found = next((p for p in puzzles if p.number == wanted), None)
        if found is None:
            raise fail(f"{game.id} has puzzles {numbers[0]} to {numbers[-1]}, not {short(number, 20)} (or: today)")
        chosen = found
    ask = default_ask(console)
    play_puzzle(game, chosen, console, ask, easier)
    ask.exit_if_ended()


@app.command()
def agents() -> None:
    """List the kinds of player a seat can have."""
    kinds = [HUMAN]
    for name in agent_names():
        games = agent_games(name)
        kinds.append(name if games is None else f"{name} ({', '.join(games)} only)")
    console.print(escape(", ".join(kinds)))
    console.print("Levels: " + "; ".join(f"[cyan]{level.name}[/] {escape(level.summary)}" for level in LEVELS.values()))


app.command("arena")(arena)
app.command("new-game")(new_game)
app.command("check")(check)
from astrarium.lab.cli import lab_app  # noqa: E402  (the lab's commands; it imports the lab only when one runs)

app.add_typer(lab_app, name="lab")


def check_arguments(argv: list[str]) -> str | None:
    """Why the command line cannot be read (an argument too long to be meant), or None.

    The parser echoes unknown options whole in its errors, so a 100 KB argument
    would come back as 100 KB of error; arguments are bounded before parsing.
    """
    for number, argument in enumerate(argv, start=1):
        if len(argument) > MAX_ARGUMENT_CHARS:
            return f"argument {number} ({short(argument, 40)!r}) is {len(argument):,} characters long; the limit is {MAX_ARGUMENT_CHARS:,}"
    return None


def main() -> None:
    problem = check_arguments(sys.argv[1:])
    if problem is not None:
        sys.exit(fail(problem).exit_code)
    try:
        app()
    except KeyboardInterrupt:
        console.print()
        sys.exit(130)
