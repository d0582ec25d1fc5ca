"""The position for a terminal, as Rich markup: both players, the lanes as a table, the hand."""

from __future__ import annotations

import functools
import textwrap

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, TEXT, first_fit
from astrarium.games.celestials import board as B
from astrarium.games.celestials.cards import Kind
from astrarium.games.celestials.state import STEP_NAMES, CelestialsState

COLOURS = ("yellow", "cyan")
CELL = 16
"""Most cells a lane position takes; a card's whole name and its health fit on one line in as many."""
MIN_CELL = 9
"""Fewest cells a lane position takes on a narrow terminal, where a card's name and health take two lines."""


def _names(state: CelestialsState) -> list[str]:
    """The name of each card on the board (the cell's text before its health)."""
    catalog = state.rules.catalog
    return [catalog[c].name for c in state.cell_card if c >= 0]


def _cell_lines(state: CelestialsState, at: int, cell: int, rows: int) -> list[str]:
    """A lane position as ``rows`` lines of ``cell`` cells: the card's name whole (broken at spaces) and its health.

    A name is never cut: one line holds "Name 4z" when it fits, otherwise the
    name takes the lines above the health.
    """
    c = state.cell_card[at]
    if c < 0:
        return ["·".center(cell)] + [" " * cell] * (rows - 1)
    card = state.rules.catalog[c]
    mark = "z" if state.cell_exh[at] else ""
    health = f"{state.cell_hp[at]}{mark}"
    if rows == 1:
        texts = [f"{card.name} {health}"]
    else:
        texts = [*textwrap.wrap(card.name, cell, break_long_words=False), health]
    texts += [""] * (rows - len(texts))
    style = COLOURS[state.rules.owner[c]] + (" dim" if state.cell_exh[at] else " bold")
    return [f"[{style}]{escape(text.center(cell))}[/]" if text else " " * cell for text in texts]


def _lanes(state: CelestialsState, cell: int, rows: int) -> list[tuple[str, str]]:
    """The two sides' names over their halves, the positions' names, the lanes and the position numbers."""
    half = cell * B.WIDTH // 2
    sides = "".join(f"[{COLOURS[s]} bold]{escape(deck.character.center(half))}[/]" for s, deck in enumerate(state.rules.decks))
    parts = [(BOARD, "  " + sides)]
    parts.append((BOARD, "  " + "".join(name.rsplit(" ", 1)[0].center(cell) for name in B.POSITION_NAMES)))
    for lane, letter in enumerate(B.LANES):
        cells = [_cell_lines(state, B.loc(lane, p), cell, rows) for p in range(B.WIDTH)]
        tallest = max(len(lines) for lines in cells)
        cells = [lines + [" " * cell] * (tallest - len(lines)) for lines in cells]
        for row in range(tallest):
            parts.append((BOARD, (f"{letter} " if row == 0 else "  ") + "".join(lines[row] for lines in cells)))
    parts.append((BOARD, "  " + "".join(str(p).center(cell) for p in range(B.WIDTH))))
    return parts


def _parts(state: CelestialsState, seat: int | None, width: int, rows: int) -> list[tuple[str, str]]:
    names = _names(state)
    one_line = max([len(f"{name} 10z") for name in names], default=MIN_CELL)
    cell = max(MIN_CELL, min(CELL, (width - 2) // B.WIDTH))
    if rows == 1 and one_line > cell:
        cell = one_line  # the layout is then too wide, and the next one (two lines a lane) is drawn
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
    parts += _lanes(state, cell, rows)
    parts.append((TEXT, "  (health; z = exhausted)"))
    if seat is not None:
        catalog = state.rules.catalog
        hand = []
        for c in state.hands[seat]:
            card = catalog[c]
            stats = "" if card.kind in (Kind.SPELL, Kind.ADVANCE) else f" {card.damage}/{card.health}"
            hand.append(f"{card.key}{stats}")
        parts.append((TEXT, f"your hand: {escape(', '.join(hand)) or '(empty)'}"))
    limit = state.options["turn_limit"]  # counted as the log counts: each player's own turns
    mover = state.rules.decks[state.turn].character if state.current_player is not None else ""
    turn = min(state.turns_done // 2 + 1, limit)
    whose = f"{escape(mover)}'s turn" if mover else "turn"
    parts.append((TEXT, f"{whose} {turn} of {limit}, step: {STEP_NAMES[state.step]}"))
    if state.votes:
        who = state.rules.decks[state.votes[0]].character
        parts.append((TEXT, f"[bold]both draw piles are empty: {escape(who)}, reshuffle the discard piles? (reshuffle yes|no)[/]"))
    return parts


def render_fit(state: CelestialsState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """Both players, the lanes as a table with cells as wide as the terminal allows, the hand (broken into lines to fit)."""
    return first_fit([functools.partial(_parts, state, seat, width, rows) for rows in (1, 2)], width, height)


def render(state: CelestialsState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(state, seat)
