"""``astrarium arena``: play many games between computer players and report the results."""

from __future__ import annotations

import os
from typing import Annotated, Optional

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

import astrarium
from astrarium.agents.arena import (
    MAX_GAMES,
    MatchError,
    Summary,
    plan_matches,
    run_matches,
    summarise,
    write_results,
)
from astrarium.agents.levels import measured_spec
from astrarium.cli.common import console, fail, parse_number, parse_option_pairs, warn
from astrarium.core.data import check_output_file
from astrarium.core.errors import short
from astrarium.core.game import Game


def parse_lineup(specs: list[str], players: int | None, game: Game) -> list[str]:
    """``["0=mcts", "1=random"]`` -> ``["mcts", "random"]``; seats not named play ``random``.

    Seat numbers and the player count are checked against the game before the
    line-up is built, so ``--seat 99999999=random`` is an error, not a list of
    a hundred million players.
    """
    if players is not None:
        game.check_players(players)
    named: dict[int, str] = {}
    for spec in specs:
        seat_text, eq, who = spec.partition("=")
        where = f"--seat {short(spec, 60)!r}"
        if not eq or not who.strip():
            raise ValueError(f"{where} should look like 0=mcts or 1=random")
        seat = parse_number(seat_text)
        if seat is None:
            raise ValueError(f"{where}: {short(seat_text, 20)!r} is not a seat number")
        if who.strip().partition(":")[0].strip().lower() == "human":
            raise ValueError(f"{where}: the arena is for computer players only")
        top = (players if players is not None else game.max_players) - 1
        if seat > top:
            raise ValueError(f"{where}: seats are numbered 0 to {top}")
        if seat in named:
            raise ValueError(f"{where}: seat {seat} is named twice")
        named[seat] = lineup_spec(who, game)
    count = players if players is not None else max(game.min_players, max(named, default=-1) + 1)
    return [named.get(seat, "random") for seat in range(count)]


def lineup_spec(who: str, game: Game) -> str:
    """A seat's player in the arena: a level (``easy``, ``medium``, ``hard``) becomes the player it names, by its
    iteration budget (as the lab measures it: the games do not depend on the machine)."""
    return measured_spec(who, game.hidden_information or game.chance, game.id)


def cores() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def choose_workers(jobs: int | None, games: int) -> int:
    """How many processes to play on: at most one per game, and no more than the cores (with a warning)."""
    available = cores()
    if jobs is None:
        return max(1, min(available, games))
    if jobs < 1:
        raise ValueError(f"--jobs {jobs}: at least 1")
    if jobs > available:
        warn(f"--jobs {short(str(jobs), 20)}: this machine has {available} core(s); playing on {min(available, games)} process(es)")
        jobs = available
    return min(jobs, games)


def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    games: Annotated[int, typer.Option("--games", "-n", help=f"how many games to play (1 to {MAX_GAMES:,})")] = 100,
    seat: Annotated[list[str], typer.Option("--seat", "-s", help="the line-up: 0=mcts:iterations=500, 1=greedy ... (others: random)")] = [],  # noqa: B006
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="seats (default: as named, at least the minimum)")] = None,
    seed: Annotated[int, typer.Option(help="game g is played with seed SEED+g")] = 0,
    option: Annotated[list[str], typer.Option("--option", "-o", help="a game option, name=value")] = [],  # noqa: B006
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="processes (default: all cores; at most one per game)")] = None,
    out: Annotated[Optional[str], typer.Option(help="save the results: a .json or .csv file")] = None,
    records: Annotated[Optional[str], typer.Option(help="save every game's record in this folder (for 'astrarium replay')")] = None,
) -> None:
    """Play computer players against each other, seats rotated every game, and report wins with 95% intervals."""
    try:
        game = astrarium.get_game(game_id)
        lineup = parse_lineup(seat, players, game)
        options = parse_option_pairs(game, option)
        if out is not None:
            if not out.lower().endswith((".json", ".csv")):
                raise ValueError(f"--out {short(out, 60)!r}: write results to a .json or .csv file")
            check_output_file(out)  # before the games, not after them
        plan = plan_matches(game.id, lineup, games, seed=seed, options=options, records=records)
        workers = choose_workers(jobs, len(plan))
    except ValueError as exc:  # AstrariumError, and the line-up, path and plan checks
        raise fail(str(exc)) from None
    who = " vs ".join(f"{s}={spec}" for s, spec in enumerate(lineup))
    seeds = f"seeds {seed} to {seed + games - 1}"
    console.print(f"{escape(game.title)}: {games:,} games, {seeds}, {workers} process(es); game 0: {escape(who)}")
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
        raise fail(str(exc)) from None
    summary = summarise(game.id, lineup, results)
    show_summary(summary)
    if out is not None:
        try:
            path = write_results(summary, out)
        except ValueError as exc:
            raise fail(f"the games were played but the results were not saved: {exc}") from None
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
