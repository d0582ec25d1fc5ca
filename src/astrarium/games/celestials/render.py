"""The position for a terminal, as Rich markup: both players, the lanes as a table, the hand."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, TEXT, first_fit
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind
from astrarium.games.celestials.state import STEP_NAMES

if TYPE_CHECKING:
    from astrarium.games.celestials.state import CelestialsState

COLOURS = ("yellow", "cyan")
CELL = 13
"""Cells a lane position takes; on a narrow terminal down to MIN_CELL (long card names are cut, the health stays)."""
MIN_CELL = 9


def _cell(state: CelestialsState, at: int, cell: int) -> str:
    c = state.cell_card[at]
    if c < 0:
        return "·".center(cell)
    card = state.rules.catalog[c]
    owner = state.rules.owner[c]
    mark = "z" if state.cell_exh[at] else ""
    suffix = f" {state.cell_hp[at]}{mark}"
    text = f"{card.name[: cell - len(suffix)].rstrip()}{suffix}".center(cell)
    style = COLOURS[owner] + (" dim" if state.cell_exh[at] else " bold")
    return f"[{style}]{escape(text)}[/]"


def _parts(state: CelestialsState, seat: int | None, width: int) -> list[tuple[str, str]]:
    cell = max(MIN_CELL, min(CELL, (width - 2) // B.WIDTH))
    parts = []
    for s, deck in enumerate(state.rules.decks):
        arrow = "▶ " if state.current_player == s else "  "
        parts.append(
            (
                TEXT,
                f"{arrow}[{COLOURS[s]} bold]{escape(deck.character)}[/]  health [bold]{state.hp[s]}[/]  "
                f"phase [bold]{state.phase_name(s)}[/]  hand {len(state.hands[s])}  draw {len(state.piles[s])}  "
                f"discard {len(state.discards[s])}  graveyard {len(state.graves[s])}",
            )
        )
    parts.append((BOARD, ""))
    parts.append((BOARD, "  " + "".join(name[:cell].center(cell) for name in B.POSITION_NAMES)))
    for lane, letter in enumerate(B.LANES):
        parts.append((BOARD, f"{letter} " + "".join(_cell(state, B.loc(lane, p), cell) for p in range(B.WIDTH))))
    parts.append((BOARD, "  " + "".join(str(p).center(cell) for p in range(B.WIDTH))))
    parts.append((TEXT, "  (health; z = exhausted)"))
    if seat is not None:
        catalog = state.rules.catalog
        hand = []
        for c in state.hands[seat]:
            card = catalog[c]
            stats = "" if card.kind in (Kind.SPELL, Kind.ADVANCE) else f" {card.damage}/{card.health}"
            hand.append(f"{card.key}{stats}")
        parts.append((TEXT, f"your hand: {escape(', '.join(hand)) or '(empty)'}"))
    if state.votes:
        who = state.rules.decks[state.votes[0]].character
        parts.append((TEXT, f"[bold]both draw piles are empty: {escape(who)}, reshuffle the discard piles? (reshuffle yes|no)[/]"))
    else:
        last = 2 * state.options["turn_limit"]
        parts.append((TEXT, f"turn {min(state.turns_done + 1, last)} of {last}, step: {STEP_NAMES[state.step]}"))
    return parts


def render_fit(state: CelestialsState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """Both players, the lanes as a table with cells as wide as the terminal allows, the hand (broken into lines to fit)."""
    return first_fit([functools.partial(_parts, state, seat, width)], width, height)


def render(state: CelestialsState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(state, seat)
