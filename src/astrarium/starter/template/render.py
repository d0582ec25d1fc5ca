"""The text board: each pile as a row of stars, fitted to the terminal's space (fullest layout first)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, EXTRA, TEXT, first_fit
from astrarium.starter.template.actions import pile_name
from astrarium.starter.template.layouts import load_layouts

if TYPE_CHECKING:
    from astrarium.starter.template.state import PilesState

#: A star on the full board, and one taken.
STAR, GONE = "[bold yellow]*[/]", "[grey42].[/]"


def _status(state: PilesState) -> str:
    if state.outcome is not None:
        return f"[bold]Game over:[/] {escape(state.outcome.reason)}"
    return f"Seat {state.turn} to take 1 to {state.max_take} stars from one pile"


def _full(state: PilesState, start: list[int]) -> list[tuple[str, str]]:
    """Every pile as its stars, beside the stars taken from it."""
    rows = [(BOARD, f"{pile_name(p)}  {STAR * stars}{GONE * (start[p] - stars)}  {stars}") for p, stars in enumerate(state.piles)]
    events = [(EXTRA, f"[dim]{escape(event)}[/]") for event in state.events]
    return [*rows, (TEXT, _status(state)), *events]


def _compact(state: PilesState) -> list[tuple[str, str]]:
    """The piles as numbers on one line."""
    counts = "  ".join(f"{pile_name(p)}:{stars}" for p, stars in enumerate(state.piles))
    return [(BOARD, counts), (TEXT, _status(state))]


def render_fit(state: PilesState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """The position as Rich markup in at most ``height`` lines of ``width`` cells (``seat`` changes nothing: all is open)."""
    start = load_layouts()[state.options["layout"]].piles
    return first_fit([functools.partial(_full, state, start), functools.partial(_compact, state)], width, height)


def render(state: PilesState, seat: int | None = None, /) -> str:
    """The text board at its full size (the core's ``state.render``)."""
    return render_fit(state, seat, width=120, height=34)
