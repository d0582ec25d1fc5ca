"""``astrarium new-game`` (a designer's own game, as a package of its own) and ``astrarium check`` (the conformance checks)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

import astrarium
from astrarium.cli.common import console, fail
from astrarium.core.errors import AstrariumError
from astrarium.starter import Names, write_starter

#: The most seeds a check of seeded games may be asked to play.
MAX_SEEDS = 1000


def new_game(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the new game's id: lower-case words joined by hyphens (comet-race)")],
    out: Annotated[str, typer.Option("--out", help="the folder to write the project to (new, or empty)")],
) -> None:
    """Write a small complete game under a new name, as a package of its own to install and make your own."""
    try:
        files = write_starter(name, out)
        names = Names.of(name)
    except AstrariumError as exc:
        raise fail(str(exc)) from None
    console.print(f"Wrote {len(files)} files to {escape(out)}: the game {escape(names.title)} ({names.game_id}).")
    console.print(f"Next: pip install -e {escape(out)}, then astrarium play {names.game_id} and astrarium check {names.game_id}.")
    console.print(f"The rules are in {escape(out)}/src/{names.package}/rules.md; the guide is docs/adding-a-game.md.")


def check(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id, see 'astrarium games'")],
    seeds: Annotated[int, typer.Option(help="seeded games a check plays for each player count", min=1, max=MAX_SEEDS)] = 5,
) -> None:
    """Run the conformance checks every game must pass on GAME: one line a check, PASS or FAIL with the reason."""
    from astrarium.testing import run_checks

    try:
        game = astrarium.get_game(game_id)
    except AstrariumError as exc:
        raise fail(str(exc)) from None
    console.print(f"{escape(game.title)} ({game.id}): the conformance checks")
    console.print("[green]PASS[/] contract (parts declared and of the right shapes)")
    failed = 0
    for verdict in run_checks(game.id, seeds):
        if verdict.failure is None:
            console.print(f"[green]PASS[/] {verdict.check.name} ({verdict.cases} case{'s' if verdict.cases != 1 else ''})")
        else:
            failed += 1
            console.print(f"[red]FAIL[/] {verdict.check.name}: {escape(verdict.failure)}")
    if failed:
        console.print(f"{failed} check(s) failed.")
        raise typer.Exit(1)
    console.print("Every check passed.")
