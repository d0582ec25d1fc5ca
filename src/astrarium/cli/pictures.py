"""`astrarium show` (one position as a picture) and the HTML replay that `astrarium replay --html` writes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

import astrarium
from astrarium.cli.common import console, fail, parse_option_pairs
from astrarium.core.data import write_text_file
from astrarium.core.errors import AstrariumError, short
from astrarium.core.game import Game, State
from astrarium.pictures import position_page, record_to_html


def write_text(path: str, text: str) -> Path:
    """Write ``text`` to ``path`` (a regular file, UTF-8), with one clear error line when it cannot be written."""
    try:
        return write_text_file(path, text)
    except AstrariumError as exc:
        raise fail(str(exc)) from None


def write_replay_html(record: dict[str, Any], out: str, seat: int | None) -> None:
    """The HTML replay of ``record`` (from ``seat``'s side when the game is over) written to ``out``."""
    try:
        page = record_to_html(record, seat)
    except AstrariumError as exc:
        raise fail(str(exc)) from None
    target = write_text(out, page)
    console.print(f"Wrote the replay to {target} ({len(page) // 1024:,} KiB): open it in a browser.")


def show(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="the game id (see `astrarium games`)")],
    seed: Annotated[int, typer.Option(help="the game's seed")] = 0,
    players: Annotated[Optional[int], typer.Option(help="number of players (default: the fewest the game allows, at least 2)")] = None,
    moves: Annotated[str, typer.Option(help="actions from the start, separated by ';' (e.g. \"draw; play phoenix A1\")")] = "",
    seat: Annotated[Optional[int], typer.Option(help="draw from this seat's side (default: the seat to move; -1 for a spectator)")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", "-o", help="a game option as name=value (repeatable)")] = None,
    svg: Annotated[str, typer.Option("--svg", help="write the picture (SVG) to this file")] = "",
    html: Annotated[str, typer.Option("--html", help="write a page with the picture and its clickable actions to this file")] = "",
) -> None:
    """Draw one position as a picture (SVG), for docs and bug reports."""
    state = _position(game_id, seed, players, moves, option)
    viewer = _viewer(state, seat)
    if not svg and not html:
        raise fail("say where to write the picture: --svg FILE and/or --html FILE")
    if svg:
        target = write_text(svg, state.render_svg(viewer) + "\n")
        console.print(
            f"Wrote {target}: {state.game.title}, move {state.move_number}, {'spectator' if viewer is None else f'seat {viewer}'}'s view."
        )
    if html:
        target = write_text(html, position_page(state, viewer))
        console.print(f"Wrote {target}: open it in a browser and click the picture.")


def _position(game_id: str, seed: int, players: int | None, moves: str, option: list[str] | None) -> State:
    """The position ``show`` draws: a new game played to ``moves`` (an error line names a bad option or move)."""
    try:
        game = astrarium.get_game(game_id)
        state = game.new_game(_players(game, players), seed, parse_option_pairs(game, option or []))
        for number, move in enumerate((m.strip() for m in moves.split(";") if m.strip()), start=1):
            try:
                state.apply(move)
            except AstrariumError as exc:
                raise fail(f"move {number} ({short(move)!r}): {exc}") from None
    except (AstrariumError, ValueError) as exc:
        raise fail(str(exc)) from None
    return state


def _players(game: Game, players: int | None) -> int:
    """The players ``show`` deals for: as asked, else the fewest the game allows and at least 2 where it can."""
    if players is not None:
        return players
    return max(2, game.min_players) if game.max_players >= 2 else game.min_players


def _viewer(state: State, seat: int | None) -> int | None:
    """Whose side the picture shows: ``--seat`` (-1 a spectator), else the seat to move (an error line for a seat not there)."""
    viewer = state.current_player if seat is None else (None if seat == -1 else seat)
    if viewer is not None and not 0 <= viewer < state.players:
        raise fail(f"--seat {seat}: this game has seats 0 to {state.players - 1} (or -1 for a spectator)")
    return viewer
