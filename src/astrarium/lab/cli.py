"""``astrarium lab``: the commands, a thin layer over :mod:`astrarium.lab`.

This module imports nothing of the lab (nor pyarrow) until a command runs, so
``astrarium`` starts, and shows its help, without the ``lab`` extra installed.
The command-line package only registers :data:`lab_app`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from astrarium.lab.experiment import Experiment
    from astrarium.lab.summary import Summary, Tally

lab_app = typer.Typer(
    help="Measure games: run experiments (TOML files or inline) into resumable results folders (docs/lab.md).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
)

#: Where results go when an experiment file is run without --out: results/<file name without .toml>.
RESULTS = "results"
#: The progress bar is drawn again at most this often (seconds): drawing it costs the main process more than saving a game.
REDRAW_SECONDS = 0.2


@lab_app.command("run")
def run_command(
    experiment: Annotated[
        Optional[str], typer.Argument(metavar="EXPERIMENT.toml", help="an experiment file (or give --game and --seat)")
    ] = None,
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="inline: the game id")] = None,
    seat: Annotated[list[str], typer.Option("--seat", "-s", help="inline: 0=SPEC, 1=SPEC ... (player specs or levels)")] = [],  # noqa: B006
    option: Annotated[list[str], typer.Option("--option", "-o", help="inline: a game option, NAME=VALUE")] = [],  # noqa: B006
    seed: Annotated[Optional[int], typer.Option(help="inline: the first seed (game g has seed SEED+g; default 0)")] = None,
    rotate: Annotated[bool, typer.Option("--rotate/--no-rotate", help="inline: rotate the seats every game")] = True,
    paired: Annotated[
        bool, typer.Option("--paired", help="inline: every seed once in every rotation of the seats (--games: a multiple of the seats)")
    ] = False,
    games: Annotated[Optional[int], typer.Option("--games", "-n", help="how many games (default: the experiment's; inline 100)")] = None,
    jobs: Annotated[
        Optional[int], typer.Option("--jobs", "-j", help="processes, or a local Ray's CPUs (default: all cores); no result depends on it")
    ] = None,
    out: Annotated[Optional[str], typer.Option(help="the results folder (default for a file: results/<its name>)")] = None,
    batch: Annotated[
        int, typer.Option(help="save the finished games every BATCH games (and at least every 2 s)", min=1, max=100_000)
    ] = 256,
    until: Annotated[
        Optional[str], typer.Option(help="stop once answered at 95%: 'seat 0 score in 0.45..0.55', 'B beats A', 'decided >= 0.8'")
    ] = None,
    backend: Annotated[
        str, typer.Option(help="where the games are played: local (processes) or ray (a Ray cluster; the 'lab' extra)")
    ] = "local",
    address: Annotated[
        Optional[str],
        typer.Option(help="with --backend ray: the cluster (auto, HOST:PORT, ray://HOST:10001); default: a local Ray of --jobs CPUs"),
    ] = None,
) -> None:
    """Play an experiment into a results folder; run the same command again to finish an interrupted run."""
    from astrarium.cli.arena import choose_workers
    from astrarium.cli.common import fail

    try:
        lab = _lab()
        seating: bool | str = "paired" if paired else rotate
        if paired and not rotate:
            raise ValueError("--paired rotates the seats through every seating: not with --no-rotate")
        study = _study(lab, experiment, game, seat, option, seed, seating)
        if study is not None:  # a file with a [sweep] or [tune] block
            folder = out if out is not None else _default_out(experiment)
            _run_study(lab, study, folder, jobs, games, until, batch, backend=backend, address=address)
            return
        chosen = _experiment(experiment, game, seat, option, seed, seating, games).with_until(until)
        folder = out if out is not None else _default_out(experiment)
        workers = choose_workers(jobs, chosen.games)
        where = _where(backend, address, workers)
    except ValueError as exc:
        raise fail(str(exc)) from None
    command = chosen.command(folder)
    _play(lab, chosen, folder, workers, command, batch, backend=backend, address=address, where=where)


def _study(lab: Any, path: str | None, game: str | None, seats: list[str], options: list[str], seed: int | None, rotate: bool | str) -> Any:
    """The sweep or tune an experiment file holds (None for a plain experiment or an inline one)."""
    if path is None or game is not None or seats or options or seed is not None or rotate is not True:
        return None  # inline, or refused by _experiment (a file and inline options)
    found = lab.load_study(path)
    return None if isinstance(found, lab.Experiment) else found


def _run_study(
    lab: Any,
    study: Any,
    folder: str,
    jobs: int | None,
    games: int | None,
    until: str | None,
    batch: int,
    *,
    backend: str,
    address: str | None,
) -> None:
    """Run a sweep point by point (a progress bar and a summary each, then the table), or a tune trial by trial."""
    from astrarium.cli.arena import choose_workers
    from astrarium.cli.common import console
    from astrarium.lab.show_study import show_sweep

    if isinstance(study, lab.Tune):
        if games is not None or until is not None:
            raise ValueError("a [tune] block sets its own games (tune.games) and stops trials itself: no --games or --until")
        return _run_tune(lab, study, folder, choose_workers(jobs, study.block.games), backend=backend, address=address)
    from astrarium.lab.sweep import prepare_sweep
    from astrarium.lab.variables import settings_text

    chosen = study.with_games(games).with_until(until)
    workers = choose_workers(jobs, chosen.base.games)
    where = _where(backend, address, workers)
    points = prepare_sweep(chosen, folder)
    for point in points:
        console.print(f"[bold]point {point.number + 1} of {len(points)}[/bold]: {escape(settings_text(point.settings))}")
        command = chosen.command(folder)
        _play(lab, point.experiment, str(point.folder), workers, command, batch, backend=backend, address=address, where=where)
    show_sweep(console, lab.load_sweep_results(folder))
    return None


def _run_tune(lab: Any, tune: Any, folder: str, workers: int, *, backend: str, address: str | None) -> None:
    """Run a tune: a line a trial, then the confirmed best settings with their intervals and commands."""
    from astrarium.agents.arena import MatchError
    from astrarium.cli.common import console, fail
    from astrarium.lab.show_study import show_tune, trial_line

    block = tune.block
    keys = ", ".join(v.key for v, _ in tune.variables)
    console.print(
        f"{escape(tune.source)}: tuning {escape(keys)}: {block.trials} trials of at most {block.games:,} games, "
        f"the best {block.best} confirmed on {block.confirm:,} fresh games, into {escape(folder)}, "
        f"{escape(_where(backend, address, workers))}"
    )
    console.print(f"command: {escape(tune.command(folder))}", soft_wrap=True)
    try:
        found = lab.tune(
            tune,
            out=folder,
            jobs=workers,
            backend=backend,
            address=address,
            on_trial=lambda trial: console.print(escape(trial_line(trial, tune.targets)), soft_wrap=True),
            on_confirm=lambda trial: console.print(f"confirming trial {trial.number} on {block.confirm:,} fresh games ..."),
        )
    except KeyboardInterrupt:
        console.print(f"Stopped. The finished trials are kept in {escape(folder)}; run the same command to go on:")
        console.print(escape(tune.command(folder)), soft_wrap=True)
        raise typer.Exit(130) from None
    except MatchError as exc:
        raise fail(f"{exc} (the trials finished before it are kept in {folder}; the same command goes on)") from None
    show_tune(console, found)


def _where(backend: str, address: str | None, workers: int) -> str:
    """Where the games will be played, in words; a ValueError for a bad back-end or a missing Ray."""
    from astrarium.lab.backends import check_backend

    if check_backend(backend, address) == "local":
        return f"{workers} process(es)"
    from astrarium.lab.ray_backend import import_ray

    import_ray()
    return f"on the Ray cluster at {address}" if address is not None else f"on a local Ray instance of {workers} CPU(s)"


def _lab() -> Any:
    """The lab package; a ValueError says how to install it when pyarrow is missing."""
    try:
        import astrarium.lab as lab
    except ImportError as exc:
        raise ValueError(f"astrarium lab needs the 'lab' extra ({exc.name or exc}): pip install 'astrarium[lab]'") from None
    return lab


def _experiment(
    path: str | None, game: str | None, seats: list[str], options: list[str], seed: int | None, rotate: Any, games: int | None
) -> Experiment:
    """The experiment from its file, or from the inline options (never both); ``rotate``: True, False or ``"paired"``."""
    from astrarium.lab.experiment import build_experiment, load_experiment

    if path is not None:
        if game is not None or seats or options or seed is not None or rotate is not True:
            raise ValueError("give an experiment file or --game/--seat/--option/--seed/--no-rotate/--paired, not both")
        return load_experiment(path).with_games(games)
    if game is None or not seats:
        raise ValueError("give an experiment file, or --game GAME with --seat 0=SPEC --seat 1=SPEC ...")
    return build_experiment(
        game, _seat_list(seats), games=100 if games is None else games, seed=seed or 0, options=_options(game, options), rotate=rotate
    )


def _pairs(flag: str, values: list[str], example: str) -> dict[str, str]:
    """``["a=1", "b=2"]`` as ``{"a": "1", "b": "2"}``; a pair without ``=`` or a name given twice is refused."""
    from astrarium.core.errors import short

    pairs: dict[str, str] = {}
    for text in values:
        key, eq, value = text.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(f"{flag} {short(text, 60)!r} should look like {example}")
        if key.strip() in pairs:
            raise ValueError(f"{flag} {short(text, 60)!r}: {short(key.strip(), 40)!r} is given twice")
        pairs[key.strip()] = value.strip()
    return pairs


def _seat_list(specs: list[str]) -> list[str]:
    """``["1=random", "0=greedy"]`` -> ``["greedy", "random"]``; every seat from 0 up named once."""
    from astrarium.cli.common import parse_number

    named: dict[int, str] = {}
    for key, spec in _pairs("--seat", specs, "0=greedy or 1=mcts:iterations=200").items():
        number = parse_number(key)
        if number is None:
            raise ValueError(f"--seat {key}={spec}: {key!r} is not a seat number")
        named[number] = spec
    missing = [s for s in range(len(named)) if s not in named]
    if missing:
        raise ValueError(f"--seat: seats are numbered from 0 without gaps; seat {missing[0]} is not named")
    return [named[s] for s in range(len(named))]


def _options(game_id: str, pairs: list[str]) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs as the game's option values (OptionError naming the option)."""
    import astrarium

    return astrarium.get_game(game_id).parse_options(_pairs("--option", pairs, "name=value"))


def _default_out(path: str | None) -> str:
    if path is None:
        raise ValueError("an inline experiment needs --out DIR (the results folder)")
    return str(Path(RESULTS) / Path(path).stem)


class RateColumn(ProgressColumn):
    """Games a second, from the bar's recent progress."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.1f} games/s")


class ScoreTracker:
    """Seat 0's running score (a draw counting half) with its 95% Wilson interval, for the progress bar."""

    def __init__(self, players: int, returns: list[list[float]]) -> None:
        from astrarium.lab.summary import seat_stats

        self.seat = seat_stats(returns, players)[0]

    def add(self, row: Mapping[str, Any]) -> None:
        self.seat.add(row["returns"][0])

    def text(self) -> str:
        if not self.seat.games:
            return "seat 0 score: -"
        low, high = self.seat.score_interval
        return f"seat 0 score {self.seat.score:.3f} ({low:.3f}-{high:.3f})"


def _progress() -> Progress:
    from astrarium.cli.common import console

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=console,
        transient=True,
        auto_refresh=False,  # no refresh thread: worker processes are forked while the bar is shown
    )


def _play(
    lab: Any, experiment: Experiment, folder: str, workers: int, command: str, batch: int, *, backend: str, address: str | None, where: str
) -> None:
    """Run with a progress bar, then print the summary; an interruption says how to finish."""
    from astrarium.agents.arena import MatchError
    from astrarium.cli.common import console, fail

    console.print(
        f"{escape(experiment.name)}: {experiment.games:,} games of {escape(experiment.game)} into {escape(folder)}, {escape(where)}"
    )
    console.print(f"command: {escape(command)}", soft_wrap=True)
    progress = _progress()
    state: dict[str, Any] = {}

    def start(done: Any, total: int) -> None:
        tracker = ScoreTracker(experiment.players, done.column("returns").to_pylist())
        state["tracker"] = tracker
        state["task"] = progress.add_task("playing", total=total, completed=done.num_rows, score=tracker.text())
        progress.refresh()

    def finished(row: Mapping[str, Any]) -> None:
        tracker = state["tracker"]
        tracker.add(row)
        now = time.monotonic()
        if now - state.get("drawn", 0.0) < REDRAW_SECONDS:  # the bar is drawn a few times a second, not at every game
            progress.advance(state["task"])
            return
        state["drawn"] = now
        progress.update(state["task"], advance=1, score=tracker.text(), refresh=True)

    try:
        with progress:
            results = lab.run(
                experiment,
                jobs=workers,
                out=folder,
                command=command,
                on_start=start,
                on_game=finished,
                batch=batch,
                backend=backend,
                address=address,
            )
    except KeyboardInterrupt:
        console.print(f"Stopped. The finished games are saved in {escape(folder)}; run the same command to play the rest:")
        console.print(escape(command), soft_wrap=True)
        raise typer.Exit(130) from None
    except MatchError as exc:
        raise fail(f"{exc} (the games finished before it are saved in {folder}; the same command goes on)") from None
    except ValueError as exc:
        raise fail(str(exc)) from None
    show_summary(results.summary())
    if results.answer is not None:
        console.print(escape(results.answer.text()), soft_wrap=True)
    console.print(f"Results in {escape(str(results.folder))}: games.parquet, records/ (astrarium.lab.load, astrarium replay)")


def _percent(rate: float, ci: tuple[float, float]) -> str:
    return f"{rate * 100:.1f}% ({ci[0] * 100:.1f}-{ci[1] * 100:.1f})"


def _rates(tally: Tally) -> list[str]:
    return [*(_percent(*tally.rate(count)) for count in (tally.wins, tally.draws, tally.losses)), f"{tally.games:,}"]


def show_summary(summary: Summary) -> None:
    """Print the summary: per seat rates, seat 0's score, the share decided in play, mean length; what made them."""
    from astrarium.cli.common import console

    table = Table(title=f"{summary.games:,} games of {escape(summary.experiment)} (95% Wilson intervals)")
    table.add_column("seat / player")
    for heading in ("wins", "draws", "losses", "games"):
        table.add_column(heading, justify="right")
    for seat in summary.seats:
        table.add_row(f"seat {seat.index}", *_rates(seat))
    for player in summary.players:
        table.add_row(escape(f"player {player.index}: {summary.lineup[player.index]}"), *_rates(player))
    console.print(table)
    first = summary.first_seat
    low, high = first.score_interval
    console.print(f"Seat 0's score (a draw counts half; seats as the experiment sets them): {first.score:.3f} ({low:.3f}-{high:.3f})")
    if summary.deals is not None and summary.deals.advantage.games:
        paired, changed = summary.deals.advantage, summary.deals.changed
        console.print(
            f"Over {paired.games:,} deals, each played in every seating: seat 0's score {paired.value:.3f} "
            f"({paired.low:.3f}-{paired.high:.3f}, 95% bootstrap over the deals); the seating changed the result on "
            f"{len(summary.deals.seeds):,} of the {changed.games:,} deals ({_percent(changed.value, changed.interval)})"
        )
    rounds = "" if summary.mean_rounds is None else f"; mean rounds {summary.mean_rounds:.1f}"
    console.print(
        f"Decided in play (not at a turn or round limit): {_percent(*summary.by_play_rate)}; mean moves {summary.mean_moves:.1f}{rounds}"
    )
    console.print(f"experiment: {escape(summary.experiment)}", soft_wrap=True)
    console.print(f"command: {escape(summary.command)}", soft_wrap=True)


@lab_app.command("metrics")
def metrics_command(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="a results folder of 'astrarium lab run'")],
    replay: Annotated[
        bool, typer.Option("--replay", help="also replay the records: LeadChange, Drama, BranchingFactor, DecisionFactor, usage (cached)")
    ] = False,
) -> None:
    """Print every metric of a results folder with its 95% interval, naming the experiment and the command."""
    from astrarium.cli.common import console, fail

    try:
        found = _lab().metrics(folder, replay=replay)
    except ValueError as exc:
        raise fail(str(exc)) from None
    from astrarium.lab.show import show_metrics

    show_metrics(console, found)


@lab_app.command("compare")
def compare_command(
    first: Annotated[str, typer.Argument(metavar="DIR_A", help="the first results folder (A)")],
    second: Annotated[str, typer.Argument(metavar="DIR_B", help="the second, on the same seeds (B)")],
    more: Annotated[list[str], typer.Argument(metavar="[DIR_A DIR_B]...", help="with --markdown: more pairs, A then B")] = [],  # noqa: B006
    markdown: Annotated[Optional[str], typer.Option("--markdown", help="write a Markdown table, a row a pair, to FILE (-: print)")] = None,
    quantity: Annotated[
        str, typer.Option(help="with --markdown: the quantity compared ('score seat 0', 'metric_rescued', ...)")
    ] = "score seat 0",
) -> None:
    """B minus A for every metric, paired by seed (common random numbers), and the seeds whose winners changed."""
    from astrarium.cli.common import console, fail

    if markdown is not None or more:
        _markdown("compare", [first, second, *more], markdown, quantity=quantity)
        return
    try:
        found = _lab().compare(first, second)
    except ValueError as exc:
        raise fail(str(exc)) from None
    from astrarium.lab.show import show_comparison

    show_comparison(console, found)


def _markdown(kind: str, folders: list[str], out: str | None, **options: Any) -> None:
    """``lab report``/``lab compare`` with ``--markdown``: the tables written to ``out``, naming the command."""
    import shlex

    from astrarium.cli.common import console, fail

    if out is None:
        raise fail(f"astrarium lab {kind}: more than two folders need --markdown FILE")
    words = ["astrarium", "lab", kind, *folders, "--markdown", out]
    for name, value in options.items():
        if isinstance(value, bool):
            words += [f"--{name}"] if value else []
        elif isinstance(value, list):
            words += [w for v in value for w in (f"--{name}", v)]
        elif not (name == "quantity" and value == "score seat 0"):
            words += [f"--{name}", str(value)]
    try:
        _lab()
        from astrarium.lab import markdown as md

        if kind == "compare":
            text = md.comparison_markdown(folders, quantity=options["quantity"], command=shlex.join(words))
        else:
            text = md.results_markdown(folders, command=shlex.join(words), metric_names=options["metric"], brief=options["brief"])
        written = md.write_markdown(text, out)
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    if written is not None:
        console.print(f"Markdown written to {escape(str(written))}", soft_wrap=True)


@lab_app.command("report")
def report_command(
    folders: Annotated[list[str], typer.Argument(metavar="DIR", help="one or more results folders of 'astrarium lab run'")],
    html: Annotated[Optional[str], typer.Option("--html", help="the report to write: one self-contained page (no network)")] = None,
    markdown: Annotated[
        Optional[str],
        typer.Option("--markdown", help="write Markdown tables (a row a folder, then each folder's metrics) to FILE (-: print)"),
    ] = None,
    brief: Annotated[bool, typer.Option("--brief", help="with --markdown: only the table with a row a folder")] = False,
    metric: Annotated[
        list[str], typer.Option("--metric", help="with --markdown: a game metric's mean as a column (rescued, turns, ...)")
    ] = [],  # noqa: B006
) -> None:
    """Write one HTML report of results folders: the question and answer, tables, plots, commands, notable games' replays."""
    import shlex

    from astrarium.cli.common import console, fail

    if markdown is not None:
        _markdown("report", folders, markdown, brief=brief, metric=metric)
    if html is None:
        if markdown is None:
            raise fail("astrarium lab report: give --html FILE, --markdown FILE or both")
        return
    try:
        _lab()
        from astrarium.lab.report import write_report

        written = write_report(folders, html, command=shlex.join(["astrarium", "lab", "report", *folders, "--html", html]))
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    console.print(f"Report written to {escape(str(written))}", soft_wrap=True)


@lab_app.command("import")
def import_command(
    db: Annotated[
        str, typer.Option("--db", help="the web table's database: its SQLite file, sqlite:///FILE or postgresql://USER@HOST/NAME")
    ],
    out: Annotated[str, typer.Option(help="the results folder (importing again adds only the games finished since)")],
    game: Annotated[Optional[str], typer.Option("--game", "-g", help="the game (needed when the table has several)")] = None,
    players: Annotated[Optional[int], typer.Option(help="the player count (needed when the game had several)", min=1, max=64)] = None,
) -> None:
    """Import a web table's finished games, read-only, into a results folder: people's playtests beside simulated games."""
    from astrarium.cli.common import console, fail

    try:
        imported = _lab().import_games(db, game, out=out, players=players)
        from astrarium.lab.playtests import import_lines
    except ValueError as exc:
        raise fail(str(exc)) from None
    for line in import_lines(imported):
        console.print(escape(line), soft_wrap=True)
    if imported.table.num_rows:
        show_summary(imported.summary())
