"""``astrarium arena``: play many games between computer players and report the results."""

from __future__ import annotations

import os
from typing import Annotated, Optional

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import astrarium
from astrarium.agents.arena import MatchError, Summary, plan_matches, run_matches, summarise, write_results
from astrarium.core.errors import AstrariumError

console = Console(highlight=False)


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/] {escape(message)}")
    return typer.Exit(2)


def parse_lineup(specs: list[str], players: int | None, min_players: int) -> list[str]:
    """``["0=mcts", "1=random"]`` -> ``["mcts", "random"]``; seats not named play ``random``."""
    named: dict[int, str] = {}
    for spec in specs:
        seat_text, eq, who = spec.partition("=")
        if not eq or not who.strip():
            raise ValueError(f"--seat {spec!r} should look like 0=mcts or 1=random")
        if not seat_text.strip().isdigit():
            raise ValueError(f"--seat {spec!r}: {seat_text!r} is not a seat number")
        if who.strip().lower() == "human":
            raise ValueError(f"--seat {spec!r}: the arena is for computer players only")
        named[int(seat_text)] = who.strip()
    count = players if players is not None else max(min_players, max(named, default=-1) + 1)
    for seat in named:
        if seat >= count:
            raise ValueError(f"--seat {seat}=...: seats are numbered 0 to {count - 1}")
    return [named.get(seat, "random") for seat in range(count)]


def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    games: Annotated[int, typer.Option("--games", "-n", help="how many games to play")] = 100,
    seat: Annotated[list[str], typer.Option("--seat", "-s", help="the line-up: 0=mcts:iterations=500, 1=greedy ... (others: random)")] = [],  # noqa: B006
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="seats (default: as named, at least the minimum)")] = None,
    seed: Annotated[int, typer.Option(help="game g is played with seed SEED+g")] = 0,
    option: Annotated[list[str], typer.Option("--option", "-o", help="a game option, name=value")] = [],  # noqa: B006
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="processes (default: all cores)")] = None,
    out: Annotated[Optional[str], typer.Option(help="save the results: a .json or .csv file")] = None,
    records: Annotated[Optional[str], typer.Option(help="save every game's record in this folder (for 'astrarium replay')")] = None,
) -> None:
    """Play computer players against each other, seats rotated every game, and report wins with 95% intervals."""
    try:
        game = astrarium.get_game(game_id)
        lineup = parse_lineup(seat, players, game.min_players)
        raw = {}
        for pair in option:
            name, eq, value = pair.partition("=")
            if not eq:
                raise ValueError(f"--option {pair!r} should look like name=value")
            raw[name.strip()] = value
        options = game.parse_options(raw)
        if out is not None and not out.lower().endswith((".json", ".csv")):
            raise ValueError(f"--out {out!r}: write results to a .json or .csv file")
        if jobs is not None and jobs < 1:
            raise ValueError(f"--jobs {jobs}: at least 1")
        plan = plan_matches(game.id, lineup, games, seed=seed, options=options, records=records)
    except (AstrariumError, ValueError) as exc:
        raise _fail(str(exc)) from None
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    who = " vs ".join(f"{s}={spec}" for s, spec in enumerate(lineup))
    console.print(f"{escape(game.title)}: {games} games, seeds {seed} to {seed + games - 1}, {workers} process(es); game 0: {escape(who)}")
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        auto_refresh=False,  # no refresh thread: worker processes are forked while the bar is shown
    )
    try:
        with progress:
            task = progress.add_task("playing", total=len(plan))
            results = run_matches(plan, jobs=workers, on_result=lambda _: progress.update(task, advance=1, refresh=True))
    except MatchError as exc:
        raise _fail(str(exc)) from None
    summary = summarise(game.id, lineup, results)
    show_summary(summary)
    if out is not None:
        path = write_results(summary, out)
        console.print(f"Results saved to {escape(str(path))}.")
    if records is not None:
        console.print(f"Records saved in {escape(records)} (astrarium replay FILE).")


def _pct(rate: float, ci: tuple[float, float]) -> str:
    return f"{rate * 100:.0f} ({ci[0] * 100:.0f}-{ci[1] * 100:.0f})"


def show_summary(summary: Summary) -> None:
    """Print the results table, the game length and the first seat's advantage."""
    table = Table(title=f"{summary.game}: {summary.games} games, seats rotated (95% Wilson intervals)", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("agent", style="cyan", overflow="fold", min_width=12)
    table.add_column("games", justify="right")
    table.add_column("win %", justify="right", no_wrap=True)
    table.add_column("draw %", justify="right", no_wrap=True)
    table.add_column("loss %", justify="right", no_wrap=True)
    table.add_column("ms/move", justify="right", no_wrap=True, min_width=7)
    for e in summary.entries:
        table.add_row(
            str(e.entry),
            escape(e.spec),
            str(e.games),
            _pct(e.win_rate, e.win_ci),
            _pct(e.draw_rate, e.draw_ci),
            _pct(e.loss_rate, e.loss_ci),
            f"{e.seconds_per_move * 1000:.1f}",
        )
    console.print(table)
    n = summary.games
    console.print(f"Mean game length: {summary.mean_length:.1f} actions.")
    seats = ", ".join(
        f"seat {s} {w / n if n else 0:.1%} [{lo:.0%}, {hi:.0%}]"
        for s, (w, (lo, hi)) in enumerate(zip(summary.seat_wins, summary.seat_win_ci, strict=True))
    )
    console.print(f"Wins by seat: {seats}.")
    console.print(f"First-seat advantage (seat 0's win rate minus the mean over seats): {summary.first_seat_advantage:+.1%}.")
    if summary.cooperative:
        lo, hi = summary.team_win_ci
        console.print(f"Team (cooperative) wins: {summary.team_wins}/{n} = {summary.team_wins / n if n else 0:.1%} [{lo:.0%}, {hi:.0%}].")
